//! The pair-aware intervals tested by simulation: games drawn in correlated clusters (the two
//! games of a seat-swapped pair, or the games of a match) from known probabilities, and each
//! 95% interval checked to cover the true value in 95% ± 0.7% of 10,000 replications
//! (seeded, so the figures are the same on every run). Where the unclustered interval would be
//! wrong, the test also shows that it is, so the clustered one is not passing by accident.

use cowrie_experiments::stats::clustered::{
    clustered_wilson, paired_difference_of, Cluster, Estimate,
};
use cowrie_experiments::stats::intervals::{newcombe_difference, wilson, z95};
use cowrie_experiments::stats::ratings::{elo, Pentanomial};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const REPLICATIONS: usize = 10_000;
const PAIRS: usize = 400;

/// Index of the outcome drawn from `probs` (summing to 1).
fn draw(rng: &mut ChaCha8Rng, probs: &[f64]) -> usize {
    let u: f64 = rng.gen();
    let mut acc = 0.0;
    for (i, p) in probs.iter().enumerate() {
        acc += p;
        if u < acc {
            return i;
        }
    }
    probs.len() - 1
}

/// The share of `REPLICATIONS` replications for which `covers` holds, on a stream keyed by
/// `seed`.
fn share(seed: u64, mut covers: impl FnMut(&mut ChaCha8Rng) -> bool) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..REPLICATIONS).filter(|_| covers(&mut rng)).count() as f64 / REPLICATIONS as f64
}

fn assert_nominal(what: &str, coverage: f64) {
    eprintln!("{what}: coverage {coverage:.4}");
    assert!(
        (coverage - 0.95).abs() <= 0.007,
        "{what}: coverage {coverage:.4}, not within 0.95 ± 0.007"
    );
}

/// Self-play pairs: the seat-1 win indicator of the two games of a pair drawn jointly,
/// `joint = [P(1,1), P(1,0), P(0,1), P(0,0)]`.
fn self_play(seed: u64, joint: [f64; 4]) -> (f64, f64) {
    let truth = joint[0] + (joint[1] + joint[2]) / 2.0;
    let mut naive = 0usize;
    let clustered = share(seed, |rng| {
        let clusters: Vec<Cluster> = (0..PAIRS)
            .map(|_| {
                let y = [2.0, 1.0, 1.0, 0.0][draw(rng, &joint)];
                Cluster { y, m: 2.0 }
            })
            .collect();
        let e = Estimate::of_slice(&clusters);
        let wins = clusters.iter().map(|c| c.y).sum::<f64>() as u64;
        let (lo, hi) = wilson(wins, 2 * PAIRS as u64, z95());
        naive += usize::from(lo <= truth && truth <= hi);
        let (lo, hi) = clustered_wilson(&e);
        lo <= truth && truth <= hi
    });
    (clustered, naive as f64 / REPLICATIONS as f64)
}

#[test]
fn self_play_rates_clustered_by_pair_cover_under_positive_and_negative_correlation() {
    // The same seat wins both games more often than independence gives (correlation 0.6), as
    // with the same agent in both seats on shared dice; then less often (correlation -0.6).
    let (clustered, naive) = self_play(1, [0.45, 0.10, 0.10, 0.35]);
    assert_nominal("positively correlated pairs", clustered);
    assert!(
        naive < 0.90,
        "the unclustered Wilson interval covers {naive:.4}"
    );
    let (clustered, naive) = self_play(2, [0.15, 0.40, 0.40, 0.05]);
    assert_nominal("negatively correlated pairs", clustered);
    assert!(
        naive > 0.98,
        "the unclustered Wilson interval covers {naive:.4}"
    );
}

#[test]
fn the_pair_level_test_of_equal_wins_has_its_nominal_size() {
    // Per game: seat 1 wins, seat 2 wins, or truncated (value +1, -1, 0); the joint law of a
    // pair is symmetric in the seats, so seat 1 and seat 2 win equally often and the test of
    // "wins - losses = 0" must reject in 5% of replications.
    for (seed, joint) in [
        // rows: game 1 = seat 1 wins, seat 2 wins, truncated; columns: game 2 alike.
        (
            3,
            [[0.30, 0.05, 0.05], [0.05, 0.30, 0.05], [0.05, 0.05, 0.10]],
        ),
        (
            4,
            [[0.05, 0.35, 0.05], [0.35, 0.05, 0.05], [0.05, 0.05, 0.00]],
        ),
    ] {
        let flat: Vec<f64> = joint.iter().flatten().copied().collect();
        let value = [1.0, -1.0, 0.0];
        let kept = share(seed, |rng| {
            let clusters: Vec<Cluster> = (0..PAIRS)
                .map(|_| {
                    let i = draw(rng, &flat);
                    Cluster {
                        y: value[i / 3] + value[i % 3],
                        m: 2.0,
                    }
                })
                .collect();
            Estimate::of_slice(&clusters).p_value(0.0) > 0.05
        });
        assert_nominal("test of equal wins (1 - size)", kept);
    }
}

#[test]
fn games_inside_matches_clustered_by_match_cover() {
    // Matches of varying length with correlated games. Positive: a match is of one of two
    // kinds (probability 1/2 each), 4 to 8 games won with probability 0.4, or 6 to 12 games
    // won with probability 0.65: the true rate is (6 · 0.4 + 9 · 0.65) / (6 + 9) = 0.55.
    let positive = share(5, |rng| {
        let clusters: Vec<Cluster> = (0..PAIRS)
            .map(|_| {
                let (m, p) = if rng.gen::<bool>() {
                    (rng.gen_range(4..=8), 0.4)
                } else {
                    (rng.gen_range(6..=12), 0.65)
                };
                let y = (0..m).filter(|_| rng.gen::<f64>() < p).count();
                Cluster {
                    y: y as f64,
                    m: f64::from(m),
                }
            })
            .collect();
        let (lo, hi) = clustered_wilson(&Estimate::of_slice(&clusters));
        lo <= 0.55 && 0.55 <= hi
    });
    assert_nominal("games in matches, positively correlated", positive);
    // Negative: 4 to 9 games, of which floor(m/2) or one more (probability 1/2) are won, so
    // wins alternate far more evenly than independent games would: the true rate is
    // E[floor(m/2) + 1/2] / E[m] = 3.5 / 6.5.
    let truth = 3.5 / 6.5;
    let negative = share(6, |rng| {
        let clusters: Vec<Cluster> = (0..PAIRS)
            .map(|_| {
                let m: u32 = rng.gen_range(4..=9);
                let y = m / 2 + u32::from(rng.gen::<bool>());
                Cluster {
                    y: f64::from(y),
                    m: f64::from(m),
                }
            })
            .collect();
        let (lo, hi) = clustered_wilson(&Estimate::of_slice(&clusters));
        lo <= truth && truth <= hi
    });
    assert_nominal("games in matches, negatively correlated", negative);
}

/// Seat-swapped pairs between two agents: agent A's results (win, draw, loss) in the two games
/// drawn from `joint` (rows: game 1; columns: game 2); returns the coverage of the score
/// interval and of the Elo interval and the share of p-values above 0.05.
fn pentanomial(seed: u64, joint: [[f64; 3]; 3]) -> (f64, f64, f64) {
    let points = [1.0, 0.5, 0.0];
    let flat: Vec<f64> = joint.iter().flatten().copied().collect();
    let truth: f64 = (0..9)
        .map(|i| flat[i] * (points[i / 3] + points[i % 3]) / 2.0)
        .sum();
    let (mut elo_covered, mut kept) = (0usize, 0usize);
    let covered = share(seed, |rng| {
        let mut p = Pentanomial::default();
        for _ in 0..PAIRS {
            let i = draw(rng, &flat);
            p.add(Some(points[i / 3]), Some(points[i % 3]));
        }
        let s = p.pair_level();
        elo_covered += usize::from(s.elo_low <= elo(truth) && elo(truth) <= s.elo_high);
        kept += usize::from(s.p_value > 0.05);
        s.low <= truth && truth <= s.high
    });
    let r = REPLICATIONS as f64;
    (covered, elo_covered as f64 / r, kept as f64 / r)
}

#[test]
fn pentanomial_score_and_elo_intervals_cover_under_both_correlations() {
    // Negative: A wins one game of the pair and loses the other more often than independence
    // gives (shared dice favour one seat); true score 0.525.
    let (score, elo, _) = pentanomial(
        7,
        [[0.10, 0.05, 0.35], [0.05, 0.05, 0.05], [0.25, 0.05, 0.05]],
    );
    assert_nominal("pentanomial score, negative correlation", score);
    assert_nominal("pentanomial Elo, negative correlation", elo);
    // Positive: the same result in both games; true score 0.575.
    let (score, elo, _) = pentanomial(
        8,
        [[0.35, 0.05, 0.10], [0.05, 0.10, 0.05], [0.05, 0.05, 0.20]],
    );
    assert_nominal("pentanomial score, positive correlation", score);
    assert_nominal("pentanomial Elo, positive correlation", elo);
    // Equal agents (true score 1/2): the pair-level test rejects in 5% of replications.
    let (_, _, kept) = pentanomial(
        9,
        [[0.10, 0.05, 0.30], [0.05, 0.00, 0.05], [0.30, 0.05, 0.10]],
    );
    assert_nominal("pair-level test of a score of 1/2 (1 - size)", kept);
}

/// Two rule sets on common random numbers: per pair a shared chance outcome `d` (probability
/// 1/2 each); in each of the pair's two games rule set A's game is won with probability
/// `pa[d]`, and rule set B's repeats A's result with probability `keep`, or (with `flip`)
/// reverses it, or else is won with probability `pb[d]`. Returns the coverage of the paired
/// interval and of Newcombe's unpaired one.
fn paired(seed: u64, keep: f64, flip: f64) -> (f64, f64) {
    let (pa, pb) = ([0.7, 0.35], [0.8, 0.5]);
    let mean_a = (pa[0] + pa[1]) / 2.0;
    let mean_b: f64 = (0..2)
        .map(|d| (keep * pa[d] + flip * (1.0 - pa[d]) + (1.0 - keep - flip) * pb[d]) / 2.0)
        .sum();
    let truth = mean_b - mean_a;
    let mut unpaired = 0usize;
    let covered = share(seed, |rng| {
        let both: Vec<(Cluster, Cluster)> = (0..PAIRS)
            .map(|_| {
                let d = usize::from(rng.gen::<bool>());
                let (mut a, mut b) = (Cluster::default(), Cluster::default());
                for _ in 0..2 {
                    let xa = rng.gen::<f64>() < pa[d];
                    let u: f64 = rng.gen();
                    let xb = if u < keep {
                        xa
                    } else if u < keep + flip {
                        !xa
                    } else {
                        rng.gen::<f64>() < pb[d]
                    };
                    a.y += f64::from(u8::from(xa));
                    b.y += f64::from(u8::from(xb));
                    a.m += 1.0;
                    b.m += 1.0;
                }
                (a, b)
            })
            .collect();
        let n = 2 * PAIRS as u64;
        let ka = both.iter().map(|p| p.0.y).sum::<f64>() as u64;
        let kb = both.iter().map(|p| p.1.y).sum::<f64>() as u64;
        let (lo, hi) = newcombe_difference(kb, n, ka, n, z95());
        unpaired += usize::from(lo <= truth && truth <= hi);
        let (lo, hi) = paired_difference_of(&both).normal_interval();
        lo <= truth && truth <= hi
    });
    (covered, unpaired as f64 / REPLICATIONS as f64)
}

#[test]
fn paired_differences_on_common_random_numbers_cover_under_both_correlations() {
    // B mostly repeats A's game (correlation near 0.9): the unpaired interval is far too wide.
    let (covered, unpaired) = paired(10, 0.9, 0.0);
    assert_nominal("paired difference, positive correlation", covered);
    assert!(unpaired > 0.999, "Newcombe's interval covers {unpaired:.4}");
    // B often reverses A's game (negative correlation): the unpaired interval is too narrow.
    let (covered, unpaired) = paired(11, 0.0, 0.5);
    assert_nominal("paired difference, negative correlation", covered);
    assert!(unpaired < 0.90, "Newcombe's interval covers {unpaired:.4}");
}
