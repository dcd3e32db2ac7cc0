//! `cowrie ladder`: a strength ladder. Rungs are agents in order of expected strength; each
//! adjacent pair (a step) plays `--games-per-pair` games in seat-swapped pairs, the upper rung
//! as the match's `--p1`. Every step uses the same run seed, so pair `k` of every step sees the
//! same dice, and both games of a pair see the same dice with the seats swapped.
//!
//! Writes `OUT/steps/<step>-<upper>-v-<lower>/` (an ordinary match each, rung indices from 0),
//! `OUT/games.csv` (every row, with a leading `step` column), `OUT/ladder.csv` (per step, the
//! upper rung's results in seat 1, in seat 2 and over both seats) and `OUT/manifest.json`.
//! With `--csv FILE` the ladder table is also written to FILE.
//!
//! `ladder.csv` columns: `step, upper_rung, lower_rung, upper, lower, upper_seat` (`1`, `2` or
//! `both`), `upper_side` (the side the upper rung plays in that seat, empty for `both`), then the
//! upper rung's `games, wins, draws, losses, truncated, win_rate, ci95_low, ci95_high` (win rate
//! as a fraction of all games, 95% Wilson interval), `score` (`(wins + draws / 2) / games`), the
//! upper rung's share of the decided games `decisive_win_rate = wins / (wins + losses)` with its
//! Wilson interval (`decisive_ci95_low`, `decisive_ci95_high`), and `significant`: `yes` when
//! that interval lies above one half (a sign test with draws and truncations set aside; in a
//! game without draws or truncations it is the win rate itself). Every seat holds the same
//! number of games, so the `both` row's win rate is the average of the two seats' rates.
//!
//! The `both` row adds the pair-level analysis (docs/metrics.md, *Pair-level analysis*):
//! `pairs` (seat-swapped pairs without a truncated game), `pair_win_ci95_low/high` (the win
//! rate's interval clustered by pair), `pair_score` with its pentanomial interval
//! (`pair_score_ci95_low/high`), `elo` with `elo_ci95_low/high`, `los`, `p_value` (a pair score
//! of ½), `p_holm` (Holm over the steps) and `pair_significant` (the pair score's interval lies
//! above ½); the per-seat rows leave them empty.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::bail;
use anyhow::Context;
use clap::Args;
use cowrie_agents::{AgentSpec, Evaluate};
use cowrie_engine::Player;

use crate::args::{agent_spec, game_count, ForceArg, GameRulesArgs, OutArg, ResumeArg, RunArgs};
use crate::config::check_pairs;
use crate::config::check_writable;
use crate::config::{RulesConfig, RunConfig};
use crate::games::Report;
use crate::output::f6;
use crate::output::print_stdout;
use crate::registry::{dispatch, GameTask};
use crate::run::manifest::{now_rfc3339, Manifest};
use crate::run::pairings::PairingsConfig;
use crate::run::record::read_rows;
use crate::run::runner;
use crate::run::schedule::{slot, Shard};
use crate::stats::clustered::{add, clustered_wilson, Clusters, Estimate};
use crate::stats::intervals::Tally;
use crate::stats::ratings::Pentanomial;

/// The header of `ladder.csv`.
pub const LADDER_COLUMNS: [&str; 33] = [
    "step",
    "upper_rung",
    "lower_rung",
    "upper",
    "lower",
    "upper_seat",
    "upper_side",
    "games",
    "wins",
    "draws",
    "losses",
    "truncated",
    "win_rate",
    "ci95_low",
    "ci95_high",
    "score",
    "decisive_win_rate",
    "decisive_ci95_low",
    "decisive_ci95_high",
    "significant",
    "pairs",
    "pair_win_ci95_low",
    "pair_win_ci95_high",
    "pair_score",
    "pair_score_ci95_low",
    "pair_score_ci95_high",
    "elo",
    "elo_ci95_low",
    "elo_ci95_high",
    "los",
    "p_value",
    "p_holm",
    "pair_significant",
];

struct LadderTask<'a>(&'a LadderConfig);

impl GameTask for LadderTask<'_> {
    type Output = String;
    fn run<G: Evaluate + Report>(self) -> anyhow::Result<String> {
        run_ladder::<G>(self.0)
    }
}

/// Runs the ladder; returns the table printed on stdout.
///
/// # Errors
/// Everything `cowrie match` refuses; unwritable output.
pub fn run(cfg: &LadderConfig) -> anyhow::Result<String> {
    dispatch(&cfg.steps.rules.game, LadderTask(cfg))
}

/// What a step's `games.csv` gives the upper rung (the match's `--p1`, so in seat 1 of
/// unswapped games): its tallies in seat 1 and seat 2, its wins per seat-swapped pair, and the
/// pairs' outcomes in points.
struct Upper {
    seats: [Tally; 2],
    wins: Clusters,
    pentanomial: Pentanomial,
}

fn upper_results(path: &std::path::Path) -> anyhow::Result<Upper> {
    let mut u = Upper {
        seats: [Tally::default(); 2],
        wins: Clusters::new(),
        pentanomial: Pentanomial::default(),
    };
    let mut points: Vec<(u64, Option<f64>)> = Vec::new();
    for r in read_rows(path)? {
        let s = slot(r.game_index, true);
        let upper_seat: u8 = if s.swapped { 2 } else { 1 };
        let t = &mut u.seats[usize::from(upper_seat - 1)];
        let result = r.result_of(upper_seat);
        t.add(result);
        let p = result.score();
        add(
            &mut u.wins,
            s.pair_index,
            f64::from(u8::from(p == Some(1.0))),
        );
        points.push((s.pair_index, p));
    }
    for pair in points.chunk_by(|a, b| a.0 == b.0) {
        match pair {
            [(_, a), (_, b)] => u.pentanomial.add(*a, *b),
            _ => u.pentanomial.truncated += 1,
        }
    }
    Ok(u)
}

fn run_ladder<G: Evaluate + Report>(cfg: &LadderConfig) -> anyhow::Result<String> {
    // Every rung plays these rules, or none of the ladder is written.
    runner::check_run::<G>(&cfg.steps.rules, &cfg.steps.agents, cfg.steps.run.seed)?;
    crate::output::create_dir(&cfg.steps.out)?;
    let mut manifest = cfg.manifest(crate::run::provenance::inputs(
        &cfg.steps.rules,
        &cfg.steps.agents,
    )?);
    if cfg.steps.resume {
        manifest.check_resumable(&cfg.steps.out)?;
    }
    manifest.write(&cfg.steps.out)?;
    let started = Instant::now();
    let steps = cfg.steps.steps();
    for step in cfg.steps.matches(&steps) {
        let played = runner::run_match::<G>(&step);
        manifest.unless_interrupted(&cfg.steps.out, played)?;
    }
    if cfg.steps.shard != Shard::WHOLE {
        // A shard's steps hold part of their games each: ladder.csv and games.csv are written
        // by `cowrie merge` once every shard is in; none from an earlier run may stay beside it.
        crate::run::outputs::remove_stale(&cfg.steps.out, &["ladder.csv", "games.csv"])?;
        manifest.status = "complete";
        manifest.finished = now_rfc3339();
        manifest.elapsed_seconds = started.elapsed().as_secs_f64();
        manifest.games_written = cfg.steps.shard_games(&steps);
        manifest.write(&cfg.steps.out)?;
        return Ok(format!(
            "{}: shard {} of a ladder of {} rungs, {} games per step ({} games played) in {}; join the shards with cowrie merge\n",
            G::NAME,
            cfg.steps.shard,
            cfg.steps.agents.len(),
            cfg.steps.games_per_pair,
            manifest.games_written,
            cfg.steps.out.display()
        ));
    }
    finish::<G>(cfg, manifest, started)
}

struct FinishTask<'a>(&'a LadderConfig, crate::run::provenance::Inputs);

impl GameTask for FinishTask<'_> {
    type Output = String;
    fn run<G: Evaluate + Report>(self) -> anyhow::Result<String> {
        finish::<G>(self.0, self.0.manifest(self.1), Instant::now())
    }
}

/// Writes `ladder.csv`, `games.csv` and the finished manifest of the whole ladder `cfg` from
/// its steps' finished runs, whose agents read `inputs` (`cowrie merge`, once it has joined
/// every step's shards); returns the table `cowrie ladder` prints.
///
/// # Errors
/// An unreadable step or an unwritable file, naming it.
pub fn finish_merged(
    cfg: &LadderConfig,
    inputs: crate::run::provenance::Inputs,
) -> anyhow::Result<String> {
    dispatch(&cfg.steps.rules.game, FinishTask(cfg, inputs))
}

/// Writes `ladder.csv`, `games.csv` (and `--csv`) and the finished manifest (from `manifest`,
/// begun at `started`) of the ladder `cfg` from its steps' finished runs; returns the table
/// printed on stdout. `cowrie ladder` calls it after playing, `cowrie merge` after joining the
/// shards' steps.
fn finish<G: Evaluate + Report>(
    cfg: &LadderConfig,
    mut manifest: Manifest,
    started: Instant,
) -> anyhow::Result<String> {
    let variant = cfg.steps.rules.resolved.variant.clone();
    let names: Vec<String> = cfg.steps.agents.iter().map(ToString::to_string).collect();
    let mut ladder = csv::Writer::from_writer(Vec::new());
    ladder.write_record(LADDER_COLUMNS)?;
    let mut games_csv: Vec<u8> = Vec::new();
    let mut table = format!(
        "{} ({variant}{}): ladder of {} rungs, {} games per step (seat-swapped pairs), seed {}\n\
         upper rung's win rate [95% Wilson interval; both seats: clustered by pair]\n{:<4} {:<58} {:<22} {:<22} {:<22} {:<30} {:<38} {:>7}  pair sig.\n",
        G::NAME,
        if cfg.steps.rules.options.is_empty() {
            String::new()
        } else {
            format!("; {}", cfg.steps.rules.options.join(", "))
        },
        cfg.steps.agents.len(),
        cfg.steps.games_per_pair,
        cfg.steps.run.seed,
        "step",
        "upper v lower",
        format!("seat 1 ({})", G::side_name(Player::ONE)),
        format!("seat 2 ({})", G::side_name(Player::TWO)),
        "both seats",
        "share of decided games, sig.",
        "pair score [95%], Elo [95%]",
        "Holm p",
    );
    let mut records: Vec<Vec<String>> = Vec::new();
    let mut step_lines: Vec<[String; 4]> = Vec::new();
    let mut p_values: Vec<f64> = Vec::new();
    for (i, p) in cfg.steps.steps().iter().enumerate() {
        let (step, upper, lower) = (i + 1, p.a, p.b);
        let csv_path = p.dir.join("games.csv");
        let (head, rows) = runner::labelled_rows(&csv_path, &step.to_string())?;
        if games_csv.is_empty() {
            games_csv.extend_from_slice(b"step,");
            games_csv.extend_from_slice(&head);
        }
        for row in rows {
            games_csv.extend_from_slice(&row);
        }
        let Upper {
            seats,
            wins,
            pentanomial,
        } = upper_results(&csv_path)?;
        let pl = pentanomial.pair_level();
        let pair_win = clustered_wilson(&Estimate::of(&wins));
        p_values.push(pl.p_value);
        let both = Tally {
            n: seats[0].n + seats[1].n,
            wins: seats[0].wins + seats[1].wins,
            draws: seats[0].draws + seats[1].draws,
            losses: seats[0].losses + seats[1].losses,
            truncated: seats[0].truncated + seats[1].truncated,
        };
        let mut cells = Vec::new();
        for (seat, side, t) in [
            ("1", G::side_name(Player::ONE), seats[0]),
            ("2", G::side_name(Player::TWO), seats[1]),
            ("both", "", both),
        ] {
            let (lo, hi) = t.win_interval();
            let score = if t.n == 0 {
                0.0
            } else {
                (t.wins as f64 + 0.5 * t.draws as f64) / t.n as f64
            };
            let decided = t.wins + t.losses;
            let decisive = if decided == 0 {
                0.0
            } else {
                t.wins as f64 / decided as f64
            };
            let (dlo, dhi) =
                crate::stats::intervals::wilson(t.wins, decided, crate::stats::intervals::z95());
            let significant = if dlo > 0.5 { "yes" } else { "no" };
            let mut rec = vec![
                step.to_string(),
                upper.to_string(),
                lower.to_string(),
                names[upper].clone(),
                names[lower].clone(),
                seat.to_string(),
                side.to_string(),
            ];
            rec.extend(t.csv_fields());
            rec.push(format!("{score:.6}"));
            rec.push(format!("{decisive:.6}"));
            rec.push(format!("{dlo:.6}"));
            rec.push(format!("{dhi:.6}"));
            rec.push(significant.to_string());
            if seat == "both" {
                let pair_significant = if pl.low > 0.5 { "yes" } else { "no" };
                rec.push(pentanomial.pairs().to_string());
                rec.extend(
                    [
                        pair_win.0,
                        pair_win.1,
                        pl.score,
                        pl.low,
                        pl.high,
                        pl.elo,
                        pl.elo_low,
                        pl.elo_high,
                        pl.los,
                        pl.p_value,
                    ]
                    .map(f6),
                );
                rec.push(String::new()); // p_holm, once every step is played
                rec.push(pair_significant.to_string());
            } else {
                rec.extend(std::iter::repeat_n(String::new(), 13));
            }
            records.push(rec);
            cells.push((
                format!("{:.3} [{lo:.3}, {hi:.3}]", t.win_rate()),
                format!("{decisive:.3} [{dlo:.3}, {dhi:.3}] {significant}"),
            ));
        }
        step_lines.push([
            format!(
                "{step:<4} {:<58} {:<22} {:<22} {:<22} {:<30}",
                format!("{} v {}", names[upper], names[lower]),
                cells[0].0,
                cells[1].0,
                format!(
                    "{:.3} [{:.3}, {:.3}]",
                    both.win_rate(),
                    pair_win.0,
                    pair_win.1
                ),
                cells[2].1
            ),
            if pentanomial.pairs() == 0 {
                crate::stats::ratings::NO_PAIR_SCORE.to_string()
            } else {
                format!(
                    "{:.3} [{}, {}] {} [{}, {}]",
                    pl.score,
                    f3(pl.low),
                    f3(pl.high),
                    f1(pl.elo),
                    f1(pl.elo_low),
                    f1(pl.elo_high)
                )
            },
            String::new(),
            if pl.low > 0.5 { "yes" } else { "no" }.to_string(),
        ]);
        manifest.games_written += both.n;
    }
    // Holm's adjustment over the ladder's steps (one hypothesis each: the pair score is 1/2).
    let holm = crate::stats::multiple::holm(&p_values);
    for (step, h) in holm.iter().enumerate() {
        records[3 * step + 2][31] = f6(*h);
        step_lines[step][2] = if h.is_nan() {
            String::new()
        } else {
            format!("{h:.4}")
        };
    }
    for rec in &records {
        ladder.write_record(rec)?;
    }
    for [head, pair, p, sig] in &step_lines {
        let _ = writeln!(table, "{head} {pair:<38} {p:>7}  {sig}");
    }
    let ladder_bytes = ladder
        .into_inner()
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("writing the ladder table")?;
    manifest.write_file(&cfg.steps.out, "ladder.csv", &ladder_bytes)?;
    if let Some(path) = &cfg.csv {
        std::fs::write(path, &ladder_bytes)
            .with_context(|| format!("cannot write '{}'", path.display()))?;
    }
    manifest.write_file(&cfg.steps.out, "games.csv", &games_csv)?;
    manifest.status = "complete";
    manifest.finished = now_rfc3339();
    manifest.elapsed_seconds = started.elapsed().as_secs_f64();
    manifest.write(&cfg.steps.out)?;
    let _ = writeln!(
        table,
        "win rates are fractions of all games (draws and truncations in the denominator); sig.: the \
         Wilson interval of the upper rung's share of decided games, both seats, lies above 1/2\n\
         pair score: the upper rung's mean score per game over the seat-swapped pairs without a \
         truncated game, with the pentanomial (pair-level) 95% interval and its Elo; Holm p: the \
         p-value of a pair score of 1/2, Holm-adjusted over the steps; pair sig.: the pair score's \
         interval lies above 1/2 (docs/metrics.md)\n\
         rows in {}",
        cfg.steps.out.display()
    );
    Ok(table)
}

/// Three decimals, or `-` where not finite.
fn f3(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.3}")
    } else {
        "-".to_string()
    }
}

/// One decimal, or `-` where not finite.
fn f1(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "-".to_string()
    }
}

/// `cowrie ladder`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("Output directory")))]
#[command(mut_arg("resume", |a| a.help("Continue an interrupted run in DIR (same arguments): finished steps are verified against their manifests and kept, the interrupted one resumes")))]
pub struct LadderArgs {
    /// The game and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// A rung's agent; give two or more, weakest first.
    #[arg(long = "rung", value_name = "SPEC", required = true, value_parser = agent_spec)]
    pub rungs: Vec<AgentSpec>,
    /// Games per step between adjacent rungs (even: seat-swapped pairs).
    #[arg(long, default_value_t = 400, allow_negative_numbers = true, value_parser = game_count)]
    pub games_per_pair: u64,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
    /// `--force`.
    #[command(flatten)]
    pub forcing: ForceArg,
    /// `--resume`.
    #[command(flatten)]
    pub resuming: ResumeArg,
    /// Also write the ladder table (DIR/ladder.csv) to FILE.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
    /// Play only shard K of N of the ladder's seat-swapped pairs (numbered step after step,
    /// dealt round the shards) and write no ladder.csv; `cowrie merge` joins the shards'
    /// directories into the output of the whole ladder.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

/// A validated ladder: its steps, and where else its table goes.
#[derive(Clone, Debug)]
pub struct LadderConfig {
    /// The rungs (the pairings' agents, weakest first) and the steps' games.
    pub steps: PairingsConfig,
    /// Also write the ladder table here.
    pub csv: Option<PathBuf>,
}

impl LadderConfig {
    /// `cowrie ladder`'s arguments, validated.
    ///
    /// # Errors
    /// Fewer than two rungs, an odd or zero game count, zero threads, an unwritable `--csv`,
    /// an unknown game, variant or option.
    pub fn from_args(a: &LadderArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        if a.rungs.len() < 2 {
            bail!(
                "a ladder needs two or more --rung specs, got {}",
                a.rungs.len()
            );
        }
        check_pairs("--games-per-pair", a.games_per_pair)?;
        if a.run.workers.threads == 0 {
            bail!("--threads 0: at least one worker thread is needed");
        }
        let shard = a.shard.as_deref().map_or(Ok(Shard::WHOLE), str::parse)?;
        if let Some(path) = &a.csv {
            if shard != Shard::WHOLE {
                bail!(
                    "--csv '{}' with --shard {shard}: a shard writes no ladder table; give --csv to nothing, cowrie merge writes DIR/ladder.csv",
                    path.display()
                );
            }
            check_writable(path)?;
        }
        let run = RunConfig::from_args(&a.run, command_line);
        let steps = PairingsConfig::new(
            RulesConfig::from_args(&a.rules)?,
            &a.rungs,
            a.games_per_pair,
            run,
            &a.output.out,
            a.resuming.resume,
        );
        let all = steps.steps();
        Ok(LadderConfig {
            steps: steps.sharded(shard, &all, ["step", "steps"])?,
            csv: a.csv.clone(),
        })
    }

    /// The whole ladder a shard's manifest `m` describes, written to `out` by `command_line`
    /// (`cowrie merge`).
    ///
    /// # Errors
    /// A manifest without the ladder's fields, naming the field.
    pub fn from_manifest(
        m: &serde_json::Value,
        out: &std::path::Path,
        command_line: &[String],
    ) -> anyhow::Result<Self> {
        Ok(LadderConfig {
            steps: PairingsConfig::from_manifest(m, "rungs", out, command_line)?,
            csv: None,
        })
    }

    /// The ladder's `run` in its manifest: what defines its output (a shard's says which).
    #[must_use]
    pub fn manifest_run(&self) -> serde_json::Value {
        let names: Vec<String> = self.steps.agents.iter().map(ToString::to_string).collect();
        self.steps.manifest_run(serde_json::json!({
            "rungs": names,
            "games_per_pair": self.steps.games_per_pair,
            "seat_swap": true,
            "seed": self.steps.run.seed,
        }))
    }

    /// The manifest of the ladder starting now, whose agents read `inputs`.
    fn manifest(&self, inputs: crate::run::provenance::Inputs) -> Manifest {
        Manifest::start(
            "ladder",
            self.steps.run.command_line.clone(),
            self.manifest_run(),
            self.steps.run.threads,
            self.steps.agents.iter().all(AgentSpec::is_reproducible),
            inputs,
        )
    }
}

/// `cowrie ladder`: plays the steps and prints the ladder.
///
/// # Errors
/// As [`run`].
pub fn command(args: LadderArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    let cfg = LadderConfig::from_args(&args, command_line)?;
    crate::run::outputs::check_dir(
        &args.output.out,
        &[],
        args.resuming.resume,
        args.forcing.force,
    )?;
    print_stdout(&run(&cfg)?)
}
