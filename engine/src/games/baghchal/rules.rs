//! Baghchal's rule set: the three sources' win rules as named variants, and options where the
//! texts are silent. `docs/rules/baghchal.md` explains each choice.

use crate::rules::{
    choice, format_ply_cap, set_number, set_ply_cap, set_word, Choice, RuleOption, RuleSet, Values,
    VariantInfo, PLY_CAP,
};

choice! {
    /// What happens when the goats, on their turn, have no legal move (`goats-blocked`).
    ///
    /// Blocked *tigers* always lose: Parlett 1976 §755.6 ("unable to make a legal move he has
    /// lost") and Averbakh 1995 (goats win by "reducing the tigers to immobility"). Neither text
    /// says what happens to blocked goats.
    pub enum GoatsBlocked {
        /// The default.
        Lose = "lose": "the goats lose, mirroring the tigers' rule",
        Pass = "pass": "the goats pass (an explicit pass ply) and the tigers move again",
    }
}

choice! {
    /// Repetition rules (`repetition`); every source is silent on repetition.
    pub enum Repetition {
        /// The default; Ludii 1.3.12 has none either. Cycling games end by the cap.
        None = "none": "no repetition rule",
        ThreefoldDraw = "threefold-draw":
            "the third occurrence of a position (board and player to move) is a draw",
        /// A side left with no move is blocked.
        NoRecreate = "no-recreate":
            "once all goats are placed, no move may recreate a position that has occurred before",
    }
}

/// The rules of a Baghchal game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaghchalRules {
    /// Captures that win for the tigers (`win-captures`): 5 (`five-captures`), 6
    /// (`averbakh-1995`), 20 (`parlett-1976`).
    pub win_captures: u8,
    /// What happens to goats with no move (`goats-blocked`).
    pub goats_blocked: GoatsBlocked,
    /// The repetition rule (`repetition`).
    pub repetition: Repetition,
    /// The ply cap, if any (`ply-cap`); a game reaching it is truncated.
    pub ply_cap: Option<u32>,
}

/// The default ply cap: the sources set none; 1,000 plies is twenty times the mean length of a
/// random game and is not reached by random play under any variant.
pub const DEFAULT_PLY_CAP: u32 = 1000;

impl Default for BaghchalRules {
    fn default() -> Self {
        BaghchalRules {
            win_captures: 5,
            goats_blocked: GoatsBlocked::Lose,
            repetition: Repetition::None,
            ply_cap: Some(DEFAULT_PLY_CAP),
        }
    }
}

impl RuleSet for BaghchalRules {
    const GAME: &'static str = "baghchal";

    const VARIANTS: &'static [VariantInfo] = &[
        VariantInfo {
            name: "five-captures",
            source: "modern Nepali rule (Lim and Nievergelt 2009); the DLP summary of Averbakh 1995 [1453.S]: tigers win on the 5th capture",
            settings: &[],
        },
        VariantInfo {
            name: "averbakh-1995",
            source: "Averbakh 1995 as quoted by the DLP [1453.3]: tigers win when more than five goats are killed, i.e. on the 6th",
            settings: &["win-captures=6"],
        },
        VariantInfo {
            name: "parlett-1976",
            source: "Parlett 1976 [755.6]: tigers win only by capturing all twenty goats",
            settings: &["win-captures=20"],
        },
    ];

    const OPTIONS: &'static [RuleOption<Self>] = &[
        RuleOption {
            key: "win-captures",
            values: Values::Text("a number of captures from 1 to 20"),
            doc: "the capture on which the tigers win",
            source: "five (the DLP summary of Averbakh 1995 [1453.S]), more than five (Averbakh 1995), all twenty (Parlett 1976)",
            get: |r| r.win_captures.to_string(),
            set: |r, v| set_number(&mut r.win_captures, v, |n| (1..=20).contains(n)),
        },
        RuleOption {
            key: "goats-blocked",
            values: Values::Words(GoatsBlocked::WORDS),
            doc: "what happens when the goats have no legal move",
            source: "the texts are silent (both records make blocked tigers lose); lose mirrors the tigers' rule",
            get: |r| r.goats_blocked.word().into(),
            set: |r, v| set_word(&mut r.goats_blocked, v),
        },
        RuleOption {
            key: "repetition",
            values: Values::Words(Repetition::WORDS),
            doc: "the rule on repeated positions",
            source: "the texts are silent; none adds no rule the sources lack (Ludii 1.3.12 has none)",
            get: |r| r.repetition.word().into(),
            set: |r, v| set_word(&mut r.repetition, v),
        },
        PLY_CAP.with(
            |r| format_ply_cap(r.ply_cap),
            |r, v| set_ply_cap(&mut r.ply_cap, v),
            "the sources set none; 1000 is twenty times the mean random game, never reached by random play",
        ),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_set_the_sources_win_rule() {
        assert_eq!(
            BaghchalRules::variant("five-captures")
                .unwrap()
                .win_captures,
            5
        );
        assert_eq!(
            BaghchalRules::variant("averbakh-1995")
                .unwrap()
                .win_captures,
            6
        );
        assert_eq!(
            BaghchalRules::variant("parlett-1976").unwrap().win_captures,
            20
        );
        assert_eq!(
            BaghchalRules::variant("five-captures").unwrap(),
            BaghchalRules::default()
        );
    }

    #[test]
    fn tables_agree() {
        crate::rules::check_tables::<BaghchalRules>();
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
