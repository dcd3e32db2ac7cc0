//! Whole-turn move generation: every distinct position the player can reach by playing the
//! turn's throws, in any order and on any pieces.
//!
//! Tajeddin (Finkel 2002): the player throws until a throw grants no further throw and "only then
//! should the player commence to move"; the throws are played in any order, each on any piece.
//! One decision is the whole set of throws, and the legal actions are the distinct resulting
//! positions (the mover's pieces and which opposing pieces were hammered on the way).
//!
//! A dust or bange may be split into its hal (the 1) and its 10 or 24; under `remainder=any-order`
//! (the default) the two parts may go to different pieces and be played in either order, but the
//! 10 or 24 exists only if the hal is played too. The other readings of `remainder` make the two
//! one use, which orders uses across pieces: their turns go to [`super::ordered`] instead.
//!
//! Nothing one piece does changes what another may do: the opposing pieces stand still, blocking
//! by an X or by an unhammerable piece is fixed for the turn, and hammering an opposing piece
//! twice is hammering it once. (One option breaks this: under `entry-onto=blocked` a piece may
//! enter onto an opposing piece that another piece hammered earlier in the turn; such a state
//! records the pieces it needs hammered.) So the search is split, and no ordering of moves
//! between pieces is ever enumerated:
//! 1. per piece, every state `(projected use vector, end square, hammered, needs hammered)` it
//!    can reach. The projected vector counts the throws consumed by kind (a dust or bange once,
//!    whether played whole or split) and, per hal kind, hals minus 10s or 24s played; states with
//!    equal projections are interchangeable in any total, so they merge. A piece has only 84
//!    steps from off the board to the kitchen, which bounds this set however long the chain.
//!    What a piece may use depends only on what it has used, so for turns of up to eight throws
//!    (under `entry-onto=hammer`) the states come from walking the throws' move pattern, made once
//!    per multiset of throws ([`super::dag`]); otherwise from a breadth-first search by progress;
//! 2. for turns of up to four throws under must-use `max`, the pattern's cached node tuples that
//!    use every throw are tried first: each tuple whose four nodes the pieces reach is a result;
//! 3. otherwise the pieces are joined: every combination of one state per piece when the pieces
//!    have few states ([`super::direct`]); else in two halves (two pieces each, paired so that the
//!    pairs of groups are fewest; identical pieces take each unordered pair once), the second
//!    half's pairs of groups tabled by total (in an array over the box of totals the throws allow,
//!    [`super::lattice`], or for very long chains an open-addressing table of 128-bit totals), and
//!    every pair of the first half looking up the total completing it, whose distinct half
//!    results are built on first use;
//! 4. the totals joined are, under must-use `max`, first only the best conceivable one (every
//!    throw used, no 10 or 24 left over); if nothing reaches it, all totals the pieces reach
//!    together are scored (most throws used, then fewest 10s and 24s left; never a 10 or 24
//!    without its hal) and joined best first; under `free`, all valid totals;
//! 5. the results are deduplicated (through an open-addressing set when many) and sorted, so many
//!    splits and orders reaching one position give one action, in ascending `(pieces, hammered)`
//!    order.
//!
//! A single dust or bange goes to the direct search of [`super::sequence`] instead.
//! The rules of each use are asked of [`super::step`]. In test builds, `crosscheck.rs` checks
//! the actions against the brute force of `brute.rs`, which plays every order of the throws on
//! every piece from those rules, and checks that every join and both ways of finding a piece's
//! states agree.
//!
//! Buffers live in a thread-local scratch and are reused, so warm generation does not allocate;
//! the pattern store allocates when a multiset of throws is first met (it keeps at most 4,096
//! patterns, most of a few kilobytes, and is emptied when full).

use std::cell::RefCell;

use super::action::BargeseAction;
use super::board::OFF;
use super::lattice::{self, Lattice};
use super::ordered::ordered_turn;
use super::packing::{
    half_part, join_parts, next_tier, pack_key, pfield, psub, scored_totals, sort4, unpack_key,
    BALANCE, D_OFF, NOTHING, PBITS,
};
use super::rules::{BargeseRules, Remainder};
use super::sequence::small_turn;
use super::step::{Best, Landing, Obligation, Step};
use super::throws::{Throw, VALUES};
use super::uses::{piece_part, piece_states, state_used, Ctx};
use super::{dag, direct};
use crate::game::Player;

/// The largest count the state keeps of one throw. A turn can use at most 336 throws: each use
/// moves a piece at least one of its 84 steps (entry, 82 squares, kitchen) and a player's own
/// pieces never go back within its turn. So throws beyond 511 of one kind are necessarily lost,
/// and counting up to 511 then discarding further ones changes no legal action.
pub const MAX_COUNT: u16 = 511;

/// Turns of up to this many throws go to the direct search of [`small_turn`].
const SMALL_TURN: u32 = 1;

#[derive(Default)]
struct Scratch {
    levels: Vec<Vec<u128>>,
    raw: Vec<u128>,
    /// Per piece: `(projection, part)` sorted, deduplicated.
    states: [Vec<(u128, u32)>; 4],
    /// Per piece: `(projection, first state, end state)` for each distinct projection.
    groups: [Vec<(u128, u32, u32)>; 4],
    cum: Vec<u128>,
    cum_next: Vec<u128>,
    targets: Vec<(i64, u128)>,
    chosen: Vec<u128>,
    right: Half,
    results: Vec<u32>,
    radix: Vec<u32>,
    lattice: lattice::Scratch,
    direct: direct::Scratch,
    dags: dag::Store,
    reach: Vec<u16>,
    reaches: [Vec<u16>; 4],
    /// Per group of full-use second-half pairs: its range of `second_hits`, or unmade.
    seen_groups: Vec<(u32, u32)>,
    second_hits: Vec<([u8; 2], u16)>,
    seen: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Groups a sorted list by its first element.
fn group<T: Copy>(list: &[(u128, T)], groups: &mut Vec<(u128, u32, u32)>) {
    groups.clear();
    let mut i = 0;
    while i < list.len() {
        let u = list[i].0;
        let mut j = i + 1;
        while j < list.len() && list[j].0 == u {
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
    generate_by(me, mine, theirs, throws, rules, out, Join::Fastest);
}

/// Which join a whole turn uses; all give the same actions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Join {
    /// The fastest that applies: [`direct`] when the pieces have few states, else [`lattice`]
    /// when the throws are few, else the general one.
    Fastest,
    /// [`direct`] where the throws fit it, however many states (tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Direct,
    /// [`lattice`] where it applies, else the general one (tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Lattice,
    /// The general join: hash tables of 128-bit vectors (tests).
    #[cfg_attr(not(test), allow(dead_code))]
    General,
    /// No join: the use-by-use search of [`super::ordered`], which the `remainder` readings
    /// other than `any-order` need (tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Ordered,
}

/// [`generate`] through a chosen join.
pub(super) fn generate_by(
    me: Player,
    mine: [u8; 4],
    theirs: [u8; 4],
    throws: &[u16; 7],
    rules: &BargeseRules,
    out: &mut Vec<BargeseAction>,
    how: Join,
) {
    out.clear();
    let ctx = Ctx {
        counts: throws.map(|c| u32::from(c.min(MAX_COUNT))),
        throws: throws.iter().map(|&c| u32::from(c.min(MAX_COUNT))).sum(),
        obligation: Obligation::new(rules),
        step: Step::new(me, theirs, rules),
    };
    // Fast path: a single throw without a hal (most turns), whose one use is the whole throw:
    // each distinct piece moves it or not.
    let total: u32 = ctx.counts.iter().sum();
    let single = if total == 1 {
        ctx.counts.iter().position(|&c| c == 1)
    } else {
        None
    };
    if let Some(k) = single.filter(|&k| !Throw::ALL[k].has_hal()) {
        let v = VALUES[k];
        let mut keys = [0u32; 5];
        let mut n = 0;
        for i in 0..4 {
            let p = mine[i];
            if i > 0 && p == mine[i - 1] {
                continue;
            }
            let Some((t, entering)) = ctx.step.whole(p, k, v) else {
                continue;
            };
            if let Landing::Lands(m) = ctx.step.land(t, 0, entering) {
                let mut q = mine;
                q[i] = t;
                keys[n] = pack_key(sort4(q), m);
                n += 1;
            }
        }
        // Moving uses the throw; staying put (a pass) uses nothing.
        let mut best = Best::new(ctx.obligation);
        if n > 0 {
            best.meet(ctx.obligation.score(1, 0));
        }
        let stay = ctx.obligation.score(0, 0);
        if best.admits(stay) {
            if best.meet(stay) {
                n = 0;
            }
            keys[n] = pack_key(mine, 0);
            n += 1;
        }
        // At most five keys, all distinct.
        insertion_sort(&mut keys[..n]);
        out.extend(keys[..n].iter().map(|&k| {
            let (pieces, hammered) = unpack_key(k);
            BargeseAction { pieces, hammered }
        }));
        return;
    }
    SCRATCH.with(|cell| {
        let s = &mut *cell.borrow_mut();
        if rules.remainder != Remainder::AnyOrder || how == Join::Ordered {
            // The hal and its remainder one use: an order across pieces, searched use by use.
            ordered_turn(&ctx, mine, rules.remainder, &mut s.results);
        } else if total <= SMALL_TURN {
            small_turn(&ctx, mine, &mut s.results);
        } else {
            whole_turn(s, &ctx, mine, how);
        }
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

/// The general case: leaves the sorted distinct result keys in `s.results`.
fn whole_turn(s: &mut Scratch, ctx: &Ctx, mine: [u8; 4], how: Join) {
    if s.levels.len() < 85 {
        s.levels.resize_with(85, Vec::new);
    }
    // The cap on consumed throws by kind, field by field; the balance fields never limit.
    let balance = 2047u128 << (PBITS * BALANCE[0]) | 2047u128 << (PBITS * BALANCE[1]);
    let mut cap = balance;
    for (k, &c) in ctx.counts.iter().enumerate() {
        cap |= u128::from(c) << (PBITS * k);
    }
    // 1. Each piece's states by projection (identical pieces share the lists of the first): by
    // walking the throws' pattern when an entry never waits for a hammering, else by search.
    let patterns =
        ctx.step.entry_hammers() && ctx.throws <= dag::MAX_THROWS && how != Join::General;
    // 0. Few throws, every one to be used if possible: try the tuples of pattern nodes that use
    // them all.
    let mut filled = false;
    // Every throw used, no 10 or 24 left over: each balance field at four offsets.
    let full =
        cap & !balance | (4 * D_OFF) << (PBITS * BALANCE[0]) | (4 * D_OFF) << (PBITS * BALANCE[1]);
    let try_full = ctx.obligation.full_use_beats_all();
    if patterns && try_full && ctx.throws <= dag::TUPLE_THROWS && how == Join::Fastest {
        match full_tuples(s, ctx, mine, full) {
            Tuples::Found => {
                finish(s);
                return;
            }
            Tuples::None => filled = true,
            Tuples::TooMany => {}
        }
    }
    let mut src = [0usize; 4];
    for i in 0..4 {
        if i > 0 && mine[i] == mine[i - 1] {
            src[i] = src[i - 1];
            continue;
        }
        src[i] = i;
        let st = &mut s.states[i];
        st.clear();
        if patterns {
            let dag = s.dags.get(ctx, mine[i] == OFF, NOTHING);
            let push = |used, pos, mask| st.push((used, u32::from(pos) | u32::from(mask) << 7));
            if filled {
                // Step 0 walked this piece already.
                dag.states(mine[i], &s.reaches[i], push);
            } else {
                dag.walk(ctx, mine[i], &mut s.reach, push);
            }
        } else {
            let mut raw = std::mem::take(&mut s.raw);
            piece_states(ctx, mine[i], &mut s.levels, &mut raw);
            st.extend(raw.iter().map(|&x| (state_used(x), piece_part(x))));
            s.raw = raw;
        }
        group(st, &mut s.groups[i]);
    }
    let direct = match how {
        Join::Fastest => direct::suits(&ctx.counts, &s.states, src),
        Join::Direct => direct::fits(&ctx.counts),
        Join::Lattice | Join::General | Join::Ordered => false,
    };
    if direct {
        direct::join_turn(
            &mut s.direct,
            &ctx.counts,
            &s.states,
            src,
            ctx.obligation,
            &mut s.results,
        );
        finish(s);
        return;
    }
    let order = pairing(&s.groups, src);
    if let Some(lat) = Lattice::new(&ctx.counts).filter(|_| how != Join::General) {
        lattice::join_turn(
            &mut s.lattice,
            &lat,
            &s.states,
            &s.groups,
            src,
            order,
            ctx.obligation,
            &mut s.results,
        );
        finish(s);
        return;
    }
    // 2. The second half: every pair of groups within the throws, chained by total in a table.
    s.right.build(&s.groups, order[2], order[3], cap);
    // 3. Under must-use=max, first try the best conceivable total: every throw used, no 10 or 24
    // left over.
    s.results.clear();
    if try_full {
        s.chosen.clear();
        s.chosen.push(full);
        join(s, order);
        if !s.results.is_empty() {
            finish(s);
            return;
        }
    }
    // 4. Otherwise every total the pieces reach together, valid ones scored, best first.
    let off = 4 * D_OFF as u32;
    scored_totals(
        src,
        |i| s.groups[i].iter().map(|g| g.0),
        |t| psub(cap, t).is_some(),
        |t| {
            let (bd, bb) = (pfield(t, BALANCE[0]), pfield(t, BALANCE[1]));
            let used: u32 = (0..7).map(|f| pfield(t, f)).sum();
            (bd >= off && bb >= off).then(|| (used, bd - off + bb - off))
        },
        ctx.obligation,
        (&mut s.cum, &mut s.cum_next),
        &mut s.targets,
    );
    let mut i = 0;
    while i < s.targets.len() {
        i = next_tier(&s.targets, i, ctx.obligation, &mut s.chosen);
        if try_full && s.chosen == [full] {
            continue; // tried above
        }
        join(s, order);
        // Under entry-onto=blocked a best total may have no valid completion; then the next
        // best counts.
        if !s.results.is_empty() {
            break;
        }
    }
    finish(s);
}

/// What step 0 of [`whole_turn`] found.
enum Tuples {
    /// Results, in `s.results`.
    Found,
    /// No tuple is reached; each distinct piece's reach is in `s.reaches`.
    None,
    /// Too many tuples to list.
    TooMany,
}

/// Step 0 of [`whole_turn`]: every full-use tuple whose nodes the pieces reach gives a result
/// in `s.results`.
fn full_tuples(s: &mut Scratch, ctx: &Ctx, mine: [u8; 4], full: u128) -> Tuples {
    let k = mine.iter().filter(|&&p| p == OFF).count();
    let (track, off, pairs) = s.dags.tuples(ctx, k, NOTHING, full);
    let Some(pairs) = pairs else {
        return Tuples::TooMany;
    };
    let dags = [0, 1, 2, 3].map(|i| if i < 4 - k { track } else { off });
    for i in 0..4 {
        if i == 0 || mine[i] != mine[i - 1] {
            dags[i].fill(ctx, mine[i], &mut s.reaches[i]);
        }
    }
    // Identical pieces share the first one's reach.
    let src = [0, 1, 2, 3].map(|i| {
        (0..=i)
            .rev()
            .take_while(|&j| mine[j] == mine[i])
            .last()
            .unwrap_or(i)
    });
    let reach = src.map(|i| &s.reaches[i][..]);
    // Per group of second-half pairs, its reached pairs `(squares, masks)`, made when first met.
    s.seen_groups.clear();
    s.seen_groups.resize(pairs.groups.len(), (u32::MAX, 0));
    s.second_hits.clear();
    s.results.clear();
    // Identical pieces within a half: each unordered pair of nodes once.
    let (same01, same23) = (mine[0] == mine[1], mine[2] == mine[3]);
    // Nodes are numbered by distance, and nodes beyond a piece's reach come last: the loops stop
    // there (a node list of the first pairs and of each group's pairs is ascending in its first
    // node, a piece's first pairs in their second).
    let ends = [0, 1, 2, 3].map(|i| dags[i].reachable_end(mine[i]));
    for (a0, &(f0, f1)) in pairs.by_first[..ends[0]].iter().enumerate() {
        if reach[0][a0] == 0 {
            continue;
        }
        for &(a, b, g) in &pairs.first[f0 as usize..f1 as usize] {
            if usize::from(b) >= ends[1] {
                break;
            }
            let (ra, rb) = (reach[0][usize::from(a)], reach[1][usize::from(b)]);
            if rb == 0 || (same01 && a > b) {
                continue;
            }
            let (mut h0, mut h1) = s.seen_groups[g as usize];
            if h0 == u32::MAX {
                h0 = s.second_hits.len() as u32;
                let (g0, g1) = pairs.groups[g as usize];
                for &(c, d) in &pairs.second[g0 as usize..g1 as usize] {
                    if usize::from(c) >= ends[2] {
                        break;
                    }
                    let (rc, rd) = (reach[2][usize::from(c)], reach[3][usize::from(d)]);
                    if rc != 0 && rd != 0 && !(same23 && c > d) {
                        let (x, y) = (
                            dags[2].square(mine[2], usize::from(c)),
                            dags[3].square(mine[3], usize::from(d)),
                        );
                        s.second_hits.push(([x.min(y), x.max(y)], or_sets(rc, rd)));
                    }
                }
                h1 = s.second_hits.len() as u32;
                s.seen_groups[g as usize] = (h0, h1);
            }
            if h0 == h1 {
                continue;
            }
            let (x, y) = (
                dags[0].square(mine[0], usize::from(a)),
                dags[1].square(mine[1], usize::from(b)),
            );
            let (pa, pb) = (x.min(y), x.max(y));
            let first = or_sets(ra, rb);
            for &(sq, second) in &s.second_hits[h0 as usize..h1 as usize] {
                // Two sorted pairs merged.
                let (p0, m0) = (pa.min(sq[0]), pa.max(sq[0]));
                let (m1, p3) = (pb.min(sq[1]), pb.max(sq[1]));
                let key = pack_key([p0, m0.min(m1), m0.max(m1), p3], 0);
                let mut masks = or_sets(first, second);
                // One mask each (the usual case), or every union of one mask per piece.
                loop {
                    s.results.push(key | masks.trailing_zeros());
                    masks &= masks - 1;
                    if masks == 0 {
                        break;
                    }
                }
            }
        }
    }
    if s.results.is_empty() {
        Tuples::None
    } else {
        Tuples::Found
    }
}

/// The set of unions `x | y` of a hammered mask `x` of set `a` and `y` of set `b` (bit `m` of a
/// set is mask `m`).
#[inline]
fn or_sets(a: u16, b: u16) -> u16 {
    // Bit `j` added to every mask of a set: masks holding it stay, the others move up by 2^j.
    const HAS: [u16; 4] = [0xAAAA, 0xCCCC, 0xF0F0, 0xFF00];
    if a & (a - 1) == 0 && b & (b - 1) == 0 {
        return 1 << (a.trailing_zeros() | b.trailing_zeros());
    }
    let mut out = 0;
    let mut xs = a;
    while xs != 0 {
        let x = xs.trailing_zeros();
        xs &= xs - 1;
        let mut set = b;
        for (j, has) in HAS.iter().enumerate() {
            if x >> j & 1 == 1 {
                set = (set & has) | (set & !has) << (1u32 << j);
            }
        }
        out |= set;
    }
    out
}

/// The pieces' lists paired into two halves, `[first half, second half]`, with the fewest pairs
/// of groups.
fn pairing(groups: &[Vec<(u128, u32, u32)>; 4], src: [usize; 4]) -> [usize; 4] {
    let n = |i: usize| groups[src[i]].len();
    [[0, 1, 2, 3], [0, 2, 1, 3], [0, 3, 1, 2]]
        .into_iter()
        .min_by_key(|p| n(p[0]) * n(p[1]) + n(p[2]) * n(p[3]))
        .map_or(src, |p| p.map(|i| src[i]))
}

/// Sorts and deduplicates the results: a long list first loses its repeats through an
/// open-addressing set, so that only distinct keys are sorted.
fn finish(s: &mut Scratch) {
    if s.results.len() > 64 && s.results.len() <= HASH_MOST {
        // The set is the list's length rounded up to a power of two, cleared in one pass; long
        // lists repeat most keys, so it stays sparse, and it grows fourfold if ever half full.
        let mut want = s.results.len().next_power_of_two();
        if s.seen.len() < want {
            s.seen.resize(want, NO_KEY);
        }
        s.seen[..want].fill(NO_KEY);
        let (results, seen) = (&mut s.results, &mut s.seen);
        let n = results.len();
        let (mut r, mut w) = (0, 0);
        while r < n {
            if 2 * w >= want {
                want *= 4;
                if seen.len() < want {
                    seen.resize(want, NO_KEY);
                }
                seen[..want].fill(NO_KEY);
                for &k in &results[..w] {
                    insert_key(&mut seen[..want], k);
                }
            }
            // Each key adds at most one member: this many more keep the set at most half full.
            let end = n.min(r + want / 2 - w);
            let set = &mut seen[..want];
            for i in r..end {
                let k = results[i];
                if insert_key(set, k) {
                    results[w] = k;
                    w += 1;
                }
            }
            r = end;
        }
        s.results.truncate(w);
    }
    if s.results.len() <= INSERTION_MOST {
        insertion_sort(&mut s.results);
        s.results.dedup();
        return;
    }
    if s.results.len() > 4096 {
        radix_sort(&mut s.results, &mut s.radix);
    } else {
        s.results.sort_unstable();
    }
    s.results.dedup();
}

/// Sorts a short list by insertion.
#[inline]
fn insertion_sort(v: &mut [u32]) {
    for r in 1..v.len() {
        let x = v[r];
        let mut i = r;
        while i > 0 && v[i - 1] > x {
            v[i] = v[i - 1];
            i -= 1;
        }
        v[i] = x;
    }
}

/// Lists of at most this many keys are sorted by insertion.
const INSERTION_MOST: usize = 48;

/// Longer lists (the rarest, longest chains) are sorted whole instead: the set would take as
/// much memory again.
const HASH_MOST: usize = 1 << 20;

/// No result key: a position code of 127 is none.
const NO_KEY: u32 = u32::MAX;

/// Adds `k` to the open-addressing set `seen` (a power of two long, never full); whether it
/// was new.
#[inline]
fn insert_key(seen: &mut [u32], k: u32) -> bool {
    let m = seen.len() - 1;
    let mut i = key_slot(k) & m;
    loop {
        let e = seen[i];
        if e == k {
            return false;
        }
        if e == NO_KEY {
            seen[i] = k;
            return true;
        }
        i = (i + 1) & m;
    }
}

#[inline]
fn key_slot(k: u32) -> usize {
    (u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize
}

/// Sorts `v` ascending: three passes of 11 bits, least significant first.
fn radix_sort(v: &mut Vec<u32>, tmp: &mut Vec<u32>) {
    tmp.clear();
    tmp.resize(v.len(), 0);
    for pass in 0..3 {
        let shift = 11 * pass;
        let mut count = [0u32; 2049];
        for &x in v.iter() {
            count[((x >> shift) as usize & 2047) + 1] += 1;
        }
        for i in 0..2048 {
            count[i + 1] += count[i];
        }
        for &x in v.iter() {
            let d = (x >> shift) as usize & 2047;
            tmp[count[d] as usize] = x;
            count[d] += 1;
        }
        std::mem::swap(v, tmp);
    }
}

/// Adds to `s.results` every result whose total is in `s.chosen`: each pair of groups of the
/// first half (pieces 0 and 1) meets the second half's results completing it.
fn join(s: &mut Scratch, order: [usize; 4]) {
    let (x, y) = (order[0], order[1]);
    let same = x == y;
    let (gx, gy) = (&s.groups[x], &s.groups[y]);
    let (sx, sy) = (&s.states[x], &s.states[y]);
    for &t in &s.chosen {
        for (a, &(ua, a0, a1)) in gx.iter().enumerate() {
            let from = if same { a } else { 0 };
            for &(ub, b0, b1) in &gy[from..] {
                // A chosen total is within the throws, so this also bounds the first half.
                let Some(need) = psub(t, ua + ub) else {
                    continue;
                };
                let Some(id) = s.right.find(need) else {
                    continue;
                };
                let (r0, r1) = s.right.bucket(id, &s.groups, &s.states, order[2], order[3]);
                let parts = &s.right.parts[r0..r1];
                for i in a0..a1 {
                    // Identical pieces: each unordered pair once.
                    let j0 = if same && b0 == a0 { i } else { b0 };
                    let pa = sx[i as usize].1;
                    for j in j0..b1 {
                        let pl = half_part(pa, sy[j as usize].1);
                        for &pr in parts {
                            if let Some(key) = join_parts(pl, pr) {
                                s.results.push(key);
                            }
                        }
                    }
                }
            }
        }
    }
}

const EMPTY: u128 = u128::MAX;
const NONE: u32 = u32::MAX;

/// The second half: its pairs of groups by total, in an open-addressing table, and each total's
/// distinct half results, built when first asked for.
#[derive(Default)]
struct Half {
    /// `(total, id)`; `EMPTY` marks a free slot.
    slots: Vec<(u128, u32)>,
    touched: Vec<u32>,
    /// Per id: the first pair of groups, and the built results `(start, end)` or `NONE`.
    heads: Vec<u32>,
    built: Vec<(u32, u32)>,
    /// `(group of the first piece, group of the second, next pair with the same total)`.
    pairs: Vec<(u32, u32, u32)>,
    parts: Vec<u32>,
}

impl Half {
    #[inline]
    fn slot(&self, k: u128) -> usize {
        let h =
            (k as u64 ^ (k >> 64) as u64 ^ (k >> 40) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 32) as usize & (self.slots.len() - 1)
    }

    /// Clears the table, sized for `n` totals.
    fn reset(&mut self, n: usize) {
        let want = (2 * n).next_power_of_two().max(64);
        if self.slots.len() < want {
            self.slots.clear();
            self.slots.resize(want, (EMPTY, 0));
        } else {
            for &i in &self.touched {
                self.slots[i as usize].0 = EMPTY;
            }
        }
        self.touched.clear();
        self.heads.clear();
        self.built.clear();
        self.pairs.clear();
        self.parts.clear();
    }

    /// The id of total `k`, if some pair of groups reaches it.
    #[inline]
    fn find(&self, k: u128) -> Option<u32> {
        let m = self.slots.len() - 1;
        let mut i = self.slot(k);
        loop {
            let (key, id) = self.slots[i];
            if key == k {
                return Some(id);
            }
            if key == EMPTY {
                return None;
            }
            i = (i + 1) & m;
        }
    }

    /// Every pair of groups of pieces `x` and `y` (identical pieces: unordered) within `cap`.
    fn build(&mut self, groups: &[Vec<(u128, u32, u32)>; 4], x: usize, y: usize, cap: u128) {
        let (gx, gy) = (&groups[x], &groups[y]);
        let same = x == y;
        self.reset(gx.len() * gy.len());
        let m = self.slots.len() - 1;
        for (a, &(ua, ..)) in gx.iter().enumerate() {
            let from = if same { a } else { 0 };
            for (b, &(ub, ..)) in gy.iter().enumerate().skip(from) {
                let k = ua + ub;
                if psub(cap, k).is_none() {
                    continue;
                }
                let mut i = self.slot(k);
                let id = loop {
                    let (key, id) = self.slots[i];
                    if key == k {
                        break id;
                    }
                    if key == EMPTY {
                        let id = self.heads.len() as u32;
                        self.slots[i] = (k, id);
                        self.touched.push(i as u32);
                        self.heads.push(NONE);
                        self.built.push((NONE, NONE));
                        break id;
                    }
                    i = (i + 1) & m;
                };
                self.pairs
                    .push((a as u32, b as u32, self.heads[id as usize]));
                self.heads[id as usize] = (self.pairs.len() - 1) as u32;
            }
        }
    }

    /// The distinct half results of total `id`: a range of `parts`.
    #[inline]
    fn bucket(
        &mut self,
        id: u32,
        groups: &[Vec<(u128, u32, u32)>; 4],
        states: &[Vec<(u128, u32)>; 4],
        x: usize,
        y: usize,
    ) -> (usize, usize) {
        let (b0, b1) = self.built[id as usize];
        if b0 != NONE {
            return (b0 as usize, b1 as usize);
        }
        let same = x == y;
        let start = self.parts.len();
        let mut p = self.heads[id as usize];
        while p != NONE {
            let (a, b, next) = self.pairs[p as usize];
            let (_, a0, a1) = groups[x][a as usize];
            let (_, c0, c1) = groups[y][b as usize];
            for i in a0..a1 {
                let j0 = if same && a == b { i } else { c0 };
                let pa = states[x][i as usize].1;
                for j in j0..c1 {
                    self.parts.push(half_part(pa, states[y][j as usize].1));
                }
            }
            p = next;
        }
        self.parts[start..].sort_unstable();
        let mut w = start;
        for r in start..self.parts.len() {
            if r == start || self.parts[r] != self.parts[w - 1] {
                self.parts[w] = self.parts[r];
                w += 1;
            }
        }
        self.parts.truncate(w);
        self.built[id as usize] = (start as u32, w as u32);
        (start, w)
    }
}
