//! `cowrie match`: self-play between two agents, games in parallel, rows in schedule order.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};
use cowrie_agents::{AgentSpec, AnyAgent, Evaluate};
use cowrie_engine::{Game, Player, RuleSet};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::cli::MatchArgs;
use crate::manifest::{now_rfc3339, Manifest};
use crate::record::{self, GameResult, MatchLabels};
use crate::registry::{dispatch, GameTask};
use crate::schedule::slot;
use crate::seeds::{agent_stream, chance_stream};
use crate::selfplay::{play, Buffers};
use crate::stats::{Lengths, Tally};

/// Games played between two writes of `games.csv` (rows are flushed after each batch).
const BATCH: u64 = 256;

/// A validated match configuration.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game's name.
    pub game: String,
    /// A named variant, or the game's default.
    pub variant: Option<String>,
    /// `key=value` overrides.
    pub options: Vec<String>,
    /// The agents named by `--p1` and `--p2`.
    pub agents: [AgentSpec; 2],
    /// Games to play.
    pub games: u64,
    /// Seat-swapped pairs.
    pub swap: bool,
    /// Run seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Output directory.
    pub out: PathBuf,
    /// Show a progress bar (only drawn on a terminal).
    pub progress: bool,
    /// The command line, for the manifest.
    pub command_line: Vec<String>,
}

impl MatchConfig {
    /// Validates the parsed arguments.
    ///
    /// # Errors
    /// Zero games, an odd number of games with seat swapping, zero threads.
    pub fn from_args(a: &MatchArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        let cfg = MatchConfig {
            game: a.game.clone(),
            variant: a.variant.clone(),
            options: a.options.clone(),
            agents: [a.p1.clone(), a.p2.clone()],
            games: a.games,
            swap: !a.no_swap,
            seed: a.run.seed,
            threads: a.run.threads,
            out: a.out.clone(),
            progress: !a.run.quiet,
            command_line,
        };
        cfg.validate()?;
        Ok(cfg)
    }

    fn validate(&self) -> anyhow::Result<()> {
        if self.games == 0 {
            bail!("--games 0: a match needs at least one game");
        }
        if self.swap && self.games % 2 == 1 {
            bail!(
                "--games {}: games come in seat-swapped pairs, so the count must be even (or pass --no-swap)",
                self.games
            );
        }
        if self.threads == 0 {
            bail!("--threads 0: at least one worker thread is needed");
        }
        Ok(())
    }
}

/// A finished match: its tallies and the text printed on stdout.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Per seat (index 0 = seat 1).
    pub seats: [Tally; 2],
    /// Per agent (index 0 = `--p1`'s spec).
    pub agents: [Tally; 2],
    /// Plies per game.
    pub plies: Lengths,
    /// Turns per game.
    pub turns: Lengths,
    /// The summary table.
    pub text: String,
}

struct MatchTask<'a>(&'a MatchConfig);

impl GameTask for MatchTask<'_> {
    type Output = MatchReport;
    fn run<G: Game + Evaluate>(self) -> anyhow::Result<MatchReport> {
        run_match::<G>(self.0)
    }
}

/// Runs a match for the game the config names.
///
/// # Errors
/// Unknown game, variant, option; unwritable output.
pub fn run(cfg: &MatchConfig) -> anyhow::Result<MatchReport> {
    cfg.validate()?;
    dispatch(&cfg.game, MatchTask(cfg))
}

/// Runs a match of game `G`.
///
/// # Errors
/// Unknown variant or option; unwritable output.
pub fn run_match<G: Game + Evaluate>(cfg: &MatchConfig) -> anyhow::Result<MatchReport> {
    let rules = G::Rules::resolve(cfg.variant.as_deref(), &cfg.options)?;
    let variant = cfg
        .variant
        .clone()
        .unwrap_or_else(|| G::Rules::variants()[0].name.to_string());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .context("starting worker threads")?;
    crate::output::create_dir(&cfg.out)?;
    let csv_path = cfg.out.join("games.csv");
    let mut writer = csv::Writer::from_path(&csv_path)
        .with_context(|| format!("cannot write '{}'", csv_path.display()))?;
    writer.write_record(record::header::<G>())?;
    writer.flush()?;

    let labels = MatchLabels {
        seed: cfg.seed,
        variant: variant.clone(),
        options: cfg.options.join(";"),
        agents: [cfg.agents[0].to_string(), cfg.agents[1].to_string()],
    };
    let started = Instant::now();
    let mut manifest = Manifest {
        status: "running",
        command: "match",
        command_line: cfg.command_line.clone(),
        cowrie_version: env!("CARGO_PKG_VERSION"),
        git_commit: env!("COWRIE_GIT_COMMIT"),
        game: G::NAME,
        variant: variant.clone(),
        options: rules
            .resolved()
            .into_iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::String(v)))
            .collect(),
        agents: labels.agents.clone(),
        games: cfg.games,
        seat_swap: cfg.swap,
        seed: cfg.seed,
        threads: cfg.threads,
        reproducible: cfg.agents.iter().all(AgentSpec::is_reproducible),
        started: now_rfc3339(),
        finished: String::new(),
        elapsed_seconds: 0.0,
        games_written: 0,
    };
    manifest.write(&cfg.out)?;

    let bar = progress_bar(cfg.games, cfg.progress);
    let mut results: Vec<GameResult> = Vec::with_capacity(cfg.games as usize);
    let mut start = 0;
    while start < cfg.games {
        let end = (start + BATCH).min(cfg.games);
        let batch: Vec<GameResult> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map_init(Buffers::<G>::default, |buf, i| {
                    play_one::<G>(i, cfg, &rules, &labels, buf)
                })
                .collect()
        });
        for r in &batch {
            writer.write_record(&r.fields)?;
        }
        writer
            .flush()
            .with_context(|| format!("cannot write '{}'", csv_path.display()))?;
        bar.inc(end - start);
        results.extend(batch);
        start = end;
    }
    bar.finish_and_clear();

    let report = summarise::<G>(cfg, &variant, &results);
    write_summary_csv(&cfg.out, &report, &labels)?;
    manifest.status = "complete";
    manifest.finished = now_rfc3339();
    manifest.elapsed_seconds = started.elapsed().as_secs_f64();
    manifest.games_written = results.len() as u64;
    manifest.write(&cfg.out)?;
    Ok(report)
}

fn play_one<G: Game + Evaluate>(
    game_index: u64,
    cfg: &MatchConfig,
    rules: &G::Rules,
    labels: &MatchLabels,
    buf: &mut Buffers<G>,
) -> GameResult {
    let s = slot(game_index, cfg.swap);
    let (spec1, spec2) = if s.swapped {
        (&cfg.agents[1], &cfg.agents[0])
    } else {
        (&cfg.agents[0], &cfg.agents[1])
    };
    let mut agents = [
        AnyAgent::<G>::build(spec1, agent_stream(cfg.seed, game_index, Player::ONE)),
        AnyAgent::build(spec2, agent_stream(cfg.seed, game_index, Player::TWO)),
    ];
    let mut chance = chance_stream(cfg.seed, s.pair_index);
    let (state, stats) = play::<G, _>(rules, &mut agents, &mut chance, buf);
    record::result(s, labels, &state, &stats)
}

fn progress_bar(games: u64, wanted: bool) -> ProgressBar {
    let target = if wanted && std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(games), target);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  ETA {eta}")
    {
        bar.set_style(style);
    }
    bar
}

fn summarise<G: Game>(cfg: &MatchConfig, variant: &str, results: &[GameResult]) -> MatchReport {
    let mut seats = [Tally::default(); 2];
    let mut agents = [Tally::default(); 2];
    for r in results {
        for seat in 0..2u8 {
            // The agent in this seat: --p1's spec sits in seat 1 unless the game is swapped.
            let agent = usize::from(seat) ^ usize::from(r.slot.swapped);
            for t in [&mut seats[usize::from(seat)], &mut agents[agent]] {
                t.n += 1;
                match (r.end_reason, r.winner_seat) {
                    ("draw", _) => t.draws += 1,
                    ("win", Some(w)) if w == seat + 1 => t.wins += 1,
                    ("win", Some(_)) => t.losses += 1,
                    _ => t.truncated += 1,
                }
            }
        }
    }
    let plies: Vec<u32> = results.iter().map(|r| r.plies).collect();
    let turns: Vec<u32> = results.iter().map(|r| r.turns).collect();
    let plies = Lengths::of(&plies);
    let turns = Lengths::of(&turns);
    let mut text = String::new();
    let pairing = if cfg.swap {
        format!("{} seat-swapped pairs", cfg.games / 2)
    } else {
        "no seat swap".to_string()
    };
    let _ = writeln!(
        text,
        "{} ({variant}{}): {} games ({pairing}), seed {}",
        G::NAME,
        if cfg.options.is_empty() {
            String::new()
        } else {
            format!("; {}", cfg.options.join(", "))
        },
        cfg.games,
        cfg.seed
    );
    let _ = writeln!(
        text,
        "{:<30} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9}  95% Wilson interval",
        "", "games", "wins", "draws", "losses", "trunc.", "win rate"
    );
    let rows = [
        (format!("seat 1 ({})", G::side_name(Player::ONE)), seats[0]),
        (format!("seat 2 ({})", G::side_name(Player::TWO)), seats[1]),
        (format!("--p1 {}", cfg.agents[0]), agents[0]),
        (format!("--p2 {}", cfg.agents[1]), agents[1]),
    ];
    for (label, t) in &rows {
        let (lo, hi) = t.win_interval();
        let _ = writeln!(
            text,
            "{label:<30} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9.4}  [{lo:.4}, {hi:.4}]",
            t.n,
            t.wins,
            t.draws,
            t.losses,
            t.truncated,
            t.win_rate()
        );
    }
    let _ = writeln!(
        text,
        "plies per game: mean {:.2} (sd {:.2}), median {}, max {}; turns per game: mean {:.2}, median {}, max {}",
        plies.mean, plies.sd, plies.median, plies.max, turns.mean, turns.median, turns.max
    );
    let _ = writeln!(
        text,
        "win rates are fractions of all games (draws and truncations count in the denominator); rows in {}",
        cfg.out.join("games.csv").display()
    );
    MatchReport {
        seats,
        agents,
        plies,
        turns,
        text,
    }
}

fn write_summary_csv(dir: &Path, report: &MatchReport, labels: &MatchLabels) -> anyhow::Result<()> {
    let path = dir.join("summary.csv");
    let mut w = csv::Writer::from_path(&path)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    let mut header = vec!["group", "label"];
    header.extend(Tally::CSV_COLUMNS);
    w.write_record(&header)?;
    let rows = [
        ("seat", "1".to_string(), report.seats[0]),
        ("seat", "2".to_string(), report.seats[1]),
        (
            "agent",
            format!("p1:{}", labels.agents[0]),
            report.agents[0],
        ),
        (
            "agent",
            format!("p2:{}", labels.agents[1]),
            report.agents[1],
        ),
    ];
    for (group, label, t) in rows {
        let mut fields = vec![group.to_string(), label];
        fields.extend(t.csv_fields());
        w.write_record(&fields)?;
    }
    w.flush()
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    Ok(())
}
