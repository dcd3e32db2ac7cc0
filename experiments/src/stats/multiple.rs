//! Multiple-comparison adjustments of the p-values of a family of hypotheses: Holm's step-down
//! (family-wise error rate) and Benjamini and Hochberg's step-up (false discovery rate).
//!
//! Entries that are NaN are not hypotheses of the family: they are left out and stay NaN.

/// Holm (1979), "A simple sequentially rejective multiple test procedure": with the `m` p-values
/// sorted ascending, `p̃_(i) = max_{j ≤ i} min(1, (m - j + 1) p_(j))`. Rejecting where
/// `p̃ ≤ α` controls the family-wise error rate at `α` under any dependence.
#[must_use]
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = count(p);
    adjust(p, false, |j, x| ((m - j as f64) * x).min(1.0), f64::max)
}

/// Benjamini and Hochberg (1995), "Controlling the false discovery rate": with the `m` p-values
/// sorted ascending, `p̃_(i) = min_{j ≥ i} min(1, m p_(j) / j)`. Rejecting where `p̃ ≤ q`
/// controls the false discovery rate at `q` for independent or positively dependent tests.
#[must_use]
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = count(p);
    adjust(
        p,
        true,
        |j, x| (m * x / (j as f64 + 1.0)).min(1.0),
        f64::min,
    )
}

/// The hypotheses of the family: the p-values that are not NaN.
fn count(p: &[f64]) -> f64 {
    p.iter().filter(|x| !x.is_nan()).count() as f64
}

/// Walks the p-values in ascending order (from the largest when `from_top`), each scaled by
/// `scale(rank from 0, p)`, keeping the running `combine` of the scaled values: the step-down
/// maximum or the step-up minimum.
fn adjust(
    p: &[f64],
    from_top: bool,
    scale: impl Fn(usize, f64) -> f64,
    combine: fn(f64, f64) -> f64,
) -> Vec<f64> {
    let order = ascending(p);
    let mut out = vec![f64::NAN; p.len()];
    let mut running: Option<f64> = None;
    let ranks: Vec<usize> = if from_top {
        (0..order.len()).rev().collect()
    } else {
        (0..order.len()).collect()
    };
    for j in ranks {
        let i = order[j];
        let x = scale(j, p[i]);
        let r = running.map_or(x, |r| combine(r, x));
        running = Some(r);
        out[i] = r;
    }
    out
}

/// Indices of the p-values that are not NaN, in ascending order of p (ties by index).
fn ascending(p: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..p.len()).filter(|&i| !p[i].is_nan()).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Benjamini and Hochberg (1995), section 4: the fifteen p-values of a study of myocardial
    /// infarction treatments, where at level 0.05 the Bonferroni-type procedures reject three
    /// hypotheses and the false-discovery-rate procedure four.
    const BH_1995: [f64; 15] = [
        0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262,
        0.5719, 0.6528, 0.7590, 1.0,
    ];

    #[test]
    fn the_published_example_rejects_three_by_holm_and_four_by_fdr() {
        let rejected = |adj: Vec<f64>| adj.iter().filter(|&&x| x <= 0.05).count();
        assert_eq!(rejected(holm(&BH_1995)), 3);
        assert_eq!(rejected(benjamini_hochberg(&BH_1995)), 4);
    }

    #[test]
    fn adjusted_values_by_hand() {
        // Holm on (0.01, 0.04, 0.03, 0.005): sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1
        // gives 0.02, 0.03, 0.06, 0.04, made monotone: 0.02, 0.03, 0.06, 0.06.
        let h = holm(&[0.01, 0.04, 0.03, 0.005]);
        for (x, want) in h.iter().zip([0.03, 0.06, 0.06, 0.02]) {
            assert!((x - want).abs() < 1e-15, "{h:?}");
        }
        // BH on the same: 4p/rank = 0.02, 0.02, 0.04, 0.04 (ranks 1 to 4 of 0.005, 0.01, 0.03,
        // 0.04), already monotone from the top.
        let b = benjamini_hochberg(&[0.01, 0.04, 0.03, 0.005]);
        for (x, want) in b.iter().zip([0.02, 0.04, 0.04, 0.02]) {
            assert!((x - want).abs() < 1e-15, "{b:?}");
        }
        // NaN entries are not in the family: one hypothesis left, unadjusted.
        let h = holm(&[f64::NAN, 0.2, f64::NAN]);
        assert!(h[0].is_nan() && h[2].is_nan() && (h[1] - 0.2).abs() < 1e-15);
        assert!(holm(&[0.9, 0.8]).iter().all(|&x| x <= 1.0));
    }
}
