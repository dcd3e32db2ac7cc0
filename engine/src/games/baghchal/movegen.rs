//! The rules of moving, and move generation from them.
//!
//! The rules are the four functions at the top: [`placement_points`], [`goat_steps`],
//! [`tiger_moves`] and [`captures`] (with [`jump_targets`]), each citing its source. Everything
//! else here and the fast forms elsewhere ([`super::window::tiger_targets`],
//! [`board::step_count`], [`board::neighbours`], the playout in [`super::playout`]) call them or
//! are tested equal to them.
//!
//! Order (fixed): placements by ascending point; otherwise for each piece of the side to move
//! by ascending point, its moves by ascending destination point (a tiger's steps and jumps
//! interleaved by destination).

use super::board::{self, Bitboard, JUMPABLE, STEPS};
use super::window::tiger_targets;
use super::{Baghchal, BaghchalAction, Repetition, GOATS};
use crate::game::Player;

/// The points a goat in hand may be placed on: any empty point (Parlett 1976, DLP.Evidence.755:
/// "places a goat on any unoccupied point of the grid"; Averbakh 1995, DLP.Evidence.1453: the
/// goats "are entered one at a time").
#[inline]
#[must_use]
pub(super) const fn placement_points(empty: Bitboard) -> Bitboard {
    empty
}

/// The points a goat on `from` may step to: the adjacent points along a line that are empty
/// (Parlett 1976, DLP.Evidence.755: once all 20 are placed, "moving a goat to an adjacent
/// unoccupied point"; "Goats may not jump").
#[inline]
#[must_use]
pub(super) const fn goat_steps(from: u8, empty: Bitboard) -> Bitboard {
    STEPS[from as usize] & empty
}

/// The points a tiger on `from` may move to: a step as a goat steps, or a jump over an adjacent
/// goat to the unoccupied point right behind it on the same line, which captures it (Parlett
/// 1976, DLP.Evidence.755, and Averbakh 1995, DLP.Evidence.1453; "only one such jump may be made
/// in one turn", Parlett). Tigers move during the placement phase too. The fast form is
/// [`super::window::tiger_targets`].
#[inline]
#[must_use]
pub(super) fn tiger_moves(from: u8, goats: Bitboard, empty: Bitboard) -> Bitboard {
    goat_steps(from, empty) | jump_targets(from, goats, empty)
}

/// Whether a tiger's move from `from` to `to` is a jump, which captures the goat on
/// [`BaghchalAction::captured_point`]: every move that is not a step.
#[inline]
#[must_use]
pub(super) const fn captures(from: u8, to: u8) -> bool {
    !board::is_step(from, to)
}

/// At least any position's number of legal moves (reserved once so pushes do not reallocate):
/// placements at most 21, tiger moves at most 32 (8 lines for each of 4 tigers), goat steps at
/// most 84 (8 lines per goat and 8 per empty point, with 21 points shared between them).
const MAX_MOVES: usize = 96;

/// The action for a tiger's move from `from` to `to`.
#[inline]
fn tiger_action(from: u8, to: u8) -> BaghchalAction {
    if captures(from, to) {
        BaghchalAction::Jump { from, to }
    } else {
        BaghchalAction::Step { from, to }
    }
}

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
                for p in board::bits(placement_points(empty)) {
                    buf.push(BaghchalAction::Place(p));
                }
            } else {
                for from in board::bits(self.goats) {
                    for to in board::bits(goat_steps(from, empty)) {
                        buf.push(BaghchalAction::Step { from, to });
                    }
                }
            }
        } else {
            for from in board::bits(self.tigers) {
                // A target that is not a step is a jump (`captures`), read off the step mask.
                let steps = goat_steps(from, empty);
                for to in board::bits(tiger_targets(from as usize, self.goats, empty)) {
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
                for p in board::bits(placement_points(empty)) {
                    if !emit(BaghchalAction::Place(p)) {
                        return false;
                    }
                }
                return true;
            }
            for from in board::bits(self.goats) {
                for to in board::bits(goat_steps(from, empty)) {
                    if !emit(BaghchalAction::Step { from, to }) {
                        return false;
                    }
                }
            }
            return true;
        }
        for from in board::bits(self.tigers) {
            for to in board::bits(tiger_moves(from, self.goats, empty)) {
                if !emit(tiger_action(from, to)) {
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
                return placement_points(empty) != 0;
            }
            // `neighbours` is the union of `goat_steps`' lines over the goats.
            return board::neighbours(self.goats) & empty != 0;
        }
        board::bits(self.tigers).any(|t| tiger_targets(t as usize, self.goats, empty) != 0)
    }
}

/// The landing points of a tiger's jumps from `from`: a goat on the adjacent point of a line and
/// the point behind it on the same line empty (both sources, as in [`tiger_moves`]).
#[inline]
pub(super) fn jump_targets(from: u8, goats: Bitboard, empty: Bitboard) -> Bitboard {
    let mut out = 0;
    for over in board::bits(JUMPABLE[from as usize] & goats) {
        out |= 1 << (2 * u32::from(over) - u32::from(from));
    }
    out & empty
}
