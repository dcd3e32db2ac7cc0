//! The metrics of a self-play run (`cowrie advantage`, `cowrie compare`, `cowrie study`),
//! computed from its `games.csv` (and `subgames.csv`), game by game and clustered by
//! seat-swapped pair, with the hypotheses a comparison declares. docs/metrics.md gives every
//! formula.
//!
//! Each metric carries, beside the interval that treats games as independent (Wilson; Newcombe
//! for differences), the interval clustered by pair (for the games inside Julbahar matches, by
//! pair of matches), its design effect, the paired difference from the reference rule set on
//! common random numbers, and for the declared hypotheses a p-value with its Holm and
//! Benjamini-Hochberg adjustments over the family.

use std::path::Path;

use crate::games::Report;
use crate::run::record::{read_games, read_subgames, End, FullRow, GameRow, SubgameRow};
use crate::stats::clustered::{
    add, clustered_wilson, paired_difference, pairing_strength, Clusters, Estimate,
};
use crate::stats::intervals::{newcombe_difference, wilson, z95, Lengths};
use crate::stats::multiple::{benjamini_hochberg, holm};

/// A metric game by game: per cluster, the total and the games; for a win rate also the
/// counted player's wins minus the other player's (the statistic of the test of equal wins).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    /// Per cluster: the metric's total over its games, and the games.
    pub values: Clusters,
    /// Per cluster: wins minus the other player's wins (win rates only).
    pub balance: Option<Clusters>,
}

impl Series {
    /// Adds one game: its value and, for a win rate, whether the counted player won
    /// (`Some(true)`), the other did (`Some(false)`) or nobody did (`None`).
    fn push(&mut self, key: u64, value: f64, won: Option<Option<bool>>) {
        add(&mut self.values, key, value);
        if let Some(w) = won {
            let b = self.balance.get_or_insert_with(Clusters::new);
            add(b, key, w.map_or(0.0, |x| if x { 1.0 } else { -1.0 }));
        }
    }

    /// Adds one game to a win rate: who won, from the counted player's view.
    fn push_win(&mut self, key: u64, won: Option<bool>) {
        self.push(key, f64::from(u8::from(won == Some(true))), Some(won));
    }

    /// Adds one game to a rate with no test of its own.
    fn push_flag(&mut self, key: u64, flag: bool) {
        self.push(key, f64::from(u8::from(flag)), None);
    }

    /// Successes and games.
    fn count(&self) -> (u64, u64) {
        let (k, n) = self
            .values
            .values()
            .fold((0.0, 0.0), |(k, n), c| (k + c.y, n + c.m));
        (k as u64, n as u64)
    }
}

/// What one rule set's games gave.
#[derive(Clone, Debug, Default)]
pub struct RuleSetStats {
    /// The rule set.
    pub name: String,
    /// Games.
    pub games: u64,
    /// Seat 1's wins.
    pub seat1_wins: Series,
    seat2_wins: u64,
    /// The first mover's wins.
    pub first_mover_wins: Series,
    decided: Series,
    draws: Series,
    truncated: Series,
    plies_series: Series,
    turns_series: Series,
    /// Plies per game.
    pub plies: Lengths,
    /// Turns per game.
    pub turns: Lengths,
    branching: f64,
    decisions: f64,
    /// Wins of the first player to enter a piece (games with a `first_entered` column).
    pub first_enterer_wins: Option<Series>,
    /// The games inside the matches (games that play matches).
    pub subgames: Option<Subgames>,
}

/// The games inside matches, from `subgames.csv`, clustered by pair of matches.
#[derive(Clone, Debug, Default)]
pub struct Subgames {
    /// Games begun inside the matches.
    pub games: u64,
    seat1_wins: Series,
    /// Wins of each game's first mover.
    pub first_mover_wins: Series,
    unfinished: Series,
    /// First-mover wins among the games finished by a bear-off.
    first_mover_wins_finished: Series,
}

/// Whether the seat `winner` won from the view of the counted seat `who`: `Some(true)` if it
/// won, `Some(false)` if another did, `None` without a winner. A counted seat of `None` (no
/// such player in the game) loses every decided game.
fn won_by(winner: Option<u8>, who: Option<u8>) -> Option<bool> {
    winner.map(|w| Some(w) == who)
}

/// The statistics of the games inside the matches, from the rows of a `subgames.csv`:
/// clustered by the match's pair, per game its first mover and who won it.
#[must_use]
pub fn subgame_stats<G: Report>(rows: &[SubgameRow<G>]) -> Option<Subgames> {
    if !G::PLAYS_MATCHES {
        return None;
    }
    let mut t = Subgames::default();
    for (key, g) in rows {
        let o = G::subgame_outcome(g)?;
        let (k, first) = (key.pair_index, Some(o.first_mover_seat));
        t.games += 1;
        t.seat1_wins.push_win(k, won_by(o.winner_seat, Some(1)));
        t.first_mover_wins.push_win(k, won_by(o.winner_seat, first));
        t.unfinished.push_flag(k, o.winner_seat.is_none());
        if o.winner_seat.is_some() {
            t.first_mover_wins_finished
                .push_win(k, won_by(o.winner_seat, first));
        }
    }
    Some(t)
}

/// Wins of the player who first entered a piece (None for games without entering).
#[must_use]
pub fn first_enterer_wins<G: Report>(rows: &[FullRow<G>]) -> Option<Series> {
    let mut s = Series::default();
    for (row, columns) in rows {
        let entry = G::first_entry(columns)?;
        s.push_win(row.pair_index, won_by(row.winner_seat, entry.seat));
    }
    G::first_entry(&G::Columns::default()).map(|_| s)
}

/// The statistics of the run of game `G` in `dir` (its `games.csv`, and its `subgames.csv`
/// where the game plays matches), under the rule set's name `name`.
///
/// # Errors
/// An unreadable file or a row of the wrong shape, naming the file.
pub fn run_stats<G: Report>(name: &str, dir: &Path) -> anyhow::Result<RuleSetStats> {
    let rows = read_games::<G>(&dir.join("games.csv"))?;
    let base: Vec<GameRow> = rows.iter().map(|(r, _)| r.clone()).collect();
    let mut s = stats_of(name, &base);
    s.first_enterer_wins = first_enterer_wins::<G>(&rows);
    if G::PLAYS_MATCHES {
        s.subgames = subgame_stats::<G>(&read_subgames::<G>(&dir.join("subgames.csv"))?);
    }
    Ok(s)
}

/// The statistics of one rule set's rows of `games.csv` (a seat-swapped run).
#[must_use]
pub fn stats_of(name: &str, rows: &[GameRow]) -> RuleSetStats {
    let mut s = RuleSetStats {
        name: name.to_string(),
        games: rows.len() as u64,
        ..RuleSetStats::default()
    };
    for r in rows {
        // The game's pair: a seat-swapped pair's two games share their dice and are one
        // cluster; a game of a run without seat swap is its own.
        let key = r.pair_index;
        let winner = r.winner_seat;
        s.seat1_wins.push_win(key, winner.map(|w| w == 1));
        s.seat2_wins += u64::from(winner == Some(2));
        s.first_mover_wins
            .push_win(key, winner.map(|w| Some(w) == r.first_mover_seat));
        s.decided.push_flag(key, winner.is_some());
        s.draws.push_flag(key, r.end_reason == End::Draw);
        s.truncated.push_flag(key, r.end_reason == End::Truncated);
        s.plies_series.push(key, f64::from(r.plies), None);
        s.turns_series.push(key, f64::from(r.turns), None);
    }
    let plies: Vec<u32> = rows.iter().map(|r| r.plies).collect();
    let turns: Vec<u32> = rows.iter().map(|r| r.turns).collect();
    let total_plies: u64 = plies.iter().map(|&p| u64::from(p)).sum();
    let ratio = |x: u64| {
        if total_plies == 0 {
            0.0
        } else {
            x as f64 / total_plies as f64
        }
    };
    s.plies = Lengths::of(&plies);
    s.turns = Lengths::of(&turns);
    s.branching = ratio(rows.iter().map(|r| r.branching_sum).sum());
    s.decisions = ratio(rows.iter().map(|r| r.choices).sum());
    s
}

/// One metric of one rule set: its value and intervals, its difference from the reference
/// rule set, and the p-values of the hypotheses it declares (NaN where none; NaN stands for an
/// empty CSV field throughout).
#[derive(Clone, Debug)]
pub struct Metric {
    /// The metric's name (docs/metrics.md).
    pub name: &'static str,
    /// Its value.
    pub value: f64,
    /// The 95% interval treating games as independent (Wilson, or mean ± z sd / √N).
    pub ci: (f64, f64),
    /// The difference from the reference and Newcombe's (or Welch's) interval of it.
    pub diff: (f64, f64, f64),
    /// What the clustered interval clusters by: `pair`, `match pair`, or empty.
    pub cluster: &'static str,
    /// The 95% interval clustered by `cluster`.
    pub clustered: (f64, f64),
    /// The design effect of a proportion (clustered variance over binomial variance).
    pub design_effect: f64,
    /// The 95% interval of the paired difference from the reference on common random numbers.
    pub paired: (f64, f64),
    /// The correlation of the paired clusters' outcomes between this rule set and the
    /// reference, and the ratio of the paired difference's standard error to the unpaired
    /// one's ([`pairing_strength`]); NaN for the reference and for metrics without clusters.
    pub pairing: (f64, f64),
    /// The p-value of "the counted player wins as often as the other" (declared win rates).
    pub p_value: f64,
    /// Holm's adjustment of `p_value` over the family.
    pub p_holm: f64,
    /// Benjamini and Hochberg's adjustment of `p_value` over the family.
    pub p_bh: f64,
    /// The p-value of "no paired difference from the reference" (declared win rates).
    pub diff_p_value: f64,
    /// Holm's adjustment of `diff_p_value` over the family.
    pub diff_p_holm: f64,
    /// Benjamini and Hochberg's adjustment of `diff_p_value` over the family.
    pub diff_p_bh: f64,
}

const NONE: (f64, f64) = (f64::NAN, f64::NAN);

impl Metric {
    fn plain(name: &'static str, value: f64, reference: f64) -> Metric {
        Metric {
            name,
            value,
            ci: NONE,
            diff: (value - reference, f64::NAN, f64::NAN),
            cluster: "",
            clustered: NONE,
            design_effect: f64::NAN,
            paired: NONE,
            pairing: NONE,
            p_value: f64::NAN,
            p_holm: f64::NAN,
            p_bh: f64::NAN,
            diff_p_value: f64::NAN,
            diff_p_holm: f64::NAN,
            diff_p_bh: f64::NAN,
        }
    }

    /// A proportion and its difference from the reference; `declared`: whether its tests are
    /// hypotheses of the family.
    fn proportion(
        name: &'static str,
        cluster: &'static str,
        s: &Series,
        reference: &Series,
        declared: bool,
    ) -> Metric {
        let z = z95();
        let ((k, n), (fk, fnn)) = (s.count(), reference.count());
        let rate = |k: u64, n: u64| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        let (value, fv) = (rate(k, n), rate(fk, fnn));
        let (dl, dh) = newcombe_difference(k, n, fk, fnn, z);
        let e = Estimate::of(&s.values);
        let paired = paired_difference(&reference.values, &s.values);
        let test = |b: &Option<Clusters>| {
            b.as_ref()
                .filter(|_| declared)
                .map_or(f64::NAN, |b| Estimate::of(b).p_value(0.0))
        };
        Metric {
            ci: wilson(k, n, z),
            diff: (value - fv, dl, dh),
            cluster,
            clustered: clustered_wilson(&e),
            design_effect: e.design_effect(),
            paired: paired.normal_interval(),
            pairing: pairing_strength(&reference.values, &s.values),
            p_value: test(&s.balance),
            diff_p_value: if declared {
                paired.p_value(0.0)
            } else {
                f64::NAN
            },
            ..Metric::plain(name, value, fv)
        }
    }

    /// A mean length and its difference from the reference.
    fn mean(name: &'static str, l: Lengths, s: &Series, fl: Lengths, f: &Series) -> Metric {
        let z = z95();
        let (n, fnn) = (s.count().1, f.count().1);
        let se = |x: Lengths, m: u64| x.sd * x.sd / m.max(1) as f64;
        let half = z * (se(l, n) + se(fl, fnn)).sqrt();
        let own = z * se(l, n).sqrt();
        let d = l.mean - fl.mean;
        let e = Estimate::of(&s.values);
        let h = z * e.se;
        Metric {
            ci: (l.mean - own, l.mean + own),
            diff: (d, d - half, d + half),
            cluster: "pair",
            clustered: (l.mean - h, l.mean + h),
            paired: paired_difference(&f.values, &s.values).normal_interval(),
            pairing: pairing_strength(&f.values, &s.values),
            ..Metric::plain(name, l.mean, fl.mean)
        }
    }
}

/// The metrics of rule set `s` against the reference `first` (the first rule set of the
/// comparison). The declared hypotheses are, for each rule set, that the first mover (or seat
/// 1, the first player to enter, the first mover of each game inside a match) wins as often as
/// the other player, and for each rule set but the reference that its paired difference from
/// the reference is 0; a test on exactly the same games as one declared before it (the first
/// mover is seat 1 in every game) is not declared again.
#[must_use]
pub fn metrics<'a>(s: &'a RuleSetStats, first: &'a RuleSetStats) -> Vec<Metric> {
    let is_reference = std::ptr::eq(s, first);
    let mut declared: Vec<(&'a Series, &'a Series)> = Vec::new();
    let mut new_test = |x: &'a Series, fx: &'a Series| -> bool {
        let same = declared.iter().any(|(y, fy)| {
            y.balance == x.balance
                && (is_reference || (y.values == x.values && fy.values == fx.values))
        });
        if !same {
            declared.push((x, fx));
        }
        !same
    };
    let balance = |x: &RuleSetStats| {
        let (k1, _) = x.seat1_wins.count();
        1.0 - (k1 as f64 - x.seat2_wins as f64).abs() / x.games.max(1) as f64
    };
    let adv = new_test(&s.seat1_wins, &first.seat1_wins);
    let fm = new_test(&s.first_mover_wins, &first.first_mover_wins);
    let mut out = vec![
        Metric::proportion(
            "advantage_p1",
            "pair",
            &s.seat1_wins,
            &first.seat1_wins,
            adv,
        ),
        Metric::proportion(
            "first_mover_win_rate",
            "pair",
            &s.first_mover_wins,
            &first.first_mover_wins,
            fm,
        ),
        Metric::plain("balance", balance(s), balance(first)),
        Metric::proportion("completion", "pair", &s.decided, &first.decided, false),
        Metric::proportion("drawishness", "pair", &s.draws, &first.draws, false),
        Metric::proportion("timeouts", "pair", &s.truncated, &first.truncated, false),
        Metric::mean(
            "duration_plies",
            s.plies,
            &s.plies_series,
            first.plies,
            &first.plies_series,
        ),
        Metric::mean(
            "duration_turns",
            s.turns,
            &s.turns_series,
            first.turns,
            &first.turns_series,
        ),
        Metric::plain("branching_factor", s.branching, first.branching),
        Metric::plain("decision_moves", s.decisions, first.decisions),
    ];
    if let (Some(c), Some(f)) = (&s.first_enterer_wins, &first.first_enterer_wins) {
        let t = new_test(c, f);
        out.push(Metric::proportion(
            "first_enterer_win_rate",
            "pair",
            c,
            f,
            t,
        ));
    }
    if let (Some(g), Some(f)) = (&s.subgames, &first.subgames) {
        out.push(Metric::plain("subgames", g.games as f64, f.games as f64));
        let mp = "match pair";
        out.push(Metric::proportion(
            "subgame_seat1_win_rate",
            mp,
            &g.seat1_wins,
            &f.seat1_wins,
            false,
        ));
        let t = new_test(&g.first_mover_wins, &f.first_mover_wins);
        out.push(Metric::proportion(
            "subgame_first_mover_win_rate",
            mp,
            &g.first_mover_wins,
            &f.first_mover_wins,
            t,
        ));
        out.push(Metric::proportion(
            "subgame_unfinished",
            mp,
            &g.unfinished,
            &f.unfinished,
            false,
        ));
        out.push(Metric::proportion(
            "subgame_first_mover_win_rate_finished",
            mp,
            &g.first_mover_wins_finished,
            &f.first_mover_wins_finished,
            false,
        ));
    }
    if is_reference {
        // The reference: its difference from itself is 0 by construction, not an estimate,
        // and not a hypothesis.
        for m in &mut out {
            m.diff = (0.0, 0.0, 0.0);
            if !m.paired.0.is_nan() {
                m.paired = (0.0, 0.0);
            }
            m.diff_p_value = f64::NAN;
            m.pairing = NONE;
        }
    }
    out
}

/// Holm's and Benjamini and Hochberg's adjustments over the family of every declared
/// hypothesis in `all` (both kinds of test, every rule set), written into each metric.
pub fn adjust_family(all: &mut [Vec<Metric>]) {
    let ps: Vec<f64> = all
        .iter()
        .flatten()
        .flat_map(|m| [m.p_value, m.diff_p_value])
        .collect();
    let (h, b) = (holm(&ps), benjamini_hochberg(&ps));
    for (i, m) in all.iter_mut().flatten().enumerate() {
        m.p_holm = h[2 * i];
        m.p_bh = b[2 * i];
        m.diff_p_holm = h[2 * i + 1];
        m.diff_p_bh = b[2 * i + 1];
    }
}
