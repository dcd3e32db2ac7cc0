//! A fast uniformly random playout: the same draws and the same games as the generic
//! [`crate::game::Game::random_playout`], without writing the legal moves to a buffer. The
//! rules it plays are [`super::movegen`]'s and [`super::end_rule`]; this file only counts and
//! selects.
//!
//! At each ply it counts the legal moves, draws `k = rng.gen_range(0..n)` and finds the k-th
//! move in the order [`crate::game::Game::legal_actions`] uses, so it picks exactly the action
//! the generic loop would. The status check of [`Baghchal::compute_status`] is fused with the
//! move count (the side to move has no move exactly when the count is zero), and the k-th move
//! is found mostly without data-dependent branches, which random draws would mispredict.
//! Repetition rules need the history and go through the generic loop.

use rand::Rng;

use super::board::{self, Bitboard};
use super::movegen::{captures, goat_steps, placement_points};
use super::window::tiger_targets;
use super::{end_rule, Baghchal, BaghchalAction, Repetition, GOATS, TIGERS};
use crate::game::{EndReason, ToAct};

/// `SELECT_IN_BYTE[byte][k]`: the position of the k-th lowest set bit of `byte`.
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut k, mut i) = (0, 0);
        while i < 8 {
            if b & (1 << i) != 0 {
                t[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// The k-th lowest set bit of `b` (k from 0, below `b.count_ones()`): the byte holding it by
/// comparing `k` with the popcounts below each byte boundary, then a table lookup; no branch
/// whatever `k` is.
#[inline]
fn select(b: Bitboard, k: u32) -> u32 {
    let below = [
        0,
        (b & 0xFF).count_ones(),
        (b & 0xFFFF).count_ones(),
        (b & 0xFF_FFFF).count_ones(),
    ];
    let byte = usize::from(k >= below[1]) + usize::from(k >= below[2]) + usize::from(k >= below[3]);
    let in_byte = (b >> (8 * byte) & 0xFF) as usize;
    8 * byte as u32 + u32::from(SELECT_IN_BYTE[in_byte][(k - below[byte]) as usize])
}

impl Baghchal {
    /// Plays uniformly random moves to the end; see the module doc.
    #[inline(never)]
    pub(super) fn fast_random_playout<R: Rng>(&mut self, rng: &mut R) {
        debug_assert_eq!(self.rules.repetition, Repetition::None);
        if !matches!(self.status, ToAct::Decision(_)) {
            return;
        }
        let rules = self.rules;
        let cap = rules.ply_cap.unwrap_or(u32::MAX);
        let (mut goats, mut tigers) = (self.goats, self.tigers);
        let (mut in_hand, mut captured, mut plies) = (self.in_hand, self.captured, self.plies);
        let mut to_move = self.to_move;
        // Each pass of the loop counts the moves, decides the status as `compute_status` does
        // (the end rules, then the cap) and then plays one ply. The hash is not needed inside
        // the playout (no repetition rule reads it): it is recomputed at the end.
        let status = loop {
            let empty = board::ALL & !(goats | tigers);
            if to_move == GOATS {
                let placing = in_hand > 0;
                // `step_count` is the number of `goat_steps` over all goats.
                let n = if placing {
                    placement_points(empty).count_ones()
                } else {
                    board::step_count(goats, empty)
                };
                if let Some(end) = end_rule(&rules, captured, GOATS, || n > 0) {
                    break ToAct::Terminal(end);
                }
                if plies >= cap {
                    break ToAct::Terminal(EndReason::Truncated);
                }
                if n == 0 {
                    // A forced pass: the generic loop still draws from 0..1.
                    let _ = rng.gen_range(0..1usize);
                } else if placing {
                    let k = rng.gen_range(0..n as usize) as u32;
                    goats |= 1 << select(placement_points(empty), k);
                    in_hand -= 1;
                } else {
                    let mut k = rng.gen_range(0..n as usize) as u32;
                    for from in board::bits(goats) {
                        let t = goat_steps(from, empty);
                        let m = t.count_ones();
                        if k < m {
                            goats ^= (1 << from) | (1 << select(t, k));
                            break;
                        }
                        k -= m;
                    }
                }
            } else {
                // Always four tigers, in ascending order as the move list has them.
                let mut rest = tigers;
                let mut from = [0u32; 4];
                let mut targets = [0 as Bitboard; 4];
                let mut before = [0u32; 4];
                let mut n = 0;
                for i in 0..4 {
                    let t = rest.trailing_zeros();
                    rest &= rest - 1;
                    from[i] = t;
                    targets[i] = tiger_targets(t as usize, goats, empty);
                    before[i] = n;
                    n += targets[i].count_ones();
                }
                if let Some(end) = end_rule(&rules, captured, TIGERS, || n > 0) {
                    break ToAct::Terminal(end);
                }
                if plies >= cap {
                    break ToAct::Terminal(EndReason::Truncated);
                }
                let k = rng.gen_range(0..n as usize) as u32;
                let i = usize::from(k >= before[1])
                    + usize::from(k >= before[2])
                    + usize::from(k >= before[3]);
                let (f, to) = (from[i] as u8, select(targets[i], k - before[i]) as u8);
                tigers ^= (1 << f) | (1 << to);
                let jump = u32::from(captures(f, to));
                goats &= !(jump << BaghchalAction::captured_point(f, to));
                captured += jump as u8;
            }
            to_move = to_move.opponent();
            plies += 1;
        };
        (self.goats, self.tigers) = (goats, tigers);
        (self.in_hand, self.captured, self.plies) = (in_hand, captured, plies);
        self.to_move = to_move;
        self.status = status;
        self.hash = self.hash_from_scratch();
        debug_assert_eq!(self.status, self.compute_status());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_finds_the_kth_set_bit() {
        for b in [1u32, 0b1011_0110, board::ALL, 0x0155_5555, 1 << 24 | 1 << 3] {
            let bits: Vec<u32> = (0..32).filter(|i| b >> i & 1 == 1).collect();
            for (k, &want) in bits.iter().enumerate() {
                assert_eq!(select(b, k as u32), want, "b {b:#x} k {k}");
            }
        }
    }
}
