//! Game records (`--record`): `records.jsonl`, one JSON object per game in schedule order, with
//! every chance outcome and ply, so `cowrie replay` can re-play and verify a game.

use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::run::selfplay::Event;

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's index in its run.
    pub game_index: u64,
    /// The game's name.
    pub game: String,
    /// The variant name.
    pub variant: String,
    /// The fully resolved rule options, `(key, value)` in the rule set's order.
    pub options: Vec<(String, String)>,
    /// The agent specs in seats 1 and 2.
    pub agents: [String; 2],
    /// The start position's notation.
    pub start: String,
    /// Chance outcomes and plies, in order.
    pub events: Vec<Event>,
    /// `win`, `draw`, `truncated` or a forfeit (`forfeit-crash`, `forfeit-timeout`,
    /// `forfeit-illegal`).
    pub end_reason: String,
    /// The winning seat, if any.
    pub winner_seat: Option<u8>,
    /// Plies played.
    pub plies: u32,
    /// The final position's notation.
    pub end: String,
}

/// Line `n` (from 0) of the records file `file` as a game record, checked against its run's
/// description `run` if known.
///
/// # Errors
/// An unreadable line, a line that is not a record, or a record of another run.
pub fn parse_record(
    file: &std::path::Path,
    n: usize,
    line: std::io::Result<String>,
    run: Option<&serde_json::Value>,
) -> anyhow::Result<GameRecord> {
    let line = line.with_context(|| format!("cannot read '{}'", file.display()))?;
    let rec: GameRecord = serde_json::from_str(&line)
        .map_err(crate::args::json_error)
        .with_context(|| format!("'{}' line {}: not a game record", file.display(), n + 1))?;
    if let Some(run) = run {
        check_record(run, &rec, file, n + 1)?;
    }
    Ok(rec)
}

/// When the records file sits in its run's directory (beside `manifest.json`): checks the
/// file against the digest the manifest records and returns the manifest's `run`.
///
/// # Errors
/// As [`check_read`].
pub fn check_against_run(file: &Path, bytes: &[u8]) -> anyhow::Result<Option<serde_json::Value>> {
    check_read(file, bytes, &cowrie_solver::bounded::read_run_file)
}

/// [`check_against_run`], reading the manifest with `read`.
///
/// # Errors
/// An unreadable or malformed manifest, or a file that differs from its digest.
pub fn check_read(
    file: &Path,
    bytes: &[u8],
    read: &dyn Fn(&Path) -> std::io::Result<Vec<u8>>,
) -> anyhow::Result<Option<serde_json::Value>> {
    let dir = file.parent().unwrap_or_else(|| Path::new("."));
    let manifest_path = dir.join("manifest.json");
    let text = match read(&manifest_path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        r => r.with_context(|| format!("cannot read '{}'", manifest_path.display()))?,
    };
    let m: serde_json::Value = serde_json::from_slice(&text)
        .map_err(crate::args::json_error)
        .with_context(|| format!("'{}' is not a manifest", manifest_path.display()))?;
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let recorded = crate::run::digest::recorded(&m, name, &manifest_path)?.with_context(|| {
        format!(
            "'{}': the manifest beside it records no digest of it (no files.{name})",
            file.display()
        )
    })?;
    let whole = m["status"] == "complete";
    crate::run::digest::check(file, bytes, &recorded, whole)?;
    Ok(Some(m["run"].clone()))
}

/// Checks that record `rec` (line `line` of `file`) is of the run `run` describes: the same
/// game, variant and resolved options.
fn check_record(
    run: &serde_json::Value,
    rec: &GameRecord,
    file: &std::path::Path,
    line: usize,
) -> anyhow::Result<()> {
    let at = |field: &str, theirs: String, ours: String| {
        anyhow::anyhow!(
            "'{}' line {line}: the record's {field} is {} but its run's is {}",
            file.display(),
            crate::args::quote(&theirs),
            crate::args::quote(&ours)
        )
    };
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    if rec.game != text(&run["game"]) {
        return Err(at("game", rec.game.clone(), text(&run["game"])));
    }
    if rec.variant != text(&run["variant"]) {
        return Err(at("variant", rec.variant.clone(), text(&run["variant"])));
    }
    if let Some(opts) = run["options"].as_object() {
        let ours: Vec<(String, String)> = opts.iter().map(|(k, v)| (k.clone(), text(v))).collect();
        let mut theirs = rec.options.clone();
        theirs.sort();
        let mut sorted = ours.clone();
        sorted.sort();
        if theirs != sorted {
            let show = |o: &[(String, String)]| {
                o.iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            return Err(at("options", show(&theirs), show(&sorted)));
        }
    }
    Ok(())
}
