//! The command line, parsed by clap into raw arguments; `cmd::*` validates them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use cowrie_agents::AgentSpec;

/// cowrie: rules engines, agents and self-play experiments for traditional board games.
///
/// With no subcommand, runs the default study (`cowrie study`).
#[derive(Debug, Parser)]
#[command(name = "cowrie", version, about, long_about = None)]
pub struct Cli {
    /// What to run.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Self-play between two agents: writes DIR/games.csv, DIR/summary.csv, DIR/manifest.json.
    Match(MatchArgs),
    /// The built-in study (the README's main job): every game and named variant, CSV per run.
    Study(StudyArgs),
    /// Lists a game's named variants and options.
    Rules(RulesArgs),
}

/// Arguments shared by runs of games.
#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// Run seed: the output is a pure function of the arguments and this seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (the output does not depend on it).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
}

/// `cowrie match`.
#[derive(Debug, Args, Clone)]
pub struct MatchArgs {
    /// The game: baghchal.
    #[arg(long)]
    pub game: String,
    /// A named variant (default: the game's first, see `cowrie rules --game G`).
    #[arg(long)]
    pub variant: Option<String>,
    /// Overrides one rule option, `key=value`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The agent in seat 1 (swapped with --p2 in every second game unless --no-swap).
    #[arg(long, value_name = "SPEC")]
    pub p1: AgentSpec,
    /// The agent in seat 2.
    #[arg(long, value_name = "SPEC")]
    pub p2: AgentSpec,
    /// Number of games (even, unless --no-swap).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Play every game with --p1 in seat 1 instead of seat-swapped pairs.
    #[arg(long)]
    pub no_swap: bool,
    /// Output directory (created if missing; its games.csv, summary.csv and manifest.json are
    /// replaced).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `cowrie study`.
#[derive(Debug, Args, Clone)]
pub struct StudyArgs {
    /// Output directory.
    #[arg(long, value_name = "DIR", default_value = "results/default-study")]
    pub out: PathBuf,
    /// Games per run (even).
    #[arg(long, default_value_t = 2000)]
    pub games: u64,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `cowrie rules`.
#[derive(Debug, Args, Clone)]
pub struct RulesArgs {
    /// The game.
    #[arg(long)]
    pub game: String,
}
