//! Bargese's rule set: named variants for the sources and an option for every reading where the
//! texts are silent or differ. `docs/rules/bargese.md` explains each choice.

use crate::rules::{format_ply_cap, parse_ply_cap, OptionInfo, RuleError, RuleSet, VariantInfo};

/// How the game begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// Tajeddin (seed 000): each player throws three shells, more mouths up begins (ties throw
    /// again); then the players take turns throwing until one throws a dust or bange, and that
    /// player goes on with a normal turn.
    Shells,
    /// Seed 001 has no opening: player one simply takes the first turn.
    None,
}

/// What a shaka or bara thrown in the opening, before anyone's first dust or bange, is worth.
/// The sources are silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningExtra {
    /// Void (default): only a dust or bange starts the game, any other throw passes the throw
    /// to the other player (seed 000: "players then take turns to throw ... until one player
    /// throws either a dust or bange").
    Void,
    /// Kept: it earns its extra throw and joins the turn if that player then throws a dust or
    /// bange before a throw without a further throw; otherwise the whole chain is void.
    Keep,
}

/// When the throws are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveTiming {
    /// Throw until a throw grants no further throw, then play them all (default; Tajeddin:
    /// "only then should the player commence to move"; DLP: "then, the player moves the pieces
    /// according to the throws").
    ThrowFirst,
    /// Play each throw as soon as it is thrown (Ludii 1.3.12 as the issue describes it).
    AfterEach,
}

/// What a landing on a square holding an opposing piece that cannot be hammered (a homeward
/// piece lying on its side) does. The sources are silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BesideSafe {
    /// The landing is illegal, as on an X held by the opponent (default; seed 000: "two opposing
    /// pieces cannot occupy the same safe space").
    Blocked,
    /// The landing is legal; both stay (and any hammerable opposing piece there is hammered).
    Share,
}

/// Which pieces the hal (the 1 of a dust or bange) may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalStep {
    /// Besides entering a piece and taking the dodo into the kitchen, the hal may step any piece
    /// one square (default; Ludii 1.3.12 has a one-step rule too). Without it a piece one square
    /// short of the dodo could never move again.
    Any,
    /// The strictest reading: the hal only enters a piece or takes the dodo into the kitchen.
    Strict,
}

/// Whether the throws must be used as fully as possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MustUse {
    /// The player must use as many throws as possible, and then as many of the 10s and 24s left
    /// by hals as possible (default; the sources say only that a throw that cannot be used is
    /// lost).
    Max,
    /// The player may leave any throw unused (passing is always legal).
    Free,
}

/// The rules of a Bargese game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BargeseRules {
    /// How the game begins.
    pub opening: Opening,
    /// Shaka and bara before the first dust or bange.
    pub opening_extra: OpeningExtra,
    /// When throws are played.
    pub timing: MoveTiming,
    /// Whether a bange may enter a piece on the player's bange square (both sources say so;
    /// the option exists to measure the rule).
    pub bange_entry: bool,
    /// Whether a piece entering onto an opposing piece (on the bange square) hammers it (`true`,
    /// default: entering is a landing, and "when a piece lands on a space occupied by an
    /// opponent's piece" it is removed) or is blocked by it (`false`). Entry on an X held by the
    /// opponent is always blocked.
    pub entry_hammers: bool,
    /// Whether a homeward piece on its own arm's outer end (track index 75, the first square of
    /// its central row) already lies on its side and cannot be hammered (`true`, default: seed
    /// 000, "pieces entering the central row of the player's arm are placed on their side").
    pub outer_end_home: bool,
    /// Landing beside an opposing piece that cannot be hammered.
    pub beside_safe: BesideSafe,
    /// The chance that one cowrie lands mouths up, strictly between 0 and 1 (default 1/2).
    pub mouth_up: f64,
    /// Whether throws must be used as fully as possible.
    pub must_use: MustUse,
    /// What the hal may move.
    pub hal_step: HalStep,
    /// The ply cap, if any; a game reaching it is truncated.
    pub ply_cap: Option<u32>,
}

/// The default ply cap: the sources set none. 5,000 plies is about forty times the length of a
/// random game (about 125 plies in the default variant, 150 under `ludii`).
pub const DEFAULT_PLY_CAP: u32 = 5000;

impl Default for BargeseRules {
    fn default() -> Self {
        BargeseRules {
            opening: Opening::Shells,
            opening_extra: OpeningExtra::Void,
            timing: MoveTiming::ThrowFirst,
            bange_entry: true,
            entry_hammers: true,
            outer_end_home: true,
            beside_safe: BesideSafe::Blocked,
            mouth_up: 0.5,
            must_use: MustUse::Max,
            hal_step: HalStep::Any,
            ply_cap: Some(DEFAULT_PLY_CAP),
        }
    }
}

const VARIANTS: &[VariantInfo] = &[
    VariantInfo {
        name: "finkel-2002",
        source: "seed 000: Anna Tajeddin's description in Finkel 2002 (three-shell opening, throw first then move)",
    },
    VariantInfo {
        name: "summary",
        source: "seed 001: the shorter DLP summary, which has no opening; otherwise as finkel-2002",
    },
    VariantInfo {
        name: "ludii",
        source: "Ludii 1.3.12 as issue 5 describes it: move after each throw, one-step hal; otherwise as finkel-2002",
    },
];

const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        key: "opening",
        values: "shells or none",
    },
    OptionInfo {
        key: "opening-extra",
        values: "void or keep",
    },
    OptionInfo {
        key: "timing",
        values: "throw-first or after-each",
    },
    OptionInfo {
        key: "bange-entry",
        values: "on or off",
    },
    OptionInfo {
        key: "entry-onto",
        values: "hammer or blocked",
    },
    OptionInfo {
        key: "outer-end",
        values: "home or open",
    },
    OptionInfo {
        key: "beside-safe",
        values: "blocked or share",
    },
    OptionInfo {
        key: "p",
        values: "a number strictly between 0 and 1",
    },
    OptionInfo {
        key: "must-use",
        values: "max or free",
    },
    OptionInfo {
        key: "hal",
        values: "step or strict",
    },
    OptionInfo {
        key: "ply-cap",
        values: "a positive number of plies, or none",
    },
];

impl RuleSet for BargeseRules {
    const GAME: &'static str = "bargese";

    fn variants() -> &'static [VariantInfo] {
        VARIANTS
    }

    fn option_info() -> &'static [OptionInfo] {
        OPTIONS
    }

    fn variant(name: &str) -> Result<Self, RuleError> {
        let base = BargeseRules::default();
        match name {
            "finkel-2002" => Ok(base),
            "summary" => Ok(BargeseRules {
                opening: Opening::None,
                ..base
            }),
            "ludii" => Ok(BargeseRules {
                timing: MoveTiming::AfterEach,
                hal_step: HalStep::Any,
                ..base
            }),
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
            "opening" => {
                self.opening = match value {
                    "shells" => Opening::Shells,
                    "none" => Opening::None,
                    _ => return Err(bad("shells or none")),
                }
            }
            "opening-extra" => {
                self.opening_extra = match value {
                    "void" => OpeningExtra::Void,
                    "keep" => OpeningExtra::Keep,
                    _ => return Err(bad("void or keep")),
                }
            }
            "timing" => {
                self.timing = match value {
                    "throw-first" => MoveTiming::ThrowFirst,
                    "after-each" => MoveTiming::AfterEach,
                    _ => return Err(bad("throw-first or after-each")),
                }
            }
            "bange-entry" => {
                self.bange_entry = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(bad("on or off")),
                }
            }
            "entry-onto" => {
                self.entry_hammers = match value {
                    "hammer" => true,
                    "blocked" => false,
                    _ => return Err(bad("hammer or blocked")),
                }
            }
            "outer-end" => {
                self.outer_end_home = match value {
                    "home" => true,
                    "open" => false,
                    _ => return Err(bad("home or open")),
                }
            }
            "beside-safe" => {
                self.beside_safe = match value {
                    "blocked" => BesideSafe::Blocked,
                    "share" => BesideSafe::Share,
                    _ => return Err(bad("blocked or share")),
                }
            }
            "p" => match value.parse::<f64>() {
                Ok(p) if p > 0.0 && p < 1.0 => self.mouth_up = p,
                _ => return Err(bad("a number strictly between 0 and 1")),
            },
            "must-use" => {
                self.must_use = match value {
                    "max" => MustUse::Max,
                    "free" => MustUse::Free,
                    _ => return Err(bad("max or free")),
                }
            }
            "hal" => {
                self.hal_step = match value {
                    "step" => HalStep::Any,
                    "strict" => HalStep::Strict,
                    _ => return Err(bad("step or strict")),
                }
            }
            "ply-cap" => self.ply_cap = parse_ply_cap(key, value)?,
            _ => return Err(Self::unknown_option(key)),
        }
        Ok(())
    }

    fn resolved(&self) -> Vec<(&'static str, String)> {
        let s = |v: &str| v.to_string();
        vec![
            (
                "opening",
                s(match self.opening {
                    Opening::Shells => "shells",
                    Opening::None => "none",
                }),
            ),
            (
                "opening-extra",
                s(match self.opening_extra {
                    OpeningExtra::Void => "void",
                    OpeningExtra::Keep => "keep",
                }),
            ),
            (
                "timing",
                s(match self.timing {
                    MoveTiming::ThrowFirst => "throw-first",
                    MoveTiming::AfterEach => "after-each",
                }),
            ),
            (
                "bange-entry",
                s(if self.bange_entry { "on" } else { "off" }),
            ),
            (
                "entry-onto",
                s(if self.entry_hammers {
                    "hammer"
                } else {
                    "blocked"
                }),
            ),
            (
                "outer-end",
                s(if self.outer_end_home { "home" } else { "open" }),
            ),
            (
                "beside-safe",
                s(match self.beside_safe {
                    BesideSafe::Blocked => "blocked",
                    BesideSafe::Share => "share",
                }),
            ),
            ("p", self.mouth_up.to_string()),
            (
                "must-use",
                s(match self.must_use {
                    MustUse::Max => "max",
                    MustUse::Free => "free",
                }),
            ),
            (
                "hal",
                s(match self.hal_step {
                    HalStep::Any => "step",
                    HalStep::Strict => "strict",
                }),
            ),
            ("ply-cap", format_ply_cap(self.ply_cap)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolved_options_read_back() {
        let mut r = BargeseRules::variant("ludii").unwrap();
        for o in [
            "opening=none",
            "opening-extra=keep",
            "bange-entry=off",
            "entry-onto=blocked",
            "outer-end=open",
            "beside-safe=share",
            "p=0.52",
            "must-use=free",
            "hal=strict",
            "ply-cap=none",
        ] {
            r.apply_option_text(o).unwrap();
        }
        let mut back = BargeseRules::default();
        for (k, v) in r.resolved() {
            back.set_option(k, &v).unwrap();
        }
        assert_eq!(back, r);
        assert_eq!(r.resolved().len(), OPTIONS.len());
    }

    #[test]
    fn variants_differ_where_documented() {
        let d = BargeseRules::default();
        assert_eq!(BargeseRules::variant("finkel-2002").unwrap(), d);
        assert_eq!(
            BargeseRules::variant("summary").unwrap().opening,
            Opening::None
        );
        assert_eq!(
            BargeseRules::variant("ludii").unwrap().timing,
            MoveTiming::AfterEach
        );
    }

    #[test]
    fn bad_values_are_refused() {
        let mut r = BargeseRules::default();
        for bad in ["p=0", "p=1", "p=x", "hal=maybe", "ply-cap=0"] {
            let e = r.apply_option_text(bad).unwrap_err().to_string();
            assert!(e.contains("bad value"), "{bad}: {e}");
        }
        assert!(r.set_option("colour", "red").is_err());
        assert!(BargeseRules::variant("aleppo").is_err());
    }
}
