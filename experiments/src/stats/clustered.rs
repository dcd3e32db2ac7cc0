//! Pair-aware estimators: rates, means and differences over games that come in clusters (the two
//! games of a seat-swapped pair on one chance stream, or the games inside a Julbahar match),
//! with standard errors computed at the cluster level, and two-sided p-values.
//!
//! Every estimate here is a ratio `R = Σ y_k / Σ m_k` over clusters `k` (`y_k` the total of the
//! counted quantity over the cluster's games, `m_k` its number of games). Its standard error is
//! the cluster-robust one of the linearised ratio (Cochran 1977, *Sampling Techniques*, 6.9;
//! the CR1 small-sample factor `K / (K - 1)`):
//! `se² = K / (K - 1) · Σ_k (y_k - R m_k)² / (Σ_k m_k)²`, with `K` clusters. Games are never
//! assumed independent inside a cluster; clusters are (each has its own chance stream).
//! docs/metrics.md gives the formulas and when each applies.

use std::collections::BTreeMap;

use statrs::distribution::{ContinuousCDF, Normal};

use crate::stats::intervals::{wilson_at, z95};

/// One cluster: the total `y` of the counted quantity over its games and the number `m` of
/// games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cluster {
    /// Total over the cluster's games (wins, plies, win-minus-loss ...).
    pub y: f64,
    /// Games in the cluster.
    pub m: f64,
}

/// Clusters by key (the pair index), so that two runs on the same seeds line up.
pub type Clusters = BTreeMap<u64, Cluster>;

/// Adds one game's value `y` to cluster `key`.
pub fn add(clusters: &mut Clusters, key: u64, y: f64) {
    let c = clusters.entry(key).or_default();
    c.y += y;
    c.m += 1.0;
}

/// A ratio estimate with its cluster-robust standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// `Σ y / Σ m` (NaN without games).
    pub value: f64,
    /// Its standard error (0 with fewer than two clusters).
    pub se: f64,
    /// Games, `Σ m`.
    pub games: f64,
    /// Clusters.
    pub clusters: usize,
}

impl Estimate {
    /// The estimate over `clusters`.
    #[must_use]
    pub fn of(clusters: &Clusters) -> Estimate {
        Estimate::of_slice(&clusters.values().copied().collect::<Vec<_>>())
    }

    /// The estimate over `clusters` given in any order.
    #[must_use]
    pub fn of_slice(clusters: &[Cluster]) -> Estimate {
        let games: f64 = clusters.iter().map(|c| c.m).sum();
        let total: f64 = clusters.iter().map(|c| c.y).sum();
        let value = if games > 0.0 { total / games } else { f64::NAN };
        let se = if games > 0.0 {
            robust_se(clusters.iter().map(|c| (c.y - value * c.m) / games))
        } else {
            0.0
        };
        Estimate {
            value,
            se,
            games,
            clusters: clusters.len(),
        }
    }

    /// The normal 95% interval `value ± z · se`.
    #[must_use]
    pub fn normal_interval(&self) -> (f64, f64) {
        let h = z95() * self.se;
        (self.value - h, self.value + h)
    }

    /// The two-sided p-value of the hypothesis that the expected value is `null`, from
    /// `(value - null) / se` on the standard normal; NaN where the standard error is 0.
    #[must_use]
    pub fn p_value(&self, null: f64) -> f64 {
        if self.se > 0.0 {
            two_sided_p((self.value - null) / self.se)
        } else {
            f64::NAN
        }
    }

    /// The design effect of a proportion: its variance over the variance of a binomial
    /// proportion on as many independent games, `se² / (R (1 - R) / Σ m)` (above 1: the games
    /// of a cluster are alike; below 1: they tend to differ). NaN at a proportion of 0 or 1.
    #[must_use]
    pub fn design_effect(&self) -> f64 {
        let binomial = self.value * (1.0 - self.value) / self.games;
        if binomial > 0.0 {
            self.se * self.se / binomial
        } else {
            f64::NAN
        }
    }
}

/// The two-sided p-value of a standard-normal statistic `z`: `2 Φ(-|z|)`.
#[must_use]
pub fn two_sided_p(z: f64) -> f64 {
    let n = Normal::new(0.0, 1.0).expect("the standard normal exists");
    (2.0 * n.cdf(-z.abs())).min(1.0)
}

/// The 95% interval of a proportion over clusters: Wilson's score interval at the effective
/// sample size `Σ m / deff` (Kish's design effect, [`Estimate::design_effect`]), so it keeps
/// Wilson's behaviour near 0 and 1 and widens or narrows with the correlation inside clusters.
/// At a proportion of 0 or 1 (no variance to estimate) it is Wilson's interval on the games;
/// where every cluster has the same proportion it has zero width.
#[must_use]
pub fn clustered_wilson(e: &Estimate) -> (f64, f64) {
    if e.games == 0.0 {
        return (0.0, 1.0);
    }
    let deff = e.design_effect();
    if deff.is_nan() {
        return wilson_at(e.value, e.games, z95());
    }
    if deff == 0.0 {
        return (e.value, e.value);
    }
    wilson_at(e.value, e.games / deff, z95())
}

/// The paired difference `R_b - R_a` of the same quantity in two runs on common random numbers
/// (the same seeds game by game, so cluster `k` of one run and of the other share their chance
/// stream), with the standard error of the linearised difference over the common clusters:
/// `se² = K / (K - 1) Σ_k ((y_bk - R_b m_bk) / Σ m_b - (y_ak - R_a m_ak) / Σ m_a)²`. A cluster
/// missing from one run counts as empty there.
#[must_use]
pub fn paired_difference(a: &Clusters, b: &Clusters) -> Estimate {
    paired_difference_of(&couples(a, b))
}

/// The clusters of `a` and `b` coupled by key (a cluster one side lacks is empty).
fn couples(a: &Clusters, b: &Clusters) -> Vec<(Cluster, Cluster)> {
    let keys: std::collections::BTreeSet<u64> = a.keys().chain(b.keys()).copied().collect();
    keys.iter()
        .map(|k| {
            (
                a.get(k).copied().unwrap_or_default(),
                b.get(k).copied().unwrap_or_default(),
            )
        })
        .collect()
}

/// How much the pairing of `b` with `a` on the same chance streams holds: the correlation
/// of the coupled clusters' outcomes (of their linearised residuals, `r_k = (y_k - value
/// m_k) / games`, the terms of the standard errors), and the ratio of the paired
/// difference's standard error to the unpaired one (the two clustered standard errors
/// combined as if independent), `sqrt(Σ (rb - ra)² / Σ (ra² + rb²))`. NaN where either side
/// does not vary.
#[must_use]
pub fn pairing_strength(a: &Clusters, b: &Clusters) -> (f64, f64) {
    let both = couples(a, b);
    let (ea, eb) = (
        Estimate::of_slice(&both.iter().map(|p| p.0).collect::<Vec<_>>()),
        Estimate::of_slice(&both.iter().map(|p| p.1).collect::<Vec<_>>()),
    );
    let (mut saa, mut sbb, mut sab) = (0.0, 0.0, 0.0);
    for (ca, cb) in &both {
        let ra = (ca.y - ea.value * ca.m) / ea.games;
        let rb = (cb.y - eb.value * cb.m) / eb.games;
        (saa, sbb, sab) = (saa + ra * ra, sbb + rb * rb, sab + ra * rb);
    }
    if saa > 0.0 && sbb > 0.0 {
        (
            sab / (saa * sbb).sqrt(),
            ((saa + sbb - 2.0 * sab) / (saa + sbb)).sqrt(),
        )
    } else {
        (f64::NAN, f64::NAN)
    }
}

/// [`paired_difference`] over clusters given as `(a, b)` couples on the same chance stream.
#[must_use]
pub fn paired_difference_of(both: &[(Cluster, Cluster)]) -> Estimate {
    let a: Vec<Cluster> = both.iter().map(|p| p.0).collect();
    let b: Vec<Cluster> = both.iter().map(|p| p.1).collect();
    let (ea, eb) = (Estimate::of_slice(&a), Estimate::of_slice(&b));
    let residual = |c: &Cluster, e: &Estimate| (c.y - e.value * c.m) / e.games;
    let se = if ea.games == 0.0 || eb.games == 0.0 {
        0.0
    } else {
        robust_se(
            both.iter()
                .map(|(ca, cb)| residual(cb, &eb) - residual(ca, &ea)),
        )
    };
    Estimate {
        value: eb.value - ea.value,
        se,
        games: ea.games.min(eb.games),
        clusters: both.len(),
    }
}

/// `sqrt(K / (K - 1) Σ r_k²)` over the linearised residuals `r_k` of `K` clusters; 0 for fewer
/// than two clusters.
fn robust_se(residuals: impl Iterator<Item = f64>) -> f64 {
    let (mut k, mut ss) = (0usize, 0.0f64);
    for r in residuals {
        k += 1;
        ss += r * r;
    }
    if k < 2 {
        0.0
    } else {
        (k as f64 / (k as f64 - 1.0) * ss).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairing_strength_is_the_correlation_of_the_couples() {
        let of = |v: &[f64]| -> Clusters {
            let mut c = Clusters::new();
            for (k, &y) in v.iter().enumerate() {
                add(&mut c, k as u64, y);
            }
            c
        };
        // Outcomes 1, 0, 1, 0 against 1, 0, 0, 1: deviations ±1/2 agree in two couples and
        // disagree in two, so the correlation is 0 and the paired standard error the
        // unpaired one.
        let (r, ratio) = pairing_strength(&of(&[1., 0., 1., 0.]), &of(&[1., 0., 0., 1.]));
        assert!(
            r.abs() < 1e-12 && (ratio - 1.0).abs() < 1e-12,
            "{r} {ratio}"
        );
        // Identical outcomes: correlation 1, no paired error at all.
        let (r, ratio) = pairing_strength(&of(&[1., 0., 1., 1.]), &of(&[1., 0., 1., 1.]));
        assert!(
            (r - 1.0).abs() < 1e-12 && ratio.abs() < 1e-12,
            "{r} {ratio}"
        );
        // Opposite outcomes: correlation -1, the paired error √2 times the unpaired one.
        let (r, ratio) = pairing_strength(&of(&[1., 0., 1., 0.]), &of(&[0., 1., 0., 1.]));
        assert!((r + 1.0).abs() < 1e-12 && (ratio - 2f64.sqrt()).abs() < 1e-12);
        // A side that never varies: undefined.
        assert!(pairing_strength(&of(&[1., 1.]), &of(&[1., 0.])).0.is_nan());
    }

    fn clusters(pairs: &[(f64, f64)]) -> Clusters {
        pairs
            .iter()
            .enumerate()
            .map(|(k, &(y, m))| (k as u64, Cluster { y, m }))
            .collect()
    }

    #[test]
    fn equal_clusters_give_the_variance_of_cluster_means() {
        // Pairs won 2, 0, 1, 1 of 2: mean 1/2; cluster means 1, 0, 1/2, 1/2 have sample
        // variance 1/6, so se² = (1/6) / 4 = 1/24.
        let e = Estimate::of(&clusters(&[(2.0, 2.0), (0.0, 2.0), (1.0, 2.0), (1.0, 2.0)]));
        assert!((e.value - 0.5).abs() < 1e-15);
        assert!((e.se - (1.0f64 / 24.0).sqrt()).abs() < 1e-15, "{}", e.se);
        // Binomial variance 0.25 / 8 = 1/32, so the design effect is 32 / 24.
        assert!((e.design_effect() - 32.0 / 24.0).abs() < 1e-12);
    }

    #[test]
    fn singletons_give_the_binomial_variance_with_the_small_sample_factor() {
        // 3 of 10 independent games: se² = 10/9 · 0.21 / 10.
        let mut c = Clusters::new();
        for k in 0..10 {
            add(&mut c, k, if k < 3 { 1.0 } else { 0.0 });
        }
        let e = Estimate::of(&c);
        assert!((e.se.powi(2) - 0.21 / 9.0).abs() < 1e-15);
        let (lo, hi) = clustered_wilson(&e);
        // Wilson at n = 9 (deff 10/9) for p = 0.3.
        let (l9, h9) = wilson_at(0.3, 9.0, z95());
        assert!((lo - l9).abs() < 1e-12 && (hi - h9).abs() < 1e-12);
    }

    #[test]
    fn a_paired_difference_of_identical_runs_is_zero_with_no_error() {
        let a = clusters(&[(2.0, 2.0), (0.0, 2.0), (1.0, 2.0)]);
        let d = paired_difference(&a, &a);
        assert_eq!((d.value, d.se), (0.0, 0.0));
        // One game changed from a loss to a win: R_a = 1/2, R_b = 2/3, d = 1/6. Residuals
        // (y - R m) / 6 are (1/6, -1/6, 0) in a and (1/9, -2/9, 1/9) in b; their differences
        // (-1/18, -1/18, 1/9) have squares summing to 1/54, so se² = 3/2 · 1/54 = 1/36.
        let b = clusters(&[(2.0, 2.0), (0.0, 2.0), (2.0, 2.0)]);
        let d = paired_difference(&a, &b);
        assert!((d.value - 1.0 / 6.0).abs() < 1e-15);
        assert!((d.se - 1.0 / 6.0).abs() < 1e-15, "{}", d.se);
    }

    #[test]
    fn two_sided_p_of_the_normal_quantiles() {
        assert!((two_sided_p(1.959_963_984_540_054) - 0.05).abs() < 1e-9);
        assert!((two_sided_p(-2.575_829_303_548_901) - 0.01).abs() < 1e-9);
        assert!((two_sided_p(0.0) - 1.0).abs() < 1e-15);
    }
}
