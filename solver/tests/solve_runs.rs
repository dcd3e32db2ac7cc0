//! Whole solves: the same values with one thread or two, the files a solve writes, and a
//! resumed solve ending where an uninterrupted one does.

use std::fs;

use cowrie_solver::solve::{self, Silent};
use cowrie_solver::{
    solve_layer, CommandRecord, Database, Index, Manifest, Side, SolveRules, Value,
};

/// The reduced game of `brute_force.rs`: the tigers win on the second capture.
const RULES: SolveRules = SolveRules {
    win_captures: 2,
    goats_pass: false,
};

fn words_with_threads(threads: usize, goats_pass: bool) -> Vec<Vec<u16>> {
    let rules = SolveRules {
        goats_pass,
        ..RULES
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let index = Index::new();
        let (l19, _) = solve_layer(&index, &rules, 19, None, &Silent);
        let (l20, _) = solve_layer(&index, &rules, 20, Some(&l19), &Silent);
        vec![l19.words().to_vec(), l20.words().to_vec()]
    })
}

#[test]
fn one_thread_and_two_give_the_same_words() {
    for pass in [false, true] {
        assert_eq!(words_with_threads(1, pass), words_with_threads(2, pass));
    }
}

#[test]
fn a_resumed_solve_ends_with_the_same_database() {
    let whole = tempfile::tempdir().unwrap();
    let outcomes = solve::solve(whole.path(), &RULES, false, &Silent).unwrap();
    assert_eq!(outcomes.len(), 2);
    assert!(outcomes.iter().all(|o| o.seconds.is_some()));
    // A second start without resume is refused.
    let e = solve::solve(whole.path(), &RULES, false, &Silent).unwrap_err();
    assert!(e.to_string().contains("--resume"), "{e}");

    // Interrupted after the first layer: the manifest lists only layer 19.
    let part = tempfile::tempdir().unwrap();
    solve::solve(part.path(), &RULES, false, &Silent).unwrap();
    let mut m = Manifest::read(part.path()).unwrap().unwrap();
    m.layers.retain(|l| l.goats == 19);
    m.write(part.path()).unwrap();
    fs::remove_file(part.path().join("layer-20.bin")).unwrap();
    let resumed = solve::solve(part.path(), &RULES, true, &Silent).unwrap();
    assert_eq!(resumed[0].seconds, None);
    assert!(resumed[1].seconds.is_some());
    for name in ["manifest.json", "layer-19.bin", "layer-20.bin"] {
        assert_eq!(
            fs::read(whole.path().join(name)).unwrap(),
            fs::read(part.path().join(name)).unwrap(),
            "{name}"
        );
    }

    // Other rules are refused on resume and on open.
    let other = SolveRules {
        win_captures: 3,
        ..RULES
    };
    assert!(solve::solve(whole.path(), &other, true, &Silent).is_err());
    assert!(Database::open(whole.path(), &other).is_err());

    // The database reads back. 20 goats, the tigers on the corners and b3 empty: no tiger can
    // step or jump (b3 is next to none of them and behind no goat from a corner), so the
    // tigers to move have lost; the stored value agrees with the one from the children.
    let db = Database::open(whole.path(), &RULES).unwrap();
    let tigers = 1 | 1 << 4 | 1 << 20 | 1 << 24;
    let goats = ((1u32 << 25) - 1) & !tigers & !(1 << 11);
    assert_eq!(db.value(Side::Tigers, tigers, goats), Value::Loss(0));
    for side in Side::BOTH {
        let from_children = db.children(20).unwrap().value(side, tigers, goats);
        assert_eq!(db.value(side, tigers, goats), from_children);
    }
}

#[test]
fn short_distances_agree_with_a_minimax_search_on_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    solve::solve(dir.path(), &RULES, false, &Silent).unwrap();
    let db = Database::open(dir.path(), &RULES).unwrap();
    let rules = cowrie_engine::BaghchalRules {
        win_captures: RULES.win_captures,
        ..Default::default()
    };
    let report = cowrie_solver::search_check::check_samples(&db, &rules, 200, 50, 7, 1).unwrap();
    assert_eq!((report.decided, report.undecided), (200, 50));
}

fn command(arg: &str) -> CommandRecord {
    CommandRecord {
        command_line: vec!["cowrie".into(), "solve".into(), arg.into()],
        build: cowrie_solver::Build {
            cowrie_version: "0.1.0".into(),
            git_commit: "unknown".into(),
            git_dirty: None,
            build_profile: String::new(),
        },
        started: "2026-01-01T00:00:00Z".into(),
        threads: 1,
        run: serde_json::json!({"game": "baghchal", "resume": arg == "--resume"}),
    }
}

#[test]
fn a_manifest_without_commands_resumes_and_records_the_resuming_command() {
    // A database as the library writes it without a command: its manifest has the format's
    // fields only, as every manifest written before commands were recorded.
    let dir = tempfile::tempdir().unwrap();
    solve::solve(dir.path(), &RULES, false, &Silent).unwrap();
    let old = fs::read_to_string(dir.path().join("manifest.json")).unwrap();
    assert!(!old.contains("commands"), "{old}");
    let layers: Vec<Vec<u8>> = ["layer-19.bin", "layer-20.bin"]
        .iter()
        .map(|f| fs::read(dir.path().join(f)).unwrap())
        .collect();

    // Resumed with a command: recorded, the layers kept as they were.
    let first = command("--resume");
    let resumed = solve::solve_recorded(dir.path(), &RULES, true, &Silent, Some(&first)).unwrap();
    assert!(resumed.iter().all(|o| o.seconds.is_none()));
    let m = Manifest::read(dir.path()).unwrap().unwrap();
    assert_eq!(m.commands, vec![first.clone()]);
    assert_eq!(m.layers.len(), 2);
    for (f, bytes) in ["layer-19.bin", "layer-20.bin"].iter().zip(&layers) {
        assert_eq!(&fs::read(dir.path().join(f)).unwrap(), bytes, "{f}");
    }
    // The manifest is the old one with the field added.
    let new = fs::read_to_string(dir.path().join("manifest.json")).unwrap();
    let strip = |t: &str| {
        let mut v: serde_json::Value = serde_json::from_str(t).unwrap();
        v.as_object_mut().unwrap().remove("commands");
        v
    };
    assert_eq!(strip(&new), strip(&old));

    // A second command is appended; a refused start (no --resume) records nothing.
    let second = command("--resume");
    solve::solve_recorded(dir.path(), &RULES, true, &Silent, Some(&second)).unwrap();
    let refused = command("--threads");
    assert!(solve::solve_recorded(dir.path(), &RULES, false, &Silent, Some(&refused)).is_err());
    let m = Manifest::read(dir.path()).unwrap().unwrap();
    assert_eq!(m.commands, vec![first, second]);
    // And the database opens as before.
    assert!(Database::open(dir.path(), &RULES).is_ok());
}
