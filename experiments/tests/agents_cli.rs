//! `cowrie match` with the search agents: canonical specs in the CSV, output independent of the
//! thread count, the manifest's `reproducible` flag, budget errors.
mod common;
use common::cowrie;

use std::process::Output;

fn run_match(out: &str, p1: &str, p2: &str, threads: &str) -> Output {
    cowrie(&[
        "match",
        "--game",
        "baghchal",
        "--option",
        "ply-cap=120",
        "--p1",
        p1,
        "--p2",
        p2,
        "--games",
        "4",
        "--seed",
        "3",
        "--threads",
        threads,
        "--out",
        out,
        "--quiet",
    ])
}

fn manifest(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn search_agents_play_reproducibly_with_canonical_specs() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for (path, threads) in [(&a, "1"), (&b, "2")] {
        let o = run_match(
            path.to_str().unwrap(),
            "mcts:iterations=40",
            "heuristic",
            threads,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let csv = std::fs::read_to_string(a.join("games.csv")).unwrap();
    assert_eq!(csv, std::fs::read_to_string(b.join("games.csv")).unwrap());
    assert!(csv.contains("\"mcts:iterations=40,c=1.4,rollout=random,cutoff=none\""));
    assert!(csv.contains(",heuristic:temperature=0,"));
    assert_eq!(manifest(&a)["reproducible"], true);
}

#[test]
fn time_budgets_are_recorded_as_not_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let o = run_match(
        dir.path().to_str().unwrap(),
        "mcts:ms=1",
        "expectimax:depth=1",
        "1",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(manifest(dir.path())["reproducible"], false);
}

#[test]
fn a_search_without_a_budget_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let o = run_match(dir.path().to_str().unwrap(), "mcts:c=2", "random", "1");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("needs a budget"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
