//! `cowrie solve` and `cowrie probe` through the real binary, on the reduced game
//! `win-captures=2` (layers 20 and 19), and their refusals.
mod common;
use common::{cowrie, read_rows, refused};

#[test]
fn solve_writes_layers_and_summaries_and_probe_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let d = db.to_str().unwrap();
    let solve = |extra: &[&'static str]| {
        let mut args = vec![
            "solve",
            "--game",
            "baghchal",
            "--option",
            "win-captures=2",
            "--out",
            d,
            "--quiet",
        ];
        args.extend_from_slice(extra);
        cowrie(&args)
    };
    let o = solve(&["--verify", "--verify-samples", "20", "--verify-depth", "5"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("positions: 733312"), "{text}");
    assert!(text.contains("Burnside"), "{text}");
    assert!(text.contains("all 666350 stored values"), "{text}");
    let (header, rows) = read_rows(&db.join("layer-20.csv"));
    assert_eq!(&header[3], "positions");
    assert_eq!(rows.len(), 2);
    assert_eq!(&rows[0][3], "33481");
    // A second solve needs --resume, which finds every layer done.
    refused(&solve(&[]), "--resume");
    let o = solve(&["--resume"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("resumed"));

    // Tigers on the corners, b3 empty: blocked, lost now; the goats to move there have moves.
    let probe = |position: &str, options: &[&'static str]| {
        let mut args = vec![
            "probe",
            "--game",
            "baghchal",
            "--db",
            d,
            "--position",
            position,
        ];
        args.extend_from_slice(options);
        cowrie(&args)
    };
    let blocked = "TGGGT/GGGGG/G.GGG/GGGGG/TGGGT";
    let o = probe(
        &format!("{blocked} t 0 0 40"),
        &["--option", "win-captures=2"],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("tigers to move: loss in 0"), "{text}");
    assert!(text.contains("the game is over"), "{text}");
    let o = probe(
        &format!("{blocked} g 0 0 40"),
        &["--option", "win-captures=2"],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    // Four goat steps into b3, each opening a point to a tiger: the best move's value is the
    // position's.
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3 + 4, "{text}");
    let value = lines[1]
        .strip_prefix("goats to move: ")
        .expect("the value line");
    assert!(lines[2].starts_with("moves, best first"), "{text}");
    assert!(lines[3].ends_with(value), "{text}");

    // Refusals: other rules than the database's, the placement phase, another game.
    refused(
        &probe(&format!("{blocked} g 0 0 40"), &[]),
        "win-captures=2",
    );
    refused(
        &probe(
            "T...T/...../...../...../T...T g 20 0 0",
            &["--option", "win-captures=2"],
        ),
        "placement phase",
    );
}

#[test]
fn solve_refuses_what_it_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("db");
    let o = out.to_str().unwrap();
    let base = ["solve", "--out", o, "--quiet"];
    let run = |extra: &[&str]| {
        let mut args: Vec<&str> = base.to_vec();
        args.extend_from_slice(extra);
        cowrie(&args)
    };
    refused(&run(&["--game", "frangieh"]), "'frangieh'");
    refused(
        &run(&["--game", "baghchal", "--option", "repetition=no-recreate"]),
        "no-recreate",
    );
    refused(
        &run(&["--game", "baghchal", "--memory-gb", "0.1"]),
        "--memory-gb",
    );
    refused(
        &run(&["--game", "baghchal", "--variant", "nepal"]),
        "'nepal'",
    );
    assert!(!out.exists());
}
