//! `cowrie converge`: the same self-play experiment under a ladder of agent strengths, to show
//! whether its answer (the first mover's win rate, the draw share) has settled.
//!
//! Each rung is one agent spec, weakest first, playing itself: an ordinary match (`cowrie match`
//! with the spec in both seats, self-play without seat swap) into `OUT/<n>-<spec>/`. Every rung
//! uses the same run seed, so game `k` of every rung sees the same chance stream (common random
//! numbers), and the step from one rung to the next is measured as a paired difference.
//!
//! Then the top rung plays the rung below it, `--strength-games` games in seat-swapped pairs on
//! shared dice as a `cowrie ladder` step does, into `OUT/strength-<n>-v-<n-1>/`: its pair-level
//! score says whether the top rung is shown stronger ([`Strength`]).
//!
//! Writes `OUT/converge.csv` (one row per rung and metric: the value with its 95% interval
//! clustered by pair, and the paired difference from the previous rung with its interval),
//! `OUT/strength.csv` (the strength match's pair score, interval and significance),
//! `OUT/verdict.csv` (per answer: settled or not, and each condition), `OUT/converge.txt` (the
//! verdict in words), `OUT/converge.svg` (the first-mover win rate and the draw share against the
//! rung, with their intervals) and `OUT/manifest.json`. docs/metrics.md (*Convergence with
//! strength*) gives the formulas and the verdict's rules.
//!
//! A rung whose agent plays perfectly from the start (`perfect:db=DIR` on a database solved back
//! to the start position) is the end of the ladder: its games must all end as the solved start
//! value says, and the rates that value fixes are reported as exact, with `cluster` `solved` and
//! an interval of zero width ([`Solved`]). As the top rung it needs no strength match.
//!
//! Sharded (`--shard K/N`), the run's units (each rung's self-play games, rung after rung, then
//! the strength match's seat-swapped pairs) are numbered in that order and dealt round the
//! shards as a ladder's pairs are ([`Parts`]); a shard writes its slice of every match and its
//! manifest, and `cowrie merge` joins the shards and writes the tables through [`finish_merged`].

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::bail;
use anyhow::Context;
use clap::Args;
use cowrie_agents::{AgentSpec, Evaluate};
use cowrie_engine::Player;

use crate::args::{agent_spec, game_count, ForceArg, GameRulesArgs, OutArg, ResumeArg, RunArgs};
use crate::config::RulesConfig;
use crate::config::RunConfig;
use crate::games::Report;
use crate::output::f6;
use crate::output::print_stdout;
use crate::registry::{dispatch, GameTask};
use crate::run::comparison::sanitize;
use crate::run::manifest::{now_rfc3339, Manifest};
use crate::run::record::{read_games, GameRow, Outcome};
use crate::run::runner;
use crate::run::runner::MatchConfig;
use crate::run::schedule::Shard;
use crate::stats::metrics::{metrics, run_stats, Metric, RuleSetStats};
use crate::stats::ratings::Pentanomial;

mod verdict;
pub use verdict::{parity_runs, settled, Step, Strength, Top, MARGIN};

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

/// The header of `strength.csv`: the top rung (`upper`) against the rung below (`lower`).
pub const STRENGTH_COLUMNS: [&str; 14] = [
    "game",
    "variant",
    "upper_rung",
    "lower_rung",
    "upper",
    "lower",
    "games",
    "pairs",
    "truncated_pairs",
    "pair_score",
    "pair_score_ci95_low",
    "pair_score_ci95_high",
    "p_value",
    "pair_significant",
];

/// The header of `verdict.csv`: one row per answer (`first_mover_win_rate`, `drawishness`).
pub const VERDICT_COLUMNS: [&str; 10] = [
    "game",
    "variant",
    "metric",
    "settled",
    "top_stronger",
    "last_step_diff",
    "last_step_ci95_low",
    "last_step_ci95_high",
    "margin",
    "within_margin",
];

/// The default of `--strength-games`.
pub const STRENGTH_GAMES: u64 = 400;

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
/// A bad game count and everything `cowrie match` refuses (checked for every rung and the
/// strength match before any game is played); a strength match between two top rungs of the
/// same agent; unwritable output.
pub fn run(cfg: &ConvergeConfig) -> anyhow::Result<String> {
    dispatch(&cfg.rules.game, cfg)
}

/// The start position's value under perfect play, for seat 1, as a solved database gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    /// Seat 1 wins.
    Seat1Wins,
    /// Seat 2 wins.
    Seat2Wins,
    /// Neither side can force a win.
    Draw,
}

/// The `cluster` of a metric whose value is the solved value: exact, its interval of zero width.
pub const SOLVED: &str = "solved";

impl Solved {
    /// The value of an exact score for seat 1 (positive: a win, 0: a draw, negative: a loss).
    #[must_use]
    pub fn of_score(score: i32) -> Solved {
        match score.signum() {
            1 => Solved::Seat1Wins,
            -1 => Solved::Seat2Wins,
            _ => Solved::Draw,
        }
    }

    /// The value in words, naming the sides.
    fn describe(self, seat1: &str, seat2: &str) -> String {
        match self {
            Solved::Seat1Wins => format!("a win for the {seat1}"),
            Solved::Seat2Wins => format!("a win for the {seat2}"),
            Solved::Draw => "a draw (neither side can force a win)".to_string(),
        }
    }

    /// Whether a game that ended with `o` is one perfect play from the start can give: the
    /// winner's win, or for a draw a draw by the rules or a game the ply cap cut short (the
    /// rules decide which: under Baghchal's `repetition=none` nothing ends a drawn game).
    #[must_use]
    pub fn admits(self, o: Outcome) -> bool {
        match self {
            Solved::Seat1Wins => o == Outcome::Won(1),
            Solved::Seat2Wins => o == Outcome::Won(2),
            Solved::Draw => matches!(o, Outcome::Draw | Outcome::Unresolved),
        }
    }

    /// The metrics this value fixes, with their exact values, for games whose first mover is
    /// seat 1 in every game (`first_is_seat1`) or not. A draw fixes the wins (none) but not how
    /// the games that nobody wins end, by the rules or at the ply cap, so `drawishness` and
    /// `timeouts` stay measured there.
    #[must_use]
    pub fn fixed(self, first_is_seat1: bool) -> Vec<(&'static str, f64)> {
        let (seat1, undecided) = match self {
            Solved::Seat1Wins => (1.0, false),
            Solved::Seat2Wins => (0.0, false),
            Solved::Draw => (0.0, true),
        };
        let mut out = vec![("advantage_p1", seat1)];
        if first_is_seat1 || undecided {
            out.push(("first_mover_win_rate", seat1));
        }
        if !undecided {
            out.extend([("drawishness", 0.0), ("timeouts", 0.0)]);
        }
        out
    }
}

/// The solved start value where `spec` plays perfectly from the start of `rules`: a `perfect`
/// agent whose database covers the start position (for Baghchal, a database solved back to the
/// start by `cowrie solve` without `--movement-only` or `--down-to-placed`). `None` for every
/// other agent, and for a `perfect` agent that searches there (whose play is not perfect).
fn solved_start<G: Evaluate>(spec: &AgentSpec, rules: &G::Rules) -> Option<Solved> {
    let AgentSpec::Perfect(p) = spec else {
        return None;
    };
    let oracle = G::perfect_oracle(&p.db).ok()?;
    oracle
        .score(&G::new(rules), Player::ONE)
        .map(Solved::of_score)
}

/// Checks every game of the solved rung `rung` (1-based) against `solved`, then reports the
/// metrics the value fixes as exact: their value, `cluster` [`SOLVED`], an interval of zero width
/// and no design effect. The step from the previous rung keeps its paired interval (the previous
/// rung's sampling error).
///
/// # Errors
/// A game that ended otherwise (the database or the agent is wrong, or the ply cap cut a won
/// game short), naming it.
pub fn apply_solved(
    rung: usize,
    solved: Solved,
    rows: &[GameRow],
    sides: [&str; 2],
    metrics: &mut [Metric],
) -> anyhow::Result<()> {
    if let Some(r) = rows.iter().find(|r| !solved.admits(r.outcome())) {
        anyhow::bail!(
            "rung {rung} ({}): the database gives the start as {}, but game {} ended {} ({}); the database or the agent is wrong, or the ply cap cut the game short",
            r.agent_p1,
            solved.describe(sides[0], sides[1]),
            r.game_index,
            match r.outcome() {
                Outcome::Won(w) => format!("in a win for seat {w}"),
                Outcome::Draw => "in a draw".to_string(),
                Outcome::Unresolved => "without a result".to_string(),
            },
            r.end_reason.as_str()
        );
    }
    let first_is_seat1 = rows.iter().all(|r| r.first_mover_seat == Some(1));
    for (name, value) in solved.fixed(first_is_seat1) {
        let Some(m) = metrics.iter_mut().find(|m| m.name == name) else {
            continue;
        };
        if (m.value - value).abs() > 1e-12 {
            anyhow::bail!(
                "rung {rung}: {name} is {} over its games, the solved start gives {value}",
                m.value
            );
        }
        m.value = value;
        m.cluster = SOLVED;
        m.ci = (value, value);
        m.clustered = (value, value);
        m.design_effect = f64::NAN;
    }
    Ok(())
}

/// The matches of a convergence run, this shard's slice of each: every rung's self-play, then
/// the strength match where it is played; and which rungs play perfectly from a solved start.
#[derive(Clone, Debug)]
pub struct Parts {
    /// Each rung's match, weakest first.
    pub rungs: Vec<MatchConfig>,
    /// The top rung against the one below, unless the top rung is solved or no games are asked.
    pub strength: Option<MatchConfig>,
    /// Each rung's solved start value, where its agent plays perfectly from the start.
    pub solved: Vec<Option<Solved>>,
}

impl Parts {
    /// The matches in the order their units are numbered: the rungs, then the strength match.
    pub fn matches(&self) -> impl Iterator<Item = &MatchConfig> {
        self.rungs.iter().chain(&self.strength)
    }

    /// Games this shard plays.
    #[must_use]
    pub fn shard_games(&self) -> u64 {
        self.matches().map(|m| m.schedule().len()).sum()
    }
}

/// The units of a match played whole by one shard: its seat-swapped pairs, or its games in
/// self-play (without seat swap).
#[must_use]
pub fn units(m: &MatchConfig) -> u64 {
    if m.swap {
        m.games / 2
    } else {
        m.games
    }
}

struct PartsTask<'a>(&'a ConvergeConfig);

impl GameTask for PartsTask<'_> {
    type Output = Parts;
    fn run<G: Evaluate + Report>(self) -> anyhow::Result<Parts> {
        Ok(parts_of::<G>(self.0)?.1)
    }
}

/// The matches of the convergence run `cfg`, checked as [`run`] checks them before playing.
///
/// # Errors
/// As [`run`], before any game.
pub fn parts(cfg: &ConvergeConfig) -> anyhow::Result<Parts> {
    dispatch(&cfg.rules.game, PartsTask(cfg))
}

/// The rules and the matches of `cfg`, every rung and the strength match checked before any
/// game is played or any file written. Sharded, the run's units (each rung's games, then the
/// strength match's seat-swapped pairs) are numbered in that order and dealt round the shards
/// as a ladder's pairs are ([`Shard::after`]).
fn parts_of<G: Evaluate>(cfg: &ConvergeConfig) -> anyhow::Result<(G::Rules, Parts)> {
    let rules = runner::check_run::<G>(&cfg.rules, &cfg.agents, cfg.run.seed)?;
    let names: Vec<String> = cfg.agents.iter().map(ToString::to_string).collect();
    let solved: Vec<Option<Solved>> = cfg
        .agents
        .iter()
        .map(|a| solved_start::<G>(a, &rules))
        .collect();
    let rung_dir = |i: usize| cfg.out.join(format!("{}-{}", i + 1, sanitize(&names[i])));
    let mut rungs: Vec<MatchConfig> = cfg
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
    for m in &rungs {
        m.validate()?;
    }
    let n = cfg.agents.len();
    let mut strength = (solved[n - 1].is_none() && cfg.strength_games > 0).then(|| {
        MatchConfig::part(
            &cfg.rules,
            [cfg.agents[n - 1].clone(), cfg.agents[n - 2].clone()],
            cfg.strength_games,
            &cfg.run,
            cfg.out.join(format!("strength-{n}-v-{}", n - 1)),
            cfg.resume,
        )
    });
    if let Some(m) = &strength {
        if m.agents[0] == m.agents[1] {
            bail!(
                "--agent {}: the top two rungs are the same agent, so the top rung cannot be shown stronger (give another top rung, or --strength-games 0)",
                m.agents[0]
            );
        }
        m.validate()?;
    }
    let shard = cfg.shard;
    let total: u64 = rungs.iter().chain(&strength).map(units).sum();
    if total < shard.n {
        bail!(
            "--shard {shard}: {n} rungs of {} games{} make {total} units, fewer than the {} shards, so some shard would play none (use at most {total} shards)",
            cfg.games,
            strength.as_ref().map_or_else(String::new, |m| format!(
                " and a strength match of {} seat-swapped pairs",
                units(m)
            )),
            shard.n
        );
    }
    let mut before = 0;
    for m in rungs.iter_mut().chain(&mut strength) {
        m.shard = shard.after(before);
        before += units(m);
    }
    Ok((
        rules,
        Parts {
            rungs,
            strength,
            solved,
        },
    ))
}

fn run_converge<G: Evaluate + Report>(cfg: &ConvergeConfig) -> anyhow::Result<String> {
    let (_, parts) = parts_of::<G>(cfg)?;
    let mut manifest = cfg.manifest(crate::run::provenance::inputs(&cfg.rules, &cfg.agents)?);
    if cfg.resume {
        manifest.check_resumable(&cfg.out)?;
    }
    crate::output::create_dir(&cfg.out)?;
    manifest.write(&cfg.out)?;
    let started = Instant::now();
    let names: Vec<String> = cfg.agents.iter().map(ToString::to_string).collect();
    let n = names.len();
    for (i, m) in parts.rungs.iter().enumerate() {
        cfg.run.progress.say(format!("{} {}", G::NAME, names[i]));
        let played = runner::run_match::<G>(m);
        manifest.unless_interrupted(&cfg.out, played)?;
    }
    if let Some(m) = &parts.strength {
        cfg.run.progress.say(format!(
            "{} strength: {} v {}",
            G::NAME,
            names[n - 1],
            names[n - 2]
        ));
        let played = runner::run_match::<G>(m);
        manifest.unless_interrupted(&cfg.out, played)?;
    }
    if cfg.shard != Shard::WHOLE {
        // A shard's rungs hold part of their games each: the tables are written by `cowrie
        // merge` once every shard is in; none from an earlier run may stay beside them.
        crate::run::outputs::remove_stale(&cfg.out, &WHOLE_ONLY)?;
        manifest.status = "complete";
        manifest.finished = now_rfc3339();
        manifest.elapsed_seconds = started.elapsed().as_secs_f64();
        manifest.games_written = parts.shard_games();
        manifest.write(&cfg.out)?;
        return Ok(format!(
            "{}: shard {} of a convergence run of {n} rungs, {} games per rung{} ({} games played) in {}; join the shards with cowrie merge\n",
            G::NAME,
            cfg.shard,
            cfg.games,
            parts.strength.as_ref().map_or_else(String::new, |m| format!(
                " and a strength match of {} games",
                m.games
            )),
            manifest.games_written,
            cfg.out.display()
        ));
    }
    finish::<G>(cfg, &parts, manifest, started)
}

/// The files only the whole run writes, from its rungs' finished runs.
const WHOLE_ONLY: [&str; 6] = [
    "converge.csv",
    "strength.csv",
    "verdict.csv",
    "converge.txt",
    "converge.svg",
    "index.html",
];

struct FinishTask<'a>(&'a ConvergeConfig, crate::run::provenance::Inputs);

impl GameTask for FinishTask<'_> {
    type Output = String;
    fn run<G: Evaluate + Report>(self) -> anyhow::Result<String> {
        let (_, parts) = parts_of::<G>(self.0)?;
        finish::<G>(self.0, &parts, self.0.manifest(self.1), Instant::now())
    }
}

/// Writes the tables, plot, verdict and finished manifest of the whole convergence run `cfg`
/// from its rungs' and strength match's finished runs, whose agents read `inputs` (`cowrie
/// merge`, once it has joined every part's shards); returns the text `cowrie converge` prints.
///
/// # Errors
/// An unreadable part, a solved rung whose games the value does not admit, an unwritable file.
pub fn finish_merged(
    cfg: &ConvergeConfig,
    inputs: crate::run::provenance::Inputs,
) -> anyhow::Result<String> {
    dispatch(&cfg.rules.game, FinishTask(cfg, inputs))
}

/// Writes `converge.csv`, `strength.csv`, `verdict.csv`, `converge.txt`, `converge.svg`, the
/// run's page and the finished manifest (from `manifest`, begun at `started`) of the whole run
/// `cfg` from its parts' finished runs; returns the text printed on stdout.
fn finish<G: Evaluate + Report>(
    cfg: &ConvergeConfig,
    parts: &Parts,
    mut manifest: Manifest,
    started: Instant,
) -> anyhow::Result<String> {
    let names: Vec<String> = cfg.agents.iter().map(ToString::to_string).collect();
    let n = names.len();
    let solved = &parts.solved;
    let strength = &parts.strength;
    let variant = cfg.rules.resolved.variant.clone();
    let mut all: Vec<RuleSetStats> = Vec::new();
    let mut rows_of: Vec<Vec<GameRow>> = Vec::new();
    for (name, m) in names.iter().zip(&parts.rungs) {
        let s = run_stats::<G>(name, &m.out)?;
        let rows = read_games::<G>(&m.out.join("games.csv"))?;
        rows_of.push(rows.into_iter().map(|(r, _)| r).collect());
        manifest.games_written += s.games;
        all.push(s);
    }
    let top = match strength {
        Some(m) => {
            let rows: Vec<GameRow> = read_games::<G>(&m.out.join("games.csv"))?
                .into_iter()
                .map(|(r, _)| r)
                .collect();
            manifest.games_written += rows.len() as u64;
            let pairs = Pentanomial::of_rows(&rows, &names[n - 1]);
            let s = Strength::of(&pairs);
            let bytes = strength_csv(
                [G::NAME, &variant],
                &names,
                cfg.strength_games,
                &s,
                pairs.truncated,
            )?;
            manifest.write_file(&cfg.out, "strength.csv", &bytes)?;
            Top::Played(s)
        }
        None if solved[n - 1].is_some() => Top::Solved,
        None => Top::NotPlayed,
    };
    // Rung k's metrics with its paired difference from rung k - 1 (rung 1 against itself, whose
    // step columns stay empty).
    let mut table: Vec<Vec<Metric>> = (0..all.len())
        .map(|k| metrics(&all[k], &all[k.saturating_sub(1)]))
        .collect();
    let sides = [G::side_name(Player::ONE), G::side_name(Player::TWO)];
    let mut solved_note = String::new();
    for (k, v) in solved.iter().enumerate() {
        if let Some(v) = *v {
            apply_solved(k + 1, v, &rows_of[k], sides, &mut table[k])?;
            let _ = write!(
                solved_note,
                " Rung {} ({}) plays perfectly from a solved start, {}: every one of its {} games ended as that value says, and the rates it fixes are reported as exact (cluster solved, an interval of zero width).",
                k + 1,
                names[k],
                v.describe(sides[0], sides[1]),
                all[k].games
            );
        }
    }
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
                s.seat1_wins.values.len().to_string(),
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
    let (first_steps, draw_steps) = (steps_of("first_mover_win_rate"), steps_of("drawishness"));
    let verdict = verdict::verdict_text(
        &names,
        &first_steps,
        &draw_steps,
        first_is_seat1.then(|| G::side_name(Player::ONE)),
        &solved.iter().map(Option::is_some).collect::<Vec<_>>(),
        &top,
    ) + &solved_note;
    let verdict = format!(
        "{}\n{verdict}",
        verdict::strength_text(&names, &top, cfg.strength_games)
    );
    let answers = [
        ("first_mover_win_rate", &first_steps),
        ("drawishness", &draw_steps),
    ];
    manifest.write_file(
        &cfg.out,
        "verdict.csv",
        &verdict_csv([G::NAME, &variant], &answers, &top)?,
    )?;
    manifest.write_file(&cfg.out, "converge.txt", format!("{verdict}\n").as_bytes())?;

    let curve = |name: &str, label: &str| crate::pages::plots::Curve {
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
    crate::pages::plots::curves(
        &cfg.out.join("converge.svg"),
        &format!(
            "{} {variant}: the answer against the agent, self-play, 95% intervals by pair",
            G::NAME
        ),
        "fraction of games",
        &names
            .iter()
            .zip(solved)
            .map(|(n, v)| {
                if v.is_some() {
                    format!("{n} (solved start: its win rate is exact)")
                } else {
                    n.clone()
                }
            })
            .collect::<Vec<_>>(),
        &[
            curve("first_mover_win_rate", &first_label),
            curve("drawishness", "draw share"),
        ],
    )?;
    manifest.status = "complete";
    manifest.finished = now_rfc3339();
    manifest.elapsed_seconds = started.elapsed().as_secs_f64();
    manifest.write(&cfg.out)?;
    crate::pages::run_index::write(&cfg.out, &format!("cowrie converge: {} {variant}", G::NAME))?;

    let mut text = format!(
        "{} ({variant}{}): {} rungs, each agent in both seats, {} games per rung (self-play without seat swap, game i on the same dice in every rung), seed {}\n",
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
        "intervals: 95%, clustered by pair (self-play: each game its own pair); step: the paired difference from the previous rung on the same seeds (docs/metrics.md)"
    );
    let _ = writeln!(text, "{verdict}");
    let _ = writeln!(
        text,
        "rows in {} (converge.csv, {}verdict.csv)",
        cfg.out.display(),
        if strength.is_some() {
            "strength.csv, "
        } else {
            ""
        }
    );
    Ok(text)
}

/// `strength.csv`: the strength match of the top rung against the one below (`game` and
/// `variant` first, then the rungs, 1-based, and the pair-level result).
fn strength_csv(
    labels: [&str; 2],
    names: &[String],
    games: u64,
    s: &Strength,
    truncated: u64,
) -> anyhow::Result<Vec<u8>> {
    let n = names.len();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(STRENGTH_COLUMNS)?;
    let mut rec: Vec<String> = labels.iter().map(ToString::to_string).collect();
    rec.extend([
        n.to_string(),
        (n - 1).to_string(),
        names[n - 1].clone(),
        names[n - 2].clone(),
        games.to_string(),
        s.pairs.to_string(),
        truncated.to_string(),
        f6(s.score),
        f6(s.low),
        f6(s.high),
        f6(s.p_value),
        if s.significant() { "yes" } else { "no" }.to_string(),
    ]);
    w.write_record(&rec)?;
    w.into_inner()
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("writing the strength table")
}

/// `verdict.csv`: per answer with steps, whether it is settled, whether the top rung is shown
/// stronger, and the last step with its interval against the margin.
fn verdict_csv(
    labels: [&str; 2],
    answers: &[(&str, &Vec<Step>)],
    top: &Top,
) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(VERDICT_COLUMNS)?;
    for (metric, steps) in answers {
        let Some(last) = steps.last() else {
            continue;
        };
        let yes = |b: bool| if b { "yes" } else { "no" }.to_string();
        let mut rec: Vec<String> = labels.iter().map(ToString::to_string).collect();
        rec.extend([
            (*metric).to_string(),
            yes(settled(top, last)),
            top.column().to_string(),
            f6(last.diff),
            f6(last.low),
            f6(last.high),
            f6(MARGIN),
            yes(last.within_margin()),
        ]);
        w.write_record(&rec)?;
    }
    w.into_inner()
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("writing the verdict table")
}

/// `cowrie converge`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("Output directory")))]
#[command(mut_arg("resume", |a| a.help("Continue an interrupted run in DIR (same arguments): finished rungs are verified against their manifests and kept, the interrupted one resumes")))]
pub struct ConvergeArgs {
    /// The game and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// A rung's agent, in both seats; give two or more, weakest first.
    #[arg(long = "agent", value_name = "SPEC", required = true, value_parser = agent_spec)]
    pub agents: Vec<AgentSpec>,
    /// Games per rung (self-play: each game on dice of its own, no seat swap).
    #[arg(long, default_value_t = 200, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// Games of the top rung against the rung below, in seat-swapped pairs (even; 0: not
    /// played, and then no answer is settled).
    #[arg(long, value_name = "N", default_value_t = STRENGTH_GAMES, allow_negative_numbers = true, value_parser = game_count)]
    pub strength_games: u64,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
    /// `--force`.
    #[command(flatten)]
    pub forcing: ForceArg,
    /// `--resume`.
    #[command(flatten)]
    pub resuming: ResumeArg,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
    /// Play only shard K of N of the run's units (each rung's games, rung after rung, then the
    /// strength match's seat-swapped pairs, dealt round the shards) and write no tables;
    /// `cowrie merge` joins the shards' directories into the output of the whole run.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

/// A validated convergence run.
#[derive(Clone, Debug)]
pub struct ConvergeConfig {
    /// The rules.
    pub rules: RulesConfig,
    /// The rungs' agents, weakest first (two or more); each plays itself.
    pub agents: Vec<AgentSpec>,
    /// Games per rung (positive; self-play, no seat swap).
    pub games: u64,
    /// Games of the top rung against the rung below (even; 0: not played).
    pub strength_games: u64,
    /// Seed, threads, progress, command line; the seed is shared by every rung.
    pub run: RunConfig,
    /// Output directory.
    pub out: PathBuf,
    /// Continue an interrupted run in `out`: finished rungs are verified and kept, the
    /// interrupted one resumes, the rest are played.
    pub resume: bool,
    /// The slice of the run's units this process plays (`1/1`: all of them).
    pub shard: Shard,
}

impl ConvergeConfig {
    /// `cowrie converge`'s arguments (the rungs' rules, agents and counts are checked by
    /// `cmd::converge::run`, for every rung before any game is played).
    ///
    /// # Errors
    /// Fewer than two agents; an odd `--strength-games`.
    pub fn from_args(a: &ConvergeArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        if a.agents.len() < 2 {
            bail!(
                "converge needs two or more --agent specs (a ladder, weakest first), got {}",
                a.agents.len()
            );
        }
        if a.strength_games > 0 {
            crate::config::check_pairs("--strength-games", a.strength_games)?;
        }
        Ok(ConvergeConfig {
            rules: RulesConfig::from_args(&a.rules)?,
            agents: a.agents.clone(),
            games: a.games,
            strength_games: a.strength_games,
            run: RunConfig::from_args(&a.run, command_line),
            out: a.output.out.clone(),
            resume: a.resuming.resume,
            shard: a.shard.as_deref().map_or(Ok(Shard::WHOLE), str::parse)?,
        })
    }

    /// The whole convergence run a shard's manifest `m` describes, written to `out` by
    /// `command_line` (`cowrie merge`).
    ///
    /// # Errors
    /// A manifest without the run's fields, or rules or agents this cowrie does not know,
    /// naming the field.
    pub fn from_manifest(
        m: &serde_json::Value,
        out: &std::path::Path,
        command_line: &[String],
    ) -> anyhow::Result<Self> {
        let count = |k: &str| m["run"][k].as_u64().with_context(|| format!("no run.{k}"));
        let r = crate::run::pairings::Recorded::of(m, "agents", command_line)?;
        Ok(ConvergeConfig {
            rules: r.rules,
            agents: r.agents,
            games: count("games")?,
            strength_games: count("strength_games")?,
            run: r.run,
            out: out.to_path_buf(),
            resume: false,
            shard: Shard::WHOLE,
        })
    }

    /// The run's `run` in its manifest: what defines its output (a shard's says which).
    #[must_use]
    pub fn manifest_run(&self) -> serde_json::Value {
        let names: Vec<String> = self.agents.iter().map(ToString::to_string).collect();
        let mut run = self.rules.manifest_run(serde_json::json!({
            "agents": names,
            "games": self.games,
            // The rungs' self-play, without seat swap.
            "seat_swap": false,
            "seed": self.run.seed,
            "strength_games": self.strength_games,
        }));
        run["shard"] = serde_json::Value::String(self.shard.to_string());
        run
    }

    /// The manifest of the run starting now, whose agents read `inputs`.
    fn manifest(&self, inputs: crate::run::provenance::Inputs) -> Manifest {
        Manifest::start(
            "converge",
            self.run.command_line.clone(),
            self.manifest_run(),
            self.run.threads,
            self.agents.iter().all(AgentSpec::is_reproducible),
            inputs,
        )
    }
}

/// `cowrie converge`: plays the rungs and prints the verdicts.
///
/// # Errors
/// As [`run`].
pub fn command(args: ConvergeArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    let cfg = ConvergeConfig::from_args(&args, command_line)?;
    crate::run::outputs::check_dir(
        &args.output.out,
        &[],
        args.resuming.resume,
        args.forcing.force,
    )?;
    print_stdout(&run(&cfg)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::record::End;
    use crate::stats::metrics::stats_of;

    /// A Baghchal-like row: seat 1 moves first; `outcome` as `(end_reason, winner_seat)`.
    fn row(i: u64, end_reason: &str, winner: Option<u8>, plies: u32) -> GameRow {
        GameRow {
            game_index: i,
            pair_index: i / 2,
            agent_p1: "perfect:db=d,depth=4".to_string(),
            agent_p2: "perfect:db=d,depth=4".to_string(),
            winner_seat: winner,
            end_reason: match end_reason {
                "win" => End::Win,
                "draw" => End::Draw,
                "truncated" => End::Truncated,
                other => panic!("no end {other}"),
            },
            plies,
            turns: plies,
            first_mover_seat: Some(1),
            choices: u64::from(plies),
            branching_sum: 4 * u64::from(plies),
            ..GameRow::default()
        }
    }

    fn metrics_of(rows: &[GameRow]) -> Vec<Metric> {
        let s = stats_of("perfect", rows);
        metrics(&s, &s)
    }

    fn get<'a>(ms: &'a [Metric], name: &str) -> &'a Metric {
        ms.iter().find(|m| m.name == name).unwrap()
    }

    #[test]
    fn a_solved_draw_fixes_the_wins_and_leaves_the_draw_share_measured() {
        // Six drawn games, two cut by the ply cap: nobody wins, as the solved draw says.
        let rows: Vec<GameRow> = (0..8)
            .map(|i| {
                if i < 2 {
                    row(i, "truncated", None, 1000)
                } else {
                    row(i, "draw", None, 60 + 2 * i as u32)
                }
            })
            .collect();
        let mut ms = metrics_of(&rows);
        // Measured, 0 wins of 8 has a Wilson interval reaching well above 0.
        assert!(get(&ms, "advantage_p1").clustered.1 > 0.2);
        apply_solved(5, Solved::Draw, &rows, ["goats", "tigers"], &mut ms).unwrap();
        for name in ["advantage_p1", "first_mover_win_rate"] {
            let m = get(&ms, name);
            assert_eq!((m.value, m.cluster, m.clustered), (0.0, SOLVED, (0.0, 0.0)));
            assert!(m.design_effect.is_nan());
        }
        // The split between draws by the rules and truncations is not fixed by the value.
        let d = get(&ms, "drawishness");
        assert_eq!((d.value, d.cluster), (0.75, "pair"));
        assert!(d.clustered.0 < 0.75 && d.clustered.1 > 0.75);
        assert_eq!(get(&ms, "timeouts").cluster, "pair");
        assert_eq!(get(&ms, "duration_plies").cluster, "pair");
    }

    #[test]
    fn a_solved_win_fixes_every_outcome_rate() {
        let rows: Vec<GameRow> = (0..6).map(|i| row(i, "win", Some(1), 41)).collect();
        let mut ms = metrics_of(&rows);
        apply_solved(2, Solved::Seat1Wins, &rows, ["goats", "tigers"], &mut ms).unwrap();
        for (name, v) in [
            ("advantage_p1", 1.0),
            ("first_mover_win_rate", 1.0),
            ("drawishness", 0.0),
            ("timeouts", 0.0),
        ] {
            let m = get(&ms, name);
            assert_eq!(
                (m.value, m.cluster, m.clustered),
                (v, SOLVED, (v, v)),
                "{name}"
            );
        }
    }

    #[test]
    fn a_game_the_solved_value_does_not_admit_is_refused_naming_it() {
        let mut rows: Vec<GameRow> = (0..4).map(|i| row(i, "draw", None, 80)).collect();
        rows[3] = row(3, "win", Some(2), 75);
        let mut ms = metrics_of(&rows);
        let e = apply_solved(6, Solved::Draw, &rows, ["goats", "tigers"], &mut ms).unwrap_err();
        let e = e.to_string();
        assert!(
            e.contains("rung 6") && e.contains("a draw") && e.contains("game 3"),
            "{e}"
        );
        assert!(e.contains("a win for seat 2"), "{e}");
        // And a won start whose games include a draw.
        let rows: Vec<GameRow> = (0..2).map(|i| row(i, "draw", None, 80)).collect();
        let mut ms = metrics_of(&rows);
        let e = apply_solved(1, Solved::Seat2Wins, &rows, ["goats", "tigers"], &mut ms)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("a win for the tigers") && e.contains("game 0"),
            "{e}"
        );
    }

    #[test]
    fn exact_scores_map_to_values_by_sign() {
        use cowrie_solver::Value;
        assert_eq!(
            Solved::of_score(Value::Win(7).preference()),
            Solved::Seat1Wins
        );
        assert_eq!(
            Solved::of_score(Value::Loss(0).preference()),
            Solved::Seat2Wins
        );
        assert_eq!(Solved::of_score(Value::Draw.preference()), Solved::Draw);
    }
}
