//! Julbahar's rule set: Barakat's rules (`barakat-1974`, the default) and Ludii's reading
//! (`ludii`), with an option for each point where readings differ. `docs/rules/julbahar.md`
//! explains each choice and quotes the sentence each option interprets.

use crate::games::tables::{BearOff, Direction, Landing, TablesParams, BEAR_OFF, LARGER_DIE};
use crate::rules::{
    choice, format_ply_cap, set_number, set_ply_cap, set_switch, set_word, switch_word, Choice,
    RuleOption, RuleSet, Values, VariantInfo, PLY_CAP,
};

choice! {
    /// How a game is begun (`opening`).
    pub enum Opening {
        /// Barakat 1974 §1773.3: "Play begins with each player throwing the dice. The player who obtains
        /// the higher number goes first, except when doubles are thrown, then the opponent must
        /// throw higher doubles. The player who wins the opening throw moves the opponent's
        /// pieces according to the value of this throw." Each throws two dice; a double beats
        /// any non-double, a higher double a lower one, and between non-doubles the higher total
        /// wins; ties are thrown again.
        Throw = "throw":
            "each throws two dice; the winner moves the opponent's checkers by its throw",
        /// As Ludii plays it.
        None = "none":
            "no opening throw: player one (or the player next-game names) starts with its own roll",
    }
}

choice! {
    /// Who plays after the opening throw's winner has moved the opponent's checkers
    /// (`after-opening`); Barakat 1974 §1773.4: "Play then continues as usual."
    pub enum AfterOpening {
        Opponent = "opponent":
            "the opponent, whose checkers were moved, rolls next: turns alternate from the opening",
        Winner = "winner": "the opening's winner rolls again and moves its own checkers",
    }
}

choice! {
    /// Who starts the second and later games of a match (`next-game`); the source is silent.
    pub enum NextGame {
        Opening = "opening":
            "the first game's procedure: a new opening throw (player one under opening=none)",
        Loser = "loser": "the loser of the previous game rolls first",
        Alternate = "alternate": "the player who did not start the previous game rolls first",
    }
}

choice! {
    /// When a player who cannot play gives the opponent five points (`bonus`); Barakat 1974
    /// §1773.9: "whenever a player is unable to move and the opponent is able to, the opponent
    /// gains five points". Except under `same-roll`, the opponent is able to move when it has a
    /// checker that some die (1 to 6) could move; in Julbahar that always holds when the
    /// player's roll is not played in full (a completely blocked opponent leaves every die
    /// playable: docs/rules/julbahar.md), so `pass` and `die` give the bonus on every such roll.
    pub enum Bonus {
        Pass = "pass":
            "five points for a complete pass (no die of the roll can be played) while the opponent could move some die",
        /// A player unable to move in any way: every die value 1 to 6 is blocked for every
        /// checker.
        Blocked = "blocked":
            "five points when the player is completely blocked (no die 1 to 6 moves any checker) and the opponent is not",
        /// Both players judged on the roll in hand.
        SameRoll = "same-roll":
            "five points for a complete pass while the opponent could play at least one die of that same roll",
        /// Ludii 1.3.12's `JulbaharSubgame.lud`: five points to the opponent on every pass,
        /// after one die was played too, with no test of the opponent (the same thing here:
        /// see above).
        Die = "die": "five points for every roll not played in full",
        Off = "off": "no bonus",
    }
}

choice! {
    /// Whether a checker may bear off before all are in the last quadrant (`early-bear-off`).
    pub enum EarlyBearOff {
        /// Barakat 1974 §1773.7.
        Exact = "exact":
            "a checker on the last six points bears off by the exact throw even while others are outside",
        /// The usual rule of the tables games (Frangieh, Barakat 1974 §1769.8; backgammon).
        Off = "off": "no checker bears off until all are in the last quadrant",
    }
}

choice! {
    /// What one `Game` is (`unit`).
    pub enum Unit {
        Match = "match": "the match to the target; returns ±1 for the match",
        Game = "game": "one game, until a player has borne off all fifteen; returns ±1 for it",
    }
}

/// The rules of Julbahar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JulbaharRules {
    /// The opening (`opening`).
    pub opening: Opening,
    /// Who rolls after the opening move (`after-opening`).
    pub after_opening: AfterOpening,
    /// Who starts later games (`next-game`).
    pub next_game: NextGame,
    /// Which dice bear off once all are in the last quadrant (`bear-off`); before that only
    /// exact throws bear off from the last six points, whatever this says.
    pub bear_off: BearOff,
    /// Whether exact throws bear off before all are in the last quadrant (`early-bear-off`).
    pub early_bear_off: EarlyBearOff,
    /// When either die but not both can be played, the larger must be (`larger-die`).
    pub larger_die: bool,
    /// The five-point bonus (`bonus`).
    pub bonus: Bonus,
    /// The total that ends the match (`target`, 31 by the source).
    pub target: u32,
    /// Match or single game (`unit`).
    pub unit: Unit,
    /// The ply cap over the whole unit, if any (`ply-cap`); reaching it truncates.
    pub ply_cap: Option<u32>,
}

/// The default ply cap: far above any random match seen (random matches to 31 average a few
/// hundred plies; see `docs/rules/julbahar.md`).
pub const DEFAULT_PLY_CAP: u32 = 100_000;

impl JulbaharRules {
    /// The parameters of the shared tables generator for these rules.
    #[must_use]
    pub fn tables(&self) -> TablesParams {
        let mut start = [0u8; 24];
        // Barakat 1974 [1773.1]: "Each player's fifteen pieces begin on the first point of their track" —
        // the 24-point in the tables module's numbering (which counts down to 1).
        start[23] = 15;
        TablesParams {
            start,
            // Barakat 1974 [1773.1]: "each player progresses in opposite directions".
            direction: Direction::Opposite,
            // Barakat 1974 [1773.5]: "A piece cannot land on a space occupied by one of the opponent's
            // pieces."
            landing: Landing::Block,
            // Barakat 1974 [1773.7]: "Until all of the player's remaining pieces are on the final six
            // points, the player may only bear off a piece on one of the final six spaces by
            // throwing exactly one more than the number of remaining points" (early-bear-off=exact;
            // off is the usual tables rule, no bearing off before all are home).
            bear_off: self
                .bear_off
                .params(self.early_bear_off == EarlyBearOff::Exact),
            larger_die: self.larger_die,
            // Nothing is hit; every die is a move.
            hit_in_passing: true,
            each_die: false,
        }
    }
}

/// Barakat's rules with silent points resolved (the default, `barakat-1974`).
impl Default for JulbaharRules {
    fn default() -> Self {
        JulbaharRules {
            opening: Opening::Throw,
            after_opening: AfterOpening::Opponent,
            next_game: NextGame::Opening,
            bear_off: BearOff::Higher,
            early_bear_off: EarlyBearOff::Exact,
            larger_die: false,
            bonus: Bonus::Pass,
            target: 31,
            unit: Unit::Match,
            ply_cap: Some(DEFAULT_PLY_CAP),
        }
    }
}

impl RuleSet for JulbaharRules {
    const GAME: &'static str = "julbahar";

    const VARIANTS: &'static [VariantInfo] = &[
        VariantInfo {
            name: "barakat-1974",
            source: "Barakat 1974: 21 (DLP.Evidence.1773): two-dice opening throw whose winner moves the opponent's checkers, five points on a complete pass, match to 31",
            settings: &[],
        },
        VariantInfo {
            name: "ludii",
            source: "Ludii's Julbahar: no opening throw (player one starts), five points on every roll not played in full, match to 31",
            settings: &["opening=none", "bonus=die"],
        },
    ];

    const OPTIONS: &'static [RuleOption<Self>] = &[
        RuleOption {
            key: "opening",
            values: Values::Words(Opening::WORDS),
            doc: "how a game is begun",
            source: "Barakat 1974 [1773.4]: \"The player who wins the opening throw moves the opponent's pieces according to the value of this throw\"; none is Ludii's",
            get: |r| r.opening.word().into(),
            set: |r, v| set_word(&mut r.opening, v),
        },
        RuleOption {
            key: "after-opening",
            values: Values::Words(AfterOpening::WORDS),
            doc: "who rolls after the opening move",
            source: "Barakat 1974 [1773.4]: \"Play then continues as usual\" (silent on who)",
            get: |r| r.after_opening.word().into(),
            set: |r, v| set_word(&mut r.after_opening, v),
        },
        RuleOption {
            key: "next-game",
            values: Values::Words(NextGame::WORDS),
            doc: "who starts the second and later games of a match",
            source: "Barakat 1974 is silent [1773]",
            get: |r| r.next_game.word().into(),
            set: |r, v| set_word(&mut r.next_game, v),
        },
        BEAR_OFF.with(
            |r| r.bear_off.word().into(),
            |r, v| set_word(&mut r.bear_off, v),
            "Barakat 1974 [1773.7] asks for exact throws only until all are on the final six points (silent after); higher is as in backgammon",
        ),
        RuleOption {
            key: "early-bear-off",
            values: Values::Words(EarlyBearOff::WORDS),
            doc: "whether a checker may bear off before all are in the last quadrant",
            source: "Barakat 1974 [1773.7]: until all are on the final six points, a piece there bears off only \"by throwing exactly\" its distance (exact); off is the usual tables rule, as in Frangieh [1769.8]",
            get: |r| r.early_bear_off.word().into(),
            set: |r, v| set_word(&mut r.early_bear_off, v),
        },
        LARGER_DIE.with(
            |r| switch_word(r.larger_die),
            |r, v| set_switch(&mut r.larger_die, v),
            "Barakat 1974 [1773.2]: \"Players move according to the number on each die\" (silent)",
        ),
        RuleOption {
            key: "bonus",
            values: Values::Words(Bonus::WORDS),
            doc: "when a player who cannot play gives the opponent five points",
            source: "Barakat 1974 [1773.9]: \"whenever a player is unable to move and the opponent is able to, the opponent gains five points\"; die is Ludii 1.3.12's JulbaharSubgame.lud",
            get: |r| r.bonus.word().into(),
            set: |r, v| set_word(&mut r.bonus, v),
        },
        RuleOption {
            key: "target",
            values: Values::Text("a total from 1 to 200"),
            doc: "the total that ends the match",
            source: "Barakat 1974 [1773.10]: \"Play continues until one player's score reaches 31\"",
            get: |r| r.target.to_string(),
            set: |r, v| set_number(&mut r.target, v, |n| (1..=200).contains(n)),
        },
        RuleOption {
            key: "unit",
            values: Values::Words(Unit::WORDS),
            doc: "what one self-play game is",
            source: "not a rule of the game: the match is the source's unit of play, a single game serves studies of one game",
            get: |r| r.unit.word().into(),
            set: |r, v| set_word(&mut r.unit, v),
        },
        PLY_CAP.with(
            |r| format_ply_cap(r.ply_cap),
            |r, v| set_ply_cap(&mut r.ply_cap, v),
            "Barakat 1974 sets none; 100000 is far above any random match (a few hundred plies on average), over the whole unit",
        ),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree() {
        crate::rules::check_tables::<JulbaharRules>();
    }

    #[test]
    fn variants_and_options_read_back() {
        let l = JulbaharRules::variant("ludii").unwrap();
        assert_eq!((l.opening, l.bonus), (Opening::None, Bonus::Die));
        let mut r = JulbaharRules::variant("barakat-1974").unwrap();
        r.set_option("next-game", "alternate").unwrap();
        r.set_option("unit", "game").unwrap();
        r.set_option("target", "11").unwrap();
        r.set_option("ply-cap", "none").unwrap();
        let mut back = l;
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
