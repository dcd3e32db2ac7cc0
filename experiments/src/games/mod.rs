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

/// What the harness reports of game `G`, implemented for the four games.
pub trait Report: Game {
    /// The names of the two sides (`goats`, `tigers`), player one's first: `winner_side` in
    /// `games.csv` and the summaries' labels.
    const SIDES: [&'static str; 2];

    /// Whether the unit of play is a match of several games (Julbahar), whose games
    /// `subgames.csv` lists one row each.
    const PLAYS_MATCHES: bool = false;

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
