//! The rule options the tables games share, declared once: `bear-off` and `larger-die`.
//! Each game's option table reuses them with its own field and source.

use super::params::BearOffParams;
use crate::rules::{choice, Choice, SharedOption, Values};

choice! {
    /// Which dice bear a checker off once all of a side's checkers are home (`bear-off`).
    pub enum BearOff {
        /// The modern rule.
        Higher = "higher": "a die higher than the highest occupied point bears off from it",
        /// Barakat 1974 §1769.8: "a 6 from the 6th point, and so on".
        Exact = "exact": "only the exact number bears a checker off",
        /// Ludii 1.3.12's `Frangieh.lud` (its `firstMoveOnTrack` bear-off).
        Rearmost = "rearmost":
            "a die with no other use bears off the rearmost checker it carries past the end",
    }
}

impl BearOff {
    /// The bearing-off parameters of the shared generator for this choice, with exact throws
    /// also before all are home when `early_exact`.
    #[must_use]
    pub const fn params(self, early_exact: bool) -> BearOffParams {
        BearOffParams {
            higher_die: !matches!(self, BearOff::Exact),
            rearmost: matches!(self, BearOff::Rearmost),
            early_exact,
        }
    }
}

/// The `bear-off` option; the game's field is a [`BearOff`].
pub const BEAR_OFF: SharedOption = SharedOption {
    key: "bear-off",
    values: Values::Words(BearOff::WORDS),
    doc: "which dice bear a checker off once all are home",
};

/// The `larger-die` option, an on/off rule.
pub const LARGER_DIE: SharedOption = SharedOption {
    key: "larger-die",
    values: Values::Switch {
        on: "when either die but not both can be played, the larger must be",
        off: "either may be played",
    },
    doc: "whether the larger die must be played when only one of the two can be",
};
