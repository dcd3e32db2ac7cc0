//! Frangieh's rule set: the seed's rules (`barakat-1974`, the default) and GNU Backgammon's rules
//! without the cube (`modern`), with an option for each point where they differ.
//! `docs/rules/frangieh.md` explains each choice.

use crate::games::tables::{BearOff, Direction, Landing, TablesParams, STANDARD_START};
use crate::rules::{format_ply_cap, parse_ply_cap, OptionInfo, RuleError, RuleSet, VariantInfo};

/// How the first player is chosen and what the first turn plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// Seed 002: each player rolls one die, the higher plays first "and then rolls again to
    /// begin play" (a fresh roll of two dice).
    Seed,
    /// Modern backgammon: the higher plays the two opening dice as its first roll.
    Modern,
}

/// How a finished game is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Seed 002: "the first player to remove all of their pieces wins" — one point.
    Single,
    /// Modern: 2 points (gammon) if the loser has borne off no checker, 3 (backgammon) if
    /// besides it still has a checker on the bar or in the winner's home board.
    Gammons,
}

/// The rules of a Frangieh game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrangiehRules {
    /// When either die but not both can be played, the larger must be (`larger-die`).
    pub larger_die: bool,
    /// A die higher than the highest occupied point bears off from it (`bear-off=higher`);
    /// otherwise only exact numbers bear off (`bear-off=exact`).
    pub higher_die_bear_off: bool,
    /// The opening (`opening`).
    pub opening: Opening,
    /// Scoring (`scoring`).
    pub scoring: Scoring,
    /// The ply cap, if any (`ply-cap`); a game reaching it is truncated.
    pub ply_cap: Option<u32>,
}

impl FrangiehRules {
    /// The seed's rules read literally, silent points resolved (the default, `barakat-1974`).
    pub const BARAKAT_1974: FrangiehRules = FrangiehRules {
        larger_die: false,
        higher_die_bear_off: false,
        opening: Opening::Seed,
        scoring: Scoring::Single,
        ply_cap: None,
    };

    /// GNU Backgammon's rules without the doubling cube (`modern`).
    pub const MODERN: FrangiehRules = FrangiehRules {
        larger_die: true,
        higher_die_bear_off: true,
        opening: Opening::Modern,
        scoring: Scoring::Gammons,
        ply_cap: None,
    };

    /// The parameters of the shared tables generator for these rules.
    #[must_use]
    pub fn tables(&self) -> TablesParams {
        TablesParams {
            // Seed 002: points 6 (five), 8 (three), 13 (five), 24 (two) from each track's
            // origin, the tracks running in opposite directions.
            start: STANDARD_START,
            direction: Direction::Opposite,
            // Seed 002: a single opposing piece is hit to the centre; two or more block.
            landing: Landing::Hit,
            bear_off: BearOff {
                higher_die: self.higher_die_bear_off,
                early_exact: false,
            },
            larger_die: self.larger_die,
        }
    }
}

impl Default for FrangiehRules {
    fn default() -> Self {
        FrangiehRules::BARAKAT_1974
    }
}

const VARIANTS: &[VariantInfo] = &[
    VariantInfo {
        name: "barakat-1974",
        source: "seed 002 (DLP evidence 1769, Barakat 1974: 12-16) read literally: all dice if possible, exact bear-off, one-die opening then a new roll, single wins",
    },
    VariantInfo {
        name: "modern",
        source: "GNU Backgammon's rules without the cube: larger die, higher-die bear-off, opening dice played, gammons and backgammons",
    },
];

const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        key: "larger-die",
        values: "on or off",
    },
    OptionInfo {
        key: "bear-off",
        values: "exact or higher",
    },
    OptionInfo {
        key: "opening",
        values: "seed or modern",
    },
    OptionInfo {
        key: "scoring",
        values: "single or gammons",
    },
    OptionInfo {
        key: "ply-cap",
        values: "a positive number of plies, or none",
    },
];

impl RuleSet for FrangiehRules {
    const GAME: &'static str = "frangieh";

    fn variants() -> &'static [VariantInfo] {
        VARIANTS
    }

    fn option_info() -> &'static [OptionInfo] {
        OPTIONS
    }

    fn variant(name: &str) -> Result<Self, RuleError> {
        match name {
            "barakat-1974" => Ok(FrangiehRules::BARAKAT_1974),
            "modern" => Ok(FrangiehRules::MODERN),
            _ => Err(Self::unknown_variant(name)),
        }
    }

    fn set_option(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        let bad = |expected| RuleError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected,
        };
        match key {
            "larger-die" => {
                self.larger_die = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(bad("on or off")),
                }
            }
            "bear-off" => {
                self.higher_die_bear_off = match value {
                    "higher" => true,
                    "exact" => false,
                    _ => return Err(bad("exact or higher")),
                }
            }
            "opening" => {
                self.opening = match value {
                    "seed" => Opening::Seed,
                    "modern" => Opening::Modern,
                    _ => return Err(bad("seed or modern")),
                }
            }
            "scoring" => {
                self.scoring = match value {
                    "single" => Scoring::Single,
                    "gammons" => Scoring::Gammons,
                    _ => return Err(bad("single or gammons")),
                }
            }
            "ply-cap" => self.ply_cap = parse_ply_cap(key, value)?,
            _ => return Err(Self::unknown_option(key)),
        }
        Ok(())
    }

    fn resolved(&self) -> Vec<(&'static str, String)> {
        vec![
            (
                "larger-die",
                if self.larger_die { "on" } else { "off" }.into(),
            ),
            (
                "bear-off",
                if self.higher_die_bear_off {
                    "higher"
                } else {
                    "exact"
                }
                .into(),
            ),
            (
                "opening",
                match self.opening {
                    Opening::Seed => "seed",
                    Opening::Modern => "modern",
                }
                .into(),
            ),
            (
                "scoring",
                match self.scoring {
                    Scoring::Single => "single",
                    Scoring::Gammons => "gammons",
                }
                .into(),
            ),
            ("ply-cap", format_ply_cap(self.ply_cap)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_and_options_read_back() {
        assert_eq!(FrangiehRules::default(), FrangiehRules::BARAKAT_1974);
        let m = FrangiehRules::variant("modern").unwrap();
        assert!(m.larger_die && m.higher_die_bear_off);
        assert_eq!(m.scoring, Scoring::Gammons);
        let mut r = FrangiehRules::variant("barakat-1974").unwrap();
        r.set_option("larger-die", "on").unwrap();
        r.set_option("ply-cap", "300").unwrap();
        let mut back = FrangiehRules::MODERN;
        for (k, v) in r.resolved() {
            back.set_option(k, &v).unwrap();
        }
        assert_eq!(back, r);
    }

    #[test]
    fn bad_options_name_the_value() {
        let mut r = FrangiehRules::default();
        let e = r.set_option("bear-off", "early").unwrap_err().to_string();
        assert!(e.contains("'early'") && e.contains("bear-off"), "{e}");
        let e = r.set_option("cube", "on").unwrap_err().to_string();
        assert!(e.contains("'cube'"), "{e}");
        assert!(FrangiehRules::variant("tawula").is_err());
    }
}
