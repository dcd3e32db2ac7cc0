//! Whole turns played use by use, for the readings of `remainder` under which a hal and its 10
//! or 24 (the remainder) form one use: `with-hal` (the remainder right after its hal, by any
//! piece) and `other-piece` (by another piece). There the order of the uses matters across
//! pieces, so the per-piece decomposition of [`super::movegen`] does not apply; this search
//! plays the uses one at a time on the pieces and keeps every position it reaches once
//! (a set of `(pieces, hammered, throws left)` states), each a place the player may stop.
//!
//! It also plays the default reading (`any-order`: the hal and its remainder two uses, either
//! first, on any pieces), where the tests check it against the per-piece generator.

use rustc_hash::FxHashSet;

use super::packing::{pack_key, sort4};
use super::rules::Remainder;
use super::step::{finished, may_take_remainder, Best, Landing, Step};
use super::throws::{HAL_KINDS, HAL_OF, VALUES};
use super::uses::Ctx;

/// A position within the turn: the pieces (sorted), the opposing pieces hammered, the throws
/// left by mouths up, and per remainder kind (10, 24) those left by played hals, the hals owed
/// by remainders played first (`any-order` only) and those given up (`with-hal`,
/// `other-piece`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Node {
    pieces: [u8; 4],
    mask: u8,
    left: [u16; 7],
    rem: [u16; 2],
    owed: [u16; 2],
    lost: [u16; 2],
}

struct Search<'a> {
    ctx: &'a Ctx,
    remainder: Remainder,
    seen: FxHashSet<Node>,
    stack: Vec<Node>,
}

impl Search<'_> {
    /// Queues `node` with piece `i` moved to `t` if it may land there.
    fn land(&mut self, node: Node, i: usize, t: u8, entering: bool) -> Option<Node> {
        // Played in order, an entry blocked unless hammered first is blocked: an earlier
        // hammering has already cleared the opposing piece from `land`'s view.
        let Landing::Lands(mask) = self.ctx.step.land(t, node.mask, entering) else {
            return None;
        };
        let mut next = node;
        next.pieces[i] = t;
        next.pieces = sort4(next.pieces);
        next.mask = mask;
        Some(next)
    }

    fn push(&mut self, node: Option<Node>) {
        if let Some(n) = node {
            if self.seen.insert(n) {
                self.stack.push(n);
            }
        }
    }

    /// Every node one use away from `node`.
    fn expand(&mut self, node: Node) {
        let one_use = self.remainder != Remainder::AnyOrder;
        for i in 0..4 {
            let p = node.pieces[i];
            if (i > 0 && p == node.pieces[i - 1]) || finished(p) {
                continue;
            }
            for (k, &v) in VALUES.iter().enumerate() {
                if node.left[k] == 0 {
                    continue;
                }
                let mut rest = node;
                rest.left[k] -= 1;
                // The whole throw, or for a piece off the board an entry on the X or the bange
                // square.
                if let Some((t, entering)) = self.ctx.step.whole(p, k, v) {
                    let n = self.land(rest, i, t, entering);
                    self.push(n);
                }
                let Some((h, r)) = HAL_OF[k] else {
                    continue;
                };
                if let Some((t, entering)) = self.ctx.step.hal(p) {
                    if let Some(after) = self.land(rest, i, t, entering) {
                        if one_use {
                            self.remainder_now(after, h, r, t, entering);
                        } else {
                            let mut n = after;
                            n.rem[h] += 1;
                            self.push(Some(n));
                        }
                    }
                }
                // `any-order`: the remainder first, owing its hal.
                if !one_use {
                    if let Some(t) = Step::forward(p, r) {
                        let mut n = rest;
                        n.owed[h] += 1;
                        let n = self.land(n, i, t, false);
                        self.push(n);
                    }
                }
            }
            if one_use {
                continue;
            }
            for (h, &(_, r)) in HAL_KINDS.iter().enumerate() {
                if node.rem[h] > 0 {
                    if let Some(t) = Step::forward(p, r) {
                        let mut n = node;
                        n.rem[h] -= 1;
                        let n = self.land(n, i, t, false);
                        self.push(n);
                    }
                }
                if node.owed[h] > 0 {
                    if let Some((t, entering)) = self.ctx.step.hal(p) {
                        let mut n = node;
                        n.owed[h] -= 1;
                        let n = self.land(n, i, t, entering);
                        self.push(n);
                    }
                }
            }
        }
    }

    /// The remainder `r` (kind `h`) of a hal just played, which took a piece to `hal_square`
    /// (from off the board if `entered`): on another piece, given up, or (`with-hal`) on the
    /// hal's own piece as one move of the throw's full value.
    fn remainder_now(&mut self, after: Node, h: usize, r: u8, hal_square: u8, entered: bool) {
        let mut lost = after;
        lost.lost[h] += 1;
        self.push(Some(lost));
        // The hal's piece: the first piece on its square (pieces are sorted); an identical one
        // standing there already is another piece.
        let own = after.pieces.iter().position(|&q| q == hal_square);
        for j in 0..4 {
            let q = after.pieces[j];
            if j > 0 && q == after.pieces[j - 1] && Some(j - 1) != own {
                continue;
            }
            if !may_take_remainder(self.remainder, Some(j) == own, entered) {
                continue;
            }
            if let Some(t) = Step::forward(q, r) {
                let n = self.land(after, j, t, false);
                self.push(n);
            }
        }
    }
}

/// Writes into `keys` (cleared first) the sorted distinct result keys of playing the throws of
/// `ctx` with pieces `mine` under `remainder`: those `ctx`'s obligation allows.
pub(super) fn ordered_turn(ctx: &Ctx, mine: [u8; 4], remainder: Remainder, keys: &mut Vec<u32>) {
    keys.clear();
    let mut left = [0u16; 7];
    for (l, &c) in left.iter_mut().zip(&ctx.counts) {
        *l = c as u16;
    }
    let start = Node {
        pieces: sort4(mine),
        mask: 0,
        left,
        rem: [0; 2],
        owed: [0; 2],
        lost: [0; 2],
    };
    let mut search = Search {
        ctx,
        remainder,
        seen: FxHashSet::default(),
        stack: vec![start],
    };
    search.seen.insert(start);
    while let Some(n) = search.stack.pop() {
        search.expand(n);
    }
    let total: u32 = ctx.counts.iter().sum();
    let mut best = Best::new(ctx.obligation);
    for n in &search.seen {
        if n.owed != [0, 0] {
            continue;
        }
        let used = total - n.left.iter().map(|&c| u32::from(c)).sum::<u32>();
        let unplayed = u32::from(n.rem[0] + n.rem[1] + n.lost[0] + n.lost[1]);
        let score = ctx.obligation.score(used, unplayed);
        if !best.admits(score) {
            continue;
        }
        if best.meet(score) {
            keys.clear();
        }
        keys.push(pack_key(n.pieces, n.mask));
    }
    keys.sort_unstable();
    keys.dedup();
    debug_assert!(!keys.is_empty(), "stopping at once is always a result");
}
