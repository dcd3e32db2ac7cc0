//! Frangieh's rule set: Barakat's rules (`barakat-1974`, the default), GNU Backgammon's rules
//! without the cube (`modern`) and Ludii 1.3.12's reading (`ludii`), with an option for each
//! point where they differ.
//! `docs/rules/frangieh.md` explains each choice.

use crate::games::tables::{
    BearOff, Direction, Landing, TablesParams, BEAR_OFF, LARGER_DIE, STANDARD_START,
};
use crate::rules::{
    choice, format_ply_cap, set_ply_cap, set_switch, set_word, switch_word, Choice, RuleOption,
    RuleSet, Values, VariantInfo, PLY_CAP,
};

choice! {
    /// How the first player is chosen and what the first turn plays (`opening`).
    pub enum Opening {
        /// Barakat 1974 §1769.3: each player rolls one die, the higher plays first "and then rolls again to
        /// begin play". Named by those words; `seed`, its former spelling, is still read.
        RollAgain = "roll-again" formerly "seed":
            "the higher of one die each plays first, with a fresh roll of two dice",
        Modern = "modern": "the higher of one die each plays the two opening dice as its first roll",
        /// Ludii 1.3.12's `Frangieh.lud`.
        None = "none": "no opening roll: player one rolls and plays first",
    }
}

choice! {
    /// How much of a roll must be played (`must-use`).
    pub enum MustUse {
        /// Barakat 1974 §1769.9: "Players must use all available moves presented by the dice."
        Max = "max": "as many dice as possible must be played (both, or all four of a double)",
        /// Ludii 1.3.12's `Frangieh.lud`.
        Each = "each":
            "each die is a separate move, played while one can be; a play that leaves the other die unplayable is legal",
    }
}

choice! {
    /// How a finished game is scored (`scoring`).
    pub enum Scoring {
        /// Barakat 1974 §1769.10: "the first player to remove all of their pieces wins".
        Single = "single": "one point for a win",
        /// A backgammon: the loser has borne off none and still has a checker on the bar or in
        /// the winner's home board.
        Gammons = "gammons":
            "2 points if the loser has borne off no checker (a gammon), 3 for a backgammon",
    }
}

/// The rules of a Frangieh game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrangiehRules {
    /// When either die but not both can be played, the larger must be (`larger-die`).
    pub larger_die: bool,
    /// Which dice bear off (`bear-off`).
    pub bear_off: BearOff,
    /// The opening (`opening`).
    pub opening: Opening,
    /// Scoring (`scoring`).
    pub scoring: Scoring,
    /// A checker playing several dice hits on its intermediate points too (`hit-in-passing`).
    pub hit_in_passing: bool,
    /// How much of a roll must be played (`must-use`).
    pub must_use: MustUse,
    /// The ply cap, if any (`ply-cap`); a game reaching it is truncated.
    pub ply_cap: Option<u32>,
}

impl FrangiehRules {
    /// The parameters of the shared tables generator for these rules.
    #[must_use]
    pub fn tables(&self) -> TablesParams {
        TablesParams {
            // Barakat 1974 [1769.2]: points 6 (five), 8 (three), 13 (five), 24 (two) from each track's
            // origin, the tracks running in opposite directions.
            start: STANDARD_START,
            direction: Direction::Opposite,
            // Barakat 1974 [1769.6]: a single opposing piece is hit to the centre; two or more block.
            landing: Landing::Hit,
            bear_off: self.bear_off.params(false),
            larger_die: self.larger_die,
            hit_in_passing: self.hit_in_passing,
            each_die: self.must_use == MustUse::Each,
        }
    }
}

/// Barakat's rules read literally, silent points resolved (the default, `barakat-1974`).
impl Default for FrangiehRules {
    fn default() -> Self {
        FrangiehRules {
            larger_die: false,
            bear_off: BearOff::Exact,
            opening: Opening::RollAgain,
            scoring: Scoring::Single,
            hit_in_passing: true,
            must_use: MustUse::Max,
            ply_cap: None,
        }
    }
}

impl RuleSet for FrangiehRules {
    const GAME: &'static str = "frangieh";

    const VARIANTS: &'static [VariantInfo] = &[
        VariantInfo {
            name: "barakat-1974",
            source: "Barakat 1974: 12-16 (DLP.Evidence.1769) read literally: all dice if possible, exact bear-off, one-die opening then a new roll, single wins",
            settings: &[],
        },
        VariantInfo {
            name: "modern",
            source: "GNU Backgammon's rules without the cube: larger die, higher-die bear-off, opening dice played, gammons and backgammons",
            settings: &["larger-die=on", "bear-off=higher", "opening=modern", "scoring=gammons"],
        },
        VariantInfo {
            name: "ludii",
            source: "Ludii 1.3.12's Frangieh.lud: player one starts, each die a separate move, a higher die bears off the rearmost checker when it has no other use, single wins",
            settings: &["opening=none", "must-use=each", "bear-off=rearmost"],
        },
    ];

    const OPTIONS: &'static [RuleOption<Self>] = &[
        LARGER_DIE.with(
            |r| switch_word(r.larger_die),
            |r, v| set_switch(&mut r.larger_die, v),
            "Barakat 1974 is silent [1769.9] (\"players must use all available moves\"); off lets the player choose, on is GNU Backgammon's rule",
        ),
        BEAR_OFF.with(
            |r| r.bear_off.word().into(),
            |r, v| set_word(&mut r.bear_off, v),
            "Barakat 1974 [1769.8]: \"a 6 from the 6th point, and so on\" (exact); higher is GNU Backgammon's rule, rearmost Ludii 1.3.12's Frangieh.lud",
        ),
        RuleOption {
            key: "opening",
            values: Values::Words(Opening::WORDS),
            doc: "how the first player is chosen and what the first turn plays",
            source: "Barakat 1974 [1769.3]: the higher die plays first \"and then rolls again to begin play\"; modern is GNU Backgammon's (ties are re-rolled in both); none is Ludii 1.3.12's Frangieh.lud",
            get: |r| r.opening.word().into(),
            set: |r, v| set_word(&mut r.opening, v),
        },
        RuleOption {
            key: "hit-in-passing",
            values: Values::Switch {
                on: "a checker playing several dice also hits a lone opposing checker where it stops between them",
                off: "only a lone opposing checker on a point where the mover ends the play is hit",
            },
            doc: "whether a checker playing several dice hits where it stops on the way",
            source: "Barakat 1974 [1769.6]: a player who \"ends the turn\" on a point with one opposing piece sends it to the bar; on reads each die's move as a move, as [1769.5] does, off reads \"ends the turn\" literally",
            get: |r| switch_word(r.hit_in_passing),
            set: |r, v| set_switch(&mut r.hit_in_passing, v),
        },
        RuleOption {
            key: "must-use",
            values: Values::Words(MustUse::WORDS),
            doc: "how much of a roll must be played",
            source: "Barakat 1974 [1769.9]: \"Players must use all available moves presented by the dice\"; each is Ludii 1.3.12's Frangieh.lud",
            get: |r| r.must_use.word().into(),
            set: |r, v| set_word(&mut r.must_use, v),
        },
        RuleOption {
            key: "scoring",
            values: Values::Words(Scoring::WORDS),
            doc: "how a finished game is scored",
            source: "Barakat 1974 [1769.10]: \"the first player to remove all of their pieces wins\" (single); gammons is GNU Backgammon's money play without the cube",
            get: |r| r.scoring.word().into(),
            set: |r, v| set_word(&mut r.scoring, v),
        },
        PLY_CAP.with(
            |r| format_ply_cap(r.ply_cap),
            |r, v| set_ply_cap(&mut r.ply_cap, v),
            "Barakat 1974 sets none, and every game ends with probability one",
        ),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree() {
        crate::rules::check_tables::<FrangiehRules>();
    }

    #[test]
    fn variants_and_options_read_back() {
        let m = FrangiehRules::variant("modern").unwrap();
        assert!(m.larger_die && m.bear_off == BearOff::Higher);
        assert_eq!(m.scoring, Scoring::Gammons);
        let mut r = FrangiehRules::variant("barakat-1974").unwrap();
        r.set_option("larger-die", "on").unwrap();
        r.set_option("ply-cap", "300").unwrap();
        let mut back = m;
        for (k, v) in r.resolved() {
            back.set_option(k, &v).unwrap();
        }
        assert_eq!(back, r);
    }

    #[test]
    fn the_former_spelling_of_roll_again_is_read_and_never_written() {
        let mut r = FrangiehRules::variant("modern").unwrap();
        r.set_option("opening", "seed").unwrap();
        assert_eq!(r.opening, Opening::RollAgain);
        assert!(r
            .resolved()
            .contains(&("opening", "roll-again".to_string())));
        assert!(!FrangiehRules::describe().contains("seed"));
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
