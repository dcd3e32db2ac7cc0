//! Whole-play generation: every distinct position a roll can lead to, allocation-free once the
//! caller's buffer is warm.
//!
//! Order of the plays written: generation order, each resulting position at the first play that
//! reaches it. For two different dice: the larger die first, then the smaller first; within
//! each, starting points from the bar (25) down to the 1-point, depth first. For a double: up to
//! four moves from non-increasing starting points (any set of moves of one die can be made in
//! that order, so nothing is lost), from the bar down.

use super::board::{Board, BAR};
use super::dedupe::dedupe;
use super::dice::Roll;
use super::moving::{is_blot, may_land};
use super::params::TablesParams;
use super::play::{hit_key, move_key, Play};

/// What move legality depends on, from the mover's side: bit masks of its occupied slots, of
/// the points it may land on and of the blots it would hit there, and how many of its checkers
/// are outside the home board (bar included). 16 bytes.
#[derive(Clone, Copy)]
struct Masks {
    /// Bit `s` set when the mover has a checker on slot `s` (1 to 25).
    occ: u32,
    /// Bit `p` set when the mover may land on point `p`.
    open: u32,
    /// Bit `p` set when point `p` holds a lone opposing checker that landing there hits.
    blots: u32,
    outside: u32,
}

/// The mover's counts and the masks.
#[derive(Clone, Copy)]
struct View {
    mine: [u8; 26],
    m: Masks,
}

impl View {
    fn new(board: &Board, side: usize, params: &TablesParams) -> View {
        let mine = board.counts()[side];
        let theirs = &board.counts()[1 - side];
        let (mut occ, mut open, mut blots) = (0u32, 0u32, 0u32);
        for p in 1..25 {
            if mine[p] > 0 {
                occ |= 1 << p;
            }
            let o = theirs[params.direction.other(p)];
            if may_land(params.landing, o) {
                open |= 1 << p;
                if is_blot(params.landing, o) {
                    blots |= 1 << p;
                }
            }
        }
        if mine[BAR] > 0 {
            occ |= 1 << BAR;
        }
        let outside = mine[7..26].iter().map(|&c| u32::from(c)).sum();
        View {
            mine,
            m: Masks {
                occ,
                open,
                blots,
                outside,
            },
        }
    }

    /// Moves one checker; returns whether it hit a blot.
    #[inline]
    fn step(&mut self, from: usize, to: usize) -> bool {
        let (m, hit) = self.m.after(from, to, self.mine[from] == 1);
        self.mine[from] -= 1;
        self.mine[to] += 1;
        self.m = m;
        hit
    }
}

impl Masks {
    /// The starting slots to try, as a bit mask: only the bar while a checker is on it (the rule
    /// of [`super::moving::Mover::plain_target`]), else the occupied points up to `cap`.
    #[inline]
    fn froms(&self, cap: usize) -> u32 {
        if self.occ >> BAR & 1 == 1 {
            1 << BAR
        } else {
            self.occ & ((2u32 << cap) - 1)
        }
    }

    /// The slots of `froms` from which die `d` can be played: the rule of
    /// [`super::moving::Mover::target`] for all slots at once (tested equal to it).
    #[inline]
    fn movable(&self, froms: u32, d: usize, params: &TablesParams) -> u32 {
        // Along the track, or entering from the bar: `from > d` and `from - d` open.
        let mut m = froms & (self.open << d) & !((2u32 << d) - 1);
        if self.outside == 0 || params.bear_off.early_exact {
            // Exact bear-off from point d.
            m |= froms & (1 << d);
        }
        if params.bear_off.higher_die && self.outside == 0 && self.occ != 0 {
            // A die larger than the distance: from the highest occupied point.
            let top = 31 - self.occ.leading_zeros() as usize;
            if top < d {
                m |= froms & (1 << top);
            }
        }
        m
    }

    /// The masks after a move from `from` (where it was the last checker if `last`) to `to`,
    /// and whether it hit a blot.
    #[inline]
    fn after(&self, from: usize, to: usize, last: bool) -> (Masks, bool) {
        let mut m = *self;
        if last {
            m.occ &= !(1 << from);
        }
        if from >= 7 && to < 7 {
            m.outside -= 1;
        }
        if to == 0 {
            return (m, false);
        }
        m.occ |= 1 << to;
        let hit = m.blots >> to & 1 == 1;
        // The blot goes to the bar; the point stays open.
        m.blots &= !(1 << to);
        (m, hit)
    }
}

/// Move `i` (`from`, `to`) packed into bytes `2i` and `2i + 1`.
#[inline]
fn pack(i: usize, from: usize, to: usize) -> u64 {
    (from as u64 | (to as u64) << 8) << (16 * i)
}

/// The highest set bit of a nonzero mask, and the mask without it.
#[inline]
fn pop_high(mask: u32) -> (usize, u32) {
    let b = 31 - mask.leading_zeros() as usize;
    (b, mask & !(1 << b))
}

struct Gen<'a> {
    params: &'a TablesParams,
    out: &'a mut Vec<Play>,
    /// Most dice used by any play found so far.
    best: usize,
    /// Whether a bear-off with a larger die than needed was generated.
    higher_bear_off: bool,
}

impl Gen<'_> {
    #[inline]
    fn record(&mut self, used: usize, key: i128, moves: u64) {
        if used < self.best {
            return;
        }
        if used > self.best {
            // Barakat 1974 [1769]: "players must use all available moves" — plays using fewer dice than
            // some other play are not legal.
            self.out.clear();
            self.best = used;
        }
        self.out.push(Play::from_packed(key, moves, used));
    }

    /// One order of two different dice: `a` first, then `b`. Returns the mask of starting
    /// slots from which die `a` can be played at the root.
    ///
    /// In the second pass `skip` is that mask for the other die (`b`): a pair of moves whose
    /// second move could also have been made first from the root was found in the first pass
    /// already, with the same result (both moves stay legal in the other order: the opponent's
    /// points only lose checkers, the mover's only fill up, and fewer checkers are outside), so
    /// such second moves are not tried again. The one exception: a first move bearing off with
    /// a larger die than needed, which the other move landing higher would have prevented.
    fn two_dice(&mut self, v: &View, a: usize, b: usize, skip: Option<u32>) -> u32 {
        let mut playable = 0u32;
        let mut m1 = v.m.movable(v.m.froms(24), a, self.params);
        while m1 != 0 {
            let (from1, rest) = pop_high(m1);
            m1 = rest;
            let to1 = from1.saturating_sub(a);
            playable |= 1 << from1;
            let (v1, hit1) = v.m.after(from1, to1, v.mine[from1] == 1);
            let mut k1 = move_key(from1, to1);
            if hit1 {
                k1 += hit_key(to1);
            }
            let moves = pack(0, from1, to1);
            let mut second = false;
            let all = v1.froms(24);
            let exception = to1 == 0 && from1 < a;
            let mut m2 = match skip {
                None => all,
                Some(ok) => {
                    // A second move from a slot in `ok` is legal here too.
                    second = all & ok != 0;
                    debug_assert_eq!(v1.movable(all & ok, b, self.params), all & ok);
                    if exception {
                        all
                    } else {
                        all & !ok
                    }
                }
            };
            m2 = v1.movable(m2, b, self.params);
            while m2 != 0 {
                let (from2, rest) = pop_high(m2);
                m2 = rest;
                let to2 = from2.saturating_sub(b);
                second = true;
                if let Some(ok) = skip {
                    if exception && ok >> from2 & 1 == 1 && to2 <= from1 {
                        continue;
                    }
                }
                let mut k = k1 + move_key(from2, to2);
                if v1.blots >> to2 & 1 == 1 {
                    k += hit_key(to2);
                }
                self.record(2, k, moves | pack(1, from2, to2));
            }
            if !second {
                self.record(1, k1, moves);
            }
        }
        playable
    }
}

/// Writes into `out` (cleared first) every legal play of `side` on `board` with `roll`, one per
/// distinct resulting position, in the order described in the module documentation. A roll
/// that cannot be played gives the single [`Play::PASS`].
///
/// Rules applied (beyond [`TablesParams`]): a checker on the bar enters before any other moves;
/// a double is played four times; as many dice as possible must be played unless
/// [`TablesParams::each_die`]. Rules the bit-mask search does not cover
/// ([`TablesParams::needs_sequences`]) are generated by plain enumeration instead.
pub fn generate_plays(
    board: &Board,
    side: usize,
    roll: Roll,
    params: &TablesParams,
    out: &mut Vec<Play>,
) {
    if params.needs_sequences() {
        super::sequences::generate(board, side, roll, params, out);
        return;
    }
    out.clear();
    let v = View::new(board, side, params);
    let (hi, lo) = (roll.0 as usize, roll.1 as usize);
    let mut g = Gen {
        params,
        out,
        best: 0,
        higher_bear_off: false,
    };
    if hi == lo {
        double(&mut g, &v, hi, BAR, 0, 0, 0);
        // Moves of one die from non-increasing starting points are distinct sets of moves, and
        // distinct sets of moves of one size leave distinct positions, except when a larger die
        // bears off (from 3 and from 2 with a 5 both just remove a checker).
        if !g.higher_bear_off {
            return;
        }
    } else {
        let hi_playable = g.two_dice(&v, hi, lo, None);
        g.two_dice(&v, lo, hi, Some(hi_playable));
        if g.best == 1 && params.larger_die {
            // Either die but not both: the larger must be played if it can be (modern rule;
            // the source is silent).
            larger_only(&mut g, &v, hi);
        }
        if g.best == 0 {
            g.out.push(Play::PASS);
        }
    }
    dedupe(g.out);
}

/// The dice (bit `d` set for `d` in 1 to 6) with which `side` can make at least one single move
/// on `board`: 0 when it is completely blocked. Used for "able to move" (Julbahar, Barakat 1974 §1773.9:
/// "whenever a player is unable to move and the opponent is able to").
#[must_use]
pub fn playable_dice(board: &Board, side: usize, params: &TablesParams) -> u8 {
    let v = View::new(board, side, params);
    let froms = v.m.froms(24);
    let mut out = 0u8;
    for d in 1..=6 {
        if v.m.movable(froms, d, params) != 0 {
            out |= 1 << d;
        }
    }
    out
}

fn larger_only(g: &mut Gen<'_>, v: &View, d: usize) {
    let mut found = false;
    let mut m = v.m.movable(v.m.froms(24), d, g.params);
    while m != 0 {
        let (from, rest) = pop_high(m);
        m = rest;
        {
            let to = from.saturating_sub(d);
            if !found {
                g.out.clear();
                found = true;
            }
            let mut k = move_key(from, to);
            if v.m.blots >> to & 1 == 1 {
                k += hit_key(to);
            }
            g.out.push(Play::from_key(
                k,
                [[from as u8, to as u8], [0; 2], [0; 2], [0; 2]],
                1,
            ));
        }
    }
}

/// Depth-first search of a double: moves from non-increasing starting slots.
fn double(g: &mut Gen<'_>, v: &View, d: usize, cap: usize, moves: u64, depth: usize, key: i128) {
    let mut moved = false;
    let mut m = v.m.movable(v.m.froms(cap), d, g.params);
    while m != 0 {
        let (from, rest) = pop_high(m);
        m = rest;
        let to = from.saturating_sub(d);
        moved = true;
        if to == 0 && from < d {
            g.higher_bear_off = true;
        }
        let mut k = key + move_key(from, to);
        let moves = moves | pack(depth, from, to);
        if depth == 3 {
            // The fourth move: no need to make it.
            if v.m.blots >> to & 1 == 1 {
                k += hit_key(to);
            }
            g.record(4, k, moves);
        } else {
            let mut v2 = *v;
            if v2.step(from, to) {
                k += hit_key(to);
            }
            double(g, &v2, d, from, moves, depth + 1, k);
        }
    }
    if !moved {
        g.record(depth, key, moves);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tables::moving::Mover;
    use crate::games::tables::{BearOffParams, Direction, Landing, ROLLS, STANDARD_START};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn params(higher_die: bool, early_exact: bool, landing: Landing) -> TablesParams {
        TablesParams {
            start: STANDARD_START,
            direction: Direction::Opposite,
            landing,
            bear_off: BearOffParams {
                higher_die,
                rearmost: false,
                early_exact,
            },
            larger_die: true,
            hit_in_passing: true,
            each_die: false,
        }
    }

    #[test]
    fn movable_agrees_with_target_on_random_positions() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut buf = Vec::new();
        let play_params = params(true, false, Landing::Hit);
        for _game in 0..200 {
            let mut board = Board::start(&play_params);
            let mut side = 0;
            while board.off(0) < 15 && board.off(1) < 15 {
                let v = View::new(&board, side, &play_params);
                for p in [
                    params(true, false, Landing::Hit),
                    params(false, false, Landing::Hit),
                    params(false, true, Landing::Hit),
                    params(true, true, Landing::Block),
                ] {
                    let v = View::new(&board, side, &p);
                    let rules = Mover::new(&board, side);
                    for cap in [24, 13, 6, 3] {
                        let froms = v.m.froms(cap);
                        for d in 1..=6 {
                            // Every slot the rules let die d move from, among those up to `cap`
                            // (the bar always tried first).
                            let mut want = 0u32;
                            for f in 1..26 {
                                if (f <= cap || f == BAR) && rules.target(f, d, &p).is_some() {
                                    want |= 1 << f;
                                }
                            }
                            assert_eq!(v.m.movable(froms, d, &p), want);
                        }
                    }
                }
                let _ = v;
                let roll = ROLLS[rng.gen_range(0..21)];
                generate_plays(&board, side, roll, &play_params, &mut buf);
                let play = buf[rng.gen_range(0..buf.len())];
                play.apply(&mut board, side, &play_params);
                side = 1 - side;
            }
        }
    }

    fn texts(board: &Board, roll: Roll, p: &TablesParams) -> Vec<String> {
        let mut buf = Vec::new();
        generate_plays(board, 0, roll, p, &mut buf);
        let mut v: Vec<String> = buf
            .iter()
            .map(|a| crate::games::tables::format_play(a, board, 0, p))
            .collect();
        v.sort();
        v
    }

    fn board(mine: &[(usize, u8)], theirs: &[(usize, u8)]) -> Board {
        let mut n = [[0u8; 26]; 2];
        for (side, list) in [mine, theirs].iter().enumerate() {
            for &(slot, c) in *list {
                n[side][slot] = c;
            }
            let on: u8 = n[side].iter().sum();
            n[side][0] += 15 - on;
        }
        let b = Board::from_counts(n);
        b.validate(Direction::Opposite).unwrap();
        b
    }

    #[test]
    fn blocking_forbids_landing_on_a_single_checker_even_in_passing() {
        // One runner on 24; a single opposing checker on the mover's 21 (the opponent's 4), the
        // rest on the mover's 1 (the opponent's 24). 3-1: hitting allows 24/21*/20 and 24/20
        // (via 23); blocking (Julbahar, Barakat 1974 [1773]) only 24/20 via 23.
        let b = board(&[(24, 1)], &[(4, 1), (24, 14)]);
        let hit = params(true, false, Landing::Hit);
        assert_eq!(texts(&b, Roll(3, 1), &hit), ["24/20", "24/21*/20"]);
        let block = params(true, false, Landing::Block);
        assert_eq!(texts(&b, Roll(3, 1), &block), ["24/20"]);
        // 3-3: 24/21 is blocked, so nothing moves.
        assert_eq!(texts(&b, Roll(3, 3), &block), ["pass"]);
    }

    #[test]
    fn early_exact_bear_off() {
        // 13 and 3 left, the opponent on the mover's 1. 3-1, exact numbers only: without the
        // early rule 13/9 or 13/10 3/2; with it (Julbahar, Barakat 1974 [1773]) also 3/off 13/12.
        let b = board(&[(13, 1), (3, 1)], &[(24, 15)]);
        let late = params(false, false, Landing::Block);
        assert_eq!(texts(&b, Roll(3, 1), &late), ["13/10 3/2", "13/9"]);
        let early = params(false, true, Landing::Block);
        assert_eq!(
            texts(&b, Roll(3, 1), &early),
            ["13/10 3/2", "13/12 3/off", "13/9"]
        );
    }
}
