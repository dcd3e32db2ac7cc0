//! The Baghchal board: 25 points of a 5x5 alquerque grid as bits of a `u32`, and the step and
//! jump tables, computed once at compile time.
//!
//! Point `p = 5 * row + col`, row 0 at the bottom (rank 1), col 0 at the left (file a).
//! Sources (Parlett 1976 and Averbakh 1995, DLP.Evidence.755 and 1453): both records describe a 5x5 grid "including
//! diagonals", pieces standing on the intersections and moving along the lines; the pattern of
//! the lines is in a figure the records do not contain (§755.1, §1453.1). Our choice, argued in
//! `docs/rules/baghchal.md`: the alquerque pattern, whose diagonals run only through points
//! whose row + column is even; every point has its orthogonal lines.

/// A set of points, one bit per point (bit `p` for point `p`).
pub type Bitboard = u32;

/// Number of points.
pub const POINTS: usize = 25;

/// All 25 points.
pub const ALL: Bitboard = (1 << POINTS) - 1;

/// The four corners, where the tigers start (both sources: "placed on the corners").
pub const CORNERS: Bitboard = 1 | (1 << 4) | (1 << 20) | (1 << 24);

/// The eight line directions (row step, column step): orthogonal first, then diagonal.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Whether a point lies on the diagonals (row + column even).
#[must_use]
pub const fn has_diagonals(p: usize) -> bool {
    (p / 5 + p % 5) & 1 == 0
}

/// The point `k` steps from `p` in direction `d`, if it is on the board and on a line.
const fn along(p: usize, d: usize, k: i32) -> Option<usize> {
    let (dr, dc) = DIRECTIONS[d];
    if d >= 4 && !has_diagonals(p) {
        return None;
    }
    let r = (p / 5) as i32 + dr * k;
    let c = (p % 5) as i32 + dc * k;
    if r < 0 || r > 4 || c < 0 || c > 4 {
        None
    } else {
        Some((r * 5 + c) as usize)
    }
}

const fn step_table() -> [Bitboard; POINTS] {
    let mut t = [0; POINTS];
    let mut p = 0;
    while p < POINTS {
        let mut d = 0;
        while d < 8 {
            if let Some(q) = along(p, d, 1) {
                t[p] |= 1 << q;
            }
            d += 1;
        }
        p += 1;
    }
    t
}

/// A jump: the point jumped over and the landing point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    /// The point of the goat jumped over.
    pub over: u8,
    /// The landing point, right behind it on the same line.
    pub to: u8,
}

/// The jumps from each point, in the order of [`DIRECTIONS`], with their count.
pub struct JumpTable {
    /// Up to eight jumps per point.
    pub jumps: [[Jump; 8]; POINTS],
    /// How many of `jumps[p]` are real.
    pub len: [u8; POINTS],
}

const fn jump_table() -> JumpTable {
    let mut t = JumpTable {
        jumps: [[Jump { over: 0, to: 0 }; 8]; POINTS],
        len: [0; POINTS],
    };
    let mut p = 0;
    while p < POINTS {
        let mut d = 0;
        while d < 8 {
            if let (Some(o), Some(l)) = (along(p, d, 1), along(p, d, 2)) {
                let n = t.len[p] as usize;
                t.jumps[p][n] = Jump {
                    over: o as u8,
                    to: l as u8,
                };
                t.len[p] += 1;
            }
            d += 1;
        }
        p += 1;
    }
    t
}

const fn jumpable_table() -> [Bitboard; POINTS] {
    let mut t = [0; POINTS];
    let mut p = 0;
    while p < POINTS {
        let mut d = 0;
        while d < 8 {
            if let (Some(o), Some(_)) = (along(p, d, 1), along(p, d, 2)) {
                t[p] |= 1 << o;
            }
            d += 1;
        }
        p += 1;
    }
    t
}

/// `JUMPABLE[p]`: the adjacent points a piece on `p` could jump over, those with a point behind
/// them on the same line. The landing point behind `o` is `2 * o - p` (points on a line are
/// evenly spaced in index).
pub static JUMPABLE: [Bitboard; POINTS] = jumpable_table();

/// `STEPS[p]`: the points adjacent to `p` along a line.
pub static STEPS: [Bitboard; POINTS] = step_table();

/// `JUMPS.jumps[p][..JUMPS.len[p]]`: the jumps from `p`.
pub static JUMPS: JumpTable = jump_table();

const FILE_A: Bitboard = 1 | 1 << 5 | 1 << 10 | 1 << 15 | 1 << 20;
const FILE_E: Bitboard = FILE_A << 4;
/// Points with row + column even: the ones on the diagonals.
const DIAGONAL_POINTS: Bitboard = {
    let mut b = 0;
    let mut p = 0;
    while p < POINTS {
        if has_diagonals(p) {
            b |= 1 << p;
        }
        p += 1;
    }
    b
};

/// The points adjacent along a line to any point of `b`: the union of [`STEPS`] over `b`,
/// computed with shifts (east and west masked at the board's edge files; diagonals only from
/// points on the diagonals).
#[must_use]
#[inline]
pub const fn neighbours(b: Bitboard) -> Bitboard {
    let not_a = b & !FILE_A; // may step west
    let not_e = b & !FILE_E; // may step east
    let d = b & DIAGONAL_POINTS;
    let (d_not_a, d_not_e) = (d & !FILE_A, d & !FILE_E);
    ((not_e << 1)
        | (not_a >> 1)
        | (b << 5)
        | (b >> 5)
        | (d_not_e << 6)
        | (d_not_a << 4)
        | (d_not_e >> 4)
        | (d_not_a >> 6))
        & ALL
}

/// The number of steps from the points of `b` to the points of `to` along a line: the sum over
/// `p` in `b` of `(STEPS[p] & to).count_ones()`, computed one direction at a time with shifts
/// (masked as in [`neighbours`]), so without a loop over the pieces.
#[must_use]
#[inline]
pub const fn step_count(b: Bitboard, to: Bitboard) -> u32 {
    let not_a = b & !FILE_A;
    let not_e = b & !FILE_E;
    let d = b & DIAGONAL_POINTS;
    let (d_not_a, d_not_e) = (d & !FILE_A, d & !FILE_E);
    let to = to & ALL;
    (not_e << 1 & to).count_ones()
        + (not_a >> 1 & to).count_ones()
        + (b << 5 & to).count_ones()
        + (b >> 5 & to).count_ones()
        + (d_not_e << 6 & to).count_ones()
        + (d_not_a << 4 & to).count_ones()
        + (d_not_e >> 4 & to).count_ones()
        + (d_not_a >> 6 & to).count_ones()
}

/// Whether `from` and `to` are adjacent along a line.
#[must_use]
#[inline]
pub const fn is_step(from: u8, to: u8) -> bool {
    STEPS[from as usize] & (1 << to) != 0
}

/// The name of a point: file `a`..`e` (column), rank `1`..`5` (row), e.g. `c3` for the centre.
#[must_use]
pub fn point_name(p: u8) -> String {
    let file = (b'a' + p % 5) as char;
    let rank = (b'1' + p / 5) as char;
    format!("{file}{rank}")
}

/// Reads a point name written by [`point_name`].
#[must_use]
pub fn parse_point(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'e').contains(&b[0]) || !(b'1'..=b'5').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 5 + (b[0] - b'a'))
}

/// Iterates the set bits of a bitboard, lowest first.
#[inline]
pub fn bits(b: Bitboard) -> Bits {
    Bits(b)
}

/// The iterator of [`bits`].
#[derive(Clone, Copy, Debug)]
pub struct Bits(Bitboard);

impl Iterator for Bits {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let p = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(p)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degrees_match_the_alquerque_pattern() {
        // Counted by hand on the drawn board: corners 3, the centre 8, c1 (on diagonals, edge) 5,
        // b1 (off diagonals, edge) 3, b2 (on diagonals) 8, c2 (off diagonals) 4.
        let deg = |name: &str| STEPS[parse_point(name).unwrap() as usize].count_ones();
        assert_eq!(deg("a1"), 3);
        assert_eq!(deg("c3"), 8);
        assert_eq!(deg("c1"), 5);
        assert_eq!(deg("b1"), 3);
        assert_eq!(deg("b2"), 8);
        assert_eq!(deg("c2"), 4);
        // 16 orthogonal edges per direction pair: 2 * 20 = 40 orthogonal, plus 16 diagonal
        // segments = 56 lines segments; each counted from both ends.
        let total: u32 = STEPS.iter().map(|s| s.count_ones()).sum();
        assert_eq!(total, 2 * 56);
    }

    #[test]
    fn jumpable_points_have_a_landing_behind() {
        for p in 0..25u8 {
            let mut from_table = 0;
            for j in &JUMPS.jumps[p as usize][..JUMPS.len[p as usize] as usize] {
                from_table |= 1 << j.over;
                assert_eq!(u32::from(j.to), 2 * u32::from(j.over) - u32::from(p));
            }
            assert_eq!(JUMPABLE[p as usize], from_table, "{}", point_name(p));
        }
        // a1 jumps over a2, b1, b2 (to a3, c1, c3); b1 only along its row and column.
        assert_eq!(JUMPABLE[0].count_ones(), 3);
        assert_eq!(JUMPABLE[1], 1 << 2 | 1 << 6);
    }

    #[test]
    fn step_count_equals_the_step_table() {
        let mut x = 0x2545_F491_u32;
        for _ in 0..5000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let (b, to) = (x & ALL, (x >> 7 | x << 11) & ALL);
            let want: u32 = bits(b).map(|p| (STEPS[p as usize] & to).count_ones()).sum();
            assert_eq!(step_count(b, to), want, "{b:#x} {to:#x}");
        }
    }

    #[test]
    fn shifted_neighbours_equal_the_step_table() {
        for (p, &steps) in STEPS.iter().enumerate() {
            assert_eq!(neighbours(1 << p), steps, "{}", point_name(p as u8));
        }
        let b = (1 << 3) | (1 << 12) | (1 << 21);
        assert_eq!(neighbours(b), STEPS[3] | STEPS[12] | STEPS[21]);
    }

    #[test]
    fn point_names_round_trip() {
        for p in 0..25u8 {
            assert_eq!(parse_point(&point_name(p)), Some(p));
        }
        assert_eq!(point_name(0), "a1");
        assert_eq!(point_name(24), "e5");
        assert_eq!(parse_point("f1"), None);
    }
}
