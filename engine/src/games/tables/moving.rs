//! The rules of one move: one checker by one die, with their sources. This file is the tables
//! games' only statement of them: [`super::sequences`] (the plain enumeration of whole plays)
//! calls [`Mover`], and the bit-mask search of [`super::movegen`] calls [`may_land`] and
//! [`is_blot`] and is tested equal to [`Mover::target`] on random positions.
//!
//! The rules of a whole play (as many dice as possible, the larger die, doubles four times) are
//! in the play generators' documentation, since each generator applies them by how it searches.
//!
//! Citations use the paragraphs of docs/sources.md: Barakat 1974 (DLP.Evidence.1769) for
//! Frangieh, Barakat 1974 (DLP.Evidence.1773) for Julbahar.

use super::board::{Board, BAR, OFF};
use super::params::{Landing, TablesParams};

/// Whether a checker may land on a point where the opponent has `opposing` checkers: under
/// [`Landing::Hit`] not on two or more (§1769.5), under [`Landing::Block`] not on any
/// (§1773.5).
#[inline]
#[must_use]
pub(super) const fn may_land(landing: Landing, opposing: u8) -> bool {
    match landing {
        Landing::Hit => opposing <= 1,
        Landing::Block => opposing == 0,
    }
}

/// Whether a point with `opposing` opposing checkers holds a blot that landing there hits: a
/// lone checker, under [`Landing::Hit`] (§1769.6: sent to the bar).
#[inline]
#[must_use]
pub(super) const fn is_blot(landing: Landing, opposing: u8) -> bool {
    matches!(landing, Landing::Hit) && opposing == 1
}

/// Whether landing on a point with `opposing` opposing checkers hits: a blot there, and either
/// hits in passing ([`TablesParams::hit_in_passing`]: at once, the modern rule) or the mover
/// still stands there once the play is made (`stands_at_end`; §1769.6: a player who "ends the
/// turn" on the point).
#[inline]
#[must_use]
pub(super) const fn hits(params: &TablesParams, opposing: u8, stands_at_end: bool) -> bool {
    is_blot(params.landing, opposing) && (params.hit_in_passing || stands_at_end)
}

/// Both sides' counts, each in its own numbering (0 off, 25 the bar), as the rules of one move
/// read them, with the mover's checkers outside its home board (the bar included).
#[derive(Clone, Copy)]
pub(super) struct Mover {
    pub(super) me: [u8; 26],
    pub(super) op: [u8; 26],
    pub(super) outside: u32,
}

impl Mover {
    /// `side`'s view of `board`.
    pub(super) fn new(board: &Board, side: usize) -> Mover {
        let me = board.counts()[side];
        Mover {
            me,
            op: board.counts()[1 - side],
            outside: me[7..26].iter().map(|&c| u32::from(c)).sum(),
        }
    }

    /// Whether the mover may land on its point `to` (1 to 24).
    pub(super) fn open(&self, to: usize, params: &TablesParams) -> bool {
        may_land(params.landing, self.op[params.direction.other(to)])
    }

    /// Where a checker on `from` goes with die `d` by a move along the track or an exact
    /// bear-off, if it may: a point, or [`OFF`]. A higher die's bear-off is
    /// [`Mover::higher_bear_off`].
    pub(super) fn plain_target(
        &self,
        from: usize,
        d: usize,
        params: &TablesParams,
    ) -> Option<usize> {
        // [1769.7]: no other checker moves while one is on the bar.
        if self.me[from] == 0 || (self.me[BAR] > 0 && from != BAR) {
            return None;
        }
        if from > d {
            // Along the track ([1769.4]); from the bar a die d enters on the mover's point
            // 25 - d ([1769.7]: the origin counts as a move of one, so a 1 enters on the
            // opponent's first point).
            let to = from - d;
            return self.open(to, params).then_some(to);
        }
        // Exact bear-off: [1769.8] once all are home; [1773.7] also earlier, by the exact
        // throw (`early_exact`).
        (from == d && (self.outside == 0 || params.bear_off.early_exact)).then_some(OFF)
    }

    /// The slot from which die `d` bears a checker off although it is higher than needed, if
    /// any (the sources allow only exact numbers; `bear-off` names the readings): all checkers
    /// home; the highest occupied point if it is below `d` (the modern rule); under `rearmost`,
    /// the highest occupied point below `d`, and only when no checker can use `d` otherwise.
    pub(super) fn higher_bear_off(&self, d: usize, params: &TablesParams) -> Option<usize> {
        if !params.bear_off.higher_die || self.outside != 0 {
            return None;
        }
        if params.bear_off.rearmost {
            if (1..26).any(|f| self.plain_target(f, d, params).is_some()) {
                return None;
            }
            return (1..d).rev().find(|&p| self.me[p] > 0);
        }
        let top = (1..7).rev().find(|&p| self.me[p] > 0)?;
        (top < d).then_some(top)
    }

    /// Where a checker on `from` goes with die `d`, if it may: a point, or [`OFF`]. The one-slot
    /// form of [`Mover::moves`], which the bit-mask search is tested against.
    #[cfg(test)]
    pub(super) fn target(&self, from: usize, d: usize, params: &TablesParams) -> Option<usize> {
        self.plain_target(from, d, params)
            .or_else(|| (self.higher_bear_off(d, params) == Some(from)).then_some(OFF))
    }

    /// The mover's moves with die `d` into `out`: (from, to) pairs, starting slots from the bar
    /// down; returns how many.
    pub(super) fn moves(&self, d: usize, params: &TablesParams, out: &mut [(u8, u8); 25]) -> usize {
        let higher = self.higher_bear_off(d, params);
        let mut n = 0;
        for from in (1..26).rev() {
            if let Some(to) = self.plain_target(from, d, params) {
                out[n] = (from as u8, to as u8);
                n += 1;
            } else if higher == Some(from) {
                out[n] = (from as u8, OFF as u8);
                n += 1;
            }
        }
        n
    }

    /// Makes one move; under hits in passing a blot where it lands goes to the bar at once
    /// (otherwise the play's hits are decided once it is made: [`hits`]).
    pub(super) fn step(&mut self, from: usize, to: usize, params: &TablesParams) {
        self.me[from] -= 1;
        self.me[to] += 1;
        if from >= 7 && to < 7 {
            self.outside -= 1;
        }
        if to != OFF && params.hit_in_passing {
            let q = params.direction.other(to);
            if is_blot(params.landing, self.op[q]) {
                self.op[q] = 0;
                self.op[BAR] += 1;
            }
        }
    }
}
