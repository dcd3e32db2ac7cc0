//! `cowrie ladder`: output independent of the thread count, the ladder table recomputed from the
//! games it played, one-line errors with exit code 2.
mod common;
use common::cowrie;

use std::path::Path;
use std::process::Output;

fn ladder(out: &Path, threads: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "ladder",
        "--game",
        "baghchal",
        "--option",
        "ply-cap=80",
        "--rung",
        "random",
        "--rung",
        "heuristic",
        "--rung",
        "mcts:iterations=20,rollout=heuristic,cutoff=4",
        "--games-per-pair",
        "8",
        "--seed",
        "5",
        "--threads",
        threads,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    cowrie(&args)
}

fn records(path: &Path) -> Vec<csv::StringRecord> {
    let mut r = csv::Reader::from_path(path).expect("csv exists");
    r.records().map(|x| x.expect("row")).collect()
}

#[test]
fn a_ladder_is_the_same_with_one_or_two_threads_and_its_table_follows_from_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let copy = dir.path().join("copy.csv");
    let o = ladder(&a, "1", &["--csv", copy.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = ladder(&b, "2", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["ladder.csv", "games.csv"] {
        assert_eq!(
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
            "{f}"
        );
    }
    assert_eq!(
        std::fs::read(a.join("ladder.csv")).unwrap(),
        std::fs::read(&copy).unwrap()
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(a.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["status"], "complete");
    assert_eq!(manifest["command"], "ladder");
    assert_eq!(manifest["games_written"], 16);

    // Recount the upper rung's results from games.csv: step s pits rung s (as --p1, seat 1 in
    // even games) against rung s - 1.
    let games = records(&a.join("games.csv"));
    assert_eq!(games.len(), 16);
    let table = records(&a.join("ladder.csv"));
    assert_eq!(table.len(), 6, "three rows per step");
    for row in &table {
        let step: usize = row[0].parse().unwrap();
        let seat = &row[5];
        let (mut n, mut w, mut d, mut l, mut t) = (0u64, 0u64, 0u64, 0u64, 0u64);
        for g in games.iter().filter(|g| g[0] == row[0]) {
            let index: u64 = g[1].parse().unwrap();
            let upper_seat = if index.is_multiple_of(2) { "1" } else { "2" };
            if seat != "both" && seat != upper_seat {
                continue;
            }
            let upper_spec = if upper_seat == "1" { &g[7] } else { &g[8] };
            assert_eq!(upper_spec, &row[3], "step {step}: the upper rung's seat");
            n += 1;
            match (&g[14], &g[10]) {
                ("draw", _) => d += 1,
                ("win", winner) if winner == upper_seat => w += 1,
                ("win", _) => l += 1,
                _ => t += 1,
            }
        }
        let counts: Vec<u64> = (7..12).map(|c| row[c].parse().unwrap()).collect();
        assert_eq!(counts, [n, w, d, l, t], "{row:?}");
        let rate: f64 = row[12].parse().unwrap();
        assert!((rate - w as f64 / n as f64).abs() < 1e-6, "{row:?}");
        let (lo, hi): (f64, f64) = (row[13].parse().unwrap(), row[14].parse().unwrap());
        assert!(lo <= rate && rate <= hi, "{row:?}");
        let decided: f64 = row[16].parse().unwrap();
        if w + l > 0 {
            assert!(
                (decided - w as f64 / (w + l) as f64).abs() < 1e-6,
                "{row:?}"
            );
        }
        let dlo: f64 = row[17].parse().unwrap();
        assert_eq!(&row[19], if dlo > 0.5 { "yes" } else { "no" }, "{row:?}");
    }
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("heuristic:temperature=0 v random"),
        "{stdout}"
    );
}

#[test]
fn bad_ladders_get_one_line_errors_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    let o = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "ladder", "--game", "baghchal", "--rung", "random", "--out", o,
            ],
            "two or more --rung",
        ),
        (
            vec![
                "ladder",
                "--game",
                "baghchal",
                "--rung",
                "random",
                "--rung",
                "random",
                "--games-per-pair",
                "3",
                "--out",
                o,
            ],
            "--games-per-pair 3",
        ),
        (
            vec![
                "ladder", "--game", "chess", "--rung", "random", "--rung", "random", "--out", o,
            ],
            "'chess'",
        ),
        (
            vec![
                "ladder",
                "--game",
                "baghchal",
                "--rung",
                "random",
                "--rung",
                "random",
                "--csv",
                "/nonexistent-dir/ladder.csv",
                "--out",
                o,
            ],
            "--csv '/nonexistent-dir/ladder.csv'",
        ),
        (
            vec![
                "ladder",
                "--game",
                "baghchal",
                "--option",
                "colour=red",
                "--rung",
                "random",
                "--rung",
                "random",
                "--out",
                o,
            ],
            "colour",
        ),
        (
            vec![
                "ladder", "--game", "baghchal", "--rung", "random", "--rung", "mcts:c=2", "--out",
                o,
            ],
            "budget",
        ),
        (
            vec![
                "ladder",
                "--game",
                "baghchal",
                "--rung",
                "random",
                "--rung",
                "random",
                "--threads",
                "0",
                "--out",
                o,
            ],
            "at least one worker thread",
        ),
    ];
    for (args, needle) in cases {
        let r = cowrie(&args);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn a_comparison_whose_every_pair_is_truncated_prints_no_score_and_says_why() {
    // Two plies per game: no Baghchal game can end by then (the tigers need captures), so every
    // game is truncated and no pair counts.
    let dir = tempfile::tempdir().unwrap();
    for (command, agent, count) in [
        ("ladder", "--rung", "--games-per-pair"),
        ("tournament", "--agent", "--games-per-pair"),
        ("converge", "--agent", "--games"),
    ] {
        let out = dir.path().join(command);
        let mut args = vec![
            command,
            "--game",
            "baghchal",
            "--option",
            "ply-cap=2",
            agent,
            "random",
            agent,
            "heuristic",
            count,
            "4",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        if command == "converge" {
            args.extend(["--strength-games", "4"]);
        }
        let o = cowrie(&args);
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!text.to_lowercase().contains("nan"), "{command}: {text}");
        assert!(
            text.contains("none: every pair has a truncated game"),
            "{command}: {text}"
        );
        for csv in std::fs::read_dir(&out).unwrap() {
            let csv = csv.unwrap().path();
            if csv.extension().is_some_and(|e| e == "csv") {
                let bytes = std::fs::read_to_string(&csv).unwrap();
                assert!(!bytes.to_lowercase().contains("nan"), "{}", csv.display());
            }
        }
    }
}
