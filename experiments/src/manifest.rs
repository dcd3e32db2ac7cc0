//! `manifest.json`: how a run was made and whether it finished.
//!
//! Written when the run starts (`status: "running"`) and rewritten when it ends
//! (`"complete"`); a run that stops early never says complete. Wall-clock times live here, not
//! in the CSV.

use std::path::Path;
use std::time::SystemTime;

use anyhow::Context;
use serde::Serialize;

/// The run's manifest.
#[derive(Clone, Debug, Serialize)]
pub struct Manifest {
    /// `running` while the run goes on, `complete` once every game is written.
    pub status: &'static str,
    /// The subcommand (`match`).
    pub command: &'static str,
    /// The full command line.
    pub command_line: Vec<String>,
    /// cowrie's version.
    pub cowrie_version: &'static str,
    /// The git commit the binary was built from (`unknown` outside a repository).
    pub git_commit: &'static str,
    /// The game.
    pub game: &'static str,
    /// The variant name.
    pub variant: String,
    /// The fully resolved rule options, after the variant and every `--option`.
    pub options: serde_json::Map<String, serde_json::Value>,
    /// The agent specs of `--p1` and `--p2`.
    pub agents: [String; 2],
    /// Games scheduled.
    pub games: u64,
    /// Whether games come in seat-swapped pairs.
    pub seat_swap: bool,
    /// The run seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Whether the output is a pure function of the arguments (false only for time budgets).
    pub reproducible: bool,
    /// Start time, RFC 3339 UTC.
    pub started: String,
    /// End time, RFC 3339 UTC (empty while running).
    pub finished: String,
    /// Seconds from start to end.
    pub elapsed_seconds: f64,
    /// Games finished and written.
    pub games_written: u64,
}

/// The current time in RFC 3339, UTC, to the second.
#[must_use]
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

impl Manifest {
    /// Writes the manifest to `dir/manifest.json` (via a temporary file and a rename, so a
    /// reader never sees half a manifest).
    ///
    /// # Errors
    /// If the file cannot be written, naming it.
    pub fn write(&self, dir: &Path) -> anyhow::Result<()> {
        let path = dir.join("manifest.json");
        let tmp = dir.join("manifest.json.tmp");
        let text = serde_json::to_string_pretty(self).context("serialising the manifest")?;
        std::fs::write(&tmp, text + "\n")
            .with_context(|| format!("cannot write '{}'", tmp.display()))?;
        std::fs::rename(&tmp, &path)
            .with_context(|| format!("cannot write '{}'", path.display()))?;
        Ok(())
    }
}
