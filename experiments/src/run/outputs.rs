//! The one check every command that writes makes before it writes: an output is never one of
//! the command's inputs, never a file a run's or a solver database's manifest lists (nor the
//! manifest itself), and a directory that holds a finished run (or a database) is replaced
//! only with `--force`. `--resume` on a directory that does not exist is refused, before
//! anything is created.
//!
//! Paths are compared resolved: the existing parent canonicalised (symlinks, `..`, trailing
//! slashes) plus the file name, the file itself followed when it is a symbolic link.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

/// `path` resolved: canonical when it exists, else its canonical parent joined with its file
/// name (the parent as given when it does not exist either).
#[must_use]
pub fn resolve(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let name = path.file_name().unwrap_or_default();
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::canonicalize(parent).map_or_else(|_| path.to_path_buf(), |p| p.join(name))
}

/// The names of the files `dir/manifest.json` lists (a run's `files`, a database's `files`
/// and its layer and placement files), with the manifest itself; empty without a manifest.
fn listed(dir: &Path) -> Vec<String> {
    let path = dir.join("manifest.json");
    let Ok(text) = cowrie_solver::bounded::read_document(&path) else {
        return Vec::new();
    };
    let mut names = vec!["manifest.json".to_string()];
    if let Ok(m) = serde_json::from_slice::<serde_json::Value>(&text) {
        if let Some(files) = m["files"].as_object() {
            names.extend(files.keys().cloned());
        }
        for l in m["layers"].as_array().into_iter().flatten() {
            if let Some(g) = l["goats"].as_u64() {
                names.push(format!("layer-{g:02}.bin"));
            }
        }
        for h in m["placement"].as_array().into_iter().flatten() {
            if let (Some(p), Some(s)) = (h["placed"].as_u64(), h["side"].as_str()) {
                names.push(format!("placement-{p:02}-{s}.bin"));
            }
        }
    }
    names
}

/// Checks the output file `out` (given as `flag`, e.g. `--html`) against the command's
/// `inputs` and the manifest in its directory.
///
/// # Errors
/// `out` is a directory, one of `inputs`, or a file the manifest beside it lists (or that
/// manifest), naming both paths.
pub fn check_file(flag: &str, out: &Path, inputs: &[&Path]) -> anyhow::Result<()> {
    if out.is_dir() {
        bail!("{flag} '{}' is a directory, not a file", out.display());
    }
    let real = resolve(out);
    for input in inputs {
        if resolve(input) == real {
            bail!(
                "{flag} '{}' is the input '{}'; write it elsewhere",
                out.display(),
                input.display()
            );
        }
    }
    let dir = real.parent().unwrap_or(Path::new("/"));
    let name = real.file_name().unwrap_or_default().to_string_lossy();
    if listed(dir).iter().any(|n| *n == name) {
        bail!(
            "{flag} '{}' is a file of the run or database whose manifest is '{}'; write it elsewhere",
            out.display(),
            dir.join("manifest.json").display()
        );
    }
    Ok(())
}

/// Removes the files `names` of `dir` that exist: files a run does not write must not survive
/// from an earlier run beside the new ones.
///
/// # Errors
/// A file that cannot be removed, naming it.
pub fn remove_stale(dir: &Path, names: &[&str]) -> anyhow::Result<()> {
    for name in names {
        let p = dir.join(name);
        if p.exists() {
            std::fs::remove_file(&p)
                .with_context(|| format!("cannot replace '{}'", p.display()))?;
        }
    }
    Ok(())
}

/// Checks the output directory `out` of a command that writes a whole run (or a database)
/// there: with `resume`, it must exist; without, a directory that holds a finished run or a
/// database (a `manifest.json` whose `status` is neither `running` nor `interrupted`) is
/// replaced only when `force`. No file of `inputs` may be the directory's manifest or a file
/// it lists.
///
/// # Errors
/// `--resume` on a missing directory, a finished run without `--force`, or an input the run
/// would replace, naming the paths.
pub fn check_dir(out: &Path, inputs: &[&Path], resume: bool, force: bool) -> anyhow::Result<()> {
    check(out, inputs, resume, force, ", --resume to continue it")
}

/// [`check_dir`] for a command that takes no `--resume` (`advantage`, `entry`, `merge`,
/// `bearoff`): its refusal of a finished run offers `--force` only.
///
/// # Errors
/// As [`check_dir`].
pub fn check_new_dir(out: &Path, inputs: &[&Path], force: bool) -> anyhow::Result<()> {
    check(out, inputs, false, force, "")
}

/// [`check_dir`], its refusal of a finished run offering `--force` and then `resuming`.
fn check(
    out: &Path,
    inputs: &[&Path],
    resume: bool,
    force: bool,
    resuming: &str,
) -> anyhow::Result<()> {
    if resume && !out.is_dir() {
        bail!(
            "--resume: '{}' holds no run (it does not exist); leave out --resume to start one",
            out.display()
        );
    }
    let real = resolve(out);
    let names = listed(&real);
    for input in inputs {
        let r = resolve(input);
        let name = r.file_name().unwrap_or_default().to_string_lossy();
        if r.parent() == Some(real.as_path()) && names.iter().any(|n| *n == name) {
            bail!(
                "--out '{}' holds the input '{}', which the run would replace; write it elsewhere",
                out.display(),
                input.display()
            );
        }
    }
    let manifest = out.join("manifest.json");
    if resume || force || !manifest.exists() {
        return Ok(());
    }
    let status = cowrie_solver::bounded::read_document(&manifest)
        .ok()
        .and_then(|t| serde_json::from_slice::<serde_json::Value>(&t).ok())
        .and_then(|m| m["status"].as_str().map(str::to_string));
    if matches!(status.as_deref(), Some("running" | "interrupted")) {
        return Ok(());
    }
    bail!(
        "--out '{}' already holds a run ('{}'); pass --force to replace it{resuming}, or choose another directory",
        out.display(),
        manifest.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_through_a_symlink_or_dotdot_resolves_to_the_same_file() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("run");
        std::fs::create_dir(&run).unwrap();
        std::fs::write(run.join("games.csv"), "x").unwrap();
        std::os::unix::fs::symlink(&run, dir.path().join("link")).unwrap();
        let direct = resolve(&run.join("games.csv"));
        assert_eq!(resolve(&dir.path().join("link/games.csv")), direct);
        assert_eq!(resolve(&dir.path().join("run/../run/games.csv")), direct);
        // A file not yet written resolves by its parent.
        assert_eq!(
            resolve(&dir.path().join("link/new.html")),
            direct.with_file_name("new.html")
        );
    }
}
