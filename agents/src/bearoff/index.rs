//! The positions of a one-sided bear-off database and their index: a side's checkers on its
//! six home points (0 to 15 in all), ranked by the combinatorial number system.
//!
//! A position `c` (checkers on points 1 to 6, `c[0]` on the 1-point) with `sum(c) <= 15` is a
//! placement of six bars among 21 slots (stars and bars: the 15 checkers and the slack of the
//! checkers already borne off): bar `i` (1 to 6) at `b_i = c_1 + ... + c_i + i - 1`. Its index is
//! `sum C(b_i, i)`, a bijection onto `0..C(21, 6)` = `0..54_264`; the empty position is 0.

/// The home points.
pub const POINTS: usize = 6;
/// The most checkers a side has (Barakat 1974 §1769.2, §1773.1).
pub const CHECKERS: usize = 15;
/// Positions of 0 to 15 checkers on six points: C(21, 6).
pub const POSITIONS: usize = 54_264;

/// A side's checkers on its home points 1 to 6 (`[0]` on the 1-point).
pub type Home = [u8; POINTS];

const fn binomials() -> [[u32; POINTS + 1]; 22] {
    let mut t = [[0u32; POINTS + 1]; 22];
    let mut n = 0;
    while n < 22 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= POINTS && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// `C(n, k)` for `n <= 21`, `k <= 6` (0 where `k > n`).
const BINOMIAL: [[u32; POINTS + 1]; 22] = binomials();

/// The index of `home` (at most 15 checkers).
#[inline]
#[must_use]
pub fn index(home: &Home) -> usize {
    let mut sum = 0usize;
    let mut idx = 0u32;
    for (i, &c) in home.iter().enumerate() {
        sum += usize::from(c);
        idx += BINOMIAL[sum + i][i + 1];
    }
    idx as usize
}

/// Every position, in index order.
#[must_use]
pub fn all() -> Vec<Home> {
    let mut out = vec![[0u8; POINTS]; POSITIONS];
    let mut c = [0u8; POINTS];
    loop {
        out[index(&c)] = c;
        // Next composition of at most 15 checkers (odometer over the six points).
        let mut i = 0;
        loop {
            if i == POINTS {
                return out;
            }
            c[i] += 1;
            if c.iter().map(|&x| usize::from(x)).sum::<usize>() <= CHECKERS {
                break;
            }
            c[i] = 0;
            i += 1;
        }
    }
}

/// The pip count of `home`.
#[must_use]
pub fn pips(home: &Home) -> u32 {
    home.iter()
        .enumerate()
        .map(|(i, &c)| (i as u32 + 1) * u32::from(c))
        .sum()
}

/// The checkers of `home`.
#[must_use]
pub fn checkers(home: &Home) -> u8 {
    home.iter().sum()
}

/// Reads a position written as six counts, 1-point first, separated by commas
/// (`3,0,0,0,0,1`: three on the 1-point, one on the 6-point).
///
/// # Errors
/// Not six whole numbers, or more than fifteen checkers: the reason, naming the text.
pub fn parse(text: &str) -> Result<Home, String> {
    let bad = || {
        format!(
            "bad bear-off position '{text}': expected six counts, 1-point first, at most 15 in all (as 3,0,0,0,0,1)"
        )
    };
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != POINTS {
        return Err(bad());
    }
    let mut home = [0u8; POINTS];
    for (slot, p) in home.iter_mut().zip(&parts) {
        *slot = p.parse().map_err(|_| bad())?;
    }
    if usize::from(checkers(&home)) > CHECKERS {
        return Err(bad());
    }
    Ok(home)
}

/// Writes `home` as [`parse`] reads it.
#[must_use]
pub fn format(home: &Home) -> String {
    let parts: Vec<String> = home.iter().map(u8::to_string).collect();
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_is_a_bijection_onto_c21_6() {
        // C(21, 6) = 21! / (6! 15!) = 54,264: the compositions of 15 into 7 parts.
        assert_eq!(21 * 20 * 19 * 18 * 17 * 16 / 720, POSITIONS);
        let all = all();
        let mut seen = vec![false; POSITIONS];
        for h in &all {
            assert!(usize::from(checkers(h)) <= CHECKERS);
            let i = index(h);
            assert!(!seen[i]);
            seen[i] = true;
        }
        assert_eq!(index(&[0; 6]), 0);
        assert_eq!(index(&[15, 0, 0, 0, 0, 0]), POSITIONS - 1);
        // 15 checkers on six points: C(20, 5) = 15,504 positions.
        assert_eq!(all.iter().filter(|h| checkers(h) == 15).count(), 15_504);
    }

    #[test]
    fn notation_round_trips_and_refuses_bad_text() {
        let h = parse("3,0,0,0,0,1").unwrap();
        assert_eq!(h, [3, 0, 0, 0, 0, 1]);
        assert_eq!(format(&h), "3,0,0,0,0,1");
        for bad in ["1,2,3", "9,9,0,0,0,0", "a,0,0,0,0,0", ""] {
            assert!(parse(bad).unwrap_err().contains(bad), "{bad}");
        }
    }
}
