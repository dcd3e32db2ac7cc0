//! Records what the binary is built from, for run manifests: the git commit, whether the sources
//! differ from it, and the cargo profile.
//!
//! "Dirty" means that a tracked file under the paths the binary is built from ([`SOURCES`]:
//! the crates, their manifests, the lock file, the cargo config) differs from the commit, staged
//! or not; untracked files are ignored (run outputs and scratch files beside the sources do not
//! change the binary). Outside a git checkout the commit is `unknown` and so is dirtiness.

use std::path::Path;
use std::process::Command;

/// The paths, relative to the repository's top, that the `cowrie` binary is built from.
const SOURCES: &[&str] = &[
    "engine",
    "solver",
    "agents",
    "experiments",
    "Cargo.toml",
    "Cargo.lock",
    ".cargo",
];

fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    let top = git(&["rev-parse", "--show-toplevel"]);
    let dirty = match &top {
        Some(top) if commit != "unknown" => {
            let mut args = vec![
                "-C",
                top,
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
            ];
            args.extend(SOURCES);
            git(&args).map_or("unknown", |s| if s.is_empty() { "false" } else { "true" })
        }
        _ => "unknown",
    };
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown".to_string());
    println!("cargo:rustc-env=COWRIE_GIT_COMMIT={commit}");
    println!("cargo:rustc-env=COWRIE_GIT_DIRTY={dirty}");
    println!("cargo:rustc-env=COWRIE_BUILD_PROFILE={profile}");
    // Rebuild when HEAD or its branch moves, when the index changes (a commit, a stage), and
    // when a source changes (which makes the tree dirty, or clean again). The git files are asked
    // of git, because a worktree keeps its HEAD, its index and the shared refs in different
    // places (and `.git` is then a file); a path that does not exist would make cargo rerun
    // this script, and relink the binary, on every build.
    println!("cargo:rerun-if-changed=build.rs");
    let branch = git(&["symbolic-ref", "-q", "HEAD"]); // e.g. refs/heads/main; None if detached
    for what in ["HEAD", "index", "packed-refs"]
        .into_iter()
        .chain(branch.as_deref())
    {
        if let Some(path) = git(&["rev-parse", "--path-format=absolute", "--git-path", what]) {
            if Path::new(&path).exists() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
    if let Some(top) = &top {
        for source in SOURCES {
            let path = Path::new(top).join(source);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
}
