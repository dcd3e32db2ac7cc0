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

/// A CSV file's header and rows.
pub fn read_rows(path: &Path) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    let mut r = csv::Reader::from_path(path).expect("csv exists");
    let header = r.headers().expect("header").clone();
    let rows = r.records().map(|x| x.expect("row")).collect();
    (header, rows)
}
