//! `cowrie converge` through the real binary: the table's columns and values recounted from
//! each rung's `games.csv`, the intervals around their values, the same bytes with any thread
//! count, a resumed run equal to an uninterrupted one, the strength match of the top rung
//! against the one below recounted from its games, and the refusals.
mod common;
use common::{cowrie, read_rows, reduced_solve, refused};
use cowrie_experiments::cmd::converge;
use cowrie_experiments::run::digest::FileDigest;

use std::path::Path;

const AGENTS: [&str; 3] = ["random", "expectimax:depth=1", "expectimax:depth=2"];

fn converge(out: &Path, threads: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "converge",
        "--game",
        "baghchal",
        "--option",
        "repetition=threefold-draw",
        "--games",
        "16",
        "--strength-games",
        "8",
        "--seed",
        "5",
        "--threads",
        threads,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    for a in AGENTS {
        args.extend(["--agent", a]);
    }
    args.extend(extra);
    cowrie(&args)
}

fn ok(o: &std::process::Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The rung directories, in rung order.
fn rung_dirs(out: &Path) -> Vec<std::path::PathBuf> {
    ["1-random", "2-expectimax_depth_1", "3-expectimax_depth_2"]
        .iter()
        .map(|d| out.join(d))
        .collect()
}

#[test]
fn the_table_recounts_from_the_rungs_and_does_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    let text = ok(&converge(&one, "1", &[]));
    assert!(text.contains("Verdict: "), "{text}");
    // Baghchal: the goats move first, so the first mover is seat 1 in every game.
    assert!(
        text.contains("the first mover is seat 1, the goats"),
        "{text}"
    );
    ok(&converge(&two, "2", &[]));
    same_files(
        &one,
        &two,
        &[
            "converge.csv",
            "converge.txt",
            "converge.svg",
            "strength.csv",
            "verdict.csv",
        ],
    );
    let (h, rows) = read_rows(&one.join("converge.csv"));
    assert_eq!(h.iter().collect::<Vec<_>>(), converge::COLUMNS);
    // What the table promises: per rung the agent, games and pairs, each metric's value with its
    // interval clustered by pair, and the step from the previous rung with its interval.
    for c in [
        "agent",
        "games",
        "pairs",
        "value",
        "clustered_ci95_low",
        "clustered_ci95_high",
    ] {
        assert!(h.iter().any(|x| x == c), "column {c}");
    }
    for c in [
        "step_diff",
        "step_ci95_low",
        "step_ci95_high",
        "step_significant",
    ] {
        assert!(h.iter().any(|x| x == c), "column {c}");
    }
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let num = |r: &csv::StringRecord, n: &str| r[col(n)].parse::<f64>().unwrap();
    let metrics = [
        "first_mover_win_rate",
        "advantage_p1",
        "drawishness",
        "timeouts",
        "duration_plies",
    ];
    assert_eq!(rows.len(), AGENTS.len() * metrics.len());
    let mut previous: Vec<f64> = Vec::new();
    for (k, d) in rung_dirs(&one).iter().enumerate() {
        let (gh, games) = read_rows(&d.join("games.csv"));
        assert_eq!(games.len(), 16);
        let g = |n: &str| gh.iter().position(|x| x == n).unwrap();
        let count = |f: &dyn Fn(&csv::StringRecord) -> bool| {
            games.iter().filter(|r| f(r)).count() as f64 / games.len() as f64
        };
        let recount = [
            count(&|r| {
                !r[g("winner_seat")].is_empty() && r[g("winner_seat")] == r[g("first_mover_seat")]
            }),
            count(&|r| &r[g("winner_seat")] == "1"),
            count(&|r| &r[g("end_reason")] == "draw"),
            count(&|r| &r[g("end_reason")] == "truncated"),
            games
                .iter()
                .map(|r| r[g("plies")].parse::<f64>().unwrap())
                .sum::<f64>()
                / games.len() as f64,
        ];
        let mine: Vec<&csv::StringRecord> = rows
            .iter()
            .filter(|r| r[col("rung")] == (k + 1).to_string())
            .collect();
        for ((r, metric), want) in mine.iter().zip(metrics).zip(recount) {
            assert_eq!(&r[col("metric")], metric);
            assert_eq!(
                &r[col("agent")],
                games[0][g("agent_p1")].to_string().as_str()
            );
            // Self-play rungs have no seat swap: each game is a pair of its own.
            let pairs: std::collections::BTreeSet<&str> =
                games.iter().map(|r| &r[g("pair_index")]).collect();
            assert_eq!(pairs.len(), 16);
            assert_eq!((&r[col("games")], &r[col("pairs")]), ("16", "16"));
            let v = num(r, "value");
            assert!(
                (v - want).abs() < 5.1e-7,
                "rung {} {metric}: {v} != {want}",
                k + 1
            );
            let (lo, hi) = (num(r, "clustered_ci95_low"), num(r, "clustered_ci95_high"));
            assert!(
                lo <= v && v <= hi,
                "rung {} {metric}: {v} outside [{lo}, {hi}]",
                k + 1
            );
            if k == 0 {
                assert_eq!(&r[col("step_diff")], "");
            } else {
                // The step is the difference of the two rungs' values, inside its interval.
                let d = num(r, "step_diff");
                let prev = previous[metrics.iter().position(|m| *m == metric).unwrap()];
                assert!((d - (v - prev)).abs() < 2e-6, "{metric}: step {d}");
                let (slo, shi) = (num(r, "step_ci95_low"), num(r, "step_ci95_high"));
                assert!(slo <= d && d <= shi, "{metric}: {d} outside [{slo}, {shi}]");
                let sig = if slo > 0.0 || shi < 0.0 { "yes" } else { "no" };
                assert_eq!(&r[col("step_significant")], sig);
            }
        }
        previous = recount.to_vec();
        // Every rung plays the same dice and seeds: its manifest names the run's seed.
        let m: serde_json::Value = serde_json::from_slice(&read(&d.join("manifest.json"))).unwrap();
        assert_eq!(m["run"]["seed"], 5);
        assert_eq!(m["status"], "complete");
    }
    let svg = String::from_utf8(read(&one.join("converge.svg"))).unwrap();
    for a in AGENTS {
        assert!(
            svg.contains(&format!("\n{a}\n")),
            "the plot labels rung {a}"
        );
    }
}

/// Copies the finished match `from` (its manifest, games and summary) to `to`.
fn copy_finished(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for f in ["manifest.json", "games.csv", "summary.csv"] {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
}

/// Asserts that each of `files` has the same bytes in `a` and in `b`.
fn same_files(a: &Path, b: &Path, files: &[&str]) {
    for f in files {
        assert!(
            read(&a.join(f)) == read(&b.join(f)),
            "{f} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

/// Leaves in `to` the match of `from` as an interruption after `keep` games leaves it: its
/// manifest `running` and vouching for `keep` games, and a torn row after them.
fn interrupt(from: &Path, to: &Path, keep: usize) {
    std::fs::create_dir_all(to).unwrap();
    let games = read(&from.join("games.csv"));
    let kept: Vec<u8> = games
        .split_inclusive(|&b| b == b'\n')
        .take(keep + 1)
        .collect::<Vec<_>>()
        .concat();
    let mut m: serde_json::Value =
        serde_json::from_slice(&read(&from.join("manifest.json"))).unwrap();
    m["status"] = "running".into();
    m["games_written"] = keep.into();
    m["files"] = serde_json::json!({ "games.csv": FileDigest::of(&kept) });
    std::fs::write(to.join("manifest.json"), m.to_string()).unwrap();
    let torn = [&kept[..], &games[kept.len()..kept.len() + 9]].concat();
    std::fs::write(to.join("games.csv"), torn).unwrap();
}

#[test]
fn a_resumed_run_ends_with_the_bytes_of_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, cut) = (dir.path().join("whole"), dir.path().join("cut"));
    ok(&converge(&whole, "2", &[]));
    // Cut as an interruption in rung 2 leaves it: rung 1 complete, rung 2 with 6 of its 16
    // games vouched for by its manifest (and a torn row after them), rung 3 and the strength
    // match not begun, and no table yet.
    let rungs = rung_dirs(&cut);
    let src = rung_dirs(&whole);
    copy_finished(&src[0], &rungs[0]);
    std::fs::copy(whole.join("manifest.json"), cut.join("manifest.json")).unwrap();
    interrupt(&src[1], &rungs[1], 6);
    ok(&converge(&cut, "1", &["--resume"]));
    let tables = [
        "converge.csv",
        "converge.txt",
        "converge.svg",
        "strength.csv",
        "verdict.csv",
    ];
    same_files(&cut, &whole, &tables);
    for (a, b) in src.iter().zip(rung_dirs(&cut)) {
        same_files(a, &b, &["games.csv", "summary.csv"]);
    }
    // A resume of another run is refused.
    let o = cowrie(&[
        "converge",
        "--game",
        "baghchal",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--games",
        "16",
        "--quiet",
        "--out",
        cut.to_str().unwrap(),
        "--resume",
    ]);
    refused(&o, "another run");
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    let o = out.to_str().unwrap();
    let base = ["converge", "--game", "baghchal", "--quiet", "--out", o];
    let run = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend(extra);
        cowrie(&a)
    };
    refused(&run(&["--agent", "random"]), "two or more --agent");
    refused(&run(&["--agent", "random", "--agent", "wizard"]), "wizard");
    refused(
        &run(&["--agent", "random", "--agent", "heuristic", "--games", "0"]),
        "--games 0",
    );
    refused(
        &run(&[
            "--agent",
            "random",
            "--agent",
            "heuristic",
            "--strength-games",
            "7",
        ]),
        "--strength-games 7",
    );
    refused(
        &run(&["--agent", "random", "--agent", "random"]),
        "the top two rungs are the same agent",
    );
    // An agent the game does not offer is refused before any rung is played.
    refused(&run(&["--agent", "random", "--agent", "td:ply=0"]), "td");
    assert!(!out.join("1-random").exists(), "nothing played");
    refused(
        &run(&[
            "--agent",
            "random",
            "--agent",
            "heuristic",
            "--variant",
            "nope",
        ]),
        "nope",
    );
    refused(
        &cowrie(&[
            "converge", "--game", "chess", "--agent", "random", "--agent", "random", "--out", o,
        ]),
        "chess",
    );
}

/// A `perfect` rung whose database stops at the movement phase (the reduced game
/// `win-captures=2`, solved here) plays the placement by a search, so nothing about it is solved:
/// its rows are measured like any rung's, and the verdict names no solved rung. (A database
/// solved back to the start takes hours; the solved rung's arithmetic is tested in
/// `experiments/src/cmd/converge.rs`.)
#[test]
fn a_perfect_rung_outside_its_database_is_an_ordinary_rung() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let d = db.to_str().unwrap();
    ok(&cowrie(&reduced_solve(d)));
    let out = dir.path().join("c");
    let perfect = format!("perfect:db={d},depth=1");
    let text = ok(&cowrie(&[
        "converge",
        "--game",
        "baghchal",
        "--option",
        "win-captures=2",
        "--option",
        "repetition=threefold-draw",
        "--agent",
        "random",
        "--agent",
        &perfect,
        "--games",
        "8",
        "--strength-games",
        "8",
        "--seed",
        "3",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert!(!text.contains("solved start"), "{text}");
    let (h, rows) = read_rows(&out.join("converge.csv"));
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let rung2: Vec<_> = rows.iter().filter(|r| &r[col("rung")] == "2").collect();
    assert_eq!(rung2.len(), 5);
    assert!(rung2.iter().all(|r| &r[col("cluster")] == "pair"));
    assert_eq!(&rung2[0][col("agent")], perfect.as_str());
}

const UPPER: &str = "heuristic:temperature=0";

/// Frangieh, random below heuristic: 20 games a rung and a strength match of `strength` games.
fn frangieh(out: &Path, strength: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "converge",
        "--game",
        "frangieh",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--games",
        "20",
        "--strength-games",
        strength,
        "--seed",
        "11",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    cowrie(&args)
}

/// The upper rung's pair score over the seat-swapped pairs of a match's `games.csv` and its
/// 95% interval, recounted: each pair's points halved, their mean `s` and variance `v` over `N`
/// pairs, `s ± 1.959964 √(v/N)`; where every pair ended alike, Wilson's interval at `s` over `N`.
fn pair_score(games: &Path) -> (usize, f64, f64, f64) {
    let (h, rows) = read_rows(games);
    let c = |n: &str| h.iter().position(|x| x == n).unwrap();
    let mut points: std::collections::BTreeMap<u64, Vec<Option<f64>>> = Default::default();
    for r in &rows {
        let seat = if &r[c("agent_p1")] == UPPER { "1" } else { "2" };
        let p = match (&r[c("end_reason")], &r[c("winner_seat")]) {
            ("truncated", _) => None,
            (_, "") => Some(0.5),
            (_, w) => Some(if w == seat { 1.0 } else { 0.0 }),
        };
        points
            .entry(r[c("pair_index")].parse().unwrap())
            .or_default()
            .push(p);
    }
    let xs: Vec<f64> = points
        .values()
        .filter_map(|v| match v.as_slice() {
            [Some(a), Some(b)] => Some((a + b) / 2.0),
            _ => None,
        })
        .collect();
    let n = xs.len() as f64;
    let s = xs.iter().sum::<f64>() / n;
    let v = xs.iter().map(|x| (x - s).powi(2)).sum::<f64>() / n;
    let z = 1.959_964;
    if v > 0.0 {
        let h = z * (v / n).sqrt();
        (xs.len(), s, (s - h).max(0.0), (s + h).min(1.0))
    } else {
        let d = 1.0 + z * z / n;
        let centre = (s + z * z / (2.0 * n)) / d;
        let half = z / d * (s * (1.0 - s) / n + z * z / (4.0 * n * n)).sqrt();
        let lo = if s == 0.0 { 0.0 } else { centre - half };
        let hi = if s == 1.0 { 1.0 } else { centre + half };
        (xs.len(), s, lo, hi)
    }
}

#[test]
fn the_strength_match_is_played_recounted_written_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let text = ok(&frangieh(&whole, "40", &[]));
    let matched = whole.join("strength-2-v-1");
    let (_, games) = read_rows(&matched.join("games.csv"));
    assert_eq!(games.len(), 40);
    // The strength table: the top rung against the one below, its pair score recounted.
    let (h, rows) = read_rows(&whole.join("strength.csv"));
    assert_eq!(h.iter().collect::<Vec<_>>(), converge::STRENGTH_COLUMNS);
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let num = |n: &str| r[col(n)].parse::<f64>().unwrap();
    assert_eq!((&r[col("upper_rung")], &r[col("lower_rung")]), ("2", "1"));
    assert_eq!((&r[col("upper")], &r[col("lower")]), (UPPER, "random"));
    assert_eq!(&r[col("games")], "40");
    let (pairs, s, lo, hi) = pair_score(&matched.join("games.csv"));
    assert_eq!(r[col("pairs")].parse::<usize>().unwrap(), pairs);
    for (name, want) in [
        ("pair_score", s),
        ("pair_score_ci95_low", lo),
        ("pair_score_ci95_high", hi),
    ] {
        assert!(
            (num(name) - want).abs() < 2e-6,
            "{name}: {} != {want}",
            num(name)
        );
    }
    let stronger = lo > 0.5;
    assert_eq!(
        &r[col("pair_significant")],
        if stronger { "yes" } else { "no" }
    );
    // The verdict table: each answer against the two conditions, from the other tables.
    let (ch, crows) = read_rows(&whole.join("converge.csv"));
    let cc = |n: &str| ch.iter().position(|x| x == n).unwrap();
    let (vh, vrows) = read_rows(&whole.join("verdict.csv"));
    assert_eq!(vh.iter().collect::<Vec<_>>(), converge::VERDICT_COLUMNS);
    let vc = |n: &str| vh.iter().position(|x| x == n).unwrap();
    let metrics: Vec<&str> = vrows.iter().map(|v| &v[vc("metric")]).collect();
    assert_eq!(metrics, ["first_mover_win_rate", "drawishness"]);
    for v in &vrows {
        let last = crows
            .iter()
            .find(|c| &c[cc("rung")] == "2" && c[cc("metric")] == v[vc("metric")])
            .unwrap();
        let (slo, shi): (f64, f64) = (
            last[cc("step_ci95_low")].parse().unwrap(),
            last[cc("step_ci95_high")].parse().unwrap(),
        );
        assert_eq!(&v[vc("last_step_ci95_low")], &last[cc("step_ci95_low")]);
        let within = slo >= -0.02 && shi <= 0.02;
        assert_eq!(&v[vc("within_margin")], if within { "yes" } else { "no" });
        assert_eq!(&v[vc("top_stronger")], if stronger { "yes" } else { "no" });
        let settled = stronger && within;
        assert_eq!(&v[vc("settled")], if settled { "yes" } else { "no" });
    }
    // Frangieh has no draws: the draw share's step is exactly 0, within the margin; 20 games a
    // rung cannot bring the first mover's step within it.
    assert_eq!(&vrows[1][vc("within_margin")], "yes");
    assert_eq!(&vrows[0][vc("within_margin")], "no");
    assert!(
        text.contains("the first mover's win rate is not settled")
            && text.contains("than ±2 points"),
        "{text}"
    );
    assert!(
        text.contains(&format!("Strength: {UPPER} against random, 40 games")),
        "{text}"
    );

    // Interrupted after 10 games of the strength match, with every rung done and no table.
    let cut = dir.path().join("cut");
    for d in ["1-random", "2-heuristic_temperature_0"] {
        copy_finished(&whole.join(d), &cut.join(d));
    }
    std::fs::copy(whole.join("manifest.json"), cut.join("manifest.json")).unwrap();
    interrupt(&matched, &cut.join("strength-2-v-1"), 10);
    ok(&frangieh(&cut, "40", &["--resume"]));
    same_files(
        &cut,
        &whole,
        &[
            "converge.csv",
            "converge.txt",
            "strength.csv",
            "verdict.csv",
            "strength-2-v-1/games.csv",
        ],
    );
    // A resume asking another strength match is another run.
    refused(&frangieh(&cut, "20", &["--resume"]), "another run");

    // No strength match: nothing played beyond the rungs, and nothing settled.
    let none = dir.path().join("none");
    let text = ok(&frangieh(&none, "0", &[]));
    assert!(!none.join("strength-2-v-1").exists() && !none.join("strength.csv").exists());
    let (_, vrows) = read_rows(&none.join("verdict.csv"));
    for v in &vrows {
        assert_eq!(
            (&v[vc("top_stronger")], &v[vc("settled")]),
            ("not played", "no")
        );
    }
    assert!(
        text.contains("the draw share is not settled: the top rung is not shown stronger than the rung below: no strength match was played (--strength-games 0)"),
        "{text}"
    );
}
