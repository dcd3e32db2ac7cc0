//! Whole-play generation: every distinct position a roll can lead to, allocation-free once the
//! caller's buffer is warm.
//!
//! Order of the plays written: generation order, each resulting position at the first play that
//! reaches it. For two different dice: the larger die first, then the smaller first; within
//! each, starting points from the bar (25) down to the 1-point, depth first. For a double: up to
//! four moves from non-increasing starting points (any set of moves of one die can be made in
//! that order, so nothing is lost), from the bar down.

use super::board::{Board, BAR};
use super::dice::Roll;
use super::params::{Landing, TablesParams};
use super::play::Play;

/// The board from the mover's side: its counts, the opponent's count on each of its points, and
/// how many of its checkers are outside the home board (bar included).
#[derive(Clone, Copy)]
struct View {
    mine: [u8; 26],
    opp: [u8; 26],
    outside: u8,
}

impl View {
    fn new(board: &Board, side: usize, params: &TablesParams) -> View {
        let mine = board.counts()[side];
        let theirs = &board.counts()[1 - side];
        let mut opp = [0u8; 26];
        for (p, o) in opp.iter_mut().enumerate().take(25).skip(1) {
            *o = theirs[params.direction.other(p)];
        }
        let outside = mine[7..26].iter().sum();
        View { mine, opp, outside }
    }

    /// The highest and lowest starting slot to try: only the bar while a checker is on it (seed
    /// 002: no other piece moves until all are back from the centre).
    #[inline]
    fn slots_to_try(&self, cap: usize) -> (usize, usize) {
        if self.mine[BAR] > 0 {
            (BAR, BAR)
        } else {
            (cap.min(24), 1)
        }
    }

    /// Where a checker on `from` goes with die `d`, if it may: a point (1 to 24) or 0 (off).
    #[inline]
    fn target(&self, from: usize, d: usize, params: &TablesParams) -> Option<usize> {
        if from > d {
            // A move along the track, or an entry from the bar (25 - d: seed 002 counts the
            // origin as a move of one, so a 1 enters on the opponent's first point).
            let to = from - d;
            let open = match params.landing {
                // Seed 002: no landing on a point with two or more opposing pieces.
                Landing::Hit => self.opp[to] <= 1,
                // Seed 004 (Julbahar): no landing on any opposing piece.
                Landing::Block => self.opp[to] == 0,
            };
            open.then_some(to)
        } else if from == d {
            // Exact bear-off: seed 002 only once all are home ("when all of a player's pieces
            // are on their final six points"); seed 004 also earlier, by the exact throw.
            (self.outside == 0 || params.bear_off.early_exact).then_some(0)
        } else {
            // A die larger than the distance: only from the highest occupied point, with all
            // home (modern rule; the seed's literal text allows only exact numbers).
            (params.bear_off.higher_die
                && self.outside == 0
                && self.mine[from + 1..7].iter().all(|&c| c == 0))
            .then_some(0)
        }
    }

    /// Moves one checker; returns whether it hit a blot.
    #[inline]
    fn step(&mut self, from: usize, to: usize) -> bool {
        self.mine[from] -= 1;
        self.mine[to] += 1;
        if from >= 7 && to < 7 {
            self.outside -= 1;
        }
        if to > 0 && self.opp[to] == 1 {
            // Only reachable under Landing::Hit: the blot goes to the bar.
            self.opp[to] = 0;
            true
        } else {
            false
        }
    }
}

struct Gen<'a> {
    params: &'a TablesParams,
    out: &'a mut Vec<Play>,
    /// Most dice used by any play found so far.
    best: usize,
}

impl Gen<'_> {
    #[inline]
    fn record(&mut self, used: usize, moves: &[[u8; 2]], hits: &[u8]) {
        if used < self.best {
            return;
        }
        if used > self.best {
            // Seed 002: "players must use all available moves" — plays using fewer dice than
            // some other play are not legal.
            self.out.clear();
            self.best = used;
        }
        self.out.push(Play::from_moves(moves, hits));
    }

    fn two_dice(&mut self, v: &View, a: usize, b: usize) {
        let (hi1, lo1) = v.slots_to_try(24);
        for from1 in (lo1..=hi1).rev() {
            if v.mine[from1] == 0 {
                continue;
            }
            let Some(to1) = v.target(from1, a, self.params) else {
                continue;
            };
            let mut v1 = *v;
            let hit1 = v1.step(from1, to1);
            let m1 = [from1 as u8, to1 as u8];
            let mut hits = [0u8; 2];
            let mut nh = 0;
            if hit1 {
                hits[0] = to1 as u8;
                nh = 1;
            }
            let mut second = false;
            let (hi2, lo2) = v1.slots_to_try(24);
            for from2 in (lo2..=hi2).rev() {
                if v1.mine[from2] == 0 {
                    continue;
                }
                let Some(to2) = v1.target(from2, b, self.params) else {
                    continue;
                };
                second = true;
                let mut h = hits;
                let mut n = nh;
                if to2 > 0 && v1.opp[to2] == 1 {
                    h[n] = to2 as u8;
                    n += 1;
                }
                self.record(2, &[m1, [from2 as u8, to2 as u8]], &h[..n]);
            }
            if !second {
                self.record(1, &[m1], &hits[..nh]);
            }
        }
    }
}

/// Writes into `out` (cleared first) every legal play of `side` on `board` with `roll`, one per
/// distinct resulting position, in the order described in the module documentation. A roll
/// that cannot be played gives the single [`Play::PASS`].
///
/// Rules applied (beyond [`TablesParams`]): a checker on the bar enters before any other moves;
/// a double is played four times; as many dice as possible must be played.
pub fn generate_plays(
    board: &Board,
    side: usize,
    roll: Roll,
    params: &TablesParams,
    out: &mut Vec<Play>,
) {
    out.clear();
    let v = View::new(board, side, params);
    let (hi, lo) = (roll.0 as usize, roll.1 as usize);
    let mut g = Gen {
        params,
        out,
        best: 0,
    };
    if hi == lo {
        let mut moves = [[0u8; 2]; 4];
        double(&mut g, &v, &v, hi, BAR, &mut moves, 0);
    } else {
        g.two_dice(&v, hi, lo);
        g.two_dice(&v, lo, hi);
        if g.best == 1 && params.larger_die {
            // Either die but not both: the larger must be played if it can be (modern rule;
            // the seed is silent).
            larger_only(&mut g, &v, hi);
        }
        if g.best == 0 {
            g.out.push(Play::PASS);
        }
    }
    dedupe(g.out);
}

fn larger_only(g: &mut Gen<'_>, v: &View, d: usize) {
    let (hi, lo) = v.slots_to_try(24);
    let mut found = false;
    for from in (lo..=hi).rev() {
        if v.mine[from] == 0 {
            continue;
        }
        if let Some(to) = v.target(from, d, g.params) {
            if !found {
                g.out.clear();
                found = true;
            }
            let hit = to > 0 && v.opp[to] == 1;
            let hits = [to as u8];
            g.out.push(Play::from_moves(
                &[[from as u8, to as u8]],
                &hits[..usize::from(hit)],
            ));
        }
    }
}

/// Depth-first search of a double: moves from non-increasing starting slots.
fn double(
    g: &mut Gen<'_>,
    root: &View,
    v: &View,
    d: usize,
    cap: usize,
    moves: &mut [[u8; 2]; 4],
    depth: usize,
) {
    let mut moved = false;
    if depth < 4 {
        let (hi, lo) = v.slots_to_try(cap);
        for from in (lo..=hi).rev() {
            if v.mine[from] == 0 {
                continue;
            }
            let Some(to) = v.target(from, d, g.params) else {
                continue;
            };
            moved = true;
            let mut v2 = *v;
            v2.step(from, to);
            moves[depth] = [from as u8, to as u8];
            double(g, root, &v2, d, from, moves, depth + 1);
        }
    }
    if !moved && depth >= g.best {
        // Hits: landing points that held a lone opposing checker before the play.
        let mut hits = [0u8; 4];
        let mut nh = 0;
        for m in &moves[..depth] {
            let to = m[1];
            if to > 0 && root.opp[to as usize] == 1 && !hits[..nh].contains(&to) {
                hits[nh] = to;
                nh += 1;
            }
        }
        g.record(depth, &moves[..depth], &hits[..nh]);
    }
}

/// Keeps the first play of each resulting position, in order.
fn dedupe(out: &mut Vec<Play>) {
    match out.len() {
        0..=24 => dedupe_scan(out),
        25..=64 => dedupe_table::<128>(out),
        65..=512 => dedupe_table::<1024>(out),
        513..=4096 => dedupe_table::<8192>(out),
        _ => dedupe_scan(out),
    }
}

fn dedupe_scan(out: &mut Vec<Play>) {
    let mut w = 0;
    for r in 0..out.len() {
        let p = out[r];
        if !out[..w].contains(&p) {
            out[w] = p;
            w += 1;
        }
    }
    out.truncate(w);
}

fn dedupe_table<const N: usize>(out: &mut Vec<Play>) {
    // Open addressing on the nonzero keys (only the pass has key 0, and it is always alone).
    let mut table = [0u64; N];
    let mut w = 0;
    for r in 0..out.len() {
        let p = out[r];
        let k = p.key();
        let mut i = (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (N - 1);
        loop {
            if table[i] == 0 {
                table[i] = k;
                out[w] = p;
                w += 1;
                break;
            }
            if table[i] == k {
                break;
            }
            i = (i + 1) & (N - 1);
        }
    }
    out.truncate(w);
}
