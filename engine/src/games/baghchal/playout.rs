//! A fast uniformly random playout: the same draws and the same games as the generic
//! [`crate::game::Game::random_playout`], without writing the legal moves to a buffer.
//!
//! At each ply it counts the legal moves, draws `k = rng.gen_range(0..n)` and finds the k-th
//! move in the order [`crate::game::Game::legal_actions`] uses, so it picks exactly the action the generic
//! loop would. Repetition rules need the history and go through the generic loop.

use rand::Rng;

use super::board::{self, Bitboard, STEPS};
use super::movegen::jump_targets;
use super::{Baghchal, BaghchalAction, Repetition, GOATS};
use crate::game::ToAct;

/// The k-th lowest set bit of `b` (k from 0).
#[inline]
fn select(mut b: Bitboard, k: u32) -> u8 {
    for _ in 0..k {
        b &= b - 1;
    }
    b.trailing_zeros() as u8
}

impl Baghchal {
    /// Plays uniformly random moves to the end; see the module doc.
    pub(super) fn fast_random_playout<R: Rng>(&mut self, rng: &mut R) {
        debug_assert_eq!(self.rules.repetition, Repetition::None);
        // The Zobrist hash is not needed inside the playout (no repetition rule reads it), so
        // the board is updated without it and the hash recomputed once at the end.
        while let ToAct::Decision(_) = self.status {
            let a = self.random_move(rng);
            self.apply_board(a);
            self.to_move = self.to_move.opponent();
            self.plies += 1;
            self.status = self.compute_status();
        }
        self.hash = self.hash_from_scratch();
    }

    #[inline]
    fn random_move<R: Rng>(&self, rng: &mut R) -> BaghchalAction {
        let empty = board::ALL & !(self.goats | self.tigers);
        if self.to_move == GOATS {
            if self.in_hand > 0 {
                let k = rng.gen_range(0..empty.count_ones() as usize);
                return BaghchalAction::Place(select(empty, k as u32));
            }
            let mut n = 0;
            for g in board::bits(self.goats) {
                n += (STEPS[g as usize] & empty).count_ones();
            }
            if n == 0 {
                // A forced pass (goats-blocked=pass): the generic loop still draws from 0..1.
                let _ = rng.gen_range(0..1usize);
                return BaghchalAction::Pass;
            }
            let mut k = rng.gen_range(0..n as usize) as u32;
            for from in board::bits(self.goats) {
                let t = STEPS[from as usize] & empty;
                let m = t.count_ones();
                if k < m {
                    return BaghchalAction::Step {
                        from,
                        to: select(t, k),
                    };
                }
                k -= m;
            }
            unreachable!("k is below the move count");
        }
        let mut targets = [0 as Bitboard; 4];
        let mut from = [0u8; 4];
        let mut n = 0;
        for (i, t) in board::bits(self.tigers).enumerate() {
            from[i] = t;
            targets[i] = STEPS[t as usize] & empty | jump_targets(t, self.goats, empty);
            n += targets[i].count_ones();
        }
        let mut k = rng.gen_range(0..n as usize) as u32;
        for i in 0..4 {
            let m = targets[i].count_ones();
            if k < m {
                let (f, to) = (from[i], select(targets[i], k));
                return if board::is_step(f, to) {
                    BaghchalAction::Step { from: f, to }
                } else {
                    BaghchalAction::Jump { from: f, to }
                };
            }
            k -= m;
        }
        unreachable!("tigers to move always have a move here: blocked tigers end the game");
    }
}
