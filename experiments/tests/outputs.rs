//! No command writes over what it reads or over another run, `--resume` needs a run to
//! continue, and a solver database's files are checked against their manifest's checksums:
//! each refusal is exit code 2 and one line naming the paths, with the input left unchanged.
mod common;
use common::{cowrie, reduced_solve, refused};

use std::path::Path;

/// A recorded two-game Baghchal match in `dir`.
fn recorded_run(dir: &Path) {
    let o = cowrie(&[
        "match",
        "--game",
        "baghchal",
        "--p1",
        "random",
        "--p2",
        "random",
        "--games",
        "2",
        "--record",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Runs `args`, asserts it was refused naming every one of `paths`, and that `kept` has the
/// same bytes after as before.
fn refused_keeping(args: &[&str], paths: &[&str], kept: &Path) {
    let before = std::fs::read(kept).unwrap();
    let o = cowrie(args);
    for p in paths {
        refused(&o, p);
    }
    assert_eq!(
        std::fs::read(kept).unwrap(),
        before,
        "{} changed",
        kept.display()
    );
}

#[test]
fn an_output_that_is_an_input_or_a_file_its_manifest_lists_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    recorded_run(&run);
    std::os::unix::fs::symlink(&run, dir.path().join("link")).unwrap();
    let records = run.join("records.jsonl");
    let r = records.to_str().unwrap();
    let replay = |flag: &str, out: &str| {
        refused_keeping(
            &["replay", r, "--game-index", "0", flag, out],
            &[r, out],
            &Path::new(out).canonicalize().unwrap(),
        );
    };
    // The input itself, also through `..`, a symbolic link and a trailing slash on the parent.
    replay("--html", r);
    replay("--plies", r);
    let dotdot = format!("{}/../run/records.jsonl", run.display());
    replay("--html", &dotdot);
    let linked = format!("{}/link//records.jsonl", dir.path().display());
    replay("--plies", &linked);
    // Files the run's manifest lists, and the manifest.
    for name in ["manifest.json", "games.csv", "summary.csv"] {
        let out = run.join(name);
        let o = out.to_str().unwrap();
        refused_keeping(
            &["replay", r, "--game-index", "0", "--html", o],
            &[o, "manifest.json"],
            &out,
        );
    }
    // A new file beside the run is written.
    let page = run.join("game-0.html");
    let o = cowrie(&[
        "replay",
        r,
        "--game-index",
        "0",
        "--quiet",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // judge: its input file, and a solver database's manifest (no solve needed to refuse).
    let db = dir.path().join("db");
    std::fs::create_dir(&db).unwrap();
    std::fs::write(db.join("manifest.json"), "{\"layers\":[{\"goats\":20}]}\n").unwrap();
    let d = db.to_str().unwrap();
    refused_keeping(&["judge", r, "--db", d, "--out", r], &[r], &records);
    for name in ["manifest.json", "layer-20.bin"] {
        let out = db.join(name);
        if !out.exists() {
            std::fs::write(&out, b"layer").unwrap();
        }
        let o = out.to_str().unwrap();
        refused_keeping(
            &["judge", r, "--db", d, "--out", o],
            &[o, "manifest.json"],
            &out,
        );
    }
}

#[test]
fn a_directory_holding_a_run_is_replaced_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |k: &str| {
        let out = dir.path().join(format!("s{k}"));
        let o = cowrie(&[
            "match",
            "--game",
            "baghchal",
            "--p1",
            "random",
            "--p2",
            "random",
            "--games",
            "4",
            "--shard",
            &format!("{k}/2"),
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        out.to_str().unwrap().to_string()
    };
    let (s1, s2) = (shard("1"), shard("2"));
    let merged = dir.path().join("m");
    let m = merged.to_str().unwrap();
    let merge = |extra: &[&str]| {
        let mut args = vec!["merge", "--out", m, &s1, &s2];
        args.extend_from_slice(extra);
        cowrie(&args)
    };
    assert!(merge(&[]).status.success());
    let manifest = merged.join("manifest.json");
    refused_keeping(&["merge", "--out", m, &s1, &s2], &[m, "--force"], &manifest);
    assert!(merge(&["--force"]).status.success());
    // A match into a finished run: refused, replaced with --force.
    let games = Path::new(&s1).join("games.csv");
    let again = |extra: &[&str]| {
        let mut args = vec![
            "match", "--game", "baghchal", "--p1", "random", "--p2", "random", "--games", "2",
            "--quiet", "--out", &s1,
        ];
        args.extend_from_slice(extra);
        cowrie(&args)
    };
    let before = std::fs::read(&games).unwrap();
    refused(&again(&[]), "--force");
    assert_eq!(std::fs::read(&games).unwrap(), before);
    assert!(again(&["--force"]).status.success());
}

#[test]
fn resume_on_a_missing_directory_is_refused_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none");
    let m = missing.to_str().unwrap();
    let match_args = [
        "match", "--game", "baghchal", "--p1", "random", "--p2", "random", "--games", "2",
        "--resume", "--out", m,
    ];
    refused(&cowrie(&match_args), m);
    let tournament_args = [
        "tournament",
        "--game",
        "baghchal",
        "--agent",
        "random",
        "--agent",
        "random",
        "--games-per-pair",
        "2",
        "--resume",
        "--out",
        m,
    ];
    refused(&cowrie(&tournament_args), m);
    let mut solve = reduced_solve(m);
    solve.push("--resume");
    refused(&cowrie(&solve), m);
    assert!(!missing.exists());
}

#[test]
fn a_changed_database_file_is_refused_and_one_without_checksums_read_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let d = db.to_str().unwrap();
    assert!(cowrie(&reduced_solve(d)).status.success());
    let probe = [
        "probe",
        "--game",
        "baghchal",
        "--option",
        "win-captures=2",
        "--db",
        d,
        "--position",
        "TGGGT/GGGGG/G.GGG/GGGGG/TGGGT g 0 0 40",
    ];
    let good = cowrie(&probe);
    assert!(
        good.status.success(),
        "{}",
        String::from_utf8_lossy(&good.stderr)
    );
    assert!(good.stderr.is_empty());
    // A manifest without checksums (as written before they were recorded): read, with a warning.
    let manifest = db.join("manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let mut m: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(m["files"].as_object().unwrap().len(), 2, "{text}");
    m.as_object_mut().unwrap().remove("files");
    std::fs::write(&manifest, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    let old = cowrie(&probe);
    assert!(old.status.success());
    assert_eq!(old.stdout, good.stdout);
    let warning = String::from_utf8_lossy(&old.stderr);
    assert_eq!(warning.lines().count(), 1, "{warning}");
    assert!(warning.contains("no checksum"), "{warning}");
    std::fs::write(&manifest, text).unwrap();
    // Junk of the same length in a layer file.
    let layer = db.join("layer-19.bin");
    let len = std::fs::metadata(&layer).unwrap().len() as usize;
    std::fs::write(&layer, vec![0xa5; len]).unwrap();
    refused(&cowrie(&probe), "layer-19.bin");
    refused(&cowrie(&probe), "SHA-256");
}
