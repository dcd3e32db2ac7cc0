//! `cowrie match`: self-play between two agents (the pairing runner, [`crate::run::runner`],
//! on the command's arguments).

use clap::Args;
use cowrie_agents::AgentSpec;

use crate::args::{agent_spec, game_count, ForceArg, GameRulesArgs, OutArg, ResumeArg, RunArgs};
use crate::config::RulesConfig;
use crate::config::RunConfig;
use crate::output::print_stdout;
use crate::run::runner::{self, MatchConfig};
use crate::run::schedule::Shard;

/// `cowrie match`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("Output directory (created if missing; a finished run there is refused unless --force replaces it or --resume continues it)")))]
#[command(mut_arg("resume", |a| a.help("Continue the interrupted run in DIR (same arguments): keeps its finished games and ends with the bytes an uninterrupted run writes")))]
pub struct MatchArgs {
    /// The game and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// The agent in seat 1 (swapped with --p2 in every second game unless --no-swap or the two
    /// specs are the same: self-play has no seat swap).
    #[arg(long, value_name = "SPEC", value_parser = agent_spec)]
    pub p1: AgentSpec,
    /// The agent in seat 2.
    #[arg(long, value_name = "SPEC", value_parser = agent_spec)]
    pub p2: AgentSpec,
    /// Number of games (even when seats are swapped: two different agents without --no-swap).
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// Play every game with --p1 in seat 1 instead of seat-swapped pairs.
    #[arg(long)]
    pub no_swap: bool,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
    /// `--force`.
    #[command(flatten)]
    pub forcing: ForceArg,
    /// `--resume`.
    #[command(flatten)]
    pub resuming: ResumeArg,
    /// Play only shard K of N of the schedule (whole seat-swapped pairs); `cowrie merge` joins
    /// the shards' directories into the output of one run.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Also write DIR/records.jsonl: every game's chance outcomes and plies, for `cowrie replay`.
    #[arg(long)]
    pub record: bool,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
}

impl MatchConfig {
    /// `cowrie match`'s arguments, validated.
    ///
    /// # Errors
    /// Zero games, an odd number of games with seat swapping, zero threads, a bad shard.
    pub fn from_args(a: &MatchArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        let run = RunConfig::from_args(&a.run, command_line);
        let cfg = MatchConfig {
            shard: a.shard.as_deref().map_or(Ok(Shard::WHOLE), str::parse)?,
            // Self-play (the same spec in both seats) needs no seat swap: each game has dice
            // of its own instead (docs/conventions.md).
            swap: !a.no_swap && a.p1 != a.p2,
            record: a.record,
            resume: a.resuming.resume,
            ..MatchConfig::part(
                &RulesConfig::from_args(&a.rules)?,
                [a.p1.clone(), a.p2.clone()],
                a.games,
                &run,
                a.output.out.clone(),
                false,
            )
        };
        cfg.validate()?;
        Ok(cfg)
    }
}

/// `cowrie match`: plays the pairing and prints its summary table.
///
/// # Errors
/// Bad arguments, rules or agents; unwritable output; a resumed directory holding another run.
pub fn command(args: MatchArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    let cfg = MatchConfig::from_args(&args, command_line)?;
    crate::run::outputs::check_dir(&cfg.out, &[], cfg.resume, args.forcing.force)?;
    print_stdout(&runner::run(&cfg)?.text)
}
