//! The placement phase by backward induction: the values of every position with `p` goats
//! placed (`p` = 19 down to 0), from those with one more placed.
//!
//! The placement phase is acyclic: each goats' ply places a goat, so every line of play reaches
//! the movement phase (or a tigers' win) within 39 plies. Positions are grouped in *halves*: the
//! goats to move with `p` placed, whose children (a goat placed on an empty point) are the
//! tigers to move with `p + 1` placed — for `p + 1 = 20` the movement database's tigers-to-move
//! layers — and the tigers to move with `p` placed, whose children (a step, or a jump capturing
//! a goat) are the goats to move with `p` placed. Within a half the positions are split by the
//! goats captured so far `c` (a part per `c`), the board holding `p - c` goats.
//!
//! The rules are those of the engine (`engine/src/games/baghchal/`): goats place one goat on any
//! empty point and cannot move until all twenty are placed [755.3, 1453.3]; tigers step or jump
//! in either phase [755.4, 1453.4]; tigers that cannot move lose [755.6]; the tigers win on the
//! capture the rule names (`win-captures`). Goats always have an empty point to place on, so
//! `goats-blocked` plays no part here.
//!
//! Speed: the values of one tiger class's boards lie in one block (at most 88 kB), so the
//! inner loops walk a block's goat sets in rank order. A goat placed keeps the tiger set, so its
//! child lies in the same class's block; a tiger's move takes every goat set of a class to one
//! other class by one symmetry, so the goat sets are mapped by three table lookups built once
//! per move. The rules of a move (which points are empty, what a jump captures) are the
//! bitboard tests in [`crate::moves`] and the engine's step and jump tables.

use std::ops::Range;

use cowrie_engine::games::baghchal::{Bitboard, JUMPS, STEPS, TOTAL_GOATS};
use rayon::prelude::*;

use crate::combin::{self, binomial, FREE_POINTS};
use crate::db::Database;
use crate::index::Index;
use crate::layer::Side;
use crate::moves::points;
use crate::packed::{self, Code, Packed, Tally, DRAW, LOSS, WIN};
use crate::retrograde::Progress;
use crate::rules::SolveRules;
use crate::symmetry;
use crate::value::Value;

/// The squeezed mask of all 21 free points.
const FREE_MASK: u32 = (1 << FREE_POINTS) - 1;

/// One half of a placement layer: the positions with `placed` goats placed and `side` to move,
/// a part per number of captures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Half {
    /// Goats placed so far.
    pub placed: u32,
    /// The side to move.
    pub side: Side,
    /// `parts[c]`: the boards after `c` captures (`placed - c` goats on the board).
    pub parts: Vec<Packed>,
}

/// The captures a half's positions can have: at most one per tiger ply played (the goats to
/// move with `p` placed follow `p` tiger plies, the tigers to move `p - 1`), fewer than the
/// winning number.
#[must_use]
pub fn captures(rules: &SolveRules, placed: u32, side: Side) -> std::ops::RangeInclusive<u32> {
    let tiger_plies = match side {
        Side::Goats => placed,
        Side::Tigers => placed.saturating_sub(1),
    };
    0..=tiger_plies.min(u32::from(rules.win_captures) - 1)
}

/// The halves in solving order: goats to move with 19 placed, tigers with 19, goats with 18,
/// ..., tigers with 1, goats with 0 (the start).
#[must_use]
pub fn halves() -> Vec<(u32, Side)> {
    let last = u32::from(TOTAL_GOATS) - 1;
    let mut out = Vec::new();
    for p in (0..=last).rev() {
        out.push((p, Side::Goats));
        if p > 0 {
            out.push((p, Side::Tigers));
        }
    }
    out
}

/// The code of a movement-phase value.
#[must_use]
pub fn code_of(v: Value) -> Code {
    match v {
        Value::Win(_) => WIN,
        Value::Draw => DRAW,
        Value::Loss(_) => LOSS,
    }
}

/// The goat sets of a class block in rank order: `(rank, squeezed mask)`.
fn goat_sets(goats: u32) -> impl Iterator<Item = (u32, u32)> {
    let n = binomial(FREE_POINTS, goats);
    let mut m = (1u32 << goats) - 1;
    (0..n).map(move |r| {
        let cur = m;
        if r + 1 < n {
            m = combin::next_subset(m);
        }
        (r, cur)
    })
}

/// Counts the canonical boards of a class block (the others are symmetric images).
fn tally_block(index: &Index, class: usize, goats: u32, codes: &[u8]) -> Tally {
    let tigers = index.classes()[class].tigers;
    let symmetric = index.classes()[class].stabiliser != 1;
    let mut t = Tally::default();
    for (r, m) in goat_sets(goats) {
        if symmetric
            && index
                .stabiliser_if_canonical(class, combin::spread(m, tigers))
                .is_none()
        {
            continue;
        }
        t.add(packed::get(codes, r));
    }
    t
}

/// Where the goats' children (the tigers to move with one more goat placed) are read from.
#[derive(Clone, Copy, Debug)]
pub enum Next<'a> {
    /// The tigers-to-move half with one more placed.
    Placement(&'a Half),
    /// The movement database (the goats to move have 19 placed).
    Movement(&'a Database),
}

/// Solves the goats-to-move half with `placed` goats placed; returns it with a tally per part.
///
/// # Panics
/// If `next` is not the half after it.
pub fn solve_goats(
    index: &Index,
    rules: &SolveRules,
    placed: u32,
    next: Next<'_>,
    progress: &dyn Progress,
) -> (Half, Vec<Tally>) {
    let classes = index.classes().len();
    let (bytes, tallies) = solve_goats_classes(index, rules, placed, next, 0..classes, progress);
    (whole(rules, placed, Side::Goats, classes, bytes), tallies)
}

/// The half from the bytes of every class block of each part.
fn whole(rules: &SolveRules, placed: u32, side: Side, classes: usize, bytes: Vec<Vec<u8>>) -> Half {
    let parts = captures(rules, placed, side)
        .zip(bytes)
        .map(|(c, b)| Packed::from_bytes(placed - c, classes, b).expect("every class block"))
        .collect();
    Half {
        placed,
        side,
        parts,
    }
}

/// The blocks of the tiger classes `classes` (a range of class numbers) of the goats-to-move
/// half with `placed` goats placed: for each part in order, the blocks' bytes as they lie in the
/// whole half, and the part's tally over those classes. A block depends on the half after it
/// alone, so the ranges of a split solve are independent ([`crate::units`]).
///
/// # Panics
/// If `next` is not the half after it, or `classes` reaches beyond the last class.
pub fn solve_goats_classes(
    index: &Index,
    rules: &SolveRules,
    placed: u32,
    next: Next<'_>,
    classes: Range<usize>,
    progress: &dyn Progress,
) -> (Vec<Vec<u8>>, Vec<Tally>) {
    assert!(classes.end <= index.classes().len(), "a range of classes");
    let mut parts = Vec::new();
    let mut tallies = Vec::new();
    for c in captures(rules, placed, Side::Goats) {
        let goats = placed - c;
        let stride = packed::stride(goats);
        let mut part = vec![0u8; stride * classes.len()];
        let tally = part
            .par_chunks_exact_mut(stride)
            .enumerate()
            .map(|(i, block)| {
                let class = classes.start + i;
                let tigers = index.classes()[class].tigers;
                let child_block = match next {
                    Next::Placement(h) => {
                        assert_eq!((h.placed, h.side), (placed + 1, Side::Tigers));
                        Some(h.parts[c as usize].block(class))
                    }
                    Next::Movement(_) => None,
                };
                for (r, m) in goat_sets(goats) {
                    let mut best = LOSS;
                    for y in points(!m & FREE_MASK) {
                        let child = m | 1 << y;
                        let v = match (child_block, next) {
                            (Some(b), _) => packed::get(b, combin::rank(child)),
                            (None, Next::Movement(db)) => code_of(db.value(
                                Side::Tigers,
                                tigers,
                                combin::spread(child, tigers),
                            )),
                            (None, Next::Placement(_)) => unreachable!("a block"),
                        };
                        best = best.max(packed::parent(v));
                        if best == WIN {
                            break;
                        }
                    }
                    packed::put(block, r, best);
                }
                progress.advance(u64::from(binomial(FREE_POINTS, goats)));
                tally_block(index, class, goats, block)
            })
            .reduce(Tally::default, Tally::join);
        parts.push(part);
        tallies.push(tally);
    }
    (parts, tallies)
}

/// A tiger's move from a class's tiger set: the squeezed goat masks of the source class mapped
/// onto the target class's, by three 7-bit tables.
struct Move {
    /// The target class.
    class: usize,
    /// `map[chunk][bits]`: the target mask of the source bits `bits` of the 7-point chunk.
    map: [[u32; 128]; 3],
    /// The destination's bit in the source frame (it must hold no goat).
    to: u32,
}

impl Move {
    fn new(index: &Index, tigers: Bitboard, from: usize, to: usize) -> Move {
        let after = tigers ^ (1 << from | 1 << to);
        let (class, s) = index.class_of(after);
        let target = index.classes()[class].tigers;
        let mut single = [0u32; FREE_POINTS as usize];
        for (i, p) in points(!tigers & crate::moves::ALL).enumerate() {
            if p != to {
                let q = symmetry::map_point(s, p);
                single[i] = combin::squeeze(1 << q, target);
            }
        }
        let mut map = [[0u32; 128]; 3];
        for (chunk, table) in map.iter_mut().enumerate() {
            for v in 1..128usize {
                let low = v.trailing_zeros() as usize;
                let bit = 7 * chunk + low;
                let img = if bit < FREE_POINTS as usize {
                    single[bit]
                } else {
                    0
                };
                table[v] = table[v & (v - 1)] | img;
            }
        }
        Move {
            class,
            map,
            to: combin::squeeze(1 << to, tigers),
        }
    }

    #[inline]
    fn apply(&self, m: u32) -> u32 {
        self.map[0][(m & 127) as usize]
            | self.map[1][(m >> 7 & 127) as usize]
            | self.map[2][(m >> 14) as usize]
    }
}

/// Solves the tigers-to-move half with `goats_half.placed` goats placed, from the goats-to-move
/// half with as many placed; returns it with a tally per part.
///
/// # Panics
/// If `goats_half` is not a goats-to-move half or has no goat placed.
pub fn solve_tigers(
    index: &Index,
    rules: &SolveRules,
    goats_half: &Half,
    progress: &dyn Progress,
) -> (Half, Vec<Tally>) {
    let classes = index.classes().len();
    let (bytes, tallies) = solve_tigers_classes(index, rules, goats_half, 0..classes, progress);
    (
        whole(rules, goats_half.placed, Side::Tigers, classes, bytes),
        tallies,
    )
}

/// The blocks of the tiger classes `classes` of the tigers-to-move half with
/// `goats_half.placed` goats placed, as [`solve_goats_classes`] gives the goats' (a block
/// depends on the goats' half with as many placed alone).
///
/// # Panics
/// As [`solve_tigers`], or if `classes` reaches beyond the last class.
pub fn solve_tigers_classes(
    index: &Index,
    rules: &SolveRules,
    goats_half: &Half,
    classes: Range<usize>,
    progress: &dyn Progress,
) -> (Vec<Vec<u8>>, Vec<Tally>) {
    assert_eq!(goats_half.side, Side::Goats);
    let placed = goats_half.placed;
    assert!(placed > 0, "the tigers move after the first placement");
    assert!(classes.end <= index.classes().len(), "a range of classes");
    let win = u32::from(rules.win_captures);
    let mut parts = Vec::new();
    let mut tallies = Vec::new();
    for c in captures(rules, placed, Side::Tigers) {
        let goats = placed - c;
        let n = binomial(FREE_POINTS, goats) as usize;
        let same = &goats_half.parts[c as usize];
        let below = (c + 1 < win).then(|| &goats_half.parts[c as usize + 1]);
        let stride = packed::stride(goats);
        let mut part = vec![0u8; stride * classes.len()];
        let tally = part
            .par_chunks_exact_mut(stride)
            .enumerate()
            .map_init(
                || vec![LOSS; n],
                |acc, (i, block)| {
                    let class = classes.start + i;
                    acc.fill(LOSS);
                    let tigers = index.classes()[class].tigers;
                    let empty_of_tigers = crate::moves::ALL & !tigers;
                    for from in points(tigers) {
                        // Steps.
                        for to in points(STEPS[from] & empty_of_tigers) {
                            let mv = Move::new(index, tigers, from, to);
                            let child = same.block(mv.class);
                            for (r, m) in goat_sets(goats) {
                                if m & mv.to != 0 {
                                    continue;
                                }
                                let v = packed::get(child, combin::rank(mv.apply(m)));
                                let a = &mut acc[r as usize];
                                *a = (*a).max(packed::parent(v));
                            }
                        }
                        // Jumps.
                        for j in &JUMPS.jumps[from][..JUMPS.len[from] as usize] {
                            let (over, to) = (j.over as usize, j.to as usize);
                            if tigers >> over & 1 == 1 || tigers >> to & 1 == 1 {
                                continue;
                            }
                            let mv = Move::new(index, tigers, from, to);
                            let over_bit = combin::squeeze(1 << over, tigers);
                            let over_img = mv.apply(over_bit);
                            let child = below.map(|b| b.block(mv.class));
                            for (r, m) in goat_sets(goats) {
                                if m & mv.to != 0 || m & over_bit == 0 {
                                    continue;
                                }
                                let v = match child {
                                    None => LOSS,
                                    Some(b) => {
                                        packed::get(b, combin::rank(mv.apply(m) & !over_img))
                                    }
                                };
                                acc[r as usize] = packed::parent(v).max(acc[r as usize]);
                            }
                        }
                    }
                    for (r, &a) in acc.iter().enumerate() {
                        packed::put(block, r as u32, a);
                    }
                    progress.advance(n as u64);
                    tally_block(index, class, goats, block)
                },
            )
            .reduce(Tally::default, Tally::join);
        parts.push(part);
        tallies.push(tally);
    }
    (parts, tallies)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_run_from_the_last_placement_to_the_start() {
        let h = halves();
        assert_eq!(h.len(), 39);
        assert_eq!(h[0], (19, Side::Goats));
        assert_eq!(h[1], (19, Side::Tigers));
        assert_eq!(*h.last().unwrap(), (0, Side::Goats));
    }

    #[test]
    fn captures_are_bounded_by_tiger_plies_and_the_win() {
        let five = SolveRules {
            win_captures: 5,
            goats_pass: false,
        };
        assert_eq!(captures(&five, 0, Side::Goats), 0..=0);
        assert_eq!(captures(&five, 1, Side::Tigers), 0..=0);
        assert_eq!(captures(&five, 3, Side::Goats), 0..=3);
        assert_eq!(captures(&five, 19, Side::Tigers), 0..=4);
    }
}
