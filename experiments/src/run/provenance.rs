//! What a run was made with: the commit and build of the binary, and the files its agents read.
//!
//! Every manifest records `git_commit`, `git_dirty` and `build_profile` (from the build script,
//! `experiments/build.rs`) and `inputs`: for each agent spec, the length and SHA-256 of each
//! file the agent reads ([`FileDigest`], the form of every manifest's `files`), by path. Shipped
//! weights are hashed as the binary holds them and named by their path in the repository
//! (`agents/weights/GAME-VARIANT.safetensors`); a weights file by the path the spec gives; a
//! perfect agent's database by its `manifest.json`, which records the length and SHA-256 of each
//! of the database's files (hashing a database of many gigabytes for every run would cost more
//! than the run), beside which it records the phases of the game the database holds
//! ([`InputRecord::phases`]). A run whose `perfect` agent reads a database that does not hold the
//! whole game says so once on stderr ([`note_partial_databases`]).
//!
//! [`command_line`] is the command line as a manifest records it: the program by its file name,
//! and a path given absolute relative to the directory the command ran in where it lies under it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Mutex;

use anyhow::Context;
use cowrie_agents::{AgentSpec, AnyAgent, Evaluate, Input, Oracle};
use cowrie_engine::{Game, RuleSet};
use serde::{Deserialize, Serialize};

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

/// The binary that writes a manifest: this one's version, commit, dirtiness and build profile.
#[must_use]
pub fn build() -> cowrie_solver::Build {
    cowrie_solver::Build {
        cowrie_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: COMMIT.to_string(),
        git_dirty: dirty(),
        build_profile: PROFILE.to_string(),
    }
}

/// `args` (the program, then its arguments) as a manifest records them: the program by its file
/// name; an argument that is an absolute path under `cwd`, or a `--flag=PATH` whose path is, with
/// that path relative to `cwd` (`.` for `cwd` itself); every other argument as given.
#[must_use]
pub fn command_line(args: &[String], cwd: &Path) -> Vec<String> {
    let relative = |arg: &str| -> Option<String> {
        let path = Path::new(arg);
        if !path.is_absolute() {
            return None;
        }
        let rel = path.strip_prefix(cwd).ok()?;
        let rel = rel.to_str()?;
        Some(if rel.is_empty() { "." } else { rel }.to_string())
    };
    args.iter()
        .enumerate()
        .map(|(i, arg)| {
            if i == 0 {
                return Path::new(arg)
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or(arg)
                    .to_string();
            }
            if let Some(rel) = relative(arg) {
                return rel;
            }
            if let Some((flag, value)) = arg.split_once('=') {
                if flag.starts_with("--") {
                    if let Some(rel) = relative(value) {
                        return format!("{flag}={rel}");
                    }
                }
            }
            arg.clone()
        })
        .collect()
}

/// What a run's manifest records of a file an agent reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputRecord {
    /// Its length and SHA-256.
    #[serde(flatten)]
    pub digest: FileDigest,
    /// For a `perfect` agent's database (its `manifest.json`), the phases of the game it holds
    /// (`movement`, `movement+placement`, `movement+placement from P placed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phases: Option<String>,
    /// For a `td` agent's weights, the variant their metadata says they were trained under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trained_under: Option<String>,
    /// For a `td` agent's weights, whether they were trained under other rules than the run's
    /// (borrowed from another variant).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub borrowed: Option<bool>,
}

impl From<FileDigest> for InputRecord {
    fn from(digest: FileDigest) -> Self {
        InputRecord {
            digest,
            phases: None,
            trained_under: None,
            borrowed: None,
        }
    }
}

/// The files each agent of a run reads: agent spec → path → record.
pub type Inputs = BTreeMap<String, BTreeMap<String, InputRecord>>;

/// The digest of each file `input` names, by path.
///
/// # Errors
/// A file that cannot be read, naming it.
fn digest(input: &Input) -> anyhow::Result<(String, InputRecord)> {
    Ok(match input {
        Input::Shipped { path, bytes } => (path.clone(), FileDigest::of(bytes).into()),
        Input::File(path) => (
            path.display().to_string(),
            FileDigest::of_file(path)
                .with_context(|| format!("cannot read '{}'", path.display()))?
                .into(),
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
        let listed = AnyAgent::<G>::inputs(spec, rules);
        let mut files: BTreeMap<String, InputRecord> =
            listed.iter().map(digest).collect::<anyhow::Result<_>>()?;
        if let AgentSpec::Td(_) = spec {
            for input in &listed {
                let (path, net) = match input {
                    Input::Shipped { path, bytes } => (
                        path.clone(),
                        cowrie_agents::td::Net::from_bytes(bytes, path),
                    ),
                    Input::File(p) => (p.display().to_string(), cowrie_agents::td::Net::load(p)),
                };
                if let (Ok(net), Some(record)) = (net, files.get_mut(&path)) {
                    let variant = net.meta.get("variant").cloned();
                    let options: Vec<String> = net
                        .meta
                        .get("options")
                        .map(|o| o.split(';').map(String::from).collect())
                        .unwrap_or_default();
                    let theirs = G::Rules::resolve(variant.as_deref(), &options).ok();
                    record.borrowed = Some(theirs.as_ref() != Some(rules));
                    record.trained_under = variant;
                }
            }
        }
        // A `perfect` agent reads one file, its database's manifest.
        if let Some(oracle) = AnyAgent::<G>::oracle(spec)? {
            for record in files.values_mut() {
                record.phases = Some(oracle.phases());
            }
        }
        out.insert(spec.to_string(), files);
    }
    Ok(out)
}

/// The specs whose note [`note_partial_databases`] has printed in this process.
static NOTED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// The spec and note of each `perfect` agent of `agents` whose database does not hold the whole game:
/// which phases it holds, and that the positions outside it are played by search.
///
/// # Errors
/// A database that cannot be read.
pub fn partial_databases<G: Game + Evaluate>(
    agents: &[AgentSpec],
) -> anyhow::Result<Vec<(String, String)>> {
    let mut notes = Vec::new();
    for spec in agents {
        if let Some(oracle) = AnyAgent::<G>::oracle(spec)? {
            notes.extend(partial_note(spec, oracle.as_ref()).map(|n| (spec.to_string(), n)));
        }
    }
    Ok(notes)
}

/// The note of a `perfect` agent `spec` reading `oracle`, if the database does not hold the
/// whole game.
fn partial_note<G: Game>(spec: &AgentSpec, oracle: &dyn Oracle<G>) -> Option<String> {
    let AgentSpec::Perfect(p) = spec else {
        return None;
    };
    (!oracle.is_complete()).then(|| {
        format!(
            "note: {spec}: the database in '{}' holds the phases {}, not the whole game; the positions it does not hold are played by a {}-ply alpha-beta search with the database at its leaves",
            p.db.display(),
            oracle.phases(),
            p.depth
        )
    })
}

/// Prints on stderr, once per process and agent spec, the note of [`partial_databases`], so a
/// run of several pairings or threads says it once, at its start.
///
/// # Errors
/// A database that cannot be read.
pub fn note_partial_databases<G: Game + Evaluate>(agents: &[AgentSpec]) -> anyhow::Result<()> {
    let notes = partial_databases::<G>(agents)?;
    let mut noted = NOTED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for (spec, note) in notes {
        if noted.insert(spec) {
            eprintln!("{note}");
        }
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use cowrie_engine::{Baghchal, BaghchalRules, Player};

    /// A database that holds what it is told to.
    #[derive(Debug)]
    struct Holds(&'static str, bool);

    impl Oracle<Baghchal> for Holds {
        fn check_rules(&self, _: &BaghchalRules) -> Result<(), String> {
            Ok(())
        }
        fn score(&self, _: &Baghchal, _: Player) -> Option<i32> {
            None
        }
        fn phases(&self) -> String {
            self.0.to_string()
        }
        fn is_complete(&self) -> bool {
            self.1
        }
    }

    #[test]
    fn only_a_database_short_of_the_whole_game_is_noted() {
        let spec: AgentSpec = "perfect:db=dbs/x,depth=3".parse().unwrap();
        let note = partial_note(&spec, &Holds("movement", false)).unwrap();
        assert_eq!(
            note,
            "note: perfect:db=dbs/x,depth=3: the database in 'dbs/x' holds the phases movement, \
             not the whole game; the positions it does not hold are played by a 3-ply alpha-beta \
             search with the database at its leaves"
        );
        assert_eq!(
            partial_note(&spec, &Holds("movement+placement", true)),
            None
        );
        let random: AgentSpec = "random".parse().unwrap();
        assert_eq!(partial_note(&random, &Holds("movement", false)), None);
    }

    #[test]
    fn a_command_line_records_paths_under_the_directory_relative_to_it() {
        let args: Vec<String> = [
            "/opt/build/target/release/cowrie",
            "solve",
            "--out",
            "/home/u/work/dbs/five",
            "--out=/home/u/work/dbs/six",
            "/home/u/work",
            "/home/u/workshop/x",
            "/tmp/db",
            "dbs/rel",
            "--option",
            "win-captures=2",
        ]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
        let got = command_line(&args, Path::new("/home/u/work"));
        let want = [
            "cowrie",
            "solve",
            "--out",
            "dbs/five",
            "--out=dbs/six",
            ".",
            "/home/u/workshop/x",
            "/tmp/db",
            "dbs/rel",
            "--option",
            "win-captures=2",
        ];
        assert_eq!(got, want);
    }
}
