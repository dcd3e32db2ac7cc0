//! `cowrie solve` and `cowrie probe` through the real binary, on the reduced game
//! `win-captures=2` (layers 20 and 19), and their refusals.
mod common;
use common::{cowrie, cowrie_in, read_rows, reduced_solve, refused};

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
    let o = solve(&[
        "--movement-only",
        "--verify",
        "--verify-samples",
        "20",
        "--verify-depth",
        "5",
    ]);
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
    let o = solve(&["--resume", "--movement-only"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("resumed"));
    // The last placement's halves: 19 goats placed, 0 or 1 captured.
    let o = solve(&["--resume", "--down-to-placed", "19"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("placed captured side"), "{text}");
    let (header, rows) = read_rows(&db.join("placement-19-goats.csv"));
    assert_eq!(&header[5], "positions");
    assert_eq!(rows.len(), 2);
    // Nineteen goats on the board: as many boards as the movement layer with 19 goats.
    assert_eq!(&rows[0][5], "333175");
    assert!(!text.contains("start position"), "{text}");

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
    assert!(text.contains("the game is over: goats win"), "{text}");
    let o = probe(
        &format!("{blocked} g 0 0 40"),
        &["--option", "win-captures=2"],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    // Four goat steps into b3, each opening a point to a tiger: the best move's value is the
    // position's.
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3 + 4, "{text}");
    assert!(!text.contains("--no-verify"), "{text}");
    // Read unchecked, the same answer says so on a last line.
    let o = probe(
        &format!("{blocked} g 0 0 40"),
        &["--option", "win-captures=2", "--no-verify"],
    );
    let unchecked = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        unchecked,
        format!("{text}the database's files were read without checking them against their SHA-256 (--no-verify)\n")
    );
    let value = lines[1]
        .strip_prefix("goats to move: ")
        .expect("the value line");
    assert!(lines[2].starts_with("moves, best first"), "{text}");
    assert!(lines[3].ends_with(value), "{text}");

    // A placement position with one goat in hand: two points to place on.
    let o = probe(
        "TGGGT/GGGGG/G..GG/GGGGG/TGGGT g 1 0 37",
        &["--option", "win-captures=2"],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3 + 2, "{text}");
    let value = lines[1]
        .strip_prefix("goats to move: ")
        .and_then(|v| v.split(' ').next())
        .expect("the value line");
    assert!(lines[3].ends_with(value), "{text}");

    // Refusals: other rules than the database's, a placement position the solve has not
    // reached, another game.
    refused(
        &probe(&format!("{blocked} g 0 0 40"), &[]),
        "win-captures=2",
    );
    refused(
        &probe(
            "T...T/...../...../...../T...T g 20 0 0",
            &["--option", "win-captures=2"],
        ),
        "--down-to-placed 0",
    );
    // Three captures where the game ends at the second: no such position arises.
    refused(
        &probe(
            "TGGGT/GGGGG/G..GG/GGG../TGGGT g 0 3 60",
            &["--option", "win-captures=2"],
        ),
        "3 goats captured",
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

#[test]
fn judge_finds_no_value_thrown_away_by_perfect_play_and_some_by_random_play() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let d = db.to_str().unwrap();
    let o = cowrie(&[
        "solve",
        "--game",
        "baghchal",
        "--option",
        "win-captures=2",
        "--out",
        d,
        "--quiet",
        "--down-to-placed",
        "19",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let run = dir.path().join("run");
    let perfect = format!("perfect:db={d},depth=1");
    let o = cowrie(&[
        "match",
        "--game",
        "baghchal",
        "--option",
        "win-captures=2",
        "--option",
        "ply-cap=120",
        "--p1",
        &perfect,
        "--p2",
        "random",
        "--games",
        "60",
        "--record",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = dir.path().join("judge.csv");
    let o = cowrie(&[
        "judge",
        run.join("records.jsonl").to_str().unwrap(),
        "--db",
        d,
        "--out",
        csv.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("judged 60 games"), "{text}");
    let (header, rows) = read_rows(&csv);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let num = |r: &csv::StringRecord, name: &str| r[col(name)].parse::<u64>().unwrap();
    let (mut perfect_judged, mut random_errors) = (0, 0);
    for r in &rows {
        let judged = num(r, "moves") - num(r, "unjudged");
        let errors = num(r, "win_to_draw") + num(r, "win_to_loss") + num(r, "draw_to_loss");
        assert_eq!(
            num(r, "won") + num(r, "drawn") + num(r, "lost"),
            judged,
            "{r:?}"
        );
        if r[col("agent")].starts_with("perfect") {
            assert_eq!(errors, 0, "{r:?}");
            perfect_judged += judged;
        } else {
            random_errors += errors;
        }
    }
    // The short reduced game mostly ends in the placement phase, before the halves solved here.
    assert!(perfect_judged > 30, "{perfect_judged}");
    assert!(random_errors > 0);
    // A records file away from its run: a trailing blank line is no record; an empty file, a
    // record with an unknown option value, a record from another start are refused, naming them.
    let loose = dir.path().join("loose.jsonl");
    let records = std::fs::read_to_string(run.join("records.jsonl")).unwrap();
    let first = records.lines().next().unwrap();
    let judge = |path: &std::path::Path| {
        cowrie(&[
            "judge",
            path.to_str().unwrap(),
            "--db",
            d,
            "--out",
            csv.to_str().unwrap(),
        ])
    };
    std::fs::write(&loose, format!("{first}\n\n")).unwrap();
    let o = judge(&loose);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("judged 1 games"));
    std::fs::write(&loose, "").unwrap();
    refused(&judge(&loose), "no game records");
    let bad = first.replacen("\"win-captures\",\"2\"", "\"win-captures\",\"two\"", 1);
    assert_ne!(bad, first);
    std::fs::write(&loose, format!("{first}\n{bad}\n")).unwrap();
    refused(&judge(&loose), "line 2");
    let moved = first.replacen("\"start\":\"T...T/", "\"start\":\"TT..T/", 1);
    assert_ne!(moved, first);
    std::fs::write(&loose, format!("{moved}\n")).unwrap();
    refused(&judge(&loose), "is not the rules' start");
    // Games of other rules than the database's are refused, naming both.
    let other = dir.path().join("other");
    let o = cowrie(&[
        "match",
        "--game",
        "baghchal",
        "--option",
        "ply-cap=20",
        "--p1",
        "random",
        "--p2",
        "random",
        "--games",
        "2",
        "--record",
        "--quiet",
        "--out",
        other.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    refused(
        &cowrie(&[
            "judge",
            other.join("records.jsonl").to_str().unwrap(),
            "--db",
            d,
            "--out",
            csv.to_str().unwrap(),
        ]),
        "win-captures=2",
    );
}

/// Every `cowrie solve` that writes to a database records its command line and resolved
/// options in the database's manifest, oldest first; a refused one records nothing.
#[test]
fn solve_records_each_command_in_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let d = db.to_str().unwrap();
    let base = reduced_solve(d);
    let solve = |extra: &[&str]| {
        let mut args = base.clone();
        args.extend_from_slice(extra);
        cowrie(&args)
    };
    assert!(solve(&["--threads", "1"]).status.success());
    refused(&solve(&[]), "--resume");
    assert!(solve(&["--resume"]).status.success());
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(db.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["format"], "cowrie-baghchal-movement-phase");
    assert_eq!(m["version"], 1);
    let commands = m["commands"].as_array().unwrap();
    assert_eq!(commands.len(), 2, "{m}");
    let argv = |c: &serde_json::Value| -> Vec<String> {
        c["command_line"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect()
    };
    let mut want: Vec<String> = base.iter().map(|s| (*s).to_string()).collect();
    want.extend(["--threads".to_string(), "1".to_string()]);
    assert_eq!(argv(&commands[0])[1..], want[..]);
    assert_eq!(argv(&commands[1]).last().unwrap(), "--resume");
    assert_eq!(commands[0]["threads"], 1);
    assert_eq!(commands[1]["threads"], 2);
    let run = &commands[0]["run"];
    assert_eq!(run["game"], "baghchal");
    assert_eq!(run["variant"], "five-captures");
    assert_eq!(run["options"]["win-captures"], "2");
    assert_eq!(run["options"]["goats-blocked"], "lose");
    assert_eq!(run["movement_only"], true);
    assert_eq!(
        (&run["resume"], &commands[1]["run"]["resume"]),
        (&false.into(), &true.into())
    );
}

/// The output of `git` with `args` in this checkout, `None` outside one.
fn git(args: &[&str]) -> Option<String> {
    let o = std::process::Command::new("git")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// A solve's manifest records what reproduces it: the command line with the paths relative to
/// the directory it ran in where they lie under it (the program by its name), the commit the
/// binary was built from, whether its sources differed from it, and the build profile.
#[test]
fn a_solve_records_its_relative_command_line_commit_and_build() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path().join("work");
    std::fs::create_dir_all(&cwd).unwrap();
    let db = cwd.join("dbs").join("reduced");
    let o = cowrie_in(&cwd, &reduced_solve(db.to_str().unwrap()));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Resumed from another directory, which the database does not lie under: its path as given.
    let other = dir.path().join("elsewhere");
    std::fs::create_dir_all(&other).unwrap();
    let mut args = reduced_solve(db.to_str().unwrap());
    args.push("--resume");
    assert!(cowrie_in(&other, &args).status.success());
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(db.join("manifest.json")).unwrap()).unwrap();
    let commands = m["commands"].as_array().unwrap();
    assert_eq!(commands.len(), 2, "{m}");
    let line = |c: &serde_json::Value| c["command_line"].as_array().unwrap().clone();
    let expect = |out: &str, resume: bool| {
        let mut v = vec!["cowrie"];
        v.extend(reduced_solve(out));
        if resume {
            v.push("--resume");
        }
        serde_json::json!(v).as_array().unwrap().clone()
    };
    assert_eq!(line(&commands[0]), expect("dbs/reduced", false));
    assert_eq!(
        line(&commands[1]),
        expect(db.to_str().unwrap(), true),
        "{m:#}"
    );
    // The build, as git and cargo say independently of the binary.
    let c = &commands[0];
    match git(&["rev-parse", "HEAD"]) {
        Some(head) => {
            assert_eq!(c["git_commit"], head.as_str());
            // Dirty if a source of the binary (`experiments` is one) differs from the commit;
            // clean if nothing tracked does.
            let changed = |paths: &[&str]| {
                let mut args = vec!["status", "--porcelain", "--untracked-files=no", "--"];
                args.extend(paths);
                !git(&args).unwrap().is_empty()
            };
            let top = git(&["rev-parse", "--show-toplevel"]).unwrap();
            if changed(&[&format!("{top}/experiments")]) {
                assert_eq!(c["git_dirty"], true, "{c:#}");
            } else if !changed(&[&top]) {
                assert_eq!(c["git_dirty"], false, "{c:#}");
            }
        }
        None => assert_eq!(c["git_commit"], "unknown"),
    }
    // The binary lies in target/PROFILE/.
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_cowrie"));
    let profile = bin.parent().unwrap().file_name().unwrap().to_str().unwrap();
    assert_eq!(c["build_profile"], profile);
    assert_eq!(c["cowrie_version"], env!("CARGO_PKG_VERSION"));
}

/// A match whose `perfect` agent reads a database that does not hold the whole game says so once
/// on stderr, however many games and threads, and its manifest records the phases the database
/// holds beside its SHA-256.
#[test]
fn a_perfect_agent_says_once_which_phases_its_database_holds() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let d = db.to_str().unwrap();
    let o = cowrie(&reduced_solve(d));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let perfect = format!("perfect:db={d},depth=1");
    let play = |name: &str, p1: &str, p2: &str| {
        let out = dir.path().join(name);
        let o = cowrie(&[
            "match",
            "--game",
            "baghchal",
            "--option",
            "win-captures=2",
            "--option",
            "ply-cap=60",
            "--p1",
            p1,
            "--p2",
            p2,
            "--games",
            "6",
            "--threads",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert!(o.status.success(), "{err}");
        let m: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap())
                .unwrap();
        (err, m)
    };
    let manifest_path = db.join("manifest.json").display().to_string();
    let notes = |err: &str| err.lines().filter(|l| l.starts_with("note: ")).count();
    // Movement phase only, the same agent in both seats: one line.
    let (err, m) = play("movement", &perfect, &perfect);
    assert_eq!(notes(&err), 1, "{err}");
    assert!(err.contains("holds the phases movement,"), "{err}");
    assert!(err.contains("1-ply alpha-beta search"), "{err}");
    let input = &m["inputs"][perfect.as_str()][manifest_path.as_str()];
    assert_eq!(input["phases"], "movement", "{m:#}");
    assert_eq!(input["sha256"].as_str().unwrap().len(), 64, "{m:#}");
    // The last placement solved too: still not the whole game, and said so.
    let mut args = reduced_solve(d);
    args.retain(|a| *a != "--movement-only");
    args.extend(["--resume", "--down-to-placed", "19"]);
    assert!(cowrie(&args).status.success());
    let (err, m) = play("placement-19", &perfect, "random");
    assert_eq!(notes(&err), 1, "{err}");
    assert!(
        err.contains("holds the phases movement+placement from 19 placed,"),
        "{err}"
    );
    assert_eq!(
        m["inputs"][perfect.as_str()][manifest_path.as_str()]["phases"],
        "movement+placement from 19 placed"
    );
    assert!(
        m["inputs"]["random"].as_object().unwrap().is_empty(),
        "{m:#}"
    );
    // No other agent says anything.
    let (err, m) = play("none", "random", "heuristic");
    assert_eq!(notes(&err), 0, "{err}");
    assert!(!m.to_string().contains("phases"), "{m}");
}

/// `cowrie study --db-dir DIR` plays a Baghchal variant with a database in `DIR/<variant>/` by
/// perfect play: one solved under other rules is refused before any game, naming it; a
/// directory with no variant's database is refused.
#[test]
fn study_plays_baghchal_by_the_databases_it_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let dbs = dir.path().join("dbs");
    let db = dbs.join("five-captures");
    let o = cowrie(&reduced_solve(db.to_str().unwrap()));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.path().join("study");
    let o = cowrie(&[
        "study",
        "--db-dir",
        dbs.to_str().unwrap(),
        "--games",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("by perfect play from its solved database"),
        "{err}"
    );
    assert!(err.contains(db.to_str().unwrap()), "{err}");
    assert!(err.contains("the game is played under"), "{err}");
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    refused(
        &cowrie(&[
            "study",
            "--db-dir",
            empty.to_str().unwrap(),
            "--out",
            dir.path().join("study2").to_str().unwrap(),
        ]),
        "no solved database of a Baghchal variant",
    );
}
