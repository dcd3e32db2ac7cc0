//! The uses one more throw (or part of one) allows a piece, in the terms the generator combines
//! (projected use vectors), and the per-piece states they lead to. Where a use takes a piece
//! and whether it may land there is asked of [`super::step`], never decided here.

use super::board::{KITCHEN, OFF};
use super::packing::{hal_unit, pfield, punit, BALANCE, D_OFF, NOTHING};
use super::step::{finished, Landing, Obligation, Step};
use super::throws::{HAL_KINDS, VALUES};

// A piece state: needs mask (bits 0..4), hammered mask (4..8), position code (8..15), and the
// projected use vector from bit 15 (see `PBITS`), so that states sort by it first.
const USED_SHIFT: u32 = 15;

#[inline]
pub(super) fn state_used(s: u128) -> u128 {
    s >> USED_SHIFT
}

#[inline]
fn state_pos(s: u128) -> u8 {
    (s >> 8) as u8 & 127
}

#[inline]
fn state_mask(s: u128) -> u8 {
    (s >> 4) as u8 & 15
}

#[inline]
fn state_needs(s: u128) -> u8 {
    s as u8 & 15
}

#[inline]
fn make_state(used: u128, pos: u8, mask: u8, needs: u8) -> u128 {
    used << USED_SHIFT | u128::from(pos) << 8 | u128::from(mask) << 4 | u128::from(needs)
}

/// Steps of progress: off the board 0, track index `t` is `t + 1`, the kitchen 84.
#[inline]
fn progress(pos: u8) -> usize {
    match pos {
        OFF => 0,
        KITCHEN => 84,
        t => usize::from(t) + 1,
    }
}

/// A piece's contribution to a partial result: position (bits 0..7), hammered (7..11), needs
/// hammered (11..15).
#[inline]
pub(super) fn piece_part(s: u128) -> u32 {
    u32::from(state_pos(s)) | u32::from(state_mask(s)) << 7 | u32::from(state_needs(s)) << 11
}

/// Every state one piece starting on `start` can reach, sorted, into `out`.
pub(super) fn piece_states(ctx: &Ctx, start: u8, levels: &mut [Vec<u128>], out: &mut Vec<u128>) {
    out.clear();
    let first = make_state(NOTHING, start, 0, 0);
    let lo = progress(start);
    levels[lo].push(first);
    // Bit `l`: level `l` has states waiting.
    let mut waiting: u128 = 1 << lo;
    while waiting != 0 {
        let lv = waiting.trailing_zeros() as usize;
        waiting &= waiting - 1;
        let mut layer = std::mem::take(&mut levels[lv]);
        if layer.len() > 1 {
            layer.sort_unstable();
            layer.dedup();
        }
        for &s in &layer {
            out.push(s);
            // Every use moves the piece forward, so children sit on higher levels.
            ctx.steps(s, |c| {
                let l = progress(state_pos(c));
                waiting |= 1 << l;
                levels[l].push(c);
            });
        }
        layer.clear();
        levels[lv] = layer;
    }
    out.sort_unstable();
}

/// What does not change during the turn: the throws, and the turn's rules of play.
pub(super) struct Ctx {
    pub(super) counts: [u32; 7],
    /// The throws in all.
    pub(super) throws: u32,
    /// Which plays the throws oblige.
    pub(super) obligation: Obligation,
    /// Where uses take pieces and what landings do.
    pub(super) step: Step,
}

impl Ctx {
    /// Whether one more whole use or hal of throw kind `k` fits in the throws.
    #[inline]
    fn has(&self, used: u128, k: usize) -> bool {
        pfield(used, k) < self.counts[k]
    }

    /// Whether one more remainder of throw kind `k` (a 10 or 24; `f` its balance field) may be
    /// played by a piece whose projected vector is `used`: its remainders beyond its hals, plus
    /// the throws of kind `k` it consumed, stay within those thrown (the other pieces' hals come
    /// from the rest).
    #[inline]
    fn has_rem(&self, used: u128, k: usize, f: usize) -> bool {
        let beyond = D_OFF as i64 - i64::from(pfield(used, f)) + 1;
        beyond + i64::from(pfield(used, k)) <= i64::from(self.counts[k])
    }

    /// Calls `push` with every state one use away from `s`.
    #[inline]
    fn steps(&self, s: u128, mut push: impl FnMut(u128)) {
        let used = state_used(s);
        let pos = state_pos(s);
        let mask = state_mask(s);
        let needs = state_needs(s);
        if finished(pos) {
            return; // no use moves it
        }
        self.uses(used, pos == OFF, |reach, used| {
            let Some((t, entering)) = self.target(pos, reach) else {
                return;
            };
            match self.step.land(t, mask, entering) {
                Landing::Lands(m) => push(make_state(used, t, m, needs)),
                Landing::NeedsHammer(h) => push(make_state(used, t, mask, needs | h)),
                Landing::Blocked => {}
            }
        });
    }

    /// Calls `f` with every use one more throw (or part of one) allows a piece whose projected
    /// vector is `used`, and the vector after it; `off_board`: the piece has not entered, and
    /// its first use must enter it.
    #[inline]
    pub(super) fn uses(&self, used: u128, off_board: bool, mut f: impl FnMut(Reach, u128)) {
        if off_board {
            // A whole throw that enters a piece, or a hal.
            for k in 0..VALUES.len() {
                if self.has(used, k) {
                    if let Some(t) = self.step.entry(k) {
                        f(Reach::Enter(t), used + punit(k));
                    }
                }
            }
            for (h, &(k, _)) in HAL_KINDS.iter().enumerate() {
                if self.has(used, k) {
                    if let Some((t, _)) = self.step.hal(OFF) {
                        f(Reach::Enter(t), used + hal_unit(h));
                    }
                }
            }
            return;
        }
        for (k, &v) in VALUES.iter().enumerate() {
            if self.has(used, k) {
                f(Reach::Forward(v), used + punit(k));
            }
        }
        // The 10 of a dust or 24 of a bange whose hal is (or will be) played elsewhere.
        for (h, &(k, r)) in HAL_KINDS.iter().enumerate() {
            if self.has_rem(used, k, BALANCE[h]) {
                f(Reach::Forward(r), used - punit(BALANCE[h]));
            }
        }
        for (h, &(k, _)) in HAL_KINDS.iter().enumerate() {
            if self.has(used, k) {
                f(Reach::Hal, used + hal_unit(h));
            }
        }
    }

    /// Where a use takes a piece on `pos` (a track index, the kitchen or off the board), and
    /// whether that is an entry; `None` if it cannot ([`Step`] decides).
    #[inline]
    pub(super) fn target(&self, pos: u8, reach: Reach) -> Option<(u8, bool)> {
        match reach {
            Reach::Forward(v) => Step::forward(pos, v).map(|t| (t, false)),
            Reach::Hal => self.step.hal(pos),
            Reach::Enter(t) => (pos == OFF).then_some((t, true)),
        }
    }
}

/// How a use moves a piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Reach {
    /// Forward this many squares (a whole throw, or a hal's 10 or 24).
    Forward(u8),
    /// The hal.
    Hal,
    /// A piece off the board enters on this track index.
    Enter(u8),
}
