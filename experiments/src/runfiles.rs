//! The files of a run on disk: starting them fresh, or resuming an interrupted run from the
//! complete rows it left.
//!
//! Rows reach `games.csv` (and `records.jsonl`) in schedule order, flushed batch by batch, so
//! after an interruption (SIGINT, SIGKILL, power loss) the files hold a prefix of the run's rows,
//! perhaps with half a line at the end. Resuming keeps every complete row that matches the
//! schedule, cuts the rest, and appends from there: the finished files are byte-identical to an
//! uninterrupted run's.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context};

use crate::schedule::Schedule;

/// The header line as the csv writer writes it.
///
/// # Errors
/// Never in practice (writing to memory).
pub fn header_bytes(header: &[&str]) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header)?;
    w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))
}

/// Opens `path` for appending rows. Fresh: the file is replaced by the header. Resumed: the
/// header must match, and the complete rows whose first field (`game_index`) follows
/// `schedule` are kept; returns how many (a row that breaks the order ends what is kept).
///
/// # Errors
/// Unreadable or unwritable files, or a file whose header differs, naming it.
pub fn open_csv(
    path: &Path,
    header: &[&str],
    resume: bool,
    schedule: Schedule,
) -> anyhow::Result<(File, u64)> {
    let head = header_bytes(header)?;
    if resume && path.exists() {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read '{}'", path.display()))?;
        if !bytes.starts_with(&head) {
            bail!(
                "--resume: '{}' has another header; it is not this run's output",
                path.display()
            );
        }
        let mut keep = head.len();
        let mut done = 0;
        for line in bytes[head.len()..].split_inclusive(|&b| b == b'\n') {
            if !line.ends_with(b"\n") || done == schedule.len() {
                break;
            }
            let first = line.split(|&b| b == b',').next().unwrap_or_default();
            let index = std::str::from_utf8(first)
                .ok()
                .and_then(|s| s.parse::<u64>().ok());
            if index.is_none() || index != schedule.get(done) {
                break;
            }
            keep += line.len();
            done += 1;
        }
        let file = truncate_to(path, keep as u64)?;
        return Ok((file, done));
    }
    let mut file =
        File::create(path).with_context(|| format!("cannot write '{}'", path.display()))?;
    file.write_all(&head)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    Ok((file, 0))
}

/// Opens a CSV of several rows per game (`subgames.csv`) for appending. Fresh: replaced by the
/// header. Resumed: keeps the complete rows whose first field (`game_index`) is below `upto`,
/// the first game not yet finished (rows come in schedule order).
///
/// # Errors
/// Unreadable or unwritable files, or a file whose header differs, naming it.
pub fn open_csv_before(
    path: &Path,
    header: &[&str],
    resume: bool,
    upto: u64,
) -> anyhow::Result<File> {
    let head = header_bytes(header)?;
    if resume && path.exists() {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read '{}'", path.display()))?;
        if !bytes.starts_with(&head) {
            bail!(
                "--resume: '{}' has another header; it is not this run's output",
                path.display()
            );
        }
        let mut keep = head.len();
        for line in bytes[head.len()..].split_inclusive(|&b| b == b'\n') {
            let first = line.split(|&b| b == b',').next().unwrap_or_default();
            let index = std::str::from_utf8(first)
                .ok()
                .and_then(|s| s.parse::<u64>().ok());
            if !line.ends_with(b"\n") || index.is_none_or(|i| i >= upto) {
                break;
            }
            keep += line.len();
        }
        return truncate_to(path, keep as u64);
    }
    let mut file =
        File::create(path).with_context(|| format!("cannot write '{}'", path.display()))?;
    file.write_all(&head)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    Ok(file)
}

/// Opens a JSON-lines file for appending, keeping its first `lines` complete lines when
/// resuming (or replacing it otherwise).
///
/// # Errors
/// Unreadable or unwritable files; a resumed file with fewer than `lines` complete lines.
pub fn open_lines(path: &Path, resume: bool, lines: u64) -> anyhow::Result<File> {
    if resume && path.exists() {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read '{}'", path.display()))?;
        let mut keep = 0;
        let mut n = 0;
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            if n == lines || !line.ends_with(b"\n") {
                break;
            }
            keep += line.len();
            n += 1;
        }
        if n < lines {
            bail!(
                "--resume: '{}' holds {n} complete records but games.csv {lines} rows",
                path.display()
            );
        }
        return truncate_to(path, keep as u64);
    }
    if resume && lines > 0 {
        bail!("--resume: '{}' is missing", path.display());
    }
    File::create(path).with_context(|| format!("cannot write '{}'", path.display()))
}

fn truncate_to(path: &Path, len: u64) -> anyhow::Result<File> {
    let file = OpenOptions::new()
        .append(true)
        .open(path)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    file.set_len(len)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    Ok(file)
}
