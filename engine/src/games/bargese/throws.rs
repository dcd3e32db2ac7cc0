//! The six cowries and what each throw is worth.
//!
//! The DLP summaries (Finkel 2002 §1604.3, and §S.3) and Tajeddin (§1604.T2) agree on the throws, named by
//! how many of six cowries land mouths up: none, shaka, 6 and another throw; one, dust, 11 and
//! another throw; two, doi, 2; three, t'laite, 3; four, arba, 4; five, bange, 25 and another
//! throw; six, bara, 12 and another throw.

use std::fmt;

/// One throw of the six cowries, by mouths up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Throw {
    /// No mouth up: 6 and another throw.
    Shaka = 0,
    /// One mouth up: 11 and another throw, or the hal and 10, or a piece entering on the X.
    Dust = 1,
    /// Two mouths up: 2.
    Doi = 2,
    /// Three mouths up: 3.
    Tlaite = 3,
    /// Four mouths up: 4.
    Arba = 4,
    /// Five mouths up: 25 and another throw, or the hal and 24, or a piece entering on the
    /// bange square.
    Bange = 5,
    /// Six mouths up: 12 and another throw.
    Bara = 6,
}

impl Throw {
    /// All throws by mouths up.
    pub const ALL: [Throw; 7] = [
        Throw::Shaka,
        Throw::Dust,
        Throw::Doi,
        Throw::Tlaite,
        Throw::Arba,
        Throw::Bange,
        Throw::Bara,
    ];

    /// The throw with this many mouths up.
    ///
    /// # Panics
    /// If `mouths > 6`.
    #[must_use]
    pub const fn from_mouths(mouths: u8) -> Throw {
        Throw::ALL[mouths as usize]
    }

    /// How many cowries are mouths up.
    #[must_use]
    pub const fn mouths(self) -> u8 {
        self as u8
    }

    /// The number of squares the whole throw moves one piece.
    #[must_use]
    pub const fn value(self) -> u8 {
        VALUES[self as usize]
    }

    /// Whether the throw grants another throw (shaka, dust, bange, bara).
    #[must_use]
    pub const fn grants_another(self) -> bool {
        matches!(
            self,
            Throw::Shaka | Throw::Dust | Throw::Bange | Throw::Bara
        )
    }

    /// Whether the throw carries the hal (dust and bange).
    #[must_use]
    pub const fn has_hal(self) -> bool {
        matches!(self, Throw::Dust | Throw::Bange)
    }

    /// The source's name of the throw.
    #[must_use]
    pub const fn name(self) -> &'static str {
        NAMES[self as usize]
    }

    /// Reads a throw's name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Throw> {
        NAMES.iter().position(|&n| n == name).map(|i| Throw::ALL[i])
    }
}

impl fmt::Display for Throw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Each throw's value by mouths up.
pub const VALUES: [u8; 7] = [6, 11, 2, 3, 4, 25, 12];
const NAMES: [&str; 7] = ["shaka", "dust", "doi", "t'laite", "arba", "bange", "bara"];

/// Binomial coefficients `C(n, k)` for `n` up to 6.
const fn choose(n: u32, k: u32) -> f64 {
    let mut r = 1u64;
    let mut i = 0;
    while i < k {
        r = r * (n - i) as u64 / (i + 1) as u64;
        i += 1;
    }
    r as f64
}

/// The probability that `k` of `n` shells land mouths up, each independently with
/// probability `p`.
#[must_use]
pub fn binomial(n: u32, k: u32, p: f64) -> f64 {
    let q = 1.0 - p;
    let mut prob = choose(n, k);
    for _ in 0..k {
        prob *= p;
    }
    for _ in k..n {
        prob *= q;
    }
    prob
}
