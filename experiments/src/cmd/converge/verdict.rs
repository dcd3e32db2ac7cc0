//! The verdict of `cowrie converge`: whether an answer (the first mover's win rate, the draw
//! share) has settled, and whether it swings with the parity of the search depth.
//!
//! An answer is **settled** when both hold: the top rung is shown stronger than the rung below
//! it, by the pair-level score of a seat-swapped match between the two ([`Strength`]), and the
//! last step (from the rung below to the top rung) has a 95% interval within ±[`MARGIN`] of 0.
//! A top rung that plays perfectly from a solved start needs no match. docs/metrics.md
//! (*Convergence with strength*) states the rules.

use crate::stats::ratings::Pentanomial;

/// How far from 0, either way, the last step's 95% interval may reach for the answer to be
/// settled: two points (0.02 of a rate).
pub const MARGIN: f64 = 0.02;

/// A step's paired difference, its interval, and whether the interval excludes 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The rung the step goes to (1-based; the step is from rung `to - 1`).
    pub to: usize,
    /// The paired difference from the previous rung.
    pub diff: f64,
    /// Its 95% interval.
    pub low: f64,
    /// Its 95% interval's high end.
    pub high: f64,
}

impl Step {
    /// Whether the interval excludes 0.
    #[must_use]
    pub fn significant(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }

    /// Whether the interval lies within ±[`MARGIN`] of 0.
    #[must_use]
    pub fn within_margin(&self) -> bool {
        self.low >= -MARGIN && self.high <= MARGIN
    }
}

/// The depth-parity runs of one metric's steps: consecutive steps, each significant, whose signs
/// alternate (each run given by its steps).
#[must_use]
pub fn parity_runs(steps: &[Step]) -> Vec<Vec<Step>> {
    let mut runs: Vec<Vec<Step>> = Vec::new();
    let mut current: Vec<Step> = Vec::new();
    for s in steps {
        let alternates = current
            .last()
            .is_some_and(|p: &Step| p.significant() && s.significant() && p.diff * s.diff < 0.0);
        if alternates {
            current.push(*s);
        } else {
            if current.len() >= 2 {
                runs.push(std::mem::take(&mut current));
            }
            current = vec![*s];
        }
    }
    if current.len() >= 2 {
        runs.push(current);
    }
    runs
}

/// The top rung's pair-level result against the rung below: its mean score per game over the
/// seat-swapped pairs without a truncated game, with a 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// Pairs counted (pairs with a truncated game are left out).
    pub pairs: u64,
    /// The top rung's mean score per game.
    pub score: f64,
    /// The score's 95% interval.
    pub low: f64,
    /// Its upper bound.
    pub high: f64,
    /// The two-sided p-value of a score of ½ (empty where every pair ended alike).
    pub p_value: f64,
}

impl Strength {
    /// The pair-level result of the pairs `p` (from the top rung's view): the pentanomial score,
    /// interval and p-value of [`Pentanomial::pair_level`]; where every pair ended alike (its
    /// variance is 0, the pentanomial interval undefined) the Wilson interval on the mean pair
    /// score of [`Pentanomial::score`], which never has zero width.
    #[must_use]
    pub fn of(p: &Pentanomial) -> Strength {
        let pl = p.pair_level();
        let (low, high) = if pl.low.is_finite() && pl.high.is_finite() {
            (pl.low, pl.high)
        } else {
            let (_, lo, hi) = p.score();
            (lo, hi)
        };
        Strength {
            pairs: p.pairs(),
            score: pl.score,
            low,
            high,
            p_value: pl.p_value,
        }
    }

    /// Whether the top rung is shown stronger: the score's 95% interval lies above ½ (the
    /// pair-level test of a score of ½, two-sided at the 5% level, in the top rung's favour).
    #[must_use]
    pub fn significant(&self) -> bool {
        self.low > 0.5
    }

    fn text(&self) -> String {
        if self.pairs == 0 {
            return "no pair score, every pair has a truncated game".to_string();
        }
        format!(
            "score {:.3} [{:.3}, {:.3}]",
            self.score, self.low, self.high
        )
    }
}

/// What the run knows of the top rung's strength against the rung below.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Top {
    /// The top rung plays perfectly from a solved start: nothing is stronger, no match is needed.
    Solved,
    /// No strength match was played (`--strength-games 0`).
    NotPlayed,
    /// The strength match's pair-level result.
    Played(Strength),
}

impl Top {
    /// Whether the top rung is shown stronger than the rung below (a solved rung is).
    #[must_use]
    pub fn shown_stronger(&self) -> bool {
        match self {
            Top::Solved => true,
            Top::NotPlayed => false,
            Top::Played(s) => s.significant(),
        }
    }

    /// `top_stronger` of `verdict.csv`: `solved`, `not played`, `yes` or `no`.
    #[must_use]
    pub fn column(&self) -> &'static str {
        match self {
            Top::Solved => "solved",
            Top::NotPlayed => "not played",
            Top::Played(s) if s.significant() => "yes",
            Top::Played(_) => "no",
        }
    }

    /// Why the top rung counts as shown stronger or not, in words.
    fn reason(&self) -> String {
        match self {
            Top::Solved => {
                "the top rung plays perfectly from a solved start, so it needs no strength match"
                    .to_string()
            }
            Top::NotPlayed => {
                "the top rung is not shown stronger than the rung below: no strength match was played (--strength-games 0)"
                    .to_string()
            }
            Top::Played(s) if s.significant() => format!(
                "the top rung is shown stronger than the rung below: {}",
                s.text()
            ),
            Top::Played(s) => format!(
                "the top rung is not shown stronger than the rung below: {}",
                s.text()
            ),
        }
    }
}

/// Whether an answer is settled: the top rung is shown stronger than the rung below and the
/// last step's interval lies within ±[`MARGIN`].
#[must_use]
pub fn settled(top: &Top, last: &Step) -> bool {
    top.shown_stronger() && last.within_margin()
}

/// The last step's interval against ±[`MARGIN`], in words.
fn step_reason(last: &Step) -> String {
    let interval = format!("[{:+.3}, {:+.3}]", last.low, last.high);
    if last.within_margin() {
        format!("the last step's interval {interval} lies within ±2 points")
    } else if last.significant() {
        format!("the last step's interval {interval} reaches beyond ±2 points and excludes 0: the answer still moves")
    } else if last.high - last.low > 2.0 * MARGIN {
        format!("the last step's interval {interval} is wider than ±2 points")
    } else {
        format!("the last step's interval {interval} reaches beyond ±2 points")
    }
}

fn step_text(names: &[String], s: &Step) -> String {
    format!(
        "{} to {}: {:+.3} [{:+.3}, {:+.3}]",
        names[s.to - 2],
        names[s.to - 1],
        s.diff,
        s.low,
        s.high
    )
}

/// One answer's verdict in words: settled or not, and each condition that failed (both, when
/// settled), the last step named.
fn answer_text(what: &str, names: &[String], top: &Top, steps: &[Step]) -> String {
    let Some(last) = steps.last() else {
        return format!("{what} has no step");
    };
    let (strength, step) = (top.reason(), step_reason(last));
    let named = format!("{step} ({})", step_text(names, last));
    if settled(top, last) {
        format!("{what} is settled: {strength}, and {named}")
    } else {
        let mut failed = Vec::new();
        if !top.shown_stronger() {
            failed.push(strength);
        }
        if !last.within_margin() {
            failed.push(named);
        }
        format!("{what} is not settled: {}", failed.join("; "))
    }
}

/// The strength match in words: which rungs played, its result and the test.
#[must_use]
pub fn strength_text(names: &[String], top: &Top, games: u64) -> String {
    let n = names.len();
    let (upper, lower) = (&names[n - 1], &names[n - 2]);
    match top {
        Top::Solved => format!(
            "Strength: the top rung ({upper}) plays perfectly from a solved start, so no strength match against the rung below is played: no agent does better."
        ),
        Top::NotPlayed => "Strength: no strength match was played (--strength-games 0), so the top rung is not shown stronger than the rung below and no answer can be settled.".to_string(),
        Top::Played(s) if s.pairs == 0 => format!(
            "Strength: {upper} against {lower}, {games} games in seat-swapped pairs on shared dice: pair score {}, so the top rung is not shown stronger.",
            crate::stats::ratings::NO_PAIR_SCORE
        ),
        Top::Played(s) => format!(
            "Strength: {upper} against {lower}, {games} games in seat-swapped pairs on shared dice: pair score {:.3} [{:.3}, {:.3}] over {} pairs{}; the top rung is shown stronger when this 95% interval lies above 1/2 (the pair-level test of a score of 1/2, two-sided at the 5% level): {}.",
            s.score,
            s.low,
            s.high,
            s.pairs,
            if s.p_value.is_finite() {
                format!(", p = {:.4}", s.p_value)
            } else {
                " (every pair ended alike: Wilson's interval on the pair score)".to_string()
            },
            if s.significant() { "it is" } else { "it is not" }
        ),
    }
}

/// The verdict paragraph: whether the first-mover win rate and the draw share are settled (the
/// draw share where reported, `draws` empty otherwise), then any depth-parity effect
/// (`first_is_seat1`: the side that is both seat 1 and the first mover in every game, if one
/// is). A step into a solved rung (`solved[rung - 1]`) counts for settling (it measures how far
/// the rung before it is from perfect play) but not for depth parity: perfect play is no
/// search depth.
#[must_use]
pub fn verdict_text(
    names: &[String],
    first: &[Step],
    draws: &[Step],
    first_is_seat1: Option<&str>,
    solved: &[bool],
    top: &Top,
) -> String {
    let searched = |steps: &[Step]| -> Vec<Step> {
        steps
            .iter()
            .filter(|s| !solved.get(s.to - 1).copied().unwrap_or(false))
            .copied()
            .collect()
    };
    let first_what = format!(
        "the first mover's win rate{}",
        first_is_seat1.map_or_else(String::new, |side| format!(
            " (the first mover is seat 1, the {side}, in every game)"
        ))
    );
    let mut text = format!("Verdict: {}", answer_text(&first_what, names, top, first));
    if !draws.is_empty() {
        text += "; ";
        text += &answer_text("the draw share", names, top, draws);
    }
    text += ".";
    let parity = |what: &str, runs: &[Vec<Step>]| {
        if runs.is_empty() {
            format!(" No depth-parity effect in the {what}: no two consecutive steps are both significant with opposite signs.")
        } else {
            let shown: Vec<String> = runs
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|s| step_text(names, s))
                        .collect::<Vec<_>>()
                        .join(", then ")
                })
                .collect();
            format!(
                " Depth-parity effect in the {what}: consecutive steps alternate in sign, each significant ({}).",
                shown.join("; ")
            )
        }
    };
    text += &parity("first mover's win rate", &parity_runs(&searched(first)));
    if !draws.is_empty() {
        text += &parity("draw share", &parity_runs(&searched(draws)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(to: usize, diff: f64, half: f64) -> Step {
        Step {
            to,
            diff,
            low: diff - half,
            high: diff + half,
        }
    }

    fn names(n: usize) -> Vec<String> {
        (1..=n).map(|k| format!("a{k}")).collect()
    }

    /// A strength match of `pairs` pairs: `counts` by the top rung's points `[0, ½, 1, 1½, 2]`.
    fn played(counts: [u64; 5]) -> Top {
        Top::Played(Strength::of(&Pentanomial {
            counts,
            truncated: 0,
        }))
    }

    #[test]
    fn the_pair_score_and_its_interval_are_the_pentanomial_ones_worked_by_hand() {
        // 100 pairs: 10 lost 0-2, 20 split 1-1 with no draw, 70 won 2-0. The pair scores
        // halved are 0, 0.5 and 1: mean s = (0.5·20 + 70)/100 = 0.8; variance
        // σ² = (10·0.64 + 20·0.09 + 70·0.04)/100 = (6.4 + 1.8 + 2.8)/100 = 0.11;
        // se = √(0.11/100) = 0.0331662; half-width 1.959964 · 0.0331662 = 0.0650046.
        let Top::Played(s) = played([10, 0, 20, 0, 70]) else {
            unreachable!()
        };
        assert_eq!(s.pairs, 100);
        assert!((s.score - 0.8).abs() < 1e-12);
        assert!((s.low - 0.734_995_4).abs() < 1e-6, "{}", s.low);
        assert!((s.high - 0.865_004_6).abs() < 1e-6, "{}", s.high);
        assert!(s.significant());
        // 40 pairs: 12 lost, 16 split, 12 won: s = (8 + 12)/40 = 0.5 exactly, σ² =
        // (12·0.25 + 12·0.25)/40 = 0.15, se = √(0.15/40) = 0.0612372, half 0.1200226.
        let Top::Played(even) = played([12, 0, 16, 0, 12]) else {
            unreachable!()
        };
        assert!((even.low - 0.379_977_4).abs() < 1e-6, "{}", even.low);
        assert!((even.p_value - 1.0).abs() < 1e-12);
        assert!(!even.significant());
    }

    #[test]
    fn a_match_whose_pairs_all_ended_alike_keeps_an_interval() {
        // Eight pairs all won 2-0: the pentanomial variance is 0; Wilson's interval on a mean
        // of 1 over n = 8 has its low end at n/(n + z²) = 8/(8 + 3.841459) = 0.6755924.
        let Top::Played(s) = played([0, 0, 0, 0, 8]) else {
            unreachable!()
        };
        assert!((s.low - 0.675_592_4).abs() < 1e-6, "{}", s.low);
        assert_eq!(s.high, 1.0);
        assert!(s.p_value.is_nan());
        assert!(s.significant());
        // All split: score ½ with Wilson's interval about it, not significant.
        let Top::Played(s) = played([0, 0, 8, 0, 0]) else {
            unreachable!()
        };
        assert!(s.low < 0.5 && s.high > 0.5 && !s.significant());
    }

    #[test]
    fn the_margin_is_two_points_either_way_inclusive() {
        let at = |low: f64, high: f64| Step {
            to: 2,
            diff: (low + high) / 2.0,
            low,
            high,
        };
        assert!(at(-0.02, 0.02).within_margin());
        assert!(at(-0.019, 0.005).within_margin());
        // A significant step smaller than two points is within the margin.
        assert!(at(0.004, 0.016).within_margin());
        assert!(!at(-0.0201, 0.01).within_margin());
        assert!(!at(-0.01, 0.0201).within_margin());
        assert!(!at(-0.06, 0.07).within_margin());
    }

    #[test]
    fn settled_needs_both_a_stronger_top_rung_and_a_narrow_last_step() {
        let n = names(3);
        let strong = played([10, 0, 20, 0, 70]);
        let weak = played([12, 0, 16, 0, 12]);
        let narrow = [step(2, 0.3, 0.1), step(3, 0.004, 0.012)];
        let wide = [step(2, 0.3, 0.1), step(3, 0.005, 0.065)];
        // Both hold.
        assert!(settled(&strong, &narrow[1]));
        let t = verdict_text(&n, &narrow, &narrow, None, &[false; 3], &strong);
        assert!(
            t.starts_with("Verdict: the first mover's win rate is settled: the top rung is shown stronger than the rung below: score 0.800 [0.735, 0.865], and the last step's interval [-0.008, +0.016] lies within ±2 points (a2 to a3: +0.004 [-0.008, +0.016])"),
            "{t}"
        );
        assert!(t.contains("; the draw share is settled"), "{t}");
        // The strength condition fails alone.
        assert!(!settled(&weak, &narrow[1]));
        let t = verdict_text(&n, &narrow, &[], None, &[false; 3], &weak);
        assert!(
            t.contains("is not settled: the top rung is not shown stronger than the rung below: score 0.500 [0.380, 0.620]."),
            "{t}"
        );
        assert!(!t.contains("last step's interval"), "{t}");
        assert!(!t.contains("draw share"), "{t}");
        // The interval condition fails alone.
        assert!(!settled(&strong, &wide[1]));
        let t = verdict_text(&n, &wide, &[], None, &[false; 3], &strong);
        assert!(
            t.contains("is not settled: the last step's interval [-0.060, +0.070] is wider than ±2 points (a2 to a3: +0.005 [-0.060, +0.070])"),
            "{t}"
        );
        assert!(!t.contains("top rung"), "{t}");
        // Both fail: both are said.
        let t = verdict_text(&n, &wide, &[], None, &[false; 3], &weak);
        assert!(
            t.contains("not shown stronger than the rung below: score 0.500 [0.380, 0.620]; the last step's interval [-0.060, +0.070] is wider"),
            "{t}"
        );
        // No match played: never settled, and said so.
        assert!(!settled(&Top::NotPlayed, &narrow[1]));
        let t = verdict_text(&n, &narrow, &[], None, &[false; 3], &Top::NotPlayed);
        assert!(t.contains("not settled: the top rung is not shown stronger than the rung below: no strength match was played (--strength-games 0)"), "{t}");
        // A narrow interval about 0 that reaches past the margin.
        let edge = [step(2, 0.3, 0.1), step(3, 0.01, 0.015)];
        let t = verdict_text(&n, &edge, &[], None, &[false; 3], &strong);
        assert!(
            t.contains("is not settled: the last step's interval [-0.005, +0.025] reaches beyond ±2 points ("),
            "{t}"
        );
        // A step away from 0 is a real move, not settled.
        let moved = [step(2, 0.3, 0.1), step(3, -0.295, 0.059)];
        let t = verdict_text(&n, &moved, &[], None, &[false; 3], &strong);
        assert!(
            t.contains("the last step's interval [-0.354, -0.236] reaches beyond ±2 points and excludes 0: the answer still moves"),
            "{t}"
        );
    }

    #[test]
    fn a_solved_top_rung_needs_no_match_but_its_step_still_counts() {
        let n = names(3);
        let solved = [false, false, true];
        let narrow = [step(2, 0.3, 0.1), step(3, 0.0, 0.015)];
        let t = verdict_text(&n, &narrow, &[], None, &solved, &Top::Solved);
        assert!(
            t.contains("is settled: the top rung plays perfectly from a solved start, so it needs no strength match, and the last step's interval"),
            "{t}"
        );
        let wide = [step(2, 0.3, 0.1), step(3, 0.0, 0.05)];
        let t = verdict_text(&n, &wide, &[], None, &solved, &Top::Solved);
        assert!(
            t.contains("is not settled: the last step's interval"),
            "{t}"
        );
        assert_eq!(Top::Solved.column(), "solved");
        assert!(strength_text(&n, &Top::Solved, 0).contains("no strength match"));
    }

    #[test]
    fn a_step_into_a_solved_rung_is_no_depth_parity() {
        let n: Vec<String> = ["d1", "d2", "d3", "perfect"]
            .iter()
            .map(ToString::to_string)
            .collect();
        let first = [step(2, 0.3, 0.1), step(3, -0.3, 0.1), step(4, 0.3, 0.1)];
        let flat = [step(2, 0.0, 0.1), step(3, 0.0, 0.1), step(4, 0.0, 0.1)];
        let plain = verdict_text(&n, &first, &flat, None, &[false; 4], &Top::NotPlayed);
        assert!(plain.contains("then d3 to perfect"), "{plain}");
        let solved = [false, false, false, true];
        let t = verdict_text(&n, &first, &flat, None, &solved, &Top::Solved);
        assert!(!t.contains("then d3 to perfect"), "{t}");
        assert!(
            t.contains("d1 to d2: +0.300 [+0.200, +0.400], then d2 to d3"),
            "{t}"
        );
        // The step into the solved rung still decides whether the answer has settled.
        assert!(t.contains("win rate is not settled"), "{t}");
        assert!(t.contains("(d3 to perfect: +0.300"), "{t}");
    }

    #[test]
    fn parity_runs_are_consecutive_significant_steps_of_alternating_sign() {
        // + - + significant, then an insignificant step, then - + significant.
        let steps = [
            step(2, 0.3, 0.1),
            step(3, -0.2, 0.1),
            step(4, 0.25, 0.1),
            step(5, 0.01, 0.1),
            step(6, -0.3, 0.1),
            step(7, 0.3, 0.1),
            step(8, 0.3, 0.1),
        ];
        let tos: Vec<Vec<usize>> = parity_runs(&steps)
            .iter()
            .map(|r| r.iter().map(|s| s.to).collect())
            .collect();
        assert_eq!(tos, vec![vec![2, 3, 4], vec![6, 7]]);
        // Same signs never make a run.
        assert!(parity_runs(&[step(2, 0.3, 0.1), step(3, 0.3, 0.1)]).is_empty());
    }
}
