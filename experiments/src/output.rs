//! Output helpers: creating the output directory, printing to stdout where a closed pipe
//! (`cowrie ... | head`) is not an error, and CSV numbers.

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
