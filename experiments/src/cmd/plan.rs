//! `cowrie plan [--shards N] [--calibrate C] COMMAND ARGS...`: how a run of `match`, `compare`,
//! `study`, `ladder`, `tournament`, `converge` or `train-eval` with those arguments splits into shards,
//! without playing a game of it: the largest shard count that leaves no shard empty, and for
//! `N` shards each one's pairs and games, and with `--calibrate` each one's expected CPU time.
//!
//! A unit is what a shard plays whole: a seat-swapped pair, or a game where an agent plays
//! itself (self-play has no seat swap). `match`, `compare` and `study` deal each run's units
//! round the shards on their own (shard K plays units `K-1, K-1+N, ...` of every run), so the
//! largest count is the fewest units of a run; `ladder`, `tournament` and `converge` number
//! their units match after match over the whole run, so it is all their units, and
//! `train-eval` numbers its pairs snapshot after snapshot the same way.
//!
//! The expected cost (`--calibrate C`) is measured, not modelled: the first `C` units of each of
//! the run's matches are played on one thread into a temporary directory, on the run's own seed
//! and agents, and each match's CPU seconds per game, times the games a shard plays of it,
//! summed over the matches, is the shard's estimate.

use std::fmt::Write as _;

use anyhow::bail;
use clap::{Args, Subcommand};

use crate::cmd::compare::CompareArgs;
use crate::cmd::converge::{ConvergeArgs, ConvergeConfig};
use crate::cmd::ladder::{LadderArgs, LadderConfig};
use crate::cmd::match_cmd::MatchArgs;
use crate::cmd::study::{StudyArgs, StudyConfig};
use crate::cmd::tournament::TournamentArgs;
use crate::cmd::train_eval::TrainEvalArgs;
use crate::output::print_stdout;
use crate::progress::Progress;
use crate::run::comparison::CompareConfig;
use crate::run::pairings::PairingsConfig;
use crate::run::runner::{check_agents, MatchConfig};
use crate::run::schedule::{Schedule, Shard};

/// `cowrie plan`.
#[derive(Debug, Args, Clone)]
pub struct PlanArgs {
    /// Show each of N shards' pairs and games (default: the N of the command's own --shard K/N).
    #[arg(long, value_name = "N")]
    pub shards: Option<u64>,
    /// Estimate each shard's CPU time by playing the first C units of each of the run's matches
    /// (seeded as the run, one thread, into a temporary directory) and timing them.
    #[arg(long, value_name = "C")]
    pub calibrate: Option<u64>,
    /// The run to plan, as it would be given to cowrie.
    #[command(subcommand)]
    pub run: Planned,
}

/// The commands `cowrie plan` plans, with their own arguments.
#[derive(Debug, Subcommand, Clone)]
pub enum Planned {
    /// `cowrie match`'s arguments.
    Match(MatchArgs),
    /// `cowrie compare`'s arguments.
    Compare(CompareArgs),
    /// `cowrie study`'s arguments.
    Study(StudyArgs),
    /// `cowrie ladder`'s arguments.
    Ladder(LadderArgs),
    /// `cowrie tournament`'s arguments.
    Tournament(TournamentArgs),
    /// `cowrie converge`'s arguments.
    Converge(ConvergeArgs),
    /// `cowrie train-eval`'s arguments.
    TrainEval(TrainEvalArgs),
}

/// One run of the planned command (a match, a rule set's run, a pairing): its units, and the
/// games in each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Part {
    units: u64,
    games_per_unit: u64,
}

impl Part {
    fn of(m: &MatchConfig) -> Part {
        let games_per_unit = if m.swap { 2 } else { 1 };
        Part {
            units: m.games / games_per_unit,
            games_per_unit,
        }
    }
}

/// The planned run: what it is, its parts, and whether its units are numbered over the whole
/// run (a ladder, a tournament) or in each part on its own.
struct Layout {
    what: String,
    parts: Vec<Part>,
    /// The match each part is, whole.
    matches: Vec<MatchConfig>,
    global: bool,
    /// The N of the command's own `--shard K/N`.
    shard: Option<Shard>,
}

impl Layout {
    /// The largest shard count that leaves no shard empty.
    fn most_shards(&self) -> u64 {
        if self.global {
            self.parts.iter().map(|p| p.units).sum()
        } else {
            self.parts.iter().map(|p| p.units).min().unwrap_or(0)
        }
    }

    /// Shard `shard`'s units and games.
    fn share(&self, shard: Shard) -> (u64, u64) {
        let (mut units, mut games) = (0, 0);
        for (p, n) in self.parts.iter().zip(self.units_of(shard)) {
            units += n;
            games += n * p.games_per_unit;
        }
        (units, games)
    }

    /// The units shard `shard` plays of each part.
    fn units_of(&self, shard: Shard) -> Vec<u64> {
        let mut before = 0;
        self.parts
            .iter()
            .map(|p| {
                let mine = if self.global {
                    shard.after(before)
                } else {
                    shard
                };
                before += p.units;
                Schedule::new(p.units, false, mine).len()
            })
            .collect()
    }

    fn of(what: String, matches: Vec<MatchConfig>, global: bool, shard: Option<Shard>) -> Self {
        Layout {
            what,
            parts: matches.iter().map(Part::of).collect(),
            matches,
            global,
            shard,
        }
    }
}

fn layout(run: &Planned) -> anyhow::Result<Layout> {
    let cl = Vec::new;
    let given = |s: &Option<String>| s.as_deref().map(str::parse::<Shard>).transpose();
    Ok(match run {
        Planned::Match(a) => {
            let m = MatchConfig::from_args(a, cl())?;
            check_agents(&m.rules, &m.agents, m.seed)?;
            let m = MatchConfig {
                shard: Shard::WHOLE,
                ..m
            };
            Layout::of(
                format!("match: {} games", m.games),
                vec![m],
                false,
                given(&a.shard)?,
            )
        }
        Planned::Compare(a) => {
            let c = CompareConfig::compare(a, cl())?;
            for (_, rules) in &c.sets {
                check_agents(rules, std::slice::from_ref(&c.agent), c.run.seed)?;
            }
            let c = CompareConfig {
                shard: Shard::WHOLE,
                ..c
            };
            Layout::of(
                format!("compare: {} rule sets of {} games", c.sets.len(), c.games),
                (0..c.sets.len()).map(|i| c.pairing(i)).collect(),
                false,
                given(&a.shard)?,
            )
        }
        Planned::Study(a) => {
            let s = StudyConfig::from_args(a, cl())?;
            let s = StudyConfig {
                shard: Shard::WHOLE,
                ..s
            };
            let mut matches = Vec::new();
            for r in crate::cmd::study::runs(s.db_dir.as_deref()) {
                let c = crate::cmd::study::comparison_of(&s, &r, Progress::Hidden)?;
                matches.extend((0..c.sets.len()).map(|i| c.pairing(i)));
            }
            // Every run of the study is self-play: each game its own unit.
            Layout::of(
                format!("study: {} runs of {} games", matches.len(), s.games),
                matches,
                false,
                given(&a.shard)?,
            )
        }
        Planned::Ladder(a) => {
            let l = LadderConfig::from_args(a, cl())?;
            check_agents(&l.steps.rules, &l.steps.agents, l.steps.run.seed)?;
            let steps = l.steps.steps();
            pairings_layout(&l.steps, &steps, "ladder", "steps", given(&a.shard)?)
        }
        Planned::Tournament(a) => {
            let t = PairingsConfig::tournament(a, cl())?;
            check_agents(&t.rules, &t.agents, t.run.seed)?;
            let all = t.round_robin();
            pairings_layout(&t, &all, "tournament", "pairings", given(&a.shard)?)
        }
        Planned::Converge(a) => {
            let c = ConvergeConfig::from_args(a, cl())?;
            let c = ConvergeConfig {
                shard: Shard::WHOLE,
                ..c
            };
            let parts = crate::cmd::converge::parts(&c)?;
            Layout::of(
                format!(
                    "converge: {} rungs of {} games{}",
                    parts.rungs.len(),
                    c.games,
                    parts
                        .strength
                        .as_ref()
                        .map_or_else(String::new, |m| format!(
                            " and a strength match of {} games",
                            m.games
                        ))
                ),
                parts.matches().cloned().collect(),
                true,
                given(&a.shard)?,
            )
        }
        Planned::TrainEval(a) => {
            crate::cmd::train_eval::check_eval_games(a.eval_games)?;
            let snapshots = crate::cmd::train_eval::snapshots(&a.snapshots)?.len();
            let part = Part {
                units: a.eval_games / 2,
                games_per_unit: 2,
            };
            Layout {
                what: format!(
                    "train-eval: {snapshots} snapshots of {} games",
                    a.eval_games
                ),
                parts: vec![part; snapshots],
                matches: Vec::new(),
                global: true,
                shard: given(&a.shard)?,
            }
        }
    })
}

fn pairings_layout(
    cfg: &PairingsConfig,
    pairings: &[crate::run::pairings::Pairing],
    command: &str,
    noun: &str,
    shard: Option<Shard>,
) -> Layout {
    let whole = PairingsConfig {
        shard: Shard::WHOLE,
        ..cfg.clone()
    };
    Layout::of(
        format!(
            "{command}: {} {noun} of {} games",
            pairings.len(),
            cfg.games_per_pair
        ),
        whole.matches(pairings),
        true,
        shard,
    )
}

/// The CPU time this process has used, in seconds, where the system tells it (Linux's
/// `/proc/self/stat`, in clock ticks of 1/100 s).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces), from the state (field 3) on:
    // utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    #[allow(clippy::cast_precision_loss)]
    Some(ticks as f64 / 100.0)
}

/// What a calibration measured: per match, seconds per game; and what the seconds are.
struct Calibration {
    per_game: Vec<f64>,
    games: u64,
    seconds: f64,
    clock: &'static str,
}

/// Plays the first `units` units of every match of `l` (its own seed and agents, one thread,
/// no progress) into a temporary directory, and times each.
///
/// # Errors
/// A match that cannot be played; a temporary directory that cannot be made.
fn calibrate(l: &Layout, units: u64) -> anyhow::Result<Calibration> {
    let dir = tempfile::Builder::new()
        .prefix("cowrie-plan-")
        .tempdir()
        .map_err(|e| anyhow::anyhow!("--calibrate: cannot make a temporary directory: {e}"))?;
    let clock = if cpu_seconds().is_some() {
        "CPU seconds (user + system)"
    } else {
        "seconds of wall time"
    };
    let now = || {
        cpu_seconds().unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64())
        })
    };
    let mut per_game = Vec::new();
    let (mut games, mut seconds) = (0, 0.0);
    for (i, (m, p)) in l.matches.iter().zip(&l.parts).enumerate() {
        let n = units.min(p.units) * p.games_per_unit;
        let trial = MatchConfig {
            games: n,
            threads: 1,
            out: dir.path().join(i.to_string()),
            progress: Progress::Hidden,
            shard: Shard::WHOLE,
            resume: false,
            record: false,
            ..m.clone()
        };
        let t = now();
        crate::run::runner::run(&trial)?;
        let took = now() - t;
        #[allow(clippy::cast_precision_loss)]
        per_game.push(took / n as f64);
        games += n;
        seconds += took;
    }
    Ok(Calibration {
        per_game,
        games,
        seconds,
        clock,
    })
}

/// The plan of `args`, as printed.
///
/// # Errors
/// Arguments the planned command refuses (agents that cannot play its rules among them, as the
/// command checks them before it writes); a shard count that would leave a shard empty.
pub fn plan(args: &PlanArgs) -> anyhow::Result<String> {
    let l = layout(&args.run)?;
    let most = l.most_shards();
    let units: u64 = l.parts.iter().map(|p| p.units).sum();
    let games: u64 = l.parts.iter().map(|p| p.units * p.games_per_unit).sum();
    let mut text = format!(
        "{}: {units} units, {games} games (a unit: a seat-swapped pair, or a game of an agent against itself)\n",
        l.what
    );
    let _ = writeln!(
        text,
        "largest shard count with no empty shard: {most}{}",
        if l.global {
            " (the run's units, numbered match after match: its pairings, steps, rungs or snapshots in order)"
        } else {
            " (the units of each run, every run sliced alike)"
        }
    );
    let n = match (args.shards, l.shard) {
        (Some(0), _) => bail!("--shards 0: at least one shard is needed"),
        (Some(n), _) => Some(n),
        (None, s) => s.map(|s| s.n),
    };
    if let Some(n) = n {
        if n > most {
            bail!(
                "--shards {n}: the run has {most} units to deal, so some shard would play none (use at most {most} shards)"
            );
        }
        let cal = args
            .calibrate
            .map(|c| match c {
                0 => bail!("--calibrate 0: at least one unit of each match is needed"),
                _ if l.matches.is_empty() => bail!(
                    "--calibrate: a train-eval's units are not timed here; time a cowrie match of td:weights=SNAPSHOT against its opponent instead"
                ),
                c => calibrate(&l, c),
            })
            .transpose()?;
        let _ = write!(text, "{:<12} {:>10} {:>12}", "shard", "units", "games");
        text.push_str(if cal.is_some() {
            "   est. seconds\n"
        } else {
            "\n"
        });
        for k in 1..=n {
            let shard = Shard { k, n };
            let (u, g) = l.share(shard);
            let _ = write!(text, "{:<12} {u:>10} {g:>12}", shard.to_string());
            if let Some(c) = &cal {
                let est: f64 = l
                    .units_of(shard)
                    .iter()
                    .zip(&l.parts)
                    .zip(&c.per_game)
                    .map(|((&u, p), s)| {
                        #[allow(clippy::cast_precision_loss)]
                        let games = (u * p.games_per_unit) as f64;
                        games * s
                    })
                    .sum();
                let _ = write!(text, " {est:>14.2}");
            }
            text.push('\n');
        }
        match &cal {
            Some(c) => {
                let _ = writeln!(
                    text,
                    "estimate: {} per game, measured by playing up to {} units from the start of each of the run's {} matches ({} games, {:.2} s in all, one thread, on this machine as loaded now{}), times the games each shard plays of each match; games differ in length, so a shard's time varies about it",
                    c.clock,
                    args.calibrate.unwrap_or_default(),
                    l.matches.len(),
                    c.games,
                    c.seconds,
                    if c.clock.starts_with("CPU") {
                        "; the clock counts in steps of 0.01 s, so calibrate for a second or more"
                    } else {
                        ""
                    }
                );
            }
            None => {
                let _ = writeln!(
                    text,
                    "cost is counted in games; a game's time depends on the agents and the game: --calibrate C times the first C units of each match to estimate each shard's seconds"
                );
            }
        }
    }
    Ok(text)
}

/// `cowrie plan`.
///
/// # Errors
/// As [`plan`].
pub fn command(args: PlanArgs, _command_line: Vec<String>) -> anyhow::Result<()> {
    print_stdout(&plan(&args)?)
}
