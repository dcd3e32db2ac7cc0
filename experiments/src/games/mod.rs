//! What the harness reports of a game beyond the rules: the names of its sides, the game's own
//! columns of `games.csv`, the games inside a match (`subgames.csv`), and the typed facts the
//! metrics read from them. The engine's [`Game`] trait holds the rules only; this trait is the
//! harness's, as [`cowrie_agents::Evaluate`] is the agents'. One file per game.
//!
//! Every row type here is a serde struct: `games.csv` and `subgames.csv` are written from it and
//! read back into it (`crate::run::record`), and its field names are the CSV columns.

mod baghchal;
mod bargese;
mod frangieh;
mod julbahar;

use std::fmt::Debug;

use cowrie_engine::{Game, Player};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use baghchal::BaghchalColumns;
pub use bargese::BargeseColumns;
pub use frangieh::FrangiehColumns;
pub use julbahar::{JulbaharColumns, JulbaharSubgame};

/// A part of a CSV row: a serde struct of named fields (its field names are the columns), with
/// a default value the header is written from.
pub trait RowPart:
    Serialize + DeserializeOwned + Default + Clone + Debug + PartialEq + Send + Sync + 'static
{
}

impl<T> RowPart for T where
    T: Serialize + DeserializeOwned + Default + Clone + Debug + PartialEq + Send + Sync + 'static
{
}

/// The row part of a game without games inside its unit of play: no columns (never written).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoSubgames {}

/// Who first entered a piece in one game (Bargese): a second definition of first mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstEntry {
    /// The seat (1 or 2) that entered first; `None` if no piece entered.
    pub seat: Option<u8>,
}

/// How one game inside a match went, for the metrics of the games inside matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubgameOutcome {
    /// The seat (1 or 2) that made the game's first decision.
    pub first_mover_seat: u8,
    /// The seat that won the game; `None` if the match ended during it.
    pub winner_seat: Option<u8>,
}

/// The facts of a game the commands read where they would otherwise test its name, as values
/// ([`crate::registry::facts`] gives them by name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// [`Report::FIXED_FIRST_MOVER`].
    pub fixed_first_mover: Option<Player>,
    /// [`Report::COMPARISON_NOTE`].
    pub comparison_note: Option<&'static str>,
    /// [`Report::SIDES`].
    pub sides: [&'static str; 2],
}

impl Facts {
    /// The facts of game `G`.
    #[must_use]
    pub fn of<G: Report>() -> Facts {
        Facts {
            fixed_first_mover: G::FIXED_FIRST_MOVER,
            comparison_note: G::COMPARISON_NOTE,
            sides: G::SIDES,
        }
    }
}

/// What the harness reports of game `G`, implemented for the four games.
pub trait Report: Game {
    /// The names of the two sides (`goats`, `tigers`), player one's first: `winner_side` in
    /// `games.csv` and the summaries' labels.
    const SIDES: [&'static str; 2];

    /// Whether the unit of play is a match of several games (Julbahar), whose games
    /// `subgames.csv` lists one row each.
    const PLAYS_MATCHES: bool = false;

    /// The player who makes the first decision of every game, where the rules fix it (Baghchal:
    /// the goats place first); `None` where an opening roll or throw decides. Where it is fixed,
    /// the first mover's win rate is seat 1's, and side and move order are one factor.
    const FIXED_FIRST_MOVER: Option<Player> = None;

    /// A line a comparison of this game's rule sets prints under its table, if any.
    const COMPARISON_NOTE: Option<&'static str> = None;

    /// The game's own columns of `games.csv`, written after the contract's.
    type Columns: RowPart;

    /// One row of `subgames.csv` after its `game_index, pair_index, seed`
    /// ([`NoSubgames`] for games that are not matches of games).
    type Subgame: RowPart;

    /// The name of `player`'s side.
    #[must_use]
    fn side_name(player: Player) -> &'static str {
        Self::SIDES[player.index()]
    }

    /// `first_mover_seat` of a finished game, given the player at its first decision node: that
    /// player, unless the rules name the starter otherwise (Bargese's winner of the three-shell
    /// throw, [`cowrie_engine::Bargese::starter`]).
    fn first_mover(&self, first_decision: Option<Player>) -> Option<Player> {
        first_decision
    }

    /// The game's own columns for a finished game.
    fn columns(&self) -> Self::Columns;

    /// The games inside a finished match, in order; empty unless [`Report::PLAYS_MATCHES`].
    fn subgames(&self) -> Vec<Self::Subgame> {
        Vec::new()
    }

    /// Who first entered a piece, for games whose pieces enter the board (Bargese); `None` for
    /// the others.
    fn first_entry(columns: &Self::Columns) -> Option<FirstEntry> {
        let _ = columns;
        None
    }

    /// How a game inside a match went; `None` for games that are not matches of games.
    fn subgame_outcome(subgame: &Self::Subgame) -> Option<SubgameOutcome> {
        let _ = subgame;
        None
    }
}

/// The seat (1 or 2) of an optional player, as the CSV writes it.
#[must_use]
pub fn seat(player: Option<Player>) -> Option<u8> {
    player.map(Player::seat)
}

#[cfg(test)]
mod fact_tests {
    use cowrie_engine::{Baghchal, Bargese, Frangieh, Julbahar, RuleSet, ToAct};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::Report;

    /// The players who made the first decision of each of `games` games under every named
    /// variant of `G`, chance drawn uniformly from its outcomes.
    fn first_deciders<G: Report>(games: u64) -> Vec<cowrie_engine::Player> {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut found = Vec::new();
        for v in G::Rules::variants() {
            let rules = G::Rules::variant(v.name).expect("a named variant");
            for _ in 0..games {
                let mut state = G::new(&rules);
                let mut outcomes = Vec::new();
                loop {
                    match state.to_act() {
                        ToAct::Decision(p) => {
                            found.push(p);
                            break;
                        }
                        ToAct::Chance => {
                            state.chance_outcomes(&mut outcomes);
                            let (o, _) = outcomes[rng.gen_range(0..outcomes.len())];
                            state.apply_outcome(o);
                        }
                        ToAct::Terminal(_) => break,
                    }
                }
            }
        }
        found
    }

    /// A fixed first mover is declared exactly where every game's first decision is that
    /// player's; elsewhere both players make the first decision in some games.
    fn check<G: Report>() {
        let found = first_deciders::<G>(200);
        match G::FIXED_FIRST_MOVER {
            Some(p) => assert!(found.iter().all(|&f| f == p), "{}", G::NAME),
            None => assert!(
                found.iter().any(|&f| f == found[0]) && found.iter().any(|&f| f != found[0]),
                "{}: one player always decides first, but no fixed first mover is declared",
                G::NAME
            ),
        }
    }

    #[test]
    fn a_fixed_first_mover_is_declared_where_the_rules_fix_it() {
        check::<Baghchal>();
        check::<Frangieh>();
        check::<Julbahar>();
        check::<Bargese>();
    }
}
