//! A whole play: up to four single-die moves, identified by the position it leaves.

use std::hash::{Hash, Hasher};

use super::board::{Board, BAR, OFF};
use super::moving::hits;
use super::params::TablesParams;

/// Everything one player does with one roll: up to four single-die moves (`from`, `to`) in the
/// mover's numbering (`from` 25 is the bar, `to` 0 is off), stored in an order in which they can
/// be made (generated plays: the order found; parsed plays: higher `from` first). A pass has no
/// moves.
///
/// Two plays are equal when they leave the same position: equality and hashing use an exact
/// key of the resulting position relative to the position before the play (how many checkers
/// each slot gains or loses, which blots are hit), not the moves. So `24/21 21/20` and
/// `24/23 23/20` are one action. A play is meaningful only in the position it was generated or
/// parsed in.
#[derive(Clone, Copy, Debug)]
pub struct Play {
    key: u128,
    moves: [[u8; 2]; 4],
    len: u8,
}

impl PartialEq for Play {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Play {}

impl Hash for Play {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

/// `9^s` for each slot `s`: the result key is the balanced base-9 number whose digit `s` is the
/// change in the mover's count on slot `s` (between -4 and 4, as a play has at most four
/// moves), which is unique for each change; it stays below `2^83`.
const PLACE: [i128; 26] = {
    let mut out = [0i128; 26];
    let mut v = 1i128;
    let mut i = 0;
    while i < 26 {
        out[i] = v;
        v *= 9;
        i += 1;
    }
    out
};

/// The first bit of the hit set in the key: bit `HIT_BIT + p` is set when the blot on the
/// mover's point `p` is hit.
const HIT_BIT: u32 = 88;

/// The key change of one move from `from` to `to`.
#[inline]
pub(super) fn move_key(from: usize, to: usize) -> i128 {
    PLACE[to] - PLACE[from]
}

/// The key change of hitting the blot on the mover's point `p`.
#[inline]
pub(super) fn hit_key(p: usize) -> i128 {
    1i128 << (HIT_BIT + p as u32)
}

impl Play {
    /// The pass: a roll that cannot be played.
    pub const PASS: Play = Play {
        key: 0,
        moves: [[0; 2]; 4],
        len: 0,
    };

    /// A play from its moves and the points (mover's numbering, each once) where it hits a
    /// blot. The moves are stored higher `from` first, an order in which any playable set of
    /// moves can be made. Not checked for legality.
    ///
    /// # Panics
    /// If there are more than four moves.
    #[must_use]
    pub fn from_moves(moves: &[[u8; 2]], hits: &[u8]) -> Play {
        assert!(moves.len() <= 4, "at most four moves");
        let mut m = [[0u8; 2]; 4];
        m[..moves.len()].copy_from_slice(moves);
        m[..moves.len()].sort_unstable_by(|a, b| b.cmp(a));
        let mut key = 0i128;
        for &[from, to] in moves {
            key += move_key(from as usize, to as usize);
        }
        for &p in hits {
            key += hit_key(p as usize);
        }
        Play::from_key(key, m, moves.len())
    }

    /// A play from a key already computed and its moves in a playable order.
    #[inline]
    pub(super) fn from_key(key: i128, moves: [[u8; 2]; 4], len: usize) -> Play {
        Play {
            key: key as u128,
            moves,
            len: len as u8,
        }
    }

    /// A play from a key already computed and its moves packed in a `u64`: move `i` is
    /// `from` in byte `2i` and `to` in byte `2i + 1` (kept in a register while generating).
    #[inline]
    pub(super) fn from_packed(key: i128, packed: u64, len: usize) -> Play {
        let b = packed.to_le_bytes();
        Play::from_key(
            key,
            [[b[0], b[1]], [b[2], b[3]], [b[4], b[5]], [b[6], b[7]]],
            len,
        )
    }

    /// The play's moves, in an order in which they can be made.
    #[must_use]
    pub fn moves(&self) -> &[[u8; 2]] {
        &self.moves[..self.len as usize]
    }

    /// Whether this is the pass.
    #[must_use]
    pub fn is_pass(&self) -> bool {
        self.len == 0
    }

    /// The exact key of the resulting position relative to the one before (0 for the pass).
    #[must_use]
    pub fn key(&self) -> u128 {
        self.key
    }

    /// Makes the play for `side` on `board`: each move in turn, hitting a lone opposing checker
    /// where it lands (under [`super::Landing::Hit`]); without hits in passing
    /// ([`TablesParams::hit_in_passing`]), only where a checker of `side` stands once all the
    /// moves are made.
    ///
    /// # Panics
    /// If a move starts from an empty slot.
    pub fn apply(&self, board: &mut Board, side: usize, params: &TablesParams) {
        let o = 1 - side;
        for &[from, to] in self.moves() {
            board.remove(side, from as usize);
            if to as usize == OFF {
                board.add(side, OFF);
            } else {
                let q = params.direction.other(to as usize);
                if params.hit_in_passing && hits(params, board.count(o, q), true) {
                    board.remove(o, q);
                    board.add(o, BAR);
                }
                board.add(side, to as usize);
            }
        }
        if !params.hit_in_passing {
            for &[_, to] in self.moves() {
                let (to, q) = (to as usize, params.direction.other(to as usize));
                if to != OFF && hits(params, board.count(o, q), board.count(side, to) > 0) {
                    board.remove(o, q);
                    board.add(o, BAR);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_result_same_key() {
        let a = Play::from_moves(&[[24, 21], [21, 20]], &[]);
        let b = Play::from_moves(&[[24, 23], [23, 20]], &[]);
        assert_eq!(a, b);
        let c = Play::from_moves(&[[13, 10], [24, 23]], &[]);
        let d = Play::from_moves(&[[24, 23], [13, 10]], &[]);
        assert_eq!(c, d);
        assert_ne!(a, c);
        // Hitting on the way is a different result.
        let e = Play::from_moves(&[[24, 21], [21, 20]], &[21]);
        assert_ne!(a, e);
        assert_ne!(a, Play::PASS);
    }
}
