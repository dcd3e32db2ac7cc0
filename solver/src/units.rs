//! The placement phase solved in units that separate processes (a scheduler's jobs) can run:
//! each half is a *stage*, split into `N` units by ranges of tiger classes, and a *join* that
//! checks every unit and writes the half exactly as the one-process solve writes it.
//!
//! A class block of a half depends only on the half solved before it (the goats to move with
//! `p` placed read the tigers to move with `p + 1`, or the movement database for `p = 19`; the
//! tigers to move read the goats to move with as many placed), never on another block of its
//! own half, so the units of a stage are independent. Unit `K` of `N` takes the classes
//! `(K - 1) * C / N` to `K * C / N` (`C` the number of tiger classes) of every part, and writes
//! their bytes, part after part, to `DIR/units/placement-PP-SIDE/K-of-N.bin`, then its manifest
//! `K-of-N.json`: the rules, the stage, the classes, each part's counts, the length and SHA-256
//! of its file, and those of the database files it read. The manifest is written last, under a
//! temporary name renamed, so an interrupted unit leaves no manifest and is solved again from the
//! start; a unit whose manifest and file agree is not solved again.
//!
//! The join reads all `N` manifests, refuses a missing unit, one of other rules, of another
//! stage or count, one that read other files than the database holds, one whose file's length or
//! SHA-256 is not the recorded one, and a half whose positions, summed over the units, are not
//! the number of boards Burnside's lemma counts; then it writes the half's file, part by part in
//! class order, lists it in the database's manifest, and removes the units' directory. The
//! stage the units and the join work on is the database's next half not yet written, so a
//! scheduler runs, for each half, `N` units and then the join.
//!
//! The movement phase is not split: a layer's retrograde analysis passes values from position
//! to position within the layer a distance at a time, so its blocks are not independent.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use cowrie_engine::games::baghchal::TOTAL_GOATS;

use crate::db::{self, CommandRecord, Database, DbError, FileDigest, Manifest, PartRecord};
use crate::index::Index;
use crate::layer::Side;
use crate::packed::{self, Tally};
use crate::placement::{self, captures, Next};
use crate::placement_db::{self, HalfObserver, HalfOutcome};
use crate::rules::SolveRules;

/// The `format` field of a unit's manifest.
pub const UNIT_FORMAT: &str = "cowrie-baghchal-placement-unit";
/// The unit manifest's layout version.
pub const UNIT_VERSION: u32 = 1;
/// Bytes copied at a time by the join.
const COPY_BYTES: usize = 1 << 20;

/// Why a unit or a join could not run.
#[derive(Debug, thiserror::Error)]
pub enum UnitError {
    /// More units than tiger classes, or no unit.
    #[error("{n} units: a half has {classes} tiger classes to share, so 1 to {classes} units")]
    Count {
        /// The units asked for.
        n: u32,
        /// The tiger classes.
        classes: usize,
    },
    /// The directory holds no database, or one whose movement phase is not solved.
    #[error("{0}: the movement phase is not solved (it is not split into units: solve it first with cowrie solve --movement-only)")]
    NoMovement(PathBuf),
    /// Every half down to the one asked for is written.
    #[error("{0}: every placement half down to {1} goats placed is written; nothing is left to solve in units")]
    NothingLeft(PathBuf, u32),
    /// A unit's manifest is not there.
    #[error(
        "{path}: unit {k}/{n} of {stage} is missing (run cowrie solve with --unit {k}/{n}){other}"
    )]
    Missing {
        /// The manifest expected.
        path: PathBuf,
        /// The stage.
        stage: String,
        /// The unit.
        k: u32,
        /// The units.
        n: u32,
        /// The other splits whose units the stage's directory holds, as a clause ("" if none).
        other: String,
    },
    /// A unit's manifest belongs to another database, rule set, stage or split.
    #[error("{path}: {what} (solve the unit again with --unit)")]
    Foreign {
        /// The unit's manifest.
        path: PathBuf,
        /// What differs.
        what: String,
    },
    /// A unit's file is not the one its manifest records.
    #[error("{0}: its length or SHA-256 is not the one its unit manifest records (the file is damaged or incomplete; solve the unit again with --unit)")]
    Corrupt(PathBuf),
    /// The units' counts disagree with the independent count of the half's boards.
    #[error("{stage}: {positions} positions with {goats} goats on the board in its units, Burnside's lemma gives {want}")]
    Counts {
        /// The stage.
        stage: String,
        /// Goats on the board.
        goats: u32,
        /// The units' sum.
        positions: u64,
        /// Burnside's lemma's count.
        want: u64,
    },
    /// A database error.
    #[error(transparent)]
    Db(#[from] DbError),
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> UnitError + '_ {
    move |error| {
        DbError::Io {
            path: path.to_path_buf(),
            error,
        }
        .into()
    }
}

/// One half, the stage of a split solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    /// Goats placed.
    pub placed: u32,
    /// The side to move.
    pub side: Side,
}

impl Stage {
    /// `placement-PP-SIDE`, the name of its file without `.bin`.
    #[must_use]
    pub fn name(&self) -> String {
        format!("placement-{:02}-{}", self.placed, self.side.name())
    }
}

/// The halves of the placement phase not written in `manifest` (all of them without one), from
/// the last placement back to the halves with `down_to` goats placed, in solving order.
#[must_use]
pub fn remaining(manifest: Option<&Manifest>, down_to: u32) -> Vec<Stage> {
    placement::halves()
        .into_iter()
        .filter(|&(p, _)| p >= down_to)
        .filter(|&(p, s)| {
            manifest.is_none_or(|m| {
                !m.placement
                    .iter()
                    .any(|r| r.placed == p && r.side == s.name())
            })
        })
        .map(|(placed, side)| Stage { placed, side })
        .collect()
}

/// The tiger classes of unit `k` of `n` (from 1) among `classes`.
#[must_use]
pub fn unit_classes(classes: usize, k: u32, n: u32) -> Range<usize> {
    let at = |i: u32| (i as usize * classes) / n as usize;
    at(k - 1)..at(k)
}

/// The directory of a stage's units.
#[must_use]
pub fn units_dir(dir: &Path, stage: Stage) -> PathBuf {
    dir.join("units").join(stage.name())
}

fn unit_path(dir: &Path, stage: Stage, k: u32, n: u32, ext: &str) -> PathBuf {
    units_dir(dir, stage).join(format!("{k}-of-{n}.{ext}"))
}

/// A unit's manifest, `K-of-N.json` beside its file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitManifest {
    /// Always [`UNIT_FORMAT`].
    pub format: String,
    /// Always [`UNIT_VERSION`].
    pub version: u32,
    /// The rules solved under.
    pub rules: SolveRules,
    /// Goats placed in the half.
    pub placed: u32,
    /// `goats` or `tigers`: the side to move.
    pub side: String,
    /// This unit, from 1.
    pub unit: u32,
    /// The units of the half.
    pub units: u32,
    /// The tiger classes solved: the first, and one past the last.
    pub classes: [usize; 2],
    /// The database files read, by name: their length and SHA-256.
    pub reads: BTreeMap<String, FileDigest>,
    /// Each part's counts over these classes, by captures.
    pub parts: Vec<PartRecord>,
    /// The unit's file: its length and SHA-256.
    pub file: FileDigest,
    /// Seconds spent solving it.
    pub seconds: f64,
    /// The command that solved it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<CommandRecord>,
}

/// What a unit did.
#[derive(Clone, Debug)]
pub struct UnitOutcome {
    /// The stage.
    pub stage: Stage,
    /// The tiger classes solved.
    pub classes: Range<usize>,
    /// Its manifest.
    pub manifest: PathBuf,
    /// Seconds spent solving it; `None` if it was solved before and found whole.
    pub seconds: Option<f64>,
}

/// The database's manifest, with its movement phase solved, and the stage next to solve.
fn current(dir: &Path, rules: &SolveRules, down_to: u32) -> Result<(Manifest, Stage), UnitError> {
    if Manifest::read(dir)?.is_none() {
        return Err(UnitError::NoMovement(dir.to_path_buf()));
    }
    let manifest = Manifest::read_for(dir, rules)?;
    if rules.layers().any(|g| !manifest.has_layer(g)) {
        return Err(UnitError::NoMovement(dir.to_path_buf()));
    }
    let stage = remaining(Some(&manifest), down_to)
        .first()
        .copied()
        .ok_or_else(|| UnitError::NothingLeft(dir.to_path_buf(), down_to))?;
    Ok((manifest, stage))
}

fn check_count(index: &Index, n: u32) -> Result<usize, UnitError> {
    let classes = index.classes().len();
    if n == 0 || n as usize > classes {
        return Err(UnitError::Count { n, classes });
    }
    Ok(classes)
}

/// The memory unit solving a stage of `n` units needs at most, in bytes: the files it reads
/// (the movement layers, or the half before) held whole, and its share of the half it solves.
/// The stage is the next half of the database in `dir` (down to `down_to`), or, without one,
/// the stage that needs most.
#[must_use]
pub fn unit_memory(dir: &Path, index: &Index, rules: &SolveRules, down_to: u32, n: u32) -> u64 {
    let halves = placement::halves();
    let bytes = |(p, s): (u32, Side)| placement_db::half_bytes(index, rules, p, s);
    let need = |i: usize| {
        let read = if i == 0 {
            // The movement database, every layer both sides to move, two bytes a slot.
            rules.layers().map(|g| 4 * index.slots(g) as u64).sum()
        } else {
            bytes(halves[i - 1])
        };
        read + bytes(halves[i]) / u64::from(n.max(1))
    };
    let next = Manifest::read(dir).ok().flatten().and_then(|m| {
        let stage = *remaining(Some(&m), down_to).first()?;
        halves.iter().position(|&h| h == (stage.placed, stage.side))
    });
    match next {
        Some(i) => need(i),
        None => (0..halves.len()).map(need).max().unwrap_or(0),
    }
}

/// The database files a stage's blocks are computed from, with their digests as the database's
/// manifest records them.
fn reads(
    dir: &Path,
    manifest: &Manifest,
    rules: &SolveRules,
    stage: Stage,
) -> BTreeMap<String, FileDigest> {
    let names: Vec<PathBuf> = match stage.side {
        Side::Goats if stage.placed + 1 == u32::from(TOTAL_GOATS) => {
            rules.layers().map(|g| db::layer_path(dir, g)).collect()
        }
        Side::Goats => vec![placement_db::half_path(dir, stage.placed + 1, Side::Tigers)],
        Side::Tigers => vec![placement_db::half_path(dir, stage.placed, Side::Goats)],
    };
    names
        .iter()
        .filter_map(|p| {
            let name = p.file_name()?.to_string_lossy().into_owned();
            let digest = manifest.files.get(&name)?.clone();
            Some((name, digest))
        })
        .collect()
}

/// Reads a unit's manifest and checks it against the database's stage, its file against its
/// recorded length and SHA-256; `None` if there is no manifest.
fn check_unit(
    dir: &Path,
    rules: &SolveRules,
    stage: Stage,
    k: u32,
    n: u32,
    classes: &Range<usize>,
    read: &BTreeMap<String, FileDigest>,
) -> Result<Option<UnitManifest>, UnitError> {
    let path = unit_path(dir, stage, k, n, "json");
    let text = match crate::bounded::read_document(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(&path)(e)),
    };
    let foreign = |what: String| UnitError::Foreign {
        path: path.clone(),
        what,
    };
    let m: UnitManifest =
        serde_json::from_slice(&text).map_err(|e| foreign(format!("not a unit manifest ({e})")))?;
    if m.format != UNIT_FORMAT || m.version != UNIT_VERSION {
        return Err(foreign(format!(
            "not a unit manifest (format {} version {})",
            m.format, m.version
        )));
    }
    if m.rules != *rules {
        return Err(foreign(format!(
            "a unit solved for {}, not {rules}",
            m.rules
        )));
    }
    let (placed, side, unit, units) = (m.placed, m.side.as_str(), m.unit, m.units);
    if (placed, side, unit, units) != (stage.placed, stage.side.name(), k, n)
        || m.classes != [classes.start, classes.end]
    {
        return Err(foreign(format!(
            "unit {unit}/{units} of placement-{placed:02}-{side}, classes {}..{}, not unit {k}/{n} of {}, classes {}..{}",
            m.classes[0],
            m.classes[1],
            stage.name(),
            classes.start,
            classes.end
        )));
    }
    if m.reads != *read {
        return Err(foreign(
            "solved from other files than this database's (their SHA-256 differ)".to_string(),
        ));
    }
    let bin = unit_path(dir, stage, k, n, "bin");
    let want: u64 = part_sizes(rules, stage, classes.len())
        .iter()
        .sum::<usize>() as u64;
    let got = FileDigest::of_file(&bin).map_err(io_err(&bin))?;
    if got != m.file || got.bytes != want {
        return Err(UnitError::Corrupt(bin));
    }
    Ok(Some(m))
}

/// The bytes of each part of a unit of `classes` classes.
fn part_sizes(rules: &SolveRules, stage: Stage, classes: usize) -> Vec<usize> {
    captures(rules, stage.placed, stage.side)
        .map(|c| packed::stride(stage.placed - c) * classes)
        .collect()
}

/// Solves unit `k` of `n` of the next half of the database in `dir` not yet written (down to
/// `down_to` goats placed), recording `command` in the unit's manifest; a unit already solved
/// and whole is left as it is.
///
/// # Errors
/// No database of `rules` with its movement phase solved, every half down to `down_to`
/// written, `n` above the number of tiger classes, an I/O error.
///
/// # Panics
/// If `k` is not 1 to `n`.
pub fn solve_unit(
    dir: &Path,
    rules: &SolveRules,
    down_to: u32,
    k: u32,
    n: u32,
    command: Option<&CommandRecord>,
    observer: &dyn HalfObserver,
) -> Result<UnitOutcome, UnitError> {
    assert!((1..=n).contains(&k), "a unit from 1 to n");
    let index = Index::new();
    let classes = unit_classes(check_count(&index, n)?, k, n);
    let (manifest, stage) = current(dir, rules, down_to)?;
    let read = reads(dir, &manifest, rules, stage);
    let json = unit_path(dir, stage, k, n, "json");
    // A unit solved before and whole is done; anything else there is solved again.
    if let Ok(Some(_)) = check_unit(dir, rules, stage, k, n, &classes, &read) {
        return Ok(UnitOutcome {
            stage,
            classes,
            manifest: json,
            seconds: None,
        });
    }
    let units = units_dir(dir, stage);
    fs::create_dir_all(&units).map_err(io_err(&units))?;
    match fs::remove_file(&json) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_err(&json)(e)),
        _ => {}
    }
    let work: u64 = captures(rules, stage.placed, stage.side)
        .map(|c| {
            u64::from(crate::combin::binomial(
                crate::combin::FREE_POINTS,
                stage.placed - c,
            ))
        })
        .sum::<u64>()
        * classes.len() as u64;
    observer.start_half(stage.placed, stage.side, work);
    let start = Instant::now();
    let (parts, tallies) = match stage.side {
        Side::Goats if stage.placed + 1 == u32::from(TOTAL_GOATS) => {
            let db = Database::open(dir, rules)?;
            placement::solve_goats_classes(
                &index,
                rules,
                stage.placed,
                Next::Movement(&db),
                classes.clone(),
                observer,
            )
        }
        Side::Goats => {
            let next = placement_db::load_half(
                dir,
                &manifest,
                &index,
                rules,
                stage.placed + 1,
                Side::Tigers,
            )?;
            placement::solve_goats_classes(
                &index,
                rules,
                stage.placed,
                Next::Placement(&next),
                classes.clone(),
                observer,
            )
        }
        Side::Tigers => {
            let goats =
                placement_db::load_half(dir, &manifest, &index, rules, stage.placed, Side::Goats)?;
            placement::solve_tigers_classes(&index, rules, &goats, classes.clone(), observer)
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let bin = unit_path(dir, stage, k, n, "bin");
    let tmp = unit_path(dir, stage, k, n, "bin.tmp");
    let mut hasher = Sha256::new();
    let mut written = 0u64;
    {
        let f = fs::File::create(&tmp).map_err(io_err(&tmp))?;
        let mut w = std::io::BufWriter::new(f);
        for p in &parts {
            w.write_all(p).map_err(io_err(&tmp))?;
            hasher.update(p);
            written += p.len() as u64;
        }
        let f = w.into_inner().map_err(|e| io_err(&tmp)(e.into_error()))?;
        f.sync_all().map_err(io_err(&tmp))?;
    }
    fs::rename(&tmp, &bin).map_err(io_err(&bin))?;
    let m = UnitManifest {
        format: UNIT_FORMAT.to_string(),
        version: UNIT_VERSION,
        rules: *rules,
        placed: stage.placed,
        side: stage.side.name().to_string(),
        unit: k,
        units: n,
        classes: [classes.start, classes.end],
        reads: read,
        parts: captures(rules, stage.placed, stage.side)
            .zip(tallies)
            .map(|(captured, tally)| PartRecord { captured, tally })
            .collect(),
        file: FileDigest::finish(hasher, written),
        seconds,
        command: command.cloned(),
    };
    let text = serde_json::to_string_pretty(&m).expect("a unit manifest serialises") + "\n";
    db::write_atomic(&json, text.as_bytes())?;
    Ok(UnitOutcome {
        stage,
        classes,
        manifest: json,
        seconds: Some(seconds),
    })
}

/// Joins the `n` units of the next half of the database in `dir` not yet written (down to
/// `down_to` goats placed) into the half's file, lists it in the database's manifest with
/// `command` among its commands, and removes the units; the outcome's seconds are the units'
/// solving seconds summed. The observer is told of every half written before too (seconds
/// `None`), as a resumed solve tells it.
///
/// # Errors
/// As [`solve_unit`]; a unit missing, foreign or corrupt, or counts that disagree with
/// Burnside's lemma ([`UnitError`]).
pub fn join(
    dir: &Path,
    rules: &SolveRules,
    down_to: u32,
    n: u32,
    command: Option<&CommandRecord>,
    observer: &dyn HalfObserver,
) -> Result<HalfOutcome, UnitError> {
    let index = Index::new();
    let classes = check_count(&index, n)?;
    let (mut manifest, stage) = current(dir, rules, down_to)?;
    let read = reads(dir, &manifest, rules, stage);
    let mut units = Vec::new();
    for k in 1..=n {
        let range = unit_classes(classes, k, n);
        match check_unit(dir, rules, stage, k, n, &range, &read)? {
            Some(m) => units.push((range, m)),
            None => {
                return Err(UnitError::Missing {
                    path: unit_path(dir, stage, k, n, "json"),
                    stage: stage.name(),
                    k,
                    n,
                    other: other_splits(dir, stage, n),
                })
            }
        }
    }
    let mut tallies = Vec::new();
    for (i, c) in captures(rules, stage.placed, stage.side).enumerate() {
        let tally = units
            .iter()
            .filter_map(|(_, m)| m.parts.get(i).filter(|p| p.captured == c))
            .fold(Tally::default(), |t, p| t.join(p.tally));
        let goats = stage.placed - c;
        let want = crate::burnside::boards(goats);
        let decided = tally.wins + tally.draws + tally.losses;
        if tally.positions != want || decided != want {
            return Err(UnitError::Counts {
                stage: stage.name(),
                goats,
                positions: tally.positions.min(decided),
                want,
            });
        }
        tallies.push((c, tally));
    }
    observer.start_half(stage.placed, stage.side, 0);
    let path = placement_db::half_path(dir, stage.placed, stage.side);
    let tmp = path.with_extension("tmp");
    let digest = copy_parts(rules, stage, &units, &tmp, dir, n)?;
    fs::rename(&tmp, &path).map_err(io_err(&path))?;
    placement_db::record_half(
        &mut manifest,
        &path,
        stage.placed,
        stage.side,
        tallies.clone(),
        digest,
    );
    if let Some(c) = command {
        manifest.commands.push(c.clone());
    }
    manifest.write(dir)?;
    // The units of every half written go (another's too, left by a join stopped after writing
    // the manifest), then the units' directory once it holds no other stage's.
    let units_of_stage = units_dir(dir, stage);
    fs::remove_dir_all(&units_of_stage).map_err(io_err(&units_of_stage))?;
    remove_written(dir, &manifest);
    // Every half written before is passed on again, as a resumed solve does, so that a summary a
    // join stopped after writing the manifest did not write is written now.
    for r in &manifest.placement {
        if (r.placed, r.side.as_str()) == (stage.placed, stage.side.name()) {
            continue;
        }
        let side = if r.side == Side::Goats.name() {
            Side::Goats
        } else {
            Side::Tigers
        };
        observer.finish_half(&HalfOutcome {
            placed: r.placed,
            side,
            parts: r.parts.iter().map(|p| (p.captured, p.tally)).collect(),
            seconds: None,
        });
    }
    let outcome = HalfOutcome {
        placed: stage.placed,
        side: stage.side,
        parts: tallies,
        seconds: Some(units.iter().map(|(_, m)| m.seconds).sum()),
    };
    observer.finish_half(&outcome);
    Ok(outcome)
}

/// The splits other than `n` of which the stage's units directory holds unit manifests
/// (`K-of-M.json`), as a clause for an error ("" when there are none).
fn other_splits(dir: &Path, stage: Stage, n: u32) -> String {
    let mut found = std::collections::BTreeSet::new();
    if let Ok(entries) = fs::read_dir(units_dir(dir, stage)) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let m = name
                .strip_suffix(".json")
                .and_then(|t| t.split_once("-of-"))
                .and_then(|(_, m)| m.parse::<u32>().ok());
            if let Some(m) = m.filter(|&m| m != n) {
                found.insert(m);
            }
        }
    }
    let joins: Vec<String> = found.iter().map(|m| format!("--join {m}")).collect();
    if joins.is_empty() {
        String::new()
    } else {
        format!(
            "; the directory holds units of another split: was it {}?",
            joins.join(" or ")
        )
    }
}

/// Removes the units of every half `manifest` lists as written (left by a join stopped after
/// writing the manifest, or by units run before a one-process solve wrote the half), then the
/// units' directory once it holds no other stage's. The units of halves still to solve stay.
pub fn remove_written(dir: &Path, manifest: &Manifest) {
    let left = remaining(Some(manifest), 0);
    if let Ok(entries) = fs::read_dir(dir.join("units")) {
        for e in entries.flatten() {
            let name = e.file_name();
            if !left.iter().any(|s| *name == *s.name()) {
                let _ = fs::remove_dir_all(e.path());
            }
        }
    }
    let _ = fs::remove_dir(dir.join("units"));
}

/// Writes the half's file at `tmp` from the units' files, part after part, each part's blocks
/// in class order; returns its digest.
fn copy_parts(
    rules: &SolveRules,
    stage: Stage,
    units: &[(Range<usize>, UnitManifest)],
    tmp: &Path,
    dir: &Path,
    n: u32,
) -> Result<FileDigest, UnitError> {
    let files = (1..=n)
        .map(|k| {
            let p = unit_path(dir, stage, k, n, "bin");
            fs::File::open(&p)
                .map(|f| (f, p.clone()))
                .map_err(io_err(&p))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut hasher = Sha256::new();
    let mut written = 0u64;
    let f = fs::File::create(tmp).map_err(io_err(tmp))?;
    let mut w = std::io::BufWriter::new(f);
    let mut buf = vec![0u8; COPY_BYTES];
    let sizes: Vec<Vec<usize>> = units
        .iter()
        .map(|(r, _)| part_sizes(rules, stage, r.len()))
        .collect();
    for part in 0..sizes.first().map_or(0, Vec::len) {
        for (u, (file, path)) in files.iter().enumerate() {
            let offset: usize = sizes[u][..part].iter().sum();
            let mut left = sizes[u][part];
            let mut at = offset as u64;
            while left > 0 {
                let take = left.min(COPY_BYTES);
                file.read_exact_at(&mut buf[..take], at)
                    .map_err(io_err(path))?;
                w.write_all(&buf[..take]).map_err(io_err(tmp))?;
                hasher.update(&buf[..take]);
                at += take as u64;
                left -= take;
                written += take as u64;
            }
        }
    }
    let f = w.into_inner().map_err(|e| io_err(tmp)(e.into_error()))?;
    f.sync_all().map_err(io_err(tmp))?;
    Ok(FileDigest::finish(hasher, written))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_units_cover_every_class_once_in_order() {
        for (classes, n) in [(10, 3), (10, 10), (1000, 7), (5, 1)] {
            let mut next = 0;
            for k in 1..=n {
                let r = unit_classes(classes, k, n);
                assert_eq!(r.start, next);
                assert!(!r.is_empty());
                next = r.end;
            }
            assert_eq!(next, classes);
        }
    }

    #[test]
    fn the_stages_run_from_the_last_placement_back() {
        let names: Vec<String> = remaining(None, 18).iter().map(Stage::name).collect();
        assert_eq!(
            names,
            [
                "placement-19-goats",
                "placement-19-tigers",
                "placement-18-goats",
                "placement-18-tigers"
            ]
        );
        assert_eq!(remaining(None, 0).len(), 39);
    }
}
