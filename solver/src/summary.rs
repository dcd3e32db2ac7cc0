//! The summary of a solved layer: positions, wins, draws and losses for each side to move, and
//! the longest distances.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::layer::{Layer, Side};
use crate::value::Value;

/// One row of a layer's summary: the positions of one side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideSummary {
    /// Goats on the board.
    pub goats_on_board: u32,
    /// Goats captured (20 minus those on the board).
    pub captured: u32,
    /// `goats` or `tigers`.
    pub side_to_move: &'static str,
    /// Positions (inequivalent under the symmetries).
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// The longest distance of a win, in plies (0 if none).
    pub longest_win: u16,
    /// The longest distance of a loss, in plies (0 if none).
    pub longest_loss: u16,
}

#[derive(Clone, Copy, Default)]
struct Tally {
    wins: u64,
    draws: u64,
    losses: u64,
    longest_win: u16,
    longest_loss: u16,
}

impl Tally {
    fn add(mut self, word: u16) -> Tally {
        match Value::decode(word) {
            None => {}
            Some(Value::Win(d)) => {
                self.wins += 1;
                self.longest_win = self.longest_win.max(d);
            }
            Some(Value::Loss(d)) => {
                self.losses += 1;
                self.longest_loss = self.longest_loss.max(d);
            }
            Some(Value::Draw) => self.draws += 1,
        }
        self
    }

    fn join(self, o: Tally) -> Tally {
        Tally {
            wins: self.wins + o.wins,
            draws: self.draws + o.draws,
            losses: self.losses + o.losses,
            longest_win: self.longest_win.max(o.longest_win),
            longest_loss: self.longest_loss.max(o.longest_loss),
        }
    }
}

/// The two rows (goats to move, tigers to move) of `layer`'s summary.
#[must_use]
pub fn summarise(layer: &Layer) -> [SideSummary; 2] {
    let n = layer.slots();
    Side::BOTH.map(|side| {
        let base = if side == Side::Goats { 0 } else { n };
        let t = layer.words()[base..base + n]
            .par_iter()
            .fold(Tally::default, |t, &w| t.add(w))
            .reduce(Tally::default, Tally::join);
        SideSummary {
            goats_on_board: layer.goats(),
            captured: 20 - layer.goats(),
            side_to_move: side.name(),
            positions: t.wins + t.draws + t.losses,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            longest_win: t.longest_win,
            longest_loss: t.longest_loss,
        }
    })
}
