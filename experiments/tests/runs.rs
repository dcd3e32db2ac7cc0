//! Runs that survive: kill-and-resume, shards and merge, records and replay — all through the
//! real binary in temporary directories, compared byte for byte with an uninterrupted run.
mod common;
use common::cowrie;
use cowrie_experiments::run::digest::FileDigest;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn ok(o: &Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn base<'a>(games: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "match",
        "--game",
        "baghchal",
        "--p1",
        "random",
        "--p2",
        "random",
        "--games",
        games,
        "--seed",
        "3",
        "--threads",
        "2",
        "--quiet",
        "--out",
        out,
    ]
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn status(dir: &Path) -> String {
    let m: serde_json::Value =
        serde_json::from_str(&String::from_utf8(read(&dir.join("manifest.json"))).unwrap())
            .unwrap();
    m["status"].as_str().unwrap().to_string()
}

/// Starts a run, kills it with `signal` once `games.csv` has grown past `bytes`, and returns
/// its output if it was still running when killed.
fn start_and_kill(args: &[&str], dir: &Path, bytes: u64, signal: &str) -> Option<Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cowrie"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    let csv = dir.join("games.csv");
    while std::fs::metadata(&csv).map_or(0, |m| m.len()) < bytes {
        if child.try_wait().unwrap().is_some() || t.elapsed() > Duration::from_secs(60) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    let out = child.wait_with_output().unwrap();
    killed.then_some(out)
}

#[test]
fn kill_and_resume_ends_with_the_bytes_of_an_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let cut = dir.path().join("cut");
    let games = "200000";
    ok(&cowrie(&base(games, whole.to_str().unwrap())));
    for signal in ["-KILL", "-INT"] {
        let _ = std::fs::remove_dir_all(&cut);
        let args = base(games, cut.to_str().unwrap());
        let out =
            start_and_kill(&args, &cut, 1_000_000, signal).expect("run ended before the kill");
        assert_ne!(
            status(&cut),
            "complete",
            "an interrupted run never says complete"
        );
        if signal == "-INT" {
            // SIGINT: what is finished is written, then one line on how to resume, exit 130.
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(130), "{err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(err.contains("--resume"), "{err}");
            assert_eq!(status(&cut), "interrupted");
        }
        let rows_before = read(&cut.join("games.csv"));
        assert!(rows_before.len() < read(&whole.join("games.csv")).len());
        // A torn last line, as a crash in mid-write leaves it.
        let mut torn = rows_before.clone();
        torn.extend_from_slice(b"999999,4999");
        std::fs::write(cut.join("games.csv"), torn).unwrap();
        let mut resume = args.clone();
        resume.push("--resume");
        ok(&cowrie(&resume));
        assert_eq!(status(&cut), "complete");
        for f in ["games.csv", "summary.csv"] {
            assert!(
                read(&cut.join(f)) == read(&whole.join(f)),
                "{signal}: {f} differs after resume"
            );
        }
    }
}

#[test]
fn resume_refuses_another_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = out.to_str().unwrap();
    ok(&cowrie(&base("100", o)));
    let mut args = base("100", o);
    assert_eq!(args[9], "--seed");
    args[10] = "4";
    args.push("--resume");
    let r = cowrie(&args);
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("seed"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1);
}

#[test]
fn resuming_a_finished_run_keeps_its_record() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = out.to_str().unwrap();
    ok(&cowrie(&base("20", o)));
    let read = |name: &str| std::fs::read(out.join(name)).unwrap();
    let manifest = |bytes: &[u8]| serde_json::from_slice::<serde_json::Value>(bytes).unwrap();
    let (before, page) = (manifest(&read("manifest.json")), read("index.html"));
    let mut args = base("20", o);
    args.push("--resume");
    ok(&cowrie(&args));
    let after = manifest(&read("manifest.json"));
    for field in [
        "started",
        "finished",
        "elapsed_seconds",
        "distinct_games",
        "files",
    ] {
        assert_eq!(after[field], before[field], "{field}");
    }
    assert_eq!(after["distinct_games"], 20);
    assert_eq!(read("index.html"), page);
}

#[test]
fn shards_merge_into_the_bytes_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    ok(&cowrie(
        &[&base("1000", whole.to_str().unwrap())[..], &["--record"]].concat(),
    ));
    let mut shard_dirs = Vec::new();
    for k in 1..=3 {
        let d = dir.path().join(format!("s{k}"));
        let shard = format!("{k}/3");
        ok(&cowrie(
            &[
                &base("1000", d.to_str().unwrap())[..],
                &["--record", "--shard", &shard],
            ]
            .concat(),
        ));
        shard_dirs.push(d);
    }
    let merged = dir.path().join("merged");
    let mut args = vec!["merge", "--out", merged.to_str().unwrap()];
    // Any order of shards.
    for d in shard_dirs.iter().rev() {
        args.push(d.to_str().unwrap());
    }
    ok(&cowrie(&args));
    for f in ["games.csv", "summary.csv", "records.jsonl", "lengths.svg"] {
        assert!(
            read(&merged.join(f)) == read(&whole.join(f)),
            "{f} differs after merge"
        );
    }
    // A missing shard is refused.
    let r = cowrie(&[
        "merge",
        "--out",
        dir.path().join("m2").to_str().unwrap(),
        shard_dirs[0].to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("shard 2/3 is missing"));
    let r = cowrie(&[&base("10", "x")[..], &["--shard", "4/3"]].concat());
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("'4/3'"));
}

#[test]
fn a_record_replays_to_the_same_result() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rec");
    ok(&cowrie(
        &[
            &base("20", out.to_str().unwrap())[..],
            &["--record", "--variant", "parlett-1976"],
        ]
        .concat(),
    ));
    let records = out.join("records.jsonl");
    let r = cowrie(&["replay", records.to_str().unwrap(), "--quiet"]);
    ok(&r);
    let text = String::from_utf8(r.stdout).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.contains(": verified")).count(),
        20,
        "{text}"
    );
    let one = cowrie(&["replay", records.to_str().unwrap(), "--game-index", "3"]);
    ok(&one);
    let shown = String::from_utf8(one.stdout).unwrap();
    assert!(shown.contains("a   b   c   d   e") && shown.contains("game 3: verified"));
    // A tampered record is caught: swap one ply's action for another legal-looking text.
    let text = String::from_utf8(read(&records)).unwrap();
    let first = text.lines().next().unwrap();
    let mut rec: serde_json::Value = serde_json::from_str(first).unwrap();
    rec["events"][0]["action"] = serde_json::Value::String("a1".into()); // a tiger's corner
    std::fs::write(dir.path().join("bad.jsonl"), rec.to_string() + "\n").unwrap();
    let bad = cowrie(&["replay", dir.path().join("bad.jsonl").to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("game 0") && err.contains("illegal"), "{err}");
}

#[test]
fn julbahar_subgames_survive_resume_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let jb = |out: &str, extra: &[&str]| {
        let mut a = vec![
            "match", "--game", "julbahar", "--p1", "random", "--p2", "random", "--games", "40",
            "--seed", "5", "--quiet", "--out",
        ];
        a.push(out);
        a.extend_from_slice(extra);
        cowrie(&a)
    };
    let whole = dir.path().join("whole");
    ok(&jb(whole.to_str().unwrap(), &[]));
    // One subgames row per game of each match; their points add up to the match score.
    let (games, subs) = (
        read(&whole.join("games.csv")),
        read(&whole.join("subgames.csv")),
    );
    let mut g = csv::Reader::from_reader(games.as_slice());
    let mut s = csv::Reader::from_reader(subs.as_slice());
    let sub_rows: Vec<csv::StringRecord> = s.records().map(Result::unwrap).collect();
    for row in g.records().map(Result::unwrap) {
        let idx = &row[0];
        let mine: Vec<_> = sub_rows.iter().filter(|r| &r[0] == idx).collect();
        assert_eq!(
            mine.len().to_string(),
            row[20].to_string(),
            "games in match {idx}"
        );
        let p1: u32 = mine.iter().map(|r| r[6].parse::<u32>().unwrap()).sum();
        assert_eq!(
            p1.to_string(),
            row[18].to_string(),
            "score_p1 of match {idx}"
        );
    }
    // Cut the run as a crash would: 15 matches kept, a torn subgames row, then resume.
    let cut = dir.path().join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    for f in ["manifest.json", "games.csv", "subgames.csv"] {
        std::fs::copy(whole.join(f), cut.join(f)).unwrap();
    }
    // The manifest vouches for what was flushed with it (15 matches and their subgames rows);
    // the files run on past it, as they do when a run dies between a write and its manifest.
    let keep = games
        .split_inclusive(|&b| b == b'\n')
        .take(16)
        .collect::<Vec<_>>()
        .concat();
    let first = |l: &[u8]| -> Option<u64> {
        std::str::from_utf8(l.split(|&b| b == b',').next()?)
            .ok()?
            .parse()
            .ok()
    };
    let sub_keep: Vec<u8> = subs
        .split_inclusive(|&b| b == b'\n')
        .enumerate()
        .filter(|(i, l)| *i == 0 || first(l).is_some_and(|g| g < 15))
        .flat_map(|(_, l)| l.to_vec())
        .collect();
    let mut m: serde_json::Value =
        serde_json::from_slice(&read(&whole.join("manifest.json"))).unwrap();
    m["status"] = "running".into();
    m["games_written"] = 15.into();
    m["files"] = serde_json::json!({
        "games.csv": FileDigest::of(&keep),
        "subgames.csv": FileDigest::of(&sub_keep),
    });
    std::fs::write(cut.join("manifest.json"), m.to_string()).unwrap();
    let torn_games = [&keep[..], &games[keep.len()..keep.len() + 9]].concat();
    std::fs::write(cut.join("games.csv"), torn_games).unwrap();
    let torn = &subs[..sub_keep.len() + 7];
    std::fs::write(cut.join("subgames.csv"), torn).unwrap();
    ok(&jb(cut.to_str().unwrap(), &["--resume"]));
    for f in ["games.csv", "subgames.csv", "summary.csv"] {
        assert!(
            read(&cut.join(f)) == read(&whole.join(f)),
            "{f} differs after resume"
        );
    }
    // Two shards merged.
    let (s1, s2) = (dir.path().join("s1"), dir.path().join("s2"));
    ok(&jb(s1.to_str().unwrap(), &["--shard", "1/2"]));
    ok(&jb(s2.to_str().unwrap(), &["--shard", "2/2"]));
    let merged = dir.path().join("merged");
    ok(&cowrie(&[
        "merge",
        "--out",
        merged.to_str().unwrap(),
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
    ]));
    for f in ["games.csv", "subgames.csv", "summary.csv", "lengths.svg"] {
        assert!(
            read(&merged.join(f)) == read(&whole.join(f)),
            "{f} differs after merge"
        );
    }
}

/// Runs `args`, expecting a one-line refusal (exit code 2) that contains every one of `needles`.
fn refused(args: &[&str], needles: &[&str]) {
    let r = cowrie(args);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    for n in needles {
        assert!(err.contains(n), "'{err}' should say {n}");
    }
}

/// `path` with the byte at `at` replaced by `by`.
fn edit(path: &Path, at: usize, by: u8) {
    let mut bytes = read(path);
    bytes[at] = by;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn edited_truncated_or_foreign_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name);
    let s = |name: &str| p(name).to_str().unwrap().to_string();
    // Two shards of one recorded run, and their merge.
    let (s1, s2) = (s("s1"), s("s2"));
    ok(&cowrie(
        &[&base("40", &s1)[..], &["--record", "--shard", "1/2"]].concat(),
    ));
    ok(&cowrie(
        &[&base("40", &s2)[..], &["--record", "--shard", "2/2"]].concat(),
    ));
    // The merged directory has a stale records file from elsewhere; an unrecorded merge
    // would leave it beside "record": false, so the recorded merge replaces it and the
    // unrecorded one below removes it.
    std::fs::create_dir_all(p("m")).unwrap();
    std::fs::write(p("m").join("records.jsonl"), "stale\n").unwrap();
    ok(&cowrie(&["merge", "--out", &s("m"), &s1, &s2]));
    ok(&cowrie(&[
        "replay",
        &format!("{}/records.jsonl", s("m")),
        "--quiet",
    ]));
    // --out may not be one of the inputs.
    refused(
        &["merge", "--out", &s1, &s1, &s2],
        &["is one of the shards"],
    );
    // A shard whose row was edited (one character of a row) is refused, naming the file.
    let games = p("s2").join("games.csv");
    let text = read(&games);
    let second_row = text.iter().position(|&b| b == b'\n').unwrap() + 3;
    let was = text[second_row];
    edit(&games, second_row, if was == b'1' { b'2' } else { b'1' });
    refused(
        &["merge", "--out", &s("m2"), &s1, &s2],
        &["s2/games.csv", "edited"],
    );
    // Resuming the edited run is refused as well; the row is not kept.
    refused(
        &[
            &base("40", &s2)[..],
            &["--record", "--shard", "2/2", "--resume"],
        ]
        .concat(),
        &["s2/games.csv", "edited"],
    );
    edit(&games, second_row, was);
    // A truncated shard file.
    let rec = p("s1").join("records.jsonl");
    let full = read(&rec);
    std::fs::write(&rec, &full[..full.len() - 10]).unwrap();
    refused(
        &["merge", "--out", &s("m2"), &s1, &s2],
        &["s1/records.jsonl", "truncated"],
    );
    refused(
        &["replay", &rec.to_string_lossy()],
        &["records.jsonl", "truncated"],
    );
    std::fs::write(&rec, &full).unwrap();
    // A record relabelled to another variant, with the digest made to match: the record is
    // checked against its run, field by field.
    let relabelled = String::from_utf8(full.clone()).unwrap().replacen(
        "\"variant\":\"five-captures\"",
        "\"variant\":\"parlett-1976\"",
        1,
    );
    assert_ne!(relabelled.as_bytes(), &full[..]);
    std::fs::write(&rec, &relabelled).unwrap();
    let mp = p("s1").join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&read(&mp)).unwrap();
    m["files"]["records.jsonl"] = serde_json::json!(FileDigest::of(relabelled.as_bytes()));
    std::fs::write(&mp, m.to_string()).unwrap();
    refused(
        &["replay", &rec.to_string_lossy()],
        &["variant", "parlett-1976"],
    );
    // Shards of two different runs: the merge names the field that differs.
    let s3 = s("s3");
    let mut other = base("40", &s3);
    other[10] = "9";
    ok(&cowrie(
        &[&other[..], &["--record", "--shard", "2/2"]].concat(),
    ));
    refused(&["merge", "--out", &s("m3"), &s1, &s3], &["run.seed"]);
    // --resume on a directory with no run in it.
    refused(
        &[&base("40", &s("typo"))[..], &["--resume"]].concat(),
        &["holds no run"],
    );
    // Merging without records removes the stale records file.
    let (u1, u2) = (s("u1"), s("u2"));
    ok(&cowrie(
        &[&base("40", &u1)[..], &["--shard", "1/2"]].concat(),
    ));
    ok(&cowrie(
        &[&base("40", &u2)[..], &["--shard", "2/2"]].concat(),
    ));
    // m holds the recorded merge: replacing it takes --force.
    ok(&cowrie(&["merge", "--force", "--out", &s("m"), &u1, &u2]));
    assert!(!p("m").join("records.jsonl").exists());
}

/// A tournament and a ladder resume part by part: with pairings (steps) missing, `--resume` ends with the bytes of the uninterrupted run, and the manifest
/// records the digest of every file it describes; `--resume` where there is no run is refused.
#[test]
fn tournaments_and_ladders_resume_part_by_part() {
    let tmp = tempfile::tempdir().unwrap();
    for (kind, flag, part_dir) in [
        ("tournament", "--agent", "pairings"),
        ("ladder", "--rung", "steps"),
    ] {
        let dir = tmp.path().join(kind);
        let d = dir.to_str().unwrap();
        let args = |resume: bool| {
            let mut v = vec![
                kind,
                "--game",
                "baghchal",
                "--option",
                "ply-cap=80",
                flag,
                "random",
                flag,
                "heuristic",
                flag,
                "mcts:iterations=8",
                "--games-per-pair",
                "6",
                "--seed",
                "5",
                "--quiet",
                "--out",
                d,
            ];
            if resume {
                v.push("--resume");
            }
            v
        };
        refused(&args(true), &["--resume", "holds no run"]);
        ok(&cowrie(&args(false)));
        let games = read(&dir.join("games.csv"));
        let m: serde_json::Value =
            serde_json::from_slice(&read(&dir.join("manifest.json"))).unwrap();
        let names: &[&str] = if kind == "tournament" {
            &["games.csv", "ratings.csv", "summary.csv"]
        } else {
            &["games.csv", "ladder.csv"]
        };
        for name in names {
            let recorded: FileDigest = serde_json::from_value(m["files"][name].clone())
                .unwrap_or_else(|e| panic!("{kind} manifest, files.{name}: {e}"));
            assert_eq!(recorded, FileDigest::of(&read(&dir.join(name))), "{name}");
        }
        // The first and the last parts never started (an interrupted part resumes as `match
        // --resume` does, tested above); the middle one finished and is verified and kept.
        let mut parts: Vec<_> = std::fs::read_dir(dir.join(part_dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        parts.sort();
        assert!(parts.len() >= 2, "{kind}: {parts:?}");
        std::fs::remove_dir_all(parts.last().unwrap()).unwrap();
        std::fs::remove_dir_all(&parts[0]).unwrap();
        ok(&cowrie(&args(true)));
        assert_eq!(read(&dir.join("games.csv")), games, "{kind} resumed");
        // Another run's directory is refused.
        let mut other = args(true);
        let seed_at = other.iter().position(|a| *a == "--seed").unwrap();
        other[seed_at + 1] = "6";
        refused(&other, &["--resume", "another run", "seed"]);
    }
}

/// Every CSV under `dir`, by path relative to it.
fn csv_files(dir: &Path) -> std::collections::BTreeMap<std::path::PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "csv") {
                out.insert(p.strip_prefix(dir).unwrap().to_path_buf(), read(&p));
            }
        }
    }
    out
}

#[test]
fn an_interrupted_study_resumes_run_by_run_to_the_bytes_of_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let cut = dir.path().join("cut");
    let args = |out: &Path| {
        vec![
            "study".to_string(),
            "--games".into(),
            "20".into(),
            "--quiet".into(),
            "--out".into(),
            out.to_str().unwrap().into(),
        ]
    };
    ok(&cowrie(
        &args(&whole).iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    // SIGINT once the study has reached Bargese, its last game (the others finished before it).
    let mut child = Command::new(env!("CARGO_BIN_EXE_cowrie"))
        .args(args(&cut))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let marker = cut.join("bargese/1-finkel-2002/games.csv");
    let t = Instant::now();
    while !marker.exists() {
        assert!(
            t.elapsed() < Duration::from_secs(120),
            "the study never reached Bargese"
        );
        assert!(child.try_wait().unwrap().is_none(), "the study ended first");
        std::thread::sleep(Duration::from_millis(2));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("--resume"), "{err}");
    assert_ne!(status(&cut.join("bargese/1-finkel-2002")), "complete");
    assert_eq!(status(&cut.join("bargese")), "interrupted");
    assert_eq!(status(&cut), "interrupted");
    assert_eq!(status(&cut.join("baghchal/1-five-captures")), "complete");
    assert_eq!(status(&cut.join("julbahar/1-barakat-1974")), "complete");
    let mut resume = args(&cut);
    resume.push("--resume".into());
    ok(&cowrie(
        &resume.iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    let (a, b) = (csv_files(&whole), csv_files(&cut));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (path, bytes) in &a {
        assert!(bytes == &b[path], "{} differs after resume", path.display());
    }
}

#[test]
fn an_interrupted_run_of_many_parts_says_so_in_its_own_manifest_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let games = "20000";
    for (command, part) in [
        ("ladder", "steps/1-1-v-0"),
        ("tournament", "pairings/1-0-v-1"),
        ("converge", "1-random"),
    ] {
        let out = dir.path().join(command);
        let o = out.to_str().unwrap();
        let (agent, count) = match command {
            "ladder" => ("--rung", "--games-per-pair"),
            "tournament" => ("--agent", "--games-per-pair"),
            _ => ("--agent", "--games"),
        };
        let mut args = vec![
            command,
            "--game",
            "baghchal",
            agent,
            "random",
            agent,
            "heuristic",
            count,
            games,
            "--quiet",
            "--out",
            o,
        ];
        if command == "converge" {
            args.extend(["--strength-games", "2"]);
        }
        // SIGINT once the first part has written a few games.
        let stopped = start_and_kill(&args, &out.join(part), 20_000, "-INT")
            .unwrap_or_else(|| panic!("{command} ended before the SIGINT"));
        let err = String::from_utf8_lossy(&stopped.stderr);
        assert_eq!(stopped.status.code(), Some(130), "{command}: {err}");
        assert!(err.contains("--resume"), "{command}: {err}");
        assert_eq!(status(&out.join(part)), "interrupted", "{command}");
        assert_eq!(status(&out), "interrupted", "{command}");
        args.push("--resume");
        ok(&cowrie(&args));
        assert_eq!(status(&out), "complete", "{command}");
    }
}

#[test]
fn an_interrupted_advantage_says_to_start_afresh_not_to_resume() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("a");
    let args = [
        "advantage",
        "--game",
        "baghchal",
        "--agent",
        "random",
        "--games",
        "20000",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    let stopped = start_and_kill(&args, &out.join("1-five-captures"), 20_000, "-INT")
        .expect("advantage ended before the SIGINT");
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(130), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!err.contains("--resume"), "{err}");
    assert!(err.contains("run the same command again"), "{err}");
    assert_eq!(status(&out), "interrupted");
    // As it says: the same command again starts afresh and finishes.
    ok(&cowrie(&args));
    assert_eq!(status(&out), "complete");
}

#[test]
fn one_sigint_stops_entry_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("e");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cowrie"))
        .args([
            "entry",
            "--seeds",
            "1000000",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("entry went on a minute after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("run the same command again") && !err.contains("--resume"),
        "{err}"
    );
    assert!(!out.join("entry.csv").exists());
}
