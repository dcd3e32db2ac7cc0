//! `cowrie solve --unit K/N` and `--join N` through the real binary, on the reduced game
//! `win-captures=2`: the placement halves solved in four units each and joined equal the
//! one-process solve's files byte for byte, and the join refuses a missing, corrupt or foreign
//! unit.
mod common;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{cowrie, refused};

/// The halves solved: the last two placements (19 and 18 goats placed), both sides to move.
const DOWN_TO: &str = "18";

fn solve(dir: &Path, extra: &[&str]) -> std::process::Output {
    let d = dir.to_str().unwrap();
    let mut args = vec![
        "solve",
        "--game",
        "baghchal",
        "--option",
        "win-captures=2",
        "--out",
        d,
        "--quiet",
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    cowrie(&args)
}

fn ok(o: &std::process::Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn unit(dir: &Path, k: u32) -> String {
    let u = format!("{k}/4");
    ok(&solve(dir, &["--down-to-placed", DOWN_TO, "--unit", &u]))
}

fn join(dir: &Path) -> std::process::Output {
    solve(dir, &["--down-to-placed", DOWN_TO, "--join", "4"])
}

fn files(dir: &Path) -> BTreeMap<String, PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), e.path())
        })
        .collect()
}

fn without_commands(path: &Path) -> serde_json::Value {
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    m.as_object_mut().unwrap().remove("commands");
    m
}

#[test]
fn halves_solved_in_units_and_joined_equal_the_one_process_solve() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let split = tmp.path().join("split");
    ok(&solve(&whole, &["--down-to-placed", DOWN_TO]));

    // Units need the movement phase solved: it is not split.
    ok(&solve(&split, &["--down-to-placed", DOWN_TO, "--stages"]));
    refused(
        &solve(&split, &["--down-to-placed", DOWN_TO, "--unit", "1/4"]),
        "--movement-only",
    );
    refused(
        &solve(&split, &["--down-to-placed", DOWN_TO, "--join", "4"]),
        "--movement-only",
    );
    ok(&solve(&split, &["--movement-only"]));
    let stages = ok(&solve(&split, &["--down-to-placed", DOWN_TO, "--stages"]));
    let stages: Vec<&str> = stages.lines().collect();
    // 19 goats placed, goats then tigers to move, then 18: the order of the one-process solve.
    assert_eq!(
        stages,
        [
            "placement-19-goats",
            "placement-19-tigers",
            "placement-18-goats",
            "placement-18-tigers"
        ]
    );

    // A unit for other rules than the database's (five captures win by default).
    refused(
        &cowrie(&[
            "solve",
            "--game",
            "baghchal",
            "--out",
            split.to_str().unwrap(),
            "--unit",
            "1/4",
        ]),
        "holds a database for win-captures=2",
    );
    // A unit out of range, and more units than a half has tiger classes.
    refused(
        &solve(&split, &["--down-to-placed", DOWN_TO, "--unit", "5/4"]),
        "'5/4'",
    );
    refused(
        &solve(&split, &["--down-to-placed", DOWN_TO, "--unit", "0/4"]),
        "'0/4'",
    );
    refused(
        &solve(&split, &["--down-to-placed", DOWN_TO, "--unit", "1/100000"]),
        "100000 units",
    );

    // Too little memory for what the unit reads (the movement layers) and its quarter of the
    // half: refused before anything is written.
    refused(
        &solve(
            &split,
            &[
                "--down-to-placed",
                DOWN_TO,
                "--unit",
                "1/4",
                "--memory-gb",
                "0.001",
            ],
        ),
        "what a unit reads",
    );
    let units = split.join("units").join(stages[0]);
    assert!(!units.exists());
    for k in [4, 2, 1] {
        let said = unit(&split, k);
        assert!(
            said.contains(&format!("unit {k}/4 of {}", stages[0])),
            "{said}"
        );
    }
    // Unit 3 not solved: the join names it and writes nothing.
    refused(&join(&split), "unit 3/4");
    assert!(!split.join(format!("{}.bin", stages[0])).exists());
    // Unit 3 interrupted after writing part of its file: no manifest, still missing.
    std::fs::write(units.join("3-of-4.bin"), [0u8; 10]).unwrap();
    refused(&join(&split), "unit 3/4");
    unit(&split, 3);
    // A unit solved again, whole, is left as it is.
    assert!(unit(&split, 3).contains("solved before"));

    // A corrupt unit file: one byte changed.
    let bin = units.join("2-of-4.bin");
    let mut bytes = std::fs::read(&bin).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&bin, &bytes).unwrap();
    refused(&join(&split), "2-of-4.bin");
    // Solving it again finds it damaged and replaces it.
    assert!(unit(&split, 2).contains("solved in"));

    // A unit of another rule set (its manifest says three captures win).
    let json = units.join("1-of-4.json");
    let text = std::fs::read_to_string(&json).unwrap();
    let foreign = text.replace("\"win_captures\": 2", "\"win_captures\": 3");
    assert_ne!(text, foreign, "the rules are recorded as win_captures");
    std::fs::write(&json, foreign).unwrap();
    refused(&join(&split), "1-of-4.json");
    unit(&split, 1);

    let said = ok(&join(&split));
    assert!(said.contains("joined 4 units"), "{said}");
    assert!(!units.exists());
    // A joined half's units left behind (a join stopped after writing the manifest) go with the
    // next join.
    std::fs::create_dir_all(&units).unwrap();
    std::fs::write(units.join("1-of-4.bin"), [0u8; 10]).unwrap();
    // So is the summary such a join did not write.
    let summary = split.join(format!("{}.csv", stages[0]));
    std::fs::remove_file(&summary).unwrap();
    for stage in &stages[1..] {
        for k in [1, 2, 3, 4] {
            assert!(unit(&split, k).contains(stage));
        }
        ok(&join(&split));
    }
    assert!(!split.join("units").exists());
    assert_eq!(
        ok(&solve(&split, &["--down-to-placed", DOWN_TO, "--stages"])),
        ""
    );
    refused(
        &solve(&split, &["--down-to-placed", DOWN_TO, "--unit", "1/4"]),
        "nothing is left",
    );

    // Every file the one-process solve wrote, byte for byte; the manifests equal but for the
    // commands each records.
    let (a, b) = (files(&whole), files(&split));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files"
    );
    let mut csv = 0;
    for (name, path) in &a {
        if name == "manifest.json" {
            assert_eq!(without_commands(path), without_commands(&b[name]));
        } else {
            csv += usize::from(name.ends_with(".csv"));
            assert!(
                std::fs::read(path).unwrap() == std::fs::read(&b[name]).unwrap(),
                "{name} differs"
            );
        }
    }
    // Two movement layers and four halves, each with its summary.
    assert_eq!((a.len(), csv), (13, 6));
}

#[test]
fn a_one_process_solve_removes_the_units_of_the_halves_it_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("db");
    ok(&solve(&dir, &["--movement-only"]));
    // A unit of the first half, then the user turns to one process for the rest.
    unit(&dir, 1);
    let first = dir.join("units").join("placement-19-goats");
    assert!(first.join("1-of-4.bin").is_file() && first.join("1-of-4.json").is_file());
    ok(&solve(&dir, &["--down-to-placed", "19", "--resume"]));
    // The half the unit was of is written: its unit is gone, and the directory with it.
    assert!(dir.join("placement-19-goats.bin").is_file());
    assert!(!dir.join("units").exists(), "units left behind");
    // A unit of a half not yet written stays: 18 goats placed, goats to move, is next.
    unit(&dir, 2);
    let next = dir.join("units").join("placement-18-goats");
    assert!(next.join("2-of-4.json").is_file());
    ok(&solve(&dir, &["--down-to-placed", "19", "--resume"]));
    assert!(
        next.join("2-of-4.json").is_file(),
        "a unit of a half still to solve was removed"
    );
}

#[test]
fn a_join_of_the_wrong_count_names_the_split_the_units_are_of() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("db");
    ok(&solve(&dir, &["--movement-only"]));
    for k in 1..=4 {
        unit(&dir, k);
    }
    let wrong = solve(&dir, &["--down-to-placed", DOWN_TO, "--join", "3"]);
    refused(&wrong, "unit 1/3 of placement-19-goats is missing");
    refused(&wrong, "holds units of another split: was it --join 4?");
    // Nothing was joined or removed: the right count joins them.
    assert!(!dir.join("placement-19-goats.bin").exists());
    ok(&join(&dir));
    assert!(dir.join("placement-19-goats.bin").is_file());
}
