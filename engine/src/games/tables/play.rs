//! A whole play: up to four single-die moves, identified by the position it leaves.

use std::hash::{Hash, Hasher};

use super::board::{Board, BAR, OFF};
use super::params::{Landing, TablesParams};

/// Everything one player does with one roll: up to four single-die moves (`from`, `to`) in the
/// mover's numbering (`from` 25 is the bar, `to` 0 is off), stored with the higher `from` first,
/// which is always an order in which they can be made. A pass has no moves.
///
/// Two plays are equal when they leave the same position: equality and hashing use a key of the
/// resulting position relative to the position before the play (which points lose and gain
/// checkers, which blots are hit), not the moves. So `24/21 21/20` and `24/23 23/20` are one
/// action. A play is meaningful only in the position it was generated or parsed in.
#[derive(Clone, Copy, Debug)]
pub struct Play {
    key: u64,
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

impl Play {
    /// The pass: a roll that cannot be played.
    pub const PASS: Play = Play {
        key: 0,
        moves: [[0; 2]; 4],
        len: 0,
    };

    /// A play from its moves and the points (mover's numbering) where it hits a blot. `moves`
    /// are sorted here. Not checked for legality.
    ///
    /// # Panics
    /// If there are more than four moves or four hits.
    #[must_use]
    pub fn from_moves(moves: &[[u8; 2]], hits: &[u8]) -> Play {
        assert!(moves.len() <= 4 && hits.len() <= 4, "at most four moves");
        let mut m = [[0u8; 2]; 4];
        m[..moves.len()].copy_from_slice(moves);
        // Insertion sort, higher (from, to) first.
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && m[j] > m[j - 1] {
                m.swap(j, j - 1);
                j -= 1;
            }
        }
        Play {
            key: result_key(&m[..moves.len()], hits),
            moves: m,
            len: moves.len() as u8,
        }
    }

    /// The play's moves, higher `from` first.
    #[must_use]
    pub fn moves(&self) -> &[[u8; 2]] {
        &self.moves[..self.len as usize]
    }

    /// Whether this is the pass.
    #[must_use]
    pub fn is_pass(&self) -> bool {
        self.len == 0
    }

    /// The key of the resulting position relative to the one before (0 for the pass): the points
    /// that lose checkers, the points that gain them, and the points where blots are hit.
    #[must_use]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Makes the play for `side` on `board`: each move in turn, hitting a lone opposing checker
    /// where it lands (under [`Landing::Hit`]).
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
                if params.landing == Landing::Hit && board.count(o, q) == 1 {
                    board.remove(o, q);
                    board.add(o, BAR);
                }
                board.add(side, to as usize);
            }
        }
    }
}

/// The exact key of a play's result: after cancelling points that appear both as a `from` and
/// as a `to`, the remaining `from`s and `to`s (each sorted, at most four, five bits each, value
/// + 1 so 0 means none) and the hit points. Equal keys for one start position mean equal results.
pub(super) fn result_key(moves: &[[u8; 2]], hits: &[u8]) -> u64 {
    let mut f = [0u8; 4];
    let mut t = [0u8; 4];
    for (i, m) in moves.iter().enumerate() {
        f[i] = m[0] + 1;
        t[i] = m[1] + 1;
    }
    for fi in f.iter_mut() {
        if let Some(tj) = t.iter_mut().find(|tj| **tj != 0 && **tj == *fi) {
            *fi = 0;
            *tj = 0;
        }
    }
    let mut h = [0u8; 4];
    for (i, &p) in hits.iter().enumerate() {
        h[i] = p + 1;
    }
    pack(f) | pack(t) << 20 | pack(h) << 40
}

/// Four 5-bit values sorted descending (so the order they came in does not matter).
fn pack(mut v: [u8; 4]) -> u64 {
    v.sort_unstable_by(|a, b| b.cmp(a));
    v.iter().fold(0u64, |acc, &x| acc << 5 | u64::from(x))
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
