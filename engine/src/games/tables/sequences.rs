//! Whole plays by plain enumeration of single-die moves (the rules of [`super::moving`]), for
//! the rules the fast generator ([`super::generate_plays`]'s bit-mask search) does not cover:
//! hits only where a checker ends the play (`hit_in_passing` off), each die a separate move
//! (`each_die`), and the rearmost bear-off by a higher die (`bear_off.rearmost`). Every order of the dice, every starting
//! slot, no pruning; the resulting positions are told apart by their [`Play`] key.
//!
//! Order of the plays written: the larger die first, then the smaller first; starting slots
//! from the bar down; depth first; each resulting position at the first play that reaches it.

use super::board::{Board, BAR, OFF};
use super::dedupe::dedupe;
use super::dice::Roll;
use super::moving::{hits, Mover};
use super::params::TablesParams;
use super::play::{hit_key, move_key, Play};

/// The enumeration's state: the rules, the position before the play, and the plays found.
struct Walk<'a> {
    params: &'a TablesParams,
    board: &'a Board,
    side: usize,
    out: &'a mut Vec<Play>,
    /// Most dice used by a play found so far.
    best: usize,
    /// Whether the roll is a double (four moves of one die).
    double: bool,
}

impl Walk<'_> {
    fn record(&mut self, moves: [[u8; 2]; 4], used: usize) {
        if !self.params.each_die {
            if used < self.best {
                return;
            }
            if used > self.best {
                // As many dice as possible must be played.
                self.out.clear();
            }
        }
        self.best = self.best.max(used);
        let key = sequence_key(&moves[..used], self.board, self.side, self.params);
        self.out.push(Play::from_key(key, moves, used));
    }

    /// Every sequence from `s` with `dice[..n]` still to play after the `used` moves of
    /// `path`; records each after which no die can be played. For a double, the moves come
    /// from non-increasing starting slots (no higher than `cap`): any set of moves of one die
    /// that can be made can be made in that order, with the same result.
    fn walk(&mut self, s: &Mover, dice: [usize; 4], n: usize, cap: usize, path: [[u8; 2]; 4]) {
        let used = if self.double { 4 - n } else { 2 - n };
        let mut moved = false;
        let mut buf = [(0u8, 0u8); 25];
        for i in 0..n {
            let d = dice[i];
            if dice[..i].contains(&d) {
                continue;
            }
            let count = s.moves(d, self.params, &mut buf);
            let mut rest = dice;
            rest.copy_within(i + 1..n, i);
            for &(from, to) in &buf[..count] {
                // A move from above `cap` is made in another order: this sequence is not
                // maximal, but it is not followed from here.
                moved = true;
                if self.double && from as usize > cap {
                    continue;
                }
                let mut next = *s;
                next.step(from as usize, to as usize, self.params);
                let mut p = path;
                p[used] = [from, to];
                self.walk(&next, rest, n - 1, from as usize, p);
            }
        }
        if !moved && used > 0 {
            self.record(path, used);
        }
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
    let mut hit = [false; 25];
    for &[_, to] in moves {
        let to = to as usize;
        if to == OFF || hit[to] {
            continue;
        }
        let opposing = board.count(1 - side, params.direction.other(to));
        if hits(params, opposing, me[to] > 0) {
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
    let s = Mover::new(board, side);
    let (hi, lo) = (roll.0 as usize, roll.1 as usize);
    let (dice, n) = if hi == lo {
        ([hi; 4], 4)
    } else {
        ([hi, lo, 0, 0], 2)
    };
    let mut w = Walk {
        params,
        board,
        side,
        out,
        best: 0,
        double: hi == lo,
    };
    w.walk(&s, dice, n, BAR, [[0; 2]; 4]);
    let best = w.best;
    if best == 0 {
        out.push(Play::PASS);
        return;
    }
    if params.larger_die && hi != lo && best == 1 {
        // Either die but not both: the larger must be played if it can be.
        let mut buf = [(0u8, 0u8); 25];
        let count = s.moves(hi, params, &mut buf);
        if count > 0 {
            out.retain(|p| buf[..count].iter().any(|&(f, t)| p.moves() == [[f, t]]));
        }
    }
    dedupe(out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tables::{
        generate_plays, BearOff, Direction, Landing, ROLLS, STANDARD_START,
    };
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// On the rules the fast generator covers, the enumeration gives the same plays.
    #[test]
    fn enumeration_equals_the_fast_generator_where_both_apply() {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        for (bear_off, larger_die) in [(BearOff::Higher, true), (BearOff::Exact, false)] {
            let params = TablesParams {
                start: STANDARD_START,
                direction: Direction::Opposite,
                landing: Landing::Hit,
                bear_off: bear_off.params(false),
                larger_die,
                hit_in_passing: true,
                each_die: false,
            };
            for _game in 0..40 {
                let mut board = Board::start(&params);
                let mut side = 0;
                while board.off(0) < 15 && board.off(1) < 15 {
                    let roll = ROLLS[rng.gen_range(0..21)];
                    generate_plays(&board, side, roll, &params, &mut fast);
                    generate(&board, side, roll, &params, &mut slow);
                    let mut a: Vec<u128> = fast.iter().map(Play::key).collect();
                    let mut b: Vec<u128> = slow.iter().map(Play::key).collect();
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b);
                    let play = fast[rng.gen_range(0..fast.len())];
                    play.apply(&mut board, side, &params);
                    side = 1 - side;
                }
            }
        }
    }
}
