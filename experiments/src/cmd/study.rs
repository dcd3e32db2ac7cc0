//! `cowrie study` (and `cowrie` with no arguments): the built-in study, the README's main job.
//!
//! For every game, the same agent plays both seats under each named variant (self-play without
//! seat swap, each game on dice of its own, `--games` games per variant): first-mover advantage per game and variant, and the variants of
//! each game compared (Baghchal's three win rules among them). Bargese adds the first player to
//! enter a piece as a second first mover; Julbahar, whose unit is a match to 31, reports the first
//! mover per match and per game inside the matches (from `subgames.csv`). Each game is one
//! `cowrie compare` run in `OUT/<game>/` (its `compare.csv`, `compare.svg`, and per variant an
//! ordinary match directory); `OUT/summary.csv` gathers every game's `compare.csv` rows.
//!
//! The agents are the strongest that keep the whole study near a quarter of an hour on 2 cores
//! (see [`runs`]); a learned agent plays each variant with the network trained under it.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::bail;
use anyhow::Context;
use clap::Args;
use cowrie_engine::{Baghchal, Bargese, Frangieh, Game, Julbahar, RuleSet};
use serde::{Deserialize, Serialize};

use crate::args::{game_count, ForceArg, OutArg, ResumeArg, SeedArg, ThreadsArg};
use crate::config::RunConfig;
use crate::run::comparison::{self as compare, CompareConfig, CompareRow, Fixed6, RuleSetSpec};
use crate::run::digest::FileDigest;
use crate::run::manifest::Manifest;
use crate::run::record::writer_for;
use crate::run::schedule::Shard;

/// Games per variant when none are given: about ±2.2 points of 95% interval at a 50% rate.
pub const DEFAULT_GAMES: u64 = 2000;

/// One `cowrie compare` run of the study: a game, some of its variants, and the agent that
/// plays both seats.
#[derive(Clone, Debug)]
pub struct StudyRun {
    /// Game name.
    pub game: &'static str,
    /// The variants compared, the reference first.
    pub variants: Vec<&'static str>,
    /// The agent spec in both seats.
    pub agent: String,
    /// The run's directory under the study's output directory.
    pub dir: String,
}

/// The solved database of Baghchal's `variant` in `db_dir` (`DIR/<variant>/`, as `cowrie solve`
/// writes one), where there is one.
#[must_use]
pub fn database(db_dir: &std::path::Path, variant: &str) -> Option<PathBuf> {
    let d = db_dir.join(variant);
    d.join("manifest.json").is_file().then_some(d)
}

fn variants<G: Game>() -> Vec<&'static str> {
    G::Rules::variants().iter().map(|v| v.name).collect()
}

/// The study's games and agents, the strongest of each game's ladder (results/ladder) that keep
/// the whole study near a quarter of an hour on 2 cores:
/// - Baghchal: `expectimax:depth=2` (alpha-beta two plies deep on the Baghchal evaluation); the
///   perfect-play agent needs a database a fresh clone does not have, and under perfect play the
///   `five-captures`, `averbakh-1995` and `parlett-1976` starts are draws (results/solve). With
///   `db_dir` (`--db-dir`), each variant whose database `DIR/<variant>/` exists is played by
///   `perfect:db=DIR/<variant>` instead, in a run of its own (`baghchal-perfect-<variant>/`);
/// - Frangieh: `td:ply=0`, each variant played by the TD(lambda) network shipped for it, where
///   it beats `expectimax:depth=2` in 75-80% of games at a fraction of its cost
///   (results/td-frangieh, results/agent-bars); a variant without a shipped network would be
///   played by `expectimax:depth=2` in a run of its own (`frangieh-<variant>/`), so that no
///   variant difference is taken between two agents;
/// - Julbahar: `td:ply=0`, each variant played by the network shipped for it (trained on single
///   games, then on the match to 31): each wins 98-100% of matches against
///   `expectimax:depth=2` (agents/weights/README.md) at a fraction of its cost;
/// - Bargese: `expectimax:depth=2`, the top of its ladder (the ladders' rates, with their
///   intervals, are in results/README.md).
#[must_use]
pub fn runs(db_dir: Option<&std::path::Path>) -> Vec<StudyRun> {
    let frangieh: Vec<&'static str> = variants::<Frangieh>();
    let with_net = |v: &&str| cowrie_agents::td::shipped(Frangieh::NAME, v).is_some();
    let baghchal = variants::<Baghchal>();
    let solved = |v: &str| db_dir.and_then(|d| database(d, v));
    let run = |game, variants, agent: &str, dir: &str| StudyRun {
        game,
        variants,
        agent: agent.to_string(),
        dir: dir.to_string(),
    };
    let mut out = Vec::new();
    let searched: Vec<&'static str> = baghchal
        .iter()
        .copied()
        .filter(|v| solved(v).is_none())
        .collect();
    if !searched.is_empty() {
        out.push(run(
            Baghchal::NAME,
            searched,
            "expectimax:depth=2",
            Baghchal::NAME,
        ));
    }
    for v in &baghchal {
        if let Some(db) = solved(v) {
            out.push(run(
                Baghchal::NAME,
                vec![*v],
                &format!("perfect:db={}", db.display()),
                &format!("{}-perfect-{v}", Baghchal::NAME),
            ));
        }
    }
    out.extend([
        run(
            Frangieh::NAME,
            frangieh.iter().copied().filter(with_net).collect(),
            "td:ply=0",
            Frangieh::NAME,
        ),
        run(
            Julbahar::NAME,
            variants::<Julbahar>(),
            "td:ply=0",
            Julbahar::NAME,
        ),
        run(
            Bargese::NAME,
            variants::<Bargese>(),
            "expectimax:depth=2",
            Bargese::NAME,
        ),
    ]);
    for v in frangieh.iter().filter(|v| !with_net(v)) {
        out.push(run(
            Frangieh::NAME,
            vec![*v],
            "expectimax:depth=2",
            &format!("{}-{v}", Frangieh::NAME),
        ));
    }
    out
}

/// The columns `summary.csv` adds to the rows of the games' `compare.csv`: the Holm and
/// Benjamini-Hochberg adjustments of `p_value` and `diff_p_value` over the whole study's family
/// (every hypothesis every game declares).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StudyColumns {
    /// Holm's adjustment of `p_value` over the study.
    pub study_p_holm: Fixed6,
    /// Benjamini and Hochberg's adjustment of `p_value` over the study.
    pub study_p_bh: Fixed6,
    /// Holm's adjustment of `diff_p_value` over the study.
    pub study_diff_p_holm: Fixed6,
    /// Benjamini and Hochberg's adjustment of `diff_p_value` over the study.
    pub study_diff_p_bh: Fixed6,
}

/// One row of the study's `summary.csv`: a game's `compare.csv` row, then the study's columns.
pub type SummaryRow = (CompareRow, StudyColumns);

/// The comparison of the study `args` that plays its run `r` (this shard's slice of it).
///
/// # Errors
/// A run whose rule sets or agent this cowrie does not know; a shard count that leaves a shard
/// empty.
pub fn comparison_of(
    args: &StudyConfig,
    r: &StudyRun,
    progress: crate::progress::Progress,
) -> anyhow::Result<CompareConfig> {
    CompareConfig::new(
        "study",
        r.game,
        r.variants
            .iter()
            .map(|v| v.parse::<RuleSetSpec>())
            .collect::<anyhow::Result<_>>()?,
        r.agent.parse()?,
        args.games,
        RunConfig {
            seed: args.seed,
            threads: args.threads,
            progress,
            command_line: args.command_line.clone(),
        },
        args.out.join(&r.dir),
    )?
    .sharded(args.shard)
}

/// Runs the study.
///
/// # Errors
/// Bad arguments or unwritable output.
pub fn run(args: &StudyConfig) -> anyhow::Result<()> {
    crate::output::create_dir(&args.out)?;
    let started = std::time::Instant::now();
    let mut manifest = Manifest::start(
        "study",
        args.command_line.clone(),
        args.manifest_run(),
        args.threads,
        true,
        crate::run::provenance::Inputs::new(),
    );
    // A study begun before studies had a manifest of their own resumes run by run as before.
    if args.resume && args.out.join("manifest.json").exists() && manifest.finished_in(&args.out)? {
        return crate::output::print_stdout(&format!(
            "study '{}'{} in {} is complete: nothing to resume, no file changed\n",
            args.name,
            if args.shard == Shard::WHOLE {
                String::new()
            } else {
                format!(", shard {}", args.shard)
            },
            args.out.display()
        ));
    }
    manifest.write(&args.out)?;
    let all = runs(args.db_dir.as_deref());
    let units: u64 = all
        .iter()
        .map(|r| r.variants.len() as u64 * args.games)
        .sum();
    let bar = crate::progress::study_bar(units, args.progress);
    for (i, r) in all.iter().enumerate() {
        let first = i == 0;
        let dir = args.out.join(&r.dir);
        bar.suspend(|| {
            if r.agent.starts_with("perfect:") {
                eprintln!(
                    "study: {} {} by perfect play from its solved database ({}) ...",
                    r.game,
                    r.variants.join(", "),
                    r.agent
                );
            } else {
                eprintln!("study: {} ({}) ...", r.game, r.agent);
            }
        });
        let cfg = CompareConfig {
            // A game the interrupted study had not reached starts afresh.
            resume: args.resume && (first || dir.exists()),
            ..comparison_of(args, r, crate::progress::Progress::Shared(bar.clone()))?
        };
        manifest.games_written += r.variants.len() as u64 * cfg.pairing(0).schedule().len();
        let compared = compare::run(&cfg);
        manifest.unless_interrupted(&args.out, compared)?;
    }
    bar.finish_and_clear();
    if args.shard != Shard::WHOLE {
        // summary.csv and README.md are written by `cowrie merge` once every shard is in.
        crate::run::outputs::remove_stale(&args.out, &["summary.csv", "README.md", "index.html"])?;
        manifest.status = "complete";
        manifest.finished = crate::run::manifest::now_rfc3339();
        manifest.elapsed_seconds = started.elapsed().as_secs_f64();
        manifest.write(&args.out)?;
        return crate::output::print_stdout(&format!(
            "study '{}': shard {} of {} games per variant in {}; join the shards with cowrie merge\n",
            args.name,
            args.shard,
            args.games,
            args.out.display()
        ));
    }
    finish(args, manifest, started)
}

/// Writes `summary.csv`, `README.md`, the finished manifest (from `manifest`, begun at
/// `started`) and `index.html` of the study `args` from its comparisons' `compare.csv`, and
/// prints its table. `cowrie study` calls it after playing, `cowrie merge` after joining the
/// shards' comparisons.
///
/// # Errors
/// An unreadable `compare.csv` or an unwritable file, naming it.
pub fn finish(
    args: &StudyConfig,
    mut manifest: Manifest,
    started: std::time::Instant,
) -> anyhow::Result<()> {
    let all = runs(args.db_dir.as_deref());
    let mut records: Vec<(&'static str, CompareRow)> = Vec::new();
    for r in &all {
        for row in compare::read_compare(&args.out.join(&r.dir).join("compare.csv"))? {
            records.push((r.game, row));
        }
    }
    let ps: Vec<f64> = records
        .iter()
        .flat_map(|(_, row)| [row.p_value.0, row.diff_p_value.0])
        .collect();
    let (holm, bh) = (
        crate::stats::multiple::holm(&ps),
        crate::stats::multiple::benjamini_hochberg(&ps),
    );
    let path = args.out.join("summary.csv");
    let mut w = writer_for::<SummaryRow>(&path)?;
    let mut summary: Vec<(&'static str, SummaryRow)> = Vec::new();
    for (i, (game, row)) in records.into_iter().enumerate() {
        let study = StudyColumns {
            study_p_holm: Fixed6(holm[2 * i]),
            study_p_bh: Fixed6(bh[2 * i]),
            study_diff_p_holm: Fixed6(holm[2 * i + 1]),
            study_diff_p_bh: Fixed6(bh[2 * i + 1]),
        };
        w.serialize((&row, &study))?;
        summary.push((game, (row, study)));
    }
    w.flush()
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    drop(w);
    let bytes =
        std::fs::read(&path).with_context(|| format!("cannot read '{}'", path.display()))?;
    manifest
        .files
        .insert("summary.csv".to_string(), FileDigest::of(&bytes));
    let table = table(args, args.seed, &all, &summary, &path);
    manifest.write_file(&args.out, "README.md", readme_text(&table).as_bytes())?;
    manifest.status = "complete";
    manifest.finished = crate::run::manifest::now_rfc3339();
    manifest.elapsed_seconds = started.elapsed().as_secs_f64();
    manifest.games_written = all
        .iter()
        .map(|r| r.variants.len() as u64 * args.games)
        .sum();
    manifest.write(&args.out)?;
    crate::pages::run_index::write(&args.out, "cowrie study: every game and named variant")?;
    crate::output::print_stdout(&table)
}

/// The study's `README.md`: the printed table, as a Markdown page.
fn readme_text(table: &str) -> String {
    format!(
        "# cowrie study\n\nWhat `cowrie study` printed when it wrote this directory (per game the CSVs \
         of its variants; `summary.csv`: every metric with its intervals and study-wide p-values):\n\n\
         ```text\n{table}```\n"
    )
}

/// The printed table: per game and variant, the rates with their intervals clustered by pair
/// and the study-wide Holm-adjusted p-values, read back from the rows of `summary.csv`.
fn table(
    args: &StudyConfig,
    seed: u64,
    all: &[StudyRun],
    summary: &[(&'static str, SummaryRow)],
    path: &std::path::Path,
) -> String {
    let mut table = String::new();
    let _ = writeln!(
        table,
        "study '{}', seed {seed}{}, {} games per variant (self-play, each game on dice of its own)",
        args.name,
        if args.seed_given {
            " (given)"
        } else {
            " (from the study's name)"
        },
        args.games
    );
    // The agent column is as wide as its widest entry (an agent spec can be long).
    let a = all
        .iter()
        .map(|r| r.agent.len())
        .chain(["agent (both seats)".len(), "  per game in match".len()])
        .max()
        .unwrap_or(0);
    let _ = writeln!(
        table,
        "{:<9} {:<14} {:<a$} {:>6}  {:<33} {:<33} {:>9} {:>9}",
        "game",
        "variant",
        "agent (both seats)",
        "games",
        "seat 1 win rate [95%] Holm p",
        "first mover [95%] Holm p",
        "truncated",
        "plies"
    );
    for r in all {
        for v in &r.variants {
            let get = |metric: &str| {
                summary
                    .iter()
                    .find(|(g, (x, _))| *g == r.game && x.rule_set == *v && x.metric == metric)
                    .map(|(_, x)| x)
            };
            let rate = |metric: &str| {
                get(metric).map_or(String::new(), |(x, study)| {
                    let p = study.study_p_holm.0;
                    format!(
                        "{:.3} [{:.3}, {:.3}] {}",
                        x.value.0,
                        x.clustered_ci95_low.0,
                        x.clustered_ci95_high.0,
                        if p.is_nan() {
                            String::new()
                        } else {
                            format!("{p:.4}")
                        }
                    )
                })
            };
            let value = |metric: &str| get(metric).map_or(f64::NAN, |(x, _)| x.value.0);
            let _ = writeln!(
                table,
                "{:<9} {:<14} {:<a$} {:>6}  {:<33} {:<33} {:>9.3} {:>9.1}",
                r.game,
                v,
                r.agent,
                args.games,
                rate("advantage_p1"),
                match crate::registry::facts(r.game)
                    .ok()
                    .and_then(|f| { f.fixed_first_mover.map(|p| f.sides[p.index()]) })
                {
                    Some(side) => format!("= seat 1 (the {side}: one factor)"),
                    None => rate("first_mover_win_rate"),
                },
                value("timeouts"),
                value("duration_plies")
            );
            if get("first_enterer_win_rate").is_some() {
                let _ = writeln!(
                    table,
                    "{:<9} {:<14} {:<a$} {:>6}  {:<33} {:<33}",
                    "",
                    "",
                    "  first to enter",
                    args.games,
                    "",
                    rate("first_enterer_win_rate"),
                );
            }
            if get("subgames").is_some() {
                let _ = writeln!(
                    table,
                    "{:<9} {:<14} {:<a$} {:>6}  {:<33} {:<33} {:>9.3}",
                    "",
                    "",
                    "  per game in match",
                    value("subgames"),
                    rate("subgame_seat1_win_rate"),
                    rate("subgame_first_mover_win_rate"),
                    value("subgame_unfinished"),
                );
            }
        }
    }
    let _ = writeln!(
        table,
        "seat 1 = the side the rules name first (Baghchal: goats); first mover = who made the first decision, or the rules' starter (bargese: the three-shell throw's winner)\nbaghchal: every rate is a property of the agent that played, not of the game (under perfect play the five-captures, averbakh-1995 and parlett-1976 starts are all draws: results/solve, cowrie solve --game baghchal --variant V; --db-dir DIR plays each variant with a database in DIR/<variant>/ by perfect play); the goats always move first, so side and move order are one factor\nfrangieh, julbahar: td:ply=0 plays each variant with the network shipped for it (trained under that variant)\nbargese \"first to enter\": the first player to enter a piece; julbahar rows count matches to 31, \"per game in match\" rows the games inside them (truncated column: games left unfinished when the match ended)\nrates and the truncated share (games cut off by the ply cap, no result) are fractions of all games; [95%]: clustered by pair (self-play has no seat swap, so each game or match is its own pair; games in a match: by match); Holm p: the p-value of \"wins as often as the other player\", Holm-adjusted over every hypothesis of the study; empty where the hypothesis repeats one above or is not declared\nevery metric, its intervals, the paired variant differences and all p-values: {} (docs/metrics.md)",
        path.display()
    );
    table
}

/// `cowrie study`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("Output directory (`runs/` is untracked by git; the committed results are written with `--out results/default-study`)").default_value("runs/default-study").required(false)))]
#[command(mut_arg("resume", |a| a.help("Continue an interrupted study in DIR (same arguments), run by run: finished runs are verified against their manifests and kept, the interrupted one resumes")))]
#[command(mut_arg("seed", |a| a.help("Run seed instead of the one derived from --name (a study given another's seed replays its games)")))]
#[command(mut_arg("threads", |a| a.help("Worker threads (the output does not depend on it)")))]
pub struct StudyArgs {
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
    /// Games per run (self-play: each game on dice of its own, no seat swap).
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// `--resume`.
    #[command(flatten)]
    pub resuming: ResumeArg,
    /// `--force`.
    #[command(flatten)]
    pub forcing: ForceArg,
    /// The study's name: its run seed is derived from it (docs/conventions.md), so studies of
    /// different names play different games.
    #[arg(long, default_value = "default-study")]
    pub name: String,
    /// `--seed`.
    #[command(flatten)]
    pub seeding: SeedArg,
    /// `--threads`.
    #[command(flatten)]
    pub workers: ThreadsArg,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
    /// A directory of solved Baghchal databases, one per variant (`DIR/<variant>/`, written by
    /// `cowrie solve`): each variant with one is played by the perfect agent on it.
    #[arg(long, value_name = "DIR")]
    pub db_dir: Option<PathBuf>,
    /// Play only shard K of N of every run of the study (the games `cowrie match --shard K/N`
    /// plays) and write no summary; `cowrie merge` joins the shards' directories into the
    /// output of the whole study.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

/// A validated study.
#[derive(Clone, Debug)]
pub struct StudyConfig {
    /// Output directory.
    pub out: PathBuf,
    /// Games per run (even, positive).
    pub games: u64,
    /// Continue an interrupted study in `out`.
    pub resume: bool,
    /// The study's name.
    pub name: String,
    /// The run seed: `--seed`, or the one derived from the name.
    pub seed: u64,
    /// Whether the seed was given (`--seed`) rather than derived from the name.
    pub seed_given: bool,
    /// Worker threads.
    pub threads: usize,
    /// Draw a progress bar.
    pub progress: bool,
    /// The command line, for the manifests.
    pub command_line: Vec<String>,
    /// Solved Baghchal databases by variant (`--db-dir`).
    pub db_dir: Option<PathBuf>,
    /// The slice of every run this process plays (`1/1`: all of it, then the summary).
    pub shard: Shard,
}

impl StudyConfig {
    /// `cowrie study`'s arguments.
    ///
    /// # Errors
    /// A game count of 0; a `--db-dir` that holds no Baghchal
    /// variant's database.
    pub fn from_args(a: &StudyArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        if let Some(d) = &a.db_dir {
            let names = variants::<Baghchal>();
            if !names.iter().any(|v| database(d, v).is_some()) {
                bail!(
                    "--db-dir '{}': no solved database of a Baghchal variant in it (looked for {}, each a directory written by cowrie solve)",
                    d.display(),
                    names
                        .iter()
                        .map(|v| format!("'{}'", d.join(v).join("manifest.json").display()))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
        }
        // Every game of the study is self-play, played without a seat swap (docs/conventions.md),
        // so any positive count is filled.
        if a.games == 0 {
            bail!("--games 0: the study needs at least one game per rule set and agent");
        }
        let shard = a.shard.as_deref().map_or(Ok(Shard::WHOLE), str::parse)?;
        crate::run::runner::check_shard(shard, a.games, false)?;
        Ok(StudyConfig {
            out: a.output.out.clone(),
            games: a.games,
            resume: a.resuming.resume,
            name: a.name.clone(),
            seed: a
                .seeding
                .seed
                .unwrap_or_else(|| crate::run::seeds::study_seed(&a.name)),
            seed_given: a.seeding.seed.is_some(),
            threads: a.workers.threads,
            progress: !a.quiet,
            command_line,
            db_dir: a.db_dir.clone(),
            shard,
        })
    }

    /// The study's `run` in its manifest: what defines its output (a shard's says which).
    #[must_use]
    pub fn manifest_run(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "seed": self.seed,
            "seed_given": self.seed_given,
            "games": self.games,
            "db_dir": self.db_dir,
            "runs": runs(self.db_dir.as_deref())
                .iter()
                .map(|r| r.dir.clone())
                .collect::<Vec<_>>(),
            "shard": self.shard.to_string(),
        })
    }

    /// The whole study a shard's manifest `m` describes, written to `out` by `command_line`
    /// (`cowrie merge`).
    ///
    /// # Errors
    /// A manifest without the study's fields.
    pub fn from_manifest(
        m: &serde_json::Value,
        out: &std::path::Path,
        command_line: &[String],
    ) -> anyhow::Result<Self> {
        let run = &m["run"];
        let db_dir = match &run["db_dir"] {
            serde_json::Value::Null => None,
            d => Some(PathBuf::from(d.as_str().context("db_dir is not a path")?)),
        };
        Ok(StudyConfig {
            out: out.to_path_buf(),
            games: run["games"].as_u64().context("no run.games")?,
            resume: false,
            name: run["name"].as_str().context("no run.name")?.to_string(),
            seed: run["seed"].as_u64().context("no run.seed")?,
            seed_given: run["seed_given"].as_bool().context("no run.seed_given")?,
            threads: m["threads"]
                .as_u64()
                .and_then(|t| usize::try_from(t).ok())
                .unwrap_or(1),
            progress: false,
            command_line: command_line.to_vec(),
            db_dir,
            shard: Shard::WHOLE,
        })
    }
}

/// `cowrie study`.
///
/// # Errors
/// As [`run`].
pub fn command(args: StudyArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    let inputs: Vec<&std::path::Path> = args.db_dir.iter().map(PathBuf::as_path).collect();
    let (out, resume, force) = (&args.output.out, args.resuming.resume, args.forcing.force);
    // The study's runs are its games' directories, each with its own manifest: a finished one is
    // replaced only with --force.
    if let Ok(entries) = std::fs::read_dir(out) {
        let mut runs: Vec<PathBuf> = entries
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.join("manifest.json").is_file())
            .collect();
        runs.sort();
        for run in &runs {
            if crate::run::outputs::check_dir(run, &inputs, resume, force).is_err() {
                anyhow::bail!(
                    "--out '{}' already holds a study (its run '{}' is finished); pass --force to replace it, --resume to continue it, or choose another directory",
                    out.display(),
                    run.display()
                );
            }
        }
    }
    crate::run::outputs::check_dir(out, &inputs, resume, force)?;
    run(&StudyConfig::from_args(&args, command_line)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_with_a_database_is_played_by_perfect_play_in_a_run_of_its_own() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("parlett-1976")).unwrap();
        std::fs::write(d.path().join("parlett-1976/manifest.json"), "{}").unwrap();
        let all = runs(Some(d.path()));
        let baghchal: Vec<&StudyRun> = all.iter().filter(|r| r.game == "baghchal").collect();
        assert_eq!(baghchal.len(), 2);
        assert_eq!(baghchal[0].variants, ["five-captures", "averbakh-1995"]);
        assert_eq!(baghchal[0].agent, "expectimax:depth=2");
        assert_eq!(baghchal[1].variants, ["parlett-1976"]);
        assert_eq!(baghchal[1].dir, "baghchal-perfect-parlett-1976");
        assert_eq!(
            baghchal[1].agent,
            format!("perfect:db={}", d.path().join("parlett-1976").display())
        );
        // Without databases: one Baghchal run of every variant.
        assert_eq!(runs(None)[0].variants.len(), 3);
    }
}
