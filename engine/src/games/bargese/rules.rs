//! Bargese's rule set: named variants for the sources and an option for every reading where the
//! texts are silent or differ. `docs/rules/bargese.md` explains each choice.

use super::board::{BANGE_ENTRY, BANGE_INNER};
use crate::rules::{
    choice, format_ply_cap, set_number, set_ply_cap, set_switch, set_word, switch_word, Choice,
    RuleOption, RuleSet, Values, VariantInfo, PLY_CAP,
};

choice! {
    /// How the game begins (`opening`).
    pub enum Opening {
        /// Tajeddin (Finkel 2002): each player throws three shells, more mouths up begins (ties
        /// throw again); then the players take turns throwing until one throws a dust or bange,
        /// and that player goes on with a normal turn.
        Shells = "shells":
            "a three-shell throw decides who begins throwing; the first dust or bange starts the game",
        /// The DLP's summary in record 1604 §1604.6: no three-shell throw; the players take
        /// turns throwing (player one first; the summary does not say who) until one throws a
        /// dust or bange, and that player goes on with a normal turn.
        Alternate = "alternate":
            "the players take turns throwing, player one first, until one throws a dust or bange",
        /// the DLP summary §S has no opening.
        None = "none": "player one simply takes the first turn",
    }
}

choice! {
    /// What a shaka or bara thrown in the opening, before anyone's first dust or bange, is
    /// worth (`opening-extra`). The sources are silent.
    pub enum OpeningExtra {
        /// Finkel 2002 §1604.T4: "players then take turns to throw ... until one player throws either a dust
        /// or bange".
        Void = "void":
            "void: only a dust or bange starts the game, any other throw passes to the other player",
        Keep = "keep":
            "kept: it earns its extra throw and joins the turn if a dust or bange follows before a throw without a further throw",
    }
}

choice! {
    /// When the throws are played (`timing`).
    pub enum Timing {
        /// Tajeddin: "only then should the player commence to move"; DLP: "then, the player
        /// moves the pieces according to the throws".
        ThrowFirst = "throw-first":
            "throw until a throw grants no further throw, then play them all",
        /// Ludii 1.3.12's reading.
        AfterEach = "after-each": "play each throw as soon as it is thrown",
    }
}

choice! {
    /// What a piece entering onto an opposing piece (on the bange square) does (`entry-onto`).
    /// Entry on an X held by the opponent is always blocked.
    pub enum EntryOnto {
        /// Entering is a landing, and "when a piece lands on a space occupied by an opponent's
        /// piece" it is removed (Finkel 2002 §1604).
        Hammer = "hammer": "it hammers the opposing piece",
        Blocked = "blocked":
            "it is blocked, unless another piece hammered that piece earlier in the turn",
    }
}

choice! {
    /// Whether a homeward piece on its own arm's outer end (track index 75, the first square of
    /// its central row) already lies on its side and cannot be hammered (`outer-end`).
    pub enum OuterEnd {
        /// Finkel 2002 §1604.10: "pieces entering the central row of the player's arm are placed on their
        /// side".
        Home = "home": "the outer end is in the central row: a piece there cannot be hammered",
        Open = "open": "a piece there can be hammered, until index 76",
    }
}

choice! {
    /// What a landing on a square holding an opposing piece that cannot be hammered (a
    /// homeward piece lying on its side) does (`beside-safe`). The sources are silent.
    pub enum BesideSafe {
        /// Finkel 2002 §1604.9: "two opposing pieces cannot occupy the same safe space".
        Blocked = "blocked": "the landing is illegal, as on an X held by the opponent",
        Share = "share":
            "the landing is legal; both stay (and any hammerable opposing piece there is hammered)",
    }
}

choice! {
    /// Which pieces the hal (the 1 of a dust or bange) may move (`hal`). Besides stepping, the
    /// hal always enters a piece or takes the dodo into the kitchen (§1604.T2, §1604.T11).
    pub enum Hal {
        /// §1604.7: a piece moves "the full value of a single throw, unless one of the throws
        /// allows the entering of a piece"; read strictly, a piece one square short of the dodo
        /// could never move again (no other throw is worth 1), so the hal may carry it there.
        OntoDodo = "onto-dodo":
            "the hal may also carry a piece one square short of the dodo onto the dodo",
        /// Ludii 1.3.12 has a one-step rule.
        Step = "step": "the hal may also step any piece one square",
        Strict = "strict": "the hal only enters a piece or takes the dodo into the kitchen",
    }
}

choice! {
    /// When and by which piece the 10 or 24 left by a hal (the remainder) is played
    /// (`remainder`). The texts do not order a turn's throws; Tajeddin's example plays the hal,
    /// then its 10 by another piece (§1604.T7), and "another piece can move the other 10 or 24"
    /// when the dodo takes the hal (§1604.T11).
    pub enum Remainder {
        AnyOrder = "any-order":
            "the hal and its remainder are two uses, played in either order, on any pieces, with other throws between",
        WithHal = "with-hal":
            "the hal and its remainder are one use: the remainder right after its hal, by any piece (on the hal's own piece, one move of the throw's full value)",
        OtherPiece = "other-piece":
            "as with-hal, and the remainder goes to another piece than the hal's",
    }
}

choice! {
    /// Under `must-use=max`, whether a 10 or 24 left by a played hal still counts as a throw to
    /// be used (`leftover`). The texts are silent; `must-use` is our rule.
    pub enum Leftover {
        /// Playing the whole of a throw comes before playing its hal alone.
        Fewest = "fewest":
            "after using as many throws as possible, leave as few 10s and 24s unplayed as possible",
        Optional = "optional":
            "a dust or bange counts as used once its hal is played; its 10 or 24 may go unplayed",
    }
}

choice! {
    /// Which square of the arm to the player's right is the bange square (`bange-square`):
    /// §1604.1 marks "the bottom left corner" of two arms.
    pub enum BangeSquare {
        /// Bottom left as seen from that arm's outer end: track index 23, the corner the track
        /// reaches last in that arm, one short of where a bange's 25 lands from off the board.
        Outer = "outer": "the arm's outer corner, track index 23",
        /// Bottom left as the owner sees it from the home arm: track index 16, next to the
        /// kitchen.
        Inner = "inner": "the arm's corner next to the kitchen, track index 16",
    }
}

choice! {
    /// Whether the throws must be used as fully as possible (`must-use`). The texts are silent on
    /// a throw no piece can use; such a throw goes unplayed (our choice).
    pub enum MustUse {
        Max = "max":
            "use as many throws as possible (a dust or bange counts as used once its hal is played; leftover decides its 10 or 24)",
        Free = "free": "any throw may be left unused (passing is always legal)",
    }
}

impl BangeSquare {
    /// The bange square's track index (the same for both players).
    #[must_use]
    pub fn track_index(self) -> u8 {
        match self {
            BangeSquare::Outer => BANGE_ENTRY,
            BangeSquare::Inner => BANGE_INNER,
        }
    }
}

/// The rules of a Bargese game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BargeseRules {
    /// How the game begins (`opening`).
    pub opening: Opening,
    /// Shaka and bara before the first dust or bange (`opening-extra`).
    pub opening_extra: OpeningExtra,
    /// When throws are played (`timing`).
    pub timing: Timing,
    /// Whether a bange may enter a piece on the player's bange square (`bange-entry`; both
    /// sources say so; the option exists to measure the rule).
    pub bange_entry: bool,
    /// What entering onto an opposing piece does (`entry-onto`).
    pub entry_onto: EntryOnto,
    /// Whether a homeward piece on its arm's outer end is safe (`outer-end`).
    pub outer_end: OuterEnd,
    /// Landing beside an opposing piece that cannot be hammered (`beside-safe`).
    pub beside_safe: BesideSafe,
    /// The chance that one cowrie lands mouth up, strictly between 0 and 1 (`p`, default 1/2).
    pub p: f64,
    /// Whether throws must be used as fully as possible (`must-use`).
    pub must_use: MustUse,
    /// What the hal may move (`hal`).
    pub hal: Hal,
    /// When and by which piece a hal's 10 or 24 is played (`remainder`).
    pub remainder: Remainder,
    /// Whether a hal's unplayed 10 or 24 counts against a play under `must-use=max`
    /// (`leftover`).
    pub leftover: Leftover,
    /// Which corner is the bange square (`bange-square`).
    pub bange_square: BangeSquare,
    /// Whether the game's first piece goes where the initial throw says (`opening-entry`,
    /// §1604.T5): on the X after a dust, on the bange square after a bange.
    pub opening_entry: bool,
    /// The ply cap, if any (`ply-cap`); a game reaching it is truncated.
    pub ply_cap: Option<u32>,
}

/// The default ply cap: the sources set none. 5,000 plies is about forty times the length of a
/// random game (about 115 plies in the default variant, 155 under `ludii`).
pub const DEFAULT_PLY_CAP: u32 = 5000;

impl Default for BargeseRules {
    fn default() -> Self {
        BargeseRules {
            opening: Opening::Shells,
            opening_extra: OpeningExtra::Void,
            timing: Timing::ThrowFirst,
            bange_entry: true,
            entry_onto: EntryOnto::Hammer,
            outer_end: OuterEnd::Home,
            beside_safe: BesideSafe::Blocked,
            p: 0.5,
            must_use: MustUse::Max,
            hal: Hal::OntoDodo,
            remainder: Remainder::AnyOrder,
            leftover: Leftover::Fewest,
            bange_square: BangeSquare::Outer,
            opening_entry: true,
            ply_cap: Some(DEFAULT_PLY_CAP),
        }
    }
}

/// The accepted range of the shell bias `p`. Below 0.35 the throws that grant another throw
/// (shaka, dust) come so often that a turn's chain of throws, and its whole-turn results, grow
/// without practical bound (at 0.2 a single turn needed over a gigabyte); above 0.8 bara and
/// bange do the same more slowly. Inside it every random game plays in bounded memory
/// (`engine/tests/bargese.rs` plays both ends).
pub const P_MIN: f64 = 0.35;
/// The largest accepted `p`; see [`P_MIN`].
pub const P_MAX: f64 = 0.8;

impl RuleSet for BargeseRules {
    const GAME: &'static str = "bargese";

    const VARIANTS: &'static [VariantInfo] = &[
        VariantInfo {
            name: "finkel-2002",
            source: "Anna Tajeddin's description in Finkel 2002 (DLP.Evidence.1604) (three-shell opening, the first piece placed by the initial throw, throw first then move)",
            settings: &[],
        },
        VariantInfo {
            name: "dlp-1604",
            source: "the DLP's own summary in record 1604 [1604.6]: players take turns throwing until a dust or bange, no three-shell throw, no placement by the initial throw; otherwise as finkel-2002",
            settings: &["opening=alternate", "opening-entry=off"],
        },
        VariantInfo {
            name: "summary",
            source: "the DLP's Bargese rules summary [S], which has no opening; otherwise as finkel-2002",
            settings: &["opening=none", "opening-entry=off"],
        },
        VariantInfo {
            name: "ludii",
            source: "Ludii 1.3.12's reading as reported (not checked against Ludii's source): move after each throw, one-step hal; otherwise as finkel-2002",
            settings: &["timing=after-each", "hal=step"],
        },
    ];

    const OPTIONS: &'static [RuleOption<Self>] = &[
        RuleOption {
            key: "opening",
            values: Values::Words(Opening::WORDS),
            doc: "how the game begins",
            source: "Tajeddin has the three-shell throw [1604.T4]; the DLP summary in record 1604 only the taking of turns until a dust or bange [1604.6]; the DLP summary [S] has no opening",
            get: |r| r.opening.word().into(),
            set: |r, v| set_word(&mut r.opening, v),
        },
        RuleOption {
            key: "opening-extra",
            values: Values::Words(OpeningExtra::WORDS),
            doc: "what a shaka or bara thrown before anyone's first dust or bange is worth",
            source: "Finkel 2002 is silent: \"players then take turns to throw ... until one player throws either a dust or bange\"",
            get: |r| r.opening_extra.word().into(),
            set: |r, v| set_word(&mut r.opening_extra, v),
        },
        RuleOption {
            key: "timing",
            values: Values::Words(Timing::WORDS),
            doc: "when the throws are played",
            source: "Finkel 2002 [1604.T4]: \"only then should the player commence to move\"; the DLP summary [S]: \"then, the player moves the pieces according to the throws\"",
            get: |r| r.timing.word().into(),
            set: |r, v| set_word(&mut r.timing, v),
        },
        RuleOption {
            key: "bange-entry",
            values: Values::Switch {
                on: "a bange may enter a piece on the player's bange square",
                off: "only the hal enters pieces",
            },
            doc: "whether a bange may enter a piece on the bange square",
            source: "both Bargese texts say it may; off measures the rule",
            get: |r| switch_word(r.bange_entry),
            set: |r, v| set_switch(&mut r.bange_entry, v),
        },
        RuleOption {
            key: "entry-onto",
            values: Values::Words(EntryOnto::WORDS),
            doc: "what a piece entering onto an opposing piece on the bange square does",
            source: "the texts are silent on entering; Finkel 2002 [1604.8]: \"when a piece lands on a space occupied by an opponent's piece\" it is removed",
            get: |r| r.entry_onto.word().into(),
            set: |r, v| set_word(&mut r.entry_onto, v),
        },
        RuleOption {
            key: "outer-end",
            values: Values::Words(OuterEnd::WORDS),
            doc: "whether a homeward piece on its arm's outer end (index 75) is safe",
            source: "Finkel 2002 [1604.10]: \"pieces entering the central row of the player's arm are placed on their side\"",
            get: |r| r.outer_end.word().into(),
            set: |r, v| set_word(&mut r.outer_end, v),
        },
        RuleOption {
            key: "beside-safe",
            values: Values::Words(BesideSafe::WORDS),
            doc: "what a landing on an opposing piece that cannot be hammered does",
            source: "the texts are silent; Finkel 2002 [1604.9]: \"two opposing pieces cannot occupy the same safe space\"",
            get: |r| r.beside_safe.word().into(),
            set: |r, v| set_word(&mut r.beside_safe, v),
        },
        RuleOption {
            key: "p",
            values: Values::Text("a number from 0.35 to 0.8 (outside it, chains of extra throws make whole turns too large to enumerate)"),
            doc: "the chance that one cowrie lands mouth up",
            source: "the texts give no odds; 1/2 by default (an informal public count found about 0.52)",
            get: |r| r.p.to_string(),
            set: |r, v| set_number(&mut r.p, v, |p| (P_MIN..=P_MAX).contains(p)),
        },
        RuleOption {
            key: "must-use",
            values: Values::Words(MustUse::WORDS),
            doc: "whether the throws must be used as fully as possible",
            source: "the texts are silent on unusable throws; a throw no piece can use goes unplayed (our choice, docs/rules/bargese.md)",
            get: |r| r.must_use.word().into(),
            set: |r, v| set_word(&mut r.must_use, v),
        },
        RuleOption {
            key: "hal",
            values: Values::Words(Hal::WORDS),
            doc: "which pieces the hal (the 1 of a dust or bange) may move",
            source: "a piece moves the full value of a single throw unless a piece enters [1604.7]; the hal enters a piece or takes the dodo into the kitchen [1604.T2, 1604.T11]; silent on the square before the dodo, from which only a 1 moves (Ludii 1.3.12 has a one-step rule)",
            get: |r| r.hal.word().into(),
            set: |r, v| set_word(&mut r.hal, v),
        },
        RuleOption {
            key: "remainder",
            values: Values::Words(Remainder::WORDS),
            doc: "when and by which piece the 10 or 24 left by a hal is played",
            source: "the texts order no throws within a turn; Tajeddin's example plays the hal, then its 10 by another piece [1604.T7]; \"another piece can move the other 10 or 24\" when the dodo takes the hal [1604.T11, 1604.11]",
            get: |r| r.remainder.word().into(),
            set: |r, v| set_word(&mut r.remainder, v),
        },
        RuleOption {
            key: "leftover",
            values: Values::Words(Leftover::WORDS),
            doc: "under must-use=max, whether a hal's unplayed 10 or 24 counts against a play",
            source: "the texts are silent on unusable throws (must-use is our rule); another piece \"can\" move the 10 or 24 the dodo leaves [1604.T11]",
            get: |r| r.leftover.word().into(),
            set: |r, v| set_word(&mut r.leftover, v),
        },
        RuleOption {
            key: "bange-square",
            values: Values::Words(BangeSquare::WORDS),
            doc: "which corner of the arm to the player's right is the bange square",
            source: "\"the bottom left corner\" of the two arms without players is marked [1604.1]; each player's bange square is in the column to the right [1604.T3]",
            get: |r| r.bange_square.word().into(),
            set: |r, v| set_word(&mut r.bange_square, v),
        },
        RuleOption {
            key: "opening-entry",
            values: Values::Switch {
                on: "the game's first piece enters on the X after an initial dust, on the bange square after an initial bange",
                off: "the initial throw is played like any other",
            },
            doc: "whether the initial dust or bange places the game's first piece",
            source: "Tajeddin [1604.T5]: \"if the initial throw was dust\" the first piece goes on the right-hand X, after a bange on the / square; not in the DLP summaries [1604.6, S]",
            get: |r| switch_word(r.opening_entry),
            set: |r, v| set_switch(&mut r.opening_entry, v),
        },
        PLY_CAP.with(
            |r| format_ply_cap(r.ply_cap),
            |r, v| set_ply_cap(&mut r.ply_cap, v),
            "the sources set none; 5000 is about forty times a random game (about 115 plies, 155 under ludii)",
        ),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree() {
        crate::rules::check_tables::<BargeseRules>();
    }

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
            "remainder=other-piece",
            "leftover=optional",
            "bange-square=inner",
            "opening-entry=off",
            "ply-cap=none",
        ] {
            r.apply_option_text(o).unwrap();
        }
        let mut back = BargeseRules::default();
        for (k, v) in r.resolved() {
            back.set_option(k, &v).unwrap();
        }
        assert_eq!(back, r);
        assert_eq!(r.resolved().len(), BargeseRules::OPTIONS.len());
    }

    #[test]
    fn variants_differ_where_documented() {
        let d = BargeseRules::default();
        assert_eq!(BargeseRules::variant("finkel-2002").unwrap(), d);
        assert_eq!(
            BargeseRules::variant("summary").unwrap().opening,
            Opening::None
        );
        let dlp = BargeseRules::variant("dlp-1604").unwrap();
        assert_eq!(
            (dlp.opening, dlp.opening_entry),
            (Opening::Alternate, false)
        );
        assert_eq!(BargeseRules::variant("ludii").unwrap().hal, Hal::Step);
        assert_eq!(
            BargeseRules::variant("ludii").unwrap().timing,
            Timing::AfterEach
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
