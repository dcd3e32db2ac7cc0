//! Combinations as numbers: the colexicographic rank of a `k`-subset of `n` points (the
//! combinatorial number system, `sum C(p_i, i + 1)` over its points `p_0 < p_1 < ...`), which
//! is also the order of the subsets' bitmasks as integers; its inverse; and squeezing a board
//! bitmask onto the points left free by the tigers.

use cowrie_engine::games::baghchal::Bitboard;

/// `BINOMIAL[n][k]` = C(n, k) for n, k <= 25.
pub static BINOMIAL: [[u32; 26]; 26] = {
    let mut t = [[0u32; 26]; 26];
    let mut n = 0;
    while n < 26 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k), 0 when k > n.
#[must_use]
#[inline]
pub fn binomial(n: u32, k: u32) -> u32 {
    if k > n {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// The points not taken by tigers: 21 of them.
pub const FREE_POINTS: u32 = 21;

/// `RANK7[c][v][k]`: the part of the rank from the bits `v` of the 7-point chunk `c` (points
/// `7c .. 7c + 6`) when `k` points lie below the chunk.
static RANK7: [[[u32; 22]; 128]; 3] = {
    let mut t = [[[0u32; 22]; 128]; 3];
    let mut c = 0;
    while c < 3 {
        let mut v = 0;
        while v < 128 {
            let mut k = 0;
            while k < 22 {
                let mut sum = 0;
                let mut i = 0;
                let mut j = 0;
                while j < 7 {
                    if v >> j & 1 == 1 {
                        let (n, r) = (7 * c + j, k + i + 1);
                        if r <= n && r < 26 {
                            sum += BINOMIAL[n][r];
                        }
                        i += 1;
                    }
                    j += 1;
                }
                t[c][v][k] = sum;
                k += 1;
            }
            v += 1;
        }
        c += 1;
    }
    t
};

/// The colexicographic rank of the subset `m` of the 21 free points (bits 0..21).
#[must_use]
#[inline]
pub fn rank(m: u32) -> u32 {
    debug_assert!(m < 1 << FREE_POINTS);
    let (a, b, c) = (m & 127, m >> 7 & 127, m >> 14);
    let below_b = a.count_ones() as usize;
    let below_c = (m & 0x3FFF).count_ones() as usize;
    RANK7[0][a as usize][0] + RANK7[1][b as usize][below_b] + RANK7[2][c as usize][below_c]
}

/// The `k`-subset of the free points with colexicographic rank `r` (the inverse of [`rank`]).
#[must_use]
pub fn unrank(mut r: u32, k: u32) -> u32 {
    let mut m = 0;
    let mut top = FREE_POINTS;
    for i in (1..=k).rev() {
        // The largest p < top with C(p, i) <= r.
        let mut p = top - 1;
        while binomial(p, i) > r {
            p -= 1;
        }
        m |= 1 << p;
        r -= binomial(p, i);
        top = p;
    }
    m
}

/// The next larger bitmask with the same number of bits (Gosper's hack): the next subset in
/// colexicographic order.
#[must_use]
#[inline]
pub fn next_subset(m: u32) -> u32 {
    let c = m & m.wrapping_neg();
    let r = m + c;
    (((r ^ m) >> 2) / c) | r
}

/// Squeezes `board` (points 0..25) onto the points outside `tigers`, in order: the bit of the
/// `i`-th free point becomes bit `i`.
#[must_use]
#[inline]
pub fn squeeze(board: Bitboard, tigers: Bitboard) -> u32 {
    let mut m = board;
    let mut t = tigers;
    // Highest tiger first, so the lower tigers' positions are unchanged.
    while t != 0 {
        let p = 31 - t.leading_zeros();
        m = (m & ((1 << p) - 1)) | (m >> (p + 1) << p);
        t &= !(1 << p);
    }
    m
}

/// The inverse of [`squeeze`]: spreads bits 0..21 over the points outside `tigers`.
#[must_use]
#[inline]
pub fn spread(m: u32, tigers: Bitboard) -> Bitboard {
    let mut b = m;
    let mut t = tigers;
    // Lowest tiger first.
    while t != 0 {
        let p = t.trailing_zeros();
        b = (b & ((1 << p) - 1)) | (b >> p << (p + 1));
        t &= t - 1;
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_match_the_factorial_formula() {
        let fact = |n: u64| (1..=n).product::<u64>();
        for n in 0..=20u64 {
            for k in 0..=n {
                let want = fact(n) / fact(k) / fact(n - k);
                assert_eq!(u64::from(binomial(n as u32, k as u32)), want);
            }
        }
        assert_eq!(binomial(25, 4), 12650);
        assert_eq!(binomial(21, 16), 20349);
    }

    #[test]
    fn ranks_count_up_in_mask_order() {
        for k in [1, 2, 5, 16, 19, 20] {
            let mut m = (1u32 << k) - 1;
            let total = binomial(FREE_POINTS, k);
            for r in 0..total {
                assert_eq!(rank(m), r, "k {k} m {m:#x}");
                assert_eq!(unrank(r, k), m);
                if r + 1 < total {
                    let next = next_subset(m);
                    assert!(next > m);
                    m = next;
                }
            }
            assert!(m < 1 << FREE_POINTS);
        }
    }

    #[test]
    fn squeeze_and_spread_are_inverse() {
        let tigers = 1 | 1 << 7 | 1 << 12 | 1 << 24;
        let free = ((1u32 << 25) - 1) & !tigers;
        let mut x = 0x1234_5678u32;
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let b = x & free;
            let m = squeeze(b, tigers);
            assert!(m < 1 << FREE_POINTS);
            assert_eq!(m.count_ones(), b.count_ones());
            assert_eq!(spread(m, tigers), b);
        }
        // The first free point is 1 (point 0 holds a tiger).
        assert_eq!(squeeze(1 << 1, tigers), 1);
        assert_eq!(squeeze(1 << 23, tigers), 1 << 20);
    }
}
