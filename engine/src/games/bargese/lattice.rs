//! The join step of [`super::movegen`] for turns of few throws (almost all of them): projected
//! use vectors packed into 64 bits, and each half's pairs of groups kept in an array indexed by
//! the position of their total in the box of all totals the throws allow, instead of a hash table.
//!
//! The index is linear: a vector's index is the sum of its fields times mixed-radix strides
//! (radix `count + 1` for a throw kind, `2 * count + 1` for a balance of hals and 10s or 24s),
//! so a pair's index is the sum of its pieces' indices and the index a first half needs on the
//! second is the chosen total's minus its own. Within the box the index is one-to-one; every
//! half is checked to lie in the box before it is indexed.
//!
//! The second half is tabled; each pair of groups of the first half finds the slot completing
//! it by one subtraction, with no hashing.

use super::packing::{
    half_part, join_parts, merge_parts, next_tier, pfield, scored_totals, BALANCE, D_OFF,
};
use super::step::Obligation;
use super::throws::HAL_KINDS;

/// Bits per field of a packed vector: a guard bit (6) over six value bits.
const CB: usize = 7;
const CGUARD: u64 = {
    let mut g = 0u64;
    let mut f = 0;
    while f < 9 {
        g |= 1u64 << (f * CB + 6);
        f += 1;
    }
    g
};
/// The most dusts (or banges) whose balance fields fit: a total's balance is at most five times
/// the count (four pieces' offsets plus the hals), and a field holds up to 63.
const MAX_HAL_KIND: u32 = 12;
/// The most throws of any other kind: a sum of two vectors within the throws stays below 64.
const MAX_KIND: u32 = 31;
/// The largest box indexed by an array.
const MAX_SLOTS: i64 = 1 << 16;
const NONE: u32 = u32::MAX;

#[inline]
fn cfield(v: u64, f: usize) -> u32 {
    (v >> (CB * f)) as u32 & 127
}

/// `a - b` field by field if no field of `b` exceeds `a`'s (every field below 64).
#[inline]
fn csub(a: u64, b: u64) -> Option<u64> {
    let d = (a | CGUARD).wrapping_sub(b);
    (d & CGUARD == CGUARD).then_some(d ^ CGUARD)
}

/// The box of a turn's throws: caps, offsets and strides.
pub(super) struct Lattice {
    /// The counts of the throws that carry the hal, in the order of [`HAL_KINDS`].
    hal_counts: [u32; 2],
    /// A total's cap: the throws in fields 0..7, no limit on the balance fields.
    cap_total: u64,
    /// A half's bounds: the throws, and balance within the count either side of zero.
    cap_half: u64,
    low_half: u64,
    stride: [i64; 9],
    /// Where a half of balance zero in both fields and nothing consumed sits.
    base: i64,
    size: usize,
}

impl Lattice {
    /// The box for `counts`, or `None` when the counts are too large for packed vectors or the
    /// box for an array (the general path of [`super::movegen`] then runs).
    pub(super) fn new(counts: &[u32; 7]) -> Option<Lattice> {
        let (cd, cb) = (counts[HAL_KINDS[0].0], counts[HAL_KINDS[1].0]);
        if cd > MAX_HAL_KIND || cb > MAX_HAL_KIND || counts.iter().any(|&c| c > MAX_KIND) {
            return None;
        }
        let mut radix = [0i64; 9];
        for (r, &c) in radix.iter_mut().zip(counts) {
            *r = i64::from(c) + 1;
        }
        radix[BALANCE[0]] = 2 * i64::from(cd) + 1;
        radix[BALANCE[1]] = 2 * i64::from(cb) + 1;
        let mut stride = [0i64; 9];
        let mut size = 1i64;
        for f in 0..9 {
            stride[f] = size;
            size *= radix[f];
            if size > MAX_SLOTS {
                return None;
            }
        }
        let mut cap_total = 63u64 << (CB * BALANCE[0]) | 63u64 << (CB * BALANCE[1]);
        let mut cap_half =
            u64::from(3 * cd) << (CB * BALANCE[0]) | u64::from(3 * cb) << (CB * BALANCE[1]);
        for (f, &c) in counts.iter().enumerate() {
            cap_total |= u64::from(c) << (CB * f);
            cap_half |= u64::from(c) << (CB * f);
        }
        Some(Lattice {
            hal_counts: [cd, cb],
            cap_total,
            cap_half,
            low_half: u64::from(cd) << (CB * BALANCE[0]) | u64::from(cb) << (CB * BALANCE[1]),
            stride,
            base: i64::from(cd) * stride[BALANCE[0]] + i64::from(cb) * stride[BALANCE[1]],
            size: size as usize,
        })
    }

    /// One piece's projected vector in packed form (each balance field offset by its count) and
    /// its index.
    #[inline]
    fn piece(&self, u: u128) -> (u64, i64) {
        let mut v = 0u64;
        let mut idx = 0i64;
        for f in 0..7 {
            let x = pfield(u, f);
            v |= u64::from(x) << (CB * f);
            idx += i64::from(x) * self.stride[f];
        }
        for (&f, &c) in BALANCE.iter().zip(&self.hal_counts) {
            let b = i64::from(pfield(u, f)) - D_OFF as i64;
            v |= ((b + i64::from(c)) as u64) << (CB * f);
            idx += b * self.stride[f];
        }
        (v, idx)
    }

    /// The index of a total of four pieces.
    fn total_index(&self, t: u64) -> i64 {
        let mut idx = 0i64;
        for f in 0..7 {
            idx += i64::from(cfield(t, f)) * self.stride[f];
        }
        for (&f, &c) in BALANCE.iter().zip(&self.hal_counts) {
            idx += (i64::from(cfield(t, f)) - 4 * i64::from(c)) * self.stride[f];
        }
        idx
    }

    /// Whether a half's total lies in the box.
    #[inline]
    fn in_half_box(&self, h: u64) -> bool {
        csub(self.cap_half, h).is_some() && csub(h, self.low_half).is_some()
    }
}

/// One piece's group of states with one projection: packed vector, index, range of states.
type Group = (u64, i64, u32, u32);
/// One piece's states: `(projection, part of a result)`.
type States = [(u128, u32)];

/// One half: its pairs of groups by total.
#[derive(Default)]
struct Side {
    /// Per slot of the box: the id of its total, or `NONE`.
    ids: Vec<u32>,
    /// Per id: the half's packed total and its slot.
    totals: Vec<(u64, u32)>,
    /// Per id: the last pair of groups reaching it, and its built results `(start, end)` or
    /// `NONE`.
    heads: Vec<u32>,
    built: Vec<(u32, u32)>,
    /// `(group of the first piece, group of the second, previous pair with the same total)`.
    pairs: Vec<(u32, u32, u32)>,
    parts: Vec<u32>,
}

impl Side {
    fn reset(&mut self, size: usize) {
        if self.ids.len() < size {
            self.ids.resize(size, NONE);
        }
        for &(_, slot) in &self.totals {
            self.ids[slot as usize] = NONE;
        }
        self.totals.clear();
        self.heads.clear();
        self.built.clear();
        self.pairs.clear();
        self.parts.clear();
    }

    /// Every pair of groups of `gx` and `gy` (identical pieces: unordered) inside the box.
    fn build(&mut self, lat: &Lattice, gx: &[Group], gy: &[Group], same: bool) {
        self.reset(lat.size);
        for (a, &(ua, ia, ..)) in gx.iter().enumerate() {
            let from = if same { a } else { 0 };
            for (b, &(ub, ib, ..)) in gy.iter().enumerate().skip(from) {
                let h = ua + ub;
                if !lat.in_half_box(h) {
                    continue;
                }
                let slot = (ia + ib + lat.base) as usize;
                let mut id = self.ids[slot];
                if id == NONE {
                    id = self.totals.len() as u32;
                    self.ids[slot] = id;
                    self.totals.push((h, slot as u32));
                    self.heads.push(NONE);
                    self.built.push((NONE, NONE));
                }
                self.pairs
                    .push((a as u32, b as u32, self.heads[id as usize]));
                self.heads[id as usize] = (self.pairs.len() - 1) as u32;
            }
        }
    }

    /// The distinct half results of total `id`: a range of `parts`.
    fn bucket(
        &mut self,
        id: u32,
        (gx, gy): (&[Group], &[Group]),
        (sx, sy): (&States, &States),
        same: bool,
    ) -> (usize, usize) {
        let (b0, b1) = self.built[id as usize];
        if b0 != NONE {
            return (b0 as usize, b1 as usize);
        }
        let start = self.parts.len();
        let mut p = self.heads[id as usize];
        while p != NONE {
            let (a, b, next) = self.pairs[p as usize];
            let (.., a0, a1) = gx[a as usize];
            let (.., c0, c1) = gy[b as usize];
            for i in a0..a1 {
                // Identical pieces: each unordered pair of states once.
                let j0 = if same && a == b { i } else { c0 };
                let pa = sx[i as usize].1;
                for j in j0..c1 {
                    self.parts.push(half_part(pa, sy[j as usize].1));
                }
            }
            p = next;
        }
        let v = &mut self.parts[start..];
        v.sort_unstable();
        let mut w = 0;
        for r in 0..v.len() {
            if r == 0 || v[r] != v[w - 1] {
                v[w] = v[r];
                w += 1;
            }
        }
        self.parts.truncate(start + w);
        self.built[id as usize] = (start as u32, (start + w) as u32);
        (start, start + w)
    }
}

/// What the lattice join keeps between calls.
#[derive(Default)]
pub(super) struct Scratch {
    groups: [Vec<Group>; 4],
    right: Side,
    cum: Vec<u64>,
    cum_next: Vec<u64>,
    targets: Vec<(i64, u64)>,
    chosen: Vec<u64>,
}

/// Adds to `results` the result keys of the best totals (every valid total under `free`), given
/// each piece's states (`(projection, part)`, sorted) and groups of equal projection, `src`
/// mapping identical pieces to the first, and `order` the halves' pieces.
#[allow(clippy::too_many_arguments)]
pub(super) fn join_turn(
    s: &mut Scratch,
    lat: &Lattice,
    states: &[Vec<(u128, u32)>; 4],
    groups: &[Vec<(u128, u32, u32)>; 4],
    src: [usize; 4],
    order: [usize; 4],
    obligation: Obligation,
    results: &mut Vec<u32>,
) {
    for i in 0..4 {
        if src[i] != i {
            continue;
        }
        s.groups[i].clear();
        s.groups[i].extend(groups[i].iter().map(|&(u, a, b)| {
            let (v, idx) = lat.piece(u);
            (v, idx, a, b)
        }));
    }
    let [_, _, z, w] = order;
    s.right.build(lat, &s.groups[z], &s.groups[w], z == w);
    let [cd, cb] = lat.hal_counts.map(u64::from);
    let [fd, fb] = BALANCE;
    let balance = 63u64 << (CB * fd) | 63u64 << (CB * fb);
    // Every throw used and no 10 or 24 left over: each balance field at four offsets.
    let full = lat.cap_total & !balance | (4 * cd) << (CB * fd) | (4 * cb) << (CB * fb);
    results.clear();
    let try_full = obligation.full_use_beats_all();
    if try_full {
        s.chosen.clear();
        s.chosen.push(full);
        join(s, lat, states, order, results);
        if !results.is_empty() {
            return;
        }
    }
    // Otherwise every total the pieces reach together, valid ones scored, best first.
    scored_totals(
        src,
        |i| s.groups[i].iter().map(|g| g.0),
        |t| csub(lat.cap_total, t).is_some(),
        |t| {
            let (bd, bb) = (u64::from(cfield(t, fd)), u64::from(cfield(t, fb)));
            let used: u32 = (0..7).map(|f| cfield(t, f)).sum();
            (bd >= 4 * cd && bb >= 4 * cb).then(|| (used, (bd - 4 * cd + bb - 4 * cb) as u32))
        },
        obligation,
        (&mut s.cum, &mut s.cum_next),
        &mut s.targets,
    );
    let mut i = 0;
    while i < s.targets.len() {
        i = next_tier(&s.targets, i, obligation, &mut s.chosen);
        if try_full && s.chosen == [full] {
            continue; // tried above
        }
        join(s, lat, states, order, results);
        // Under entry-onto=blocked a best total may have no valid completion; then the next
        // best counts.
        if !results.is_empty() {
            break;
        }
    }
}

/// Adds to `results` every result whose total is in `s.chosen`: each pair of groups of the first
/// half meets the second half's results completing it.
fn join(
    s: &mut Scratch,
    lat: &Lattice,
    states: &[Vec<(u128, u32)>; 4],
    order: [usize; 4],
    results: &mut Vec<u32>,
) {
    let [x, y, z, w] = order;
    let same = x == y;
    // Under `entry-onto=hammer` no state needs a hammering.
    let needs_free = [x, y, z, w]
        .iter()
        .all(|&i| states[i].iter().all(|st| st.1 >> 11 == 0));
    let (gx, gy) = (&s.groups[x][..], &s.groups[y][..]);
    let (sx, sy) = (&states[x][..], &states[y][..]);
    let (rg, rs) = (
        (&s.groups[z][..], &s.groups[w][..]),
        (&states[z][..], &states[w][..]),
    );
    // The slot a first half of index `i` needs is `it - i + base`.
    for &t in &s.chosen {
        let reach = lat.total_index(t) + lat.base;
        for (a, &(ua, ia, a0, a1)) in gx.iter().enumerate() {
            let from = if same { a } else { 0 };
            for &(ub, ib, b0, b1) in &gy[from..] {
                let Some(need) = csub(t, ua + ub) else {
                    continue;
                };
                if !lat.in_half_box(need) {
                    continue;
                }
                let rid = s.right.ids[(reach - ia - ib) as usize];
                if rid == NONE {
                    continue;
                }
                let (r0, r1) = s.right.bucket(rid, rg, rs, z == w);
                let parts = &s.right.parts[r0..r1];
                for i in a0..a1 {
                    // Identical pieces: each unordered pair of states once.
                    let j0 = if same && b0 == a0 { i } else { b0 };
                    let pa = sx[i as usize].1;
                    for j in j0..b1 {
                        let pl = half_part(pa, sy[j as usize].1);
                        if needs_free {
                            results.extend(parts.iter().map(|&pr| merge_parts(pl, pr)));
                        } else {
                            results.extend(parts.iter().filter_map(|&pr| join_parts(pl, pr)));
                        }
                    }
                }
            }
        }
    }
}
