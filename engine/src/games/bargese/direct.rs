//! The join step of [`super::movegen`] for turns whose pieces have few states (most turns of two
//! or three throws): every combination of one state per piece within the throws, scored on the
//! spot, in one pass and without tables.
//!
//! Combinations are enumerated piece by piece and cut as soon as a partial sum uses more of a
//! throw kind than was thrown; identical pieces take their states in non-decreasing order (each
//! multiset once). Under must-use `max` the pass keeps only the results of the best score seen so
//! far (most throws used, then fewest 10s and 24s left over); a combination counts only if its
//! result is valid (under `entry-onto=blocked` an entry may need a hammering that did not happen).

use super::packing::{half_part, join_parts, pfield, BALANCE, D_OFF};
use super::step::{Best, Obligation};

/// Bits per consumed-throw field of a packed vector: a guard bit (7) over seven value bits.
const CB: usize = 8;
const CGUARD: u64 = 0x0080_8080_8080_8080;
/// The largest product of the pieces' state counts this join takes.
pub(super) const MAX_COMBINATIONS: usize = 4096;

#[inline]
fn csub(a: u64, b: u64) -> Option<u64> {
    let d = (a | CGUARD).wrapping_sub(b);
    (d & CGUARD == CGUARD).then_some(d ^ CGUARD)
}

/// One piece state: consumed throws by kind (packed), throws consumed, the two balances of hals
/// against 10s and 24s, and its part of a result.
#[derive(Clone, Copy)]
struct State {
    used: u64,
    n: i32,
    bd: i32,
    bb: i32,
    part: u32,
}

/// What the direct join keeps between calls.
#[derive(Default)]
pub(super) struct Scratch {
    states: [Vec<State>; 4],
}

/// Whether every count fits a packed field: a sum of two within the throws stays below 128.
pub(super) fn fits(counts: &[u32; 7]) -> bool {
    counts.iter().all(|&c| c <= 63)
}

/// Whether the direct join suits these pieces: the counts [`fit`](fits) and the product of the
/// state counts is small.
pub(super) fn suits(counts: &[u32; 7], states: &[Vec<(u128, u32)>; 4], src: [usize; 4]) -> bool {
    if !fits(counts) {
        return false;
    }
    let mut product = 1usize;
    for &i in &src {
        product = product.saturating_mul(states[i].len());
    }
    product <= MAX_COMBINATIONS
}

/// Adds to `results` the result keys of the best valid combinations (every valid one under
/// `free`) of the pieces' states (`(projection, part)`); `src` maps identical pieces to the first.
pub(super) fn join_turn(
    s: &mut Scratch,
    counts: &[u32; 7],
    states: &[Vec<(u128, u32)>; 4],
    src: [usize; 4],
    obligation: Obligation,
    results: &mut Vec<u32>,
) {
    let mut cap = 0u64;
    for (k, &c) in counts.iter().enumerate() {
        cap |= u64::from(c) << (CB * k);
    }
    for i in 0..4 {
        if src[i] != i {
            continue;
        }
        s.states[i].clear();
        s.states[i].extend(states[i].iter().map(|&(u, part)| {
            let mut used = 0u64;
            let mut n = 0;
            for f in 0..7 {
                used |= u64::from(pfield(u, f)) << (CB * f);
                n += pfield(u, f) as i32;
            }
            State {
                used,
                n,
                bd: pfield(u, BALANCE[0]) as i32 - D_OFF as i32,
                bb: pfield(u, BALANCE[1]) as i32 - D_OFF as i32,
                part,
            }
        }));
    }
    results.clear();
    let [a, b, c, d] = src.map(|i| &s.states[i][..]);
    let mut best = Best::new(obligation);
    for (i, x) in a.iter().enumerate() {
        let j0 = if src[1] == src[0] { i } else { 0 };
        for (j, y) in b.iter().enumerate().skip(j0) {
            let Some(_) = csub(cap, x.used + y.used) else {
                continue;
            };
            let xy = half_part(x.part, y.part);
            let k0 = if src[2] == src[1] { j } else { 0 };
            for (k, z) in c.iter().enumerate().skip(k0) {
                let Some(_) = csub(cap, x.used + y.used + z.used) else {
                    continue;
                };
                let l0 = if src[3] == src[2] { k } else { 0 };
                for w in &d[l0..] {
                    if csub(cap, x.used + y.used + z.used + w.used).is_none() {
                        continue;
                    }
                    let (bd, bb) = (x.bd + y.bd + z.bd + w.bd, x.bb + y.bb + z.bb + w.bb);
                    if bd < 0 || bb < 0 {
                        continue; // a 10 or 24 without its hal
                    }
                    let score = obligation.score((x.n + y.n + z.n + w.n) as u32, (bd + bb) as u32);
                    if !best.admits(score) {
                        continue;
                    }
                    let Some(key) = join_parts(xy, half_part(z.part, w.part)) else {
                        continue;
                    };
                    if best.meet(score) {
                        results.clear();
                    }
                    results.push(key);
                }
            }
        }
    }
}
