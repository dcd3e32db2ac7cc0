//! Fuzzing of the files and lines a user hands to `cowrie`: `legal`'s input lines (JSON objects
//! and GNU Backgammon Position IDs with dice), `records.jsonl` (read by `replay`) and
//! `manifest.json` (read by `match --resume`, `merge` and `replay`). Inputs are valid texts with
//! random edits (characters cut, inserted or replaced; a JSON value swapped for another of any
//! type, sometimes very long) and random texts. Each must be accepted or refused with an error
//! that stays short (the offending input quoted to at most 80 characters), never a panic.
//!
//! CI runs a few hundred inputs per parser (the default below); the long run is
//! `PROPTEST_CASES=1000000 cargo test --release -p cowrie-experiments --test fuzz`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use cowrie_experiments::cli::{MergeArgs, ReplayArgs};
use cowrie_experiments::cmd::{match_cmd, merge, replay};
use cowrie_experiments::legal::run_legal;
use proptest::prelude::*;
use serde_json::Value;

/// Cases per property unless `PROPTEST_CASES` says otherwise.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(300);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The longest error accepted once the paths of the test's own files are taken out: the
/// fixed wording, a few quoted inputs of at most 80 characters each and their lengths.
const MAX_ERROR: usize = 600;

/// Fails unless `e`, as the command line prints it, is short.
fn short(e: &anyhow::Error, paths: &[&Path]) -> Result<(), TestCaseError> {
    let mut text = format!("{e:#}");
    for p in paths {
        text = text.replace(&p.display().to_string(), "DIR");
    }
    let n = text.chars().count();
    prop_assert!(n <= MAX_ERROR, "error of {} characters: {}", n, text);
    Ok(())
}

/// A random edit of `base`: `cut` characters from `at` replaced by `insert`.
fn edit(base: &str, at: usize, cut: usize, insert: &str) -> String {
    let chars: Vec<char> = base.chars().collect();
    let at = at % (chars.len() + 1);
    let end = (at + cut).min(chars.len());
    chars[..at]
        .iter()
        .chain(insert.chars().collect::<Vec<_>>().iter())
        .chain(chars[end..].iter())
        .collect()
}

/// JSON values of every type, some of them long.
fn any_json() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|x| serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)),
        ".{0,12}".prop_map(Value::String),
        (1usize..3000).prop_map(|n| Value::String("x".repeat(n))),
        prop::collection::vec(any::<i8>().prop_map(Value::from), 0..30).prop_map(Value::Array),
        Just(serde_json::json!({"a": 1})),
    ]
}

/// Replaces the `pick`-th value (in document order, objects and arrays included) of `v` with
/// `with`.
fn replace_nth(v: &mut Value, pick: &mut usize, with: &Value) -> bool {
    if *pick == 0 {
        *v = with.clone();
        return true;
    }
    *pick -= 1;
    match v {
        Value::Array(items) => items.iter_mut().any(|x| replace_nth(x, pick, with)),
        Value::Object(map) => map.values_mut().any(|x| replace_nth(x, pick, with)),
        _ => false,
    }
}

/// How a valid text is damaged.
#[derive(Clone, Debug)]
enum Damage {
    /// Characters cut and inserted.
    Edit(usize, usize, String),
    /// One JSON value (chosen by its index in document order) replaced.
    Value(usize, Value),
    /// A random text instead.
    Random(String),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (
            any::<usize>(),
            0usize..6,
            "[-0-9a-z{}\\[\\]\":, ]{0,5}|.{0,3}"
        )
            .prop_map(|(a, c, s)| Damage::Edit(a, c, s)),
        (0usize..200, any_json()).prop_map(|(n, v)| Damage::Value(n, v)),
        ".{0,40}".prop_map(Damage::Random),
    ]
}

/// `text` with `damage` done to it (a value replacement needs `text` to be JSON).
fn apply(text: &str, damage: &Damage) -> String {
    match damage {
        Damage::Edit(at, cut, insert) => edit(text, *at, *cut, insert),
        Damage::Value(n, with) => match serde_json::from_str::<Value>(text) {
            Ok(mut v) => {
                let mut pick = *n;
                replace_nth(&mut v, &mut pick, with);
                serde_json::to_string_pretty(&v).unwrap()
            }
            Err(_) => text.to_string(),
        },
        Damage::Random(s) => s.clone(),
    }
}

const LEGAL_LINES: &[&str] = &[
    r#"{"points":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0],"dice":[3,1]}"#,
    r#"{"points":[0,0,0,0,0,15,0,0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0],"bar":[0,0],"off":[0,0],"dice":[6,6]}"#,
    "4HPwATDgc/ABMA 3 1",
    "4HPwATDgc/ABMA 6 6",
    "AAAAAAAAAAAAAA 1 2",
];

/// The valid files the record and manifest properties start from: a recorded run of each game
/// and a set of two shards.
struct Fixture {
    root: PathBuf,
    /// Per game, its run directory.
    runs: Vec<PathBuf>,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("cowrie-fuzz-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let mut runs = Vec::new();
        for game in ["baghchal", "frangieh", "julbahar", "bargese"] {
            let out = root.join(game);
            match_cmd::run(&match_config(game, &out, "1/1", false)).expect("a fixture run");
            runs.push(out);
        }
        for k in 1..=2 {
            let out = root.join(format!("shard{k}"));
            match_cmd::run(&match_config("frangieh", &out, &format!("{k}/2"), false))
                .expect("a fixture shard");
        }
        Fixture { root, runs }
    })
}

/// Four recorded games of `game` between random players, in `out`.
fn match_config(game: &str, out: &Path, shard: &str, resume: bool) -> match_cmd::MatchConfig {
    match_cmd::MatchConfig {
        game: game.into(),
        variant: None,
        options: vec!["ply-cap=16".into()],
        agents: ["random".parse().unwrap(), "random".parse().unwrap()],
        games: 4,
        swap: true,
        seed: 3,
        threads: 1,
        out: out.to_path_buf(),
        progress: cowrie_experiments::progress::Progress::Hidden,
        command_line: vec!["cowrie".into()],
        shard: shard.parse().unwrap(),
        resume,
        record: true,
    }
}

/// Copies the files of run directory `from` into a new directory `to`.
fn copy_run(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// A fresh scratch directory under the fixture's root.
fn scratch() -> PathBuf {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = fixture().root.join(format!("case{n}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn replay_all(file: &Path) -> anyhow::Result<()> {
    replay::replay_each(
        &ReplayArgs {
            file: file.to_path_buf(),
            game_index: None,
            quiet: true,
            html: None,
        },
        |_| Ok(()),
    )
}

proptest! {
    #![proptest_config(config())]

    /// `cowrie legal` on one damaged line.
    #[test]
    fn legal_lines(base in proptest::sample::select(LEGAL_LINES), d in damage()) {
        let line = apply(base, &d);
        let rules = cowrie_engine::RuleSet::variant("modern").unwrap();
        let mut out = Vec::new();
        if let Err(e) = run_legal(line.as_bytes(), &mut out, &rules) {
            short(&e, &[])?;
        }
    }

    /// `cowrie replay` on a records file one of whose lines is damaged, alone (no manifest: the
    /// record parser and the replay itself are what is tested).
    #[test]
    fn records(game in 0usize..4, line in any::<usize>(), d in damage()) {
        let f = fixture();
        let text = std::fs::read_to_string(f.runs[game].join("records.jsonl")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let at = line % lines.len();
        let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        // Records are one line each: a value replacement writes the record back on one line.
        changed[at] = match apply(lines[at], &d) {
            t if matches!(d, Damage::Value(..)) => serde_json::from_str::<Value>(&t)
                .map_or(t, |v| v.to_string()),
            t => t,
        };
        let dir = scratch();
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("records.jsonl");
        std::fs::write(&file, changed.join("\n") + "\n").unwrap();
        if let Err(e) = replay_all(&file) {
            short(&e, &[&dir])?;
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A damaged `manifest.json` read by `match --resume` and by `replay` beside its records.
    #[test]
    fn manifests_on_resume_and_replay(game in 0usize..4, d in damage()) {
        let f = fixture();
        let dir = scratch();
        copy_run(&f.runs[game], &dir);
        let path = dir.join("manifest.json");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, apply(&text, &d)).unwrap();
        if let Err(e) = replay_all(&dir.join("records.jsonl")) {
            short(&e, &[&dir])?;
        }
        let name = ["baghchal", "frangieh", "julbahar", "bargese"][game];
        if let Err(e) = match_cmd::run(&match_config(name, &dir, "1/1", true)) {
            short(&e, &[&dir])?;
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A damaged shard manifest read by `merge`.
    #[test]
    fn manifests_on_merge(which in 1usize..=2, d in damage()) {
        let f = fixture();
        let dir = scratch();
        let shards: Vec<PathBuf> = (1..=2).map(|k| dir.join(format!("shard{k}"))).collect();
        for (k, s) in shards.iter().enumerate() {
            copy_run(&f.root.join(format!("shard{}", k + 1)), s);
        }
        let path = shards[which - 1].join("manifest.json");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, apply(&text, &d)).unwrap();
        let args = MergeArgs { out: dir.join("merged"), shards };
        if let Err(e) = merge::run(&args, vec!["cowrie".into()]) {
            short(&e, &[&dir])?;
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
