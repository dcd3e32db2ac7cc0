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
    // An agent that cannot play the second rule set (Bargese's ludii has no network of its own)
    // refuses the comparison before the first is played.
    let no_net = cowrie(&[
        "compare",
        "--game",
        "bargese",
        "--set",
        "finkel-2002",
        "--set",
        "ludii",
        "--agent",
        "td:ply=0",
        "--games",
        "2",
        "--quiet",
        "--out",
        o,
    ]);
    refused(&no_net, "no shipped weights for bargese 'ludii'");
    assert!(
        !out.exists(),
        "nothing written for an agent the second rule set refuses"
    );
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
        "must be a whole number from 2 to 1099511627776 (2^40) seeds",
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

/// A directory of inputs every command's refusals are tried on: a recorded Baghchal match of
/// the reduced game `win-captures=2` (`run/`), a Julbahar match (`jr/`), that game's database
/// (`db/`), random bytes (`rand.bin`), truncated JSON (`trunc.json`), a truncated CSV
/// (`half.csv`), an empty directory (`adir/`) and databases whose manifest is truncated JSON
/// (`junkdb/`) or random bytes (`randdb/`).
struct Inputs {
    dir: tempfile::TempDir,
}

/// Bytes that are neither UTF-8 nor JSON nor CSV, the same every run.
fn junk_bytes() -> Vec<u8> {
    (0u32..300).map(|i| (i * 197 + 13) as u8 | 0x80).collect()
}

impl Inputs {
    fn new(with_db: bool) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let at = |p: &str| dir.path().join(p);
        std::fs::write(at("rand.bin"), junk_bytes()).unwrap();
        std::fs::write(at("trunc.json"), "{\"game\":\"bagh").unwrap();
        std::fs::create_dir(at("adir")).unwrap();
        for (db, bytes) in [
            ("junkdb", b"{\"layers\":".to_vec()),
            ("randdb", junk_bytes()),
        ] {
            std::fs::create_dir(at(db)).unwrap();
            std::fs::write(at(db).join("manifest.json"), bytes).unwrap();
        }
        let inputs = Inputs { dir };
        for (game, out, extra) in [
            (
                "baghchal",
                "run",
                ["--option", "win-captures=2", "--record"],
            ),
            ("julbahar", "jr", ["--option", "target=3", "--no-swap"]),
        ] {
            let o = inputs.run(&[
                "match", "--game", game, extra[0], extra[1], extra[2], "--p1", "random", "--p2",
                "random", "--games", "2", "--quiet", "--out", out,
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
        let subgames = std::fs::read_to_string(inputs.dir.path().join("jr/subgames.csv")).unwrap();
        std::fs::write(inputs.dir.path().join("half.csv"), &subgames[..40]).unwrap();
        if with_db {
            let o = inputs.run(&common::reduced_solve("db"));
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
        inputs
    }

    /// `cowrie args` run in the inputs' directory.
    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_cowrie"))
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .expect("the binary runs")
    }

    /// Every file below the directory with its length.
    fn listing(&self) -> Vec<(PathBuf, u64)> {
        fn walk(dir: &Path, out: &mut Vec<(PathBuf, u64)>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let e = e.unwrap();
                let m = e.metadata().unwrap();
                out.push((e.path(), m.len()));
                if m.is_dir() {
                    walk(&e.path(), out);
                }
            }
        }
        let mut out = Vec::new();
        walk(self.dir.path(), &mut out);
        out.sort();
        out
    }

    /// Asserts that each of `cases` (arguments after `base`, then what the error must name) is
    /// refused on one line naming it, and leaves every file as it was and nothing new.
    fn refuse(&self, base: &[&str], cases: &[(Vec<&str>, String)]) {
        let before = self.listing();
        for (extra, needle) in cases {
            let args = [base, extra].concat();
            let o = self.run(&args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
            assert!(
                err.contains(needle.as_str()),
                "{args:?}: '{err}' should name {needle}"
            );
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            assert_eq!(
                self.listing(),
                before,
                "{args:?} left files behind or changed one"
            );
        }
    }
}

use std::path::{Path, PathBuf};

/// `flag V` for each of `values`, refused naming `'V' for 'FLAG`, and the first also naming
/// `range` (the wording of the flag's range).
fn numeric<'a>(flag: &'a str, values: &[&'a str], range: &str) -> Vec<(Vec<&'a str>, String)> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let named = format!("'{v}' for '{flag}");
            let needle = if i == 0 { format!("{named} <") } else { named };
            (vec![flag, *v], needle)
        })
        .chain(std::iter::once((vec![flag, values[0]], range.to_string())))
        .collect()
}

/// A case: the arguments and what the one-line error names.
fn case<'a>(args: &[&'a str], needle: &str) -> (Vec<&'a str>, String) {
    (args.to_vec(), needle.to_string())
}

const POSITION: &str = "TGGGT/GGGGG/G.GGG/GGGGG/TGGGT g 0 0 40";

#[test]
fn solve_and_probe_refuse_bad_values_and_inputs() {
    let t = Inputs::new(true);
    let solve = [
        "solve",
        "--game",
        "baghchal",
        "--option",
        "win-captures=2",
        "--quiet",
        "--out",
        "o",
    ];
    let mut cases = numeric(
        "--memory-gb",
        &["-1", "0", "1e309", "x"],
        "finite number above 0",
    );
    for (flag, values, range) in [
        (
            "--verify-samples",
            &["0", "100001", "1.5", "x"][..],
            "from 1 to 100000 positions",
        ),
        (
            "--verify-depth",
            &["0", "16", "-1"][..],
            "from 1 to 15 plies",
        ),
    ] {
        for (mut args, needle) in numeric(flag, values, range) {
            args.insert(0, "--verify");
            cases.push((args, needle));
        }
    }
    cases.extend(numeric(
        "--down-to-placed",
        &["20", "-1", "1.5"],
        "from 0 to 19 goats placed",
    ));
    cases.extend(numeric("--threads", &["0", "-1", "x"], "worker thread"));
    cases.extend([
        case(&["--resume"], "'o' holds no database"),
        case(&["--option", "win-captures=x"], "'x'"),
        case(&["--option", "nokey"], "'nokey'"),
        case(
            &["--movement-only", "--down-to-placed", "5"],
            "--movement-only",
        ),
    ]);
    t.refuse(&solve, &cases);
    let at = |out: &'static str| {
        vec![
            "solve",
            "--game",
            "baghchal",
            "--option",
            "win-captures=2",
            "--quiet",
            "--out",
            out,
        ]
    };
    t.refuse(&at("rand.bin"), &[case(&[], "rand.bin")]);
    t.refuse(
        &at("adir"),
        &[case(&["--resume"], "'adir' holds no database")],
    );
    t.refuse(&at("junkdb"), &[case(&[], "junkdb/manifest.json")]);
    t.refuse(
        &at("randdb"),
        &[case(&["--resume"], "randdb/manifest.json")],
    );
    t.refuse(&["solve", "--out", "o"], &[case(&[], "--game")]);

    let probe = ["probe", "--game", "baghchal", "--option", "win-captures=2"];
    t.refuse(
        &probe,
        &[
            case(&["--db", "nodb", "--position", POSITION], "nodb"),
            case(&["--db", "rand.bin", "--position", POSITION], "rand.bin"),
            case(&["--db", "adir", "--position", POSITION], "adir"),
            case(
                &["--db", "junkdb", "--position", POSITION],
                "junkdb/manifest.json",
            ),
            case(
                &["--db", "randdb", "--position", POSITION],
                "randdb/manifest.json",
            ),
            case(&["--db", "db", "--position", "junk"], "'junk'"),
            case(&["--db", "db", "--position", ""], "''"),
            case(
                &["--db", "db", "--position", &POSITION.replace(" 40", " -4")],
                "'-4'",
            ),
            case(&["--db", "db"], "--position"),
            case(&["--position", POSITION], "--db"),
        ],
    );
    t.refuse(
        &["probe", "--db", "db", "--position", POSITION],
        &[case(&[], "--game")],
    );
}

#[test]
fn judge_and_replay_refuse_bad_inputs_and_outputs() {
    let t = Inputs::new(true);
    let records = "run/records.jsonl";
    let judge = |file: &'static str, db: &'static str, out: &'static str| {
        vec!["judge", file, "--db", db, "--out", out]
    };
    for (args, needle) in [
        (judge("nofile", "db", "j.csv"), "'nofile'"),
        (judge("adir", "db", "j.csv"), "'adir'"),
        (judge("rand.bin", "db", "j.csv"), "'rand.bin'"),
        (judge("trunc.json", "db", "j.csv"), "'trunc.json' line 1"),
        (judge(records, "nodb", "j.csv"), "nodb"),
        (judge(records, "rand.bin", "j.csv"), "rand.bin"),
        (judge(records, "junkdb", "j.csv"), "junkdb/manifest.json"),
        (judge(records, "randdb", "j.csv"), "randdb/manifest.json"),
        (judge(records, "db", "adir"), "--out 'adir' is a directory"),
        (judge(records, "db", "nodir/j.csv"), "nodir/j.csv"),
        (vec!["judge", records, "--db", "db"], "--out"),
        (vec!["judge", "--db", "db", "--out", "j.csv"], "<FILE>"),
    ] {
        t.refuse(&args, &[case(&[], needle)]);
    }
    let replay = |file: &'static str| vec!["replay", file, "--game-index", "0", "--html", "p.html"];
    for file in ["nofile", "adir", "rand.bin"] {
        t.refuse(&replay(file), &[case(&[], &format!("'{file}'"))]);
    }
    t.refuse(&replay("trunc.json"), &[case(&[], "'trunc.json' line 1")]);
    let base = ["replay", records, "--html", "p.html"];
    let mut cases = numeric(
        "--game-index",
        &["-1", "x", "1.5", "18446744073709551616"],
        "whole number from 0",
    );
    cases.extend([
        case(&["--game-index", "9"], "holds no game 9"),
        case(&[], "--game-index"),
        case(
            &["--game-index", "0", "--plies", "./p.html"],
            "are one file",
        ),
    ]);
    t.refuse(&base, &cases);
    let base = ["replay", records, "--game-index", "0", "--html"];
    t.refuse(
        &base,
        &[
            case(&["adir"], "'adir'"),
            case(&["nodir/p.html"], "nodir/p.html"),
        ],
    );
    t.refuse(&["replay"], &[case(&[], "<FILE>")]);
}

#[test]
fn converge_entry_equity_report_show_and_train_refuse_bad_values_and_inputs() {
    let t = Inputs::new(false);
    let converge = [
        "converge", "--game", "baghchal", "--agent", "random", "--agent", "random", "--quiet",
        "--out", "c",
    ];
    let games = "from 0 to 1099511627776 (2^40) games";
    let mut cases = numeric("--games", &["-1", "1.5", "x", "1099511627778"], games);
    cases.extend(numeric(
        "--seed",
        &["-1", "x", "18446744073709551616"],
        "from 0 to 18446744073709551615",
    ));
    cases.extend(numeric("--threads", &["0", "-1"], "worker thread"));
    cases.extend([
        case(&["--games", "0"], "--games 0"),
        case(&["--resume", "--games", "2"], "'c'"),
        case(&["--agent", "junk:x"], "'junk:x'"),
        case(
            &["--option", "ply-cap=1", "--option", "ply-cap=2"],
            "'ply-cap' given twice",
        ),
    ]);
    t.refuse(&converge, &cases);
    t.refuse(
        &[
            "converge", "--game", "baghchal", "--agent", "random", "--out", "c",
        ],
        &[case(&[], "got 1")],
    );
    t.refuse(
        &["converge", "--game", "baghchal", "--out", "c"],
        &[case(&[], "--agent")],
    );
    t.refuse(
        &[
            "converge",
            "--game",
            "baghchal",
            "--agent",
            "random",
            "--agent",
            "heuristic",
            "--games",
            "2",
            "--out",
        ],
        &[case(&["rand.bin"], "'rand.bin'"), case(&["run"], "--force")],
    );

    let entry = ["entry", "--out", "e"];
    let seeds = "from 2 to 1099511627776 (2^40) seeds";
    let mut cases = numeric(
        "--seeds",
        &["-1", "0", "1", "1.5", "x", "1099511627777"],
        seeds,
    );
    cases.extend(numeric("--threads", &["0"], "worker thread"));
    cases.extend(numeric("--seed", &["-1"], "from 0 to 18446744073709551615"));
    cases.extend([
        case(&["--seeds", "2", "--agent", "junk"], "'junk'"),
        case(&["--seeds", "2", "--variant", "nepal"], "'nepal'"),
        case(&["--seeds", "2", "--option", "opening=x"], "'x'"),
        case(&[], "--seeds"),
    ]);
    t.refuse(&entry, &cases);
    t.refuse(
        &["entry", "--seeds", "2", "--out"],
        &[case(&["rand.bin"], "'rand.bin'"), case(&["run"], "--force")],
    );

    let equity = ["equity", "--subgames", "jr/subgames.csv", "--out", "q"];
    let mut cases = numeric(
        "--target",
        &["0", "201", "1.5", "-3"],
        "from 1 to 200 points",
    );
    cases.extend(numeric(
        "--resamples",
        &["0", "10001", "x"],
        "from 1 to 10000 resamples",
    ));
    cases.extend(numeric(
        "--min-visits",
        &["-1", "1.5"],
        "from 0 to 18446744073709551615 games",
    ));
    cases.extend(numeric("--seed", &["-1"], "from 0 to 18446744073709551615"));
    t.refuse(&equity, &cases);
    for (file, needle) in [
        ("nofile", "'nofile'"),
        ("adir", "'adir'"),
        ("rand.bin", "'rand.bin' has the header"),
        ("trunc.json", "'trunc.json' has the header"),
        ("half.csv", "'half.csv' has the header"),
        ("run/games.csv", "'run/games.csv' has the header"),
    ] {
        t.refuse(
            &["equity", "--out", "q", "--subgames", file],
            &[case(&[], needle)],
        );
    }
    t.refuse(&["equity", "--out", "q"], &[case(&[], "--subgames")]);

    for (dir, needle) in [
        ("nowhere", "'nowhere': no such results directory"),
        ("rand.bin", "'rand.bin' is a file"),
        ("adir", "'adir' holds no run"),
        ("run", "one run's directory"),
    ] {
        t.refuse(
            &["report", dir],
            &[case(&[], needle), case(&["--check"], needle)],
        );
    }

    let show = |game: &'static str| vec!["show", "--game", game, "--out", "s.svg"];
    for game in ["baghchal", "frangieh", "julbahar", "bargese"] {
        t.refuse(
            &show(game),
            &[
                case(&["--position", "junk"], "'junk'"),
                case(&["--position", ""], "''"),
                case(&["--variant", "nepal"], "'nepal'"),
                case(&["--option", "nokey"], "'nokey'"),
            ],
        );
    }
    t.refuse(
        &show("bargese"),
        &[case(&["--option", "p=2"], "'2' for option 'p'")],
    );
    t.refuse(
        &["show", "--game", "baghchal", "--out"],
        &[
            case(&["x.jpg"], "'.jpg'"),
            case(&["s"], "--out 's': no extension"),
            case(&["adir"], "'adir'"),
            case(&["nodir/s.svg"], "nodir/s.svg"),
            case(&["run/manifest.json"], "run/manifest.json"),
        ],
    );
    t.refuse(&["show", "--game", "baghchal"], &[case(&[], "--out")]);
    t.refuse(&["show", "--out", "s.svg"], &[case(&[], "--game")]);

    let train = ["train", "--game", "frangieh", "--quiet", "--out", "w.st"];
    let mut cases = numeric("--games", &["-1", "1.5", "x"], games);
    for (args, needle) in [
        numeric(
            "--hidden",
            &["0", "257", "1.5"],
            "from 1 to 256 hidden units",
        ),
        numeric(
            "--alpha",
            &["0", "-0.1", "1e309", "x"],
            "finite number above 0",
        ),
        numeric("--lambda", &["-0.5", "1.5", "NaN", "x"], "from 0 to 1"),
        numeric(
            "--batch",
            &["0", "1.5"],
            "from 1 to 1099511627776 (2^40) games",
        ),
        numeric("--eval-every", &["-1"], games),
        numeric("--eval-games", &["-1", "x"], games),
        numeric("--threads", &["0"], "worker thread"),
        numeric("--seed", &["-1"], "from 0 to 18446744073709551615"),
    ]
    .into_iter()
    .flatten()
    {
        cases.push(([vec!["--games", "2"], args].concat(), needle));
    }
    for (args, needle) in [
        (&["--opponent", "junk"][..], "'junk'"),
        (&["--init", "nofile"][..], "'nofile'"),
        (&["--init", "adir"][..], "'adir'"),
        (&["--init", "rand.bin"][..], "'rand.bin'"),
        (&["--init", "trunc.json"][..], "'trunc.json'"),
        (&["--resume"][..], "'w.st.ckpt'"),
    ] {
        cases.push(([&["--games", "2"][..], args].concat(), needle.to_string()));
    }
    cases.push(case(&[], "--games"));
    t.refuse(&train, &cases);
    t.refuse(
        &[
            "train", "--game", "frangieh", "--games", "2", "--quiet", "--out",
        ],
        &[
            case(&["adir"], "--out 'adir' is a directory"),
            case(&["run/games.csv"], "run/manifest.json"),
        ],
    );
    t.refuse(
        &[
            "train", "--game", "baghchal", "--games", "2", "--out", "w.st",
        ],
        &[case(&[], "baghchal")],
    );
}

#[test]
fn commands_without_resume_never_suggest_it() {
    let dir = tempfile::tempdir().unwrap();
    let done = dir.path().join("done");
    std::fs::create_dir(&done).unwrap();
    std::fs::write(done.join("manifest.json"), r#"{"status": "complete"}"#).unwrap();
    let d = done.to_str().unwrap();
    let shard = dir.path().join("shard");
    let runs: [Vec<&str>; 4] = [
        vec!["merge", "--out", d, shard.to_str().unwrap()],
        vec!["bearoff", "--game", "frangieh", "--out", d],
        vec![
            "advantage",
            "--game",
            "baghchal",
            "--agent",
            "random",
            "--games",
            "2",
            "--out",
            d,
        ],
        vec!["entry", "--seeds", "2", "--out", d],
    ];
    for args in runs {
        let r = cowrie(&args);
        refused(&r, "pass --force to replace it");
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(!err.contains("--resume"), "{}: {err}", args[0]);
        let help = cowrie(&[args[0], "--help"]);
        let help = String::from_utf8_lossy(&help.stdout);
        assert!(!help.contains("--resume"), "{}: {help}", args[0]);
    }
}
