//! `cowrie bearoff`: one position printed, a database written with its manifest, one-line
//! refusals.
mod common;
use common::{cowrie, read_rows, refused};

#[test]
fn prints_a_position_counted_by_hand() {
    // Frangieh `modern`: one checker on the 6-point is off in one roll but for 1-1, 2-1, 3-1,
    // 4-1 and 3-2 (9 of 36), and surely in two.
    let o = cowrie(&[
        "bearoff",
        "--game",
        "frangieh",
        "--variant",
        "modern",
        "--position",
        "0,0,0,0,0,1",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("expected turns to bear off 1.250000"), "{out}");
    assert!(
        out.contains("1 turns  0.750000000") && out.contains("2 turns  0.250000000"),
        "{out}"
    );
    // Barakat's exact bear-off: a lone checker on the 1-point waits for a 1 (11 rolls of 36).
    let o = cowrie(&["bearoff", "--game", "frangieh", "--position", "1,0,0,0,0,0"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&format!("{:.6}", 36.0 / 11.0)), "{out}");
}

#[test]
fn writes_the_database_with_its_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("db");
    let o = cowrie(&[
        "bearoff",
        "--game",
        "julbahar",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (header, rows) = read_rows(&out.join("expected.csv"));
    assert_eq!(
        header.iter().collect::<Vec<_>>(),
        [
            "position",
            "checkers",
            "pips",
            "expected_turns",
            "expected_turns_to_first_off"
        ]
    );
    // C(21, 6) positions; the fifteen-checker ones (C(20, 5)) carry the first-off figure.
    assert_eq!(rows.len(), 54_264);
    assert_eq!(rows.iter().filter(|r| !r[4].is_empty()).count(), 15_504);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["status"], "complete");
    assert_eq!(manifest["options"]["bear-off"], "higher");
    for name in ["expected.csv", "distribution.csv"] {
        let bytes = std::fs::read(out.join(name)).unwrap();
        assert_eq!(
            manifest["files"][name]["bytes"],
            bytes.len() as u64,
            "{name}"
        );
    }
    // A finished database is not replaced without --force.
    let again = cowrie(&[
        "bearoff",
        "--game",
        "julbahar",
        "--out",
        out.to_str().unwrap(),
    ]);
    refused(&again, "--force");
}

#[test]
fn refuses_bad_input_in_one_line() {
    refused(
        &cowrie(&["bearoff", "--game", "frangieh", "--position", "9,9,0,0,0,0"]),
        "9,9,0,0,0,0",
    );
    refused(
        &cowrie(&["bearoff", "--game", "baghchal", "--position", "1,0,0,0,0,0"]),
        "baghchal",
    );
    refused(
        &cowrie(&[
            "bearoff",
            "--game",
            "frangieh",
            "--variant",
            "nope",
            "--position",
            "1,0,0,0,0,0",
        ]),
        "nope",
    );
}

#[test]
fn one_sigint_stops_the_build_leaving_no_database_that_says_complete() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("db");
    let args = [
        "bearoff",
        "--game",
        "julbahar",
        "--out",
        out.to_str().unwrap(),
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_cowrie"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Well inside the build, which takes a second or more.
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(
        sent.elapsed() < Duration::from_secs(30),
        "{:?}",
        sent.elapsed()
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("run the same command again"), "{err}");
    if let Ok(text) = std::fs::read_to_string(out.join("manifest.json")) {
        let m: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(m["status"], "interrupted", "{text}");
    }
    // As it says, the same command again builds the database.
    let again = cowrie(&args);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["status"], "complete");
}
