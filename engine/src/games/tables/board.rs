//! The 24-point board: checkers per point for each side in its own numbering, the bar, the
//! borne-off checkers, and an incremental Zobrist hash.

use super::params::{Direction, TablesParams};
use crate::zobrist;

/// Slot of the borne-off checkers in a side's count array.
pub const OFF: usize = 0;
/// Slot of the bar in a side's count array.
pub const BAR: usize = 25;

/// The standard start (backgammon, Frangieh; Barakat 1974 §1769.2): two checkers on the 24-point, five on
/// the 13, three on the 8 and five on the 6, in each side's own numbering.
pub const STANDARD_START: [u8; 24] = {
    let mut s = [0u8; 24];
    s[23] = 2;
    s[12] = 5;
    s[7] = 3;
    s[5] = 5;
    s
};

/// Checkers per side: fifteen (Barakat 1974 §1769.2, §1773.1).
pub const CHECKERS: u8 = 15;

// Keys for (side, slot, count) with count 1..=15 (count 0 contributes nothing).
const KEYS: [u64; 2 * 26 * 16] = zobrist::keys(0x007A_B1E5_u64);

#[inline]
const fn key(side: usize, slot: usize, count: u8) -> u64 {
    if count == 0 {
        0
    } else {
        KEYS[(side * 26 + slot) * 16 + count as usize]
    }
}

/// A tables board: for each side (0 and 1) its checkers on slots 0 (borne off), 1 to 24 (points
/// in its own numbering) and 25 (the bar). `Copy`, 60 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    n: [[u8; 26]; 2],
    hash: u64,
}

impl Board {
    /// The start position of `params`: both sides on `params.start`.
    #[must_use]
    pub fn start(params: &TablesParams) -> Board {
        let mut n = [[0u8; 26]; 2];
        for side in &mut n {
            side[1..25].copy_from_slice(&params.start);
        }
        Board::from_counts(n)
    }

    /// A board from raw counts (`n[side][slot]`), computing its hash. Not checked; see
    /// [`Board::validate`].
    #[must_use]
    pub fn from_counts(n: [[u8; 26]; 2]) -> Board {
        let mut b = Board { n, hash: 0 };
        b.hash = b.hash_from_scratch();
        b
    }

    /// The raw counts, `counts()[side][slot]`.
    #[must_use]
    pub fn counts(&self) -> &[[u8; 26]; 2] {
        &self.n
    }

    /// Checkers of `side` on `slot` (0 borne off, 1 to 24 its own points, 25 the bar).
    #[inline]
    #[must_use]
    pub fn count(&self, side: usize, slot: usize) -> u8 {
        self.n[side][slot]
    }

    /// Checkers of `side` on the bar.
    #[inline]
    #[must_use]
    pub fn bar(&self, side: usize) -> u8 {
        self.n[side][BAR]
    }

    /// Checkers of `side` borne off.
    #[inline]
    #[must_use]
    pub fn off(&self, side: usize) -> u8 {
        self.n[side][OFF]
    }

    /// The pip count of `side`: the sum over its checkers of the distance still to travel (a
    /// checker on point `p` needs `p` pips, one on the bar 25).
    #[must_use]
    pub fn pip_count(&self, side: usize) -> u32 {
        (1..26).map(|s| s as u32 * u32::from(self.n[side][s])).sum()
    }

    /// Whether all of `side`'s checkers still in play are in its home board (points 1 to 6).
    #[must_use]
    pub fn all_home(&self, side: usize) -> bool {
        self.n[side][7..26].iter().all(|&c| c == 0)
    }

    /// The incremental Zobrist hash of the counts.
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash recomputed from the counts, for checking the incremental one.
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for side in 0..2 {
            for slot in 0..26 {
                h ^= key(side, slot, self.n[side][slot]);
            }
        }
        h
    }

    /// Adds one checker of `side` to `slot`.
    #[inline]
    pub fn add(&mut self, side: usize, slot: usize) {
        let c = self.n[side][slot];
        self.hash ^= key(side, slot, c) ^ key(side, slot, c + 1);
        self.n[side][slot] = c + 1;
    }

    /// Removes one checker of `side` from `slot`.
    ///
    /// # Panics
    /// If the slot is empty.
    #[inline]
    pub fn remove(&mut self, side: usize, slot: usize) {
        let c = self.n[side][slot];
        assert!(c > 0, "no checker to remove");
        self.hash ^= key(side, slot, c) ^ key(side, slot, c - 1);
        self.n[side][slot] = c - 1;
    }

    /// Checks the board: fifteen checkers per side and no point held by both sides (`direction`
    /// says which points coincide).
    ///
    /// # Errors
    /// A reason in words.
    pub fn validate(&self, direction: Direction) -> Result<(), String> {
        for side in 0..2 {
            let total: u32 = self.n[side].iter().map(|&c| u32::from(c)).sum();
            if total != u32::from(CHECKERS) {
                return Err(format!(
                    "side {} has {total} checkers (there are {CHECKERS})",
                    side + 1
                ));
            }
        }
        for p in 1..25 {
            if self.n[0][p] > 0 && self.n[1][direction.other(p)] > 0 {
                return Err(format!("point {p} (side 1 numbering) held by both sides"));
            }
        }
        Ok(())
    }

    /// The board seen by `side` in the encoding of GNU Backgammon's tools and of the test data:
    /// `points[i]` is point `i + 1` in `side`'s numbering, positive for `side`'s checkers and
    /// negative for the opponent's; then `[bar of side, bar of opponent]` and
    /// `[off of side, off of opponent]`.
    #[must_use]
    pub fn to_view(&self, side: usize, direction: Direction) -> ([i8; 24], [u8; 2], [u8; 2]) {
        let o = 1 - side;
        let mut points = [0i8; 24];
        for p in 1..25 {
            let mine = self.n[side][p] as i8;
            let theirs = self.n[o][direction.other(p)] as i8;
            points[p - 1] = mine - theirs;
        }
        (
            points,
            [self.n[side][BAR], self.n[o][BAR]],
            [self.n[side][OFF], self.n[o][OFF]],
        )
    }

    /// The inverse of [`Board::to_view`]: a board whose side `side` is the side whose view is
    /// given. Checked with [`Board::validate`].
    ///
    /// # Errors
    /// A reason in words if the view is not a legal position.
    pub fn from_view(
        side: usize,
        points: &[i8; 24],
        bar: [u8; 2],
        off: [u8; 2],
        direction: Direction,
    ) -> Result<Board, String> {
        let o = 1 - side;
        let mut n = [[0u8; 26]; 2];
        for p in 1..25 {
            let v = points[p - 1];
            if v > 0 {
                n[side][p] = v as u8;
            } else if v < 0 {
                n[o][direction.other(p)] = v.unsigned_abs();
            }
        }
        n[side][BAR] = bar[0];
        n[o][BAR] = bar[1];
        n[side][OFF] = off[0];
        n[o][OFF] = off[1];
        // Counts above a side's 15 checkers are refused before the board (and its hash, keyed
        // by count) is built.
        for side_counts in &n {
            let total: u32 = side_counts.iter().map(|&c| u32::from(c)).sum();
            if total > 15 {
                return Err(format!("a player has {total} checkers (at most 15)"));
            }
        }
        let b = Board::from_counts(n);
        b.validate(direction)?;
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_start_has_fifteen_and_167_pips() {
        let total: u32 = STANDARD_START.iter().map(|&c| u32::from(c)).sum();
        assert_eq!(total, 15);
        let b = Board::from_counts({
            let mut n = [[0u8; 26]; 2];
            n[0][1..25].copy_from_slice(&STANDARD_START);
            n[1][1..25].copy_from_slice(&STANDARD_START);
            n
        });
        // 2*24 + 5*13 + 3*8 + 5*6 = 167, the well-known starting pip count.
        assert_eq!(b.pip_count(0), 167);
        assert!(b.validate(Direction::Opposite).is_ok());
    }

    #[test]
    fn a_view_with_more_than_fifteen_checkers_is_refused() {
        let mut points = [0i8; 24];
        points[5] = 105;
        let e = Board::from_view(0, &points, [0, 0], [0, 0], Direction::Opposite).unwrap_err();
        assert!(e.contains("105 checkers"), "{e}");
        points[5] = 15;
        let e = Board::from_view(0, &points, [200, 0], [0, 0], Direction::Opposite).unwrap_err();
        assert!(e.contains("215 checkers"), "{e}");
    }

    #[test]
    fn incremental_hash_matches() {
        let mut b = Board::from_counts([[0; 26]; 2]);
        b.add(0, 5);
        b.add(0, 5);
        b.add(1, 25);
        b.remove(0, 5);
        assert_eq!(b.hash(), b.hash_from_scratch());
        assert_ne!(b.hash(), 0);
    }

    #[test]
    fn same_direction_mapping_is_an_involution() {
        for p in 1..25 {
            let q = Direction::Same.other(p);
            assert!((1..25).contains(&q));
            assert_eq!(Direction::Same.other(q), p);
            assert_eq!(Direction::Opposite.other(Direction::Opposite.other(p)), p);
        }
        // Side 1's 24-point (its start) is side 0's 12-point.
        assert_eq!(Direction::Same.other(24), 12);
    }
}
