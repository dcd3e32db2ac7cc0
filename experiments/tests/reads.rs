//! Every read of a file cowrie trusts is bounded (cowrie_solver::bounded): records, plies and
//! CSV tables a line at a time, manifests whole, weights by their header. Each case runs the
//! binary under a 1 GB virtual-memory limit (`ulimit -v 1000000`), so an unbounded read fails
//! the test by running out of memory rather than by its message.
#![cfg(unix)]
use std::path::Path;
use std::process::{Command, Output};

/// `cowrie args` under `ulimit -v 1000000`.
fn limited(args: &[&str]) -> Output {
    Command::new("bash")
        .arg("-c")
        .arg(r#"ulimit -v 1000000; exec "$0" "$@""#)
        .arg(env!("CARGO_BIN_EXE_cowrie"))
        .args(args)
        .output()
        .expect("bash runs")
}

/// Refused with exit code 2 and one line on stderr holding each of `needles`.
fn refused(o: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    for needle in needles {
        assert!(err.contains(needle), "'{err}' should hold {needle}");
    }
}

const LINE: &str = "a line longer than 16 MiB, the limit of a line";
const DOCUMENT: &str = "longer than 64 MiB, the limit of its format";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn records_that_never_end_are_refused_at_the_line_limit() {
    let dir = tempfile::tempdir().unwrap();
    // One line of 17 MiB, a file on disk rather than a device.
    let long = dir.path().join("long.jsonl");
    std::fs::write(&long, vec![b'x'; 17 << 20]).unwrap();
    for file in ["/dev/zero", s(&long)] {
        refused(
            &limited(&["replay", file, "--quiet"]),
            &[&format!("'{file}'"), LINE],
        );
        let out = dir.path().join("judged.csv");
        refused(
            &limited(&["judge", file, "--db", s(dir.path()), "--out", s(&out)]),
            &[&format!("'{file}'"), LINE],
        );
    }
}

#[test]
fn a_manifest_that_never_ends_is_refused_at_the_document_limit() {
    let dir = tempfile::tempdir().unwrap();
    // A run whose manifest is /dev/zero: replaying its records reads the manifest beside them.
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    std::fs::write(run.join("records.jsonl"), "{}\n").unwrap();
    std::os::unix::fs::symlink("/dev/zero", run.join("manifest.json")).unwrap();
    let manifest = run.join("manifest.json");
    refused(
        &limited(&["replay", s(&run.join("records.jsonl")), "--quiet"]),
        &[&format!("'{}'", manifest.display()), DOCUMENT],
    );
    // A solver database whose manifest is /dev/zero.
    let db = dir.path().join("db");
    std::fs::create_dir(&db).unwrap();
    std::os::unix::fs::symlink("/dev/zero", db.join("manifest.json")).unwrap();
    std::fs::write(dir.path().join("records.jsonl"), "{}\n").unwrap();
    refused(
        &limited(&[
            "judge",
            s(&dir.path().join("records.jsonl")),
            "--db",
            s(&db),
            "--out",
            s(&dir.path().join("judged.csv")),
        ]),
        &[s(&db.join("manifest.json")), DOCUMENT],
    );
}

#[test]
fn weights_that_never_end_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let o = limited(&[
        "match",
        "--game",
        "frangieh",
        "--p1",
        "td:weights=/dev/zero",
        "--p2",
        "random",
        "--games",
        "2",
        "--threads",
        "1",
        "--quiet",
        "--out",
        s(&dir.path().join("x")),
    ]);
    refused(&o, &["'/dev/zero'", "not a regular file"]);
}

#[test]
fn an_external_agent_whose_answer_never_ends_forfeits() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    // `cat /dev/zero` answers with one line that never ends.
    let o = limited(&[
        "match",
        "--game",
        "baghchal",
        "--p1",
        "external:cmd=cat /dev/zero",
        "--p2",
        "random",
        "--games",
        "2",
        "--threads",
        "1",
        "--quiet",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 3, "{games}");
    assert_eq!(games.matches("forfeit").count(), 2, "{games}");
}
