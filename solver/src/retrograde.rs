//! Retrograde analysis of one layer (a fixed number of goats on the board, every goat placed).
//!
//! Children outside the layer are tiger jumps into the layer below, whose values are known
//! (solved before, or won by captures). Within the layer the values are found in order of
//! distance, a level at a time:
//!
//! 1. Initialisation: each position counts its moves within the layer and reads its jumps'
//!    values from the layer below. A position without moves is lost (distance 0). A jump to a
//!    position lost for the goats makes the position a *tentative* win at one more ply (a shorter
//!    win within the layer may still appear); if every jump leads to a win for the goats, the
//!    longest one is a *floor* for the distance of a loss; a jump to a draw rules a loss out.
//! 2. Level `d`: the positions final at distance `d` are those found at level `d - 1`, the
//!    tentative wins of distance `d` not beaten by a shorter win, and the floors of `d` whose
//!    moves within the layer are all refuted. For each of them, every predecessor (a position
//!    with the other side to move from which a step leads to it) is, if not final yet, a win at
//!    `d + 1` when the position is lost; when it is won, the predecessor's count of unrefuted
//!    moves drops, and at zero the predecessor is lost, at `d + 1` or at its floor if later.
//! 3. What is never final is a draw: neither side can force the end.
//!
//! Under the symmetries a slot stands for an orbit of boards, and the counts count moves. The
//! moves from a canonical board `Q` into the orbit of a board `C` number
//! `N * |Stab(Q)| / |Stab(C)|`, where `N` is the number of predecessors of `C` itself lying in
//! the orbit of `Q`. The counts are kept as eight times the number of moves, so each
//! predecessor found drops its count by the integer `8 * |Stab(Q)| / |Stab(C)|`.
//!
//! Work within a level runs in parallel on atomics; each position's value depends only on the
//! set of positions final at each level, not on which thread found them, so the result is the
//! same with any number of threads.

use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

use cowrie_engine::games::baghchal::Bitboard;
use rayon::prelude::*;

use crate::combin::{binomial, FREE_POINTS};
use crate::index::Index;
use crate::layer::{Layer, Side};
use crate::moves;
use crate::rules::SolveRules;
use crate::value::{Value, UNUSED};

const UNKNOWN: u16 = 0;
const TENTATIVE: u16 = 0x8000;
/// Eight times a move: counts are scaled so symmetric orbits drop them by whole numbers.
const MOVE: u16 = 8;
/// Added to the count of a position with a jump to a draw: it never reaches zero.
const NEVER: u16 = 1;
/// Positions handled per parallel task at a level.
const CHUNK: usize = 1 << 12;

#[inline]
fn is_final(w: u16) -> bool {
    w != UNKNOWN && w & TENTATIVE == 0
}

#[inline]
fn word(distance: u16) -> u16 {
    distance + 1
}

/// What a position knows after initialisation.
enum Start {
    /// No further work: unused slot, or draw by a jump with no moves in the layer.
    Nothing,
    /// Final at this distance.
    Final(u16),
    /// Tentative at this distance (a win if odd, a loss floor if even).
    Tentative(u16),
}

/// Progress of a layer's solve, in units of positions handled.
pub trait Progress: Sync {
    /// `n` more positions were handled.
    fn advance(&self, n: u64);
}

impl<F: Fn(u64) + Sync> Progress for F {
    fn advance(&self, n: u64) {
        self(n);
    }
}

/// Facts of a finished solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveReport {
    /// Levels (distances) processed.
    pub levels: u32,
    /// Positions made final (wins and losses).
    pub decided: u64,
}

/// Positions by distance.
type ByDistance = Vec<Vec<u32>>;
/// Positions by distance, each distance's list in pieces.
type Buckets = Vec<ByDistance>;

/// Appends `q` to the list of distance `d`.
fn push_at(lists: &mut ByDistance, d: u16, q: u32) {
    let d = usize::from(d);
    if lists.len() <= d {
        lists.resize_with(d + 1, Vec::new);
    }
    lists[d].push(q);
}

/// Moves one task's lists by distance into `buckets` as pieces, in task order.
fn gather(buckets: &mut Buckets, lists: ByDistance) {
    if buckets.len() < lists.len() {
        buckets.resize_with(lists.len(), Vec::new);
    }
    for (d, list) in lists.into_iter().enumerate() {
        if !list.is_empty() {
            buckets[d].push(list);
        }
    }
}

struct Solver<'a> {
    index: &'a Index,
    rules: SolveRules,
    goats: u32,
    below: Option<&'a Layer>,
    per_class: u32,
    slots: u32,
    dist: Vec<AtomicU16>,
    count: Vec<AtomicU16>,
}

/// Solves the layer with `goats` goats, given the layer below (`None` when a capture from this
/// layer wins for the tigers).
///
/// # Panics
/// If `below` is missing when needed or is not the layer with one goat fewer.
///
/// # Examples
///
/// The reduced game in which the tigers win on the second capture (`win-captures=2`): its
/// movement phase is two layers, 19 goats (where any capture wins) and 20.
///
/// ```
/// use cowrie_engine::{Baghchal, BaghchalRules, Game};
/// use cowrie_solver::solve::Silent;
/// use cowrie_solver::value::UNUSED;
/// use cowrie_solver::{solve_layer, Index, Side, SolveRules, Value};
///
/// let rules = SolveRules { win_captures: 2, goats_pass: false };
/// assert_eq!(rules.layers().collect::<Vec<_>>(), [19, 20]);
/// let index = Index::new();
/// let (l19, _) = solve_layer(&index, &rules, 19, None, &Silent);
/// let (l20, _) = solve_layer(&index, &rules, 20, Some(&l19), &Silent);
/// // Each side's half holds every board once up to the eight symmetries: 33,481 boards of 20
/// // goats, as Burnside's lemma counts them.
/// let boards = l20.words().iter().filter(|&&w| w != UNUSED).count();
/// assert_eq!(boards, 2 * 33_481);
///
/// // Probing a position: its boards' slot in the layer of its goats, the side to move's half.
/// let value = |notation: &str| {
///     let state = Baghchal::from_notation(notation, &BaghchalRules::default()).unwrap();
///     let layer = if state.goats().count_ones() == 19 { &l19 } else { &l20 };
///     let slot = index.canonical(state.tigers(), state.goats()).slot;
///     layer.value(Side::of(state.side_to_move()), slot).unwrap()
/// };
/// // The tigers on the corners and only b3 empty: no tiger can step or jump, so the tigers to
/// // move have lost.
/// assert_eq!(value("TGGGT/GGGGG/G.GGG/GGGGG/TGGGT t 0 0 60"), Value::Loss(0));
/// // With c1 empty as well, a1 jumps b1 and takes the second goat: a win in one ply.
/// assert_eq!(value("TGGGT/GGGGG/G.GGG/GGGGG/TG.GT t 0 1 60"), Value::Win(1));
/// ```
pub fn solve_layer(
    index: &Index,
    rules: &SolveRules,
    goats: u32,
    below: Option<&Layer>,
    progress: &dyn Progress,
) -> (Layer, SolveReport) {
    assert_eq!(
        below.is_none(),
        rules.captures_won(goats - 1),
        "layer below"
    );
    if let Some(b) = below {
        assert_eq!(b.goats(), goats - 1, "layer below");
    }
    let slots = index.slots(goats);
    let s = Solver {
        index,
        rules: *rules,
        goats,
        below,
        per_class: binomial(FREE_POINTS, goats),
        slots: u32::try_from(slots).expect("a side's slots fit in 32 bits"),
        dist: (0..2 * slots).map(|_| AtomicU16::new(UNKNOWN)).collect(),
        count: (0..2 * slots).map(|_| AtomicU16::new(0)).collect(),
    };
    let (mut finals, mut tentatives) = s.initialise(progress);
    let mut report = SolveReport::default();
    let mut frontier: Vec<u32> = Vec::new();
    let mut d: usize = 0;
    while d < finals.len().max(tentatives.len()) || !frontier.is_empty() {
        let dw = word(d as u16);
        // Each list is released as soon as it is read: a level holds its frontier, the next
        // level's pieces, and the lists of the distances still to come.
        if let Some(t) = tentatives.get_mut(d) {
            for piece in std::mem::take(t) {
                let promoted: Vec<u32> = piece
                    .par_iter()
                    .copied()
                    .filter(|&q| s.promote(q, d as u16))
                    .collect();
                frontier.extend_from_slice(&promoted);
            }
        }
        if let Some(f) = finals.get_mut(d) {
            for piece in std::mem::take(f) {
                frontier.extend_from_slice(&piece);
            }
        }
        frontier.par_sort_unstable();
        debug_assert!(frontier
            .iter()
            .all(|&q| s.dist[q as usize].load(Relaxed) == dw));
        report.decided += frontier.len() as u64;
        let next: Vec<Vec<u32>> = frontier
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut out = Vec::new();
                for &q in chunk {
                    s.expand(q, d as u16, &mut out);
                }
                progress.advance(chunk.len() as u64);
                out
            })
            .collect();
        frontier.clear();
        for piece in next {
            frontier.extend_from_slice(&piece);
        }
        d += 1;
        assert!(
            d < usize::from(crate::value::MAX_DISTANCE),
            "distance overflow"
        );
    }
    report.levels = d as u32;
    // The counts go before the words are copied out, so the two never coexist with them.
    let Solver { dist, count, .. } = s;
    drop(count);
    let words = dist
        .into_par_iter()
        .map(|w| {
            let w = w.into_inner();
            if w == UNUSED || is_final(w) {
                w
            } else {
                debug_assert!(
                    w == UNKNOWN || (w & !TENTATIVE) & 1 == 1,
                    "an unresolved win"
                );
                Value::Draw.encode()
            }
        })
        .collect();
    (Layer::new(goats, words), report)
}

impl Solver<'_> {
    /// Sets every slot's start and returns the positions final and tentative at each distance,
    /// each distance's list kept in the parallel tasks' pieces (moved, never copied, so the lists
    /// cost four bytes a position at most).
    fn initialise(&self, progress: &dyn Progress) -> (Buckets, Buckets) {
        let classes = self.index.classes().len();
        let per_class = self.per_class as usize;
        let starts: Vec<(ByDistance, ByDistance)> = (0..2 * classes)
            .into_par_iter()
            .map(|chunk| {
                let boards = self.index.chunk(self.goats, chunk);
                let (side, class, tigers) = (boards.side, boards.class, boards.tigers);
                let base = chunk * per_class;
                let (mut finals, mut tentatives) = (Vec::new(), Vec::new());
                for (r, goats) in boards.enumerate() {
                    let q = base + r;
                    let start = if self.index.stabiliser_if_canonical(class, goats).is_none() {
                        self.dist[q].store(UNUSED, Relaxed);
                        Start::Nothing
                    } else {
                        self.start(q, side, tigers, goats)
                    };
                    match start {
                        Start::Nothing => {}
                        Start::Final(d) => push_at(&mut finals, d, q as u32),
                        Start::Tentative(d) => push_at(&mut tentatives, d, q as u32),
                    }
                }
                progress.advance(per_class as u64);
                (finals, tentatives)
            })
            .collect();
        let (mut finals, mut tentatives) = (Buckets::new(), Buckets::new());
        for (f, t) in starts {
            gather(&mut finals, f);
            gather(&mut tentatives, t);
        }
        (finals, tentatives)
    }

    /// The start of the position in slot `q`.
    fn start(&self, q: usize, side: Side, tigers: Bitboard, goats: Bitboard) -> Start {
        let (inside, mut best_loss, mut longest_win, mut draw) = match side {
            Side::Goats => {
                let n = moves::goat_step_count(tigers, goats);
                let n = if n == 0 && self.rules.goats_pass {
                    1
                } else {
                    n
                };
                (n, None, None, false)
            }
            Side::Tigers => (moves::tiger_step_count(tigers, goats), None, None, false),
        };
        let mut jumps = 0;
        if side == Side::Tigers {
            moves::tiger_jumps(tigers, goats, |t, g| {
                jumps += 1;
                let child = match self.below {
                    None => Value::Loss(0),
                    Some(b) => {
                        let c = self.index.canonical(t, g);
                        b.value(Side::Goats, c.slot).expect("a canonical slot")
                    }
                };
                match child {
                    Value::Loss(d) => best_loss = Some(best_loss.map_or(d, |b: u16| b.min(d))),
                    Value::Win(d) => longest_win = Some(longest_win.map_or(d, |b: u16| b.max(d))),
                    Value::Draw => draw = true,
                }
            });
        }
        let count = MOVE * inside as u16 + if draw { NEVER } else { 0 };
        self.count[q].store(count, Relaxed);
        let set = |d: u16, tentative: bool| {
            let w = word(d) | if tentative { TENTATIVE } else { 0 };
            self.dist[q].store(w, Relaxed);
        };
        if inside == 0 {
            if let Some(d) = best_loss {
                set(d + 1, false);
                return Start::Final(d + 1);
            }
            if draw {
                return Start::Nothing;
            }
            let d = longest_win.map_or(0, |d| d + 1);
            debug_assert!(jumps > 0 || d == 0);
            set(d, false);
            return Start::Final(d);
        }
        if let Some(d) = best_loss {
            set(d + 1, true);
            return Start::Tentative(d + 1);
        }
        if let (Some(d), false) = (longest_win, draw) {
            set(d + 1, true);
            return Start::Tentative(d + 1);
        }
        Start::Nothing
    }

    /// Makes a tentative distance `d` final if nothing beat it; returns whether it did.
    fn promote(&self, q: u32, d: u16) -> bool {
        let q = q as usize;
        let w = word(d) | TENTATIVE;
        if self.dist[q].load(Relaxed) != w {
            return false;
        }
        // A loss floor is final only once every move within the layer is refuted.
        if d.is_multiple_of(2) && self.count[q].load(Relaxed) != 0 {
            return false;
        }
        self.dist[q]
            .compare_exchange(w, word(d), Relaxed, Relaxed)
            .is_ok()
    }

    /// Passes the final value (distance `d`) of slot `q` to its predecessors; pushes those made
    /// final at `d + 1`.
    fn expand(&self, q: u32, d: u16, out: &mut Vec<u32>) {
        let (side, slot) = if q < self.slots {
            (Side::Goats, q)
        } else {
            (Side::Tigers, q - self.slots)
        };
        let (tigers, goats) = self.index.board(self.goats, slot);
        let class = (slot / self.per_class) as usize;
        let stab = self
            .index
            .stabiliser_if_canonical(class, goats)
            .expect("a used slot");
        let lost = d.is_multiple_of(2);
        let offset = match side {
            Side::Goats => self.slots, // predecessors: tigers to move
            Side::Tigers => 0,
        };
        let mut visit = |t: Bitboard, g: Bitboard| {
            let c = self.index.canonical(t, g);
            let p = (offset + c.slot) as usize;
            let mut w = self.dist[p].load(Relaxed);
            if is_final(w) {
                return;
            }
            if lost {
                // A move into a lost position wins.
                while !is_final(w) {
                    match self.dist[p].compare_exchange(w, word(d + 1), Relaxed, Relaxed) {
                        Ok(_) => {
                            out.push(p as u32);
                            return;
                        }
                        Err(now) => w = now,
                    }
                }
                return;
            }
            let drop = (u32::from(MOVE) * c.stabiliser / stab) as u16;
            let before = self.count[p].fetch_sub(drop, Relaxed);
            debug_assert!(before >= drop, "count underflow");
            if before != drop {
                return;
            }
            // Every move is refuted: lost, at d + 1 or at its floor if that is later.
            let w = self.dist[p].load(Relaxed);
            let ready = w == UNKNOWN || {
                let floor = (w & !TENTATIVE) - 1;
                w & TENTATIVE != 0 && floor.is_multiple_of(2) && floor <= d + 1
            };
            if ready
                && self.dist[p]
                    .compare_exchange(w, word(d + 1), Relaxed, Relaxed)
                    .is_ok()
            {
                out.push(p as u32);
            }
        };
        match side {
            Side::Goats => moves::tiger_steps(tigers, goats, |t| visit(t, goats)),
            Side::Tigers => {
                moves::goat_steps(tigers, goats, |g| visit(tigers, g));
                if self.rules.goats_pass && moves::goat_step_count(tigers, goats) == 0 {
                    visit(tigers, goats);
                }
            }
        }
    }
}
