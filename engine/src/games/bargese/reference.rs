//! The previous whole-turn generator, kept in test builds as an independent cross-check of
//! [`super::movegen`]: the same per-piece search, but its states are combined piece by piece
//! over sorted lists of full use vectors, where the new generator joins two halves by projected
//! use vectors. Both must give exactly the same actions in the same order.

use std::cell::RefCell;

use super::board::{DODO, ENTRY, KITCHEN, OFF, OUTER_END_HOME, SQUARE, X_BY_TRACK, X_ENTRY};
use super::rules::{BargeseRules, BesideSafe, EntryOnto, Hal, Leftover, MustUse, OuterEnd};
use super::throws::VALUES;
use super::BargeseAction;
use crate::game::Player;

use super::movegen::MAX_COUNT;

// A use vector: 11 fields of 10 bits. Fields 0..7: whole throws by mouths up (a dust's X entry
// and a bange's bange-square entry count as whole); 7, 8: hals of a dust, of a bange; 9, 10:
// the 10s and 24s played. Every field of a vector that passed `partial_ok`, and of a piece's
// vector, is at most 511, so adding two never carries between fields, and bit 9 of each field
// serves as a guard for field-wise subtraction.
const FIELD_BITS: usize = 10;
const GUARD: u128 = {
    let mut g = 0u128;
    let mut f = 0;
    while f < 11 {
        g |= 1u128 << (f * FIELD_BITS + 9);
        f += 1;
    }
    g
};
const HAL_D: usize = 7;
const HAL_B: usize = 8;
const REM10: usize = 9;
const REM24: usize = 10;
// A piece state: needs mask (bits 0..4), hammered mask (4..8), position code (8..15), and the
// use vector from bit 15, so that states sort by use vector first.
const USED_SHIFT: u32 = 15;
const NO_SQUARE: u16 = u16::MAX;

#[inline]
const fn unit(f: usize) -> u128 {
    1u128 << (FIELD_BITS * f)
}

#[inline]
fn field(v: u128, f: usize) -> u32 {
    (v >> (FIELD_BITS * f)) as u32 & 1023
}

#[inline]
fn state_used(s: u128) -> u128 {
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

/// Packs sorted pieces and the hammered mask so that numeric order is lexicographic order of
/// `(pieces[0], .., pieces[3], hammered)`.
#[inline]
fn pack_key(p: [u8; 4], mask: u8) -> u32 {
    (u32::from(p[0]) << 25)
        | (u32::from(p[1]) << 18)
        | (u32::from(p[2]) << 11)
        | (u32::from(p[3]) << 4)
        | u32::from(mask)
}

#[inline]
fn unpack_key(k: u32) -> ([u8; 4], u8) {
    (
        [
            (k >> 25) as u8 & 127,
            (k >> 18) as u8 & 127,
            (k >> 11) as u8 & 127,
            (k >> 4) as u8 & 127,
        ],
        (k & 15) as u8,
    )
}

/// What a landing does.
enum Landing {
    /// Legal; the hammered mask afterwards.
    Lands(u8),
    /// Illegal.
    Blocked,
    /// An entry blocked by these opposing pieces unless another piece hammers them first
    /// (`entry-onto=blocked`).
    NeedsHammer(u8),
}

/// What does not change during the turn: the throws, the opposing pieces and the rules.
struct Ctx {
    counts: [u32; 7],
    squares: &'static [u16; 83],
    opp_square: [u16; 4],
    opp_safe: [bool; 4],
    hal_any: bool,
    hal_onto_dodo: bool,
    bange_entry: bool,
    bange_square: u8,
    entry_hammers: bool,
    share_beside_safe: bool,
}

impl Ctx {
    /// A piece landing on (or entering at) track index `t`, with `mask` already hammered.
    #[inline]
    fn land(&self, t: u8, mask: u8, entering: bool) -> Landing {
        if t == KITCHEN {
            return Landing::Lands(mask);
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
        // Finkel 2002: no piece on an X can be hammered, and "two opposing pieces cannot occupy the
        // same safe space" (both texts).
        if X_BY_TRACK[t as usize] {
            return Landing::Blocked;
        }
        // A homeward piece "can no longer be hammered" (Tajeddin); landing beside it is the
        // `beside-safe` option.
        if safe && !self.share_beside_safe {
            return Landing::Blocked;
        }
        // Entering onto an opposing piece: the `entry-onto` option.
        if entering && hit != 0 && !self.entry_hammers {
            return Landing::NeedsHammer(hit);
        }
        // Finkel 2002: landing on an opponent's piece sends it back off the board ("hammer").
        Landing::Lands(mask | hit)
    }

    /// Whether one more whole use or hal of throw kind `k` fits in the throws.
    #[inline]
    fn has(&self, used: u128, k: usize) -> bool {
        let hal = match k {
            1 => field(used, HAL_D),
            5 => field(used, HAL_B),
            _ => 0,
        };
        field(used, k) + hal < self.counts[k]
    }

    /// Whether a (partial) total use vector fits in the throws.
    #[inline]
    fn partial_ok(&self, v: u128) -> bool {
        for k in 0..7 {
            let hal = match k {
                1 => field(v, HAL_D),
                5 => field(v, HAL_B),
                _ => 0,
            };
            if field(v, k) + hal > self.counts[k] {
                return false;
            }
        }
        field(v, REM10) <= self.counts[1] && field(v, REM24) <= self.counts[5]
    }

    /// Calls `push` with every state one use away from `s`.
    #[inline]
    fn steps(&self, s: u128, mut push: impl FnMut(u128)) {
        let used = state_used(s);
        let pos = state_pos(s);
        let mask = state_mask(s);
        let needs = state_needs(s);
        let mut go = |t: u8, used: u128, entering: bool| match self.land(t, mask, entering) {
            Landing::Lands(m) => push(make_state(used, t, m, needs)),
            Landing::NeedsHammer(h) => push(make_state(used, t, mask, needs | h)),
            Landing::Blocked => {}
        };
        if pos == OFF {
            // Pieces enter only by a dust or bange (Finkel 2002): a dust on the X in the right-hand
            // row of the player's arm, a bange on the bange square, or the hal of either next to
            // the kitchen ("10 in addition to entering a piece on the first square").
            if self.has(used, 1) {
                go(X_ENTRY, used + unit(1), true);
                go(ENTRY, used + unit(HAL_D), true);
            }
            if self.has(used, 5) {
                if self.bange_entry {
                    go(self.bange_square, used + unit(5), true);
                }
                go(ENTRY, used + unit(HAL_B), true);
            }
            return;
        }
        if pos > DODO {
            return;
        }
        // Finkel 2002: "a piece must move the full value of a single throw" [1604.7]; no piece
        // passes the dodo (the texts are silent; docs/rules/bargese.md).
        for (k, &v) in VALUES.iter().enumerate() {
            if pos + v <= DODO && self.has(used, k) {
                go(pos + v, used + unit(k), false);
            }
        }
        // The 10 of a dust or 24 of a bange whose hal is (or will be) played elsewhere:
        // "another piece can move the other 10 or 24 squares" (Tajeddin).
        if pos + 10 <= DODO && field(used, REM10) < self.counts[1] {
            go(pos + 10, used + unit(REM10), false);
        }
        if pos + 24 <= DODO && field(used, REM24) < self.counts[5] {
            go(pos + 24, used + unit(REM24), false);
        }
        // The hal: the dodo "will only take the hal" into the kitchen (Tajeddin); under
        // `hal=step` it may step any piece one square.
        for (k, hal) in [(1, HAL_D), (5, HAL_B)] {
            if !self.has(used, k) {
                continue;
            }
            if pos == DODO {
                go(KITCHEN, used + unit(hal), false);
            } else if self.hal_any || (self.hal_onto_dodo && pos + 1 == DODO) {
                // `hal=onto-dodo`: only the piece one short of the dodo steps.
                go(pos + 1, used + unit(hal), false);
            }
        }
    }
}

#[derive(Default)]
struct Scratch {
    levels: Vec<Vec<u128>>,
    states: [Vec<u128>; 4],
    /// Per piece: `(use vector, first state, end state)` for each distinct use vector.
    groups: [Vec<(u128, u32, u32)>; 4],
    cum: [Vec<u128>; 4],
    targets: Vec<(i64, u128)>,
    /// `reach[i]`: totals of pieces `0..=i` from which the chosen totals can be completed.
    reach: [Vec<u128>; 4],
    /// `(total so far, partial result)` of the level being built, and of the next.
    level: Vec<(u128, u64)>,
    next: Vec<(u128, u64)>,
    results: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Every state one piece starting on `start` can reach, sorted (by use vector first), into
/// `out`, and its groups of equal use vectors into `groups`.
fn piece_states(
    ctx: &Ctx,
    start: u8,
    levels: &mut [Vec<u128>],
    out: &mut Vec<u128>,
    groups: &mut Vec<(u128, u32, u32)>,
) {
    out.clear();
    groups.clear();
    let lo = progress(start);
    let mut hi = lo;
    levels[lo].push(make_state(0, start, 0, 0));
    let mut lv = lo;
    while lv <= hi {
        if !levels[lv].is_empty() {
            let mut layer = std::mem::take(&mut levels[lv]);
            layer.sort_unstable();
            layer.dedup();
            for &s in &layer {
                out.push(s);
                // Every use moves the piece forward, so children sit on higher levels.
                ctx.steps(s, |c| {
                    let l = progress(state_pos(c));
                    hi = hi.max(l);
                    levels[l].push(c);
                });
            }
            layer.clear();
            levels[lv] = layer;
        }
        lv += 1;
    }
    out.sort_unstable();
    let mut i = 0;
    while i < out.len() {
        let u = state_used(out[i]);
        let mut j = i + 1;
        while j < out.len() && state_used(out[j]) == u {
            j += 1;
        }
        groups.push((u, i as u32, j as u32));
        i = j;
    }
}

/// Writes into `out` (cleared first) every distinct result of playing `throws` (counts by mouths
/// up) for `me`, in ascending order of `(pieces, hammered)`. Always writes at least one action:
/// when no throw can be used, the unchanged position (a pass).
pub(super) fn generate(
    me: Player,
    mine: [u8; 4],
    theirs: [u8; 4],
    throws: &[u16; 7],
    rules: &BargeseRules,
    out: &mut Vec<BargeseAction>,
) {
    out.clear();
    let opp = me.opponent();
    let mut ctx = Ctx {
        counts: throws.map(|c| u32::from(c.min(MAX_COUNT))),
        squares: &SQUARE[me.index()],
        opp_square: [NO_SQUARE; 4],
        opp_safe: [false; 4],
        hal_any: rules.hal == Hal::Step,
        hal_onto_dodo: rules.hal == Hal::OntoDodo,
        bange_entry: rules.bange_entry,
        bange_square: rules.bange_square.track_index(),
        entry_hammers: rules.entry_onto == EntryOnto::Hammer,
        share_beside_safe: rules.beside_safe == BesideSafe::Share,
    };
    for (j, &u) in theirs.iter().enumerate() {
        if u <= DODO {
            ctx.opp_square[j] = SQUARE[opp.index()][u as usize];
            // Finkel 2002: "pieces entering the central row of the player's arm are placed on their
            // side"; Tajeddin: then it "can no longer be hammered". Index 75 is the row's outer
            // end: the `outer-end` option.
            ctx.opp_safe[j] =
                u > OUTER_END_HOME || (u == OUTER_END_HOME && rules.outer_end == OuterEnd::Home);
        }
    }
    let free = rules.must_use == MustUse::Free;
    // No single-throw fast path here (the generator under test has one): every turn goes
    // through the general search, so the cross-check covers single throws too.
    SCRATCH.with(|cell| {
        let s = &mut *cell.borrow_mut();
        if s.levels.len() < 85 {
            s.levels.resize_with(85, Vec::new);
        }
        // 1. Each piece's states (identical pieces share the lists of the first).
        let mut src = [0usize; 4];
        for i in 0..4 {
            if i > 0 && mine[i] == mine[i - 1] {
                src[i] = src[i - 1];
            } else {
                src[i] = i;
                piece_states(
                    &ctx,
                    mine[i],
                    &mut s.levels,
                    &mut s.states[i],
                    &mut s.groups[i],
                );
            }
        }
        // 2. cum[i]: the total use vectors pieces 0..=i can reach together.
        for (i, &from) in src.iter().enumerate() {
            let mut cum = std::mem::take(&mut s.cum[i]);
            cum.clear();
            let groups = &s.groups[from];
            if i == 0 {
                cum.extend(groups.iter().map(|g| g.0));
            } else {
                for &v in &s.cum[i - 1] {
                    for g in groups {
                        let t = v + g.0;
                        if ctx.partial_ok(t) {
                            cum.push(t);
                        }
                    }
                }
                cum.sort_unstable();
                cum.dedup();
            }
            s.cum[i] = cum;
        }
        // 3. Valid totals (no 10 or 24 without its hal) with their scores, best first.
        s.targets.clear();
        for &t in &s.cum[3] {
            let (hd, hb) = (field(t, HAL_D), field(t, HAL_B));
            let (r10, r24) = (field(t, REM10), field(t, REM24));
            if r10 > hd || r24 > hb {
                continue;
            }
            let mut used = i64::from(hd + hb);
            for k in 0..7 {
                used += i64::from(field(t, k));
            }
            // `leftover=optional`: a hal's unplayed 10 or 24 does not count against a total.
            let weight = i64::from(rules.leftover == Leftover::Fewest);
            let pending = weight * i64::from(hd - r10 + hb - r24);
            s.targets.push(((used << 20) - pending, t));
        }
        s.targets.sort_unstable_by(|a, b| b.cmp(a));
        s.results.clear();
        let mut i = 0;
        while i < s.targets.len() {
            let score = s.targets[i].0;
            let mut reach3 = std::mem::take(&mut s.reach[3]);
            reach3.clear();
            while i < s.targets.len() && (free || s.targets[i].0 == score) {
                reach3.push(s.targets[i].1);
                i += 1;
            }
            reach3.sort_unstable();
            s.reach[3] = reach3;
            combine(s, &src);
            // Under entry-onto=blocked a best total may have no valid completion; then the
            // next best counts.
            if free || !s.results.is_empty() {
                break;
            }
        }
        s.results.sort_unstable();
        s.results.dedup();
        out.extend(s.results.iter().map(|&k| {
            let (pieces, hammered) = unpack_key(k);
            BargeseAction { pieces, hammered }
        }));
    });
    if out.is_empty() {
        // Not reached (using nothing is always valid), but the contract wants an action.
        out.push(BargeseAction {
            pieces: mine,
            hammered: 0,
        });
    }
}

/// Adds a chosen piece state to a partial result: the positions so far kept sorted in the low
/// 28 bits (7 bits each, `count` of them), the hammered mask in bits 28..32, needs in 32..36.
#[inline]
fn add_to_partial(partial: u64, count: usize, state: u128) -> u64 {
    let mut p = [0u8; 4];
    for (k, slot) in p.iter_mut().enumerate().take(count) {
        *slot = (partial >> (7 * k)) as u8 & 127;
    }
    // Insert the new position keeping the first `count + 1` sorted.
    let mut j = count;
    let v = state_pos(state);
    while j > 0 && p[j - 1] > v {
        p[j] = p[j - 1];
        j -= 1;
    }
    p[j] = v;
    let mut out = partial & !0x0FFF_FFFF;
    for (k, &x) in p.iter().enumerate().take(count + 1) {
        out |= u64::from(x) << (7 * k);
    }
    out | u64::from(state_mask(state)) << 28 | u64::from(state_needs(state)) << 32
}

/// Step 3: from the chosen totals in `reach[3]`, the sets `reach[i]` of partial totals that can
/// still be completed, then a level-by-level build of partial results (deduplicated at each
/// level, so different orders and splits reaching the same partial position merge), whose
/// final level gives the results.
fn combine(s: &mut Scratch, src: &[usize; 4]) {
    for i in (0..3).rev() {
        let mut reach = std::mem::take(&mut s.reach[i]);
        reach.clear();
        let cum = &s.cum[i];
        for &t in &s.reach[i + 1] {
            for g in &s.groups[src[i + 1]] {
                let d = (t | GUARD).wrapping_sub(g.0);
                if d & GUARD != GUARD {
                    continue; // the piece's vector exceeds the total in some field
                }
                let rest = d ^ GUARD;
                if cum.binary_search(&rest).is_ok() {
                    reach.push(rest);
                }
            }
        }
        reach.sort_unstable();
        reach.dedup();
        s.reach[i] = reach;
    }
    s.level.clear();
    for &(u, start, end) in &s.groups[src[0]] {
        if s.reach[0].binary_search(&u).is_ok() {
            for &x in &s.states[src[0]][start as usize..end as usize] {
                s.level.push((u, add_to_partial(0, 0, x)));
            }
        }
    }
    for (i, &from) in src.iter().enumerate().skip(1) {
        s.next.clear();
        s.level.sort_unstable();
        s.level.dedup();
        let states = &s.states[from];
        let mut a = 0;
        while a < s.level.len() {
            let total = s.level[a].0;
            let mut b = a + 1;
            while b < s.level.len() && s.level[b].0 == total {
                b += 1;
            }
            for &(u, start, end) in &s.groups[from] {
                let t = total + u;
                if s.reach[i].binary_search(&t).is_err() {
                    continue;
                }
                for e in &s.level[a..b] {
                    for &x in &states[start as usize..end as usize] {
                        s.next.push((t, add_to_partial(e.1, i, x)));
                    }
                }
            }
            a = b;
        }
        std::mem::swap(&mut s.level, &mut s.next);
    }
    for &(_, part) in &s.level {
        let mask = (part >> 28) as u8 & 15;
        let needs = (part >> 32) as u8 & 15;
        if needs & !mask != 0 {
            continue;
        }
        let p = [
            part as u8 & 127,
            (part >> 7) as u8 & 127,
            (part >> 14) as u8 & 127,
            (part >> 21) as u8 & 127,
        ];
        s.results.push(pack_key(p, mask));
    }
}
