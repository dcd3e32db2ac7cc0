//! The move filter of the `td` agent's two-ply search, after GNU Backgammon's: every candidate
//! is scored at `ply=0` (one batch, [`crate::expectimax::Evaluator::evaluate_moves`]), and only
//! the best `most` of those within `threshold` equity of the best are searched deeper. The
//! search below the kept candidates is the unfiltered one, so whenever the filter keeps the
//! move the full search would choose, the filtered search chooses it too.

/// The indices of the candidates worth a deeper search, given their `ply=0` values: at most
/// `most` of them (`most >= 1`), each within `threshold` of the best, best first (equal values
/// in the order given). Written into `kept`.
pub fn keep(values: &[f64], most: usize, threshold: f64, kept: &mut Vec<usize>) {
    kept.clear();
    kept.extend(0..values.len());
    // Stable: equal values keep the order given.
    kept.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    let Some(&first) = kept.first() else {
        return;
    };
    let floor = values[first] - threshold;
    let within = kept.iter().take_while(|&&i| values[i] >= floor).count();
    kept.truncate(within.min(most.max(1)));
}

#[cfg(test)]
mod tests {
    use super::keep;

    #[test]
    fn keeps_the_best_few_within_the_threshold() {
        let values = [0.10, 0.50, -0.30, 0.45, 0.50, 0.20];
        let mut kept = Vec::new();
        // Within 0.16 of 0.50: 0.50, 0.50 and 0.45 (indices 1, 4, 3; ties in list order).
        keep(&values, 8, 0.16, &mut kept);
        assert_eq!(kept, [1, 4, 3]);
        keep(&values, 2, 0.16, &mut kept);
        assert_eq!(kept, [1, 4]);
        // A wide threshold keeps the best `most`; a zero one only the ties of the best.
        keep(&values, 4, 10.0, &mut kept);
        assert_eq!(kept, [1, 4, 3, 5]);
        keep(&values, 8, 0.0, &mut kept);
        assert_eq!(kept, [1, 4]);
        keep(&[], 8, 0.16, &mut kept);
        assert!(kept.is_empty());
    }
}
