//! The pair-level columns of `compare.csv`, `ladder.csv` and a study's `summary.csv`, recomputed
//! here from the runs' own `games.csv` by the formulas of docs/metrics.md, written out again
//! (not through the library's estimators).
mod common;
use common::{cowrie, read_rows};

use std::path::Path;

use statrs::distribution::{ContinuousCDF, Normal};

const Z: f64 = 1.959_963_984_540_054;

/// Runs `cowrie` quietly into `out`, which must succeed; returns what it printed.
fn run(args: &[&str], out: &Path) -> String {
    let mut all = args.to_vec();
    all.extend(["--quiet", "--out", out.to_str().unwrap()]);
    let o = cowrie(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn close(csv_value: &str, expected: f64) {
    let v: f64 = csv_value
        .parse()
        .unwrap_or_else(|_| panic!("'{csv_value}'"));
    assert!((v - expected).abs() < 5.1e-7, "{v} != {expected}");
}

/// Per pair (the rows sharing a `pair_index`: games 2k and 2k + 1 when seats are swapped, each
/// game alone in self-play), seat 1's wins, seat 2's wins and the pair's games.
fn pairs(dir: &Path) -> Vec<(f64, f64, f64)> {
    let (h, rows) = read_rows(&dir.join("games.csv"));
    let ws = h.iter().position(|x| x == "winner_seat").unwrap();
    let pi = h.iter().position(|x| x == "pair_index").unwrap();
    let mut out: Vec<(String, f64, f64, f64)> = Vec::new();
    for r in &rows {
        if out.last().map(|p| p.0.as_str()) != Some(&r[pi]) {
            out.push((r[pi].to_string(), 0.0, 0.0, 0.0));
        }
        let last = out.last_mut().unwrap();
        last.3 += 1.0;
        match &r[ws] {
            "1" => last.1 += 1.0,
            "2" => last.2 += 1.0,
            _ => {}
        }
    }
    out.into_iter().map(|(_, a, b, m)| (a, b, m)).collect()
}

#[test]
fn compare_columns_follow_from_the_pairs_of_each_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cmp");
    run(
        &[
            "compare",
            "--game",
            "bargese",
            "--set",
            "finkel-2002",
            "--set",
            "ludii",
            "--agent",
            "random",
            "--games",
            "200",
            "--seed",
            "3",
        ],
        &out,
    );
    let a = pairs(&out.join("1-finkel-2002"));
    let b = pairs(&out.join("2-ludii"));
    // Self-play: no seat swap, so each game is its own pair.
    assert!(a.iter().chain(&b).all(|p| p.2 == 1.0));
    let k = a.len() as f64;
    let n: f64 = a.iter().map(|p| p.2).sum();
    let mean = |x: &[(f64, f64, f64)]| x.iter().map(|p| p.0).sum::<f64>() / n;
    let (pa, pb) = (mean(&a), mean(&b));

    let (h, rows) = read_rows(&out.join("compare.csv"));
    let col = |c: &str| h.iter().position(|x| x == c).unwrap();
    let row = |set: &str, metric: &str| {
        rows.iter()
            .find(|r| &r[col("rule_set")] == set && &r[col("metric")] == metric)
            .unwrap()
            .clone()
    };
    let r = row("ludii", "advantage_p1");
    assert_eq!(&r[col("cluster")], "pair");
    // Clustered variance of seat 1's win rate, its design effect, Wilson at n / deff.
    let var = k / (k - 1.0) * b.iter().map(|p| (p.0 - p.2 * pb).powi(2)).sum::<f64>() / (n * n);
    let deff = var / (pb * (1.0 - pb) / n);
    close(&r[col("design_effect")], deff);
    let ne = n / deff;
    let centre = (pb + Z * Z / (2.0 * ne)) / (1.0 + Z * Z / ne);
    let half = Z / (1.0 + Z * Z / ne) * (pb * (1.0 - pb) / ne + Z * Z / (4.0 * ne * ne)).sqrt();
    close(&r[col("clustered_ci95_low")], centre - half);
    close(&r[col("clustered_ci95_high")], centre + half);
    // The paired difference from the reference, pair by pair.
    let ss: f64 = a
        .iter()
        .zip(&b)
        .map(|(x, y)| ((y.0 - y.2 * pb) - (x.0 - x.2 * pa)) / n)
        .map(|r| r * r)
        .sum();
    let se = (k / (k - 1.0) * ss).sqrt();
    close(&r[col("paired_diff_ci95_low")], pb - pa - Z * se);
    close(&r[col("paired_diff_ci95_high")], pb - pa + Z * se);
    let normal = Normal::new(0.0, 1.0).unwrap();
    close(
        &r[col("diff_p_value")],
        2.0 * normal.cdf(-((pb - pa) / se).abs()),
    );
    // The test of equal wins: seat 1's wins minus seat 2's, per pair.
    let d = b.iter().map(|p| p.0 - p.1).sum::<f64>() / n;
    let ss: f64 = b.iter().map(|p| (p.0 - p.1 - p.2 * d).powi(2)).sum();
    let se = (k / (k - 1.0) * ss).sqrt() / n;
    close(&r[col("p_value")], 2.0 * normal.cdf(-(d / se).abs()));

    // The family: three declared win rates (seat 1, first mover, first to enter) in each of
    // two rule sets, and their differences for the second: nine hypotheses.
    let filled = |a: &str, b: &str| -> Vec<f64> {
        rows.iter()
            .flat_map(|r| [r[col(a)].to_string(), r[col(b)].to_string()])
            .filter(|x| !x.is_empty())
            .map(|x| x.parse().unwrap())
            .collect()
    };
    let ps = filled("p_value", "diff_p_value");
    assert_eq!(ps.len(), 9);
    let least = ps.iter().copied().fold(f64::INFINITY, f64::min);
    let holm = filled("p_holm", "diff_p_holm");
    assert_eq!(holm.len(), 9);
    let least_holm = holm.iter().copied().fold(f64::INFINITY, f64::min);
    assert!((least_holm - (9.0 * least).min(1.0)).abs() < 1e-5);
    // The reference's difference from itself is no hypothesis.
    assert_eq!(&row("finkel-2002", "advantage_p1")[col("diff_p_value")], "");
}

#[test]
fn ladder_pair_columns_follow_from_the_pentanomial_counts() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lad");
    run(
        &[
            "ladder",
            "--game",
            "bargese",
            "--rung",
            "random",
            "--rung",
            "heuristic",
            "--games-per-pair",
            "120",
        ],
        &out,
    );
    // The upper rung (heuristic) is --p1: seat 1 in even games, seat 2 in odd ones.
    let (gh, games) = read_rows(&out.join("steps/1-1-v-0/games.csv"));
    let ws = gh.iter().position(|x| x == "winner_seat").unwrap();
    let scores: Vec<f64> = games
        .chunks(2)
        .map(|p| {
            let first = f64::from(u8::from(&p[0][ws] == "1"));
            let second = f64::from(u8::from(&p[1][ws] == "2"));
            (first + second) / 2.0
        })
        .collect();
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
    let (h, rows) = read_rows(&out.join("ladder.csv"));
    let col = |c: &str| h.iter().position(|x| x == c).unwrap();
    let both = rows
        .iter()
        .find(|r| &r[col("upper_seat")] == "both")
        .unwrap();
    assert_eq!(&both[col("pairs")], "60");
    close(&both[col("pair_score")], mean);
    close(
        &both[col("pair_score_ci95_low")],
        mean - Z * (var / n).sqrt(),
    );
    close(
        &both[col("pair_score_ci95_high")],
        mean + Z * (var / n).sqrt(),
    );
    close(&both[col("elo")], -400.0 * (1.0 / mean - 1.0).log10());
    // One step: Holm leaves its p-value as it is.
    assert_eq!(both[col("p_holm")], both[col("p_value")]);
    let seat1 = rows.iter().find(|r| &r[col("upper_seat")] == "1").unwrap();
    assert_eq!(&seat1[col("pair_score")], "");
}

#[test]
fn a_study_takes_its_seed_from_its_name_unless_given_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("study");
    let printed = run(&["study", "--name", "replication", "--games", "2"], &out);
    let seed_of = |dir: &Path| {
        let m: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("bargese/1-finkel-2002/manifest.json")).unwrap(),
        )
        .unwrap();
        m["run"]["seed"].as_u64().unwrap()
    };
    assert_eq!(
        seed_of(&out),
        cowrie_experiments::run::seeds::study_seed("replication")
    );
    let (h, _) = read_rows(&out.join("summary.csv"));
    assert!(h.iter().any(|c| c == "study_p_holm"));
    // The printed table is the directory's README.md, its columns aligned whatever an agent
    // spec's length: every row of a variant (game, variant, agent, then its games count, 2)
    // ends that count where the header ends "games".
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("```text\n{printed}```")),
        "{readme}"
    );
    let header = printed.lines().nth(1).unwrap();
    assert!(
        header.starts_with("game ") && header.contains(" truncated "),
        "{header}"
    );
    assert!(!printed.contains("timeouts"), "{printed}");
    let end = header.find(" games").unwrap() + " games".len();
    let rows: Vec<&str> = printed
        .lines()
        .filter(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            ["baghchal", "frangieh", "julbahar", "bargese"].contains(&cells[0])
                && cells.get(3) == Some(&"2")
        })
        .collect();
    assert!(rows.len() >= 10, "{printed}");
    // Julbahar's variants each played by their own network.
    let julbahar_net = "td:ply=0";
    assert!(
        rows.iter()
            .any(|r| r.starts_with("julbahar") && r.contains(julbahar_net)),
        "{printed}"
    );
    for r in &rows {
        assert_eq!(&r[end - 2..=end], " 2 ", "{header}\n{r}");
    }
    assert!(printed.contains(&format!(
        "seed {} (from the study's name)",
        cowrie_experiments::run::seeds::study_seed("replication")
    )));
    let given = dir.path().join("given");
    run(
        &[
            "study",
            "--name",
            "replication",
            "--seed",
            "7",
            "--games",
            "2",
        ],
        &given,
    );
    assert_eq!(seed_of(&given), 7);
    // A finished study is replaced only with --force; the refusal leaves it as it was.
    let summary = std::fs::read(given.join("summary.csv")).unwrap();
    let again = [
        "study", "--name", "other", "--games", "2", "--quiet", "--out",
    ];
    let mut refused = again.to_vec();
    refused.push(given.to_str().unwrap());
    let o = cowrie(&refused);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("already holds a study") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read(given.join("summary.csv")).unwrap(), summary);
    refused.push("--force");
    let o = cowrie(&refused);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_ne!(seed_of(&given), 7);
}
