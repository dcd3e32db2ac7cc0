//! Agents that play one another in pairings of seat-swapped pairs: a tournament's round robin
//! and a ladder's steps between adjacent rungs, each pairing a match of its own.

use std::path::PathBuf;

use cowrie_agents::AgentSpec;

use crate::config::{RulesConfig, RunConfig};
use crate::run::runner::MatchConfig;

/// Agents that play one another in pairings of seat-swapped pairs (a tournament's round
/// robin, a ladder's steps between adjacent rungs), each pairing a match of its own.
#[derive(Clone, Debug)]
pub struct PairingsConfig {
    /// The rules, resolved.
    pub rules: RulesConfig,
    /// The agents (two or more): a tournament's entrants, or a ladder's rungs, weakest first.
    pub agents: Vec<AgentSpec>,
    /// Games per pairing (even, positive).
    pub games_per_pair: u64,
    /// Seed, threads, progress, command line.
    pub run: RunConfig,
    /// Output directory.
    pub out: PathBuf,
    /// Continue an interrupted run in `out`: finished pairings are verified and kept, the
    /// interrupted one resumes, the rest are played.
    pub resume: bool,
}

impl PairingsConfig {
    /// The pairings of `agents` under `rules`, once the counts are checked.
    #[must_use]
    pub fn new(
        rules: RulesConfig,
        agents: &[AgentSpec],
        games_per_pair: u64,
        run: RunConfig,
        out: &std::path::Path,
        resume: bool,
    ) -> Self {
        PairingsConfig {
            rules,
            agents: agents.to_vec(),
            games_per_pair,
            run,
            out: out.to_path_buf(),
            resume,
        }
    }

    /// The match between agents `a` (the match's `--p1`) and `b`, played in `dir`.
    #[must_use]
    pub fn pairing(&self, a: usize, b: usize, dir: PathBuf) -> MatchConfig {
        MatchConfig::part(
            &self.rules,
            [self.agents[a].clone(), self.agents[b].clone()],
            self.games_per_pair,
            &self.run,
            dir,
            self.resume,
        )
    }
}
