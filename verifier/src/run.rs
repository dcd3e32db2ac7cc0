//! A whole verification: every file of a database in order, each checked against the files
//! its children lie in, a checkpoint written per file once it is checked clean, a summary CSV
//! rewritten after each file. With `resume`, a file whose checkpoint names the same SHA-256 for
//! it and for every file it read is not checked again.

use std::collections::HashMap;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::board::Lines;
use crate::check::{check_layer, check_part, FileCheck, Mismatch, Reader, Table};
use crate::game::{Rules, Side, TOTAL_GOATS};
use crate::index::Index;
use crate::layout::{
    io_error, read_layer, read_layer_summary, Counts, DbFile, FormatError, HalfData, Manifest,
};

/// The summary CSV's name in the output directory.
pub const SUMMARY: &str = "summary.csv";
/// The checkpoints' directory in the output directory.
pub const CHECKED: &str = "checked";

/// What to verify and where to write.
#[derive(Clone, Debug)]
pub struct Config {
    /// The database directory.
    pub db: PathBuf,
    /// The output directory: `summary.csv` and `checked/`.
    pub out: PathBuf,
    /// Skip the files already checked (by their checkpoints).
    pub resume: bool,
}

/// Why a verification could not run (a mismatch is not an error: see [`Report`]).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The database cannot be read.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The output directory holds checkpoints and `resume` was not asked for.
    #[error("{0}: holds the checkpoints of an earlier verification (pass --resume to continue it, or choose another --out)")]
    Exists(PathBuf),
    /// The output cannot be written.
    #[error("{0}: {1}")]
    Write(PathBuf, String),
}

/// One row of the summary CSV: a file of the database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The file's name.
    pub file: String,
    /// Slots read.
    pub slots: u64,
    /// Positions checked against their children.
    pub positions: u64,
    /// Slots whose stored value is not their children's.
    pub mismatches: u64,
    /// Whether the stored values' counts agree with the database's own summary (`agree`,
    /// `differ`, or `absent` where it has none).
    pub counts: String,
    /// The SHA-256 of the file.
    pub sha256: String,
}

/// A file's checkpoint: its row, the rules, and the SHA-256 of each file its check read.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Checkpoint {
    row: Row,
    rules: String,
    reads: Vec<(String, String)>,
}

/// The outcome of a verification.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// A row per file, in checking order.
    pub rows: Vec<Row>,
    /// The first mismatches of each file that has any (at most [`crate::check::KEPT`] a
    /// file), in checking order.
    pub first: Vec<Mismatch>,
    /// Each difference between stored values' counts and the database's summaries.
    pub count_differences: Vec<String>,
    /// Files skipped by their checkpoints.
    pub resumed: usize,
    /// Positions checked by this run (not those resumed).
    pub checked: u64,
}

impl Report {
    /// Whether every file agrees.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.rows.iter().all(|r| r.mismatches == 0) && self.count_differences.is_empty()
    }
}

/// Follows a verification.
pub trait Observer {
    /// A file's check starts (not called for a file resumed).
    fn start(&self, file: &str, slots: u64);
    /// A file is done: checked (with the seconds it took) or resumed.
    fn finish(&self, row: &Row, seconds: Option<f64>);
}

/// An observer that says nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {
    fn start(&self, _: &str, _: u64) {}
    fn finish(&self, _: &Row, _: Option<f64>) {}
}

/// The halves in the order they are solved: goats to move with 19 placed, tigers with 19,
/// goats with 18, ..., tigers with 1, goats with 0.
fn halves_in_order() -> Vec<(u32, Side)> {
    let mut out = Vec::new();
    for p in (0..u32::from(TOTAL_GOATS)).rev() {
        out.push((p, Side::Goats));
        if p > 0 {
            out.push((p, Side::Tigers));
        }
    }
    out
}

/// The movement layers of `rules`: those not already won by captures.
#[must_use]
pub fn layers(rules: &Rules) -> std::ops::RangeInclusive<u32> {
    u32::from(TOTAL_GOATS) + 1 - u32::from(rules.win_captures)..=u32::from(TOTAL_GOATS)
}

/// The files to check, in order, each with the files its check reads: a layer reads itself and
/// the layer below (if the capture into it does not win); the goats' half with 19 placed the
/// layers their last placement leads to; another goats' half the tigers' half with one more
/// placed; a tigers' half the goats' half with as many placed.
fn plan(manifest: &Manifest, dir: &Path) -> Result<Vec<(DbFile, Vec<DbFile>)>, FormatError> {
    let index = Index::new();
    let rules = manifest.rules;
    let mut out = Vec::new();
    for g in layers(&rules) {
        let listed = manifest.layers.iter().find(|&&(l, _)| l == g);
        let Some(&(_, slots)) = listed else {
            let needs = if g == u32::from(TOTAL_GOATS) {
                "the movement phase".to_string()
            } else {
                DbFile::Layer(g + 1).name()
            };
            return Err(FormatError::Missing(
                dir.to_path_buf(),
                DbFile::Layer(g).name(),
                needs,
            ));
        };
        if slots != index.slots(g as usize) {
            return Err(FormatError::Manifest(
                dir.join("manifest.json"),
                format!(
                    "{} slots per side for {} goats, the index gives {}",
                    slots,
                    g,
                    index.slots(g as usize)
                ),
            ));
        }
        let mut reads = vec![DbFile::Layer(g)];
        if layers(&rules).contains(&(g - 1)) {
            reads.push(DbFile::Layer(g - 1));
        }
        out.push((DbFile::Layer(g), reads));
    }
    for (p, side) in halves_in_order() {
        if manifest.half(p, side).is_none() {
            continue;
        }
        let this = DbFile::Half(p, side);
        let children: Vec<DbFile> = match side {
            Side::Goats if p + 1 == u32::from(TOTAL_GOATS) => {
                crate::layout::half_captures(&rules, p, side)
                    .iter()
                    .map(|c| DbFile::Layer(u32::from(TOTAL_GOATS) - c))
                    .collect()
            }
            Side::Goats => vec![DbFile::Half(p + 1, Side::Tigers)],
            Side::Tigers => vec![DbFile::Half(p, Side::Goats)],
        };
        for c in &children {
            if let DbFile::Half(cp, cs) = *c {
                if manifest.half(cp, cs).is_none() {
                    return Err(FormatError::Missing(
                        dir.to_path_buf(),
                        c.name(),
                        this.name(),
                    ));
                }
            }
        }
        let mut reads = vec![this];
        reads.extend(children);
        out.push((this, reads));
    }
    Ok(out)
}

/// The SHA-256 of a file, in lowercase hexadecimal.
///
/// # Errors
/// An unreadable file.
pub fn sha256_file(path: &Path) -> Result<String, FormatError> {
    let mut f = fs::File::open(path).map_err(io_error(path))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).map_err(io_error(path))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RunError> {
    let err = |e: io::Error| RunError::Write(path.to_path_buf(), e.to_string());
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes).map_err(err)?;
    fs::rename(&tmp, path).map_err(err)
}

fn write_summary(out: &Path, rows: &[Row]) -> Result<(), RunError> {
    let path = out.join(SUMMARY);
    let err = |e: String| RunError::Write(path.clone(), e);
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r).map_err(|e| err(e.to_string()))?;
    }
    let bytes = w.into_inner().map_err(|e| err(e.to_string()))?;
    write_atomic(&path, &bytes)
}

/// Checks one file; returns the outcome and what the database's own summary says of its
/// counts (`None`: it has none).
fn check_file(
    config: &Config,
    manifest: &Manifest,
    index: &Index,
    lines: &Lines,
    file: DbFile,
) -> Result<(FileCheck, Option<Vec<Counts>>), FormatError> {
    let dir = &config.db;
    let rules = manifest.rules;
    let reader = |tables| Reader {
        index,
        lines,
        rules,
        tables,
    };
    match file {
        DbFile::Layer(g) => {
            let words = read_layer(dir, index, g, None)?;
            let below = if layers(&rules).contains(&(g - 1)) {
                read_layer(dir, index, g - 1, Some(Side::Goats))?
            } else {
                Vec::new()
            };
            let (goats_words, tigers_words) = words.split_at(words.len() / 2);
            let tables = vec![
                Table::Words {
                    goats: g,
                    side: Side::Goats,
                    words: goats_words,
                },
                Table::Words {
                    goats: g,
                    side: Side::Tigers,
                    words: tigers_words,
                },
                Table::Words {
                    goats: g - 1,
                    side: Side::Goats,
                    words: &below,
                },
            ];
            let result = check_layer(&reader(tables), g, &words);
            let summary = read_layer_summary(dir, g)?.map(|s| s.to_vec());
            Ok((result, summary))
        }
        DbFile::Half(p, side) => {
            let this = HalfData::read(dir, index, &rules, p, side)?;
            let next = match side {
                Side::Goats if p + 1 == u32::from(TOTAL_GOATS) => None,
                Side::Goats => Some(HalfData::read(dir, index, &rules, p + 1, Side::Tigers)?),
                Side::Tigers => Some(HalfData::read(dir, index, &rules, p, Side::Goats)?),
            };
            let mut result = FileCheck::default();
            let mut counts = Vec::new();
            for &(c, _) in &this.parts {
                // The goats' last placement leads to the movement phase: one layer a part.
                let layer: Vec<u16>;
                let mut tables = half_tables(&this);
                if let Some(n) = &next {
                    tables.extend(half_tables(n));
                } else {
                    let g = u32::from(TOTAL_GOATS) - c;
                    layer = read_layer(dir, index, g, Some(Side::Tigers))?;
                    tables.push(Table::Words {
                        goats: g,
                        side: Side::Tigers,
                        words: &layer,
                    });
                }
                let reader = Reader {
                    index,
                    lines,
                    rules,
                    tables,
                };
                let part = check_part(&reader, file, p, side, c);
                counts.extend(part.counts.iter().copied());
                result = FileCheck {
                    slots: result.slots + part.slots,
                    positions: result.positions + part.positions,
                    mismatches: result.mismatches + part.mismatches,
                    first: result
                        .first
                        .into_iter()
                        .chain(part.first)
                        .take(crate::check::KEPT)
                        .collect(),
                    counts: Vec::new(),
                };
            }
            result.counts = counts;
            let listed = manifest
                .half(p, side)
                .map(|h| h.parts.iter().map(|&(_, c)| c).collect());
            Ok((result, listed))
        }
    }
}

/// The tables of a half's parts.
fn half_tables(h: &HalfData) -> Vec<Table<'_>> {
    h.parts
        .iter()
        .zip(&h.strides)
        .map(|((c, bytes), &stride)| Table::Codes {
            placed: h.placed,
            side: h.side,
            captured: *c,
            bytes,
            stride,
        })
        .collect()
}

/// Whether the stored values' counts agree with a summary's (positions, wins, draws and
/// losses; the longest distances where the summary gives them).
fn counts_agree(file: DbFile, ours: &[Counts], theirs: &[Counts]) -> bool {
    ours.len() == theirs.len()
        && ours.iter().zip(theirs).all(|(a, b)| match file {
            DbFile::Layer(_) => a == b,
            DbFile::Half(..) => {
                (a.positions, a.wins, a.draws, a.losses) == (b.positions, b.wins, b.draws, b.losses)
            }
        })
}

/// Verifies the database in `config.db`.
///
/// # Errors
/// A database that cannot be read, checkpoints without `resume`, an unwritable output.
pub fn run(config: &Config, observer: &dyn Observer) -> Result<Report, RunError> {
    let manifest = Manifest::read(&config.db)?;
    let files = plan(&manifest, &config.db)?;
    let checked_dir = config.out.join(CHECKED);
    let write_err = |p: &Path| {
        let p = p.to_path_buf();
        move |e: io::Error| RunError::Write(p, e.to_string())
    };
    if !config.resume && checked_dir.is_dir() {
        let any = fs::read_dir(&checked_dir)
            .map_err(write_err(&checked_dir))?
            .next()
            .is_some();
        if any {
            return Err(RunError::Exists(config.out.clone()));
        }
    }
    fs::create_dir_all(&checked_dir).map_err(write_err(&checked_dir))?;
    let index = Index::new();
    let lines = Lines::new();
    let rules = manifest.rules.to_string();
    let mut shas: HashMap<DbFile, String> = HashMap::new();
    let mut sha = |f: DbFile| -> Result<String, FormatError> {
        if let Some(s) = shas.get(&f) {
            return Ok(s.clone());
        }
        let s = sha256_file(&f.path(&config.db))?;
        shas.insert(f, s.clone());
        Ok(s)
    };
    let mut report = Report::default();
    for (file, reads) in files {
        let name = file.name();
        let point = checked_dir.join(format!("{name}.json"));
        let read_shas: Vec<(String, String)> = reads
            .iter()
            .map(|&f| Ok((f.name(), sha(f)?)))
            .collect::<Result<_, FormatError>>()?;
        if config.resume {
            let previous = fs::read_to_string(&point)
                .ok()
                .and_then(|t| serde_json::from_str::<Checkpoint>(&t).ok());
            if let Some(c) = previous.filter(|c| c.rules == rules && c.reads == read_shas) {
                observer.finish(&c.row, None);
                report.rows.push(c.row);
                report.resumed += 1;
                continue;
            }
        }
        let slots: u64 = match file {
            DbFile::Layer(g) => 2 * index.slots(g as usize),
            DbFile::Half(p, side) => crate::layout::half_captures(&manifest.rules, p, side)
                .iter()
                .map(|&c| index.slots((p - c) as usize))
                .sum(),
        };
        observer.start(&name, slots);
        let start = Instant::now();
        let (result, summary) = check_file(config, &manifest, &index, &lines, file)?;
        let seconds = start.elapsed().as_secs_f64();
        let counts = match &summary {
            None => "absent",
            Some(s) if counts_agree(file, &result.counts, s) => "agree",
            Some(s) => {
                let theirs: Vec<String> = s.iter().map(ToString::to_string).collect();
                let ours: Vec<String> = result.counts.iter().map(ToString::to_string).collect();
                report.count_differences.push(format!(
                    "{name}: the stored values count [{}], the database's summary says [{}]",
                    ours.join("; "),
                    theirs.join("; ")
                ));
                "differ"
            }
        };
        let row = Row {
            file: name,
            slots: result.slots,
            positions: result.positions,
            mismatches: result.mismatches,
            counts: counts.to_string(),
            sha256: read_shas[0].1.clone(),
        };
        report.checked += result.positions;
        report.first.extend(result.first);
        if row.mismatches == 0 && counts != "differ" {
            let c = Checkpoint {
                row: row.clone(),
                rules: rules.clone(),
                reads: read_shas,
            };
            let text = serde_json::to_string_pretty(&c).expect("a checkpoint serialises");
            write_atomic(&point, (text + "\n").as_bytes())?;
        }
        observer.finish(&row, Some(seconds));
        report.rows.push(row);
        write_summary(&config.out, &report.rows)?;
    }
    write_summary(&config.out, &report.rows)?;
    Ok(report)
}
