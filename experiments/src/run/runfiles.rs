//! The files of a run on disk: starting them fresh, or resuming an interrupted run from the
//! complete rows it left.
//!
//! Rows reach `games.csv` (and `records.jsonl`) in schedule order, flushed batch by batch, so
//! after an interruption (SIGINT, SIGKILL, power loss) the files hold a prefix of the run's rows,
//! perhaps with half a line at the end. Resuming keeps every complete row that matches the
//! schedule, cuts the rest, and appends from there: the finished files are byte-identical to an
//! uninterrupted run's. A resumed file must first match what its manifest recorded at the last
//! flush (length and SHA-256, [`crate::run::digest`]); only that verified prefix is kept.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context};

use crate::run::digest::{self, FileDigest, HashedFile};
use crate::run::schedule::Schedule;

/// Opens `path` for appending rows. Fresh: the file is replaced by the header line `head`. Resumed: the
/// file must begin with the bytes `recorded` describes; of those, the header must match, and
/// the complete rows whose first field (`game_index`) follows `schedule` are kept; returns how
/// many (a row that breaks the order ends what is kept).
///
/// # Errors
/// Unreadable or unwritable files, a file its manifest does not vouch for, or a file whose
/// header differs, naming it.
pub fn open_csv(
    path: &Path,
    head: &[u8],
    resume: bool,
    recorded: Option<&FileDigest>,
    schedule: Schedule,
) -> anyhow::Result<(HashedFile, u64)> {
    if let Some(bytes) = verified(path, resume, recorded)? {
        if !bytes.starts_with(head) {
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
            if first_field(line).is_none() || first_field(line) != schedule.get(done) {
                break;
            }
            keep += line.len();
            done += 1;
        }
        return Ok((truncate_to(path, &bytes[..keep])?, done));
    }
    Ok((create_with(path, head)?, 0))
}

/// The first field of a CSV line as a number (`game_index`).
fn first_field(line: &[u8]) -> Option<u64> {
    let first = line.split(|&b| b == b',').next().unwrap_or_default();
    std::str::from_utf8(first).ok()?.parse().ok()
}

/// When resuming a file that exists: its bytes up to what `recorded` vouches for, after
/// checking them. `None` when the file is to be started afresh.
fn verified(
    path: &Path,
    resume: bool,
    recorded: Option<&FileDigest>,
) -> anyhow::Result<Option<Vec<u8>>> {
    if !resume {
        return Ok(None);
    }
    vouched(path, recorded, &cowrie_solver::bounded::read_run_file)
}

/// The bytes of the resumed file at `path` (read with `read`, which reports an absent file as
/// not found) up to what `recorded`, its manifest's record of it, vouches for, after checking
/// them. `None` when the file neither exists nor is recorded (it starts afresh).
///
/// # Errors
/// A missing file the manifest records, a file it records no digest of, an unreadable file, or
/// one that is not what the manifest recorded, naming the file.
pub fn vouched(
    path: &Path,
    recorded: Option<&FileDigest>,
    read: &dyn Fn(&Path) -> std::io::Result<Vec<u8>>,
) -> anyhow::Result<Option<Vec<u8>>> {
    let bytes = match read(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        r => Some(r.with_context(|| format!("cannot read '{}'", path.display()))?),
    };
    match (bytes, recorded) {
        (None, None) => Ok(None),
        (None, Some(_)) => bail!("--resume: '{}' is missing", path.display()),
        (Some(_), None) => bail!(
            "--resume: the manifest records no digest of '{}' (no files.{}), so its rows cannot be trusted",
            path.display(),
            path.file_name().unwrap_or_default().to_string_lossy()
        ),
        (Some(mut bytes), Some(d)) => {
            digest::check(path, &bytes, d, false).map_err(|e| anyhow::anyhow!("--resume: {e}"))?;
            bytes.truncate(usize::try_from(d.bytes).context("file too large")?);
            Ok(Some(bytes))
        }
    }
}

fn create_with(path: &Path, head: &[u8]) -> anyhow::Result<HashedFile> {
    let mut file =
        File::create(path).with_context(|| format!("cannot write '{}'", path.display()))?;
    file.write_all(head)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    Ok(HashedFile::new(file, head))
}

/// Opens a CSV of several rows per game (`subgames.csv`) for appending. Fresh: replaced by the
/// header. Resumed: checked against `recorded`, then keeps the complete rows whose first field
/// (`game_index`) is below `upto`, the first game not yet finished (rows come in schedule
/// order).
///
/// # Errors
/// Unreadable or unwritable files, a file its manifest does not vouch for, or a file whose
/// header differs, naming it.
pub fn open_csv_before(
    path: &Path,
    head: &[u8],
    resume: bool,
    recorded: Option<&FileDigest>,
    upto: u64,
) -> anyhow::Result<HashedFile> {
    if let Some(bytes) = verified(path, resume, recorded)? {
        if !bytes.starts_with(head) {
            bail!(
                "--resume: '{}' has another header; it is not this run's output",
                path.display()
            );
        }
        let mut keep = head.len();
        for line in bytes[head.len()..].split_inclusive(|&b| b == b'\n') {
            if !line.ends_with(b"\n") || first_field(line).is_none_or(|i| i >= upto) {
                break;
            }
            keep += line.len();
        }
        return truncate_to(path, &bytes[..keep]);
    }
    create_with(path, head)
}

/// Opens a JSON-lines file for appending, keeping its first `lines` complete lines when
/// resuming (after checking it against `recorded`), or replacing it otherwise.
///
/// # Errors
/// Unreadable or unwritable files; a file its manifest does not vouch for; a resumed file with
/// fewer than `lines` complete lines.
pub fn open_lines(
    path: &Path,
    resume: bool,
    recorded: Option<&FileDigest>,
    lines: u64,
) -> anyhow::Result<HashedFile> {
    if let Some(bytes) = verified(path, resume, recorded)? {
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
        return truncate_to(path, &bytes[..keep]);
    }
    if resume && lines > 0 {
        bail!("--resume: '{}' is missing", path.display());
    }
    create_with(path, b"")
}

/// Cuts the file at `path` to `kept` (a prefix of its bytes) and opens it for appending.
fn truncate_to(path: &Path, kept: &[u8]) -> anyhow::Result<HashedFile> {
    let file = OpenOptions::new()
        .append(true)
        .open(path)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    file.set_len(kept.len() as u64)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    Ok(HashedFile::new(file, kept))
}
