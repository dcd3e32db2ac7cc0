//! Runs the real `cowrie` binary in temporary directories and reads its CSV back.
mod common;
use common::{cowrie, read_rows};

use std::process::Output;

fn match_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "match", "--game", "baghchal", "--p1", "random", "--p2", "random", "--games", "400",
        "--seed", "7", "--out", out, "--quiet",
    ];
    v.extend_from_slice(extra);
    v
}

#[test]
fn match_output_is_identical_for_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("t1");
    let b = dir.path().join("t2");
    let (a_s, b_s) = (a.to_str().unwrap(), b.to_str().unwrap());
    let o1 = cowrie(&match_args(a_s, &["--threads", "1"]));
    let o2 = cowrie(&match_args(b_s, &["--threads", "2"]));
    assert!(
        o1.status.success(),
        "{}",
        String::from_utf8_lossy(&o1.stderr)
    );
    assert!(
        o2.status.success(),
        "{}",
        String::from_utf8_lossy(&o2.stderr)
    );
    // The plot too: its bars once came out in a different order on every run.
    for f in ["games.csv", "summary.csv", "lengths.svg"] {
        assert_eq!(
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
            "{f} differs between thread counts"
        );
    }
    // The stdout summary differs only in the output path it names.
    let s1 = String::from_utf8(o1.stdout).unwrap().replace(a_s, "DIR");
    let s2 = String::from_utf8(o2.stdout).unwrap().replace(b_s, "DIR");
    assert_eq!(s1, s2);
}

#[test]
fn games_csv_follows_the_contract_and_the_summary_is_reproducible_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let o = cowrie(&match_args(out.to_str().unwrap(), &[]));
    assert!(o.status.success());
    let (header, rows) = read_rows(&out.join("games.csv"));
    let expected = [
        "game_index",
        "pair_index",
        "seed",
        "game",
        "variant",
        "options",
        "agent_p1",
        "agent_p2",
        "first_mover_seat",
        "winner_seat",
        "winner_side",
        "points_p1",
        "points_p2",
        "end_reason",
        "plies",
        "turns",
        "choices",
        "branching_sum",
        "goats_captured",
        "goats_in_hand",
    ];
    assert_eq!(header.iter().collect::<Vec<_>>(), expected);
    assert_eq!(rows.len(), 400);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let mut seat1_wins = 0;
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(
            r[col("game_index")].parse::<usize>().unwrap(),
            i,
            "schedule order"
        );
        // The same spec in both seats is self-play: no seat swap, each game its own pair.
        assert_eq!(r[col("pair_index")].parse::<usize>().unwrap(), i);
        assert_eq!(&r[col("first_mover_seat")], "1", "goats move first");
        let plies: u32 = r[col("plies")].parse().unwrap();
        assert_eq!(
            r[col("turns")].parse::<u32>().unwrap(),
            plies,
            "a Baghchal turn is a ply"
        );
        match &r[col("winner_seat")] {
            "1" => {
                seat1_wins += 1;
                assert_eq!(&r[col("winner_side")], "goats");
                assert_eq!((&r[col("points_p1")], &r[col("points_p2")]), ("1", "-1"));
            }
            "2" => assert_eq!(&r[col("winner_side")], "tigers"),
            other => panic!("no winner '{other}' in a random five-captures game"),
        }
    }
    let (sh, srows) = read_rows(&out.join("summary.csv"));
    let scol = |name: &str| sh.iter().position(|h| h == name).unwrap();
    let seat1 = &srows[0];
    assert_eq!(
        (&seat1[scol("group")], &seat1[scol("label")]),
        ("seat", "1")
    );
    assert_eq!(seat1[scol("wins")].parse::<u32>().unwrap(), seat1_wins);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["status"], "complete");
    assert_eq!(manifest["run"]["options"]["win-captures"], "5");
    assert_eq!(manifest["run"]["seed"], 7);
    assert_eq!(manifest["games_written"], 400);
}

#[test]
fn variants_and_options_change_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p");
    let o = cowrie(&match_args(
        out.to_str().unwrap(),
        &["--variant", "parlett-1976", "--option", "ply-cap=60"],
    ));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (header, rows) = read_rows(&out.join("games.csv"));
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    // Random tigers need far more than 60 plies to capture all twenty goats, so most games
    // are truncated; truncation is reported as such, never as a draw or a win.
    assert!(rows.iter().all(|r| &r[col("variant")] == "parlett-1976"));
    assert!(rows.iter().all(|r| &r[col("options")] == "ply-cap=60"));
    let truncated = rows
        .iter()
        .filter(|r| &r[col("end_reason")] == "truncated")
        .count();
    assert!(truncated > 300, "{truncated}");
    assert!(rows.iter().all(|r| &r[col("end_reason")] != "draw"));
    for r in rows.iter().filter(|r| &r[col("end_reason")] == "truncated") {
        assert_eq!(&r[col("plies")], "60");
        assert_eq!(&r[col("winner_seat")], "");
        assert_eq!((&r[col("points_p1")], &r[col("points_p2")]), ("0", "0"));
    }
}

#[test]
fn bad_arguments_get_one_line_errors_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    let o = out.to_str().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "not a directory").unwrap();
    let under_file = file.join("sub");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "match", "--game", "chess", "--p1", "random", "--p2", "random", "--out", o,
            ],
            "'chess'",
        ),
        (
            vec![
                "match",
                "--game",
                "baghchal",
                "--variant",
                "nepal",
                "--p1",
                "random",
                "--p2",
                "random",
                "--out",
                o,
            ],
            "'nepal'",
        ),
        (
            vec![
                "match",
                "--game",
                "baghchal",
                "--option",
                "colour=red",
                "--p1",
                "random",
                "--p2",
                "random",
                "--out",
                o,
            ],
            "'colour'",
        ),
        (
            vec![
                "match",
                "--game",
                "baghchal",
                "--option",
                "win-captures=99",
                "--p1",
                "random",
                "--p2",
                "random",
                "--out",
                o,
            ],
            "'99'",
        ),
        (
            vec![
                "match", "--game", "baghchal", "--option", "noequals", "--p1", "random", "--p2",
                "random", "--out", o,
            ],
            "'noequals'",
        ),
        (
            vec![
                "match", "--game", "baghchal", "--p1", "mcts:x=1", "--p2", "random", "--out", o,
            ],
            "'mcts:x=1'",
        ),
        (
            vec![
                "match", "--game", "baghchal", "--p1", "random", "--p2", "random", "--games", "0",
                "--out", o,
            ],
            "--games 0",
        ),
        (
            vec![
                "match",
                "--game",
                "baghchal",
                "--p1",
                "random",
                "--p2",
                "heuristic",
                "--games",
                "5",
                "--out",
                o,
            ],
            "--games 5",
        ),
        (
            vec![
                "match",
                "--game",
                "baghchal",
                "--p1",
                "random",
                "--p2",
                "random",
                "--out",
                under_file.to_str().unwrap(),
            ],
            "sub",
        ),
        (vec!["rules", "--game", "go"], "'go'"),
    ];
    for (args, needle) in cases {
        let r = cowrie(&args);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "{args:?}: one line, got {err}"
        );
        assert!(
            err.contains(needle),
            "{args:?}: '{err}' should name {needle}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    assert!(!out.exists(), "no output directory for refused arguments");
}

#[test]
fn the_bench_signature_is_stable() {
    let sig = |o: Output| {
        assert!(o.status.success());
        String::from_utf8(o.stdout)
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("signature ").map(str::to_string))
            .expect("a signature line")
    };
    let a = sig(cowrie(&["bench", "--games", "20"]));
    let b = sig(cowrie(&["bench", "--games", "20"]));
    assert_eq!(a, b);
    assert_eq!(a.len(), 16);
    assert_ne!(a, sig(cowrie(&["bench", "--games", "22"])));
}

/// One variant's line of `cowrie bench --game G --variant V --agent A`: the SHA-256 of the rows
/// of `games.csv` that `cowrie match` writes for the same games (seed 1, the agent against
/// itself), computed here from the file, and the same line as in the whole bench.
#[test]
fn a_narrowed_bench_hashes_the_rows_match_writes() {
    use sha2::{Digest, Sha256};
    let dir = tempfile::tempdir().unwrap();
    let line_of = |o: Output, variant: &str| -> String {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        text.lines()
            .find(|l| l.split_whitespace().nth(1) == Some(variant))
            .unwrap_or_else(|| panic!("no {variant} line in {text}"))
            .to_string()
    };
    for (game, variant, agent) in [
        ("baghchal", "five-captures", "random"),
        ("frangieh", "modern", "heuristic"),
    ] {
        let out = dir.path().join(format!("{game}-{agent}"));
        let o = cowrie(&[
            "match",
            "--game",
            game,
            "--variant",
            variant,
            "--p1",
            agent,
            "--p2",
            agent,
            "--games",
            "30",
            "--threads",
            "1",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let csv = std::fs::read(out.join("games.csv")).unwrap();
        let header_end = csv.iter().position(|&c| c == b'\n').unwrap() + 1;
        let digest: String = Sha256::digest(&csv[header_end..])
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let narrowed = line_of(
            cowrie(&[
                "bench",
                "--game",
                game,
                "--variant",
                variant,
                "--agent",
                agent,
                "--games",
                "30",
            ]),
            variant,
        );
        let hash = narrowed.split_whitespace().last().unwrap();
        assert_eq!(hash, &digest[..16], "{narrowed}");
        if agent == "random" {
            let whole = line_of(cowrie(&["bench", "--games", "30"]), variant);
            assert_eq!(whole.split_whitespace().last(), Some(hash), "{whole}");
        }
    }
    common::refused(
        &cowrie(&["bench", "--game", "baghchal", "--variant", "nine-captures"]),
        "nine-captures",
    );
}

#[test]
fn compare_and_advantage_write_metrics_with_intervals() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cmp");
    let args = [
        "compare",
        "--game",
        "baghchal",
        "--set",
        "five-captures",
        "--set",
        "parlett-1976+ply-cap=100",
        "--agent",
        "random",
        "--games",
        "200",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    let o = cowrie(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (header, rows) = read_rows(&out.join("compare.csv"));
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let get = |set: &str, metric: &str| {
        rows.iter()
            .find(|r| &r[col("rule_set")] == set && &r[col("metric")] == metric)
            .unwrap_or_else(|| panic!("{set} {metric}"))
            .clone()
    };
    // The metrics agree with the run's own games.csv.
    let (gh, games) = read_rows(&out.join("2-parlett-1976_ply-cap_100/games.csv"));
    let gcol = |name: &str| gh.iter().position(|h| h == name).unwrap();
    let truncated = games
        .iter()
        .filter(|r| &r[gcol("end_reason")] == "truncated")
        .count();
    let t = get("parlett-1976+ply-cap=100", "timeouts");
    assert_eq!(
        t[col("value")].parse::<f64>().unwrap(),
        truncated as f64 / 200.0
    );
    assert!(
        truncated > 100,
        "most random parlett games last beyond 100 plies"
    );
    // `--resume` verifies the finished rule sets against their manifests: an edited row is
    // refused naming the file (a comparison replayed from scratch would overwrite it).
    let played = out.join("1-five-captures/games.csv");
    let mut text = std::fs::read_to_string(&played).unwrap();
    let at = text.find('\n').unwrap() + 1;
    text.replace_range(at..=at, "X");
    std::fs::write(&played, &text).unwrap();
    let again = cowrie(&[&args[..], &["--resume"]].concat());
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("games.csv"));
    assert_eq!(std::fs::read_to_string(&played).unwrap(), text);
    let first = get("five-captures", "advantage_p1");
    assert_eq!(&first[col("diff_vs_first")], "0.000000");
    let lo: f64 = first[col("ci95_low")].parse().unwrap();
    let hi: f64 = first[col("ci95_high")].parse().unwrap();
    let v: f64 = first[col("value")].parse().unwrap();
    assert!(lo <= v && v <= hi);

    let adv = dir.path().join("adv");
    let o = cowrie(&[
        "advantage",
        "--game",
        "baghchal",
        "--variant",
        "averbakh-1995",
        "--agent",
        "random",
        "--games",
        "100",
        "--quiet",
        "--out",
        adv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("first_mover_win_rate"));
    // No rule set at all is refused (one is measured on its own, as the study does).
    let r = cowrie(&[
        "compare",
        "--game",
        "baghchal",
        "--agent",
        "random",
        "--out",
        adv.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(2));
    let r = cowrie(&[
        "compare",
        "--game",
        "baghchal",
        "--set",
        "five-captures",
        "--set",
        "parlett-1976+oops",
        "--agent",
        "random",
        "--out",
        adv.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("'oops'"));
}

#[test]
fn a_tournament_counts_pairs_and_rates_agents() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let o = cowrie(&[
        "tournament",
        "--game",
        "baghchal",
        "--agent",
        "random",
        "--agent",
        "random",
        "--games-per-pair",
        "100",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (h, rows) = read_rows(&out.join("summary.csv"));
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let both = rows.iter().find(|r| &r[col("a_seat")] == "both").unwrap();
    let pairs: u64 = [
        "pairs_0",
        "pairs_0.5",
        "pairs_1",
        "pairs_1.5",
        "pairs_2",
        "pairs_truncated",
    ]
    .iter()
    .map(|c| both[col(c)].parse::<u64>().unwrap())
    .sum();
    assert_eq!(pairs, 50);
    // A's wins over both seats are the seat rows' wins added up, and match games.csv.
    let seat_wins: u64 = rows
        .iter()
        .filter(|r| &r[col("a_seat")] != "both")
        .map(|r| r[col("a_wins")].parse::<u64>().unwrap())
        .sum();
    assert_eq!(both[col("a_wins")].parse::<u64>().unwrap(), seat_wins);
    let (gh, games) = read_rows(&out.join("games.csv"));
    assert_eq!(&gh[0], "pairing");
    let gcol = |n: &str| gh.iter().position(|x| x == n).unwrap();
    let a_wins = games
        .iter()
        .filter(|g| {
            let idx: u64 = g[gcol("game_index")].parse().unwrap();
            let a_seat = if idx.is_multiple_of(2) { "1" } else { "2" };
            &g[gcol("winner_seat")] == a_seat
        })
        .count() as u64;
    assert_eq!(a_wins, seat_wins);
    let (_, ratings) = read_rows(&out.join("ratings.csv"));
    assert_eq!(ratings.len(), 2);
    assert_eq!(&ratings[0][1], "0.000000");
    let r = cowrie(&[
        "tournament",
        "--game",
        "baghchal",
        "--agent",
        "random",
        "--out",
        "x",
    ]);
    assert_eq!(r.status.code(), Some(2));
}

/// Bare `cowrie` prints the help (every subcommand listed) and starts nothing; the completion
/// scripts and the manual page come from the same definitions.
#[test]
fn bare_cowrie_prints_help_and_completions_and_man_are_generated() {
    let o = cowrie(&[]);
    assert!(o.status.success());
    let help = String::from_utf8_lossy(&o.stdout);
    for sub in [
        "match",
        "study",
        "tournament",
        "solve",
        "completions",
        "man",
    ] {
        assert!(help.contains(&format!("\n  {sub} ")), "{sub} in {help}");
    }
    let bash = cowrie(&["completions", "bash"]);
    assert!(bash.status.success());
    let script = String::from_utf8_lossy(&bash.stdout);
    assert!(script.contains("complete -F") && script.contains("--games-per-pair"));
    let man = cowrie(&["man"]);
    assert!(man.status.success());
    assert!(String::from_utf8_lossy(&man.stdout).contains(".TH cowrie 1"));
    let bad = cowrie(&["completions", "nosh"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn a_tournament_labels_an_agent_entered_twice_by_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    // `random` entered first and third: its rows and ratings say which entrant they are.
    let o = cowrie(&[
        "tournament",
        "--game",
        "baghchal",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--agent",
        "random",
        "--games-per-pair",
        "4",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (h, rows) = read_rows(&out.join("summary.csv"));
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let pairings: Vec<(String, String)> = rows
        .iter()
        .filter(|r| &r[col("a_seat")] == "both")
        .map(|r| (r[col("agent_a")].to_string(), r[col("agent_b")].to_string()))
        .collect();
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        pairings,
        [
            pair("random #1", "heuristic:temperature=0"),
            pair("random #1", "random #3"),
            pair("heuristic:temperature=0", "random #3"),
        ]
    );
    let (_, ratings) = read_rows(&out.join("ratings.csv"));
    let names: Vec<&str> = ratings.iter().map(|r| &r[0]).collect();
    assert_eq!(names, ["random #1", "heuristic:temperature=0", "random #3"]);
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains("random #1 v random #3"), "{table}");
}
