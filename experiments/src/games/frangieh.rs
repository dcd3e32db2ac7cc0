//! Frangieh: the points and kind of the win, the opening roll, and each side's pips, checkers
//! borne off and on the bar at the end.

use cowrie_engine::tables::{BAR, OFF};
use cowrie_engine::Frangieh;
use serde::{Deserialize, Serialize};

use super::{NoSubgames, Report};

/// Frangieh's columns of `games.csv`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrangiehColumns {
    /// Points the winner scored.
    pub points: u32,
    /// The kind of win (`Frangieh::win_type`).
    pub win_type: String,
    /// The seat whose opening die was higher, once the opening was rolled.
    pub opening_winner_seat: Option<u8>,
    /// The opening dice, seat 1's then seat 2's (`5-3`).
    pub opening_dice: Option<String>,
    /// Pip counts of seats 1 and 2.
    pub pips_p1: u32,
    /// See `pips_p1`.
    pub pips_p2: u32,
    /// Checkers borne off by seats 1 and 2.
    pub off_p1: u8,
    /// See `off_p1`.
    pub off_p2: u8,
    /// Checkers on the bar of seats 1 and 2.
    pub bar_p1: u8,
    /// See `bar_p1`.
    pub bar_p2: u8,
}

impl Report for Frangieh {
    const SIDES: [&'static str; 2] = ["x", "o"];
    type Columns = FrangiehColumns;
    type Subgame = NoSubgames;

    fn columns(&self) -> FrangiehColumns {
        let b = self.board();
        let opening = self.opening_dice();
        FrangiehColumns {
            points: self.points(),
            win_type: self.win_type().to_string(),
            opening_winner_seat: opening.map(|(p1, p2)| if p1 > p2 { 1 } else { 2 }),
            opening_dice: opening.map(|(p1, p2)| format!("{p1}-{p2}")),
            pips_p1: b.pip_count(0),
            pips_p2: b.pip_count(1),
            off_p1: b.count(0, OFF),
            off_p2: b.count(1, OFF),
            bar_p1: b.count(0, BAR),
            bar_p2: b.count(1, BAR),
        }
    }
}
