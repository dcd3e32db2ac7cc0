//! `cowrie show --game G [--variant V] [--position NOTATION] --out FILE.svg`: draws a position
//! of any game as an SVG diagram ([`crate::pages::board`]).

use anyhow::Context;
use clap::Args;
use cowrie_engine::Game;

use crate::args::{GameRulesArgs, OutArg};
use crate::output::print_stdout;
use crate::pages::board::Draw;
use crate::registry::{dispatch, GameTask};

struct Show<'a>(&'a ShowArgs);

impl GameTask for Show<'_> {
    type Output = String;

    fn run<G: Game + cowrie_agents::Evaluate + Draw>(self) -> anyhow::Result<String> {
        let rules = crate::config::RulesConfig::from_args(&self.0.rules)?.typed::<G>()?;
        let state = match &self.0.position {
            Some(text) => G::from_notation(text, &rules)?,
            None => G::new(&rules),
        };
        Ok(state.diagram())
    }
}

/// Draws the position into `args.output.out`; returns the line printed on stdout.
///
/// # Errors
/// An unknown game, variant or option, a position that does not parse, or an unwritable file,
/// naming it.
pub fn run(args: &ShowArgs) -> anyhow::Result<String> {
    let svg = dispatch(args.rules.game(), Show(args))?;
    std::fs::write(&args.output.out, svg)
        .with_context(|| format!("cannot write '{}'", args.output.out.display()))?;
    Ok(format!("wrote {}\n", args.output.out.display()))
}

/// `cowrie show`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("The SVG file to write").value_name("FILE.svg")))]
pub struct ShowArgs {
    /// The game and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// The position in the game's notation (`docs/rules/GAME.md`); default: the start.
    #[arg(long, value_name = "NOTATION")]
    pub position: Option<String>,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
}

/// `cowrie show`.
///
/// # Errors
/// As [`run`].
pub fn command(args: ShowArgs, _command_line: Vec<String>) -> anyhow::Result<()> {
    crate::run::outputs::check_file("--out", &args.output.out, &[])?;
    print_stdout(&run(&args)?)
}
