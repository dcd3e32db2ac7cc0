//! Baghchal's rule set: the three sources' win rules as named variants, and options where the
//! texts are silent. `docs/rules/baghchal.md` explains each choice.

use crate::rules::{format_ply_cap, parse_ply_cap, OptionInfo, RuleError, RuleSet, VariantInfo};

/// What happens when the goats, on their turn, have no legal move.
///
/// Blocked *tigers* always lose: seed 003, Parlett 1976 ("unable to make a legal move he has
/// lost") and Averbakh 1995 (goats win by "reducing the tigers to immobility"). Neither text says
/// what happens to blocked goats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoatsBlocked {
    /// The goats lose, mirroring the tigers' rule (default).
    Lose,
    /// The goats pass (an explicit pass ply) and the tigers move again.
    Pass,
}

/// Repetition rules; every source is silent on repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// No repetition rule (default; Ludii 1.3.12 has none either). Cycling games end by the cap.
    None,
    /// The third occurrence of a position (board and player to move) is a draw.
    ThreefoldDraw,
    /// Once all goats are placed, no move may recreate a position that has occurred before
    /// (a common modern rule). A side left with no move is blocked.
    NoRecreate,
}

/// The rules of a Baghchal game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaghchalRules {
    /// Captures that win for the tigers: 5 (`five-captures`), 6 (`averbakh-1995`), 20
    /// (`parlett-1976`).
    pub tiger_win_captures: u8,
    /// What happens to goats with no move.
    pub goats_blocked: GoatsBlocked,
    /// The repetition rule.
    pub repetition: Repetition,
    /// The ply cap, if any; a game reaching it is truncated.
    pub ply_cap: Option<u32>,
}

/// The default ply cap: the sources set none; 1,000 plies is twenty times the mean length of a
/// random game and is not reached by random play under any variant.
pub const DEFAULT_PLY_CAP: u32 = 1000;

impl Default for BaghchalRules {
    fn default() -> Self {
        BaghchalRules {
            tiger_win_captures: 5,
            goats_blocked: GoatsBlocked::Lose,
            repetition: Repetition::None,
            ply_cap: Some(DEFAULT_PLY_CAP),
        }
    }
}

const VARIANTS: &[VariantInfo] = &[
    VariantInfo {
        name: "five-captures",
        source: "modern Nepali rule (Lim and Nievergelt 2009); DLP summary of evidence 1453 (seed 003): tigers win on the 5th capture",
    },
    VariantInfo {
        name: "averbakh-1995",
        source: "evidence 1453 as quoted (seed 003, Averbakh 1995): tigers win when more than five goats are killed, i.e. on the 6th",
    },
    VariantInfo {
        name: "parlett-1976",
        source: "evidence 755 (seed 003, Parlett 1976): tigers win only by capturing all twenty goats",
    },
];

const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        key: "win-captures",
        values: "a number of captures from 1 to 20",
    },
    OptionInfo {
        key: "goats-blocked",
        values: "lose or pass",
    },
    OptionInfo {
        key: "repetition",
        values: "none, threefold-draw or no-recreate",
    },
    OptionInfo {
        key: "ply-cap",
        values: "a positive number of plies, or none",
    },
];

impl RuleSet for BaghchalRules {
    const GAME: &'static str = "baghchal";

    fn variants() -> &'static [VariantInfo] {
        VARIANTS
    }

    fn option_info() -> &'static [OptionInfo] {
        OPTIONS
    }

    fn variant(name: &str) -> Result<Self, RuleError> {
        let captures = match name {
            "five-captures" => 5,
            "averbakh-1995" => 6,
            "parlett-1976" => 20,
            _ => return Err(Self::unknown_variant(name)),
        };
        Ok(BaghchalRules {
            tiger_win_captures: captures,
            ..BaghchalRules::default()
        })
    }

    fn set_option(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        let bad = |expected| RuleError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected,
        };
        match key {
            "win-captures" => match value.parse::<u8>() {
                Ok(n) if (1..=20).contains(&n) => self.tiger_win_captures = n,
                _ => return Err(bad("a number of captures from 1 to 20")),
            },
            "goats-blocked" => {
                self.goats_blocked = match value {
                    "lose" => GoatsBlocked::Lose,
                    "pass" => GoatsBlocked::Pass,
                    _ => return Err(bad("lose or pass")),
                }
            }
            "repetition" => {
                self.repetition = match value {
                    "none" => Repetition::None,
                    "threefold-draw" => Repetition::ThreefoldDraw,
                    "no-recreate" => Repetition::NoRecreate,
                    _ => return Err(bad("none, threefold-draw or no-recreate")),
                }
            }
            "ply-cap" => self.ply_cap = parse_ply_cap(key, value)?,
            _ => return Err(Self::unknown_option(key)),
        }
        Ok(())
    }

    fn resolved(&self) -> Vec<(&'static str, String)> {
        vec![
            ("win-captures", self.tiger_win_captures.to_string()),
            (
                "goats-blocked",
                match self.goats_blocked {
                    GoatsBlocked::Lose => "lose",
                    GoatsBlocked::Pass => "pass",
                }
                .to_string(),
            ),
            (
                "repetition",
                match self.repetition {
                    Repetition::None => "none",
                    Repetition::ThreefoldDraw => "threefold-draw",
                    Repetition::NoRecreate => "no-recreate",
                }
                .to_string(),
            ),
            ("ply-cap", format_ply_cap(self.ply_cap)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_set_the_sources_win_rule() {
        assert_eq!(
            BaghchalRules::variant("five-captures")
                .unwrap()
                .tiger_win_captures,
            5
        );
        assert_eq!(
            BaghchalRules::variant("averbakh-1995")
                .unwrap()
                .tiger_win_captures,
            6
        );
        assert_eq!(
            BaghchalRules::variant("parlett-1976")
                .unwrap()
                .tiger_win_captures,
            20
        );
        assert_eq!(
            BaghchalRules::variant("five-captures").unwrap(),
            BaghchalRules::default()
        );
    }

    #[test]
    fn resolved_options_read_back() {
        let mut r = BaghchalRules::variant("parlett-1976").unwrap();
        r.set_option("repetition", "no-recreate").unwrap();
        r.set_option("ply-cap", "none").unwrap();
        let mut back = BaghchalRules::default();
        for (k, v) in r.resolved() {
            back.set_option(k, &v).unwrap();
        }
        assert_eq!(back, r);
    }

    #[test]
    fn bad_options_name_the_value() {
        let mut r = BaghchalRules::default();
        let e = r.set_option("win-captures", "21").unwrap_err().to_string();
        assert!(e.contains("'21'") && e.contains("win-captures"), "{e}");
        let e = r.set_option("colour", "red").unwrap_err().to_string();
        assert!(e.contains("'colour'"), "{e}");
        let e = BaghchalRules::variant("nepal").unwrap_err().to_string();
        assert!(e.contains("'nepal'"), "{e}");
    }
}
