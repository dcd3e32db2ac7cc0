//! `cowrie show --game G [--variant V] [--position NOTATION] --out FILE.svg`: draws a position
//! of any game as an SVG diagram ([`crate::pages::board`]).

use anyhow::Context;
use cowrie_engine::{Game, RuleSet};

use crate::cli::ShowArgs;
use crate::pages::board::Draw;
use crate::registry::{dispatch, GameTask};

struct Show<'a>(&'a ShowArgs);

impl GameTask for Show<'_> {
    type Output = String;

    fn run<G: Game + cowrie_agents::Evaluate + Draw>(self) -> anyhow::Result<String> {
        let r = &self.0.rules;
        let rules = G::Rules::resolve(r.variant.as_deref(), &r.options)?;
        let state = match &self.0.position {
            Some(text) => G::from_notation(text, &rules)?,
            None => G::new(&rules),
        };
        Ok(state.diagram())
    }
}

/// Draws the position into `args.out`; returns the line printed on stdout.
///
/// # Errors
/// An unknown game, variant or option, a position that does not parse, or an unwritable file,
/// naming it.
pub fn run(args: &ShowArgs) -> anyhow::Result<String> {
    let svg = dispatch(&args.rules.game, Show(args))?;
    std::fs::write(&args.out, svg)
        .with_context(|| format!("cannot write '{}'", args.out.display()))?;
    Ok(format!("wrote {}\n", args.out.display()))
}
