//! The effect of entering first in Bargese, estimated by intervention on common random numbers
//! (`cowrie entry`; docs/metrics.md, *The effect of entering first*).
//!
//! Every seed `k` is played three times on the same chance stream: as the rules deal it (the
//! **natural** game), and twice with the first entry forced, once to seat 1 (arm 1) and once to
//! seat 2 (arm 2). The forcing only replaces the void throws of the opening (before anyone's
//! first dust or bange), so after the first entry both arms see the same throws. From seed `k`'s
//! arms, with `w_s(a)` = 1 when seat `s` wins arm `a`:
//!
//! - the enterer's win rate under intervention `e = Σ_k (w_1(1) + w_2(2)) / 2K`, clustered by
//!   seed (the two arms of a seed share their throws);
//! - the average causal effect of entering first on the probability of winning,
//!   `τ = (1/K) Σ_k ½ [(w_1(1) − w_1(2)) + (w_2(2) − w_2(1))]` (`2e − 1` when every game has a
//!   winner);
//! - the seat effect with the entry balanced by design, seat 1's win rate over both arms;
//! - beside them the naive rate, the first enterer's win rate in the natural games, and its
//!   paired difference from `e` on the same seeds.

use crate::stats::clustered::{clustered_wilson, paired_difference_of, Cluster, Estimate};

/// What one seed's three games gave: for each, who (0 or 1, a [`cowrie_engine::Player`] index)
/// won, if anyone, and who entered first, if anyone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeedOutcome {
    /// The natural game: the winner.
    pub natural_winner: Option<usize>,
    /// The natural game: the first player to enter a piece.
    pub natural_entered: Option<usize>,
    /// The natural game: the rules' first mover (the three-shell throw's winner, or seat 1).
    pub natural_first_mover: Option<usize>,
    /// Arm `a` (the first entry forced to seat `a + 1`): the winner.
    pub arm_winner: [Option<usize>; 2],
    /// Arm `a`: who entered first (the forcing makes it `a` unless a rule lets a player decline
    /// to enter).
    pub arm_entered: [Option<usize>; 2],
}

/// One estimate with its 95% interval and, for a hypothesis, its two-sided p-value.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The metric's name (docs/metrics.md).
    pub metric: &'static str,
    /// The estimate.
    pub value: f64,
    /// The 95% interval.
    pub ci: (f64, f64),
    /// The interval's kind: `wilson-clustered` or `normal`.
    pub interval: &'static str,
    /// Games behind it.
    pub games: f64,
    /// The p-value of the metric's null (½ for a win rate, 0 for an effect), NaN where none.
    pub p_value: f64,
}

fn flag(b: bool) -> f64 {
    f64::from(u8::from(b))
}

fn wins(winner: Option<usize>, who: usize) -> f64 {
    flag(winner == Some(who))
}

/// A win rate over `clusters` with its clustered Wilson interval and the test of ½ on the
/// balance `balance` (wins minus losses, per cluster).
fn rate(metric: &'static str, clusters: &[Cluster], balance: &[Cluster]) -> Row {
    let e = Estimate::of_slice(clusters);
    Row {
        metric,
        value: e.value,
        ci: clustered_wilson(&e),
        interval: "wilson-clustered",
        games: e.games,
        p_value: Estimate::of_slice(balance).p_value(0.0),
    }
}

fn normal(metric: &'static str, e: &Estimate) -> Row {
    Row {
        metric,
        value: e.value,
        ci: e.normal_interval(),
        interval: "normal",
        games: e.games,
        p_value: e.p_value(0.0),
    }
}

/// +1 if `who` won, −1 if the other player did, 0 without a winner.
fn balance(winner: Option<usize>, who: usize) -> f64 {
    winner.map_or(0.0, |w| if w == who { 1.0 } else { -1.0 })
}

/// One cluster per seed, of `m` games, with total `y(seed)`.
fn per_seed(seeds: &[SeedOutcome], m: f64, y: impl Fn(&SeedOutcome) -> f64) -> Vec<Cluster> {
    seeds.iter().map(|s| Cluster { y: y(s), m }).collect()
}

/// Every estimate of docs/metrics.md over `seeds`, in the order `estimates.csv` gives them.
#[must_use]
pub fn estimates(seeds: &[SeedOutcome]) -> Vec<Row> {
    // Per seed, over the two arms (of 2 games): the enterer's wins and their balance, and seat
    // 1's; τ_k = ½ [(w1(1) − w1(2)) + (w2(2) − w2(1))].
    let arms = per_seed(seeds, 2.0, |s| {
        wins(s.arm_winner[0], 0) + wins(s.arm_winner[1], 1)
    });
    let arms_balance = per_seed(seeds, 2.0, |s| {
        balance(s.arm_winner[0], 0) + balance(s.arm_winner[1], 1)
    });
    let effect = per_seed(seeds, 1.0, |s| {
        let w = |a: usize, who: usize| wins(s.arm_winner[a], who);
        0.5 * ((w(0, 0) - w(1, 0)) + (w(1, 1) - w(0, 1)))
    });
    let seat1 = per_seed(seeds, 2.0, |s| {
        wins(s.arm_winner[0], 0) + wins(s.arm_winner[1], 0)
    });
    let seat1_balance = per_seed(seeds, 2.0, |s| {
        balance(s.arm_winner[0], 0) + balance(s.arm_winner[1], 0)
    });
    // The natural games, one a seed: the first enterer's and the first mover's wins (a game
    // where nobody entered counts as not won) and their balance.
    let won_by =
        |s: &SeedOutcome, who: Option<usize>| who.map_or(0.0, |c| wins(s.natural_winner, c));
    let balance_of =
        |s: &SeedOutcome, who: Option<usize>| who.map_or(0.0, |c| balance(s.natural_winner, c));
    let naive = per_seed(seeds, 1.0, |s| won_by(s, s.natural_entered));
    let naive_balance = per_seed(seeds, 1.0, |s| balance_of(s, s.natural_entered));
    let mover = per_seed(seeds, 1.0, |s| won_by(s, s.natural_first_mover));
    let mover_balance = per_seed(seeds, 1.0, |s| balance_of(s, s.natural_first_mover));
    let mover_entered = per_seed(seeds, 1.0, |s| {
        flag(s.natural_entered.is_some() && s.natural_entered == s.natural_first_mover)
    });
    let forced = per_seed(seeds, 2.0, |s| {
        flag(s.arm_entered[0] == Some(0)) + flag(s.arm_entered[1] == Some(1))
    });
    let both: Vec<(Cluster, Cluster)> = naive.iter().copied().zip(arms.iter().copied()).collect();
    // Without a balance (the last two rows) the p-value is NaN: no hypothesis.
    vec![
        rate("enterer_win_rate_forced", &arms, &arms_balance),
        normal("entry_effect", &Estimate::of_slice(&effect)),
        rate("seat1_win_rate_forced", &seat1, &seat1_balance),
        rate("enterer_win_rate_natural", &naive, &naive_balance),
        normal("forced_minus_natural", &paired_difference_of(&both)),
        rate("first_mover_win_rate_natural", &mover, &mover_balance),
        rate("natural_first_mover_entered_first", &mover_entered, &[]),
        rate("forced_entry_held", &forced, &[]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(arm: [usize; 2], natural: (usize, usize)) -> SeedOutcome {
        SeedOutcome {
            natural_winner: Some(natural.0),
            natural_entered: Some(natural.1),
            natural_first_mover: Some(0),
            arm_winner: [Some(arm[0]), Some(arm[1])],
            arm_entered: [Some(0), Some(1)],
        }
    }

    #[test]
    fn a_constructed_case_by_hand() {
        // Four seeds. Arms (winner of arm 1, of arm 2): the enterer wins both (0, 1), both
        // (0, 1), one (0, 0: seat 1 wins both), none (1, 0).
        let s = [
            seed([0, 1], (0, 0)),
            seed([0, 1], (1, 0)),
            seed([0, 0], (0, 0)),
            seed([1, 0], (1, 1)),
        ];
        let r = estimates(&s);
        let get = |m: &str| r.iter().find(|x| x.metric == m).unwrap().clone();
        // e = (2 + 2 + 1 + 0) / 8.
        let e = get("enterer_win_rate_forced");
        assert!((e.value - 5.0 / 8.0).abs() < 1e-15);
        // τ_k = 1, 1, 0, −1: mean 1/4; deviations 3/4, 3/4, −1/4, −5/4 have squares summing
        // to 44/16, so se² = 4/3 · (44/16) / 16 = 11/48.
        let t = get("entry_effect");
        assert!((t.value - 0.25).abs() < 1e-15);
        let se = (11.0f64 / 48.0).sqrt();
        assert!((t.ci.1 - t.value - 1.959_963_984_540_054 * se).abs() < 1e-9);
        // Seat 1 wins 1, 1, 2, 1 of 2: 5/8.
        assert!((get("seat1_win_rate_forced").value - 5.0 / 8.0).abs() < 1e-15);
        // Naive: the first enterer (0, 0, 0, 1) wins games 1, 3 and 4: 3/4.
        let n = get("enterer_win_rate_natural");
        assert!((n.value - 0.75).abs() < 1e-15);
        // Forced minus natural: 5/8 − 6/8; the forced seat entered first in every arm.
        assert!((get("forced_minus_natural").value + 1.0 / 8.0).abs() < 1e-15);
        assert!((get("forced_entry_held").value - 1.0).abs() < 1e-15);
    }

    /// Simulated seeds with a known effect: in each arm the enterer wins with probability
    /// `(1 + τ) / 2`, the two arms of a seed alike with probability `rho` (the common throws);
    /// the intervals of `e` and `τ` must cover the truth in about 95% of replications.
    #[test]
    fn the_intervals_cover_a_simulated_effect() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        let (tau, rho, seeds, reps) = (0.1, 0.6, 400, 2000);
        let e_true = (1.0 + tau) / 2.0;
        let (mut cover_e, mut cover_t) = (0, 0);
        for _ in 0..reps {
            let s: Vec<SeedOutcome> = (0..seeds)
                .map(|_| {
                    let first = rng.gen_bool(e_true);
                    let second = if rng.gen_bool(rho) {
                        first
                    } else {
                        rng.gen_bool(e_true)
                    };
                    // The enterer of arm a is seat a: it wins or the other seat does.
                    let w = |a: usize, won: bool| if won { a } else { 1 - a };
                    seed([w(0, first), w(1, second)], (0, 0))
                })
                .collect();
            let r = estimates(&s);
            let inside = |m: &str, truth: f64| {
                let x = r.iter().find(|x| x.metric == m).unwrap();
                x.ci.0 <= truth && truth <= x.ci.1
            };
            cover_e += usize::from(inside("enterer_win_rate_forced", e_true));
            cover_t += usize::from(inside("entry_effect", tau));
        }
        // 2,000 replications: the coverage's standard error is about 0.5 point.
        for c in [cover_e, cover_t] {
            let rate = c as f64 / f64::from(reps);
            assert!((0.935..=0.965).contains(&rate), "coverage {rate}");
        }
    }
}
