//! Output helpers: creating the output directory, and printing to stdout where a closed pipe
//! (`cowrie ... | head`) is not an error.

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
