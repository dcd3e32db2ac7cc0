//! `cowrie train` at CI size: a tiny network trained for a few hundred games beats its own
//! initial weights; the weights do not depend on the thread count; `--resume` reaches the
//! weights of an uninterrupted run; weights round-trip through safetensors; weights for other
//! rules are refused with one line naming the file.
mod common;
use common::{cowrie, read_rows};

use std::path::Path;

use cowrie_agents::td::Net;

fn train(out: &Path, games: u64, extra: &[&str]) {
    let games = games.to_string();
    let mut args = vec![
        "train",
        "--game",
        "frangieh",
        "--variant",
        "barakat-1974",
        "--games",
        &games,
        "--hidden",
        "16",
        "--seed",
        "7",
        "--eval-every",
        "100",
        "--eval-games",
        "20",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = cowrie(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn weights(path: &Path) -> Net {
    let mut n = Net::load(path).unwrap();
    n.meta.clear();
    n
}

#[test]
fn a_trained_network_beats_its_initial_weights() {
    let dir = tempfile::tempdir().unwrap();
    let (init, trained) = (dir.path().join("init.st"), dir.path().join("trained.st"));
    train(&init, 0, &[]);
    train(&trained, 1000, &[]);
    let out = dir.path().join("m");
    let p1 = format!("td:weights={}", trained.display());
    let p2 = format!("td:weights={}", init.display());
    let o = cowrie(&[
        "match",
        "--game",
        "frangieh",
        "--variant",
        "barakat-1974",
        "--p1",
        &p1,
        "--p2",
        &p2,
        "--games",
        "200",
        "--seed",
        "3",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (h, rows) = read_rows(&out.join("summary.csv"));
    let col = |c: &str| h.iter().position(|x| x == c).unwrap();
    let row = rows
        .iter()
        .find(|r| r[col("label")] == *format!("p1:{p1},ply=0").as_str())
        .expect("a row for the trained network");
    let lo: f64 = row[col("ci95_low")].parse().unwrap();
    assert!(lo > 0.5, "trained network's win rate interval {row:?}");
}

#[test]
fn weights_do_not_depend_on_threads_and_resume_reaches_the_same_weights() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Weights already written are replaced only with --force.
    train(&d.join("w.st"), 0, &[]);
    let before = std::fs::read(d.join("w.st")).unwrap();
    let again = cowrie(&[
        "train",
        "--game",
        "frangieh",
        "--games",
        "0",
        "--hidden",
        "8",
        "--quiet",
        "--out",
        d.join("w.st").to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(2));
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(
        err.contains("already holds weights") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read(d.join("w.st")).unwrap(), before);
    train(&d.join("w.st"), 0, &["--force"]);
    train(&d.join("t1.st"), 300, &["--batch", "4", "--threads", "1"]);
    train(&d.join("t2.st"), 300, &["--batch", "4", "--threads", "2"]);
    assert_eq!(weights(&d.join("t1.st")), weights(&d.join("t2.st")));
    train(&d.join("r.st"), 200, &["--batch", "4"]);
    train(&d.join("r.st"), 300, &["--batch", "4", "--resume"]);
    assert_eq!(weights(&d.join("r.st")), weights(&d.join("t1.st")));
    let curve = |name: &str| std::fs::read_to_string(d.join(name)).unwrap();
    assert_eq!(curve("r.curve.csv"), curve("t1.curve.csv"));
    assert_eq!(
        curve("t1.curve.csv").lines().count(),
        5,
        "rows at 0, 100, 200, 300"
    );

    // Round trip: the file reads back to the same bytes, with its metadata.
    let bytes = std::fs::read(d.join("t1.st")).unwrap();
    let net = Net::from_bytes(&bytes, "t1.st").unwrap();
    assert_eq!(Net::from_bytes(&net.to_bytes(), "again").unwrap(), net);
    for (k, v) in [
        ("game", "frangieh"),
        ("variant", "barakat-1974"),
        ("encoding", "frangieh-tesauro-1"),
        ("outputs", "win"),
        ("games", "300"),
    ] {
        assert_eq!(net.meta.get(k).map(String::as_str), Some(v), "{k}");
    }
    assert!(net.meta["command"].contains("train --game frangieh"));
    assert_eq!(net.shape(), (196, 16, 1));

    // Resuming under other arguments is refused.
    let o = cowrie(&[
        "train",
        "--game",
        "frangieh",
        "--variant",
        "barakat-1974",
        "--games",
        "400",
        "--hidden",
        "16",
        "--seed",
        "8",
        "--resume",
        "--quiet",
        "--out",
        d.join("r.st").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("other arguments"));
}

#[test]
fn weights_for_other_rules_are_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("single.st");
    train(&w, 0, &[]);
    let spec = format!("td:weights={}", w.display());
    for (game, variant, needle) in [
        ("frangieh", "modern", "1 outputs"),
        (
            "julbahar",
            "barakat-1974",
            "trained for the game 'frangieh', not julbahar",
        ),
        ("baghchal", "five-captures", "no learned evaluation"),
    ] {
        let out = dir.path().join(format!("m-{game}"));
        let o = cowrie(&[
            "match",
            "--game",
            game,
            "--variant",
            variant,
            "--p1",
            &spec,
            "--p2",
            "random",
            "--games",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{game}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(
            e.contains(w.to_str().unwrap()) && e.contains(needle),
            "{game}: {e}"
        );
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    let o = cowrie(&[
        "match",
        "--game",
        "frangieh",
        "--p1",
        "td:weights=/no/such.st",
        "--p2",
        "random",
        "--games",
        "2",
        "--quiet",
        "--out",
        dir.path().join("x").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("'/no/such.st'"));
}
