//! Whole turns of a few throws: a direct search over the order of the uses, faster than the
//! per-piece decomposition of [`super::movegen`] when the throws are few.
//!
//! The search plays one use at a time (a whole throw; a hal whose 10 or 24 stays in the pool;
//! a 10 or 24 played first, owing its hal; a 10 or 24 left by a hal; an owed hal) on one piece,
//! and records every stop that owes no hal, scored as the generator's rule says. Two pruning
//! rules keep it small without losing a result: identical pieces start moving in slot order
//! (they are interchangeable), and, unless an entry may need an earlier hammering
//! (`entry-onto=blocked`), uses go to pieces in non-decreasing slot order (uses on different
//! pieces commute: neither changes whether the other may land, and a 10 played before its hal
//! is the same as after it).

use super::packing::{pack_key, sort4};
use super::step::{finished, Best, Landing, Step};
use super::throws::{HAL_KINDS, HAL_OF, VALUES};
use super::uses::Ctx;

/// The throws not yet played, and what is owed.
#[derive(Clone, Copy)]
struct Pool {
    /// Whole throws by mouths up.
    real: [u8; 7],
    /// 10s and 24s left by hals already played.
    rem: [u8; 2],
    /// Hals owed by 10s and 24s already played.
    owed: [u8; 2],
}

struct Search<'a> {
    ctx: &'a Ctx,
    start: [u8; 4],
    ordered: bool,
    throws: u32,
    best: Best,
    keys: &'a mut Vec<u32>,
}

impl Search<'_> {
    fn stop(&mut self, mine: [u8; 4], mask: u8, pool: &Pool) {
        if pool.owed != [0, 0] {
            return;
        }
        let left: u32 = pool.real.iter().map(|&c| u32::from(c)).sum();
        let unplayed = u32::from(pool.rem[0] + pool.rem[1]);
        let score = self.ctx.obligation.score(self.throws - left, unplayed);
        if !self.best.admits(score) {
            return;
        }
        if self.best.meet(score) {
            self.keys.clear();
        }
        self.keys.push(pack_key(sort4(mine), mask));
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn land(
        &mut self,
        mine: [u8; 4],
        mask: u8,
        i: usize,
        t: u8,
        entering: bool,
        pool: Pool,
        moved: u8,
    ) {
        // Played in order, an entry blocked unless hammered first is blocked: an earlier
        // hammering has already cleared the opposing piece from `land`'s view.
        if let Landing::Lands(m) = self.ctx.step.land(t, mask, entering) {
            let mut next = mine;
            next[i] = t;
            let from = if self.ordered { i } else { 0 };
            self.visit(next, m, pool, from, moved | 1 << i);
        }
    }

    fn visit(&mut self, mine: [u8; 4], mask: u8, pool: Pool, from: usize, moved: u8) {
        self.stop(mine, mask, &pool);
        for i in from..4 {
            if i > 0 && self.start[i - 1] == self.start[i] && moved >> (i - 1) & 1 == 0 {
                continue;
            }
            let p = mine[i];
            if finished(p) {
                continue;
            }
            for (k, &v) in VALUES.iter().enumerate() {
                if pool.real[k] == 0 {
                    continue;
                }
                let mut rest = pool;
                rest.real[k] -= 1;
                if let Some((t, entering)) = self.ctx.step.whole(p, k, v) {
                    self.land(mine, mask, i, t, entering, rest, moved);
                }
                if let Some((h, rv)) = HAL_OF[k] {
                    if let Some((t, entering)) = self.ctx.step.hal(p) {
                        let mut r = rest;
                        r.rem[h] += 1;
                        self.land(mine, mask, i, t, entering, r, moved);
                    }
                    if let Some(t) = Step::forward(p, rv) {
                        let mut r = rest;
                        r.owed[h] += 1;
                        self.land(mine, mask, i, t, false, r, moved);
                    }
                }
            }
            for (h, &(_, rv)) in HAL_KINDS.iter().enumerate() {
                if pool.rem[h] > 0 {
                    if let Some(t) = Step::forward(p, rv) {
                        let mut r = pool;
                        r.rem[h] -= 1;
                        self.land(mine, mask, i, t, false, r, moved);
                    }
                }
                if pool.owed[h] > 0 {
                    if let Some((t, entering)) = self.ctx.step.hal(p) {
                        let mut r = pool;
                        r.owed[h] -= 1;
                        self.land(mine, mask, i, t, entering, r, moved);
                    }
                }
            }
        }
    }
}

/// Writes into `keys` (cleared first) the sorted distinct result keys of playing `counts`
/// (at most a few throws) with pieces `mine`.
pub(super) fn small_turn(ctx: &Ctx, mine: [u8; 4], keys: &mut Vec<u32>) {
    keys.clear();
    let mut real = [0u8; 7];
    for (r, &c) in real.iter_mut().zip(&ctx.counts) {
        *r = c as u8;
    }
    let throws = ctx.counts.iter().sum();
    let mut search = Search {
        ctx,
        start: mine,
        ordered: ctx.step.entry_hammers(),
        throws,
        best: Best::new(ctx.obligation),
        keys,
    };
    let pool = Pool {
        real,
        rem: [0; 2],
        owed: [0; 2],
    };
    search.visit(mine, 0, pool, 0, 0);
    keys.sort_unstable();
    keys.dedup();
}
