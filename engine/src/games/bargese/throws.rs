//! The six cowries and what each throw is worth.
//!
//! The DLP summaries (Finkel 2002 §1604.3, and §S.3) and Tajeddin (§1604.T2) agree on the throws, named by
//! how many of six cowries land mouths up: none, shaka, 6 and another throw; one, dust, 11 and
//! another throw; two, doi, 2; three, t'laite, 3; four, arba, 4; five, bange, 25 and another
//! throw; six, bara, 12 and another throw. A dust may also be played as the hal (1) and 10, a
//! bange as the hal and 24 [1604.3, 1604.T2]; this file holds those values, `step.rs` where the
//! hal and the rest take a piece.

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

    /// Whether the throw carries the hal (dust and bange): "10 plus the hal entering next to the
    /// kitchen", "24 plus a piece, the hal, entering" [1604.3, 1604.T2].
    #[must_use]
    pub const fn has_hal(self) -> bool {
        matches!(self, Throw::Dust | Throw::Bange)
    }

    /// What is left of the throw when its hal is played apart (the remainder): a dust's 10, a
    /// bange's 24; `None` for a throw without the hal.
    #[must_use]
    pub const fn remainder(self) -> Option<u8> {
        if self.has_hal() {
            Some(self.value() - HAL)
        } else {
            None
        }
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

/// The hal's value: the 1 of a dust or bange that enters a piece next to the kitchen or takes the
/// dodo into it [1604.3, 1604.T2, 1604.T11].
pub const HAL: u8 = 1;

/// The throws that carry the hal ([`Throw::has_hal`]), in mouths-up order: the dust and the bange.
pub const HAL_THROWS: [Throw; 2] = {
    let mut out = [Throw::Shaka; 2];
    let (mut k, mut h) = (0, 0);
    while k < Throw::ALL.len() {
        if Throw::ALL[k].has_hal() {
            out[h] = Throw::ALL[k];
            h += 1;
        }
        k += 1;
    }
    assert!(h == 2, "two throws carry the hal");
    out
};

/// Each of [`HAL_THROWS`] by mouths up, and its remainder ([`Throw::remainder`]).
pub(super) const HAL_KINDS: [(usize, u8); 2] = {
    let mut out = [(0, 0); 2];
    let mut h = 0;
    while h < 2 {
        let t = HAL_THROWS[h];
        let Some(r) = t.remainder() else {
            panic!("a hal throw has a remainder")
        };
        out[h] = (t as usize, r);
        h += 1;
    }
    out
};

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

/// Per throw kind by mouths up: its place in [`HAL_THROWS`] and its remainder, if it carries the
/// hal.
pub(super) const HAL_OF: [Option<(usize, u8)>; 7] = {
    let mut out = [None; 7];
    let mut h = 0;
    while h < HAL_KINDS.len() {
        out[HAL_KINDS[h].0] = Some((h, HAL_KINDS[h].1));
        h += 1;
    }
    out
};
