//! A match-equity table for matches played to a target score (Julbahar: 31): the probability
//! that a player wins the match from each pair of scores, when that player starts the next
//! game, estimated from a model fitted to `subgames.csv`, with the raw frequencies beside it.
//!
//! The model is a Markov chain over scores. A game adds `(x, y)` points to the totals of its
//! first mover and of the other player, drawn from the empirical distribution of `(x, y)` over
//! every game of the run (bonuses included; a game the match ended early counts with the points
//! it had reached); who starts the next game is a fair coin (the opening throw of each game,
//! `next-game=opening`). The match ends when a total reaches the target; where one game takes
//! both totals there, which of the two got there first is unknown and counts as half a win.
//! With `f(a, b)` the equity of a player with `a` points who starts the next game against `b`:
//!
//! ```text
//! f(a, b) = Σ_(x, y) P(x, y) · v(a + x, b + y),
//! v(a', b') = 1 if only a' reaches the target, 0 if only b' does, ½ if both do, and otherwise
//!             ½ f(a', b') + ½ (1 - f(b', a'))   (the next game's first mover by a fair coin).
//! ```
//!
//! The model assumes a game's points do not depend on the score (the agents see the score, so
//! this is an approximation the raw frequencies check where they are dense).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One game inside a match: its match (`pair`, the seat-swapped pair of the match, for
/// resampling; `game_index`, the match), the seat of its first mover and each seat's points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// The match's seat-swapped pair.
    pub pair: u64,
    /// The match.
    pub game_index: u64,
    /// Seat (1 or 2) of the game's first mover.
    pub first_mover: u8,
    /// Points of seats 1 and 2 in this game.
    pub points: [u32; 2],
}

/// The distribution of a game's points: `(first mover's, other's)` with their weights.
pub type Outcomes = Vec<((u32, u32), f64)>;

/// The empirical distribution of `(first mover's points, other's points)` over `games`.
#[must_use]
pub fn outcomes<'a>(games: impl IntoIterator<Item = &'a Game>) -> Outcomes {
    let mut counts = std::collections::BTreeMap::new();
    let mut n = 0.0;
    for g in games {
        let m = usize::from(g.first_mover == 2);
        *counts.entry((g.points[m], g.points[1 - m])).or_insert(0.0) += 1.0;
        n += 1.0;
    }
    counts.into_iter().map(|(k, c)| (k, c / n)).collect()
}

/// The table `f[a][b]` for scores below `target`, solved exactly in decreasing order of
/// `a + b`: every game that scores moves to a larger sum, already solved; a game that scores
/// nothing (probability `q`) leaves the scores as they are, which couples `f(a, b)` and
/// `f(b, a)` in two linear equations,
/// `u (1 - q/2) + (q/2) w = q/2 + R_ab` and `(q/2) u + w (1 - q/2) = q/2 + R_ba`, with `R` the
/// sum over the scoring games.
#[must_use]
pub fn model(outcomes: &Outcomes, target: u32) -> Vec<Vec<f64>> {
    let t = target as usize;
    let mut f = vec![vec![0.5; t]; t];
    let q: f64 = outcomes
        .iter()
        .filter(|((x, y), _)| *x == 0 && *y == 0)
        .map(|(_, p)| p)
        .sum();
    let h = q / 2.0;
    let det = (1.0 - h) * (1.0 - h) - h * h;
    for sum in (0..2 * t - 1).rev() {
        for a in sum.saturating_sub(t - 1)..=sum.min(t - 1) {
            let b = sum - a;
            if b < a {
                continue;
            }
            let scoring = |a: usize, b: usize, f: &Vec<Vec<f64>>| -> f64 {
                let mut r = 0.0;
                for &((x, y), p) in outcomes {
                    if x == 0 && y == 0 {
                        continue;
                    }
                    let (a2, b2) = (a + x as usize, b + y as usize);
                    r += p * match (a2 >= t, b2 >= t) {
                        (true, false) => 1.0,
                        (false, true) => 0.0,
                        (true, true) => 0.5,
                        (false, false) => 0.5 * f[a2][b2] + 0.5 * (1.0 - f[b2][a2]),
                    };
                }
                r
            };
            let (r_ab, r_ba) = (scoring(a, b, &f), scoring(b, a, &f));
            f[a][b] = ((h + r_ab) * (1.0 - h) - h * (h + r_ba)) / det;
            f[b][a] = ((h + r_ba) * (1.0 - h) - h * (h + r_ab)) / det;
        }
    }
    f
}

/// 95% percentile-bootstrap intervals of the model's table: `resamples` refits on the matches'
/// seat-swapped pairs drawn with replacement, from stream `u64::MAX` of `seed`.
#[must_use]
pub fn bootstrap(games: &[Game], target: u32, resamples: usize, seed: u64) -> Vec<Vec<(f64, f64)>> {
    let mut by_pair: std::collections::BTreeMap<u64, Vec<Game>> = std::collections::BTreeMap::new();
    for g in games {
        by_pair.entry(g.pair).or_default().push(*g);
    }
    let pairs: Vec<Vec<Game>> = by_pair.into_values().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(u64::MAX);
    let t = target as usize;
    let mut samples = vec![vec![Vec::with_capacity(resamples); t]; t];
    for _ in 0..resamples {
        let drawn: Vec<&Game> = (0..pairs.len())
            .flat_map(|_| &pairs[rng.gen_range(0..pairs.len())])
            .collect();
        let f = model(&outcomes(drawn), target);
        for (row, fr) in samples.iter_mut().zip(&f) {
            for (cell, v) in row.iter_mut().zip(fr) {
                cell.push(*v);
            }
        }
    }
    samples
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|mut s| {
                    s.sort_by(f64::total_cmp);
                    let at = |q: f64| s[((s.len() - 1) as f64 * q).round() as usize];
                    (at(0.025), at(0.975))
                })
                .collect()
        })
        .collect()
}

/// The raw table: for every game of every match, the score before it from its first mover's
/// view `(a, b)`, and whether that player went on to win the match (the player whose total
/// reached `target`); `[a][b] = (matches won, visits)`. Matches that never reached the target
/// (cut by the ply cap) are left out.
#[must_use]
pub fn raw(games: &[Game], target: u32) -> Vec<Vec<(u64, u64)>> {
    let t = target as usize;
    let mut table = vec![vec![(0u64, 0u64); t]; t];
    for m in games.chunk_by(|x, y| x.game_index == y.game_index) {
        let mut totals = [0u32; 2];
        let mut visits = Vec::new();
        for g in m {
            let s = usize::from(g.first_mover - 1);
            visits.push((s, totals[s] as usize, totals[1 - s] as usize));
            totals[0] += g.points[0];
            totals[1] += g.points[1];
        }
        let Some(winner) = (0..2).find(|&s| totals[s] >= target) else {
            continue;
        };
        for (s, a, b) in visits {
            if a < t && b < t {
                table[a][b].1 += 1;
                table[a][b].0 += u64::from(s == winner);
            }
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_mover_always_scoring_one_point() {
        // Target 3, every game worth one point to its first mover. By hand: f(2, b) = 1;
        // f(1, 2) = ½ f(2, 2) + ½ (1 - f(2, 2)) = ½; f(1, 1) = ½ f(2, 1) + ½ (1 - f(1, 2)) = ¾.
        let f = model(&vec![((1, 0), 1.0)], 3);
        assert!((f[2][0] - 1.0).abs() < 1e-12 && (f[2][2] - 1.0).abs() < 1e-12);
        assert!((f[1][2] - 0.5).abs() < 1e-12, "{}", f[1][2]);
        assert!((f[1][1] - 0.75).abs() < 1e-12, "{}", f[1][1]);
    }

    #[test]
    fn a_fair_point_per_game_is_a_race_of_coin_flips() {
        // Each game gives one point to either player with probability ½, so who starts does not
        // matter and f(a, b) is the chance of 3 - a heads before 3 - b tails: from (2, 0),
        // 1 - (½)³ = 7/8; from (1, 1), ½; from (1, 0), P(2 heads before 3 tails) = 11/16.
        let f = model(&vec![((1, 0), 0.5), ((0, 1), 0.5)], 3);
        assert!((f[2][0] - 0.875).abs() < 1e-12, "{}", f[2][0]);
        assert!((f[1][1] - 0.5).abs() < 1e-12);
        assert!((f[1][0] - 11.0 / 16.0).abs() < 1e-12, "{}", f[1][0]);
        // Games scoring nothing change nothing but the length: the same table.
        let g = model(&vec![((1, 0), 0.25), ((0, 1), 0.25), ((0, 0), 0.5)], 3);
        assert!((g[1][0] - 11.0 / 16.0).abs() < 1e-9, "{}", g[1][0]);
    }

    #[test]
    fn raw_counts_follow_each_match() {
        let game = |game_index, first_mover, points| Game {
            pair: 0,
            game_index,
            first_mover,
            points,
        };
        // One match to 3: at 0-0 seat 1 starts and scores 2; at 2-0 seat 2 starts (its view:
        // 0-2) and scores 4, which wins the match.
        let games = [game(0, 1, [2, 0]), game(0, 2, [0, 4])];
        let t = raw(&games, 3);
        assert_eq!(t[0][0], (0, 1), "seat 1 started at 0-0 and lost");
        assert_eq!(t[0][2], (1, 1), "seat 2 started at 0-2 and won");
        let o = outcomes(&games);
        assert_eq!(o, vec![((2, 0), 0.5), ((4, 0), 0.5)]);
    }
}
