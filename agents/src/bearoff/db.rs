//! Building a one-sided bear-off database with the engine's own move generation.
//!
//! For every position of [`super::index`] (a side's checkers on its six home points, the rest
//! borne off, nothing of the opponent's in the way), the distribution of the number of turns
//! the side needs to bear off all its checkers, when it plays every roll to minimise the
//! expected number of turns (ties: the first play in the generator's order). A turn is one roll
//! of the two dice and its play, a double giving four moves, a roll that cannot be played a
//! turn that leaves the position as it was; neither Frangieh nor Julbahar gives a side a second
//! roll in a turn once the opening is over, so in the bear-off the two sides' turns alternate.
//!
//! For positions of fifteen checkers (none borne off) also the distribution of the turns until
//! the first checker is borne off, played to minimise its expected number: what a gammon
//! depends on.
//!
//! The recursion over positions in order of increasing pip count (every play lowers the pip
//! count, and a roll that cannot be played keeps the position): with `p_r` the probability of
//! roll `r`, `c_r` the chosen position after it and `s` the probability of the rolls that
//! leave the position unchanged,
//! `E(x) = (1 + sum_r p_r E(c_r)) / (1 - s)` and
//! `P_x(n) = s P_x(n - 1) + sum_r p_r P_{c_r}(n - 1)`, with `P_empty(0) = 1`.

use cowrie_engine::games::tables::{generate_plays, Board, Play, TablesParams, OFF, ROLLS};

use super::index::{self, Home, CHECKERS, POINTS, POSITIONS};

/// The longest distribution the recursion follows; the mass beyond it is kept in the last
/// entry (it is far below [`TAIL`] for every rule set of Frangieh and Julbahar).
pub const MAX_TURNS: usize = 512;
/// A stored distribution stops at the first number of turns beyond which less than this
/// probability remains; that remainder is added to its last entry.
pub const TAIL: f64 = 1e-9;

/// Distributions of a number of turns, one per position, stored back to back.
#[derive(Clone, Debug, Default)]
pub struct Distributions {
    /// Where position `i`'s entries start in `data` (`offsets[i]..offsets[i + 1]`).
    offsets: Vec<u32>,
    /// The number of turns of position `i`'s first entry.
    first: Vec<u16>,
    /// The probabilities.
    data: Vec<f32>,
}

impl Distributions {
    fn with_capacity() -> Self {
        Distributions {
            offsets: vec![0],
            first: Vec::with_capacity(POSITIONS),
            data: Vec::new(),
        }
    }

    /// Position `i`'s distribution: the number of turns of its first entry and the entries
    /// (empty where none is stored).
    #[must_use]
    pub fn get(&self, i: usize) -> (usize, &[f32]) {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        (usize::from(self.first[i]), &self.data[a..b])
    }
}

/// A one-sided bear-off database for one rule set.
#[derive(Clone, Debug)]
pub struct Database {
    params: TablesParams,
    expected: Vec<f64>,
    all_off: Distributions,
    first_off: Distributions,
    expected_first: Vec<f64>,
}

/// The board with `home` for side 0 (the rest of its fifteen borne off) and all of side 1's
/// checkers borne off, so nothing of the opponent's stands in the way.
fn board_of(home: &Home) -> Board {
    let mut n = [[0u8; 26]; 2];
    n[0][1..=POINTS].copy_from_slice(home);
    n[0][OFF] = CHECKERS as u8 - index::checkers(home);
    n[1][OFF] = CHECKERS as u8;
    Board::from_counts(n)
}

fn home_of(board: &Board) -> Home {
    let mut h = [0u8; POINTS];
    h.copy_from_slice(&board.counts()[0][1..=POINTS]);
    h
}

/// The positions each roll leads to: for every roll (in [`ROLLS`] order), every distinct
/// position a legal play leaves, through the engine's generator.
fn children(home: &Home, params: &TablesParams, plays: &mut Vec<Play>, out: &mut [Vec<usize>; 21]) {
    let board = board_of(home);
    for (r, roll) in ROLLS.iter().enumerate() {
        generate_plays(&board, 0, *roll, params, plays);
        out[r].clear();
        for play in plays.iter() {
            let mut b = board;
            play.apply(&mut b, 0, params);
            out[r].push(index::index(&home_of(&b)));
        }
    }
}

impl Database {
    /// Builds the database of the rules `params` with [`generate_plays`]: the engine's plays of
    /// every roll from every position.
    #[must_use]
    pub fn build(params: &TablesParams) -> Database {
        let homes = index::all();
        let mut order: Vec<usize> = (0..POSITIONS).collect();
        order.sort_by_key(|&i| (index::pips(&homes[i]), i));
        let mut plays = Vec::new();
        let mut kids: [Vec<usize>; 21] = Default::default();
        // The chosen child of each roll, per position, for the distributions (in `order`).
        let mut expected = vec![0.0f64; POSITIONS];
        let mut expected_first = vec![0.0f64; POSITIONS];
        let mut chosen: Vec<[u32; 21]> = vec![[0; 21]; POSITIONS];
        let mut chosen_first: Vec<[u32; 21]> = vec![[0; 21]; POSITIONS];
        for &i in &order[1..] {
            children(&homes[i], params, &mut plays, &mut kids);
            let full = usize::from(index::checkers(&homes[i])) == CHECKERS;
            let (mut sum, mut stay) = (0.0, 0.0);
            let (mut sum1, mut stay1) = (0.0, 0.0);
            for (r, roll) in ROLLS.iter().enumerate() {
                let p = roll.probability();
                let mut best = (f64::INFINITY, i);
                let mut best1 = (f64::INFINITY, i);
                for &j in &kids[r] {
                    if j != i && expected[j] < best.0 {
                        best = (expected[j], j);
                    }
                    if full && j != i {
                        // A play that bears a checker off ends the wait for the first one.
                        let e1 = if usize::from(index::checkers(&homes[j])) < CHECKERS {
                            0.0
                        } else {
                            expected_first[j]
                        };
                        if e1 < best1.0 {
                            best1 = (e1, j);
                        }
                    }
                }
                chosen[i][r] = best.1 as u32;
                if best.1 == i {
                    stay += p;
                } else {
                    sum += p * best.0;
                }
                if full {
                    chosen_first[i][r] = best1.1 as u32;
                    if best1.1 == i {
                        stay1 += p;
                    } else {
                        sum1 += p * best1.0;
                    }
                }
            }
            expected[i] = (1.0 + sum) / (1.0 - stay);
            if full {
                expected_first[i] = (1.0 + sum1) / (1.0 - stay1);
            }
        }
        // The distributions, in index order of storage but computed in pip order: stored first
        // into per-position buffers, then packed.
        let mut all = vec![Vec::<f32>::new(); POSITIONS];
        let mut all_first = vec![0usize; POSITIONS];
        let mut first = vec![Vec::<f32>::new(); POSITIONS];
        let mut first_first = vec![0usize; POSITIONS];
        let mut buf = vec![0.0f64; MAX_TURNS];
        all[0] = vec![1.0];
        for &i in &order[1..] {
            for (r, roll) in ROLLS.iter().enumerate() {
                let j = chosen[i][r] as usize;
                if j != i {
                    add_shifted(&all[j], all_first[j], roll.probability(), &mut buf);
                }
            }
            let stay: f64 = ROLLS
                .iter()
                .enumerate()
                .filter(|(r, _)| chosen[i][*r] as usize == i)
                .map(|(_, roll)| roll.probability())
                .sum();
            close_loop(&mut buf, stay);
            (all_first[i], all[i]) = cut(&buf);
            buf.iter_mut().for_each(|x| *x = 0.0);
            if usize::from(index::checkers(&homes[i])) == CHECKERS {
                let mut stay1 = 0.0;
                for (r, roll) in ROLLS.iter().enumerate() {
                    let j = chosen_first[i][r] as usize;
                    let p = roll.probability();
                    if j == i {
                        stay1 += p;
                    } else if usize::from(index::checkers(&homes[j])) < CHECKERS {
                        buf[1] += p;
                    } else {
                        add_shifted(&first[j], first_first[j], p, &mut buf);
                    }
                }
                close_loop(&mut buf, stay1);
                (first_first[i], first[i]) = cut(&buf);
                buf.iter_mut().for_each(|x| *x = 0.0);
            }
        }
        let pack = |d: &[Vec<f32>], f: &[usize]| {
            let mut out = Distributions::with_capacity();
            for (v, &s) in d.iter().zip(f) {
                out.first.push(s as u16);
                out.data.extend_from_slice(v);
                out.offsets.push(out.data.len() as u32);
            }
            out
        };
        Database {
            params: *params,
            expected,
            all_off: pack(&all, &all_first),
            first_off: pack(&first, &first_first),
            expected_first,
        }
    }

    /// The rules it was built for.
    #[must_use]
    pub fn params(&self) -> &TablesParams {
        &self.params
    }

    /// The expected number of turns to bear off all of `home`'s checkers, exact (not from the
    /// stored, cut distribution).
    #[must_use]
    pub fn expected(&self, home: &Home) -> f64 {
        self.expected[index::index(home)]
    }

    /// The distribution of the turns to bear off all of `home`'s checkers: the number of turns
    /// of the first entry, and the probabilities from there (the last one holds the rest).
    #[must_use]
    pub fn turns(&self, home: &Home) -> (usize, &[f32]) {
        self.all_off.get(index::index(home))
    }

    /// For fifteen checkers, the distribution of the turns until the first is borne off (as
    /// [`Database::turns`]); `None` for fewer.
    #[must_use]
    pub fn turns_to_first_off(&self, home: &Home) -> Option<(usize, &[f32])> {
        (usize::from(index::checkers(home)) == CHECKERS)
            .then(|| self.first_off.get(index::index(home)))
    }

    /// For fifteen checkers, the expected turns until the first is borne off.
    #[must_use]
    pub fn expected_first_off(&self, home: &Home) -> Option<f64> {
        (usize::from(index::checkers(home)) == CHECKERS)
            .then(|| self.expected_first[index::index(home)])
    }

    /// The stored distributions (all checkers off), by position index.
    #[must_use]
    pub fn all_off(&self) -> &Distributions {
        &self.all_off
    }
}

/// `buf` (entry `n` = turns `n`) cut at [`TAIL`]: the number of turns of its first non-zero
/// entry and the entries from there, the remainder added to the last; nothing for all zeros.
fn cut(buf: &[f64]) -> (usize, Vec<f32>) {
    let Some(start) = buf.iter().position(|&p| p > 0.0) else {
        return (0, Vec::new());
    };
    let mut tail = 0.0;
    let mut end = buf.len();
    while end > start + 1 && tail + buf[end - 1] < TAIL {
        tail += buf[end - 1];
        end -= 1;
    }
    let mut out: Vec<f32> = buf[start..end].iter().map(|&p| p as f32).collect();
    let last = out.len() - 1;
    out[last] = (f64::from(out[last]) + tail) as f32;
    (start, out)
}

fn add_shifted(d: &[f32], first: usize, weight: f64, buf: &mut [f64]) {
    for (k, &p) in d.iter().enumerate() {
        let n = (first + k + 1).min(buf.len() - 1);
        buf[n] += weight * f64::from(p);
    }
}

/// Folds in the rolls that leave the position unchanged (probability `stay`):
/// `P(n) = c(n) + stay P(n - 1)`; what passes the last entry stays in it.
fn close_loop(buf: &mut [f64], stay: f64) {
    if stay == 0.0 {
        return;
    }
    let last = buf.len() - 1;
    for n in 1..last {
        buf[n] += stay * buf[n - 1];
    }
    // The last entry holds MAX_TURNS - 1 or more: its own mass recurs geometrically.
    buf[last] = (buf[last] + stay * buf[last - 1]) / (1.0 - stay).max(f64::MIN_POSITIVE);
}
