//! How the whole-turn generator packs what it combines: result keys, half results of two
//! pieces, and projected use vectors (with their field-wise arithmetic and scoring). No rules
//! here: the worth of a play is [`Obligation::score`], the throws that carry the hal are
//! [`HAL_THROWS`](super::throws::HAL_THROWS).

use super::step::{Best, Obligation};
use super::throws::HAL_KINDS;

/// Packs sorted pieces and the hammered mask so that numeric order is lexicographic order of
/// `(pieces[0], .., pieces[3], hammered)`.
#[inline]
pub(super) fn pack_key(p: [u8; 4], mask: u8) -> u32 {
    (u32::from(p[0]) << 25)
        | (u32::from(p[1]) << 18)
        | (u32::from(p[2]) << 11)
        | (u32::from(p[3]) << 4)
        | u32::from(mask)
}

/// The sorted pieces and hammered mask of a key made by [`pack_key`].
#[inline]
pub(super) fn unpack_key(k: u32) -> ([u8; 4], u8) {
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

/// Sorts four position codes ascending (a sorting network).
#[inline]
pub(super) fn sort4(mut p: [u8; 4]) -> [u8; 4] {
    let mut cs = |a: usize, b: usize| {
        if p[a] > p[b] {
            p.swap(a, b);
        }
    };
    cs(0, 1);
    cs(2, 3);
    cs(0, 2);
    cs(1, 3);
    cs(1, 2);
    p
}

// A projected use vector, what the pieces' uses are combined by: 9 fields of 12 bits. Fields
// 0..7: throws consumed by mouths up (a dust or bange counts once whether played whole or split
// into its hal and its 10 or 24); 7, 8 (`BALANCE`, one per throw of `HAL_KINDS`): hals minus 10s
// played, hals minus 24s played, each plus `D_OFF` per piece summed. A total is valid when fields 7 and 8 are at least their offsets
// (no 10 or 24 without its hal); what exceeds the offsets are the 10s and 24s left over. Two
// states with the same projection are interchangeable in every total, so they merge.
pub(super) const PBITS: usize = 12;
pub(super) const D_OFF: u128 = 256;
const PGUARD: u128 = {
    let mut g = 0u128;
    let mut f = 0;
    while f < 9 {
        g |= 1u128 << (f * PBITS + 11);
        f += 1;
    }
    g
};

#[inline]
pub(super) fn pfield(k: u128, f: usize) -> u32 {
    (k >> (PBITS * f)) as u32 & 4095
}

/// One in field `f`.
#[inline]
pub(super) const fn punit(f: usize) -> u128 {
    1u128 << (PBITS * f)
}

/// The balance field of each throw of [`HAL_KINDS`].
pub(super) const BALANCE: [usize; 2] = [7, 8];

/// The hal of throw `h` of [`HAL_KINDS`]: the throw consumed, its balance up one.
#[inline]
pub(super) const fn hal_unit(h: usize) -> u128 {
    punit(HAL_KINDS[h].0) + punit(BALANCE[h])
}
/// A piece that has used nothing.
pub(super) const NOTHING: u128 = D_OFF << (PBITS * 7) | D_OFF << (PBITS * 8);

/// `a - b` field by field if no field of `b` exceeds `a`'s (every field below 2048).
#[inline]
pub(super) fn psub(a: u128, b: u128) -> Option<u128> {
    let d = (a | PGUARD).wrapping_sub(b);
    (d & PGUARD == PGUARD).then_some(d ^ PGUARD)
}

/// Two pieces' parts as a half result: lower position (bits 0..7), higher (7..14), hammered
/// (14..18), needs (18..22).
#[inline]
pub(super) fn half_part(a: u32, b: u32) -> u32 {
    let (pa, pb) = (a & 127, b & 127);
    let (lo, hi) = if pa <= pb { (pa, pb) } else { (pb, pa) };
    lo | hi << 7 | ((a | b) >> 7 & 15) << 14 | ((a | b) >> 11 & 15) << 18
}

/// Joins two half results into a result key ([`pack_key`]), or `None` when a needed hammering
/// did not happen.
#[inline]
pub(super) fn join_parts(l: u32, r: u32) -> Option<u32> {
    let mask = (l | r) >> 14 & 15;
    let needs = (l | r) >> 18 & 15;
    if needs & !mask != 0 {
        return None;
    }
    Some(merge_parts(l, r))
}

/// [`join_parts`] for half results that need no hammering.
#[inline]
pub(super) fn merge_parts(l: u32, r: u32) -> u32 {
    let mask = (l | r) >> 14 & 15;
    let (l0, l1, r0, r1) = (l & 127, l >> 7 & 127, r & 127, r >> 7 & 127);
    let (p0, m0) = if l0 <= r0 { (l0, r0) } else { (r0, l0) };
    let (m1, p3) = if l1 <= r1 { (l1, r1) } else { (r1, l1) };
    let (p1, p2) = if m0 <= m1 { (m0, m1) } else { (m1, m0) };
    p0 << 25 | p1 << 18 | p2 << 11 | p3 << 4 | mask
}

/// Step 4 of a join, for either kind of projected total: every total of one group per piece
/// (`groups(i)`, identical pieces mapped by `src`) within the throws (`within`), the valid ones
/// scored into `targets`, best first. `tally` gives a valid total's throws used and its 10s and
/// 24s left over, or `None` for a 10 or 24 without its hal; the score is `obligation`'s. `cum` is
/// scratch.
pub(super) fn scored_totals<V, I>(
    src: [usize; 4],
    groups: impl Fn(usize) -> I,
    within: impl Fn(V) -> bool,
    tally: impl Fn(V) -> Option<(u32, u32)>,
    obligation: Obligation,
    (cum, next): (&mut Vec<V>, &mut Vec<V>),
    targets: &mut Vec<(i64, V)>,
) where
    V: Copy + Ord + std::ops::Add<Output = V>,
    I: Iterator<Item = V> + Clone,
{
    cum.clear();
    cum.extend(groups(src[0]));
    for &from in &src[1..] {
        next.clear();
        for &v in cum.iter() {
            next.extend(groups(from).map(|g| v + g).filter(|&t| within(t)));
        }
        next.sort_unstable();
        next.dedup();
        std::mem::swap(cum, next);
    }
    targets.clear();
    targets.extend(
        cum.iter()
            .filter_map(|&t| tally(t).map(|(used, pending)| (obligation.score(used, pending), t))),
    );
    targets.sort_unstable_by(|a, b| b.cmp(a));
}

/// The next totals allowed together, from `targets[from..]` (scored best first, `from` within
/// them): under `must-use=max` those of one score, under `free` all of them. Into `chosen`;
/// returns where the totals after them start.
pub(super) fn next_tier<V: Copy>(
    targets: &[(i64, V)],
    from: usize,
    obligation: Obligation,
    chosen: &mut Vec<V>,
) -> usize {
    chosen.clear();
    let mut best = Best::new(obligation);
    best.meet(targets[from].0);
    let mut i = from;
    while i < targets.len() && best.admits(targets[i].0) {
        chosen.push(targets[i].1);
        i += 1;
    }
    i
}
