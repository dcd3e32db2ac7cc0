//! The rules a database is solved under: the options of `BaghchalRules` that change
//! movement-phase values, and the refusal of those the solver cannot honour.

use cowrie_engine::games::baghchal::{GoatsBlocked, Repetition, TOTAL_GOATS};
use cowrie_engine::BaghchalRules;
use serde::{Deserialize, Serialize};

/// Why a rule set cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// `repetition=no-recreate` makes a position's moves depend on the game's history.
    #[error("the solver cannot take 'repetition=no-recreate': legal moves depend on the history, not the position (use none or threefold-draw)")]
    NoRecreate,
}

/// The options that decide movement-phase values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveRules {
    /// Captures that win for the tigers (`win-captures`).
    pub win_captures: u8,
    /// Whether blocked goats pass (`goats-blocked=pass`) rather than lose.
    pub goats_pass: bool,
}

impl SolveRules {
    /// The solver's view of `rules`. The ply cap is ignored (the database gives the values of
    /// the game without one); `repetition=none` and `threefold-draw` give the same database
    /// (`docs/solver.md` explains why).
    ///
    /// # Errors
    /// [`RulesError::NoRecreate`] for `repetition=no-recreate`.
    pub fn from_rules(rules: &BaghchalRules) -> Result<Self, RulesError> {
        if rules.repetition == Repetition::NoRecreate {
            return Err(RulesError::NoRecreate);
        }
        Ok(SolveRules {
            win_captures: rules.win_captures,
            goats_pass: rules.goats_blocked == GoatsBlocked::Pass,
        })
    }

    /// Whether a board with `goats` goats (all twenty placed) is a tigers' win by captures.
    #[must_use]
    pub fn captures_won(&self, goats: u32) -> bool {
        u32::from(TOTAL_GOATS) - goats >= u32::from(self.win_captures)
    }

    /// The fewest goats of a layer that is not already won by captures.
    #[must_use]
    pub fn lowest_layer(&self) -> u32 {
        u32::from(TOTAL_GOATS) + 1 - u32::from(self.win_captures)
    }

    /// The layers of the movement phase in solving order (fewest goats first): each needs only
    /// the layer below it.
    pub fn layers(&self) -> impl Iterator<Item = u32> {
        self.lowest_layer()..=u32::from(TOTAL_GOATS)
    }
}

impl std::fmt::Display for SolveRules {
    /// The options as `--option` writes them: `win-captures=5,goats-blocked=lose`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let blocked = if self.goats_pass { "pass" } else { "lose" };
        write!(
            f,
            "win-captures={},goats-blocked={blocked}",
            self.win_captures
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowrie_engine::RuleSet;

    #[test]
    fn the_variants_have_their_layers() {
        let layers = |v: &str| {
            let r = SolveRules::from_rules(&BaghchalRules::variant(v).unwrap()).unwrap();
            r.layers().collect::<Vec<_>>()
        };
        assert_eq!(layers("five-captures"), vec![16, 17, 18, 19, 20]);
        assert_eq!(layers("averbakh-1995"), (15..=20).collect::<Vec<_>>());
        assert_eq!(layers("parlett-1976"), (1..=20).collect::<Vec<_>>());
        let mut r = BaghchalRules::default();
        r.set_option("repetition", "no-recreate").unwrap();
        assert_eq!(SolveRules::from_rules(&r), Err(RulesError::NoRecreate));
    }
}
