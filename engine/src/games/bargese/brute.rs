//! A brute force for whole turns, in test builds: the oracle the fast generator
//! ([`super::movegen`]) is tested against.
//!
//! It plays the turn's throws one use at a time, in every order and on every piece, asking only
//! [`super::step`] where a use takes a piece and what the landing does, and keeps every place the
//! player may stop. Each throw is its own (two doi are two throws), pieces keep their identity
//! (they are not sorted during the turn), nothing is pruned, and no move patterns, projected
//! vectors or joins are used: the only shortcut is that a position within the turn (pieces,
//! hammered, and what has become of each throw, throws of one kind being interchangeable) is
//! expanded once, which changes no result. Every rule option that changes a turn is read here as the rules state it:
//! - `remainder=any-order`: a dust or bange is played whole, or as its hal and its 10 or 24 (the
//!   remainder), two uses in either order on any pieces; a stop owing a hal is no stop;
//! - `remainder=with-hal`: the remainder right after its hal, by any piece, or given up; on the
//!   hal's own piece one move of the throw's full value (from off the board: the entry, then the
//!   remainder on from there; on the track the whole throw, already played as one), as
//!   [`may_take_remainder`] says;
//! - `remainder=other-piece`: as `with-hal`, by another piece than the hal's;
//! - `must-use=max`: the stops of the best [`Obligation::score`] (throws used, then, under
//!   `leftover=fewest`, 10s and 24s of played hals left unplayed or given up); `must-use=free`:
//!   every stop ([`Best`]);
//! - `entry-onto=blocked`: played in order, an entry onto an opposing piece not yet hammered is
//!   blocked ([`Landing::NeedsHammer`]);
//! - `hal`, `bange-entry`, `bange-square`, `beside-safe`, `outer-end`: through [`Step`].

use std::collections::BTreeSet;

use rustc_hash::FxHashSet;

use super::rules::{BargeseRules, Remainder};
use super::step::{may_take_remainder, Best, Landing, Obligation, Step};
use super::throws::{HAL_OF, VALUES};
use crate::game::Player;

/// A position within the turn. Bit `t` of a set is the turn's throw `t`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Node {
    /// The mover's pieces, each keeping its slot for the whole turn.
    pieces: [u8; 4],
    /// Bit `j`: the opponent's piece `j` has been hammered.
    hammered: u8,
    /// The throws played whole.
    whole: u16,
    /// The dusts and banges whose hal is played ...
    hal: u16,
    /// ... whose 10 or 24 (the remainder) is played ...
    remainder: u16,
    /// ... and whose remainder is given up (`with-hal`, `other-piece`).
    given_up: u16,
    /// `with-hal`, `other-piece`: the throw whose hal was just played, the piece it moved, and
    /// whether it entered that piece; its remainder is played next or given up.
    pending: Option<(usize, usize, bool)>,
}

struct Brute<'a> {
    step: Step,
    rules: &'a BargeseRules,
    /// The turn's throws, one entry a throw: kind by mouths up.
    throws: Vec<usize>,
    seen: FxHashSet<Node>,
    todo: Vec<Node>,
}

impl Brute<'_> {
    /// Queues `node` with piece `i` moved to `t`, if it may land there.
    fn go(&mut self, node: Node, i: usize, t: u8, entering: bool) {
        let hammered = match self.step.land(t, node.hammered, entering) {
            Landing::Lands(h) => h,
            Landing::Blocked | Landing::NeedsHammer(_) => return,
        };
        let mut next = node;
        next.pieces[i] = t;
        next.hammered = hammered;
        self.queue(next);
    }

    fn queue(&mut self, node: Node) {
        let node = self.canonical(node);
        if self.seen.insert(node) {
            self.todo.push(node);
        }
    }

    /// `node` with the fates of throws of one kind (whole, hal, remainder, given up) in a fixed
    /// order: throws of one kind are interchangeable, so this merges positions that differ only
    /// in which of them was played how. A pending remainder names its throw: left as it is.
    fn canonical(&self, node: Node) -> Node {
        if node.pending.is_some() {
            return node;
        }
        let fate = |t: usize| {
            [node.whole, node.hal, node.remainder, node.given_up]
                .map(|set| set >> t & 1)
                .iter()
                .fold(0, |acc, &b| acc << 1 | b)
        };
        let mut out = Node {
            whole: 0,
            hal: 0,
            remainder: 0,
            given_up: 0,
            ..node
        };
        let mut t = 0;
        while t < self.throws.len() {
            let end = (t..self.throws.len())
                .find(|&u| self.throws[u] != self.throws[t])
                .unwrap_or(self.throws.len());
            let mut fates: Vec<u16> = (t..end).map(fate).collect();
            fates.sort_unstable();
            for (u, f) in (t..end).zip(fates) {
                out.whole |= (f >> 3 & 1) << u;
                out.hal |= (f >> 2 & 1) << u;
                out.remainder |= (f >> 1 & 1) << u;
                out.given_up |= (f & 1) << u;
            }
            t = end;
        }
        out
    }

    /// Every position one use away from `node`.
    fn expand(&mut self, node: Node) {
        if let Some(pending) = node.pending {
            self.remainder_now(node, pending);
            return;
        }
        let any_order = self.rules.remainder == Remainder::AnyOrder;
        for t in 0..self.throws.len() {
            let (k, bit) = (self.throws[t], 1u16 << t);
            let v = VALUES[k];
            // A dust or bange: its hal and its remainder.
            let split = HAL_OF[k];
            let touched = node.whole | node.hal | node.remainder | node.given_up;
            for i in 0..4 {
                let p = node.pieces[i];
                if touched & bit == 0 {
                    if let Some((to, entering)) = self.step.whole(p, k, v) {
                        let n = Node {
                            whole: node.whole | bit,
                            ..node
                        };
                        self.go(n, i, to, entering);
                    }
                }
                let Some((_, r)) = split.filter(|_| node.whole & bit == 0) else {
                    continue;
                };
                if node.hal & bit == 0 {
                    if let Some((to, entering)) = self.step.hal(p) {
                        let pending = (!any_order).then_some((t, i, entering));
                        let n = Node {
                            hal: node.hal | bit,
                            pending,
                            ..node
                        };
                        self.go(n, i, to, entering);
                    }
                }
                // `any-order`: the remainder before or after its hal.
                if any_order && node.remainder & bit == 0 {
                    if let Some(to) = Step::forward(p, r) {
                        let n = Node {
                            remainder: node.remainder | bit,
                            ..node
                        };
                        self.go(n, i, to, false);
                    }
                }
            }
        }
    }

    /// `with-hal` and `other-piece`: the remainder of throw `t`, whose hal just moved piece `own`
    /// (entering it if `entered`), played now or given up.
    fn remainder_now(&mut self, node: Node, (t, own, entered): (usize, usize, bool)) {
        let bit = 1u16 << t;
        self.queue(Node {
            given_up: node.given_up | bit,
            pending: None,
            ..node
        });
        let Some((_, r)) = HAL_OF[self.throws[t]] else {
            unreachable!("a pending remainder is of a dust or bange")
        };
        for j in 0..4 {
            if !may_take_remainder(self.rules.remainder, j == own, entered) {
                continue;
            }
            if let Some(to) = Step::forward(node.pieces[j], r) {
                let n = Node {
                    remainder: node.remainder | bit,
                    pending: None,
                    ..node
                };
                self.go(n, j, to, false);
            }
        }
    }

    /// Whether the player may stop at `node`: no remainder without its hal, none pending.
    fn may_stop(node: &Node) -> bool {
        node.pending.is_none() && node.remainder & !node.hal == 0
    }
}

/// Every result of `me` playing `throws` (counts by mouths up, at most sixteen throws) from
/// pieces `mine` against `theirs` under `rules`: the mover's pieces afterwards (ascending) and the
/// opposing pieces hammered (bit `j` for `theirs[j]`, `theirs` ascending).
pub(super) fn turn(
    me: Player,
    mine: [u8; 4],
    theirs: [u8; 4],
    throws: &[u16; 7],
    rules: &BargeseRules,
) -> BTreeSet<([u8; 4], u8)> {
    let mut list = Vec::new();
    for (k, &c) in throws.iter().enumerate() {
        list.extend(std::iter::repeat_n(k, usize::from(c)));
    }
    assert!(list.len() <= 16, "a short chain of throws");
    let start = Node {
        pieces: mine,
        hammered: 0,
        whole: 0,
        hal: 0,
        remainder: 0,
        given_up: 0,
        pending: None,
    };
    let mut brute = Brute {
        step: Step::new(me, theirs, rules),
        rules,
        throws: list,
        seen: FxHashSet::from_iter([start]),
        todo: vec![start],
    };
    while let Some(n) = brute.todo.pop() {
        brute.expand(n);
    }
    let obligation = Obligation::new(rules);
    let mut stops = Vec::new();
    for n in brute.seen.iter().filter(|n| Brute::may_stop(n)) {
        // A dust or bange is used once its hal is played; a played hal's remainder not played
        // (or given up) is left over.
        let used = (n.whole | n.hal).count_ones();
        let left_over = (n.hal & !n.remainder).count_ones();
        let mut pieces = n.pieces;
        pieces.sort_unstable();
        stops.push((obligation.score(used, left_over), (pieces, n.hammered)));
    }
    assert!(!stops.is_empty(), "stopping at once");
    let mut best = Best::new(obligation);
    for s in &stops {
        best.meet(s.0);
    }
    stops
        .into_iter()
        .filter(|s| best.admits(s.0))
        .map(|s| s.1)
        .collect()
}
