//! The verifier on the reduced game `win-captures=2`, solved by the solver: its movement phase
//! (the layers with 20 and 19 goats) and its last placements (the halves with 19 and 18 goats
//! placed). The database passes; a resumed verification skips what was checked; a copy with one
//! stored distance and one placement code changed fails, naming those positions, and its
//! resumed verification checks again exactly the files that changed or read a changed one.

use std::path::{Path, PathBuf};
use std::process::Command;

use cowrie_engine::{BaghchalRules, RuleSet};
use cowrie_solver::index::Index as SolverIndex;
use cowrie_solver::placement_db;
use cowrie_solver::solve::{self, Silent};
use cowrie_solver::{Side as SolverSide, SolveRules};
use cowrie_verifier::layout::DbFile;
use cowrie_verifier::run::{self, Config, Report};
use cowrie_verifier::Side;

/// The reduced game solved: its movement phase and the placement halves with 19 and 18 placed.
fn solved() -> tempfile::TempDir {
    let mut rules = BaghchalRules::default();
    rules.set_option("win-captures", "2").unwrap();
    let rules = SolveRules::from_rules(&rules).unwrap();
    let dir = tempfile::tempdir().unwrap();
    solve::solve(dir.path(), &rules, false, &Silent).unwrap();
    placement_db::solve_placement(dir.path(), &rules, 18, &Silent).unwrap();
    dir
}

fn verify(db: &Path, out: &Path, resume: bool) -> Report {
    let config = Config {
        db: db.to_path_buf(),
        out: out.to_path_buf(),
        resume,
    };
    run::run(&config, &run::Silent).unwrap()
}

/// A copy of the database (its manifest and files) in a new directory.
fn copy_of(db: &Path) -> tempfile::TempDir {
    let copy = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(db).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, copy.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    copy
}

/// The position text form of a board given as the solver's point sets.
fn text(tigers: u32, goats: u32) -> String {
    let ranks: Vec<String> = (0..5)
        .rev()
        .map(|rank| {
            (0..5)
                .map(|file| {
                    let p = 5 * rank + file;
                    match (tigers >> p & 1, goats >> p & 1) {
                        (1, _) => 'T',
                        (_, 1) => 'G',
                        _ => '.',
                    }
                })
                .collect()
        })
        .collect();
    ranks.join("/")
}

/// Adds 2 to the distance of the first goats-to-move position of layer 19 stored as lost in 4
/// or more plies (the parity, hence the value, kept); returns its slot, its board and its
/// distance before.
fn lengthen_a_loss(db: &Path) -> (usize, String, u16) {
    let index = SolverIndex::new();
    let path = db.join("layer-19.bin");
    let mut bytes = std::fs::read(&path).unwrap();
    let word = |b: &[u8], s: usize| u16::from_le_bytes([b[2 * s], b[2 * s + 1]]);
    let slot = (0..index.slots(19))
        .find(|&s| {
            let w = word(&bytes, s);
            w != 0xFFFF && w % 2 == 1 && w >= 5
        })
        .unwrap();
    let w = word(&bytes, slot);
    bytes[2 * slot..2 * slot + 2].copy_from_slice(&(w + 2).to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let (tigers, goats) = index.board(19, slot as u32);
    (slot, text(tigers, goats), w - 1)
}

/// Makes a draw of the first position of the tigers-to-move half with 18 placed and none
/// captured (the file's first part) that the solver's reader calls a win; returns its board.
fn draw_a_win(db: &Path) -> String {
    let index = SolverIndex::new();
    let rules = SolveRules {
        win_captures: 2,
        goats_pass: false,
    };
    let reader = placement_db::PlacementReader::open(db, &rules).unwrap();
    let per_class = 1330u32;
    let (class, rank) = (0..1666usize)
        .flat_map(|c| (0..per_class).map(move |r| (c, r)))
        .find(|&(c, r)| {
            let (t, g) = index.board(18, c as u32 * per_class + r);
            reader.code(18, SolverSide::Tigers, t, g).unwrap() == Some(2)
        })
        .unwrap();
    drop(reader);
    let path: PathBuf = db.join("placement-18-tigers.bin");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = class * (per_class as usize).div_ceil(4) + rank as usize / 4;
    let shift = 2 * (rank % 4);
    bytes[at] = bytes[at] & !(3 << shift) | 1 << shift;
    std::fs::write(&path, &bytes).unwrap();
    let (tigers, goats) = index.board(18, class as u32 * per_class + rank);
    text(tigers, goats)
}

#[test]
fn the_reduced_game_passes_and_a_changed_copy_fails_naming_the_positions() {
    let db = solved();
    let out = tempfile::tempdir().unwrap();
    let report = verify(db.path(), out.path(), false);
    assert!(report.passed(), "{:?}", report.first.first());
    let files: Vec<&str> = report.rows.iter().map(|r| r.file.as_str()).collect();
    assert_eq!(
        files,
        [
            "layer-19.bin",
            "layer-20.bin",
            "placement-19-goats.bin",
            "placement-19-tigers.bin",
            "placement-18-goats.bin",
            "placement-18-tigers.bin"
        ]
    );
    // Layer 20: four tigers, twenty goats and one empty point, 25 * C(24, 4) = 265,650 boards.
    // Burnside: a quarter turn fixes the boards with the empty centre and the tigers on one of
    // its 6 four-cycles (6 each way); the half turn those with the empty centre and the
    // tigers on two of 12 swapped pairs, C(12, 2) = 66; a reflection those with the empty
    // point on its axis (5 ways) and the tigers on the other 4 axis points, or 2 of them and
    // one of its 10 swapped pairs, or two pairs: 5 * (1 + 6 * 10 + 45) = 530.
    // (265,650 + 2 * 6 + 66 + 4 * 530) / 8 = 33,481 positions a side to move.
    let layer20 = &report.rows[1];
    assert_eq!(
        (layer20.slots, layer20.positions),
        (2 * 1666 * 21, 2 * 33_481)
    );
    // The placement halves hold every board: per class C(21, 19) + C(21, 18) with 19 placed
    // (none or one captured), C(21, 18) + C(21, 17) with 18.
    for (row, per_class) in
        report.rows[2..]
            .iter()
            .zip([210 + 1330, 210 + 1330, 1330 + 5985, 1330 + 5985])
    {
        assert_eq!(row.positions, 1666 * per_class, "{}", row.file);
        assert_eq!(row.counts, "agree", "{}", row.file);
    }
    // The summary CSV reads back as the rows.
    let mut csv = csv::Reader::from_path(out.path().join(run::SUMMARY)).unwrap();
    let rows: Vec<run::Row> = csv.deserialize().map(Result::unwrap).collect();
    assert_eq!(rows, report.rows);
    assert_eq!(
        rows[0].sha256,
        run::sha256_file(&db.path().join("layer-19.bin")).unwrap()
    );

    // Resumed, every file is skipped by its checkpoint, with the same rows.
    let again = verify(db.path(), out.path(), true);
    assert_eq!(again.resumed, 6);
    assert_eq!(again.checked, 0);
    assert_eq!(again.rows, report.rows);
    // Without --resume the checkpoints are not overwritten.
    let config = Config {
        db: db.path().to_path_buf(),
        out: out.path().to_path_buf(),
        resume: false,
    };
    assert!(matches!(
        run::run(&config, &run::Silent),
        Err(run::RunError::Exists(_))
    ));

    // A changed copy, verified from the same checkpoints (they name files by their SHA-256).
    let copy = copy_of(db.path());
    let (slot, board, d) = lengthen_a_loss(copy.path());
    let placement_board = draw_a_win(copy.path());
    let report = verify(copy.path(), out.path(), true);
    assert!(!report.passed());
    // Checked again: the two changed files and those that read layer 19 (layer 20 and the
    // goats' last placements); the tigers' half with 19 placed and the goats' with 18 read
    // nothing changed.
    assert_eq!(report.resumed, 2);

    // The goats' half of layer 19 comes first, and the change alters no other goats-to-move
    // position's children, so it is the first mismatch.
    assert_eq!(report.rows[0].file, "layer-19.bin");
    assert!(report.rows[0].mismatches >= 1);
    let first = &report.first[0];
    assert_eq!(first.file, DbFile::Layer(19));
    assert_eq!(first.slot, slot as u64);
    assert_eq!(first.position.side, Side::Goats);
    assert_eq!(first.position.to_string(), format!("{board} g 0 1 40"));
    assert_eq!(
        first.to_string().lines().nth(1).unwrap(),
        format!("  stored loss in {}, its children give loss in {d}", d + 2)
    );
    // A failing file's checkpoint is not renewed: it still names the file that passed.
    let point = std::fs::read_to_string(out.path().join("checked/layer-19.bin.json")).unwrap();
    assert!(point.contains(&rows[0].sha256));
    assert!(!point.contains(&run::sha256_file(&copy.path().join("layer-19.bin")).unwrap()));

    // No written half reads the tigers' half with 18 placed: its change is its one mismatch,
    // and its counts differ from the manifest's.
    let row = &report.rows[5];
    assert_eq!(row.file, "placement-18-tigers.bin");
    assert_eq!((row.mismatches, row.counts.as_str()), (1, "differ"));
    assert_eq!(report.count_differences.len(), 1);
    let named: Vec<&cowrie_verifier::Mismatch> = report
        .first
        .iter()
        .filter(|m| m.file == DbFile::Half(18, Side::Tigers))
        .collect();
    assert_eq!(named.len(), 1);
    assert_eq!(
        named[0].position.to_string(),
        format!("{placement_board} t 2 0 35")
    );
    assert_eq!(
        named[0].to_string().lines().nth(1).unwrap(),
        "  stored draw, its children give win"
    );

    // The binary, on the movement layers alone (the manifest without its placement halves),
    // exits with 1 and prints the first mismatch's position.
    let manifest = copy.path().join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    m.as_object_mut().unwrap().remove("placement");
    std::fs::write(&manifest, m.to_string()).unwrap();
    let bin = Command::new(env!("CARGO_BIN_EXE_cowrie-verifier"))
        .arg(copy.path())
        .args(["--threads", "2", "--quiet"])
        .output()
        .unwrap();
    assert_eq!(bin.status.code(), Some(1));
    let stdout = String::from_utf8(bin.stdout).unwrap();
    let named =
        format!("first mismatch: layer-19.bin, goats to move, slot {slot}: {board} g 0 1 40");
    assert!(stdout.contains(&named), "{stdout}");
}
