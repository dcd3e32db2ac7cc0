//! `cowrie train-eval` at CI size: the snapshots a training run keeps, evaluated in three
//! shards and merged, give the learning curve the run writes when it evaluates in-process,
//! byte for byte, as does the whole evaluation on one thread and that of the snapshots of a
//! stopped and resumed training run; each shard plays the pairs dealt to it, and `cowrie plan`
//! counts them; a changed or missing snapshot, and shards of other arguments, are refused.
mod common;
use common::{cowrie, read_rows, refused};

use std::path::{Path, PathBuf};

/// Trains the tiny network of the train tests for `games` games, evaluating (or keeping the
/// weights) every 100 games.
fn train(out: &Path, games: &str, eval_games: &str, extra: &[&str]) {
    let mut args = vec![
        "train",
        "--game",
        "frangieh",
        "--variant",
        "barakat-1974",
        "--games",
        games,
        "--hidden",
        "16",
        "--seed",
        "7",
        "--batch",
        "4",
        "--eval-every",
        "100",
        "--eval-games",
        eval_games,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = cowrie(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The arguments of `cowrie train-eval` of the snapshots in `snapshots` into `out`, 4 games
/// each unless `extra` gives another --eval-games.
fn eval_args<'a>(snapshots: &'a Path, out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "train-eval",
        "--game",
        "frangieh",
        "--variant",
        "barakat-1974",
        "--snapshots",
        snapshots.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    if !extra.contains(&"--eval-games") {
        args.extend_from_slice(&["--eval-games", "4"]);
    }
    args.extend_from_slice(extra);
    args
}

/// Runs `cowrie train-eval` as [`eval_args`] gives it.
fn evaluate(snapshots: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    cowrie(&eval_args(snapshots, out, extra))
}

fn shard(snapshots: &Path, out: &Path, k: u64) -> PathBuf {
    let dir = out.join(format!("shard{k}"));
    let o = evaluate(snapshots, &dir, &["--shard", &format!("{k}/3")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    dir
}

fn merge(out: &Path, shards: &[PathBuf]) -> std::process::Output {
    let mut args = vec!["merge", "--out", out.to_str().unwrap()];
    args.extend(shards.iter().map(|s| s.to_str().unwrap()));
    cowrie(&args)
}

#[test]
fn shards_of_the_snapshots_merge_into_the_in_process_learning_curve() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The curve evaluated in-process, and the same training keeping its weights instead.
    train(&d.join("inproc.st"), "200", "4", &[]);
    train(&d.join("kept.st"), "200", "0", &["--keep-snapshots"]);
    let snaps = d.join("kept.snapshots");
    let mut names: Vec<String> = std::fs::read_dir(&snaps)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "games-0.safetensors",
            "games-100.safetensors",
            "games-200.safetensors"
        ]
    );
    // With --eval-games 0 training writes a curve of its header only.
    assert_eq!(
        std::fs::read_to_string(d.join("kept.curve.csv"))
            .unwrap()
            .lines()
            .count(),
        1
    );

    let shards: Vec<PathBuf> = (1..=3).map(|k| shard(&snaps, d, k)).collect();
    // Three snapshots of two pairs each are the run's pairs 0..6, snapshot after snapshot;
    // shard K plays the pairs K-1 and K+2: shard 1 pair 0 of snapshot 0 and pair 1 of
    // snapshot 100, shard 2 pair 1 of snapshot 0 and pair 0 of snapshot 200, shard 3 pair 0 of
    // snapshot 100 and pair 1 of snapshot 200 (pair p is games 2p and 2p+1).
    let by_hand: [&[(&str, &str)]; 3] = [
        &[("0", "0"), ("0", "1"), ("100", "2"), ("100", "3")],
        &[("0", "2"), ("0", "3"), ("200", "0"), ("200", "1")],
        &[("100", "0"), ("100", "1"), ("200", "2"), ("200", "3")],
    ];
    for (s, want) in shards.iter().zip(by_hand) {
        let (h, rows) = read_rows(&s.join("games.csv"));
        assert_eq!(
            h.iter().collect::<Vec<_>>(),
            ["games", "game_index", "net_return"]
        );
        let got: Vec<(&str, &str)> = rows.iter().map(|r| (&r[0], &r[1])).collect();
        assert_eq!(got, want, "{}", s.display());
        // A shard writes no curve of its own.
        assert!(!s.join("curve.csv").exists());
    }

    // `cowrie plan` counts the same units: six pairs, two to each of three shards.
    let unused = d.join("unused");
    let mut args = vec!["plan", "--shards", "3"];
    args.extend(eval_args(&snaps, &unused, &[]));
    let o = cowrie(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let printed = String::from_utf8_lossy(&o.stdout);
    assert!(
        printed.contains("largest shard count with no empty shard: 6 "),
        "{printed}"
    );
    for k in 1..=3 {
        let row = format!("{k}/3                   2            4\n");
        assert!(printed.contains(&row), "{printed}");
    }

    let merged = d.join("merged");
    let o = merge(
        &merged,
        &[shards[2].clone(), shards[0].clone(), shards[1].clone()],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = |p: PathBuf| std::fs::read(p).unwrap();
    let curve = bytes(d.join("inproc.curve.csv"));
    assert_eq!(String::from_utf8_lossy(&curve).lines().count(), 4);
    assert_eq!(bytes(merged.join("curve.csv")), curve);
    assert_eq!(
        bytes(merged.join("curve.svg")),
        bytes(d.join("inproc.curve.svg"))
    );
    // The whole evaluation in one process, on one thread, writes the same curve.
    let whole = d.join("whole");
    let o = evaluate(&snaps, &whole, &["--threads", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(bytes(whole.join("curve.csv")), curve);
    // A training run stopped at 100 games and resumed keeps the snapshots of both parts, whose
    // curve is the same.
    let stop = d.join("stop.st");
    train(&stop, "100", "0", &["--keep-snapshots"]);
    train(&stop, "200", "0", &["--keep-snapshots", "--resume"]);
    let resumed = d.join("resumed");
    let o = evaluate(&d.join("stop.snapshots"), &resumed, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(bytes(resumed.join("curve.csv")), curve);

    // A shard played again with --resume (as tools/slurm/shard.sh does) writes the same games;
    // one of other arguments is refused.
    let before = bytes(shards[0].join("games.csv"));
    let again = &["--shard", "1/3", "--resume", "--quiet"];
    let o = evaluate(&snaps, &shards[0], again);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(bytes(shards[0].join("games.csv")), before);
    let other_games = &["--shard", "1/3", "--resume", "--eval-games", "6"];
    refused(&evaluate(&snaps, &shards[0], other_games), "another run");

    // Shards of another count of evaluation games are not of the same evaluation.
    let other = d.join("other");
    let o = evaluate(&snaps, &other, &["--shard", "3/3", "--eval-games", "6"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = merge(
        &d.join("m2"),
        &[shards[0].clone(), shards[1].clone(), other],
    );
    refused(&o, "run.eval_games");

    // A snapshot changed after shards 1 and 2 played it (its last weight negated: the sign
    // bit of the last little-endian f32) is refused by the merge.
    let path = snaps.join("games-100.safetensors");
    let original = bytes(path.clone());
    let mut changed = original.clone();
    *changed.last_mut().unwrap() ^= 0x80;
    std::fs::write(&path, &changed).unwrap();
    let late = d.join("late");
    let o = evaluate(&snaps, &late, &["--shard", "3/3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = merge(&d.join("m3"), &[shards[0].clone(), shards[1].clone(), late]);
    refused(&o, "games-100.safetensors");
    assert!(!d.join("m3").join("curve.csv").exists());

    // A snapshot missing from one shard's directory makes another run.
    std::fs::write(&path, &original).unwrap();
    std::fs::remove_file(snaps.join("games-200.safetensors")).unwrap();
    let short = d.join("short");
    let o = evaluate(&snaps, &short, &["--shard", "3/3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = merge(
        &d.join("m4"),
        &[shards[0].clone(), shards[1].clone(), short],
    );
    refused(&o, "run.snapshots");

    // Bad input: snapshots of other rules, an odd count of games, a directory without
    // snapshots, a bad shard, more shards than pairs.
    refused(
        &cowrie(&[
            "train-eval",
            "--game",
            "frangieh",
            "--variant",
            "barakat-1974",
            "--option",
            "hit-in-passing=off",
            "--snapshots",
            snaps.to_str().unwrap(),
            "--eval-games",
            "4",
            "--out",
            d.join("w").to_str().unwrap(),
        ]),
        "hit-in-passing=on",
    );
    refused(
        &evaluate(&snaps, &d.join("x"), &["--eval-games", "5"]),
        "--eval-games 5",
    );
    refused(
        &evaluate(&d.join("merged"), &d.join("y"), &[]),
        "--snapshots",
    );
    refused(
        &evaluate(&snaps, &d.join("z"), &["--shard", "4/3"]),
        "--shard",
    );
    // Two snapshots of two pairs each fill at most four shards.
    refused(
        &evaluate(&snaps, &d.join("z"), &["--shard", "5/5"]),
        "4 seat-swapped pairs, fewer than the 5 shards",
    );
}
