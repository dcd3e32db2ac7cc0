//! The schedule of a match: which agent sits in which seat of each game, and which chance
//! stream (pair) it uses.

/// Where game `game_index` stands in the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The game's index, from 0.
    pub game_index: u64,
    /// The seat-swapped pair it belongs to (its chance stream).
    pub pair_index: u64,
    /// Whether the agents are swapped: the second-named agent (`--p2`) sits in seat 1.
    pub swapped: bool,
}

/// The slot of game `game_index`: with `swap`, games `2k` and `2k + 1` form pair `k`, the
/// second with seats swapped; without, every game is its own pair and unswapped.
#[must_use]
pub fn slot(game_index: u64, swap: bool) -> Slot {
    if swap {
        Slot {
            game_index,
            pair_index: game_index / 2,
            swapped: game_index % 2 == 1,
        }
    } else {
        Slot {
            game_index,
            pair_index: game_index,
            swapped: false,
        }
    }
}
