//! Bargese's rules of play, one use of a throw at a time: where a throw takes a piece (entering,
//! moving, the hal and the dodo, the kitchen), what landing on an opposing piece does
//! (hammering, safe squares) and which plays the throws oblige (the must-use score).
//!
//! This is the only place these rules are written. The whole-turn generator (`movegen.rs` and
//! the files it drives) and the test brute force (`brute.rs`) call these functions; the clause
//! ids in brackets are those of `docs/sources.md` (`1604.n` the DLP's summary in Finkel 2002,
//! `1604.Tn` Tajeddin's description, `S` the DLP's shorter summary). The throws and their values
//! are in `throws.rs`, the board and its squares in `board.rs`, the options in `rules.rs`.
//!
//! Position codes: a track index `0..=82` ([`DODO`] is 82), [`KITCHEN`] or [`OFF`].

use super::board::{
    DODO, ENTRY, KITCHEN, OFF, OPP_TO_MINE_BITS, OUTER_END_HOME, SQUARE, X_BY_TRACK, X_ENTRY,
};
use super::rules::{
    BargeseRules, BesideSafe, EntryOnto, Hal, Leftover, MustUse, OuterEnd, Remainder,
};
use super::throws::HAL;
use crate::game::Player;

/// No square: an opposing piece off the board or in the kitchen.
const NO_SQUARE: u16 = u16::MAX;

/// What a landing does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Landing {
    /// Legal; the hammered mask afterwards (bit `j`: the opponent's piece `j`).
    Lands(u8),
    /// Illegal.
    Blocked,
    /// An entry onto these opposing pieces, blocked unless another piece hammered them earlier in
    /// the turn (`entry-onto=blocked`). Played in order, with those pieces already in the mask,
    /// the entry [`Landing::Lands`]; so a search that plays uses in order treats this as blocked.
    NeedsHammer(u8),
}

/// One turn's rules of play for the mover: the rule options and where the opposing pieces stand,
/// which nothing in the turn changes (a hammered piece leaves the board, recorded by the mask).
#[derive(Clone, Debug)]
pub(super) struct Step {
    squares: &'static [u16; 83],
    opp_square: [u16; 4],
    opp_safe: [bool; 4],
    /// Bit `t`: an opposing piece stands on track index `t` (hammered or not).
    occ: u128,
    /// `hal=step`.
    hal_any: bool,
    /// `hal=onto-dodo`.
    hal_onto_dodo: bool,
    bange_entry: bool,
    bange_square: u8,
    entry_hammers: bool,
    share_beside_safe: bool,
}

/// The square a whole throw of kind `k` (by mouths up) enters a piece on, if it may: a dust on
/// the X in the right-hand row of the player's arm [1604.3, 1604.T2], a bange on the bange square
/// if `bange_entry` (`bange-entry`; `bange_square` its track index, `bange-square`). The
/// `opening-entry` option places the game's first piece there too [1604.T5].
#[inline]
pub(super) fn entry_square(k: usize, bange_entry: bool, bange_square: u8) -> Option<u8> {
    match k {
        1 => Some(X_ENTRY),
        5 if bange_entry => Some(bange_square),
        _ => None,
    }
}

/// Whether an opposing piece on its own track index `u` lies on its side and cannot be hammered.
/// Finkel 2002 [1604.10]: "pieces entering the central row of the player's arm are placed on
/// their side"; Tajeddin [1604.T10]: in that column it "can no longer be hammered". Index 75 is
/// the row's outer end: the `outer-end` option.
#[inline]
#[must_use]
pub fn is_homeward_safe(u: u8, outer_end: OuterEnd) -> bool {
    u <= DODO && (u > OUTER_END_HOME || (u == OUTER_END_HOME && outer_end == OuterEnd::Home))
}

impl Step {
    /// The rules of `me`'s turn against opposing pieces `theirs` (position codes).
    pub(super) fn new(me: Player, theirs: [u8; 4], rules: &BargeseRules) -> Step {
        let opp = me.opponent();
        let mut step = Step {
            squares: &SQUARE[me.index()],
            opp_square: [NO_SQUARE; 4],
            opp_safe: [false; 4],
            occ: 0,
            hal_any: rules.hal == Hal::Step,
            hal_onto_dodo: rules.hal == Hal::OntoDodo,
            bange_entry: rules.bange_entry,
            bange_square: rules.bange_square.track_index(),
            entry_hammers: rules.entry_onto == EntryOnto::Hammer,
            share_beside_safe: rules.beside_safe == BesideSafe::Share,
        };
        for (j, &u) in theirs.iter().enumerate() {
            if u <= DODO {
                step.occ |= OPP_TO_MINE_BITS[u as usize];
                step.opp_square[j] = SQUARE[opp.index()][u as usize];
                step.opp_safe[j] = is_homeward_safe(u, rules.outer_end);
            }
        }
        step
    }

    /// A piece landing on (or entering at) track index `t`, or the kitchen, with `mask` already
    /// hammered.
    #[inline]
    pub(super) fn land(&self, t: u8, mask: u8, entering: bool) -> Landing {
        if self.occ >> t & 1 == 0 {
            return Landing::Lands(mask); // an empty square, or the kitchen
        }
        let sq = self.squares[t as usize];
        let mut hit = 0u8;
        let mut safe = false;
        for j in 0..4 {
            if mask >> j & 1 == 0 && self.opp_square[j] == sq {
                if self.opp_safe[j] {
                    safe = true;
                } else {
                    hit |= 1 << j;
                }
            }
        }
        if hit == 0 && !safe {
            return Landing::Lands(mask);
        }
        // [1604.9, 1604.T9]: a piece on an X cannot be hammered, and "two opposing pieces cannot
        // occupy the same safe space".
        if X_BY_TRACK[t as usize] {
            return Landing::Blocked;
        }
        // A homeward piece "can no longer be hammered" [1604.T10]; landing beside it is the
        // `beside-safe` option.
        if safe && !self.share_beside_safe {
            return Landing::Blocked;
        }
        // Entering onto an opposing piece: the `entry-onto` option.
        if entering && hit != 0 && !self.entry_hammers {
            return Landing::NeedsHammer(hit);
        }
        // [1604.8, 1604.T8]: landing on an opponent's piece sends it back off the board
        // (it is "hammered").
        Landing::Lands(mask | hit)
    }

    /// Whether an opposing piece stands on track index `t`.
    #[inline]
    pub(super) fn occupied(&self, t: u8) -> bool {
        self.occ >> t & 1 != 0
    }

    /// Whether an opposing piece stands on any track index of the set `span` (bit `t`).
    #[inline]
    pub(super) fn occupies_any(&self, span: u128) -> bool {
        self.occ & span != 0
    }

    /// Where a piece on track index `pos` moving `v` squares forward lands, if it may.
    /// [1604.7]: "a piece must move the full value of a single throw". No piece passes the dodo:
    /// the texts are silent, and the kitchen is reached only from the dodo [1604.11, 1604.T11],
    /// so a longer move has nowhere to land (docs/rules/bargese.md). A piece off the board or in
    /// the kitchen does not move forward.
    #[inline]
    pub(super) fn forward(pos: u8, v: u8) -> Option<u8> {
        (pos <= DODO && pos + v <= DODO).then_some(pos + v)
    }

    /// Where the whole throw of kind `k` (by mouths up, worth `v`) takes a piece on `pos`, and
    /// whether that is an entry. Pieces enter only by a dust or bange [1604.3, 1604.T2]: a dust on
    /// the X in the right-hand row of the player's arm ([`X_ENTRY`]), a bange on the bange square
    /// (`bange-entry`, `bange-square`). On the track, the throw's full value [1604.7].
    #[inline]
    pub(super) fn whole(&self, pos: u8, k: usize, v: u8) -> Option<(u8, bool)> {
        if pos == OFF {
            self.entry(k).map(|t| (t, true))
        } else {
            Self::forward(pos, v).map(|t| (t, false))
        }
    }

    /// The square a whole throw of kind `k` enters a piece on, if it may ([`entry_square`]).
    #[inline]
    pub(super) fn entry(&self, k: usize) -> Option<u8> {
        entry_square(k, self.bange_entry, self.bange_square)
    }

    /// Where the hal (the 1 of a dust or bange) takes a piece on `pos`, and whether that is an
    /// entry. It enters a piece on the entry square next to the kitchen ("10 plus the hal
    /// entering next to the kitchen" [1604.3, 1604.T2]); the dodo "will only take the hal" into
    /// the kitchen [1604.11, 1604.T11]; under `hal=step` it may also step any piece one square,
    /// under `hal=onto-dodo` (the default) the piece one short of the dodo onto it.
    #[inline]
    pub(super) fn hal(&self, pos: u8) -> Option<(u8, bool)> {
        if pos == OFF {
            Some((ENTRY, true))
        } else if pos == DODO {
            Some((KITCHEN, false))
        } else if pos < DODO && (self.hal_any || (self.hal_onto_dodo && pos + HAL == DODO)) {
            Some((pos + HAL, false))
        } else {
            None
        }
    }

    /// Whether entering onto a hammerable opposing piece hammers it (`entry-onto=hammer`) rather
    /// than waiting on an earlier hammering.
    #[inline]
    pub(super) fn entry_hammers(&self) -> bool {
        self.entry_hammers
    }

    /// What [`whole`](Self::whole), [`entry`](Self::entry) and [`hal`](Self::hal) depend on
    /// besides the throw and the square, in one byte: equal keys, equal answers. (Where a piece
    /// may land on the opposing pieces is [`land`](Self::land), not part of it.)
    #[inline]
    pub(super) fn key(&self) -> u8 {
        u8::from(self.bange_entry)
            | self.bange_square << 1
            | u8::from(self.hal_any) << 6
            | u8::from(self.hal_onto_dodo) << 7
    }
}

/// Whether a piece on `pos` has finished: in the kitchen, where no use moves it ([`Step::whole`]
/// and [`Step::hal`] take it nowhere). Bringing pieces into the kitchen is the aim of the game
/// [1604.11, 1604.T12].
#[inline]
pub(super) fn finished(pos: u8) -> bool {
    pos == KITCHEN
}

/// Under the `remainder` readings that make a hal and its remainder one use (`with-hal`,
/// `other-piece`), whether the remainder may go to a piece just after its hal: to another piece
/// than the hal's, both readings; to the hal's own piece (`own`) only under `with-hal` and only if
/// the hal entered it (`entered`), the entry and the remainder on from there making one move of the
/// throw's full value (on the track that move is the whole throw, played as one use). The texts:
/// "another piece can move the other 10 or 24 squares" [1604.T11], the remaining value "can be
/// used by other pieces" [1604.11]; docs/rules/bargese.md discusses the readings.
#[inline]
pub(super) fn may_take_remainder(remainder: Remainder, own: bool, entered: bool) -> bool {
    !own || (remainder == Remainder::WithHal && entered)
}

/// Which plays the throws oblige. Under `must-use=max` only the plays of the best
/// [`score`](Obligation::score): the more throws a play uses the better (a dust or bange counts as
/// used once its hal is played), then, under `leftover=fewest`, the fewer 10s and 24s of played
/// hals it leaves unplayed. The texts are silent on throws no piece can use; the obligation is our
/// rule (docs/rules/bargese.md). Under `must-use=free` every play is allowed.
#[derive(Clone, Copy, Debug)]
pub(super) struct Obligation {
    free: bool,
    fewest: bool,
}

impl Obligation {
    /// The obligation of `rules` (`must-use`, `leftover`).
    pub(super) fn new(rules: &BargeseRules) -> Obligation {
        Obligation {
            free: rules.must_use == MustUse::Free,
            fewest: rules.leftover == Leftover::Fewest,
        }
    }

    /// The worth of a play that uses `used` throws and leaves `unplayed` 10s and 24s of played
    /// hals unplayed.
    #[inline]
    pub(super) fn score(self, used: u32, unplayed: u32) -> i64 {
        (i64::from(used) << 20) - i64::from(self.fewest) * i64::from(unplayed)
    }

    /// Whether a play using every throw and leaving no 10 or 24 unplayed is allowed alone
    /// whenever one exists: under `must-use=max` with `leftover=fewest` it outscores every other
    /// play, under `leftover=optional` plays leaving a 10 or 24 tie with it.
    #[inline]
    pub(super) fn full_use_beats_all(self) -> bool {
        !self.free && self.fewest
    }
}

/// The plays an [`Obligation`] allows among those met so far: under `must-use=max` those of the
/// best score met, under `free` all of them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Best {
    free: bool,
    best: i64,
}

impl Best {
    /// Nothing met yet.
    #[inline]
    pub(super) fn new(obligation: Obligation) -> Best {
        Best {
            free: obligation.free,
            best: i64::MIN,
        }
    }

    /// Whether a play worth `score` is allowed beside those met so far (`false`: drop it).
    #[inline]
    pub(super) fn admits(&self, score: i64) -> bool {
        self.free || score >= self.best
    }

    /// Meets an admitted play worth `score`; whether the plays kept so far are no longer allowed
    /// (it outscores them: drop them).
    #[inline]
    pub(super) fn meet(&mut self, score: i64) -> bool {
        let better = !self.free && score > self.best;
        if better {
            self.best = score;
        }
        better
    }
}
