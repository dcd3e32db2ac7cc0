//! The bear-off race from two one-sided distributions: the chance of winning (and of a gammon
//! either way) for the side about to roll, when both sides are wholly in their home boards.
//!
//! Let the side to roll need `N` turns and the other side `K` (independent: nothing one side
//! does changes the other's position once contact is broken). The side to roll plays its
//! `n`-th turn before the other's `n`-th, so it wins when `N <= K`:
//! `P(win) = sum_n P(N = n) P(K >= n)`. It wins a gammon when the other side has borne off
//! nothing and `N <= K1`, `K1` the other's turns to its first checker off:
//! `sum_n P(N = n) P(K1 >= n)`; it loses one when it has borne off nothing and `K < N1`:
//! `sum_k P(K = k) P(N1 >= k + 1)`. Each side plays to minimise its expected turns to bear off
//! all (for the gammon figures, the threatened side is taken to play to save the gammon as fast
//! as it can instead: the two are not played at once, as in GNU Backgammon's one-sided
//! bear-off evaluation). A backgammon cannot happen: neither side has a checker on the bar or
//! in the other's home board.

use super::db::Database;
use super::index::Home;

/// Probabilities of the side to roll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaceOdds {
    /// Winning.
    pub win: f64,
    /// Winning a gammon (0 where the other side has borne off a checker).
    pub win_gammon: f64,
    /// Losing a gammon (0 where the side to roll has borne off a checker).
    pub lose_gammon: f64,
}

/// `P(X >= n)` for a stored distribution starting at `first`.
fn at_least(first: usize, d: &[f32], n: usize) -> f64 {
    if n <= first {
        return 1.0;
    }
    d.iter().skip(n - first).map(|&p| f64::from(p)).sum()
}

/// `sum_n P(A = n) P(B >= n + shift)`.
fn before(a: (usize, &[f32]), b: (usize, &[f32]), shift: usize) -> f64 {
    let (fa, da) = a;
    let (fb, db) = b;
    // P(B >= m) for m from fb upwards, as a running tail.
    let total: f64 = db.iter().map(|&p| f64::from(p)).sum();
    let mut sum = 0.0;
    for (k, &p) in da.iter().enumerate() {
        let m = fa + k + shift;
        let tail = if m <= fb { total } else { at_least(fb, db, m) };
        sum += f64::from(p) * tail;
    }
    sum
}

/// The odds of the side to roll, with `roller` and `other` its and the other side's checkers
/// (at least one each) on their home points, under the rules of `db`. `gammons`: whether the
/// figures for gammons are wanted (they are 0 otherwise).
#[must_use]
pub fn odds(db: &Database, roller: &Home, other: &Home, gammons: bool) -> RaceOdds {
    let (r, o) = (db.turns(roller), db.turns(other));
    let win = before(r, o, 0).clamp(0.0, 1.0);
    let mut out = RaceOdds {
        win,
        win_gammon: 0.0,
        lose_gammon: 0.0,
    };
    if gammons {
        if let Some(o1) = db.turns_to_first_off(other) {
            out.win_gammon = before(r, o1, 0).clamp(0.0, win);
        }
        if let Some(r1) = db.turns_to_first_off(roller) {
            out.lose_gammon = before(o, r1, 1).clamp(0.0, 1.0 - win);
        }
    }
    out
}
