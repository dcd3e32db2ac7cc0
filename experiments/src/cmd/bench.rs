//! `cowrie bench`: the bench signature. A fixed seeded workload — random v random, every game
//! and named variant, seed 1, one thread — whose `games.csv` rows are hashed (SHA-256). The
//! signature changes exactly when behaviour changes (rules, move order, random streams, CSV);
//! the rates printed beside it move with the machine.
//!
//! `--game`, `--variant` and `--agent` narrow or change the workload (one game, one variant,
//! another agent against itself), to time the in-process loop against a run of `cowrie match`
//! on the same games; the signature is the bench signature only without them.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::bail;
use clap::Args;
use cowrie_agents::AgentSpec;
use cowrie_engine::RuleSet;
use sha2::{Digest, Sha256};

use crate::args::{agent_spec, game_count};
use crate::config::{RulesConfig, RunConfig};
use crate::registry::{dispatch, GameTask, GAMES};
use crate::run::record::MatchLabels;
use crate::run::runner::MatchConfig;
use crate::run::runner::{play_one, Ctx};
use crate::run::selfplay::Buffers;

struct BenchGame<'a> {
    games: u64,
    variant: Option<&'a str>,
    agent: &'a AgentSpec,
}

/// One line of the bench: a variant's hash and rate.
struct Line {
    variant: String,
    plies: u64,
    seconds: f64,
    digest: [u8; 32],
}

impl GameTask for BenchGame<'_> {
    type Output = Vec<Line>;

    fn run<G: cowrie_agents::Evaluate + crate::games::Report>(self) -> anyhow::Result<Vec<Line>> {
        let mut out = Vec::new();
        if let Some(name) = self.variant {
            // An unknown variant is refused, naming it and the known ones.
            RulesConfig::new(G::NAME, Some(name), &[])?;
        }
        for v in G::Rules::variants()
            .iter()
            .filter(|v| self.variant.is_none_or(|name| name == v.name))
        {
            let cfg = MatchConfig::part(
                &RulesConfig::new(G::NAME, Some(v.name), &[])?,
                [self.agent.clone(), self.agent.clone()],
                self.games,
                &RunConfig {
                    seed: 1,
                    threads: 1,
                    progress: crate::progress::Progress::Hidden,
                    command_line: Vec::new(),
                },
                std::path::PathBuf::new(),
                false,
            );
            let rules = G::Rules::variant(v.name)?;
            let labels = MatchLabels {
                seed: 1,
                variant: v.name.to_string(),
                options: String::new(),
                agents: [self.agent.to_string(), self.agent.to_string()],
            };
            let ctx = Ctx {
                cfg: &cfg,
                rules: &rules,
                labels: &labels,
                resolved: &[],
            };
            let mut buf = Buffers::<G>::default();
            let mut hasher = Sha256::new();
            let mut plies = 0u64;
            let start = Instant::now();
            for i in 0..self.games {
                let played = play_one::<G>(i, &ctx, &mut buf)?;
                hasher.update(&played.row);
                plies += u64::from(played.plies);
            }
            out.push(Line {
                variant: v.name.to_string(),
                plies,
                seconds: start.elapsed().as_secs_f64(),
                digest: hasher.finalize().into(),
            });
        }
        Ok(out)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Runs the workload and prints each variant's rows hash and rate, then the signature.
///
/// # Errors
/// Only if a game's variants cannot be built (a bug).
pub fn run(cfg: &BenchConfig) -> anyhow::Result<()> {
    let games = cfg.games;
    let agent = &cfg.agent;
    let mut all = Sha256::new();
    let mut text = format!(
        "cowrie bench: {agent} v {agent}, {games} games per variant, seed 1, one thread\n{:<10} {:<15} {:>10} {:>12} {:>12}  rows sha256 (first 16 hex)\n",
        "game", "variant", "plies", "games/s", "plies/s"
    );
    let chosen: Vec<&str> = match &cfg.game {
        Some(g) => vec![g.as_str()],
        None => GAMES.to_vec(),
    };
    for game in chosen {
        let task = BenchGame {
            games,
            variant: cfg.variant.as_deref(),
            agent,
        };
        for line in dispatch(game, task)? {
            all.update(line.digest);
            let _ = writeln!(
                text,
                "{game:<10} {:<15} {:>10} {:>12.0} {:>12.0}  {}",
                line.variant,
                line.plies,
                games as f64 / line.seconds,
                line.plies as f64 / line.seconds,
                &hex(&line.digest)[..16]
            );
        }
    }
    let _ = writeln!(text, "signature {}", &hex(&all.finalize())[..16]);
    crate::output::print_stdout(&text)
}

/// Games per (game, variant) in the bench signature's workload (`cowrie bench`).
pub const SIGNATURE_GAMES: u64 = 1000;

/// `cowrie bench`.
#[derive(Debug, Args, Clone)]
pub struct BenchArgs {
    /// Games per (game, variant); the signature quoted in the README uses the default.
    #[arg(long, default_value_t = SIGNATURE_GAMES, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// Only this game (default: every game); the signature is then not the bench signature.
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// Only this variant of --game (default: every variant).
    #[arg(long, value_name = "VARIANT", requires = "game")]
    pub variant: Option<String>,
    /// The agent playing both seats (default random; another agent's signature is not the
    /// bench signature).
    #[arg(long, value_name = "SPEC", default_value = "random", value_parser = agent_spec)]
    pub agent: AgentSpec,
}

/// A validated bench: games per (game, variant), which games and variants, and the agent.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Games per (game, variant), at least one.
    pub games: u64,
    /// Only this game.
    pub game: Option<String>,
    /// Only this variant of [`BenchConfig::game`].
    pub variant: Option<String>,
    /// The agent in both seats.
    pub agent: AgentSpec,
}

impl BenchConfig {
    /// `cowrie bench`'s arguments.
    ///
    /// # Errors
    /// Zero games.
    pub fn from_args(a: &BenchArgs) -> anyhow::Result<Self> {
        if a.games == 0 {
            bail!("--games 0: the bench needs at least one game per variant");
        }
        Ok(BenchConfig {
            games: a.games,
            game: a.game.clone(),
            variant: a.variant.clone(),
            agent: a.agent.clone(),
        })
    }
}

/// `cowrie bench`.
///
/// # Errors
/// As [`run`].
pub fn command(args: BenchArgs, _command_line: Vec<String>) -> anyhow::Result<()> {
    run(&BenchConfig::from_args(&args)?)
}
