//! What a run was made with: the commit and build of the binary, and the files its agents read.
//!
//! Every manifest records `git_commit`, `git_dirty` and `build_profile` (from the build script,
//! `experiments/build.rs`) and `inputs`: for each agent spec, the length and SHA-256 of each
//! file the agent reads ([`FileDigest`], the form of every manifest's `files`), by path. Shipped
//! weights are hashed as the binary holds them and named by their path in the repository
//! (`agents/weights/GAME-VARIANT.safetensors`); a weights file by the path the spec gives; a
//! perfect agent's database by its `manifest.json`, which records the length and SHA-256 of each
//! of the database's files (hashing a database of many gigabytes for every run would cost more
//! than the run).

use std::collections::BTreeMap;

use anyhow::Context;
use cowrie_agents::{AgentSpec, AnyAgent, Evaluate, Input};
use cowrie_engine::Game;

use crate::config::RulesConfig;
use crate::registry::{dispatch, GameTask};
use crate::run::digest::FileDigest;

/// The git commit the binary was built from (40 hex digits), `unknown` outside a repository.
pub const COMMIT: &str = env!("COWRIE_GIT_COMMIT");
/// `true` when a tracked source differed from [`COMMIT`] at build time, `false` when none did,
/// `unknown` outside a repository.
const DIRTY: &str = env!("COWRIE_GIT_DIRTY");
/// The cargo profile the binary was built with (`release`, `debug`).
pub const PROFILE: &str = env!("COWRIE_BUILD_PROFILE");

/// Whether the binary was built from sources that differ from [`COMMIT`]; `None` when unknown.
#[must_use]
pub fn dirty() -> Option<bool> {
    match DIRTY {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// The files each agent of a run reads: agent spec → path → digest.
pub type Inputs = BTreeMap<String, BTreeMap<String, FileDigest>>;

/// The digest of each file `input` names, by path.
///
/// # Errors
/// A file that cannot be read, naming it.
fn digest(input: &Input) -> anyhow::Result<(String, FileDigest)> {
    Ok(match input {
        Input::Shipped { path, bytes } => (path.clone(), FileDigest::of(bytes)),
        Input::File(path) => (
            path.display().to_string(),
            FileDigest::of_file(path)
                .with_context(|| format!("cannot read '{}'", path.display()))?,
        ),
    })
}

/// The inputs of `agents` playing `G` under `rules`.
///
/// # Errors
/// A file an agent reads that cannot be read, naming it.
pub fn inputs_of<G: Game + Evaluate>(
    rules: &G::Rules,
    agents: &[AgentSpec],
) -> anyhow::Result<Inputs> {
    let mut out = Inputs::new();
    for spec in agents {
        let files = AnyAgent::<G>::inputs(spec, rules)
            .iter()
            .map(digest)
            .collect::<anyhow::Result<_>>()?;
        out.insert(spec.to_string(), files);
    }
    Ok(out)
}

struct InputsTask<'a>(&'a RulesConfig, &'a [AgentSpec]);

impl GameTask for InputsTask<'_> {
    type Output = Inputs;
    fn run<G: Game + Evaluate>(self) -> anyhow::Result<Inputs> {
        inputs_of::<G>(&self.0.typed::<G>()?, self.1)
    }
}

/// The inputs of `agents` playing the game and rules `rules` names.
///
/// # Errors
/// Unknown game or rules; a file an agent reads that cannot be read, naming it.
pub fn inputs(rules: &RulesConfig, agents: &[AgentSpec]) -> anyhow::Result<Inputs> {
    dispatch(&rules.game, InputsTask(rules, agents))
}
