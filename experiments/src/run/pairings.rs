//! Agents that play one another in pairings of seat-swapped pairs: a tournament's round robin
//! and a ladder's steps between adjacent rungs, each pairing a match of its own.
//!
//! Sharded (`--shard K/N`), the run's seat-swapped pairs are numbered pairing after pairing
//! (a pairing of an agent with itself plays without seat swap, so each of its games is a pair)
//! and shard `K` plays the run's pairs `K-1, K-1+N, ...`: in each pairing, the pairs of the
//! pairing's own shard [`Shard::after`], which may be none.

use std::path::PathBuf;

use anyhow::bail;
use cowrie_agents::AgentSpec;

use crate::config::{RulesConfig, RunConfig};
use crate::run::runner::MatchConfig;
use crate::run::schedule::Shard;

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
    /// The slice of the run's seat-swapped pairs this process plays (`1/1`: all of them).
    pub shard: Shard,
}

/// One pairing of a run: agent `a` (the match's `--p1`) against agent `b`, played in `dir`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The first agent's index.
    pub a: usize,
    /// The second agent's index.
    pub b: usize,
    /// The pairing's directory.
    pub dir: PathBuf,
}

impl PairingsConfig {
    /// The pairings of `agents` under `rules`, once the counts are checked; the whole run.
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
            shard: Shard::WHOLE,
        }
    }

    /// The round robin: every two agents `a < b`, in order, in `OUT/pairings/<n>-<a>-v-<b>`
    /// (`n` from 1).
    #[must_use]
    pub fn round_robin(&self) -> Vec<Pairing> {
        let k = self.agents.len();
        (0..k)
            .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
            .enumerate()
            .map(|(i, (a, b))| Pairing {
                a,
                b,
                dir: self
                    .out
                    .join("pairings")
                    .join(format!("{}-{a}-v-{b}", i + 1)),
            })
            .collect()
    }

    /// The ladder's steps: each rung (the upper, `a`) against the one below it (`b`), in
    /// `OUT/steps/<step>-<upper>-v-<lower>` (`step` from 1, rungs from 0).
    #[must_use]
    pub fn steps(&self) -> Vec<Pairing> {
        (1..self.agents.len())
            .map(|step| Pairing {
                a: step,
                b: step - 1,
                dir: self
                    .out
                    .join("steps")
                    .join(format!("{step}-{step}-v-{}", step - 1)),
            })
            .collect()
    }

    /// The pairs of pairing `p`: seat-swapped pairs, or its games where an agent plays
    /// itself (without seat swap).
    #[must_use]
    pub fn pairs(&self, p: &Pairing) -> u64 {
        if self.agents[p.a] == self.agents[p.b] {
            self.games_per_pair
        } else {
            self.games_per_pair / 2
        }
    }

    /// The pairs of all of `pairings`.
    #[must_use]
    pub fn total_pairs(&self, pairings: &[Pairing]) -> u64 {
        pairings.iter().map(|p| self.pairs(p)).sum()
    }

    /// This run sliced to `shard`, for a run of `pairings`, called `one` or `many` in the
    /// refusal (`step`, `steps`).
    ///
    /// # Errors
    /// A shard some of whose siblings would play no pair (fewer pairs in the whole run than
    /// shards), naming it and the largest count that runs.
    pub fn sharded(
        self,
        shard: Shard,
        pairings: &[Pairing],
        [one, many]: [&str; 2],
    ) -> anyhow::Result<PairingsConfig> {
        let pairs = self.total_pairs(pairings);
        if pairs < shard.n {
            bail!(
                "--shard {shard}: {} {} of {} games make {pairs} pairs, fewer than the {} shards, so some shard would play none (use at most {pairs} shards)",
                pairings.len(),
                if pairings.len() == 1 { one } else { many },
                self.games_per_pair,
                shard.n
            );
        }
        Ok(PairingsConfig { shard, ..self })
    }

    /// The matches of `pairings` (the run's, in order): this shard's slice of each.
    #[must_use]
    pub fn matches(&self, pairings: &[Pairing]) -> Vec<MatchConfig> {
        let mut before = 0;
        pairings
            .iter()
            .map(|p| {
                let m = MatchConfig {
                    shard: self.shard.after(before),
                    ..MatchConfig::part(
                        &self.rules,
                        [self.agents[p.a].clone(), self.agents[p.b].clone()],
                        self.games_per_pair,
                        &self.run,
                        p.dir.clone(),
                        self.resume,
                    )
                };
                before += self.pairs(p);
                m
            })
            .collect()
    }

    /// Games this shard plays of `pairings` (the run's).
    #[must_use]
    pub fn shard_games(&self, pairings: &[Pairing]) -> u64 {
        self.matches(pairings)
            .iter()
            .map(|m| m.schedule().len())
            .sum()
    }

    /// The run's description in the manifest: the rules, then `rest`, then the shard.
    #[must_use]
    pub fn manifest_run(&self, rest: serde_json::Value) -> serde_json::Value {
        let mut run = self.rules.manifest_run(rest);
        run["shard"] = serde_json::Value::String(self.shard.to_string());
        run
    }

    /// The run a shard's manifest `m` describes, whole, with `agents` read from
    /// `run.<agents_field>`, written to `out` by `command_line` (`cowrie merge`).
    ///
    /// # Errors
    /// A manifest without the fields, or rules or agents this cowrie does not know.
    pub fn from_manifest(
        m: &serde_json::Value,
        agents_field: &str,
        out: &std::path::Path,
        command_line: &[String],
    ) -> anyhow::Result<Self> {
        use anyhow::Context;
        let r = Recorded::of(m, agents_field, command_line)?;
        Ok(PairingsConfig::new(
            r.rules,
            &r.agents,
            m["run"]["games_per_pair"]
                .as_u64()
                .context("no run.games_per_pair")?,
            r.run,
            out,
            false,
        ))
    }
}

/// What a run of several agents records in its manifest and every such run needs again to be
/// rebuilt whole (`cowrie merge`): its rules, its agents, and its seed and threads.
pub struct Recorded {
    /// The rules, from `run.game`, `run.variant` and `run.option_overrides`.
    pub rules: RulesConfig,
    /// The agents, in order.
    pub agents: Vec<AgentSpec>,
    /// `run.seed`, the manifest's `threads`, hidden progress and `command_line`.
    pub run: RunConfig,
}

impl Recorded {
    /// The rules, the agents (`run.<agents_field>`), the seed and the threads manifest `m`
    /// records, for a run rebuilt by `command_line`.
    ///
    /// # Errors
    /// A manifest without the fields, or rules or agents this cowrie does not know, naming the
    /// field.
    pub fn of(
        m: &serde_json::Value,
        agents_field: &str,
        command_line: &[String],
    ) -> anyhow::Result<Self> {
        use anyhow::Context;
        let run = &m["run"];
        let text = |k: &str| run[k].as_str().with_context(|| format!("no run.{k}"));
        let overrides: Vec<String> = serde_json::from_value(run["option_overrides"].clone())
            .map_err(crate::args::json_error)
            .context("run.option_overrides")?;
        let agents = run[agents_field]
            .as_array()
            .with_context(|| format!("no run.{agents_field}"))?
            .iter()
            .map(|a| {
                a.as_str()
                    .with_context(|| format!("run.{agents_field}: {a} is not an agent spec"))?
                    .parse::<AgentSpec>()
                    .map_err(anyhow::Error::from)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let threads = m["threads"]
            .as_u64()
            .and_then(|t| usize::try_from(t).ok())
            .unwrap_or(1);
        Ok(Recorded {
            rules: RulesConfig::new(text("game")?, Some(text("variant")?), &overrides)?,
            agents,
            run: RunConfig {
                seed: run["seed"].as_u64().context("no run.seed")?,
                threads,
                progress: crate::progress::Progress::Hidden,
                command_line: command_line.to_vec(),
            },
        })
    }
}
