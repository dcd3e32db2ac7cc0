//! `cowrie plan [--shards N] COMMAND ARGS...`: how a run of `match`, `compare`, `study`,
//! `ladder` or `tournament` with those arguments splits into shards, without playing a game:
//! the largest shard count that leaves no shard empty, and for `N` shards each one's pairs and
//! games.
//!
//! A unit is what a shard plays whole: a seat-swapped pair, or a game where an agent plays
//! itself (self-play has no seat swap). `match`, `compare` and `study` deal each run's units
//! round the shards on their own (shard K plays units `K-1, K-1+N, ...` of every run), so the
//! largest count is the fewest units of a run; `ladder` and `tournament` number their units
//! pairing after pairing over the whole run, so it is all their units.

use std::fmt::Write as _;

use anyhow::bail;
use clap::{Args, Subcommand};

use crate::cmd::compare::CompareArgs;
use crate::cmd::ladder::{LadderArgs, LadderConfig};
use crate::cmd::match_cmd::MatchArgs;
use crate::cmd::study::{StudyArgs, StudyConfig};
use crate::cmd::tournament::TournamentArgs;
use crate::output::print_stdout;
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
        let mut before = 0;
        let (mut units, mut games) = (0, 0);
        for p in &self.parts {
            let mine = if self.global {
                shard.after(before)
            } else {
                shard
            };
            let n = Schedule::new(p.units, false, mine).len();
            units += n;
            games += n * p.games_per_unit;
            before += p.units;
        }
        (units, games)
    }
}

fn layout(run: &Planned) -> anyhow::Result<Layout> {
    let cl = Vec::new;
    let given = |s: &Option<String>| s.as_deref().map(str::parse::<Shard>).transpose();
    Ok(match run {
        Planned::Match(a) => {
            let m = MatchConfig::from_args(a, cl())?;
            check_agents(&m.rules, &m.agents, m.seed)?;
            Layout {
                what: format!("match: {} games", m.games),
                parts: vec![Part::of(&m)],
                global: false,
                shard: given(&a.shard)?,
            }
        }
        Planned::Compare(a) => {
            let c = CompareConfig::compare(a, cl())?;
            for (_, rules) in &c.sets {
                check_agents(rules, std::slice::from_ref(&c.agent), c.run.seed)?;
            }
            Layout {
                what: format!("compare: {} rule sets of {} games", c.sets.len(), c.games),
                parts: (0..c.sets.len()).map(|i| Part::of(&c.pairing(i))).collect(),
                global: false,
                shard: given(&a.shard)?,
            }
        }
        Planned::Study(a) => {
            let s = StudyConfig::from_args(a, cl())?;
            let runs: u64 = crate::cmd::study::runs(s.db_dir.as_deref())
                .iter()
                .map(|r| r.variants.len() as u64)
                .sum();
            // Every run of the study is self-play: each game its own unit.
            let part = Part {
                units: s.games,
                games_per_unit: 1,
            };
            Layout {
                what: format!("study: {runs} runs of {} games", s.games),
                parts: vec![part; usize::try_from(runs).unwrap_or(0)],
                global: false,
                shard: given(&a.shard)?,
            }
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
    Layout {
        what: format!(
            "{command}: {} {noun} of {} games",
            pairings.len(),
            cfg.games_per_pair
        ),
        parts: whole.matches(pairings).iter().map(Part::of).collect(),
        global: true,
        shard,
    }
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
            " (the run's units, numbered pairing after pairing)"
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
        let _ = writeln!(text, "{:<12} {:>10} {:>12}", "shard", "units", "games");
        for k in 1..=n {
            let shard = Shard { k, n };
            let (u, g) = l.share(shard);
            let _ = writeln!(text, "{:<12} {u:>10} {g:>12}", shard.to_string());
        }
        let _ = writeln!(
            text,
            "cost is counted in games; a game's time depends on the agents and the game: time one shard to estimate the rest"
        );
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
