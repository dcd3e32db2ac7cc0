//! `cowrie rules --game G`: the named variants and options of a game, with their sources.

use clap::Args;
use cowrie_engine::{Game, RuleSet};

use crate::args::GameArg;
use crate::registry::{dispatch, GameTask};

struct ListRules;

impl GameTask for ListRules {
    type Output = String;
    fn run<G: Game + cowrie_agents::Evaluate>(self) -> anyhow::Result<String> {
        Ok(G::Rules::describe())
    }
}

/// Prints the rules listing of `game` to stdout.
///
/// # Errors
/// An unknown game.
pub fn run(game: &str) -> anyhow::Result<()> {
    let text = dispatch(game, ListRules)?;
    crate::output::print_stdout(&text)
}

/// `cowrie rules`.
#[derive(Debug, Args, Clone)]
pub struct RulesArgs {
    /// The game.
    #[command(flatten)]
    pub which: GameArg,
}

/// `cowrie rules`.
///
/// # Errors
/// As [`run`].
pub fn command(args: RulesArgs, _command_line: Vec<String>) -> anyhow::Result<()> {
    run(&args.which.game)
}
