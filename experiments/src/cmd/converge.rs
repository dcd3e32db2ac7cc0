//! `cowrie converge`: the same self-play experiment under a ladder of agent strengths, to show
//! whether its answer (the first mover's win rate, the draw share) has settled.
//!
//! Each rung is one agent spec, weakest first, playing itself: an ordinary seat-swapped match
//! (`cowrie match` with the spec in both seats) into `OUT/<n>-<spec>/`. Every rung uses the same
//! run seed, so pair `k` of every rung sees the same chance stream (common random numbers), and
//! the step from one rung to the next is measured as a paired difference over the pairs.
//!
//! Writes `OUT/converge.csv` (one row per rung and metric: the value with its 95% interval
//! clustered by pair, and the paired difference from the previous rung with its interval),
//! `OUT/converge.txt` (the verdict), `OUT/converge.svg` (the first-mover win rate and the draw
//! share against the rung, with their intervals) and `OUT/manifest.json`. docs/metrics.md
//! (*Convergence with strength*) gives the formulas and the verdict's rules.

use std::fmt::Write as _;
use std::time::Instant;

use anyhow::Context;
use cowrie_agents::{AgentSpec, Evaluate};
use cowrie_engine::Player;

use crate::cmd::match_cmd;
pub use crate::config::ConvergeConfig;
use crate::config::{sanitize, MatchConfig};
use crate::game_report::Report;
use crate::manifest::{now_rfc3339, Manifest};
use crate::metrics::{metrics, run_stats, Metric, RuleSetStats};
use crate::output::f6;
use crate::registry::{dispatch, GameTask};

/// The metrics `converge.csv` reports, in its order; the others of `docs/metrics.md` are in
/// each rung's own files. Bargese and Julbahar add their second first-mover definitions.
const REPORTED: [&str; 7] = [
    "first_mover_win_rate",
    "advantage_p1",
    "drawishness",
    "timeouts",
    "duration_plies",
    "first_enterer_win_rate",
    "subgame_first_mover_win_rate",
];

/// The header of `converge.csv`.
pub const COLUMNS: [&str; 16] = [
    "game",
    "variant",
    "rung",
    "agent",
    "games",
    "pairs",
    "metric",
    "value",
    "cluster",
    "clustered_ci95_low",
    "clustered_ci95_high",
    "design_effect",
    "step_diff",
    "step_ci95_low",
    "step_ci95_high",
    "step_significant",
];

impl GameTask for &ConvergeConfig {
    type Output = String;
    fn run<G: Evaluate + Report>(self) -> anyhow::Result<String> {
        run_converge::<G>(self)
    }
}

/// Plays every rung and writes the convergence table, plot and verdict; returns the text
/// printed on stdout.
///
/// # Errors
/// A bad game count and everything `cowrie match` refuses (checked for every rung before any
/// game is played); unwritable output.
pub fn run(cfg: &ConvergeConfig) -> anyhow::Result<String> {
    dispatch(&cfg.rules.game, cfg)
}

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
}

/// What the steps of one metric say: `settled` when each of the last two steps (the only one,
/// for two rungs) has an interval containing 0; the depth-parity runs: consecutive steps, each
/// significant, whose signs alternate (each run given by its steps).
#[must_use]
pub fn judge(steps: &[Step]) -> (bool, Vec<Vec<Step>>) {
    let settled = steps.iter().rev().take(2).all(|s| !s.significant());
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
    (settled, runs)
}

fn run_converge<G: Evaluate + Report>(cfg: &ConvergeConfig) -> anyhow::Result<String> {
    // Every rung is checked before any game is played or any file written.
    let (_, resolved) = match_cmd::check_run::<G>(
        cfg.rules.variant.as_deref(),
        &cfg.rules.options,
        &cfg.agents,
        cfg.run.seed,
    )?;
    let names: Vec<String> = cfg.agents.iter().map(ToString::to_string).collect();
    let rung_dir = |i: usize| cfg.out.join(format!("{}-{}", i + 1, sanitize(&names[i])));
    let matches: Vec<MatchConfig> = cfg
        .agents
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            MatchConfig::part(
                &cfg.rules,
                [spec.clone(), spec.clone()],
                cfg.games,
                &cfg.run,
                rung_dir(i),
                cfg.resume,
            )
        })
        .collect();
    for m in &matches {
        m.validate()?;
    }
    let variant = resolved.variant.clone();
    let mut manifest = Manifest::start(
        "converge",
        cfg.run.command_line.clone(),
        cfg.rules.manifest_run(
            &resolved,
            serde_json::json!({
                "agents": names,
                "games": cfg.games,
                "seat_swap": true,
                "seed": cfg.run.seed,
            }),
        ),
        cfg.run.threads,
        cfg.agents.iter().all(AgentSpec::is_reproducible),
    );
    if cfg.resume {
        manifest.check_resumable(&cfg.out)?;
    }
    crate::output::create_dir(&cfg.out)?;
    manifest.write(&cfg.out)?;
    let started = Instant::now();

    let mut all: Vec<RuleSetStats> = Vec::new();
    for (name, m) in names.iter().zip(&matches) {
        cfg.run.progress.say(format!("{} {name}", G::NAME));
        match_cmd::run_match::<G>(m)?;
        let s = run_stats::<G>(name, &m.out)?;
        manifest.games_written += s.games;
        all.push(s);
    }
    // Rung k's metrics with its paired difference from rung k - 1 (rung 1 against itself, whose
    // step columns stay empty).
    let table: Vec<Vec<Metric>> = (0..all.len())
        .map(|k| metrics(&all[k], &all[k.saturating_sub(1)]))
        .collect();
    let find = |k: usize, name: &str| table[k].iter().find(|m| m.name == name);
    let steps_of = |name: &str| -> Vec<Step> {
        (1..all.len())
            .filter_map(|k| {
                find(k, name).map(|m| Step {
                    to: k + 1,
                    diff: m.diff.0,
                    low: m.paired.0,
                    high: m.paired.1,
                })
            })
            .collect()
    };

    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(COLUMNS)?;
    for (k, (s, ms)) in all.iter().zip(&table).enumerate() {
        for name in REPORTED {
            let Some(m) = ms.iter().find(|m| m.name == name) else {
                continue;
            };
            let mut rec = vec![
                G::NAME.to_string(),
                variant.clone(),
                (k + 1).to_string(),
                s.name.clone(),
                s.games.to_string(),
                (s.games / 2).to_string(),
                name.to_string(),
                f6(m.value),
                m.cluster.to_string(),
                f6(m.clustered.0),
                f6(m.clustered.1),
                f6(m.design_effect),
            ];
            if k == 0 {
                rec.extend(std::iter::repeat_n(String::new(), 4));
            } else {
                let st = Step {
                    to: k + 1,
                    diff: m.diff.0,
                    low: m.paired.0,
                    high: m.paired.1,
                };
                rec.extend([f6(st.diff), f6(st.low), f6(st.high)]);
                rec.push(if st.significant() { "yes" } else { "no" }.to_string());
            }
            w.write_record(&rec)?;
        }
    }
    let csv_bytes = w
        .into_inner()
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("writing the convergence table")?;
    manifest.write_file(&cfg.out, "converge.csv", &csv_bytes)?;

    // The first mover is seat 1 in every game where the two win series are the same games.
    let first_is_seat1 = all
        .iter()
        .all(|s| s.first_mover_wins.values == s.seat1_wins.values);
    let verdict = verdict_text(
        &names,
        &steps_of("first_mover_win_rate"),
        &steps_of("drawishness"),
        first_is_seat1.then(|| G::side_name(Player::ONE)),
    );
    manifest.write_file(&cfg.out, "converge.txt", format!("{verdict}\n").as_bytes())?;

    let curve = |name: &str, label: &str| crate::plots::Curve {
        name: label.to_string(),
        points: (0..all.len())
            .map(|k| {
                find(k, name).map_or((f64::NAN, f64::NAN, f64::NAN), |m| {
                    (m.value, m.clustered.0, m.clustered.1)
                })
            })
            .collect(),
    };
    let first_label = if first_is_seat1 {
        format!(
            "first mover ({}, seat 1) win rate",
            G::side_name(Player::ONE)
        )
    } else {
        "first-mover win rate".to_string()
    };
    crate::plots::curves(
        &cfg.out.join("converge.svg"),
        &format!(
            "{} {variant}: the answer against the agent, self-play, 95% intervals by pair",
            G::NAME
        ),
        "fraction of games",
        &names,
        &[
            curve("first_mover_win_rate", &first_label),
            curve("drawishness", "draw share"),
        ],
    )?;
    manifest.status = "complete";
    manifest.finished = now_rfc3339();
    manifest.elapsed_seconds = started.elapsed().as_secs_f64();
    manifest.write(&cfg.out)?;
    crate::run_index::write(&cfg.out, &format!("cowrie converge: {} {variant}", G::NAME))?;

    let mut text = format!(
        "{} ({variant}{}): {} rungs, each agent in both seats, {} games per rung (seat-swapped pairs on the same seeds in every rung), seed {}\n",
        G::NAME,
        if cfg.rules.options.is_empty() {
            String::new()
        } else {
            format!("; {}", cfg.rules.options.join(", "))
        },
        names.len(),
        cfg.games,
        cfg.run.seed
    );
    let aw = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    let _ = writeln!(
        text,
        "{:<4} {:<aw$} {:<22} {:<25} {:<22} {:<25} {:<22} plies [95%]",
        "rung",
        "agent",
        "first mover [95%]",
        "step [95%]",
        "draws [95%]",
        "step [95%]",
        "seat 1 [95%]",
    );
    let cell = |m: Option<&Metric>| {
        m.map_or_else(String::new, |m| {
            format!(
                "{:.3} [{:.3}, {:.3}]",
                m.value, m.clustered.0, m.clustered.1
            )
        })
    };
    let step = |k: usize, m: Option<&Metric>| match m {
        Some(m) if k > 0 => format!("{:+.3} [{:+.3}, {:+.3}]", m.diff.0, m.paired.0, m.paired.1),
        _ => String::new(),
    };
    for (k, name) in names.iter().enumerate() {
        let fm = find(k, "first_mover_win_rate");
        let dr = find(k, "drawishness");
        let _ = writeln!(
            text,
            "{:<4} {:<aw$} {:<22} {:<25} {:<22} {:<25} {:<22} {}",
            k + 1,
            name,
            cell(fm),
            step(k, fm),
            cell(dr),
            step(k, dr),
            cell(find(k, "advantage_p1")),
            find(k, "duration_plies").map_or_else(String::new, |m| format!(
                "{:.1} [{:.1}, {:.1}]",
                m.value, m.clustered.0, m.clustered.1
            )),
        );
    }
    let _ = writeln!(
        text,
        "intervals: 95%, clustered by seat-swapped pair; step: the paired difference from the previous rung on the same seeds (docs/metrics.md)"
    );
    let _ = writeln!(text, "{verdict}");
    let _ = writeln!(text, "rows in {}", cfg.out.join("converge.csv").display());
    Ok(text)
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

/// The verdict paragraph: whether the first-mover win rate and the draw share have settled
/// over the last two steps, and any depth-parity effect (`first_is_seat1`: the side that is
/// both seat 1 and the first mover in every game, if one is).
fn verdict_text(
    names: &[String],
    first: &[Step],
    draws: &[Step],
    first_is_seat1: Option<&str>,
) -> String {
    let last = |steps: &[Step]| {
        steps
            .iter()
            .rev()
            .take(2)
            .rev()
            .map(|s| step_text(names, s))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let why = |settled: bool, steps: &[Step]| match (settled, steps.len() >= 2) {
        (true, true) => "each of its last two steps has a 95% interval containing 0",
        (false, true) => "at least one of its last two steps has a 95% interval excluding 0",
        (true, false) => "its one step's 95% interval contains 0",
        (false, false) => "its one step's 95% interval excludes 0",
    };
    let state = |settled: bool| if settled { "settled" } else { "still moving" };
    let (f_settled, f_runs) = judge(first);
    let (d_settled, d_runs) = judge(draws);
    let mut text = format!(
        "Verdict: the first mover's win rate{} is {}: {} ({}); the draw share is {}: {} ({}).",
        first_is_seat1.map_or_else(String::new, |side| format!(
            " (the first mover is seat 1, the {side}, in every game)"
        )),
        state(f_settled),
        why(f_settled, first),
        last(first),
        state(d_settled),
        why(d_settled, draws),
        last(draws),
    );
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
    text += &parity("first mover's win rate", &f_runs);
    text += &parity("draw share", &d_runs);
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

    #[test]
    fn settled_needs_both_last_steps_within_their_intervals_of_zero() {
        let moving = [step(2, 0.3, 0.1), step(3, 0.01, 0.05), step(4, 0.2, 0.1)];
        assert!(!judge(&moving).0);
        let settled = [step(2, 0.3, 0.1), step(3, 0.01, 0.05), step(4, -0.02, 0.05)];
        assert!(judge(&settled).0);
        assert!(judge(&[step(2, 0.04, 0.05)]).0);
        assert!(!judge(&[step(2, 0.06, 0.05)]).0);
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
        let (_, runs) = judge(&steps);
        let tos: Vec<Vec<usize>> = runs
            .iter()
            .map(|r| r.iter().map(|s| s.to).collect())
            .collect();
        assert_eq!(tos, vec![vec![2, 3, 4], vec![6, 7]]);
        // Same signs never make a run.
        assert!(judge(&[step(2, 0.3, 0.1), step(3, 0.3, 0.1)]).1.is_empty());
    }
}
