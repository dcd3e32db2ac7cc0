//! `cowrie advantage` and `cowrie compare`: first-mover advantage of one rule set, and the same
//! self-play under several rule sets side by side, with Ludii's metric names.
//!
//! Both run an ordinary seat-swapped match (same agent spec in both seats) per rule set into
//! `OUT/<n>-<name>/` and compute every metric from that run's `games.csv`. Metrics
//! (`docs/metrics.md` gives the formulas):
//! - `advantage_p1`: seat 1's win rate (Baghchal: the goats); `first_mover_win_rate`: the win rate
//!   of the first mover, `first_mover_seat` (the player who made the first decision, or the
//!   rules' starter: Bargese's three-shell throw winner; differs from seat 1 where an opening
//!   roll or throw decides who starts);
//! - `balance` = 1 − |seat 1 win rate − seat 2 win rate|; `completion`: share of games with a
//!   winner; `drawishness`: share of draws; `timeouts`: share truncated by the ply cap;
//! - `duration_plies`, `duration_turns`: mean game length; `branching_factor` = Σ legal actions
//!   over all decision nodes / Σ plies; `decision_moves` = decision nodes with more than one
//!   legal action / plies;
//! - where `games.csv` has a `first_entered` column (Bargese): `first_enterer_win_rate`, the win
//!   rate of the player who first entered a piece, a second definition of first mover;
//! - where the run writes `subgames.csv` (Julbahar, whose unit is a match of games): `subgames`
//!   (games begun inside the matches), and over those games `subgame_seat1_win_rate`,
//!   `subgame_first_mover_win_rate` (won by the player who made that game's first decision) and
//!   `subgame_unfinished` (abandoned when a bonus or the ply cap ended the match mid-game), and
//!   `subgame_first_mover_win_rate_finished` (the same win rate among the finished games only).
//!
//! Proportions carry 95% Wilson intervals; differences from the first rule set carry Newcombe's
//! hybrid score interval; mean lengths a normal (Welch) interval. The first rule set's
//! difference from itself is exactly 0 with the interval [0, 0].

use std::fmt::Write as _;

use anyhow::Context;
use cowrie_agents::AgentSpec;

use crate::cmd::match_cmd::{self, MatchConfig};
use crate::schedule::Shard;
use crate::stats::{newcombe_difference, wilson, z95, Lengths};
use crate::summary::{read_rows, RowView};

struct CheckRules<'a>(&'a RuleSetSpec);

impl crate::registry::GameTask for CheckRules<'_> {
    type Output = ();
    fn run<G: cowrie_engine::Game + cowrie_agents::Evaluate>(self) -> anyhow::Result<()> {
        use cowrie_engine::RuleSet;
        G::Rules::resolve(self.0.variant.as_deref(), &self.0.options)?;
        Ok(())
    }
}

/// One rule set to compare: a variant and option overrides, written `VARIANT+key=value+...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSetSpec {
    /// The variant (None: the game's default).
    pub variant: Option<String>,
    /// `key=value` overrides.
    pub options: Vec<String>,
    /// The text as given.
    pub name: String,
}

impl std::str::FromStr for RuleSetSpec {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> anyhow::Result<Self> {
        let mut parts = s.split('+');
        let variant = parts.next().filter(|v| !v.is_empty()).map(str::to_string);
        let options: Vec<String> = parts.map(str::to_string).collect();
        if let Some(bad) = options.iter().find(|o| !o.contains('=')) {
            anyhow::bail!("rule set '{s}': '{bad}' is not key=value");
        }
        Ok(RuleSetSpec {
            variant,
            options,
            name: s.to_string(),
        })
    }
}

/// A counted proportion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Count {
    k: u64,
    n: u64,
}

/// What one rule set's games gave.
#[derive(Clone, Debug)]
pub struct RuleSetStats {
    /// The rule set.
    pub name: String,
    /// Games.
    pub games: u64,
    seat1_wins: Count,
    seat2_wins: Count,
    first_mover_wins: Count,
    decided: Count,
    draws: Count,
    truncated: Count,
    plies: Lengths,
    turns: Lengths,
    branching: f64,
    decisions: f64,
    /// Wins of the first player to enter a piece (games with a `first_entered` column).
    first_enterer_wins: Option<Count>,
    /// The games inside the matches (runs that write `subgames.csv`).
    subgames: Option<Subgames>,
}

/// Tallies of the games inside matches, from `subgames.csv`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Subgames {
    seat1_wins: Count,
    first_mover_wins: Count,
    unfinished: Count,
    /// First-mover wins among the games finished by a bear-off.
    first_mover_wins_finished: Count,
}

/// Reads a run's `subgames.csv`: per game inside a match, `first_mover_seat` (who made the
/// game's first decision) and `bore_off_seat` (who bore off all its checkers first and so won
/// the game; empty when the match ended during the game).
fn read_subgames(path: &std::path::Path) -> anyhow::Result<Subgames> {
    let mut r = csv::Reader::from_path(path)
        .with_context(|| format!("cannot read '{}'", path.display()))?;
    let h = r.headers()?.clone();
    let col = |name: &str| {
        h.iter()
            .position(|x| x == name)
            .with_context(|| format!("'{}' has no column '{name}'", path.display()))
    };
    let (fm, bo) = (col("first_mover_seat")?, col("bore_off_seat")?);
    let mut t = Subgames::default();
    for rec in r.records() {
        let rec = rec.with_context(|| format!("reading '{}'", path.display()))?;
        for c in [
            &mut t.seat1_wins,
            &mut t.first_mover_wins,
            &mut t.unfinished,
        ] {
            c.n += 1;
        }
        let winner = &rec[bo];
        t.seat1_wins.k += u64::from(winner == "1");
        t.first_mover_wins.k += u64::from(!winner.is_empty() && winner == &rec[fm]);
        t.unfinished.k += u64::from(winner.is_empty());
        if !winner.is_empty() {
            t.first_mover_wins_finished.n += 1;
            t.first_mover_wins_finished.k += u64::from(winner == &rec[fm]);
        }
    }
    Ok(t)
}

/// Wins of the player who first entered a piece, from the `first_entered` column of
/// `games.csv` (None when the game has no such column).
fn first_enterer_wins(path: &std::path::Path) -> anyhow::Result<Option<Count>> {
    let mut r = csv::Reader::from_path(path)
        .with_context(|| format!("cannot read '{}'", path.display()))?;
    let h = r.headers()?.clone();
    let (Some(fe), Some(ws)) = (
        h.iter().position(|x| x == "first_entered"),
        h.iter().position(|x| x == "winner_seat"),
    ) else {
        return Ok(None);
    };
    let mut c = Count::default();
    for rec in r.records() {
        let rec = rec.with_context(|| format!("reading '{}'", path.display()))?;
        c.n += 1;
        c.k += u64::from(!rec[ws].is_empty() && rec[ws] == rec[fe]);
    }
    Ok(Some(c))
}

fn stats_of(name: &str, rows: &[RowView]) -> RuleSetStats {
    let n = rows.len() as u64;
    let count = |f: &dyn Fn(&RowView) -> bool| Count {
        k: rows.iter().filter(|r| f(r)).count() as u64,
        n,
    };
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
    RuleSetStats {
        name: name.to_string(),
        games: n,
        seat1_wins: count(&|r| r.winner_seat == Some(1)),
        seat2_wins: count(&|r| r.winner_seat == Some(2)),
        first_mover_wins: count(&|r| {
            r.winner_seat.is_some() && r.winner_seat == r.first_mover_seat
        }),
        decided: count(&|r| r.winner_seat.is_some()),
        draws: count(&|r| r.end_reason == "draw"),
        truncated: count(&|r| r.end_reason == "truncated"),
        plies: Lengths::of(&plies),
        turns: Lengths::of(&turns),
        branching: ratio(rows.iter().map(|r| r.branching_sum).sum()),
        decisions: ratio(rows.iter().map(|r| r.choices).sum()),
        first_enterer_wins: None,
        subgames: None,
    }
}

/// One metric value with its interval and its difference from the first rule set.
struct Metric {
    name: &'static str,
    value: f64,
    ci: Option<(f64, f64)>,
    diff: Option<(f64, f64, f64)>,
}

fn metrics(s: &RuleSetStats, first: &RuleSetStats) -> Vec<Metric> {
    let z = z95();
    let prop = |name, c: Count, f: Count| {
        let value = if c.n == 0 {
            0.0
        } else {
            c.k as f64 / c.n as f64
        };
        let fv = if f.n == 0 {
            0.0
        } else {
            f.k as f64 / f.n as f64
        };
        let (dl, dh) = newcombe_difference(c.k, c.n, f.k, f.n, z);
        Metric {
            name,
            value,
            ci: Some(wilson(c.k, c.n, z)),
            diff: Some((value - fv, dl, dh)),
        }
    };
    let mean = |name, l: Lengths, fl: Lengths, n: u64, fnn: u64| {
        let se = |x: Lengths, m: u64| x.sd * x.sd / m.max(1) as f64;
        let half = z * (se(l, n) + se(fl, fnn)).sqrt();
        let own = z * se(l, n).sqrt();
        Metric {
            name,
            value: l.mean,
            ci: Some((l.mean - own, l.mean + own)),
            diff: Some((
                l.mean - fl.mean,
                l.mean - fl.mean - half,
                l.mean - fl.mean + half,
            )),
        }
    };
    let plain = |name, value: f64, fv: f64| Metric {
        name,
        value,
        ci: None,
        diff: Some((value - fv, f64::NAN, f64::NAN)),
    };
    let balance = |x: &RuleSetStats| {
        1.0 - (x.seat1_wins.k as f64 - x.seat2_wins.k as f64).abs() / x.games.max(1) as f64
    };
    let mut out = vec![
        prop("advantage_p1", s.seat1_wins, first.seat1_wins),
        prop(
            "first_mover_win_rate",
            s.first_mover_wins,
            first.first_mover_wins,
        ),
        plain("balance", balance(s), balance(first)),
        prop("completion", s.decided, first.decided),
        prop("drawishness", s.draws, first.draws),
        prop("timeouts", s.truncated, first.truncated),
        mean("duration_plies", s.plies, first.plies, s.games, first.games),
        mean("duration_turns", s.turns, first.turns, s.games, first.games),
        plain("branching_factor", s.branching, first.branching),
        plain("decision_moves", s.decisions, first.decisions),
    ];
    if let (Some(c), Some(f)) = (s.first_enterer_wins, first.first_enterer_wins) {
        out.push(prop("first_enterer_win_rate", c, f));
    }
    if let (Some(g), Some(f)) = (s.subgames, first.subgames) {
        out.push(plain(
            "subgames",
            g.unfinished.n as f64,
            f.unfinished.n as f64,
        ));
        out.push(prop("subgame_seat1_win_rate", g.seat1_wins, f.seat1_wins));
        out.push(prop(
            "subgame_first_mover_win_rate",
            g.first_mover_wins,
            f.first_mover_wins,
        ));
        out.push(prop("subgame_unfinished", g.unfinished, f.unfinished));
        out.push(prop(
            "subgame_first_mover_win_rate_finished",
            g.first_mover_wins_finished,
            f.first_mover_wins_finished,
        ));
    }
    if std::ptr::eq(s, first) {
        // The reference: its difference from itself is 0 by construction, not an estimate.
        for m in &mut out {
            m.diff = Some((0.0, 0.0, 0.0));
        }
    }
    out
}

fn fmt(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else {
        format!("{x:.6}")
    }
}

/// Arguments shared by `advantage` and `compare`.
#[derive(Clone, Debug)]
pub struct CompareConfig {
    /// The game.
    pub game: String,
    /// The rule sets (one for `advantage`).
    pub sets: Vec<RuleSetSpec>,
    /// The agent in both seats.
    pub agent: AgentSpec,
    /// Games per rule set (even).
    pub games: u64,
    /// Seed.
    pub seed: u64,
    /// Threads.
    pub threads: usize,
    /// Output directory.
    pub out: std::path::PathBuf,
    /// Progress bar.
    pub progress: bool,
    /// Command line.
    pub command_line: Vec<String>,
    /// Continue each rule set's interrupted match in its directory (a finished one is verified
    /// and kept).
    pub resume: bool,
}

/// Runs one match per rule set and writes `OUT/compare.csv` (long format: one row per rule set
/// and metric); returns the table printed on stdout.
///
/// # Errors
/// As `cowrie match`.
pub fn run(cfg: &CompareConfig) -> anyhow::Result<String> {
    // Every rule set is checked before any game is played or any file written.
    for set in &cfg.sets {
        crate::registry::dispatch(&cfg.game, CheckRules(set))?;
    }
    let matches: Vec<MatchConfig> = cfg
        .sets
        .iter()
        .enumerate()
        .map(|(i, set)| MatchConfig {
            game: cfg.game.clone(),
            variant: set.variant.clone(),
            options: set.options.clone(),
            agents: [cfg.agent.clone(), cfg.agent.clone()],
            games: cfg.games,
            swap: true,
            seed: cfg.seed,
            threads: cfg.threads,
            out: cfg.out.join(format!("{}-{}", i + 1, sanitize(&set.name))),
            progress: cfg.progress,
            command_line: cfg.command_line.clone(),
            shard: Shard::WHOLE,
            resume: cfg.resume,
            record: false,
        })
        .collect();
    // So are the game count and threads: a refused run leaves no directory behind.
    for m in &matches {
        m.validate()?;
    }
    crate::output::create_dir(&cfg.out)?;
    let mut all = Vec::new();
    let mut lengths_text = String::new();
    for (set, m) in cfg.sets.iter().zip(&matches) {
        let dir = m.out.clone();
        match_cmd::run(m)?;
        let rows = read_rows(&dir.join("games.csv"))?;
        let mut s = stats_of(&set.name, &rows);
        s.first_enterer_wins = first_enterer_wins(&dir.join("games.csv"))?;
        let sub = dir.join("subgames.csv");
        if sub.exists() {
            s.subgames = Some(read_subgames(&sub)?);
        }
        let _ = writeln!(
            lengths_text,
            "{:<36} plies: mean {:.2} sd {:.2} quartiles {}/{}/{} max {}; turns: mean {:.2} sd {:.2} quartiles {}/{}/{} max {}",
            set.name, s.plies.mean, s.plies.sd, s.plies.q1, s.plies.median, s.plies.q3, s.plies.max,
            s.turns.mean, s.turns.sd, s.turns.q1, s.turns.median, s.turns.q3, s.turns.max
        );
        all.push(s);
    }
    let path = cfg.out.join("compare.csv");
    let mut w = csv::Writer::from_path(&path)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    w.write_record([
        "game",
        "rule_set",
        "agent",
        "games",
        "metric",
        "value",
        "ci95_low",
        "ci95_high",
        "diff_vs_first",
        "diff_ci95_low",
        "diff_ci95_high",
    ])?;
    let mut text = format!(
        "{}: {} in both seats, {} games per rule set (seat-swapped pairs), seed {}\n",
        cfg.game, cfg.agent, cfg.games, cfg.seed
    );
    let _ = writeln!(
        text,
        "{:<36} {:<22} {:>9}  {:<20} {:>9}  95% interval of the difference",
        "rule set", "metric", "value", "95% interval", "vs first"
    );
    for s in &all {
        for m in metrics(s, &all[0]) {
            let (lo, hi) = m.ci.unwrap_or((f64::NAN, f64::NAN));
            let (d, dl, dh) = m.diff.unwrap_or((f64::NAN, f64::NAN, f64::NAN));
            w.write_record([
                cfg.game.clone(),
                s.name.clone(),
                cfg.agent.to_string(),
                s.games.to_string(),
                m.name.to_string(),
                fmt(m.value),
                fmt(lo),
                fmt(hi),
                fmt(d),
                fmt(dl),
                fmt(dh),
            ])?;
            let ci = if lo.is_nan() {
                String::new()
            } else {
                format!("[{lo:.4}, {hi:.4}]")
            };
            let dci = if dl.is_nan() {
                String::new()
            } else {
                format!("[{dl:+.4}, {dh:+.4}]")
            };
            let _ = writeln!(
                text,
                "{:<36} {:<22} {:>9.4}  {:<20} {:>+9.4}  {dci}",
                s.name, m.name, m.value, ci, d
            );
        }
    }
    w.flush()
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    let z = z95();
    let bars: Vec<crate::plots::Interval> = all
        .iter()
        .flat_map(|s| {
            let mut rates = vec![
                ("seat 1", s.seat1_wins),
                ("first mover", s.first_mover_wins),
            ];
            if let Some(c) = s.first_enterer_wins {
                rates.push(("first to enter", c));
            }
            if let Some(g) = s.subgames {
                rates.push(("per game: first mover", g.first_mover_wins));
            }
            rates.into_iter().map(|(what, c)| {
                let (low, high) = wilson(c.k, c.n, z);
                crate::plots::Interval {
                    label: format!("{} {what}", s.name),
                    value: c.k as f64 / c.n.max(1) as f64,
                    low,
                    high,
                }
            })
        })
        .collect();
    crate::plots::intervals(
        &cfg.out.join("compare.svg"),
        &format!(
            "{}: win rates with 95% Wilson intervals ({})",
            cfg.game, cfg.agent
        ),
        "win rate (fraction of games)",
        &bars,
    )?;
    text += &lengths_text;
    let _ = writeln!(text, "rows in {}", path.display());
    crate::run_index::write(
        &cfg.out,
        &format!("cowrie compare: {} ({})", cfg.game, cfg.agent),
    )?;
    Ok(text)
}

fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
