//! What a manifest records of the binary that wrote it: cowrie's version, the git commit it was
//! built from, whether its sources differed from that commit, and the cargo profile.
//!
//! It lives here, in the lowest crate that writes manifests (as [`crate::digest`] does), so that
//! a solver database's `commands` and the manifests of cowrie's runs share one form; the `cowrie`
//! binary fills it in from its build script (`experiments/build.rs`).

use serde::{Deserialize, Serialize};

/// The binary a manifest was written by.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    /// cowrie's version.
    pub cowrie_version: String,
    /// The git commit the binary was built from (`unknown` outside a repository).
    pub git_commit: String,
    /// Whether a tracked source the binary was built from differed from that commit (null
    /// outside a repository, or in a record written before it was recorded).
    #[serde(default)]
    pub git_dirty: Option<bool>,
    /// The cargo profile the binary was built with (`release`, `debug`; empty in a record
    /// written before it was recorded).
    #[serde(default)]
    pub build_profile: String,
}
