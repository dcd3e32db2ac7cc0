//! `cowrie equity`: the match-equity table of a run of matches played to a target score
//! (Julbahar), from its `subgames.csv`: per pair of scores and who starts the next game, the
//! probability of winning the match by the model of [`crate::stats::match_equity`] with 95% bootstrap
//! intervals, and the raw frequency over the games that started from those scores with its
//! Wilson interval.
//!
//! Writes `OUT/equity.csv`, columns `score_self, score_opponent, starts` (`yes`: the player
//! whose equity it is starts the next game), `model_equity, model_ci95_low, model_ci95_high`,
//! `raw_visits` (games begun at those scores with that starter), `raw_wins` (of which that
//! player won the match), `raw_equity, raw_ci95_low, raw_ci95_high` (empty without visits).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use cowrie_engine::Julbahar;

use crate::args::{whole_in, OutArg, SeedArg};
use crate::output::f6;
use crate::output::print_stdout;
use crate::run::record::read_subgames;
use crate::stats::intervals::{wilson, z95};
use crate::stats::match_equity::{bootstrap, model, outcomes, raw, Game};

/// A validated equity table request.
#[derive(Clone, Debug)]
pub struct EquityConfig {
    /// The `subgames.csv` of a run.
    pub subgames: PathBuf,
    /// The score that ends a match, from 1 to 200.
    pub target: u32,
    /// Bootstrap resamples, at least 1.
    pub resamples: usize,
    /// Seed of the resampling.
    pub seed: u64,
    /// Fewest visits for a raw frequency to be printed beside the model.
    pub min_visits: u64,
    /// Output directory.
    pub out: PathBuf,
}

/// Reads the games of a Julbahar run's `subgames.csv`.
///
/// # Errors
/// An unreadable file, another header or a field of the wrong type, naming them.
pub fn read_games(path: &Path) -> anyhow::Result<Vec<Game>> {
    let mut games = Vec::new();
    for (i, (key, g)) in read_subgames::<Julbahar>(path)?.into_iter().enumerate() {
        if !(1..=2).contains(&g.first_mover_seat) {
            anyhow::bail!(
                "'{}' row {}: first_mover_seat '{}' is not 1 or 2",
                path.display(),
                i + 1,
                g.first_mover_seat
            );
        }
        games.push(Game {
            pair: key.pair_index,
            game_index: key.game_index,
            first_mover: g.first_mover_seat,
            points: [g.points_p1, g.points_p2],
        });
    }
    if games.is_empty() {
        anyhow::bail!("'{}' holds no games", path.display());
    }
    Ok(games)
}

/// Writes `OUT/equity.csv`; returns the table printed on stdout.
///
/// # Errors
/// Unreadable input or unwritable output (the command line has checked the ranges).
pub fn run(cfg: &EquityConfig) -> anyhow::Result<String> {
    let games = read_games(&cfg.subgames)?;
    crate::output::create_dir(&cfg.out)?;
    let f = model(&outcomes(&games), cfg.target);
    let ci = bootstrap(&games, cfg.target, cfg.resamples, cfg.seed);
    let counts = raw(&games, cfg.target);
    let t = cfg.target as usize;
    let path = cfg.out.join("equity.csv");
    let mut w = csv::Writer::from_path(&path)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    w.write_record([
        "score_self",
        "score_opponent",
        "starts",
        "model_equity",
        "model_ci95_low",
        "model_ci95_high",
        "raw_visits",
        "raw_wins",
        "raw_equity",
        "raw_ci95_low",
        "raw_ci95_high",
    ])?;
    // The cell (a, b, starts): the model's equity, its interval, and (wins, visits).
    let cell = |a: usize, b: usize, starts: bool| {
        if starts {
            (f[a][b], ci[a][b], counts[a][b])
        } else {
            let (wins, visits) = counts[b][a];
            (
                1.0 - f[b][a],
                (1.0 - ci[b][a].1, 1.0 - ci[b][a].0),
                (visits - wins, visits),
            )
        }
    };
    for a in 0..t {
        for b in 0..t {
            for starts in [true, false] {
                let (e, (lo, hi), (wins, visits)) = cell(a, b, starts);
                let (rlo, rhi) = wilson(wins, visits, z95());
                let (re, rlo, rhi) = if visits == 0 {
                    (f64::NAN, f64::NAN, f64::NAN)
                } else {
                    (wins as f64 / visits as f64, rlo, rhi)
                };
                w.write_record([
                    a.to_string(),
                    b.to_string(),
                    if starts { "yes" } else { "no" }.to_string(),
                    f6(e),
                    f6(lo),
                    f6(hi),
                    visits.to_string(),
                    wins.to_string(),
                    f6(re),
                    f6(rlo),
                    f6(rhi),
                ])?;
            }
        }
    }
    w.flush()
        .with_context(|| format!("cannot write '{}'", path.display()))?;

    let matches = games.chunk_by(|x, y| x.game_index == y.game_index).count();
    let mut text = format!(
        "match equity to {} from {} games in {matches} matches ({}), model: a Markov chain over scores \
         with the run's distribution of points per game; {} bootstrap resamples of pairs of matches, seed {}\n",
        cfg.target,
        games.len(),
        cfg.subgames.display(),
        cfg.resamples,
        cfg.seed
    );
    let step = (t / 6).max(1);
    let shown: Vec<usize> = (0..t).step_by(step).collect();
    let _ = writeln!(
        text,
        "equity of the player who starts the next game, own score down, opponent's across (model; raw frequency below where {} or more games began there)",
        cfg.min_visits
    );
    let _ = write!(text, "{:>6}", "");
    for b in &shown {
        let _ = write!(text, " {b:>7}");
    }
    let _ = writeln!(text);
    for &a in &shown {
        let _ = write!(text, "{a:>6}");
        for &b in &shown {
            let _ = write!(text, " {:>7.3}", f[a][b]);
        }
        let _ = writeln!(text);
        let _ = write!(text, "{:>6}", "raw");
        for &b in &shown {
            let (wins, visits) = counts[a][b];
            if visits >= cfg.min_visits {
                let _ = write!(text, " {:>7.3}", wins as f64 / visits as f64);
            } else {
                let _ = write!(text, " {:>7}", "");
            }
        }
        let _ = writeln!(text);
    }
    let (e, (lo, hi), (wins, visits)) = cell(0, 0, true);
    let _ = writeln!(
        text,
        "at 0-0 the starter's equity is {e:.3} [{lo:.3}, {hi:.3}] by the model; raw {wins} of {visits}\nrows (every score pair, both starters, intervals) in {}",
        path.display()
    );
    Ok(text)
}

/// `cowrie equity`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("seed", |a| a.help("Seed of the resampling. Default 1")))]
#[command(mut_arg("out", |a| a.help("Output directory (writes equity.csv)")))]
pub struct EquityArgs {
    /// The subgames.csv of a Julbahar run.
    #[arg(long, value_name = "FILE")]
    pub subgames: PathBuf,
    /// The score that ends a match (the run's `target` option), from 1 to 200.
    #[arg(long, default_value_t = 31, allow_negative_numbers = true,
          value_parser = |t: &str| whole_in::<u32>(t, 1, 200, "points"))]
    pub target: u32,
    /// Bootstrap resamples of the matches' seat-swapped pairs, from 1 to 10000.
    #[arg(long, default_value_t = 200, allow_negative_numbers = true,
          value_parser = |t: &str| whole_in::<usize>(t, 1, 10_000, "resamples"))]
    pub resamples: usize,
    /// `--seed`.
    #[command(flatten)]
    pub seeding: SeedArg,
    /// Fewest games begun at a score pair for its raw frequency to be printed.
    #[arg(long, default_value_t = 30, allow_negative_numbers = true,
          value_parser = |t: &str| whole_in::<u64>(t, 0, u64::MAX, "games"))]
    pub min_visits: u64,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
}

/// `cowrie equity`: the table, written to `OUT/equity.csv` and printed.
///
/// # Errors
/// As [`run`].
pub fn command(a: EquityArgs, _command_line: Vec<String>) -> anyhow::Result<()> {
    crate::run::outputs::check_file("--out", &a.output.out.join("equity.csv"), &[&a.subgames])?;
    print_stdout(&run(&EquityConfig {
        subgames: a.subgames,
        target: a.target,
        resamples: a.resamples,
        seed: a.seeding.or_default(),
        min_visits: a.min_visits,
        out: a.output.out,
    })?)
}
