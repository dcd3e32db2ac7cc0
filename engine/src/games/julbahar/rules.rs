//! Julbahar's rule set: the seed's rules (`barakat-1974`, the default) and Ludii's reading
//! (`ludii`), with an option for each point where readings differ. `docs/rules/julbahar.md`
//! explains each choice and quotes the sentence each option interprets.

use crate::games::tables::{BearOff, Direction, Landing, TablesParams};
use crate::rules::{format_ply_cap, parse_ply_cap, OptionInfo, RuleError, RuleSet, VariantInfo};

/// How a game is begun (`opening`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// Seed 004: "Play begins with each player throwing the dice. The player who obtains the
    /// higher number goes first, except when doubles are thrown, then the opponent must throw
    /// higher doubles. The player who wins the opening throw moves the opponent's pieces
    /// according to the value of this throw." Each throws two dice; a double beats any
    /// non-double, a higher double a lower one, and between non-doubles the higher total wins;
    /// ties are thrown again.
    Throw,
    /// No opening throw: player one (or the player chosen by [`NextGame`]) simply starts with a
    /// roll of its own, as Ludii plays it.
    None,
}

/// Who plays after the opening throw's winner has moved the opponent's checkers
/// (`after-opening`); seed 004: "Play then continues as usual."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AfterOpening {
    /// The opponent (whose checkers were moved) rolls next: turns alternate from the opening.
    Opponent,
    /// The opening's winner rolls again and moves its own checkers.
    Winner,
}

/// Who starts the second and later games of a match (`next-game`); the seed is silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NextGame {
    /// The same procedure as the first game: a new opening throw (player one under
    /// `opening=none`).
    Opening,
    /// The loser of the previous game rolls first.
    Loser,
    /// The player who did not start the previous game rolls first.
    Alternate,
}

/// When a player who cannot play gives the opponent five points (`bonus`); seed 004:
/// "whenever a player is unable to move and the opponent is able to, the opponent gains five
/// points".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bonus {
    /// Only a complete pass (no die of the roll can be played), and only if the opponent is able
    /// to move: it has a checker that some die (1 to 6) could move.
    Pass,
    /// Every roll not played in full (a complete pass, or a play that leaves a die unplayed),
    /// the opponent able to move as above: Ludii's reading ("on every pass, even after one die
    /// was played").
    Die,
    /// No bonus.
    Off,
}

/// What one `Game` is: the match to the target (default) or a single game (`unit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// The match: ends as soon as a total reaches the target; returns ±1 for the match.
    Match,
    /// One game: ends when a player has borne off all fifteen; returns ±1 for that game.
    Game,
}

/// The rules of Julbahar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JulbaharRules {
    /// The opening (`opening=throw|none`).
    pub opening: Opening,
    /// Who rolls after the opening move (`after-opening=opponent|winner`).
    pub after_opening: AfterOpening,
    /// Who starts later games (`next-game=opening|loser|alternate`).
    pub next_game: NextGame,
    /// A die higher than the highest occupied point bears off from it once all are in the last
    /// quadrant (`bear-off=higher`); otherwise only exact numbers (`bear-off=exact`).
    pub higher_die_bear_off: bool,
    /// When either die but not both can be played, the larger must be (`larger-die=on|off`).
    pub larger_die: bool,
    /// The five-point bonus (`bonus=pass|die|off`).
    pub bonus: Bonus,
    /// The total that ends the match (`target`, 31 by the seed).
    pub target: u32,
    /// Match or single game (`unit=match|game`).
    pub unit: Unit,
    /// The ply cap over the whole unit, if any (`ply-cap`); reaching it truncates.
    pub ply_cap: Option<u32>,
}

/// The default ply cap: far above any random match seen (random matches to 31 average a few
/// hundred plies; see `docs/rules/julbahar.md`).
pub const DEFAULT_PLY_CAP: u32 = 100_000;

impl JulbaharRules {
    /// The seed's rules with silent points resolved (the default, `barakat-1974`).
    pub const BARAKAT_1974: JulbaharRules = JulbaharRules {
        opening: Opening::Throw,
        after_opening: AfterOpening::Opponent,
        next_game: NextGame::Opening,
        higher_die_bear_off: true,
        larger_die: false,
        bonus: Bonus::Pass,
        target: 31,
        unit: Unit::Match,
        ply_cap: Some(DEFAULT_PLY_CAP),
    };

    /// Ludii's reading (`ludii`): no opening throw (player one starts every game), five points
    /// on every roll not played in full.
    pub const LUDII: JulbaharRules = JulbaharRules {
        opening: Opening::None,
        after_opening: AfterOpening::Opponent,
        next_game: NextGame::Opening,
        higher_die_bear_off: true,
        larger_die: false,
        bonus: Bonus::Die,
        target: 31,
        unit: Unit::Match,
        ply_cap: Some(DEFAULT_PLY_CAP),
    };

    /// The parameters of the shared tables generator for these rules.
    #[must_use]
    pub fn tables(&self) -> TablesParams {
        let mut start = [0u8; 24];
        // Seed 004: "Each player's fifteen pieces begin on the first point of their track" —
        // the 24-point in the tables module's numbering (which counts down to 1).
        start[23] = 15;
        TablesParams {
            start,
            // Seed 004: "each player progresses in opposite directions".
            direction: Direction::Opposite,
            // Seed 004: "A piece cannot land on a space occupied by one of the opponent's
            // pieces."
            landing: Landing::Block,
            bear_off: BearOff {
                higher_die: self.higher_die_bear_off,
                // Seed 004: "Until all of the player's remaining pieces are on the final six
                // points, the player may only bear off a piece on one of the final six spaces by
                // throwing exactly one more than the number of remaining points."
                early_exact: true,
            },
            larger_die: self.larger_die,
        }
    }
}

impl Default for JulbaharRules {
    fn default() -> Self {
        JulbaharRules::BARAKAT_1974
    }
}

const VARIANTS: &[VariantInfo] = &[
    VariantInfo {
        name: "barakat-1974",
        source: "seed 004 (DLP evidence 1773, Barakat 1974: 21): two-dice opening throw whose winner moves the opponent's checkers, five points on a complete pass, match to 31",
    },
    VariantInfo {
        name: "ludii",
        source: "Ludii's Julbahar: no opening throw (player one starts), five points on every roll not played in full, match to 31",
    },
];

const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        key: "opening",
        values: "throw or none",
    },
    OptionInfo {
        key: "after-opening",
        values: "opponent or winner",
    },
    OptionInfo {
        key: "next-game",
        values: "opening, loser or alternate",
    },
    OptionInfo {
        key: "bear-off",
        values: "higher or exact",
    },
    OptionInfo {
        key: "larger-die",
        values: "on or off",
    },
    OptionInfo {
        key: "bonus",
        values: "pass, die or off",
    },
    OptionInfo {
        key: "target",
        values: "a total from 1 to 200",
    },
    OptionInfo {
        key: "unit",
        values: "match or game",
    },
    OptionInfo {
        key: "ply-cap",
        values: "a positive number of plies, or none",
    },
];

impl RuleSet for JulbaharRules {
    const GAME: &'static str = "julbahar";

    fn variants() -> &'static [VariantInfo] {
        VARIANTS
    }

    fn option_info() -> &'static [OptionInfo] {
        OPTIONS
    }

    fn variant(name: &str) -> Result<Self, RuleError> {
        match name {
            "barakat-1974" => Ok(JulbaharRules::BARAKAT_1974),
            "ludii" => Ok(JulbaharRules::LUDII),
            _ => Err(Self::unknown_variant(name)),
        }
    }

    fn set_option(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        let bad = |expected| RuleError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected,
        };
        match (key, value) {
            ("opening", "throw") => self.opening = Opening::Throw,
            ("opening", "none") => self.opening = Opening::None,
            ("opening", _) => return Err(bad("throw or none")),
            ("after-opening", "opponent") => self.after_opening = AfterOpening::Opponent,
            ("after-opening", "winner") => self.after_opening = AfterOpening::Winner,
            ("after-opening", _) => return Err(bad("opponent or winner")),
            ("next-game", "opening") => self.next_game = NextGame::Opening,
            ("next-game", "loser") => self.next_game = NextGame::Loser,
            ("next-game", "alternate") => self.next_game = NextGame::Alternate,
            ("next-game", _) => return Err(bad("opening, loser or alternate")),
            ("bear-off", "higher") => self.higher_die_bear_off = true,
            ("bear-off", "exact") => self.higher_die_bear_off = false,
            ("bear-off", _) => return Err(bad("higher or exact")),
            ("larger-die", "on") => self.larger_die = true,
            ("larger-die", "off") => self.larger_die = false,
            ("larger-die", _) => return Err(bad("on or off")),
            ("bonus", "pass") => self.bonus = Bonus::Pass,
            ("bonus", "die") => self.bonus = Bonus::Die,
            ("bonus", "off") => self.bonus = Bonus::Off,
            ("bonus", _) => return Err(bad("pass, die or off")),
            ("target", _) => {
                self.target = match value.parse::<u32>() {
                    Ok(n) if (1..=200).contains(&n) => n,
                    _ => return Err(bad("a total from 1 to 200")),
                }
            }
            ("unit", "match") => self.unit = Unit::Match,
            ("unit", "game") => self.unit = Unit::Game,
            ("unit", _) => return Err(bad("match or game")),
            ("ply-cap", _) => self.ply_cap = parse_ply_cap(key, value)?,
            _ => return Err(Self::unknown_option(key)),
        }
        Ok(())
    }

    fn resolved(&self) -> Vec<(&'static str, String)> {
        vec![
            (
                "opening",
                match self.opening {
                    Opening::Throw => "throw",
                    Opening::None => "none",
                }
                .into(),
            ),
            (
                "after-opening",
                match self.after_opening {
                    AfterOpening::Opponent => "opponent",
                    AfterOpening::Winner => "winner",
                }
                .into(),
            ),
            (
                "next-game",
                match self.next_game {
                    NextGame::Opening => "opening",
                    NextGame::Loser => "loser",
                    NextGame::Alternate => "alternate",
                }
                .into(),
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
                "larger-die",
                if self.larger_die { "on" } else { "off" }.into(),
            ),
            (
                "bonus",
                match self.bonus {
                    Bonus::Pass => "pass",
                    Bonus::Die => "die",
                    Bonus::Off => "off",
                }
                .into(),
            ),
            ("target", self.target.to_string()),
            (
                "unit",
                match self.unit {
                    Unit::Match => "match",
                    Unit::Game => "game",
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
        assert_eq!(JulbaharRules::default(), JulbaharRules::BARAKAT_1974);
        let l = JulbaharRules::variant("ludii").unwrap();
        assert_eq!((l.opening, l.bonus), (Opening::None, Bonus::Die));
        let mut r = JulbaharRules::variant("barakat-1974").unwrap();
        r.set_option("next-game", "alternate").unwrap();
        r.set_option("unit", "game").unwrap();
        r.set_option("target", "11").unwrap();
        r.set_option("ply-cap", "none").unwrap();
        let mut back = JulbaharRules::LUDII;
        for (k, v) in r.resolved() {
            back.set_option(k, &v).unwrap();
        }
        assert_eq!(back, r);
        let e = r.set_option("bonus", "always").unwrap_err().to_string();
        assert!(e.contains("'always'") && e.contains("bonus"), "{e}");
        assert!(r.set_option("target", "0").is_err());
        assert!(r.set_option("cube", "on").is_err());
        assert!(JulbaharRules::variant("tawula").is_err());
    }
}
