//! `cowrie rules --game G`: the named variants and options of a game.

use cowrie_engine::{Game, RuleSet};

use crate::registry::{dispatch, GameTask};

struct ListRules;

impl GameTask for ListRules {
    type Output = String;
    fn run<G: Game + cowrie_agents::Evaluate>(self) -> anyhow::Result<String> {
        let mut s = format!("{}\nvariants (the first is the default):\n", G::NAME);
        for v in G::Rules::variants() {
            s += &format!("  {:<16} {}\n", v.name, v.source);
        }
        s += "options (--option key=value), with the default variant's value:\n";
        let defaults = G::Rules::default().resolved();
        for o in G::Rules::option_info() {
            let d = defaults
                .iter()
                .find(|(k, _)| *k == o.key)
                .map_or("", |(_, v)| v.as_str());
            s += &format!("  {:<16} {} (default {d})\n", o.key, o.values);
        }
        Ok(s)
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
