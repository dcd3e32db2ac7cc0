//! Honest summaries: proportions with 95% Wilson score intervals, and game-length statistics.

use statrs::distribution::{ContinuousCDF, Normal};

/// The two-sided 95% standard-normal quantile (about 1.96), from statrs.
#[must_use]
pub fn z95() -> f64 {
    Normal::new(0.0, 1.0)
        .expect("the standard normal exists")
        .inverse_cdf(0.975)
}

/// The Wilson score interval (Wilson 1927) for `k` successes in `n` trials at quantile `z`, as
/// fractions in `[0, 1]`; `(0, 1)` when `n` is 0.
#[must_use]
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    wilson_at(k as f64 / n as f64, n as f64, z)
}

/// The Wilson score interval of a proportion `p` observed over `n` trials, `n` not necessarily
/// whole (an effective sample size, [`crate::stats::clustered::clustered_wilson`]); `n` > 0.
#[must_use]
pub fn wilson_at(p: f64, n: f64, z: f64) -> (f64, f64) {
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One seat's result in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatResult {
    /// The seat won.
    Win,
    /// A draw.
    Draw,
    /// The other seat won.
    Loss,
    /// No result (truncated or unfinished).
    Unresolved,
}

impl SeatResult {
    /// The seat's score: 1 for a win, ½ for a draw, 0 for a loss, `None` without a result.
    #[must_use]
    pub fn score(self) -> Option<f64> {
        match self {
            SeatResult::Win => Some(1.0),
            SeatResult::Draw => Some(0.5),
            SeatResult::Loss => Some(0.0),
            SeatResult::Unresolved => None,
        }
    }
}

/// Wins, draws, losses and truncations of one seat, side or agent over `n` games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games counted.
    pub n: u64,
    /// Games won.
    pub wins: u64,
    /// Draws by the rules.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Games ended by the ply cap (neither won nor drawn).
    pub truncated: u64,
}

impl Tally {
    /// Counts one game with result `r`.
    pub fn add(&mut self, r: SeatResult) {
        self.n += 1;
        match r {
            SeatResult::Win => self.wins += 1,
            SeatResult::Draw => self.draws += 1,
            SeatResult::Loss => self.losses += 1,
            SeatResult::Unresolved => self.truncated += 1,
        }
    }

    /// Win rate as a fraction of all `n` games (draws and truncations included in `n`).
    #[must_use]
    pub fn win_rate(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.wins as f64 / self.n as f64
        }
    }

    /// The 95% Wilson interval of the win rate.
    #[must_use]
    pub fn win_interval(&self) -> (f64, f64) {
        wilson(self.wins, self.n, z95())
    }

    /// The CSV columns [`Tally::CSV_COLUMNS`] names: counts, then the win rate and its interval
    /// as fractions to six decimals.
    #[must_use]
    pub fn csv_fields(&self) -> Vec<String> {
        let (lo, hi) = self.win_interval();
        vec![
            self.n.to_string(),
            self.wins.to_string(),
            self.draws.to_string(),
            self.losses.to_string(),
            self.truncated.to_string(),
            format!("{:.6}", self.win_rate()),
            format!("{lo:.6}"),
            format!("{hi:.6}"),
        ]
    }

    /// Names of the columns [`Tally::csv_fields`] writes.
    pub const CSV_COLUMNS: [&'static str; 8] = [
        "games",
        "wins",
        "draws",
        "losses",
        "truncated",
        "win_rate",
        "ci95_low",
        "ci95_high",
    ];
}

/// Length statistics of a sample (plies or turns).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Lengths {
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation (n - 1 in the denominator; 0 for fewer than two values).
    pub sd: f64,
    /// Median: the middle value, or the mean of the two middle values for an even count.
    pub median: f64,
    /// First quartile (linear interpolation between order statistics, as numpy's default).
    pub q1: f64,
    /// Third quartile (same method).
    pub q3: f64,
    /// Largest value.
    pub max: u32,
}

impl Lengths {
    /// Statistics of `values` (all zero when empty).
    #[must_use]
    pub fn of(values: &[u32]) -> Lengths {
        if values.is_empty() {
            return Lengths::default();
        }
        let n = values.len() as f64;
        let mean = values.iter().map(|&v| f64::from(v)).sum::<f64>() / n;
        let sd = if values.len() > 1 {
            (values
                .iter()
                .map(|&v| (f64::from(v) - mean).powi(2))
                .sum::<f64>()
                / (n - 1.0))
                .sqrt()
        } else {
            0.0
        };
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        let m = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            f64::from(sorted[m])
        } else {
            (f64::from(sorted[m - 1]) + f64::from(sorted[m])) / 2.0
        };
        Lengths {
            mean,
            sd,
            median,
            q1: quantile(&sorted, 0.25),
            q3: quantile(&sorted, 0.75),
            max: *sorted.last().expect("non-empty"),
        }
    }
}

/// The `q`-quantile of sorted values by linear interpolation between order statistics
/// (Hyndman and Fan's type 7, numpy's default).
fn quantile(sorted: &[u32], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    f64::from(sorted[lo]) + (h - lo as f64) * (f64::from(sorted[hi]) - f64::from(sorted[lo]))
}

/// Newcombe's hybrid score interval (1998, method 10) for the difference `p1 - p2` of two
/// independent proportions `k1/n1` and `k2/n2`, from their Wilson intervals at quantile `z`.
#[must_use]
pub fn newcombe_difference(k1: u64, n1: u64, k2: u64, n2: u64, z: f64) -> (f64, f64) {
    let p1 = if n1 == 0 { 0.0 } else { k1 as f64 / n1 as f64 };
    let p2 = if n2 == 0 { 0.0 } else { k2 as f64 / n2 as f64 };
    let (l1, u1) = wilson(k1, n1, z);
    let (l2, u2) = wilson(k2, n2, z);
    let d = p1 - p2;
    (
        d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt(),
        d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_published_values() {
        // Newcombe (1998), Statistics in Medicine 17:857-872, Table I: 81 of 263 gives the Wilson
        // interval 0.2553 to 0.3662; 15 of 148 gives 0.0624 to 0.1605.
        let (lo, hi) = wilson(81, 263, z95());
        assert!(
            (lo - 0.2553).abs() < 5e-5 && (hi - 0.3662).abs() < 5e-5,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(15, 148, z95());
        assert!(
            (lo - 0.0624).abs() < 5e-5 && (hi - 0.1605).abs() < 5e-5,
            "{lo} {hi}"
        );
        // 0 of 20: 0 to 0.1611; 1 of 29: 0.0061 to 0.1718 (same table).
        let (lo, hi) = wilson(0, 20, z95());
        assert!(lo.abs() < 1e-12 && (hi - 0.1611).abs() < 5e-5, "{lo} {hi}");
        let (lo, hi) = wilson(1, 29, z95());
        assert!(
            (lo - 0.0061).abs() < 5e-5 && (hi - 0.1718).abs() < 5e-5,
            "{lo} {hi}"
        );
    }

    #[test]
    fn z95_is_the_normal_quantile() {
        assert!((z95() - 1.959_963_985).abs() < 1e-8);
    }

    #[test]
    fn newcombe_matches_the_published_example() {
        // Newcombe (1998), Statistics in Medicine 17:873-890, Table II, example (a):
        // 56/70 - 48/80 = 0.2, method 10 interval 0.0524 to 0.3339.
        let (lo, hi) = newcombe_difference(56, 70, 48, 80, z95());
        assert!(
            (lo - 0.0524).abs() < 5e-5 && (hi - 0.3339).abs() < 5e-5,
            "{lo} {hi}"
        );
    }

    #[test]
    fn quartiles() {
        let l = Lengths::of(&[1, 2, 3, 4, 5]);
        assert_eq!((l.q1, l.q3), (2.0, 4.0));
        let l = Lengths::of(&[10, 20, 30, 40]);
        assert_eq!((l.q1, l.q3), (17.5, 32.5));
    }

    #[test]
    fn lengths() {
        let l = Lengths::of(&[1, 2, 3, 4]);
        assert_eq!(l.median, 2.5);
        assert_eq!(l.mean, 2.5);
        assert_eq!(l.max, 4);
        assert!((l.sd - 1.290_994_448_7).abs() < 1e-9);
        assert_eq!(Lengths::of(&[5, 1, 3]).median, 3.0);
    }
}
