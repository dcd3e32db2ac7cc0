//! Ratings from game results: pairwise Elo from seat-swapped pairs (the pentanomial model chess
//! testing frameworks use), and Bradley-Terry ratings for a whole round robin.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use statrs::distribution::{ContinuousCDF, Normal};

use crate::stats::clustered::two_sided_p;
use crate::stats::intervals::{wilson_at, z95};

/// What a table prints in place of a pair score and its interval when no pair counts: every
/// pair has a truncated game, so there is no score to estimate (the CSV leaves the fields empty).
pub const NO_PAIR_SCORE: &str = "none: every pair has a truncated game";

/// Outcome counts of seat-swapped pairs from agent A's view: A's points over the two games
/// (loss 0, draw ½, win 1) being 0, ½, 1, 1½ or 2. Pairs with a truncated game are counted
/// apart and left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by A's points: `[0, ½, 1, 1½, 2]`.
    pub counts: [u64; 5],
    /// Pairs with a truncated game.
    pub truncated: u64,
}

impl Pentanomial {
    /// Adds a pair from A's points in each game (`None` for a truncated game).
    pub fn add(&mut self, a: Option<f64>, b: Option<f64>) {
        match (a, b) {
            (Some(x), Some(y)) => self.counts[((x + y) * 2.0).round() as usize] += 1,
            _ => self.truncated += 1,
        }
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// A's mean score per game and its 95% interval: a Wilson interval on the mean pair score
    /// over the pairs (each pair's score, 0 to 2, halved). It never has zero width (five pairs
    /// won 2-0 give [0.566, 1]) and is conservative, since a pair's score varies at most as a
    /// win-or-loss does; exactly 0 or 1 at the edges.
    #[must_use]
    pub fn score(&self) -> (f64, f64, f64) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (f64::NAN, f64::NAN, f64::NAN);
        }
        let xs = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean = xs
            .iter()
            .zip(self.counts)
            .map(|(x, c)| x * c as f64)
            .sum::<f64>()
            / n;
        let (wlo, whi) = wilson_at(mean, n, z95());
        let all_lost = self.counts[0] == self.pairs();
        let all_won = self.counts[4] == self.pairs();
        let lo = if all_lost { 0.0 } else { wlo };
        let hi = if all_won { 1.0 } else { whi };
        (mean, lo, hi)
    }

    /// A's mean score per game from the pair outcomes as fishtest computes it (the pentanomial
    /// model: each pair's score, 0 to 2, halved, is one observation; the variance of those
    /// observations over the pairs, pairs in the denominator), with the normal 95% interval
    /// `score ± z sqrt(variance / pairs)` (cut to [0, 1]), its Elo transform, the likelihood of
    /// superiority `Φ((score - ½) / se)` and the two-sided p-value of `score = ½`. Where every
    /// pair has the same outcome the variance is 0 and the interval, LOS and p-value are
    /// undefined (NaN).
    #[must_use]
    pub fn pair_level(&self) -> PairLevel {
        let n = self.pairs() as f64;
        let xs = [0.0, 0.25, 0.5, 0.75, 1.0];
        let share = |c: u64| c as f64 / n;
        let score: f64 = xs.iter().zip(self.counts).map(|(x, c)| x * share(c)).sum();
        let variance: f64 = xs
            .iter()
            .zip(self.counts)
            .map(|(x, c)| share(c) * (x - score).powi(2))
            .sum();
        let se = (variance / n).sqrt();
        let defined = n > 0.0 && se > 0.0;
        let (low, high) = if defined {
            let h = z95() * se;
            ((score - h).max(0.0), (score + h).min(1.0))
        } else {
            (f64::NAN, f64::NAN)
        };
        let normal = Normal::new(0.0, 1.0).expect("the standard normal exists");
        let z = (score - 0.5) / se;
        PairLevel {
            score,
            variance,
            low,
            high,
            elo: elo(score),
            elo_low: elo(low),
            elo_high: elo(high),
            los: if defined { normal.cdf(z) } else { f64::NAN },
            p_value: if defined { two_sided_p(z) } else { f64::NAN },
        }
    }
}

impl Pentanomial {
    /// The pairs of a run's `games.csv` rows (in game order) from the view of `agent` (an agent
    /// spec as the rows write it): its points in each game, win 1, draw ½, loss 0, a truncated
    /// game `None`; a pair that is not two games is counted as truncated.
    #[must_use]
    pub fn of_rows(rows: &[crate::run::record::GameRow], agent: &str) -> Pentanomial {
        let mut p = Pentanomial::default();
        let points: Vec<(u64, Option<f64>)> = rows
            .iter()
            .map(|r| {
                let seat = if r.agent_p1 == agent { 1 } else { 2 };
                (r.pair_index, r.result_of(seat).score())
            })
            .collect();
        for pair in points.chunk_by(|a, b| a.0 == b.0) {
            match pair {
                [(_, a), (_, b)] => p.add(*a, *b),
                _ => p.truncated += 1,
            }
        }
        p
    }
}

/// Pair-level (pentanomial) statistics of seat-swapped pairs, [`Pentanomial::pair_level`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairLevel {
    /// A's mean score per game.
    pub score: f64,
    /// The variance of the pair score (halved, so in [0, 1]) over the pairs.
    pub variance: f64,
    /// The 95% interval of the score.
    pub low: f64,
    /// Its upper bound.
    pub high: f64,
    /// The Elo difference of the score ([`elo`]).
    pub elo: f64,
    /// The Elo of the interval's lower bound (−∞ at a bound of 0).
    pub elo_low: f64,
    /// The Elo of its upper bound (+∞ at 1).
    pub elo_high: f64,
    /// Likelihood of superiority: the normal probability that A's true score exceeds ½.
    pub los: f64,
    /// The two-sided p-value of the hypothesis that the score is ½.
    pub p_value: f64,
}

/// The Elo difference of a score (a fraction in `[0, 1]`): `-400 log10(1/s - 1)`; ±∞ at the
/// ends.
#[must_use]
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// One game for a rating fit: agents `i` and `j` and `i`'s points (1, ½ or 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    /// First agent.
    pub i: usize,
    /// Second agent.
    pub j: usize,
    /// The first agent's points.
    pub score_i: f64,
}

/// Bradley-Terry ratings on the Elo scale (agent 0 at 0) by Hunter's (2004) MM iteration, with
/// one virtual draw between every two agents so that an agent that never scores has a finite
/// rating.
#[must_use]
pub fn bradley_terry(n: usize, games: &[Game]) -> Vec<f64> {
    let mut wins = vec![0.0; n];
    let mut count = vec![vec![0.0; n]; n];
    for (a, row) in count.iter_mut().enumerate() {
        for (b, c) in row.iter_mut().enumerate() {
            if a != b {
                *c += 1.0;
                wins[a] += 0.5;
            }
        }
    }
    for g in games {
        count[g.i][g.j] += 1.0;
        count[g.j][g.i] += 1.0;
        wins[g.i] += g.score_i;
        wins[g.j] += 1.0 - g.score_i;
    }
    let mut gamma = vec![1.0; n];
    for _ in 0..10_000 {
        let mut next = vec![0.0; n];
        for a in 0..n {
            let denom: f64 = (0..n)
                .filter(|&b| b != a)
                .map(|b| count[a][b] / (gamma[a] + gamma[b]))
                .sum();
            next[a] = wins[a] / denom;
        }
        let g0 = next[0];
        let change = next
            .iter()
            .zip(&gamma)
            .map(|(x, y)| (x / g0 - y).abs())
            .fold(0.0, f64::max);
        gamma = next.iter().map(|x| x / g0).collect();
        if change < 1e-12 {
            break;
        }
    }
    gamma.iter().map(|g| 400.0 * g.log10()).collect()
}

/// Bradley-Terry ratings with 95% percentile-bootstrap intervals: `resamples` fits on
/// seat-swapped pairs drawn with replacement within each pairing, from a stream seeded by
/// `seed` (so the intervals are reproducible). `pairs[k]` holds pairing `k`'s pairs of games.
#[must_use]
pub fn bradley_terry_bootstrap(
    n: usize,
    pairs: &[Vec<[Game; 2]>],
    resamples: usize,
    seed: u64,
) -> Vec<(f64, f64, f64)> {
    let flat: Vec<Game> = pairs.iter().flatten().flatten().copied().collect();
    let point = bradley_terry(n, &flat);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(u64::MAX);
    let mut samples = vec![Vec::with_capacity(resamples); n];
    let mut games = Vec::with_capacity(flat.len());
    for _ in 0..resamples {
        games.clear();
        for pairing in pairs {
            for _ in 0..pairing.len() {
                games.extend_from_slice(&pairing[rng.gen_range(0..pairing.len())]);
            }
        }
        for (a, r) in bradley_terry(n, &games).into_iter().enumerate() {
            samples[a].push(r);
        }
    }
    samples
        .into_iter()
        .zip(point)
        .map(|(mut s, p)| {
            s.sort_by(f64::total_cmp);
            let at = |q: f64| s[((s.len() - 1) as f64 * q).round() as usize];
            (p, at(0.025), at(0.975))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!(elo(0.5).abs() < 1e-12);
        // 10:1 odds is 400 Elo by definition: score 10/11.
        assert!((elo(10.0 / 11.0) - 400.0).abs() < 1e-9);
        assert!((elo(0.75) - 190.848_501_887_864_98).abs() < 1e-9);
    }

    #[test]
    fn bradley_terry_recovers_a_two_player_odds_ratio() {
        // 30 wins to 10 (plus the virtual draw: 30.5 to 10.5) gives gamma ratio 30.5/10.5.
        let mut games = Vec::new();
        for k in 0..40 {
            games.push(Game {
                i: 0,
                j: 1,
                score_i: if k < 30 { 1.0 } else { 0.0 },
            });
        }
        let r = bradley_terry(2, &games);
        assert!(
            (r[1] - 400.0 * (10.5f64 / 30.5).log10()).abs() < 1e-6,
            "{r:?}"
        );
    }

    fn pentanomial(counts: [u64; 5]) -> Pentanomial {
        Pentanomial {
            counts,
            truncated: 0,
        }
    }

    #[test]
    fn pair_level_statistics_match_published_pentanomial_results() {
        // fast-chess's report of a 400-game match, quoted in "Meaning of output from fast-chess
        // engine testing suite" (Chess Stack Exchange, question 45881): Ptnml(0-2) [4, 3, 34,
        // 42, 117], Points 332.5 (83.12 %), Elo: 277.00 +/- 40.90, LOS: 100.00 %. The ± is half
        // the Elo width of the pentanomial normal interval, as fishtest reports it.
        let p = pentanomial([4, 3, 34, 42, 117]).pair_level();
        assert!((p.score - 332.5 / 400.0).abs() < 1e-12);
        assert!((p.elo - 277.00).abs() < 0.005, "{}", p.elo);
        let half = (p.elo_high - p.elo_low) / 2.0;
        assert!((half - 40.90).abs() < 0.005, "{half}");
        assert!(p.los > 0.999_95, "{}", p.los);
        // A fishtest instance's raw statistics of a 256-game test: results [0-2] [13, 37, 50,
        // 25, 3], score 0.43750, variance 0.05762, Elo -43.6578 (its interval there is the
        // one corrected for sequential stopping, which a fixed-length run does not need).
        let p = pentanomial([13, 37, 50, 25, 3]).pair_level();
        assert!((p.score - 0.4375).abs() < 1e-12);
        assert!((p.variance - 0.05762).abs() < 5e-6, "{}", p.variance);
        assert!((p.elo + 43.6578).abs() < 5e-5, "{}", p.elo);
        assert!(p.p_value < 0.01 && p.los < 0.01);
        // Every pair alike: no variance, so no interval.
        let p = pentanomial([0, 0, 7, 0, 0]).pair_level();
        assert_eq!(p.score, 0.5);
        assert!(p.low.is_nan() && p.p_value.is_nan());
    }

    #[test]
    fn pentanomial_score() {
        let mut p = Pentanomial::default();
        p.add(Some(1.0), Some(0.0)); // 1 point
        p.add(Some(1.0), Some(1.0)); // 2 points
        p.add(None, Some(1.0));
        assert_eq!(p.counts, [0, 0, 1, 0, 1]);
        assert_eq!(p.truncated, 1);
        assert!((p.score().0 - 0.75).abs() < 1e-12);
        // Five pairs won 2-0: Wilson's lower bound at a proportion of 1 is n / (n + z^2).
        let mut all = Pentanomial::default();
        for _ in 0..5 {
            all.add(Some(1.0), Some(1.0));
        }
        let (m, lo, hi) = all.score();
        assert_eq!((m, hi), (1.0, 1.0));
        assert!(
            (lo - 5.0 / (5.0 + 1.959_963_984_540_054_f64.powi(2))).abs() < 1e-9,
            "{lo}"
        );
    }
}
