//! Bargese: the starter by the rules (the three-shell throw's winner), the first player to
//! enter a piece, and each side's pieces in the kitchen and hammerings at the end.

use cowrie_engine::{Bargese, Player};
use serde::{Deserialize, Serialize};

use super::{seat, FirstEntry, NoSubgames, Report};

/// Bargese's columns of `games.csv`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BargeseColumns {
    /// The seat that won the three-shell throw, if it was thrown.
    pub shells_winner: Option<u8>,
    /// The seat that entered a piece first, if any did.
    pub first_entered: Option<u8>,
    /// Pieces in the kitchen of seats 1 and 2.
    pub kitchen_p1: usize,
    /// See `kitchen_p1`.
    pub kitchen_p2: usize,
    /// Opposing pieces hammered by seats 1 and 2.
    pub hammerings_p1: u32,
    /// See `hammerings_p1`.
    pub hammerings_p2: u32,
}

impl Report for Bargese {
    const SIDES: [&'static str; 2] = ["south", "north"];
    type Columns = BargeseColumns;
    type Subgame = NoSubgames;

    fn first_mover(&self, first_decision: Option<Player>) -> Option<Player> {
        self.starter().or(first_decision)
    }

    fn columns(&self) -> BargeseColumns {
        BargeseColumns {
            shells_winner: seat(self.shells_winner()),
            first_entered: seat(self.first_entered()),
            kitchen_p1: self.in_kitchen(Player::ONE),
            kitchen_p2: self.in_kitchen(Player::TWO),
            hammerings_p1: self.hammerings(Player::ONE),
            hammerings_p2: self.hammerings(Player::TWO),
        }
    }

    fn first_entry(c: &BargeseColumns) -> Option<FirstEntry> {
        Some(FirstEntry {
            seat: c.first_entered,
        })
    }
}
