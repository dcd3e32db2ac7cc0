//! The point units of the tables games' encodings (Frangieh, Julbahar), after Tesauro's
//! TD-Gammon (Tesauro 1992): a side's checkers `n` on a point as four units, `n >= 1`,
//! `n >= 2`, `n >= 3` and `(n - 3) / 2` above 3.

use cowrie_engine::games::tables::{Board, Direction};

use super::net::Inputs;

#[inline]
fn units(inputs: &mut Inputs, at: usize, n: u8) {
    if n == 0 {
        return;
    }
    inputs.set(at, 1.0);
    if n >= 2 {
        inputs.set(at + 1, 1.0);
    }
    if n >= 3 {
        inputs.set(at + 2, 1.0);
    }
    if n > 3 {
        inputs.set(at + 3, f32::from(n - 3) / 2.0);
    }
}

/// Sets inputs `0..192`: for each point `p` (1 to 24) in side `me`'s numbering, `me`'s
/// checkers there at `4 (p - 1)` and the opponent's checkers on the same point (its own point
/// `direction.other(p)`) at `96 + 4 (p - 1)`.
pub fn encode_points(board: &Board, me: usize, direction: Direction, inputs: &mut Inputs) {
    let c = board.counts();
    let o = 1 - me;
    for p in 1..=24 {
        units(inputs, 4 * (p - 1), c[me][p]);
        units(inputs, 96 + 4 * (p - 1), c[o][direction.other(p)]);
    }
}
