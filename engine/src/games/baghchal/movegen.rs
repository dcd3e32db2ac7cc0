//! Move generation: placements, steps and jumps from the bitboards and the step and jump tables.
//!
//! Order (fixed): placements by ascending point; otherwise for each piece of the side to move
//! by ascending point, its moves by ascending destination point (a tiger's steps and jumps
//! interleaved by destination).

use super::board::{self, JUMPABLE, STEPS};
use super::window::tiger_targets;
use super::{Baghchal, BaghchalAction, Repetition, GOATS};
use crate::game::Player;

/// At least any position's number of legal moves (reserved once so pushes do not reallocate):
/// placements at most 21, tiger moves at most 32 (8 lines for each of 4 tigers), goat steps at
/// most 84 (8 lines per goat and 8 per empty point, with 21 points shared between them).
const MAX_MOVES: usize = 96;

impl Baghchal {
    /// Appends the legal moves of the side to move (excluding a forced pass) to `buf`, in the
    /// fixed order. The fast path for when no repetition rule filters moves.
    #[inline]
    pub(super) fn push_moves(&self, buf: &mut Vec<BaghchalAction>) {
        if self.rules.repetition == Repetition::NoRecreate && self.in_hand == 0 {
            self.for_each_move(|a| {
                buf.push(a);
                true
            });
            return;
        }
        buf.reserve(MAX_MOVES);
        let empty = board::ALL & !(self.goats | self.tigers);
        if self.to_move == GOATS {
            if self.in_hand > 0 {
                for p in board::bits(empty) {
                    buf.push(BaghchalAction::Place(p));
                }
            } else {
                for from in board::bits(self.goats) {
                    for to in board::bits(STEPS[from as usize] & empty) {
                        buf.push(BaghchalAction::Step { from, to });
                    }
                }
            }
        } else {
            for from in board::bits(self.tigers) {
                let steps = STEPS[from as usize] & empty;
                let targets = tiger_targets(from as usize, self.goats, empty);
                for to in board::bits(targets) {
                    buf.push(if steps & (1 << to) != 0 {
                        BaghchalAction::Step { from, to }
                    } else {
                        BaghchalAction::Jump { from, to }
                    });
                }
            }
        }
    }

    /// Calls `f` on each legal move of the side to move (excluding a forced pass) in the fixed
    /// order, stopping early when `f` returns `false`. Returns `false` if stopped.
    pub(super) fn for_each_move(&self, mut f: impl FnMut(BaghchalAction) -> bool) -> bool {
        let no_recreate = self.rules.repetition == Repetition::NoRecreate
            && self.in_hand == 0
            && !self.history.is_empty();
        let mut emit = |a: BaghchalAction| {
            if no_recreate && self.history.contains(&self.hash_after(a)) {
                return true;
            }
            f(a)
        };
        let empty = board::ALL & !(self.goats | self.tigers);
        if self.to_move == GOATS {
            if self.in_hand > 0 {
                for p in board::bits(empty) {
                    if !emit(BaghchalAction::Place(p)) {
                        return false;
                    }
                }
                return true;
            }
            for from in board::bits(self.goats) {
                for to in board::bits(STEPS[from as usize] & empty) {
                    if !emit(BaghchalAction::Step { from, to }) {
                        return false;
                    }
                }
            }
            return true;
        }
        for from in board::bits(self.tigers) {
            let targets = STEPS[from as usize] & empty | jump_targets(from, self.goats, empty);
            for to in board::bits(targets) {
                let a = if board::is_step(from, to) {
                    BaghchalAction::Step { from, to }
                } else {
                    BaghchalAction::Jump { from, to }
                };
                if !emit(a) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `side` has a legal move (a forced pass not counted) if it were to move.
    pub(super) fn has_move(&self, side: Player) -> bool {
        debug_assert_eq!(side, self.to_move);
        if self.rules.repetition == Repetition::NoRecreate && self.in_hand == 0 {
            return !self.for_each_move(|_| false);
        }
        let empty = board::ALL & !(self.goats | self.tigers);
        if side == GOATS {
            // During placement there are always empty points: at most 19 goats and 4 tigers
            // stand on 25 points while a goat is still in hand.
            if self.in_hand > 0 {
                return empty != 0;
            }
            return board::neighbours(self.goats) & empty != 0;
        }
        board::bits(self.tigers).any(|t| tiger_targets(t as usize, self.goats, empty) != 0)
    }
}

/// The landing points of a tiger's jumps from `from`: a goat on the adjacent point of a line and
/// the point behind it empty.
#[inline]
pub(super) fn jump_targets(
    from: u8,
    goats: board::Bitboard,
    empty: board::Bitboard,
) -> board::Bitboard {
    let mut out = 0;
    for over in board::bits(JUMPABLE[from as usize] & goats) {
        out |= 1 << (2 * u32::from(over) - u32::from(from));
    }
    out & empty
}
