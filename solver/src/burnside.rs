//! The number of positions of a layer under the symmetries, by Burnside's lemma: the mean over
//! the eight symmetries of the boards each one fixes. Independent of the index, which finds the
//! same number by enumerating canonical boards.

use crate::combin::binomial;
use crate::symmetry;

/// The cycle lengths of symmetry `s` on the 25 points.
fn cycles(s: usize) -> Vec<u32> {
    let mut seen = [false; 25];
    let mut out = Vec::new();
    for p in 0..25 {
        let mut len = 0;
        let mut q = p;
        while !seen[q] {
            seen[q] = true;
            q = symmetry::map_point(s, q);
            len += 1;
        }
        if len > 0 {
            out.push(len);
        }
    }
    out
}

/// Boards fixed by a permutation with these cycles: each cycle all tigers, all goats or all
/// empty, with `tigers` and `goats` points in all (a count over the cycles one at a time,
/// `ways[t][g]` for the cycles so far).
fn fixed(cycles: &[u32], tigers: u32, goats: u32) -> u64 {
    let (nt, ng) = (tigers as usize, goats as usize);
    let mut ways = vec![vec![0u64; ng + 1]; nt + 1];
    ways[0][0] = 1;
    for &len in cycles {
        let len = len as usize;
        let mut next = ways.clone();
        for t in 0..=nt {
            for g in 0..=ng {
                if t >= len {
                    next[t][g] += ways[t - len][g];
                }
                if g >= len {
                    next[t][g] += ways[t][g - len];
                }
            }
        }
        ways = next;
    }
    ways[nt][ng]
}

/// Boards with four tigers and `goats` goats, inequivalent under the symmetries.
#[must_use]
pub fn boards(goats: u32) -> u64 {
    let total: u64 = (0..symmetry::COUNT)
        .map(|s| fixed(&cycles(s), 4, goats))
        .sum();
    debug_assert_eq!(total % 8, 0);
    debug_assert_eq!(
        fixed(&cycles(0), 4, goats),
        u64::from(binomial(25, 4)) * u64::from(binomial(21, goats))
    );
    total / 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_capture_movement_phase_has_the_published_count() {
        // Lim and Nievergelt, "Tigers and Goats is a draw" (Games of No Chance 3, 2009):
        // 88,260,972 positions: 16 to 20 goats on the board, both sides to move.
        let n: u64 = (16..=20).map(|g| 2 * boards(g)).sum();
        assert_eq!(n, 88_260_972);
        assert_eq!(boards(0), 1666);
        assert_eq!(boards(20), 33_481);
    }
}
