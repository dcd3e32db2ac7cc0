//! Helpers shared by the tests that run the real `cowrie` binary.
// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// Runs `cowrie` with `args` and waits for it.
pub fn cowrie(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cowrie"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs `cowrie` with `args` in the directory `cwd` and waits for it.
pub fn cowrie_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cowrie"))
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A CSV file's header and rows.
pub fn read_rows(path: &Path) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    let mut r = csv::Reader::from_path(path).expect("csv exists");
    let header = r.headers().expect("header").clone();
    let rows = r.records().map(|x| x.expect("row")).collect();
    (header, rows)
}

/// Asserts that a run was refused: exit code 2, one line on stderr naming `needle`.
pub fn refused(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "'{err}' should name {needle}");
    assert!(!err.contains("panicked"), "{err}");
}

/// The arguments of `cowrie solve` for the movement phase of the reduced game
/// `win-captures=2` (layers 20 and 19) into `dir`, quietly.
pub fn reduced_solve(dir: &str) -> Vec<&str> {
    vec![
        "solve",
        "--game",
        "baghchal",
        "--option",
        "win-captures=2",
        "--movement-only",
        "--out",
        dir,
        "--quiet",
    ]
}
