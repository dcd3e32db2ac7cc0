//! The provenance of the committed runs: which record the files their agents read
//! (`inputs`, [`crate::run::provenance`]), and a check that every shipped network a run
//! records is the one shipped now.
//!
//! A recorded shipped network (`agents/weights/…`) is compared with the file of that path in the
//! repository that holds the results directory (the first ancestor directory holding
//! `agents/weights/`); outside a repository, with the weights built into this binary. A run
//! whose recorded weights differ was played by another network than the one its results are read
//! as: the report refuses it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde_json::{json, Value};

use super::files::{list, manifest, rel};
use crate::run::digest::FileDigest;

/// Where the shipped weights are read from, and their digests once read.
struct Shipped {
    repo: Option<PathBuf>,
    seen: BTreeMap<String, Option<FileDigest>>,
}

impl Shipped {
    fn new(root: &Path) -> Shipped {
        let repo = std::fs::canonicalize(root).ok().and_then(|r| {
            r.ancestors()
                .find(|a| a.join("agents").join("weights").is_dir())
                .map(Path::to_path_buf)
        });
        Shipped {
            repo,
            seen: BTreeMap::new(),
        }
    }

    /// The digest of the shipped file `path` (`agents/weights/NAME`), `None` if none is shipped.
    fn digest(&mut self, path: &str) -> anyhow::Result<Option<FileDigest>> {
        if let Some(d) = self.seen.get(path) {
            return Ok(d.clone());
        }
        let d = match &self.repo {
            Some(repo) => {
                let file = repo.join(path);
                if file.is_file() {
                    Some(
                        FileDigest::of_file(&file)
                            .with_context(|| format!("cannot read '{}'", file.display()))?,
                    )
                } else {
                    None
                }
            }
            None => cowrie_agents::td::shipped_at(path).map(FileDigest::of),
        };
        self.seen.insert(path.to_string(), d.clone());
        Ok(d)
    }
}

/// Every `manifest.json` of a command's run under `dir` (a database's manifest, which records
/// no agent, is left out), in a fixed order.
fn run_manifests(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let path = dir.join("manifest.json");
    if path.is_file() && manifest(&path)?.get("command").is_some() {
        out.push(path);
    }
    for sub in list(dir, true)? {
        run_manifests(&sub, out)?;
    }
    Ok(())
}

/// Checks the shipped weights the manifest at `path` records against the shipped ones; returns
/// whether it records its agents' inputs at all.
///
/// # Errors
/// Recorded weights that differ from the shipped ones, or are no longer shipped, naming the
/// run, the file and both digests.
fn check_run(root: &Path, path: &Path, shipped: &mut Shipped) -> anyhow::Result<bool> {
    let m = manifest(path)?;
    let Some(inputs) = m.get("inputs") else {
        return Ok(false);
    };
    let inputs: BTreeMap<String, BTreeMap<String, FileDigest>> =
        serde_json::from_value(inputs.clone())
            .map_err(crate::args::json_error)
            .with_context(|| {
                format!(
                    "'{}': inputs is not a map of agents to files (bytes, sha256)",
                    path.display()
                )
            })?;
    let run = rel(root, path.parent().unwrap_or(root));
    for (agent, files) in &inputs {
        for (file, recorded) in files {
            if !file.starts_with("agents/weights/") {
                continue;
            }
            match shipped.digest(file)? {
                Some(now) if now == *recorded => {}
                Some(now) => bail!(
                    "run '{run}' ({agent}) was played with {file} of SHA-256 {} ({} bytes), but the shipped {file} has SHA-256 {} ({} bytes): the network was replaced since; run it again",
                    recorded.sha256,
                    recorded.bytes,
                    now.sha256,
                    now.bytes
                ),
                None => bail!(
                    "run '{run}' ({agent}) was played with {file} of SHA-256 {}, which is no longer shipped",
                    recorded.sha256
                ),
            }
        }
    }
    Ok(true)
}

/// The outermost directories under `dir` that hold a command's run (a study, a ladder, a
/// convergence run, a match), in a fixed order.
fn outermost_runs(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    for sub in list(dir, true)? {
        let path = sub.join("manifest.json");
        if path.is_file() && manifest(&path)?.get("command").is_some() {
            out.push(sub);
        } else {
            outermost_runs(&sub, out)?;
        }
    }
    Ok(())
}

/// The provenance of each run under `root` (each outermost directory holding a command's run,
/// with the runs inside it): for the report, the runs whose manifests all record their agents'
/// inputs (`recorded`, each shipped network checked) and those with a manifest that does not
/// (`unrecorded`).
///
/// # Errors
/// A run whose recorded shipped weights differ from the shipped ones, naming it, the file and
/// both digests; an unreadable manifest.
pub fn provenance(root: &Path) -> anyhow::Result<Value> {
    let mut shipped = Shipped::new(root);
    let (mut recorded, mut unrecorded) = (Vec::new(), Vec::new());
    let mut runs = Vec::new();
    outermost_runs(root, &mut runs)?;
    for run in runs {
        let mut manifests = Vec::new();
        run_manifests(&run, &mut manifests)?;
        let mut all = true;
        for m in &manifests {
            all &= check_run(root, m, &mut shipped)?;
        }
        let path = rel(root, &run);
        if all {
            recorded.push(path);
        } else {
            unrecorded.push(path);
        }
    }
    Ok(json!({"recorded": recorded, "unrecorded": unrecorded}))
}
