//! Fuzzing of the files and lines a user hands to `cowrie`: `legal`'s input lines (JSON objects
//! and GNU Backgammon Position IDs with dice), `records.jsonl` (read by `replay`) and
//! `manifest.json` (read by `match --resume`, `merge` and `replay`). Inputs are valid texts with
//! random edits (characters cut, inserted or replaced; a JSON value swapped for another of any
//! type, sometimes very long) and random texts. Each must be accepted or refused, never with a
//! panic: a refusal is one line that quotes the input to at most 80 characters and names the
//! file (the run's file it is about) and where in it (a line, a field, a row, bytes).
//!
//! The file properties build a valid run of each game and a set of two shards once, keep their
//! files in memory, and hand each damaged copy to the functions the commands read runs with
//! (`replay`'s, `--resume`'s checks of a directory, `merge`'s reading of its shards) through a
//! reader of those bytes, so a case touches no disk. `the_binary_agrees` writes damaged runs to
//! disk and runs the real `cowrie replay`, `cowrie match --resume` and `cowrie merge` on them:
//! each exits with 0 exactly when the in-memory path accepts, or with 2 and the same error on
//! one line, so the in-memory path is the binary's.
//!
//! CI runs the default case counts below; the long run is
//! `PROPTEST_CASES=1000000 cargo test --release -p cowrie-experiments --test fuzz`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use cowrie_experiments::cmd::legal::run_legal;
use cowrie_experiments::cmd::replay::ReplayArgs;
use cowrie_experiments::cmd::{merge, replay};
use cowrie_experiments::run::{digest, manifest, runfiles, runner};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use serde_json::Value;

/// Cases per property unless `PROPTEST_CASES` says otherwise.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(1000)
}

fn config_of(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn config() -> ProptestConfig {
    config_of(cases())
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

/// Fails unless `e`, a refusal of the files of run directory `dir`, is one line, short, quotes
/// no more than 80 characters of a long value, names one of the run's files `files` (as
/// `dir/name`) and says where in it with one of `wheres`.
fn refusal(
    e: &anyhow::Error,
    dir: &Path,
    files: &[&str],
    wheres: &[&str],
) -> Result<(), TestCaseError> {
    let text = format!("{e:#}");
    prop_assert!(
        !text.chars().any(char::is_control),
        "not one line: {:?}",
        text
    );
    short(e, &[dir])?;
    let named = files
        .iter()
        .any(|f| text.contains(&dir.join(f).display().to_string()));
    prop_assert!(named, "names no file of {:?}: {}", files, text);
    prop_assert!(
        wheres.iter().any(|w| text.contains(w)),
        "says not where in the file: {}",
        text
    );
    // The long values the damage inserts are runs of 'x'.
    prop_assert!(
        !text.contains(&"x".repeat(81)),
        "quotes over 80 characters: {}",
        text
    );
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

/// The files of one run directory: file name to bytes.
type Files = BTreeMap<String, Vec<u8>>;

/// The valid runs the record and manifest properties start from, held in memory: a recorded
/// run of each game and the two shards of one run.
struct Fixture {
    /// Per game, its name, its files and the `run` of its manifest.
    runs: Vec<(&'static str, Files, Value)>,
    /// The shards' files, shard 1/2 first.
    shards: [Files; 2],
}

const GAMES: [&str; 4] = ["baghchal", "frangieh", "julbahar", "bargese"];

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let root = tempfile::tempdir().expect("a temporary directory");
        let mut runs = Vec::new();
        for game in GAMES {
            let out = root.path().join(game);
            runner::run(&match_config(game, &out, "1/1", false)).expect("a fixture run");
            let files = read_run(&out);
            let m: Value = serde_json::from_slice(&files["manifest.json"]).unwrap();
            runs.push((game, files, m["run"].clone()));
        }
        let shards = [1, 2].map(|k| {
            let out = root.path().join(format!("shard{k}"));
            runner::run(&match_config("frangieh", &out, &format!("{k}/2"), false))
                .expect("a fixture shard");
            read_run(&out)
        });
        Fixture { runs, shards }
    })
}

/// The files of the run in `dir` that `replay`, `--resume` and `merge` read.
fn read_run(dir: &Path) -> Files {
    [
        "manifest.json",
        "games.csv",
        "records.jsonl",
        "subgames.csv",
    ]
    .into_iter()
    .filter_map(|n| Some((n.to_string(), std::fs::read(dir.join(n)).ok()?)))
    .collect()
}

/// Four recorded games of `game` between random players, in `out`.
fn match_config(game: &str, out: &Path, shard: &str, resume: bool) -> runner::MatchConfig {
    runner::MatchConfig {
        rules: cowrie_experiments::config::RulesConfig::new(game, None, &["ply-cap=16".into()])
            .expect("rules"),
        agents: ["random".parse().unwrap(), "random".parse().unwrap()],
        games: 4,
        // The same spec in both seats: self-play, no seat swap (as the command line does).
        swap: false,
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

/// The same run on the command line.
fn match_args(game: &str, out: &Path) -> Vec<String> {
    let out = out.display().to_string();
    [
        "match",
        "--game",
        game,
        "--option",
        "ply-cap=16",
        "--p1",
        "random",
        "--p2",
        "random",
        "--games",
        "4",
        "--seed",
        "3",
        "--threads",
        "1",
        "--record",
        "--resume",
        "--out",
        out.as_str(),
    ]
    .map(String::from)
    .to_vec()
}

/// A reader of the files `dirs` hold (directory, its files), as the commands read a disk.
fn reader<'a>(dirs: &'a [(PathBuf, &'a Files)]) -> impl Fn(&Path) -> std::io::Result<Vec<u8>> + 'a {
    move |p: &Path| {
        dirs.iter()
            .find(|(d, _)| Some(d.as_path()) == p.parent())
            .and_then(|(_, files)| files.get(p.file_name()?.to_str()?))
            .cloned()
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
    }
}

/// A directory the in-memory cases name (nothing is written there).
fn virtual_dir() -> PathBuf {
    Path::new("/nonexistent/cowrie-fuzz").to_path_buf()
}

/// `cowrie replay DIR/records.jsonl --quiet` on `files`, in memory.
fn replay_in(dir: &Path, files: &Files) -> anyhow::Result<()> {
    let args = ReplayArgs {
        file: dir.join("records.jsonl"),
        game_index: None,
        quiet: true,
        html: None,
        plies: None,
    };
    replay::replay_read(&args, &reader(&[(dir.to_path_buf(), files)]), |_| Ok(()))
}

/// What `cowrie match --resume` checks of run directory `dir` (holding `files`) before it
/// trusts a row, in the order it checks them: that the manifest describes the same run (`run`,
/// what the command would write), and that each file of the run (`games.csv`, `records.jsonl`
/// and, for a game whose rows are matches, `subgames.csv`) is what the manifest records. The
/// rest of a resume reads only the bytes vouched for here.
fn resume_in(dir: &Path, files: &Files, names: &[String], run: &Value) -> anyhow::Result<()> {
    let path = dir.join("manifest.json");
    let dirs = [(dir.to_path_buf(), files)];
    let read = reader(&dirs);
    let old = manifest::resumable(run, &path, &read(&path)?)?;
    for name in names {
        let recorded = digest::recorded(&old, name, &path)?;
        runfiles::vouched(&dir.join(name), recorded.as_ref(), &read)?;
    }
    Ok(())
}

/// The run files `--resume` checks, those the valid run `files` has.
fn resumed_files(files: &Files) -> Vec<String> {
    ["games.csv", "records.jsonl", "subgames.csv"]
        .into_iter()
        .filter(|n| files.contains_key(*n))
        .map(String::from)
        .collect()
}

/// `cowrie merge` of `dir/shard1` and `dir/shard2` (holding `shards`), up to writing: every
/// check it makes of its shards, in memory.
fn merge_in(dir: &Path, shards: &[Files; 2]) -> anyhow::Result<()> {
    let dirs: Vec<(PathBuf, &Files)> = (0..2)
        .map(|k| (dir.join(format!("shard{}", k + 1)), &shards[k]))
        .collect();
    let paths: Vec<PathBuf> = dirs.iter().map(|(d, _)| d.clone()).collect();
    let read = reader(&dirs);
    merge::read_shards(&paths, &read).map(|_| ())
}

/// `files` with record line `line` (any number; taken modulo the lines) damaged by `d`.
fn damage_record(files: &Files, line: usize, d: &Damage) -> Files {
    let text = std::str::from_utf8(&files["records.jsonl"]).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = line % lines.len();
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    // Records are one line each: a value replacement writes the record back on one line.
    changed[at] = match apply(lines[at], d) {
        t if matches!(d, Damage::Value(..)) => {
            serde_json::from_str::<Value>(&t).map_or(t, |v| v.to_string())
        }
        t => t,
    };
    let mut out = files.clone();
    out.insert(
        "records.jsonl".into(),
        (changed.join("\n") + "\n").into_bytes(),
    );
    out
}

/// `files` with its manifest damaged by `d`.
fn damage_manifest(files: &Files, d: &Damage) -> Files {
    let text = std::str::from_utf8(&files["manifest.json"]).unwrap();
    let mut out = files.clone();
    out.insert("manifest.json".into(), apply(text, d).into_bytes());
    out
}

/// Where in a run's file a refusal may say the fault is: a line (of records, or of JSON with
/// its column), an event of a game, a field of the manifest, bytes a digest covers, the
/// manifest's status, a shard's place in its set.
const WHERE: &[&str] = &[
    "line ", "event ", "run.", "files.", "bytes", "status", "shard ", "its run",
];

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
        let mut files = damage_record(&fixture().runs[game].1, line, &d);
        files.remove("manifest.json");
        let dir = virtual_dir();
        if let Err(e) = replay_in(&dir, &files) {
            refusal(&e, &dir, &["records.jsonl"], &["line "])?;
        }
    }

    /// A damaged `manifest.json` read by `replay` beside its records and by `match --resume`.
    #[test]
    fn manifests_on_resume_and_replay(game in 0usize..4, d in damage()) {
        let (_, files, run) = &fixture().runs[game];
        let names = resumed_files(files);
        let damaged = damage_manifest(files, &d);
        let dir = virtual_dir();
        let all = ["manifest.json", "records.jsonl", "games.csv", "subgames.csv"];
        if let Err(e) = replay_in(&dir, &damaged) {
            refusal(&e, &dir, &all, WHERE)?;
        }
        if let Err(e) = resume_in(&dir, &damaged, &names, run) {
            refusal(&e, &dir, &all, WHERE)?;
        }
    }

    /// A damaged shard manifest read by `merge`.
    #[test]
    fn manifests_on_merge(which in 0usize..2, d in damage()) {
        let mut shards = fixture().shards.clone();
        shards[which] = damage_manifest(&shards[which], &d);
        let dir = virtual_dir();
        if let Err(e) = merge_in(&dir, &shards) {
            // A field that differs between the shards is named in both.
            let files: Vec<String> = ["manifest.json", "records.jsonl", "games.csv"]
                .iter()
                .flat_map(|f| [format!("shard{}/{f}", which + 1), format!("shard{}/{f}", 2 - which)])
                .collect();
            let files: Vec<&str> = files.iter().map(String::as_str).collect();
            refusal(&e, &dir, &files, WHERE)?;
        }
    }
}

/// Cases of `the_binary_agrees`: one for every thousand of the other properties, at least 16.
fn binary_cases() -> u32 {
    (cases() / 1000).max(16)
}

/// Writes the run files `files` into `dir`.
fn write_run(dir: &Path, files: &Files) {
    std::fs::create_dir_all(dir).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

/// Fails unless the binary's exit and standard error `o` are what the in-process result
/// `inner` says: 0, or 2 with `error: ` and the same text on one line.
fn agrees(o: &std::process::Output, inner: &anyhow::Result<()>) -> Result<(), TestCaseError> {
    let err = String::from_utf8_lossy(&o.stderr);
    match inner {
        Ok(()) => prop_assert_eq!(o.status.code(), Some(0), "in-process accepts; {}", err),
        Err(e) => {
            prop_assert_eq!(o.status.code(), Some(2), "{}", err);
            prop_assert_eq!(err.lines().count(), 1, "one line: {}", err);
            let line = err.trim_end();
            let want = format!("error: {e:#}");
            // The binary cuts a line over 400 characters (a long temporary path).
            let cut: String = want.chars().take(400).collect();
            prop_assert!(
                line == want || line.starts_with(&cut),
                "binary: {}\nin-process: {}",
                line,
                want
            );
        }
    }
    Ok(())
}

/// Damaged runs on disk through the real binary: `cowrie replay`, `cowrie match --resume` and
/// `cowrie merge` exit as the in-memory path decides, with its error.
#[test]
fn the_binary_agrees() {
    let f = fixture();
    let strategy = (0usize..4, 0usize..4, any::<usize>(), damage());
    let mut runner = TestRunner::new(config_of(binary_cases()));
    let cowrie = |args: &[String]| {
        Command::new(env!("CARGO_BIN_EXE_cowrie"))
            .args(args)
            .output()
            .expect("the binary runs")
    };
    runner
        .run(&strategy, |(kind, game, line, d)| {
            let root = tempfile::tempdir().unwrap();
            let dir = root.path().join("run");
            let (name, files, run) = &f.runs[game];
            match kind {
                // replay: a record damaged (alone), or the manifest beside the records
                0 | 1 => {
                    let damaged = if kind == 0 {
                        let mut r = damage_record(files, line, &d);
                        r.remove("manifest.json");
                        r
                    } else {
                        damage_manifest(files, &d)
                    };
                    write_run(&dir, &damaged);
                    let file = dir.join("records.jsonl").display().to_string();
                    let o = cowrie(&["replay".into(), file, "--quiet".into()]);
                    agrees(&o, &replay_in(&dir, &damaged))?;
                }
                // match --resume, the manifest damaged
                2 => {
                    let damaged = damage_manifest(files, &d);
                    write_run(&dir, &damaged);
                    let o = cowrie(&match_args(name, &dir));
                    agrees(&o, &resume_in(&dir, &damaged, &resumed_files(files), run))?;
                }
                // merge, a shard's manifest damaged
                _ => {
                    let mut shards = f.shards.clone();
                    shards[line % 2] = damage_manifest(&shards[line % 2], &d);
                    for (k, s) in shards.iter().enumerate() {
                        write_run(&dir.join(format!("shard{}", k + 1)), s);
                    }
                    let out = dir.join("merged").display().to_string();
                    let mut args = vec!["merge".to_string(), "--out".into(), out];
                    args.extend(
                        (1..=2).map(|k| dir.join(format!("shard{k}")).display().to_string()),
                    );
                    let o = cowrie(&args);
                    agrees(&o, &merge_in(&dir, &shards))?;
                }
            }
            Ok(())
        })
        .unwrap();
}

/// `files` with field `path` (a JSON pointer) of record line 0 set to `value`.
fn set_in_record(files: &Files, path: &str, value: Value) -> Files {
    let text = std::str::from_utf8(&files["records.jsonl"]).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut rec: Value = serde_json::from_str(&lines[0]).unwrap();
    *rec.pointer_mut(path).expect("the record has the field") = value;
    lines[0] = rec.to_string();
    let mut out = files.clone();
    out.insert(
        "records.jsonl".into(),
        (lines.join("\n") + "\n").into_bytes(),
    );
    out.remove("manifest.json");
    out
}

/// The inputs the properties found refused badly, each refused as they require now.
#[test]
fn what_the_fuzzing_found() {
    let f = fixture();
    let dir = virtual_dir();
    let check = |e: anyhow::Error, files: &[&str], needle: &str| {
        refusal(&e, &dir, files, WHERE).unwrap();
        assert!(
            format!("{e:#}").contains(needle),
            "{e:#} should say {needle}"
        );
    };
    // A long string where serde wants a number: serde's message quoted up to 200 characters.
    let files = set_in_record(&f.runs[0].1, "/game_index", Value::from("x".repeat(3000)));
    let e = replay_in(&dir, &files).unwrap_err();
    check(e, &["records.jsonl"], "(3000 characters)");
    // A Frangieh ply of 81 characters: the notation's reason quoted it whole.
    let (frangieh, _, _) = &f.runs[1];
    assert_eq!(*frangieh, "frangieh");
    let rec: Value = serde_json::from_str(
        std::str::from_utf8(&f.runs[1].1["records.jsonl"])
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let ply = rec["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e.get("action").is_some())
        .unwrap();
    let files = set_in_record(
        &f.runs[1].1,
        &format!("/events/{ply}/action"),
        Value::from("x".repeat(81)),
    );
    let e = replay_in(&dir, &files).unwrap_err();
    check(e, &["records.jsonl"], "line 1");
    // A manifest without the digest of its records: the refusal named neither field nor place.
    let mut files = f.runs[0].1.clone();
    let mut m: Value = serde_json::from_slice(&files["manifest.json"]).unwrap();
    m["files"].as_object_mut().unwrap().remove("records.jsonl");
    files.insert("manifest.json".into(), m.to_string().into_bytes());
    check(
        replay_in(&dir, &files).unwrap_err(),
        &["records.jsonl"],
        "files.records.jsonl",
    );
    let names = resumed_files(&files);
    check(
        resume_in(&dir, &files, &names, &f.runs[0].2).unwrap_err(),
        &["records.jsonl"],
        "files.records.jsonl",
    );
    // A shard whose status or shard field is damaged: the refusal named the directory only.
    for (field, value, needle) in [
        ("status", Value::from("running"), "status"),
        ("shard", Value::from("1/x"), "run.shard"),
        ("shard", Value::from("1/3"), "run.shard"),
    ] {
        let mut shards = f.shards.clone();
        let mut m: Value = serde_json::from_slice(&shards[1]["manifest.json"]).unwrap();
        if field == "status" {
            m[field] = value;
        } else {
            m["run"][field] = value;
        }
        shards[1].insert("manifest.json".into(), m.to_string().into_bytes());
        check(
            merge_in(&dir, &shards).unwrap_err(),
            &["shard2/manifest.json"],
            needle,
        );
    }
}
