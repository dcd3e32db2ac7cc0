//! Output helpers: creating the output directory, printing to stdout where a closed pipe
//! (`cowrie ... | head`) is not an error, CSV numbers, and reading a CSV's columns by name.

use std::io::Write;
use std::path::Path;

use anyhow::Context;

/// Creates `dir` (and its parents) if missing.
///
/// # Errors
/// If it cannot be created or is not a directory, naming it.
pub fn create_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create output directory '{}'", dir.display()))?;
    Ok(())
}

/// Prints `text` to stdout; a broken pipe ends quietly.
///
/// # Errors
/// Any other write error.
pub fn print_stdout(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(e).context("writing to stdout"),
    }
}

/// A CSV number to six decimals; empty for a value that is not finite (an undefined estimate,
/// the Elo of a score of 0 or 1), so a CSV never holds `inf` or `NaN`.
#[must_use]
pub fn f6(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        String::new()
    }
}

/// Opens the CSV file `path` and finds the columns `names` in its header.
///
/// # Errors
/// An unreadable file, or a column it lacks, naming both.
pub fn csv_columns<const N: usize>(
    path: &Path,
    names: [&str; N],
) -> anyhow::Result<(csv::Reader<std::fs::File>, [usize; N])> {
    let mut r = csv::Reader::from_path(path)
        .with_context(|| format!("cannot read '{}'", path.display()))?;
    let h = r.headers()?.clone();
    let mut cols = [0; N];
    for (c, name) in cols.iter_mut().zip(names) {
        *c = h
            .iter()
            .position(|x| x == name)
            .with_context(|| format!("'{}' has no column '{name}'", path.display()))?;
    }
    Ok((r, cols))
}
