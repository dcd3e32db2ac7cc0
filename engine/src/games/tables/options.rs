//! The rule options the tables games share, declared once: `bear-off` and `larger-die`.
//! Each game's option table reuses them with its own field and source.

use crate::rules::{choice, Choice, SharedOption, Values};

choice! {
    /// Which dice bear a checker off once all of a side's checkers are home (`bear-off`).
    pub enum BearOff {
        /// The modern rule.
        Higher = "higher": "a die higher than the highest occupied point bears off from it",
        /// Barakat 1974 §1769.8: "a 6 from the 6th point, and so on".
        Exact = "exact": "only the exact number bears a checker off",
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
