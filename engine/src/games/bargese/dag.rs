//! A turn's move patterns: every `(projected use vector, distance moved)` one piece can reach
//! with the turn's throws, and the uses between them, worked out once per multiset of throws and
//! kept; each piece then only walks the pattern from its own square, checking where it lands.
//!
//! What a piece may use depends only on what it has used (see [`Ctx::uses`]); where a use takes
//! it depends on its square (the dodo, the kitchen, off the board: [`Ctx::target`]) and whether
//! it may land there on the opposing pieces. So the pattern is shared by every piece on the
//! track, with a second one for a piece off the board (whose first use must enter it), and the
//! walk gives exactly the states of the breadth-first search of [`super::uses::piece_states`].
//!
//! A walk tracks, per pattern node, the set of hammered masks that reach it (16 bits); it is
//! used when an entry can never need an earlier hammering (`entry-onto=hammer`, the default).
//! When no opposing piece stands where the piece could land, nothing is hammered or blocked and
//! the walk depends on the start square alone: the pattern keeps, per node, the starts that reach
//! it so, worked out when it is made by asking each use's target of [`super::step`] on every
//! square (patterns are kept per [`Step::key`](super::step::Step::key), what else the targets
//! depend on).

use rustc_hash::FxHashMap;

use super::board::{KITCHEN, OFF};
use super::packing::psub;
use super::step::Landing;
use super::throws::HAL;
use super::uses::{Ctx, Reach};

/// Patterns are made for turns of at most this many throws.
pub(super) const MAX_THROWS: u32 = 8;
/// The most patterns kept; the store is emptied when it is full.
const MAX_KEPT: usize = 4096;

/// One multiset's pattern for pieces on the track (or off the board).
pub(super) struct Dag {
    /// Per node, in order of distance: its projected use vector ...
    used: Vec<u128>,
    /// ... and its distance (squares of progress).
    dist: Vec<u8>,
    /// Per node: its edges are `edges[first[n]..first[n + 1]]`.
    first: Vec<u32>,
    /// `(how the use moves the piece, node reached)`.
    edges: Vec<(Reach, u32)>,
    /// Node numbers in ascending order of projected vector (then distance).
    by_used: Vec<u32>,
    /// Per node: bit `s` (of the two words, low first) set if a piece starting on position code
    /// `s` reaches it when no opposing piece stands where it could land.
    open_reach: Vec<[u64; 2]>,
}

impl Dag {
    /// The pattern of `ctx`'s throws from the track (`off_board` false) or from off the board.
    fn build(ctx: &Ctx, off_board: bool, start: u128) -> Dag {
        // Distance in squares of progress: off the board 0, a track index `t` is `t + 1` from
        // there and the kitchen 84. A piece on the track starts at least one square on, so its
        // pattern needs distances up to 83.
        let limit = if off_board { 84 } else { 83 };
        let mut levels: Vec<Vec<u128>> = vec![Vec::new(); limit + 1];
        levels[0].push(start);
        let (mut used_of, mut dist) = (Vec::new(), Vec::new());
        let mut index = FxHashMap::default();
        let mut raw_edges = Vec::new();
        for d in 0..=limit {
            let mut layer = std::mem::take(&mut levels[d]);
            layer.sort_unstable();
            layer.dedup();
            for &used in &layer {
                let n = used_of.len() as u32;
                used_of.push(used);
                dist.push(d as u8);
                index.insert((used, d as u8), n);
                ctx.uses(used, off_board && d == 0, |reach, next| {
                    let step = match reach {
                        Reach::Forward(v) => usize::from(v),
                        Reach::Hal => usize::from(HAL),
                        Reach::Enter(t) => usize::from(t) + 1,
                    };
                    if d + step <= limit {
                        levels[d + step].push(next);
                        raw_edges.push((n, reach, next, (d + step) as u8));
                    }
                });
            }
        }
        let mut first = vec![0u32; used_of.len() + 1];
        let mut edges = Vec::with_capacity(raw_edges.len());
        // Edges were recorded in node order.
        for &(n, reach, next, d) in &raw_edges {
            first[n as usize + 1] += 1;
            edges.push((reach, index[&(next, d)]));
        }
        for n in 0..used_of.len() {
            first[n + 1] += first[n];
        }
        let mut by_used: Vec<u32> = (0..used_of.len() as u32).collect();
        by_used.sort_unstable_by_key(|&n| (used_of[n as usize], dist[n as usize]));
        let open_reach = open_walk(ctx, off_board, &dist, &first, &edges)
            .into_iter()
            .map(|r| [r as u64, (r >> 64) as u64])
            .collect();
        Dag {
            used: used_of,
            dist,
            first,
            edges,
            by_used,
            open_reach,
        }
    }

    /// Calls `out` with every state `(projected vector, position, hammered mask)` a piece on
    /// `start` reaches, grouped by projected vector; `reach` is scratch.
    pub(super) fn walk(
        &self,
        ctx: &Ctx,
        start: u8,
        reach: &mut Vec<u16>,
        out: impl FnMut(u128, u8, u8),
    ) {
        self.fill(ctx, start, reach);
        self.states(start, reach, out);
    }

    /// The square of node `n` for a piece walking from `start`: a piece off the board walks
    /// from distance 0 (still off), one on track index `t` from distance 0 at `t`.
    #[inline]
    pub(super) fn square(&self, start: u8, n: usize) -> u8 {
        // Chosen without a branch: the root is the start square.
        let walked = (Self::base(start) + i32::from(self.dist[n]) - 1) as u8;
        [walked, start][usize::from(n == 0)]
    }

    /// How many nodes (a prefix, nodes being in order of distance) lie within the kitchen for a
    /// piece on `start`; the others are never reached.
    #[inline]
    pub(super) fn reachable_end(&self, start: u8) -> usize {
        let lim = i32::from(KITCHEN) + 1 - Self::base(start);
        self.dist.partition_point(|&d| i32::from(d) <= lim)
    }

    #[inline]
    fn base(start: u8) -> i32 {
        if start == OFF {
            0
        } else {
            i32::from(start) + 1
        }
    }

    /// Fills `reach`: per node, the set of hammered masks (bit `m` for mask `m`) with which a
    /// piece on `start` reaches it.
    pub(super) fn fill(&self, ctx: &Ctx, start: u8, reach: &mut Vec<u16>) {
        reach.clear();
        let base = Self::base(start);
        // The squares the piece could land on: from the first after `start` (the entry square
        // from off the board) to the farthest node's, short of the kitchen (where no opposing
        // piece stands).
        let last = i32::from(*self.dist.last().unwrap_or(&0));
        let (lo, hi) = (
            base.max(1) - 1 + i32::from(start != OFF),
            (base + last - 1).min(i32::from(KITCHEN) - 1),
        );
        let span = if hi >= lo {
            ((1u128 << (hi - lo + 1)) - 1) << lo
        } else {
            0
        };
        if !ctx.step.occupies_any(span) {
            // Nothing to hammer or be blocked by: each set is empty or the empty mask alone.
            let (w, b) = (usize::from(start >= 64), start % 64);
            reach.extend(self.open_reach.iter().map(|r| (r[w] >> b) as u16 & 1));
            return;
        }
        reach.resize(self.used.len(), 0);
        reach[0] = 1;
        for n in 0..self.used.len() {
            let r = reach[n];
            let d = self.dist[n];
            if base + i32::from(d) - 1 > i32::from(KITCHEN) {
                break;
            }
            if r == 0 {
                continue;
            }
            let pos = self.square(start, n);
            for &(how, to) in &self.edges[self.first[n] as usize..self.first[n + 1] as usize] {
                let Some((t, entering)) = ctx.target(pos, how) else {
                    continue;
                };
                debug_assert_eq!(t, self.square(start, to as usize), "a node's square");
                if !ctx.step.occupied(t) {
                    reach[to as usize] |= r;
                    continue;
                }
                let mut masks = r;
                while masks != 0 {
                    let m = masks.trailing_zeros() as u8;
                    masks &= masks - 1;
                    if let Landing::Lands(h) = ctx.step.land(t, m, entering) {
                        reach[to as usize] |= 1 << h;
                    }
                }
            }
        }
    }

    /// Calls `out` with every state `(projected vector, position, hammered mask)` of a filled
    /// `reach`, grouped by projected vector.
    pub(super) fn states(&self, start: u8, reach: &[u16], mut out: impl FnMut(u128, u8, u8)) {
        for &n in &self.by_used {
            let n = n as usize;
            let mut masks = reach[n];
            while masks != 0 {
                let m = masks.trailing_zeros() as u8;
                masks &= masks - 1;
                out(self.used[n], self.square(start, n), m);
            }
        }
    }
}

/// Per node of a pattern (`dist`, and edges `edges[first[n]..first[n + 1]]`): the starts (bit `s`
/// for position code `s`) from which a piece reaches it when no opposing piece stands where it
/// could land; from the track (and the kitchen) for the track pattern, from off the board for
/// the other. Whether a use takes a piece on a square anywhere is asked of [`Ctx::target`] once
/// per use and square; a piece on track index `s` is on `s + d` at a node of distance `d`.
fn open_walk(
    ctx: &Ctx,
    off_board: bool,
    dist: &[u8],
    first: &[u32],
    edges: &[(Reach, u32)],
) -> Vec<u128> {
    let mut open = vec![0u128; dist.len()];
    if dist.is_empty() {
        return open;
    }
    let out = |n: usize| &edges[first[n] as usize..first[n + 1] as usize];
    if off_board {
        // One start: off the board, then on track index `d - 1` at distance `d`.
        open[0] = 1 << OFF;
        for n in 0..dist.len() {
            let pos = if n == 0 { OFF } else { dist[n] - 1 };
            if open[n] == 0 || (n > 0 && pos > KITCHEN) {
                continue;
            }
            for &(how, to) in out(n) {
                if ctx.target(pos, how).is_some() {
                    open[to as usize] |= open[n];
                }
            }
        }
        return open;
    }
    // Per use met (a move forward by its length, the hal): the squares (bit `p`, the track and
    // the kitchen) from which it takes a piece somewhere. The track's pattern has no entries
    // (`Ctx::uses` lists none for a piece on the board).
    let squares = |how: Reach| {
        (0..=KITCHEN)
            .filter(|&p| ctx.target(p, how).is_some())
            .fold(0u128, |m, p| m | 1 << p)
    };
    let mut forward = [None::<u128>; 256];
    let mut hal = None::<u128>;
    open[0] = (1u128 << (KITCHEN + 1)) - 1;
    for n in 0..dist.len() {
        let r = open[n];
        if r == 0 {
            continue;
        }
        for &(how, to) in out(n) {
            let from = match how {
                Reach::Forward(v) => *forward[usize::from(v)].get_or_insert_with(|| squares(how)),
                Reach::Hal => *hal.get_or_insert_with(|| squares(how)),
                Reach::Enter(_) => 0,
            };
            open[to as usize] |= r & from >> dist[n];
        }
    }
    open
}

/// The node tuples of a turn whose vectors sum to `full` (every throw used, no 10 or 24 left
/// over), for `k` pieces off the board (the last `k`, as pieces are sorted) and the others on
/// the track: the second half's node pairs grouped by what they sum to, and each first-half
/// pair with the group completing it.
pub(super) struct FullPairs {
    /// `(node of piece 0, node of piece 1, group)`, in order of the first node.
    pub(super) first: Vec<(u16, u16, u32)>,
    /// Per node of piece 0: its range of `first`.
    pub(super) by_first: Vec<(u32, u32)>,
    /// Per group: its range of `second`.
    pub(super) groups: Vec<(u32, u32)>,
    /// `(node of piece 2, node of piece 3)`.
    pub(super) second: Vec<(u16, u16)>,
}

/// The full-use pairs, or `None` if there are too many to keep.
fn full_pairs(track: &Dag, off: &Dag, k: usize, full: u128) -> Option<FullPairs> {
    let of = |slot: usize| if slot < 4 - k { track } else { off };
    let mut by_sum: FxHashMap<u128, Vec<(u16, u16)>> = FxHashMap::default();
    for (c, &uc) in of(2).used.iter().enumerate() {
        for (d, &ud) in of(3).used.iter().enumerate() {
            if psub(full, uc + ud).is_some() {
                by_sum
                    .entry(uc + ud)
                    .or_default()
                    .push((c as u16, d as u16));
            }
        }
    }
    let mut id_of = FxHashMap::default();
    let (mut groups, mut second) = (Vec::new(), Vec::new());
    let mut first = Vec::new();
    let mut by_first = Vec::with_capacity(of(0).used.len());
    for (a, &ua) in of(0).used.iter().enumerate() {
        let start = first.len() as u32;
        for (b, &ub) in of(1).used.iter().enumerate() {
            let Some(need) = psub(full, ua + ub) else {
                continue;
            };
            let Some(rest) = by_sum.get(&need) else {
                continue;
            };
            let id = *id_of.entry(need).or_insert_with(|| {
                let start = second.len() as u32;
                second.extend_from_slice(rest);
                groups.push((start, second.len() as u32));
                (groups.len() - 1) as u32
            });
            first.push((a as u16, b as u16, id));
            if first.len() + second.len() > MAX_TUPLES {
                return None;
            }
        }
        by_first.push((start, first.len() as u32));
    }
    Some(FullPairs {
        first,
        by_first,
        groups,
        second,
    })
}

/// Full-use tuples are listed for turns of at most this many throws ...
pub(super) const TUPLE_THROWS: u32 = 4;
/// ... and kept if there are at most this many.
const MAX_TUPLES: usize = 1 << 16;

/// The patterns made so far, by throws and rules, with their full-use tuples.
#[derive(Default)]
pub(super) struct Store {
    /// Per multiset of throws (and [`Step::key`](super::step::Step::key)): its number in `kept`.
    numbers: FxHashMap<u64, u32>,
    kept: Vec<Patterns>,
}

/// One multiset's patterns from the track and from off the board, and its full-use tuples per
/// number of pieces off the board, made when first asked for (the inner `None`: too many).
struct Patterns {
    track: Dag,
    off: Dag,
    tuples: [Option<Option<FullPairs>>; 5],
}

impl Store {
    /// The patterns for `ctx`'s throws, made if new.
    fn patterns(&mut self, ctx: &Ctx, start: u128) -> &mut Patterns {
        // The entries' squares are in the pattern's edges, and where the uses take a piece in
        // what an open walk keeps.
        let mut key = u64::from(ctx.step.key());
        for (k, &c) in ctx.counts.iter().enumerate() {
            key |= u64::from(c) << (8 + 8 * k);
        }
        if self.kept.len() >= MAX_KEPT / 2 && !self.numbers.contains_key(&key) {
            self.numbers.clear();
            self.kept.clear();
        }
        let next = self.kept.len() as u32;
        let n = *self.numbers.entry(key).or_insert(next);
        if n == next {
            self.kept.push(Patterns {
                track: Dag::build(ctx, false, start),
                off: Dag::build(ctx, true, start),
                tuples: Default::default(),
            });
        }
        &mut self.kept[n as usize]
    }

    /// The pattern for `ctx`'s throws from the track or from off the board, made if new.
    pub(super) fn get(&mut self, ctx: &Ctx, off_board: bool, start: u128) -> &Dag {
        let p = self.patterns(ctx, start);
        if off_board {
            &p.off
        } else {
            &p.track
        }
    }

    /// The track and off-board patterns and the full-use tuples for `k` pieces off the board
    /// (`None` if too many), made if new.
    pub(super) fn tuples(
        &mut self,
        ctx: &Ctx,
        k: usize,
        start: u128,
        full: u128,
    ) -> (&Dag, &Dag, Option<&FullPairs>) {
        let p = self.patterns(ctx, start);
        if p.tuples[k].is_none() {
            p.tuples[k] = Some(full_pairs(&p.track, &p.off, k, full));
        }
        let p = &*p;
        (
            &p.track,
            &p.off,
            p.tuples[k].as_ref().and_then(Option::as_ref),
        )
    }
}
