//! `cowrie tournament`: a round robin. Every two agents play `--games-per-pair` games in
//! seat-swapped pairs; every pairing uses the same chance streams (pair `k` of every pairing sees
//! the same dice), so differences between pairings are not dice luck.
//!
//! Writes `OUT/pairings/<n>-<a>-v-<b>/` (an ordinary match each), `OUT/games.csv` (every row,
//! with a leading `pairing` column), `OUT/summary.csv` (per pairing: agent A's results in seat
//! 1, in seat 2 and over both, with its score, Elo difference and the pair-level five-outcome
//! counts), `OUT/ratings.csv` (Bradley-Terry ratings on the Elo scale with bootstrap
//! intervals) and `OUT/manifest.json` (command line, seed, version, commit, threads, the fully
//! resolved rule options, start and end times; `status` is `complete` only once every file is
//! written).
//!
//! The `both` rows add the pentanomial (pair-level) analysis of docs/metrics.md:
//! `pair_score_ci95_low/high`, `pair_elo_ci95_low/high`, `los`, `p_value` (A's pair score is ½)
//! and `p_holm` (Holm over the pairings).
//!
//! An Elo bound is empty in the CSV where the score's bound is 0 or 1 (a pairing won or lost in
//! every game at that bound): the Elo difference of a score of 0 or 1 is unbounded.

use std::fmt::Write as _;

use anyhow::bail;
use anyhow::Context;
use clap::Args;
use cowrie_agents::AgentSpec;

use crate::args::{agent_spec, game_count, ForceArg, GameRulesArgs, OutArg, ResumeArg, RunArgs};
use crate::config::check_pairs;
use crate::config::{RulesConfig, RunConfig};
use crate::output::f6;
use crate::output::print_stdout;
use crate::run::manifest::{now_rfc3339, Manifest};
use crate::run::pairings::PairingsConfig;
use crate::run::record::read_rows;
use crate::run::runner;
use crate::run::schedule::{slot, Shard};
use crate::stats::ratings::{bradley_terry_bootstrap, elo, Game, Pentanomial};

/// Bootstrap resamples for the rating intervals.
const RESAMPLES: usize = 400;

/// Runs the tournament; returns the table printed on stdout.
///
/// # Errors
/// Everything `cowrie match` refuses; unwritable output.
pub fn run(cfg: &PairingsConfig) -> anyhow::Result<String> {
    // Every agent plays these rules, or none of the round robin is written.
    runner::check_agents(&cfg.rules, &cfg.agents, cfg.run.seed)?;
    crate::output::create_dir(&cfg.out)?;
    let started = std::time::Instant::now();
    let mut manifest = start(
        cfg,
        crate::run::provenance::inputs(&cfg.rules, &cfg.agents)?,
    );
    if cfg.resume {
        manifest.check_resumable(&cfg.out)?;
    }
    manifest.write(&cfg.out)?;
    let pairings = cfg.round_robin();
    for m in cfg.matches(&pairings) {
        // A shard's slice of one pairing may be empty; the shard as a whole is not.
        let played = runner::run_part(&m);
        manifest.unless_interrupted(&cfg.out, played)?;
    }
    if cfg.shard != Shard::WHOLE {
        // A shard's pairings hold part of their games each: the tournament's tables are written
        // by `cowrie merge` once every shard is in; none from an earlier run may stay beside
        // them.
        crate::run::outputs::remove_stale(
            &cfg.out,
            &["summary.csv", "games.csv", "ratings.csv", "ratings.svg"],
        )?;
        manifest.status = "complete";
        manifest.finished = now_rfc3339();
        manifest.elapsed_seconds = started.elapsed().as_secs_f64();
        manifest.games_written = cfg.shard_games(&pairings);
        manifest.write(&cfg.out)?;
        return Ok(format!(
            "{}: shard {} of a round robin of {} agents, {} games per pairing ({} games played) in {}; join the shards with cowrie merge\n",
            cfg.rules.game,
            cfg.shard,
            cfg.agents.len(),
            cfg.games_per_pair,
            manifest.games_written,
            cfg.out.display()
        ));
    }
    finish(cfg, manifest, started)
}

/// The tournament's `run` in its manifest: what defines its output (a shard's says which).
#[must_use]
pub fn manifest_run(cfg: &PairingsConfig) -> serde_json::Value {
    let names: Vec<String> = cfg.agents.iter().map(ToString::to_string).collect();
    cfg.manifest_run(serde_json::json!({
        "agents": names,
        "games_per_pair": cfg.games_per_pair,
        "seat_swap": true,
        "seed": cfg.run.seed,
        "rating_resamples": RESAMPLES,
    }))
}

/// The manifest of the tournament `cfg` starting now, whose agents read `inputs`.
#[must_use]
pub fn start(cfg: &PairingsConfig, inputs: crate::run::provenance::Inputs) -> Manifest {
    Manifest::start(
        "tournament",
        cfg.run.command_line.clone(),
        manifest_run(cfg),
        cfg.run.threads,
        cfg.agents.iter().all(AgentSpec::is_reproducible),
        inputs,
    )
}

/// Writes `summary.csv`, `games.csv`, `ratings.csv`, `ratings.svg` and the finished manifest
/// (from `manifest`, begun at `started`) of the tournament `cfg` from its pairings' finished
/// runs; returns the table printed on stdout. `cowrie tournament` calls it after playing,
/// `cowrie merge` after joining the shards' pairings.
///
/// # Errors
/// An unreadable pairing or an unwritable file, naming it.
pub fn finish(
    cfg: &PairingsConfig,
    mut manifest: Manifest,
    started: std::time::Instant,
) -> anyhow::Result<String> {
    let k = cfg.agents.len();
    let names = entrant_names(&cfg.agents);
    let mut all_rows = Vec::new();
    let mut header: Option<Vec<u8>> = None;
    let mut summary = csv::Writer::from_writer(Vec::new());
    summary.write_record([
        "pairing",
        "agent_a",
        "agent_b",
        "a_seat",
        "games",
        "a_wins",
        "draws",
        "a_losses",
        "truncated",
        "a_score",
        "a_score_ci95_low",
        "a_score_ci95_high",
        "elo_a_minus_b",
        "elo_ci95_low",
        "elo_ci95_high",
        "pairs_0",
        "pairs_0.5",
        "pairs_1",
        "pairs_1.5",
        "pairs_2",
        "pairs_truncated",
        "pair_score_ci95_low",
        "pair_score_ci95_high",
        "pair_elo_ci95_low",
        "pair_elo_ci95_high",
        "los",
        "p_value",
        "p_holm",
    ])?;
    let mut records: Vec<Vec<String>> = Vec::new();
    let mut p_values: Vec<f64> = Vec::new();
    let mut table = format!(
        "{}: round robin of {k} agents, {} games per pairing (seat-swapped pairs), seed {}\n{:<40} {:>6} {:>9}  {:<18} {:>8}  {:<18} {:<18} {:>8} pairs 0/½/1/1½/2\n",
        cfg.rules.game, cfg.games_per_pair, cfg.run.seed, "pairing (A v B)", "games", "A score", "95% interval", "Elo A-B", "95% interval", "95% pentanomial", "p"
    );
    let mut pair_games: Vec<Vec<[Game; 2]>> = Vec::new();
    for (i, p) in cfg.round_robin().iter().enumerate() {
        let (pairing, a, b) = (i + 1, p.a, p.b);
        let csv_path = p.dir.join("games.csv");
        let (head, rows) = runner::labelled_rows(&csv_path, &pairing.to_string())?;
        header.get_or_insert(head);
        all_rows.extend(rows);
        let rows = read_rows(&csv_path)?;
        let mut per_seat = [[0u64; 4]; 2]; // [a_seat-1][wins, draws, losses, truncated]
        let mut penta = Pentanomial::default();
        let mut games = Vec::new();
        for pair in rows.chunks(2) {
            let mut pts = [None, None];
            for (g, r) in pair.iter().enumerate() {
                let a_in_seat1 = !slot(r.game_index, true).swapped;
                let p = r.result_of(if a_in_seat1 { 1 } else { 2 }).score();
                pts[g] = p;
                let seat = usize::from(!a_in_seat1);
                // Wins, draws, losses, truncations.
                let slot_idx = p.map_or(3, |x| 2 - (x * 2.0).round() as usize);
                per_seat[seat][slot_idx] += 1;
            }
            penta.add(pts[0], pts.get(1).copied().flatten());
            if let [Some(x), Some(y)] = pts {
                games.push([
                    Game {
                        i: a,
                        j: b,
                        score_i: x,
                    },
                    Game {
                        i: a,
                        j: b,
                        score_i: y,
                    },
                ]);
            }
        }
        pair_games.push(games);
        let seat_rows = [
            ("1", per_seat[0]),
            ("2", per_seat[1]),
            (
                "both",
                [0, 1, 2, 3].map(|i| per_seat[0][i] + per_seat[1][i]),
            ),
        ];
        for (seat, c) in seat_rows {
            let n = c[0] + c[1] + c[2];
            let (score, lo, hi) = if seat == "both" {
                penta.score()
            } else {
                trinomial_score(c[0], c[1], c[2])
            };
            let mut rec = vec![
                pairing.to_string(),
                names[a].clone(),
                names[b].clone(),
                seat.to_string(),
                (n + c[3]).to_string(),
                c[0].to_string(),
                c[1].to_string(),
                c[2].to_string(),
                c[3].to_string(),
                f6(score),
                f6(lo),
                f6(hi),
                f6(elo(score)),
                f6(elo(lo)),
                f6(elo(hi)),
            ];
            if seat == "both" {
                let pl = penta.pair_level();
                p_values.push(pl.p_value);
                rec.extend(penta.counts.iter().map(ToString::to_string));
                rec.push(penta.truncated.to_string());
                rec.extend([pl.low, pl.high, pl.elo_low, pl.elo_high, pl.los, pl.p_value].map(f6));
                rec.push(String::new()); // p_holm, once every pairing is played
                if penta.pairs() == 0 {
                    let _ = writeln!(
                        table,
                        "{:<40} {:>6} {:>9}  {:<81} {:?}",
                        format!("{} v {}", names[a], names[b]),
                        n + c[3],
                        "",
                        crate::stats::ratings::NO_PAIR_SCORE,
                        penta.counts
                    );
                } else {
                    let _ = writeln!(
                        table,
                        "{:<40} {:>6} {:>9.4}  [{lo:.4}, {hi:.4}] {:>8.1}  [{:.1}, {:.1}] {:<18} {:>8} {:?}",
                        format!("{} v {}", names[a], names[b]),
                        n + c[3],
                        score,
                        elo(score),
                        elo(lo),
                        elo(hi),
                        if pl.low.is_nan() {
                            String::new()
                        } else {
                            format!("[{:.4}, {:.4}]", pl.low, pl.high)
                        },
                        if pl.p_value.is_nan() {
                            String::new()
                        } else {
                            format!("{:.4}", pl.p_value)
                        },
                        penta.counts
                    );
                }
            } else {
                rec.extend(std::iter::repeat_n(String::new(), 13));
            }
            records.push(rec);
        }
    }
    // Holm's adjustment over the pairings (one hypothesis each: A's pair score is 1/2).
    for (i, h) in crate::stats::multiple::holm(&p_values)
        .into_iter()
        .enumerate()
    {
        records[3 * i + 2][27] = f6(h);
    }
    for rec in &records {
        summary.write_record(rec)?;
    }
    let summary_bytes = summary
        .into_inner()
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("writing the summary")?;
    manifest.write_file(&cfg.out, "summary.csv", &summary_bytes)?;
    let mut bytes = b"pairing,".to_vec();
    bytes.extend(header.unwrap_or_default());
    for r in &all_rows {
        bytes.extend_from_slice(r);
    }
    manifest.write_file(&cfg.out, "games.csv", &bytes)?;

    let ratings = bradley_terry_bootstrap(k, &pair_games, RESAMPLES, cfg.run.seed);
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["agent", "elo", "ci95_low", "ci95_high"])?;
    let _ = writeln!(
        table,
        "Bradley-Terry ratings (Elo scale, {} at 0; 95% bootstrap intervals over {RESAMPLES} resamples of pairs):",
        names[0]
    );
    for (name, (r, lo, hi)) in names.iter().zip(&ratings) {
        w.write_record([name.clone(), f6(*r), f6(*lo), f6(*hi)])?;
        let _ = writeln!(table, "  {name:<38} {r:>8.1}  [{lo:.1}, {hi:.1}]");
    }
    let ratings_bytes = w
        .into_inner()
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("writing the ratings")?;
    manifest.write_file(&cfg.out, "ratings.csv", &ratings_bytes)?;
    let bars: Vec<crate::pages::plots::Interval> = names
        .iter()
        .zip(&ratings)
        .map(
            |(name, &(value, low, high))| crate::pages::plots::Interval {
                label: name.clone(),
                value,
                low,
                high,
            },
        )
        .collect();
    crate::pages::plots::intervals(
        &cfg.out.join("ratings.svg"),
        &format!(
            "{}: Bradley-Terry ratings, 95% bootstrap intervals",
            cfg.rules.game
        ),
        &format!("Elo ({} at 0)", names[0]),
        &bars,
    )?;
    manifest.status = "complete";
    manifest.finished = now_rfc3339();
    manifest.elapsed_seconds = started.elapsed().as_secs_f64();
    manifest.games_written = all_rows.len() as u64;
    manifest.write(&cfg.out)?;
    let _ = writeln!(table, "rows in {}", cfg.out.display());
    Ok(table)
}

/// A's mean score from wins, draws and losses (a draw counts half), with a Wilson 95% interval
/// on that score over the games: never of zero width (10 wins in 10 give [0.722, 1]), and
/// conservative where there are draws, whose variance is below a win-or-loss game's.
fn trinomial_score(w: u64, d: u64, l: u64) -> (f64, f64, f64) {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let m = (w as f64 + 0.5 * d as f64) / n;
    let (wlo, whi) = crate::stats::intervals::wilson_at(m, n, crate::stats::intervals::z95());
    // At a score of 0 or 1 the bound is exactly 0 or 1 (rounding would leave a speck).
    let lo = if w + d == 0 { 0.0 } else { wlo };
    let hi = if l + d == 0 { 1.0 } else { whi };
    (m, lo, hi)
}

/// The entrants' names in the tables: each agent's spec, followed by ` #k` (`k` its place among
/// the `--agent` specs, from 1) where the same agent is entered more than once, so that every row
/// names one entrant.
#[must_use]
pub fn entrant_names(agents: &[AgentSpec]) -> Vec<String> {
    agents
        .iter()
        .enumerate()
        .map(|(k, a)| {
            if agents.iter().filter(|b| *b == a).count() > 1 {
                format!("{a} #{}", k + 1)
            } else {
                a.to_string()
            }
        })
        .collect()
}

/// `cowrie tournament`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("Output directory")))]
#[command(mut_arg("resume", |a| a.help("Continue an interrupted run in DIR (same arguments): finished pairings are verified against their manifests and kept, the interrupted one resumes")))]
pub struct TournamentArgs {
    /// The game and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// An agent; give two or more.
    #[arg(long = "agent", value_name = "SPEC", required = true, value_parser = agent_spec)]
    pub agents: Vec<AgentSpec>,
    /// Games per pairing (even: seat-swapped pairs).
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
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
    /// Play only shard K of N of the round robin's seat-swapped pairs (numbered pairing after
    /// pairing, dealt round the shards) and write no tables; `cowrie merge` joins the shards'
    /// directories into the output of the whole tournament.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

impl PairingsConfig {
    /// `cowrie tournament`'s arguments, validated.
    ///
    /// # Errors
    /// Fewer than two agents, an odd or zero game count, an unknown game, variant or option.
    pub fn tournament(a: &TournamentArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        let k = a.agents.len();
        if k < 2 {
            bail!("a tournament needs two or more --agent specs, got {k}");
        }
        check_pairs("--games-per-pair", a.games_per_pair)?;
        let shard = a.shard.as_deref().map_or(Ok(Shard::WHOLE), str::parse)?;
        let run = RunConfig::from_args(&a.run, command_line);
        let cfg = PairingsConfig::new(
            RulesConfig::from_args(&a.rules)?,
            &a.agents,
            a.games_per_pair,
            run,
            &a.output.out,
            a.resuming.resume,
        );
        let all = cfg.round_robin();
        cfg.sharded(shard, &all, ["pairing", "pairings"])
    }
}

/// `cowrie tournament`: plays the round robin and prints its table.
///
/// # Errors
/// As [`run`].
pub fn command(args: TournamentArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    let cfg = PairingsConfig::tournament(&args, command_line)?;
    crate::run::outputs::check_dir(
        &args.output.out,
        &[],
        args.resuming.resume,
        args.forcing.force,
    )?;
    print_stdout(&run(&cfg)?)
}
