//! `manifest.json`: how a run was made and whether it finished.
//!
//! Written when the run starts (`status: "running"`) and rewritten when it ends
//! (`"complete"`); a run that stops early never says complete. Wall-clock times live here, not
//! in the CSV.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::SystemTime;

use anyhow::Context;
use serde::Serialize;

use crate::run::digest::FileDigest;
use crate::run::provenance::{self, Inputs};

/// The fields of a manifest that a run joined by `cowrie merge` from shards may hold otherwise
/// than the same run played unsharded (docs/conventions.md, *Shards*): times, durations, threads,
/// the command and its command line, and the distinct-game count only a run that played every
/// game itself has. The one list: the tests and tools/slurm/test_cluster.py read it here.
pub const MERGED_MAY_DIFFER: [&str; 7] = [
    "started",
    "finished",
    "elapsed_seconds",
    "threads",
    "command",
    "command_line",
    "distinct_games",
];

/// The run's manifest.
#[derive(Clone, Debug, Serialize)]
pub struct Manifest {
    /// `running` while the run goes on, `complete` once every game is written, `interrupted`
    /// when SIGINT stopped it (resume it with `--resume`).
    pub status: &'static str,
    /// The subcommand (`match`, `merge`, `tournament`).
    pub command: &'static str,
    /// The full command line.
    pub command_line: Vec<String>,
    /// The binary: cowrie's version, the git commit it was built from (`unknown` outside a
    /// repository), whether a tracked source differed from that commit (null outside a
    /// repository), and the cargo profile (`release`, `debug`).
    #[serde(flatten)]
    pub build: cowrie_solver::Build,
    /// What defines the run's output: game, variant, option overrides and the fully resolved
    /// options, agents, games, seat swap, seed, shard, recording. A resumed run must match it.
    pub run: serde_json::Value,
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
    /// Distinct games among those written (told apart by their course: every chance outcome
    /// and action), when the run played them all itself (not after `--resume`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distinct_games: Option<u64>,
    /// For each agent spec, the length and SHA-256 of each file the agent reads, by path
    /// ([`crate::run::provenance`]): shipped weights by their path in the repository, other
    /// files as the spec names them, a database by its `manifest.json`.
    pub inputs: Inputs,
    /// Each file of the run that holds rows (`games.csv`, `records.jsonl`, `subgames.csv`,
    /// `summary.csv`): its length and SHA-256 when the manifest was written.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub files: BTreeMap<String, FileDigest>,
}

/// The current time in RFC 3339, UTC, to the second.
#[must_use]
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// Whether one part of a resumed run (a pairing, a ladder step, a rule set, a game of a study)
/// resumes: only when its directory already holds a run; a part not yet started starts.
#[must_use]
pub fn part_resumes(resume: bool, dir: &Path) -> bool {
    resume && dir.join("manifest.json").exists()
}

impl Manifest {
    /// The manifest of a run of `command` starting now, whose agents read `inputs`: status
    /// `running`, this binary's version, commit and build, no files yet.
    #[must_use]
    pub fn start(
        command: &'static str,
        command_line: Vec<String>,
        run: serde_json::Value,
        threads: usize,
        reproducible: bool,
        inputs: Inputs,
    ) -> Manifest {
        Manifest {
            status: "running",
            command,
            command_line,
            build: provenance::build(),
            run,
            threads,
            reproducible,
            started: now_rfc3339(),
            finished: String::new(),
            elapsed_seconds: 0.0,
            games_written: 0,
            distinct_games: None,
            inputs,
            files: BTreeMap::new(),
        }
    }

    /// Writes `bytes` as `dir/name` and records the file's digest in [`Manifest::files`], so
    /// that an edited or truncated copy is told from the one this run wrote.
    ///
    /// # Errors
    /// If the file cannot be written, naming it.
    pub fn write_file(&mut self, dir: &Path, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
        let path = dir.join(name);
        std::fs::write(&path, bytes)
            .with_context(|| format!("cannot write '{}'", path.display()))?;
        self.files.insert(name.to_string(), FileDigest::of(bytes));
        Ok(())
    }

    /// Checks that `dir` holds (the start of) this same run, so it can be resumed: its
    /// manifest's `run` must equal this one's. Returns that manifest, whose `files` vouch for
    /// the rows already written.
    ///
    /// # Errors
    /// No manifest in `dir` (nothing to resume), a manifest that cannot be read, or one that
    /// describes another run (naming the field that differs).
    pub fn check_resumable(&self, dir: &Path) -> anyhow::Result<serde_json::Value> {
        let path = dir.join("manifest.json");
        if !path.exists() {
            anyhow::bail!(
                "--resume: '{}' holds no run (no manifest.json); leave out --resume to start one",
                dir.display()
            );
        }
        let text = cowrie_solver::bounded::read_document(&path)
            .with_context(|| format!("cannot read '{}'", path.display()))?;
        resumable(&self.run, &path, &text)
    }

    /// Passes `result` (a part of this run: a pairing, a step, a rule set) on; when it is an
    /// interruption ([`crate::interrupt::Interrupted`]), first marks this manifest in `dir`
    /// `interrupted`, as the part's own manifest is, so that no manifest of a stopped run says
    /// `running`.
    ///
    /// # Errors
    /// `result`'s error, or an unwritable manifest.
    pub fn unless_interrupted<T>(
        &mut self,
        dir: &Path,
        result: anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        if let Err(e) = &result {
            if e.is::<crate::interrupt::Interrupted>() {
                self.status = "interrupted";
                self.write(dir)?;
            }
        }
        result
    }

    /// Whether `dir` holds this same run, finished ([`Manifest::check_resumable`], status
    /// `complete`): resuming it has nothing to do, and leaves every file as it is.
    ///
    /// # Errors
    /// As [`Manifest::check_resumable`].
    pub fn finished_in(&self, dir: &Path) -> anyhow::Result<bool> {
        Ok(self.check_resumable(dir)?["status"] == "complete")
    }

    /// Writes the manifest to `dir/manifest.json` (via a temporary file and a rename, so a
    /// reader never sees half a manifest).
    ///
    /// # Errors
    /// If the file cannot be written, naming it.
    pub fn write(&self, dir: &Path) -> anyhow::Result<()> {
        write_json(dir, self)
    }
}

/// Writes `manifest` (a run's, or a database's, as `cowrie bearoff` writes one) to
/// `dir/manifest.json`, pretty-printed with a final newline, via a temporary file and a rename,
/// so that a reader never sees half a manifest.
///
/// # Errors
/// If the file cannot be written, naming it.
pub fn write_json<T: Serialize>(dir: &Path, manifest: &T) -> anyhow::Result<()> {
    let path = dir.join("manifest.json");
    let tmp = dir.join("manifest.json.tmp");
    let text = serde_json::to_string_pretty(manifest).context("serialising the manifest")?;
    std::fs::write(&tmp, text + "\n")
        .with_context(|| format!("cannot write '{}'", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot write '{}'", path.display()))?;
    Ok(())
}

/// Checks that `text`, the manifest at `path` of a run to resume, describes the same run as
/// `run` (the `run` of the manifest the resumed command would write); returns it.
///
/// # Errors
/// Text that is not a manifest, or a manifest of another run, naming the field that differs.
pub fn resumable(
    run: &serde_json::Value,
    path: &Path,
    text: &[u8],
) -> anyhow::Result<serde_json::Value> {
    let old: serde_json::Value = serde_json::from_slice(text)
        .map_err(crate::args::json_error)
        .with_context(|| format!("--resume: '{}' is not a manifest", path.display()))?;
    let old_run = &current_spelling(&old["run"]);
    if let (Some(a), Some(b)) = (old_run.as_object(), run.as_object()) {
        for (k, v) in b {
            // A run recorded before it could be sharded was whole.
            let whole = k == "shard" && v == "1/1" && a.get(k).is_none();
            if a.get(k) != Some(v) && !whole {
                anyhow::bail!(
                    "--resume: '{}' is another run (run.{k} was {}, now {})",
                    path.display(),
                    cowrie_engine::quote_input(
                        &a.get(k).unwrap_or(&serde_json::Value::Null).to_string()
                    ),
                    cowrie_engine::quote_input(&v.to_string())
                );
            }
        }
        return Ok(old);
    }
    anyhow::bail!(
        "--resume: '{}' is not a manifest (its run is not an object)",
        path.display()
    )
}

/// A manifest's `run` with each of its resolved `options` written as the rules now write it,
/// so that a value recorded under a former spelling (a renamed word the rules still read, as
/// Frangieh's `opening=seed`, now `roll-again`) compares equal to the same rule today. Only
/// the recorded keys are rewritten; a run whose rules no longer resolve is returned as it is
/// (and so differs).
#[must_use]
pub fn current_spelling(run: &serde_json::Value) -> serde_json::Value {
    let mut run = run.clone();
    let (Some(game), Some(options)) = (run["game"].as_str(), run["options"].as_object()) else {
        return run;
    };
    let given: Vec<String> = options
        .iter()
        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
        .collect();
    let Ok((_, resolved)) = crate::registry::resolve_rules(game, run["variant"].as_str(), &given)
    else {
        return run;
    };
    let rewritten: serde_json::Map<String, serde_json::Value> = resolved
        .into_iter()
        .filter(|(k, _)| options.contains_key(k))
        .map(|(k, v)| (k, serde_json::Value::String(v)))
        .collect();
    run["options"] = serde_json::Value::Object(rewritten);
    run
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frangieh_run(opening: &str) -> serde_json::Value {
        serde_json::json!({
            "game": "frangieh",
            "variant": "barakat-1974",
            "options": {"opening": opening, "scoring": "single"},
            "games": 10,
        })
    }

    #[test]
    fn a_run_recorded_under_a_former_spelling_resumes_as_the_same_run() {
        let path = Path::new("m.json");
        let old = serde_json::json!({ "run": frangieh_run("seed") }).to_string();
        let now = frangieh_run("roll-again");
        resumable(&now, path, old.as_bytes()).unwrap();
        assert_eq!(current_spelling(&frangieh_run("seed")), now);
        let e = resumable(&frangieh_run("modern"), path, old.as_bytes()).unwrap_err();
        assert!(e.to_string().contains("run.options was"), "{e}");
    }
}
