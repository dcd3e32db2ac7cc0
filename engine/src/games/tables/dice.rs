//! The roll of two six-sided dice: 21 distinct outcomes (unordered pairs).

/// A roll of two dice, larger first (`Roll(6, 1)`, `Roll(3, 3)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Roll(pub u8, pub u8);

impl Roll {
    /// Whether both dice show the same number.
    #[must_use]
    pub const fn is_double(self) -> bool {
        self.0 == self.1
    }

    /// The roll with the dice in either order, stored larger first.
    ///
    /// # Panics
    /// If a die is not from 1 to 6.
    #[must_use]
    pub fn new(a: u8, b: u8) -> Roll {
        assert!(
            (1..=6).contains(&a) && (1..=6).contains(&b),
            "dice are 1 to 6"
        );
        Roll(a.max(b), a.min(b))
    }

    /// Its probability: 1/36 for a double, 1/18 otherwise.
    #[must_use]
    pub fn probability(self) -> f64 {
        if self.is_double() {
            1.0 / 36.0
        } else {
            1.0 / 18.0
        }
    }
}

/// The 21 distinct rolls, larger die first, in the order 1-1, 2-1, 2-2, 3-1, ..., 6-6.
pub const ROLLS: [Roll; 21] = {
    let mut out = [Roll(1, 1); 21];
    let mut i = 0;
    let mut hi = 1;
    while hi <= 6 {
        let mut lo = 1;
        while lo <= hi {
            out[i] = Roll(hi, lo);
            i += 1;
            lo += 1;
        }
        hi += 1;
    }
    out
};

/// The index of a roll in [`ROLLS`].
#[must_use]
pub const fn roll_index(r: Roll) -> usize {
    let hi = r.0 as usize;
    let lo = r.1 as usize;
    hi * (hi - 1) / 2 + lo - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_one_rolls_summing_to_one() {
        let sum: f64 = ROLLS.iter().map(|r| r.probability()).sum();
        assert!((sum - 1.0).abs() < 1e-12);
        for (i, r) in ROLLS.iter().enumerate() {
            assert_eq!(roll_index(*r), i);
        }
        assert_eq!(ROLLS.iter().filter(|r| r.is_double()).count(), 6);
    }
}
