//! The eight symmetries of the Baghchal board (the dihedral group of the square) as point
//! permutations, applied to bitboards by byte tables.
//!
//! The alquerque pattern is invariant under them: rotations and reflections about the centre
//! `c3` keep the parity of row + column (the centre's is even), so they map diagonal points to
//! diagonal points and lines to lines (checked by a test against the engine's step table).

use cowrie_engine::games::baghchal::Bitboard;

/// The number of symmetries.
pub const COUNT: usize = 8;

/// The image of point `p` under symmetry `s`: `s % 4` quarter turns, then for `s >= 4` a
/// reflection in the vertical line through the centre. Symmetry 0 is the identity.
#[must_use]
pub const fn map_point(s: usize, p: usize) -> usize {
    let (mut r, mut c) = (p / 5, p % 5);
    let mut k = 0;
    while k < s % 4 {
        let t = r;
        r = c;
        c = 4 - t;
        k += 1;
    }
    if s >= 4 {
        c = 4 - c;
    }
    r * 5 + c
}

/// `TABLES[s][byte][v]`: the image under `s` of the points `8 * byte + i` for the bits `i` of `v`.
static TABLES: [[[Bitboard; 256]; 4]; COUNT] = {
    let mut t = [[[0; 256]; 4]; COUNT];
    let mut s = 0;
    while s < COUNT {
        let mut byte = 0;
        while byte < 4 {
            let mut v = 0;
            while v < 256 {
                let mut i = 0;
                while i < 8 {
                    let p = byte * 8 + i;
                    if v >> i & 1 == 1 && p < 25 {
                        t[s][byte][v] |= 1 << map_point(s, p);
                    }
                    i += 1;
                }
                v += 1;
            }
            byte += 1;
        }
        s += 1;
    }
    t
};

/// The image of the point set `b` under symmetry `s`.
#[must_use]
#[inline]
pub fn apply(s: usize, b: Bitboard) -> Bitboard {
    let t = &TABLES[s];
    t[0][(b & 0xFF) as usize]
        | t[1][(b >> 8 & 0xFF) as usize]
        | t[2][(b >> 16 & 0xFF) as usize]
        | t[3][(b >> 24 & 0xFF) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowrie_engine::games::baghchal::STEPS;

    #[test]
    fn symmetries_preserve_the_lines() {
        for s in 0..COUNT {
            for p in 0..25 {
                assert_eq!(apply(s, STEPS[p]), STEPS[map_point(s, p)], "s {s} p {p}");
            }
        }
    }

    #[test]
    fn symmetries_are_distinct_permutations_with_identity_first() {
        let images: Vec<Vec<usize>> = (0..COUNT)
            .map(|s| (0..25).map(|p| map_point(s, p)).collect())
            .collect();
        assert_eq!(images[0], (0..25).collect::<Vec<_>>());
        for (i, a) in images.iter().enumerate() {
            let mut sorted = a.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..25).collect::<Vec<_>>());
            for b in &images[..i] {
                assert_ne!(a, b);
            }
        }
        // A quarter turn takes a1 (bottom left) to e1 (bottom right).
        assert_eq!(map_point(1, 0), 4);
    }
}
