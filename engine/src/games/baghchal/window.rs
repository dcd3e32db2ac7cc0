//! A tiger's targets (the points it can step or jump to) by table lookups and shifts on a
//! window of the board centred on it: no loop over its lines and no branch, which random
//! positions would mispredict. [`super::movegen::jump_targets`] is the plain definition it is
//! tested against.

use super::board::{Bitboard, JUMPS, POINTS, STEPS};

/// A tiger's surroundings are read through a 25-bit window centred on it: window bit `12 + d`
/// is point `from + d`. A line's adjacent point is `from + d` for `d` in
/// {-6, -5, -4, -1, 1, 4, 5, 6}, and its jump lands on `from + 2d`.
const CENTRE: u32 = 12;

/// `JUMP_WINDOW[p]`: the window bits of the landing points of the jumps from `p`.
static JUMP_WINDOW: [u64; POINTS] = {
    let mut t = [0; POINTS];
    let mut p = 0;
    while p < POINTS {
        let mut i = 0;
        while i < JUMPS.len[p] as usize {
            t[p] |= 1 << (CENTRE as usize + JUMPS.jumps[p][i].to as usize - p);
            i += 1;
        }
        p += 1;
    }
    t
};

/// `STEP_WINDOW[p]`: the window bits of the points adjacent to `p` along a line.
static STEP_WINDOW: [u64; POINTS] = {
    let mut t = [0; POINTS];
    let mut p = 0;
    while p < POINTS {
        let mut q = 0;
        while q < POINTS {
            if STEPS[p] & (1 << q) != 0 {
                t[p] |= 1 << (CENTRE as usize + q - p);
            }
            q += 1;
        }
        p += 1;
    }
    t
};

/// The eight adjacent window bits `12 + d`, in ascending order, packed into a byte by
/// [`adjacent_byte`]; `SPREAD[byte]` has the window bit `12 + 2d` of each one set.
static SPREAD: [u64; 256] = {
    const DELTAS: [i32; 8] = [-6, -5, -4, -1, 1, 4, 5, 6];
    let mut t = [0; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            if b & (1 << j) != 0 {
                t[b] |= 1 << (CENTRE as i32 + 2 * DELTAS[j]);
            }
            j += 1;
        }
        b += 1;
    }
    t
};

/// Packs the window bits 6, 7, 8, 11, 13, 16, 17, 18 (the adjacent points) into bits 0 to 7.
#[inline]
fn adjacent_byte(window: u64) -> usize {
    (window >> 6 & 0b111
        | window >> 8 & 0b1000
        | window >> 9 & 0b1_0000
        | window >> 11 & 0b1110_0000) as usize
}

/// The points a tiger on `from` can step or jump to: `STEPS[from] & empty` and
/// [`super::movegen::jump_targets`]`(from, goats, empty)`.
#[inline]
pub(super) fn tiger_targets(from: usize, goats: Bitboard, empty: Bitboard) -> Bitboard {
    let goats = u64::from(goats) << CENTRE >> from;
    let empty = u64::from(empty) << CENTRE >> from;
    let jumps = SPREAD[adjacent_byte(goats)] & JUMP_WINDOW[from];
    let window = (STEP_WINDOW[from] | jumps) & empty;
    (window << from >> CENTRE) as Bitboard
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::baghchal::board::ALL;
    use crate::games::baghchal::movegen::jump_targets;

    #[test]
    fn window_targets_equal_the_move_generator() {
        // Every point, and goats/empty patterns from a simple generator.
        let mut x = 0x9E37_79B9_u32;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let goats = x & ALL;
            let empty = !x >> 3 & ALL & !goats;
            for p in 0..POINTS as u8 {
                let want = STEPS[p as usize] & empty | jump_targets(p, goats, empty);
                assert_eq!(tiger_targets(p as usize, goats, empty), want);
            }
        }
    }
}
