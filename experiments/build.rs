//! Records the git commit the binary is built from, for run manifests.

use std::process::Command;

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
    println!("cargo:rustc-env=COWRIE_GIT_COMMIT={commit}");
    // Rebuild when HEAD or its branch moves. The files are asked of git, because a worktree keeps
    // its HEAD and the shared refs in different places (and `.git` is then a file); a path that
    // does not exist would make cargo rerun this script, and relink the binary, on every build.
    println!("cargo:rerun-if-changed=build.rs");
    let branch = git(&["symbolic-ref", "-q", "HEAD"]); // e.g. refs/heads/main; None if detached
    for what in ["HEAD", "packed-refs"].into_iter().chain(branch.as_deref()) {
        if let Some(path) = git(&["rev-parse", "--path-format=absolute", "--git-path", what]) {
            if std::path::Path::new(&path).exists() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
}
