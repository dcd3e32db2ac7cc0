//! The second definitions of first mover, run through the real binary: Bargese's first player
//! to enter a piece, Julbahar's first mover per game inside a match; and the reference rule
//! set's difference from itself.
mod common;
use common::{cowrie, read_rows};

use std::path::Path;

/// The `value` of `metric` in a one-rule-set `compare.csv`, and the row.
fn metric(dir: &Path, metric: &str) -> (f64, csv::StringRecord) {
    let (h, rows) = read_rows(&dir.join("compare.csv"));
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let row = rows
        .iter()
        .find(|r| &r[col("metric")] == metric)
        .unwrap_or_else(|| panic!("no metric {metric}"))
        .clone();
    (row[col("value")].parse().unwrap(), row)
}

/// Equal to the six decimals the CSV keeps.
fn close(csv_value: f64, expected: f64) {
    assert!(
        (csv_value - expected).abs() < 5.1e-7,
        "{csv_value} != {expected}"
    );
}

fn advantage(game: &str, variant: &str, agent: &str, games: &str, out: &Path) -> String {
    let o = cowrie(&[
        "advantage",
        "--game",
        game,
        "--variant",
        variant,
        "--agent",
        agent,
        "--games",
        games,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn bargese_reports_the_first_player_to_enter_separately() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("adv");
    // `summary` has no opening throw: seat 1 moves first, but need not enter first.
    let text = advantage("bargese", "summary", "random", "60", &out);
    assert!(text.contains("first_enterer_win_rate"), "{text}");
    // Recount from games.csv: games won by the seat in `first_entered`.
    let (gh, games) = read_rows(&out.join("1-summary/games.csv"));
    let g = |n: &str| gh.iter().position(|x| x == n).unwrap();
    let wins = games
        .iter()
        .filter(|r| !r[g("winner_seat")].is_empty() && r[g("winner_seat")] == r[g("first_entered")])
        .count();
    let (v, _) = metric(&out, "first_enterer_win_rate");
    close(v, wins as f64 / 60.0);
    // The definitions differ on some game: the throw's winner need not enter first.
    let differ = games
        .iter()
        .filter(|r| r[g("first_mover_seat")] != r[g("first_entered")])
        .count();
    assert!(
        differ > 0,
        "the shell throw's winner entered first in every game"
    );
    // `finkel-2002` has the three-shell throw: its winner is the first mover, whoever enters first
    // (no decision comes before some player throws a dust or bange).
    let fk = dir.path().join("fk");
    advantage("bargese", "finkel-2002", "random", "40", &fk);
    let (gh, games) = read_rows(&fk.join("1-finkel-2002/games.csv"));
    let g = |n: &str| gh.iter().position(|x| x == n).unwrap();
    assert!(games
        .iter()
        .all(|r| !r[g("shells_winner")].is_empty()
            && r[g("first_mover_seat")] == r[g("shells_winner")]));
    assert!(
        games
            .iter()
            .any(|r| r[g("first_mover_seat")] != r[g("first_entered")]),
        "the shell throw's winner entered first in every game"
    );
    let wins = games
        .iter()
        .filter(|r| r[g("winner_seat")] == r[g("shells_winner")])
        .count();
    close(metric(&fk, "first_mover_win_rate").0, wins as f64 / 40.0);
    // Games without the column report no such metric.
    let f = dir.path().join("f");
    let text = advantage("frangieh", "modern", "random", "20", &f);
    assert!(!text.contains("first_enterer"));
}

#[test]
fn julbahar_reports_the_first_mover_per_game_and_per_match() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("adv");
    advantage("julbahar", "barakat-1974", "random", "20", &out);
    let (sh, subgames) = read_rows(&out.join("1-barakat-1974/subgames.csv"));
    let s = |n: &str| sh.iter().position(|x| x == n).unwrap();
    let n = subgames.len() as f64;
    let finished: Vec<_> = subgames
        .iter()
        .filter(|r| !r[s("bore_off_seat")].is_empty())
        .collect();
    let fm_wins = finished
        .iter()
        .filter(|r| r[s("bore_off_seat")] == r[s("first_mover_seat")])
        .count() as f64;
    let seat1 = finished
        .iter()
        .filter(|r| &r[s("bore_off_seat")] == "1")
        .count() as f64;
    assert!(n > 40.0, "random matches to 31 last several games each");
    close(metric(&out, "subgames").0, n);
    close(metric(&out, "subgame_first_mover_win_rate").0, fm_wins / n);
    close(metric(&out, "subgame_seat1_win_rate").0, seat1 / n);
    close(
        metric(&out, "subgame_unfinished").0,
        (n - finished.len() as f64) / n,
    );
    close(
        metric(&out, "subgame_first_mover_win_rate_finished").0,
        fm_wins / finished.len() as f64,
    );
    // Per match: the first mover of the match is the first mover of its game 1.
    let (gh, games) = read_rows(&out.join("1-barakat-1974/games.csv"));
    let g = |n: &str| gh.iter().position(|x| x == n).unwrap();
    for m in &games {
        let first_game = subgames
            .iter()
            .find(|r| r[s("game_index")] == m[g("game_index")] && &r[s("game_number")] == "1")
            .unwrap();
        assert_eq!(first_game[s("first_mover_seat")], m[g("first_mover_seat")]);
    }
    let match_wins = games
        .iter()
        .filter(|r| {
            !r[g("winner_seat")].is_empty() && r[g("winner_seat")] == r[g("first_mover_seat")]
        })
        .count() as f64;
    close(metric(&out, "first_mover_win_rate").0, match_wins / 20.0);
}

#[test]
fn the_reference_rule_set_differs_from_itself_by_exactly_zero() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cmp");
    let o = cowrie(&[
        "compare",
        "--game",
        "baghchal",
        "--set",
        "five-captures",
        "--set",
        "averbakh-1995",
        "--agent",
        "random",
        "--games",
        "40",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (h, rows) = read_rows(&out.join("compare.csv"));
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let mut seen = 0;
    for r in &rows {
        if &r[col("rule_set")] == "five-captures" {
            seen += 1;
            for c in ["diff_vs_first", "diff_ci95_low", "diff_ci95_high"] {
                assert_eq!(&r[col(c)], "0.000000", "{} {c}", &r[col("metric")]);
            }
        } else if &r[col("metric")] == "advantage_p1" {
            // Another rule set's difference keeps an interval of positive width.
            let lo: f64 = r[col("diff_ci95_low")].parse().unwrap();
            let hi: f64 = r[col("diff_ci95_high")].parse().unwrap();
            assert!(lo < hi);
        }
    }
    assert_eq!(seen, 10);
}
