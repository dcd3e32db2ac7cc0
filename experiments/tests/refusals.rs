//! Refused inputs (one line, exit code 2, nothing written) and the tournament's manifest and
//! Elo bounds, through the real binary.
mod common;
use common::{cowrie, refused};

use std::io::Write;
use std::process::{Command, Output, Stdio};

#[test]
fn an_empty_shard_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let o = out.to_str().unwrap();
    let args = |shard: &'static str, games: &'static str, extra: Option<&'static str>| {
        let mut v = vec![
            "match",
            "--game",
            "baghchal",
            "--p1",
            "random",
            "--p2",
            "heuristic",
            "--games",
            games,
            "--shard",
            shard,
            "--quiet",
            "--out",
            o,
        ];
        v.extend(extra);
        v
    };
    // 4 games are 2 seat-swapped pairs: shards 3 and 4 of 4 would be empty, so every shard of
    // the set is refused, the first as well as the last.
    refused(&cowrie(&args("1/4", "4", None)), "--shard 1/4");
    refused(&cowrie(&args("3/4", "4", None)), "--shard 3/4");
    refused(&cowrie(&args("4/4", "4", None)), "2 seat-swapped pairs");
    assert!(!out.exists());
    // Without seat swapping every game is its own pair.
    refused(&cowrie(&args("1/4", "3", Some("--no-swap"))), "3 games");
    refused(&cowrie(&args("4/4", "3", Some("--no-swap"))), "--shard 4/4");
    assert!(cowrie(&args("2/2", "4", None)).status.success());
    // The directory now holds a finished run: replacing it takes --force.
    refused(&cowrie(&args("3/3", "3", Some("--no-swap"))), "--force");
    assert!(
        cowrie(&[args("3/3", "3", Some("--no-swap")), vec!["--force"]].concat())
            .status
            .success()
    );
}

#[test]
fn agent_specs_with_nothing_after_a_colon_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("a");
    let o = out.to_str().unwrap();
    for spec in [
        "heuristic:",
        "random:",
        "mcts:iterations=5,",
        "expectimax:,depth=1",
    ] {
        let r = cowrie(&[
            "match", "--game", "baghchal", "--p1", spec, "--p2", "random", "--out", o,
        ]);
        refused(&r, &format!("'{spec}'"));
        let r = cowrie(&[
            "tournament",
            "--game",
            "baghchal",
            "--agent",
            "random",
            "--agent",
            spec,
            "--out",
            o,
        ]);
        refused(&r, &format!("'{spec}'"));
    }
    assert!(!out.exists());
}

#[test]
fn legal_names_a_wrong_number_of_dice() {
    let json = r#"{"points":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0],"dice":[3,1,2]}"#;
    for (line, needle) in [
        ("4HPwATDgc/ABMA 3 1 2", "3 dice"),
        (json, "3 dice"),
        ("4HPwATDgc/ABMA 3", "1 dice"),
    ] {
        let o = legal(&format!("{line}\n"));
        refused(&o, needle);
        assert!(!String::from_utf8_lossy(&o.stderr).contains("trailing"));
    }
}

#[test]
fn a_tournament_writes_a_manifest_and_no_infinite_elo() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let o = cowrie(&[
        "tournament",
        "--game",
        "baghchal",
        "--option",
        "ply-cap=300",
        "--agent",
        "random",
        "--agent",
        "expectimax:depth=1",
        "--games-per-pair",
        "20",
        "--seed",
        "3",
        "--threads",
        "1",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["status"], "complete");
    assert_eq!(m["command"], "tournament");
    assert_eq!(m["threads"], 1);
    assert_eq!(m["run"]["seed"], 3);
    assert_eq!(m["run"]["variant"], "five-captures");
    assert_eq!(m["run"]["options"]["ply-cap"], "300");
    assert_eq!(m["run"]["options"]["win-captures"], "5");
    assert_eq!(m["games_written"], 20);
    assert!(m["command_line"].as_array().unwrap().len() > 10);
    assert!(!m["git_commit"].as_str().unwrap().is_empty());
    assert!(!m["finished"].as_str().unwrap().is_empty());

    let text = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(!text.contains("inf") && !text.contains("NaN"), "{text}");
    let mut r = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let mut empty = 0;
    for rec in r.records() {
        let rec = rec.unwrap();
        for (score, elo) in [
            ("a_score_ci95_low", "elo_ci95_low"),
            ("a_score_ci95_high", "elo_ci95_high"),
        ] {
            if rec[col(score)].is_empty() {
                continue; // no decided game at this seat
            }
            let s: f64 = rec[col(score)].parse().unwrap();
            let at_edge = s <= 0.0 || s >= 1.0;
            assert_eq!(rec[col(elo)].is_empty(), at_edge, "{rec:?}");
            empty += usize::from(at_edge);
        }
    }
    assert!(
        empty > 0,
        "random against search should reach a score bound of 0"
    );
}

#[test]
fn a_refused_tournament_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let r = cowrie(&[
        "tournament",
        "--game",
        "baghchal",
        "--variant",
        "nepal",
        "--agent",
        "random",
        "--agent",
        "random",
        "--out",
        out.to_str().unwrap(),
    ]);
    refused(&r, "'nepal'");
    assert!(!out.exists());
}

#[test]
fn an_interrupted_tournament_never_says_complete() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cowrie"))
        .args([
            "tournament",
            "--game",
            "baghchal",
            "--agent",
            "random",
            "--agent",
            "heuristic",
            "--agent",
            "expectimax:depth=2",
            "--games-per-pair",
            "2000",
            "--threads",
            "1",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once the first pairing has written some rows (well before the last pairing).
    let first = out.join("pairings/1-0-v-1/games.csv");
    let t = Instant::now();
    while std::fs::metadata(&first).map_or(0, |m| m.len()) < 2000 {
        assert!(child.try_wait().unwrap().is_none(), "finished too soon");
        assert!(t.elapsed() < Duration::from_secs(60), "no rows after 60 s");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    let _ = child.wait();
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["status"], "running");
    assert_eq!(m["finished"], "");
}

#[test]
fn advantage_and_compare_refuse_bad_counts_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c");
    let o = out.to_str().unwrap();
    let advantage = |games: &str| {
        cowrie(&[
            "advantage",
            "--game",
            "bargese",
            "--agent",
            "random",
            "--games",
            games,
            "--quiet",
            "--out",
            o,
        ])
    };
    let compare = |games: &str| {
        cowrie(&[
            "compare",
            "--game",
            "baghchal",
            "--set",
            "five-captures",
            "--set",
            "parlett-1976",
            "--agent",
            "random",
            "--games",
            games,
            "--out",
            o,
        ])
    };
    refused(&advantage("0"), "--games 0");
    refused(&compare("0"), "--games 0");
    assert!(!out.exists(), "nothing written for --games 0");
    // Self-play has no seat swap, so an odd count is filled: three games, three pairs.
    let r = advantage("3");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let games = std::fs::read_to_string(out.join("1-finkel-2002/games.csv")).unwrap();
    let mut lines = games.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let pi = header.iter().position(|h| *h == "pair_index").unwrap();
    let pairs: Vec<String> = lines
        .map(|l| l.split(',').nth(pi).unwrap().to_string())
        .collect();
    assert_eq!(pairs, ["0", "1", "2"]);
}

#[test]
fn counts_and_threads_out_of_range_are_refused_naming_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c");
    let o = out.to_str().unwrap();
    let m = |flag: &'static str, value: &'static str| {
        cowrie(&[
            "match", "--game", "baghchal", "--p1", "random", "--p2", "random", flag, value,
            "--quiet", "--out", o,
        ])
    };
    let range = "must be a whole number from 0 to 1099511627776 (2^40) games";
    refused(
        &m("--games", "-2"),
        &format!("'-2' for '--games <GAMES>': {range}"),
    );
    refused(&m("--games", "1e9"), range);
    refused(&m("--games", "1099511627778"), range);
    refused(
        &m("--seed", "-1"),
        "'-1' for '--seed <SEED>': must be a whole number from 0 to 18446744073709551615",
    );
    refused(&m("--threads", "10000"), "at most");
    refused(&m("--threads", "-1"), "must be a positive number");
    refused(&m("--threads", "0"), "at least one worker thread");
    assert!(!out.exists());
    refused(&cowrie(&["bench", "--games", "0"]), "--games 0");
    refused(
        &cowrie(&["study", "--threads", "0", "--out", o]),
        "at least one worker thread",
    );
    assert!(!out.exists());
}

#[test]
fn a_run_of_two_to_the_forty_games_costs_no_memory_before_it_plays() {
    // 2^40 games in 2^39 shards: this shard holds one seat-swapped pair, the 2^38-th (two
    // different agents, so the seats are swapped).
    // The schedule is computed, not stored, so this plays two games and writes them.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("huge");
    let line = "match --game baghchal --p1 random --p2 heuristic --games 1099511627776 \
                --shard 274877906945/549755813888 --quiet --out";
    let mut args: Vec<&str> = line.split_whitespace().collect();
    args.push(out.to_str().unwrap());
    let r = cowrie(&args);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let rows = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let first: Vec<&str> = rows
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(first, ["549755813888", "549755813889"]);
}

/// `cowrie legal` run on `input` as its standard input.
fn legal(input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cowrie"))
        .arg("legal")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The binary may stop reading at the first bad line: a broken pipe here is its answer.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

#[test]
fn an_overlong_input_line_is_quoted_in_part() {
    let o = legal(&("A".repeat(10_000_000) + " 3 1\n"));
    refused(&o, "(10000004 characters)");
    assert!(o.stderr.len() < 500, "{} bytes of error", o.stderr.len());
}

/// Runs the binary with `args` under a 1 GiB address-space limit (`ulimit -v`), interrupting it
/// with SIGINT after `stop_after` if it is still running; returns its exit code.
fn under_a_gigabyte(args: &[&str], stop_after: std::time::Duration) -> Option<i32> {
    let line = format!(
        "ulimit -v 1048576; exec '{}' {}",
        env!("CARGO_BIN_EXE_cowrie"),
        args.iter()
            .map(|a| format!("'{a}'"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut child = Command::new("sh")
        .args(["-c", &line])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    while t.elapsed() < stop_after {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let t = std::time::Instant::now();
    while t.elapsed() < std::time::Duration::from_secs(20) {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn extreme_inputs_end_cleanly_in_a_gigabyte() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    let o = out.to_str().unwrap();
    let short = std::time::Duration::from_secs(15);
    let bargese = |p: &'static str| {
        vec![
            "match", "--game", "bargese", "--option", p, "--p1", "random", "--p2", "random",
            "--games", "4", "--quiet", "--out", o,
        ]
    };
    for p in ["p=0.001", "p=0.99", "p=0.999999", "p=1e-300"] {
        assert_eq!(under_a_gigabyte(&bargese(p), short), Some(2), "{p}");
    }
    let base = |flag: &'static str, value: &'static str| {
        vec![
            "match", "--game", "baghchal", "--p1", "random", "--p2", "random", flag, value,
            "--quiet", "--out", o,
        ]
    };
    assert_eq!(under_a_gigabyte(&base("--games", "1e9"), short), Some(2));
    assert_eq!(
        under_a_gigabyte(&base("--threads", "10000"), short),
        Some(2)
    );
    // Four billion games are accepted and start at once in bounded memory; SIGINT after two
    // seconds stops the run cleanly (exit code 130) with its finished games on disk.
    let code = under_a_gigabyte(
        &base("--games", "4294967296"),
        std::time::Duration::from_secs(2),
    );
    assert_eq!(code, Some(130));
    assert!(
        std::fs::read_to_string(out.join("games.csv"))
            .unwrap()
            .lines()
            .count()
            > 1
    );
}

#[test]
fn a_repeated_option_key_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = out.to_str().unwrap();
    let r = cowrie(&[
        "match",
        "--game",
        "baghchal",
        "--p1",
        "random",
        "--p2",
        "random",
        "--games",
        "2",
        "--option",
        "ply-cap=5",
        "--option",
        "ply-cap=9",
        "--quiet",
        "--out",
        o,
    ]);
    refused(&r, "option 'ply-cap' given twice");
    let svg = dir.path().join("r.svg");
    let r = cowrie(&[
        "show",
        "--game",
        "julbahar",
        "--option",
        "target=3",
        "--option",
        "target = 3",
        "--out",
        svg.to_str().unwrap(),
    ]);
    refused(&r, "option 'target' given twice");
    assert!(!out.exists() && !svg.exists());
}

#[test]
fn contradictory_flags_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let d = db.to_str().unwrap();
    let mut args = common::reduced_solve(d);
    args.extend(["--down-to-placed", "5"]);
    refused(
        &cowrie(&args),
        "'--movement-only' cannot be used with '--down-to-placed <P>'",
    );
    let mut args = common::reduced_solve(d);
    args.extend(["--verify-samples", "20"]);
    refused(
        &cowrie(&args),
        "required arguments were not provided: --verify",
    );
    let mut args = common::reduced_solve(d);
    args.extend(["--verify-depth", "3"]);
    refused(
        &cowrie(&args),
        "required arguments were not provided: --verify",
    );
    assert!(!db.exists());
}

#[test]
fn numeric_flags_name_the_value_and_its_range() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("n");
    let o = out.to_str().unwrap();
    let train = |flag: &'static str, value: &'static str| {
        cowrie(&[
            "train", "--game", "frangieh", "--games", "2", flag, value, "--quiet", "--out", o,
        ])
    };
    let hidden = "'0' for '--hidden <HIDDEN>': must be a whole number from 1 to 256 hidden units";
    refused(&train("--hidden", "0"), hidden);
    refused(&train("--hidden", "257"), "from 1 to 256 hidden units");
    refused(
        &train("--batch", "0"),
        "'0' for '--batch <BATCH>': must be a whole number from 1 to 1099511627776 (2^40) games",
    );
    refused(&train("--threads", "0"), "'0' for '--threads <THREADS>'");
    refused(
        &train("--alpha", "1e309"),
        "'1e309' for '--alpha <ALPHA>': must be a finite number above 0",
    );
    // Beyond a 32-bit float, though a 64-bit one holds it.
    refused(&train("--alpha", "1e39"), "'1e39' for '--alpha <ALPHA>'");
    refused(&train("--alpha", "-0.1"), "'-0.1' for '--alpha <ALPHA>'");
    refused(
        &train("--lambda", "-0.5"),
        "'-0.5' for '--lambda <LAMBDA>': must be from 0 to 1",
    );
    refused(&train("--lambda", "NaN"), "must be from 0 to 1");
    refused(
        &train("--eval-games", "-2"),
        "'-2' for '--eval-games <EVAL_GAMES>'",
    );
    assert!(!out.exists());
    refused(
        &cowrie(&["entry", "--seeds", "18446744073709551616", "--out", o]),
        "must be a whole number from 0 to 1099511627776 (2^40) seeds",
    );
    refused(
        &cowrie(&[
            "equity",
            "--subgames",
            "x.csv",
            "--target",
            "-3",
            "--out",
            o,
        ]),
        "'-3' for '--target <TARGET>': must be a whole number from 1 to 200 points",
    );
    refused(
        &cowrie(&[
            "equity",
            "--subgames",
            "x.csv",
            "--resamples",
            "0",
            "--out",
            o,
        ]),
        "from 1 to 10000 resamples",
    );
    let mut solve = common::reduced_solve(o);
    solve.extend(["--memory-gb", "-1"]);
    refused(
        &cowrie(&solve),
        "'-1' for '--memory-gb <M>': must be a finite number above 0",
    );
    refused(
        &cowrie(&["replay", "x.jsonl", "--game-index", "-1"]),
        "'-1' for '--game-index <GAME_INDEX>': must be a whole number from 0",
    );
    assert!(!out.exists());
}

#[test]
fn equity_names_the_header_it_expects_with_its_commas() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("subgames.csv");
    std::fs::write(&csv, "a,b\n1,2\n").unwrap();
    let out = dir.path().join("e");
    let r = cowrie(&[
        "equity",
        "--subgames",
        csv.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    refused(&r, "has the header 'a,b', not 'game_index,pair_index,");
}
