//! Whole plays by plain enumeration of single-die moves, for the rules the fast generator
//! ([`super::generate_plays`]'s bit-mask search) does not cover: hits only where a checker ends
//! the play (`hit_in_passing` off), each die a separate move (`each_die`), and the rearmost
//! bear-off by a higher die (`bear_off.rearmost`). Every order of the dice, every starting
//! slot, no pruning; the resulting positions are told apart by their [`Play`] key.
//!
//! Order of the plays written: the larger die first, then the smaller first; starting slots
//! from the bar down; depth first; each resulting position at the first play that reaches it.

use std::collections::HashSet;

use super::board::{Board, BAR, OFF};
use super::dice::Roll;
use super::params::{Landing, TablesParams};
use super::play::{hit_key, move_key, Play};

/// The mover's and the opponent's counts, each in its own numbering (0 off, 25 the bar).
#[derive(Clone, Copy)]
struct Sides {
    me: [u8; 26],
    op: [u8; 26],
}

impl Sides {
    /// Checkers of the mover outside its home board (the bar included).
    fn outside(&self) -> u32 {
        self.me[7..26].iter().map(|&c| u32::from(c)).sum()
    }

    /// Whether the mover may land on its point `to` (1 to 24).
    fn open(&self, to: usize, params: &TablesParams) -> bool {
        let o = self.op[params.direction.other(to)];
        match params.landing {
            Landing::Hit => o <= 1,
            Landing::Block => o == 0,
        }
    }

    /// Where a checker on `from` goes with die `d` by a move along the track or an exact
    /// bear-off, if it may: a point, or [`OFF`]. A higher die's bear-off is
    /// [`Sides::higher_bear_off`].
    fn plain_target(&self, from: usize, d: usize, params: &TablesParams) -> Option<usize> {
        if self.me[from] == 0 || (self.me[BAR] > 0 && from != BAR) {
            return None;
        }
        if from > d {
            // Along the track; from the bar a die d enters on the mover's point 25 - d.
            let to = from - d;
            return self.open(to, params).then_some(to);
        }
        if from == d && (self.outside() == 0 || params.bear_off.early_exact) {
            return Some(OFF);
        }
        None
    }

    /// The slot from which die `d` bears a checker off although it is higher than needed, if
    /// any: all checkers home; the highest occupied point if it is below `d`; under
    /// `rearmost`, the highest occupied point below `d`, and only when no checker can use `d`
    /// otherwise.
    fn higher_bear_off(&self, d: usize, params: &TablesParams) -> Option<usize> {
        if !params.bear_off.higher_die || self.outside() != 0 {
            return None;
        }
        if params.bear_off.rearmost {
            if (1..26).any(|f| self.plain_target(f, d, params).is_some()) {
                return None;
            }
            return (1..d).rev().find(|&p| self.me[p] > 0);
        }
        let top = (1..7).rev().find(|&p| self.me[p] > 0)?;
        (top < d).then_some(top)
    }

    /// The mover's moves with die `d`: (from, to) pairs, starting slots from the bar down.
    fn moves(&self, d: usize, params: &TablesParams, out: &mut Vec<(usize, usize)>) {
        out.clear();
        let higher = self.higher_bear_off(d, params);
        for from in (1..26).rev() {
            if let Some(to) = self.plain_target(from, d, params) {
                out.push((from, to));
            } else if higher == Some(from) {
                out.push((from, OFF));
            }
        }
    }

    /// Makes one move; under hits in passing a lone opposing checker where it lands goes to the
    /// bar at once.
    fn step(&mut self, from: usize, to: usize, params: &TablesParams) {
        self.me[from] -= 1;
        self.me[to] += 1;
        if to != OFF && params.landing == Landing::Hit && params.hit_in_passing {
            let q = params.direction.other(to);
            if self.op[q] == 1 {
                self.op[q] = 0;
                self.op[BAR] += 1;
            }
        }
    }
}

/// One sequence of single-die moves found.
struct Found {
    used: usize,
    first_die: usize,
    moves: [[u8; 2]; 4],
}

fn walk(
    s: &Sides,
    dice: &mut Vec<usize>,
    params: &TablesParams,
    path: &mut Vec<[u8; 2]>,
    first_die: usize,
    out: &mut Vec<Found>,
) {
    let mut moved = false;
    let mut buf = Vec::with_capacity(16);
    let mut tried = [false; 7];
    for i in 0..dice.len() {
        let d = dice[i];
        if tried[d] {
            continue;
        }
        tried[d] = true;
        s.moves(d, params, &mut buf);
        for &(from, to) in &buf {
            moved = true;
            let mut n = *s;
            n.step(from, to, params);
            let removed = dice.remove(i);
            path.push([from as u8, to as u8]);
            let first = if path.len() == 1 { d } else { first_die };
            walk(&n, dice, params, path, first, out);
            path.pop();
            dice.insert(i, removed);
        }
    }
    if !moved && !path.is_empty() {
        let mut moves = [[0u8; 2]; 4];
        moves[..path.len()].copy_from_slice(path);
        out.push(Found {
            used: path.len(),
            first_die,
            moves,
        });
    }
}

/// The key of a sequence of moves made by `side` from `board`: the count changes, and the
/// blots hit — under hits in passing every lone opposing checker landed on, otherwise those
/// on points where the mover stands at the end.
pub(super) fn sequence_key(
    moves: &[[u8; 2]],
    board: &Board,
    side: usize,
    params: &TablesParams,
) -> i128 {
    let mut key = 0i128;
    let mut me = board.counts()[side];
    for &[from, to] in moves {
        key += move_key(from as usize, to as usize);
        me[from as usize] -= 1;
        me[to as usize] += 1;
    }
    if params.landing != Landing::Hit {
        return key;
    }
    let mut hit = [false; 25];
    for &[_, to] in moves {
        let to = to as usize;
        if to == OFF || hit[to] {
            continue;
        }
        let blot = board.count(1 - side, params.direction.other(to)) == 1;
        if blot && (params.hit_in_passing || me[to] > 0) {
            hit[to] = true;
            key += hit_key(to);
        }
    }
    key
}

/// Writes into `out` (cleared first) every legal play of `side` on `board` with `roll`, one per
/// distinct resulting position, by enumeration; [`Play::PASS`] alone when nothing can be played.
pub(super) fn generate(
    board: &Board,
    side: usize,
    roll: Roll,
    params: &TablesParams,
    out: &mut Vec<Play>,
) {
    out.clear();
    let s = Sides {
        me: board.counts()[side],
        op: board.counts()[1 - side],
    };
    let (hi, lo) = (roll.0 as usize, roll.1 as usize);
    let mut dice = if hi == lo { vec![hi; 4] } else { vec![hi, lo] };
    let mut found = Vec::new();
    walk(
        &s,
        &mut dice,
        params,
        &mut Vec::with_capacity(4),
        0,
        &mut found,
    );
    if found.is_empty() {
        out.push(Play::PASS);
        return;
    }
    let most = found.iter().map(|f| f.used).max().unwrap_or(0);
    if !params.each_die {
        // As many dice as possible must be played.
        found.retain(|f| f.used == most);
    }
    if params.larger_die && hi != lo && most == 1 && found.iter().any(|f| f.first_die == hi) {
        // Either die but not both: the larger must be played.
        found.retain(|f| f.first_die == hi);
    }
    let mut seen = HashSet::with_capacity(found.len());
    for f in &found {
        let moves = &f.moves[..f.used];
        let key = sequence_key(moves, board, side, params);
        if seen.insert(key) {
            out.push(Play::from_key(key, f.moves, f.used));
        }
    }
}
