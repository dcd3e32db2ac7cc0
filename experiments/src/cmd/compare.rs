//! `cowrie advantage` and `cowrie compare`: first-mover advantage of one rule set, and the same
//! self-play under several rule sets side by side ([`crate::run::comparison`]).

use anyhow::bail;
use clap::Args;
use cowrie_agents::AgentSpec;

use crate::args::{
    agent_spec, game_count, ForceArg, GameArg, GameRulesArgs, OutArg, ResumeArg, RunArgs,
};
use crate::config::RulesConfig;
use crate::config::RunConfig;
use crate::output::print_stdout;
use crate::run::comparison::{self, CompareConfig, RuleSetSpec};
use crate::run::schedule::Shard;

/// `cowrie advantage`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("Output directory")))]
#[command(mut_arg("force", |a| a.help("Replace the finished run DIR already holds; without it such a directory is refused (an interrupted one is replaced: run the same command again)")))]
pub struct AdvantageArgs {
    /// The game and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// The agent in both seats.
    #[arg(long, value_name = "SPEC", value_parser = agent_spec)]
    pub agent: AgentSpec,
    /// Games (self-play: each on dice of its own, no seat swap).
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
    /// `--force`.
    #[command(flatten)]
    pub forcing: ForceArg,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `cowrie compare`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("Output directory")))]
#[command(mut_arg("resume", |a| a.help("Continue an interrupted comparison in DIR (same arguments), rule set by rule set: finished runs (also ones joined by `cowrie merge` from shards) are verified against their manifests and kept, the interrupted one resumes")))]
pub struct CompareArgs {
    /// The game.
    #[command(flatten)]
    pub which: GameArg,
    /// A rule set, `VARIANT` or `VARIANT+key=value+...`; give two or more, the first is the
    /// reference.
    #[arg(long = "set", value_name = "RULES", required = true)]
    pub sets: Vec<String>,
    /// The agent in both seats.
    #[arg(long, value_name = "SPEC", value_parser = agent_spec)]
    pub agent: AgentSpec,
    /// Games per rule set (self-play: each on dice of its own, no seat swap).
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
    /// `--force`.
    #[command(flatten)]
    pub forcing: ForceArg,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
    /// `--resume`.
    #[command(flatten)]
    pub resuming: ResumeArg,
    /// Play only shard K of N of every rule set's run (the games `cowrie match --shard K/N`
    /// plays) and write no compare.csv; `cowrie merge` joins the shards' directories into the
    /// output of the whole comparison.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

impl CompareConfig {
    /// `cowrie advantage`'s arguments: one rule set, named after the variant played (the
    /// game's default if none is given) and its overrides.
    ///
    /// # Errors
    /// As [`CompareConfig::new`].
    pub fn advantage(a: &AdvantageArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        let rules = RulesConfig::from_args(&a.rules)?;
        let set = RuleSetSpec {
            variant: rules.variant.clone(),
            options: rules.options.clone(),
            name: std::iter::once(rules.resolved.variant.clone())
                .chain(rules.options.iter().cloned())
                .collect::<Vec<_>>()
                .join("+"),
        };
        CompareConfig::new(
            "advantage",
            &rules.game,
            vec![set],
            a.agent.clone(),
            a.games,
            RunConfig::from_args(&a.run, command_line),
            a.output.out.clone(),
        )
    }

    /// `cowrie compare`'s arguments.
    ///
    /// # Errors
    /// No rule set, a rule set that is not `VARIANT+key=value+...`, and as
    /// [`CompareConfig::new`]. One rule set is measured with no differences, as the study
    /// measures Frangieh's `ludii` on its own.
    pub fn compare(a: &CompareArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        if a.sets.is_empty() {
            bail!("compare needs at least one --set rule set");
        }
        let sets = a
            .sets
            .iter()
            .map(|s| s.parse())
            .collect::<anyhow::Result<Vec<RuleSetSpec>>>()?;
        let shard = a.shard.as_deref().map_or(Ok(Shard::WHOLE), str::parse)?;
        CompareConfig {
            resume: a.resuming.resume,
            ..CompareConfig::new(
                "compare",
                &a.which.game,
                sets,
                a.agent.clone(),
                a.games,
                RunConfig::from_args(&a.run, command_line),
                a.output.out.clone(),
            )?
        }
        .sharded(shard)
    }
}

/// `cowrie advantage`: one rule set's first-mover advantage, printed as a table.
///
/// # Errors
/// As [`comparison::run`].
pub fn advantage(args: AdvantageArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    let cfg = CompareConfig::advantage(&args, command_line)?;
    crate::run::outputs::check_new_dir(&args.output.out, &[], args.forcing.force)?;
    let text = comparison::run(&cfg).map_err(|e| {
        // The match's own words offer --resume, which advantage does not take.
        match e.downcast::<crate::interrupt::Interrupted>() {
            Ok(i) => crate::interrupt::Interrupted {
                message: format!(
                    "interrupted: {} games are in '{}', which says so; advantage cannot resume: run the same command again to start afresh",
                    i.written,
                    args.output.out.display()
                ),
                written: i.written,
            }
            .into(),
            Err(e) => e,
        }
    })?;
    print_stdout(&text)
}

/// `cowrie compare`: the rule sets side by side, printed as a table.
///
/// # Errors
/// As [`comparison::run`].
pub fn command(args: CompareArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    let cfg = CompareConfig::compare(&args, command_line)?;
    crate::run::outputs::check_dir(
        &args.output.out,
        &[],
        args.resuming.resume,
        args.forcing.force,
    )?;
    print_stdout(&comparison::run(&cfg)?)
}
