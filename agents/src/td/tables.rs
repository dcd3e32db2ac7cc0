//! The point units of the tables games' encodings (Frangieh, Julbahar), after Tesauro's
//! TD-Gammon (Tesauro 1992): a side's checkers `n` on a point as four units, `n >= 1`,
//! `n >= 2`, `n >= 3` and `(n - 3) / 2` above 3.

use cowrie_engine::games::tables::{Board, Direction};

use super::net::Inputs;

/// Sets the units of `n` checkers at `at..at + 4`: branch-free (the first `min(n, 4)` units are
/// the non-zero ones, listed in order; the values written past them are never read).
#[inline(always)]
fn units(inputs: &mut Inputs, at: usize, n: u8) {
    let len = inputs.len;
    inputs.x[at..at + 4].copy_from_slice(&[1.0, 1.0, 1.0, f32::from(n.max(3) - 3) / 2.0]);
    for (j, slot) in inputs.nonzero[len..len + 4].iter_mut().enumerate() {
        *slot = (at + j) as u16;
    }
    inputs.len = len + usize::from(n.min(4));
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
