//! `cowrie train-eval`: the learning curve of a training run's snapshots, played in shards.
//!
//! `cowrie train --keep-snapshots` keeps the weights of every evaluation point as
//! `<out stem>.snapshots/games-<G>.safetensors`. `cowrie train-eval --snapshots DIR` plays the
//! evaluation `cowrie train` plays in-process ([`evaluate`]: `--eval-games` games in seat-swapped
//! pairs of the greedy network against `--opponent` on the dice of run seed [`EVAL_SEED`]) for
//! every snapshot. Its units are the seat-swapped pairs of all snapshots, numbered snapshot after
//! snapshot (fewest games first); shard `K/N` plays the pairs whose number is `K - 1` modulo
//! `N`, writing each game's result of the network to `games.csv` and the SHA-256 of every
//! snapshot to `manifest.json` (its `inputs.snapshots`, by file name). `cowrie merge` joins the
//! shards into `curve.csv` and `curve.svg`, byte for byte the `<out stem>.curve.csv` and
//! `.curve.svg` that `cowrie train` writes when it evaluates in-process; shards of other
//! snapshots or arguments are refused.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Args;
use cowrie_agents::td::train::greedy;
use cowrie_agents::td::{self, Net};
use cowrie_agents::{Agent, AgentSpec, AnyAgent, Evaluate};
use cowrie_engine::{sample_outcome, Game, Player, RuleSet, ToAct};
use rayon::prelude::*;

use crate::args::{game_count, ForceArg, GameRulesArgs, OutArg, ResumeArg, ThreadsArg};
use crate::config::RulesConfig;
use crate::pages::plots::Interval;
use crate::registry::{dispatch, GameTask};
use crate::run::digest::FileDigest;
use crate::run::manifest::Manifest;
use crate::run::provenance::Inputs;
use crate::run::schedule::{Schedule, Shard};
use crate::run::seeds::{agent_stream, chance_stream};

/// The run seed of the evaluation games' dice (the same for every network).
pub const EVAL_SEED: u64 = 1;

/// The header of a learning curve.
pub const CURVE_HEADER: &str =
    "games,eval_games,opponent,wins,win_rate,win_rate_lo95,win_rate_hi95,points_per_game\n";

/// The header of a shard's `games.csv`: each evaluation game's result for the network.
const GAMES_HEADER: &str = "games,game_index,net_return\n";

/// The file name of the snapshot after `games` games of training.
#[must_use]
pub fn snapshot_name(games: u64) -> String {
    format!("games-{games}.safetensors")
}

/// The learning-curve row of the network after `games` games of training, from its results
/// (its return in each evaluation game, in game order) against `opponent`.
#[must_use]
pub fn curve_line(games: u64, returns: &[f64], opponent: &str) -> String {
    let n = returns.len() as u64;
    let mut wins = 0;
    let mut points = 0.0;
    for &r in returns {
        wins += u64::from(r > 0.0);
        points += r;
    }
    let (lo, hi) = crate::stats::intervals::wilson(wins, n, crate::stats::intervals::z95());
    format!(
        "{games},{n},{opponent},{wins},{:.4},{lo:.4},{hi:.4},{:.4}\n",
        wins as f64 / n.max(1) as f64,
        points / n.max(1) as f64
    )
}

/// Writes the learning curve `rows` (with its header) to `csv` and draws it in `svg`, titled
/// after the game, its variant and the opponent.
///
/// # Errors
/// An unwritable file, naming it.
pub fn write_curve(
    csv: &Path,
    svg: &Path,
    rows: &str,
    game: &str,
    variant: &str,
    opponent: &str,
) -> anyhow::Result<()> {
    std::fs::write(csv, rows).with_context(|| format!("cannot write '{}'", csv.display()))?;
    let items: Vec<Interval> = rows
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Some(Interval {
                label: f.first()?.to_string(),
                value: f.get(4)?.parse().ok()?,
                low: f.get(5)?.parse().ok()?,
                high: f.get(6)?.parse().ok()?,
            })
        })
        .collect();
    crate::pages::plots::intervals(
        svg,
        &format!("{game} {variant}: greedy network against {opponent}"),
        "win rate (95% Wilson interval) by games trained",
        &items,
    )
}

/// The greedy network against `opponent` in evaluation games `games` (game `g` is game `g % 2`
/// of seat-swapped pair `g / 2`, the network in seat `g % 2`, on the dice of [`EVAL_SEED`]):
/// the network's return in each, in the order given.
///
/// # Errors
/// An opponent that cannot be built.
pub fn evaluate<G: Evaluate>(
    net: &Net,
    outputs: usize,
    rules: &G::Rules,
    opponent: &AgentSpec,
    games: &[u64],
) -> anyhow::Result<Vec<f64>> {
    games
        .par_iter()
        .map(|&g| {
            let net_seat = Player::from_index((g % 2) as usize);
            let mut opp = AnyAgent::<G>::try_build(
                opponent,
                agent_stream(EVAL_SEED, g, net_seat.opponent()),
            )?;
            let mut chance = chance_stream(EVAL_SEED, g / 2);
            let mut state = G::new(rules);
            let (mut actions, mut outcomes) = (Vec::new(), Vec::new());
            let mut x = td::Inputs::default();
            loop {
                match state.to_act() {
                    ToAct::Terminal(_) => return Ok(state.returns()[net_seat.index()]),
                    ToAct::Chance => {
                        state.chance_outcomes(&mut outcomes);
                        let o = sample_outcome(&outcomes, &mut chance);
                        state.apply_outcome(o);
                    }
                    ToAct::Decision(p) => {
                        state.legal_actions(&mut actions);
                        let a = if p == net_seat {
                            actions[greedy(net, outputs, &state, &actions, &mut x)]
                        } else {
                            opp.choose(&state, &actions)
                        };
                        state.play_unchecked(a);
                    }
                }
            }
        })
        .collect()
}

/// The snapshots in `dir`: each file `games-<G>.safetensors`, by `G`.
///
/// # Errors
/// An unreadable directory.
pub fn snapshots_in(dir: &Path) -> anyhow::Result<BTreeMap<u64, PathBuf>> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read '{}'", dir.display()))?;
    let mut found = BTreeMap::new();
    for e in entries {
        let e = e.with_context(|| format!("cannot read '{}'", dir.display()))?;
        let name = e.file_name();
        let games = name
            .to_str()
            .and_then(|n| n.strip_prefix("games-")?.strip_suffix(".safetensors"))
            .and_then(|g| g.parse::<u64>().ok());
        if let Some(g) = games {
            found.insert(g, e.path());
        }
    }
    Ok(found)
}

/// The snapshots in `--snapshots DIR` by games trained, at least one.
///
/// # Errors
/// An unreadable directory, or one without snapshots.
pub fn snapshots(dir: &Path) -> anyhow::Result<BTreeMap<u64, PathBuf>> {
    let found = snapshots_in(dir).context("--snapshots")?;
    if found.is_empty() {
        bail!(
            "--snapshots '{}' holds no snapshot (games-<G>.safetensors, written by cowrie train --keep-snapshots)",
            dir.display()
        );
    }
    Ok(found)
}

struct EvalTask<'a>(&'a TrainEvalArgs, Vec<String>);

impl GameTask for EvalTask<'_> {
    type Output = String;
    fn run<G: Game + Evaluate>(self) -> anyhow::Result<String> {
        play::<G>(self.0, self.1)
    }
}

/// Refuses an evaluation of no games or of an odd count (the games are seat-swapped pairs).
///
/// # Errors
/// Such a count, naming it.
pub fn check_eval_games(games: u64) -> anyhow::Result<()> {
    if games == 0 || games % 2 == 1 {
        bail!("--eval-games {games}: seat-swapped pairs need an even count above 0");
    }
    Ok(())
}

/// Runs `cowrie train-eval`; returns the text printed on stdout.
///
/// # Errors
/// Bad arguments (one line naming them), a snapshot that cannot be read or is of other rules,
/// unwritable output.
pub fn run(args: &TrainEvalArgs, command_line: Vec<String>) -> anyhow::Result<String> {
    check_eval_games(args.eval_games)?;
    dispatch(args.rules.game(), EvalTask(args, command_line))
}

fn play<G: Game + Evaluate>(
    a: &TrainEvalArgs,
    command_line: Vec<String>,
) -> anyhow::Result<String> {
    let config = RulesConfig::from_args(&a.rules)?;
    let rules = config.typed::<G>()?;
    let variant = config.resolved.variant.clone();
    let shard: Shard = a.shard.as_deref().map_or(Ok(Shard::WHOLE), str::parse)?;
    let opponent: AgentSpec = a
        .opponent
        .parse()
        .map_err(|e| anyhow::anyhow!("--opponent: {e}"))?;
    AnyAgent::<G>::check_rules(&opponent, &rules)?;
    let found = snapshots(&a.snapshots)?;
    // The rules as `cowrie train` records them in the weights' metadata.
    let options = rules
        .resolved()
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(";");
    let mut inputs: Inputs =
        crate::run::provenance::inputs_of::<G>(&rules, std::slice::from_ref(&opponent))?;
    let mut nets = Vec::new();
    for (&games, path) in &found {
        let shown = path.display().to_string();
        let digest = FileDigest::of_file(path)
            .with_context(|| format!("--snapshots: cannot read '{shown}'"))?;
        let net = Net::load(path).map_err(|e| anyhow::anyhow!("--snapshots: {e}"))?;
        let enc = td::check::<G>(&net, &rules, &shown)?;
        let trained = |k: &str| net.meta.get(k).map_or("(none)", String::as_str);
        if trained("variant") != variant || trained("options") != options {
            bail!(
                "--snapshots: '{shown}' was trained under {} (options {}), not {variant} (options {options}); give the training run's --variant and --option",
                trained("variant"),
                trained("options")
            );
        }
        if net.meta.get("games").map(String::as_str) != Some(games.to_string().as_str()) {
            bail!(
                "--snapshots: '{shown}' holds the weights after {} games, not {games}",
                net.meta.get("games").map_or("(none)", String::as_str)
            );
        }
        inputs
            .entry("snapshots".to_string())
            .or_default()
            .insert(snapshot_name(games), digest.into());
        nets.push((games, net, enc.outputs));
    }
    let run = serde_json::json!({
        "game": G::NAME,
        "variant": variant,
        "options": config
            .resolved
            .options
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect::<serde_json::Map<_, _>>(),
        "opponent": a.opponent,
        "eval_games": a.eval_games,
        "eval_seed": EVAL_SEED,
        "snapshots": found.keys().collect::<Vec<_>>(),
        "shard": shard.to_string(),
    });
    let all_pairs = nets.len() as u64 * (a.eval_games / 2);
    if all_pairs < shard.n {
        bail!(
            "--shard {shard}: {} snapshots of --eval-games {} make {all_pairs} seat-swapped pairs, fewer than the {} shards, so some shard would play none (use at most {all_pairs} shards)",
            nets.len(),
            a.eval_games,
            shard.n
        );
    }
    let out = &a.output.out;
    crate::run::outputs::check_dir(
        out,
        &[a.snapshots.as_path()],
        a.resuming.resume,
        a.forcing.force,
    )?;
    crate::output::create_dir(out)?;
    let mut manifest = Manifest::start(
        "train-eval",
        command_line,
        run,
        a.workers.threads,
        opponent.is_reproducible(),
        inputs,
    );
    if a.resuming.resume {
        // A shard writes its games when it ends: an interrupted one is played again whole.
        manifest.check_resumable(out)?;
    }
    manifest.write(out)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.workers.threads)
        .build()
        .context("starting worker threads")?;
    let started = Instant::now();
    let pairs = a.eval_games / 2;
    let mut csv = String::from(GAMES_HEADER);
    let mut curve = String::from(CURVE_HEADER);
    let mut played = 0;
    let progress = crate::progress::Progress::own(!a.quiet);
    let bar = progress.bar(
        (0..nets.len() as u64)
            .map(|i| 2 * Schedule::new(pairs, false, shard.after(i * pairs)).len())
            .sum(),
        "games",
    );
    for (i, (games, net, outputs)) in nets.iter().enumerate() {
        let mine = Schedule::new(pairs, false, shard.after(i as u64 * pairs));
        let list: Vec<u64> = mine.from(0).flat_map(|p| [2 * p, 2 * p + 1]).collect();
        let returns = pool.install(|| evaluate::<G>(net, *outputs, &rules, &opponent, &list))?;
        for (g, r) in list.iter().zip(&returns) {
            csv.push_str(&format!("{games},{g},{r}\n"));
        }
        played += list.len() as u64;
        bar.inc(list.len() as u64);
        curve.push_str(&curve_line(*games, &returns, &a.opponent));
    }
    progress.finish(&bar);
    manifest.write_file(out, "games.csv", csv.as_bytes())?;
    let whole = shard == Shard::WHOLE;
    // A shard's curve is written by `cowrie merge`; none from an earlier run may stay beside it.
    for name in ["curve.csv", "curve.svg"] {
        let p = out.join(name);
        if !whole && p.exists() {
            std::fs::remove_file(&p)
                .with_context(|| format!("cannot replace '{}'", p.display()))?;
        }
    }
    if whole {
        write_curve(
            &out.join("curve.csv"),
            &out.join("curve.svg"),
            &curve,
            G::NAME,
            &variant,
            &a.opponent,
        )?;
    }
    manifest.status = "complete";
    manifest.games_written = played;
    manifest.finished = crate::run::manifest::now_rfc3339();
    manifest.elapsed_seconds = started.elapsed().as_secs_f64();
    manifest.write(out)?;
    Ok(if whole {
        format!(
            "{} {variant}: {} snapshots, {} evaluation games against {}; learning curve in {}\n",
            G::NAME,
            nets.len(),
            played,
            a.opponent,
            out.join("curve.csv").display()
        )
    } else {
        format!(
            "{} {variant}: shard {shard} of the evaluation of {} snapshots ({played} games played) in {}; join the shards with cowrie merge\n",
            G::NAME,
            nets.len(),
            out.display()
        )
    })
}

/// Joins the shards `shards` of one `cowrie train-eval` (checked as every merge checks its
/// shards, and their snapshots' SHA-256 equal) into `out/curve.csv` and `out/curve.svg`;
/// returns the text printed on stdout.
///
/// # Errors
/// Shards of different evaluations, a missing, repeated or unfinished shard, a game missing
/// or played twice, unreadable or unwritable files.
pub fn merge(
    shards: &[PathBuf],
    out: &Path,
    command_line: Vec<String>,
    read: crate::cmd::merge::Read,
) -> anyhow::Result<String> {
    let set = crate::cmd::merge::shard_set(shards, read)?;
    // Each snapshot's SHA-256 as every shard recorded it: a snapshot changed between shards
    // is named before the shards' inputs are compared as a whole.
    let mut digests: BTreeMap<String, (String, PathBuf)> = BTreeMap::new();
    for (dir, m) in set.seen.values() {
        let recorded = m["inputs"]["snapshots"].as_object().into_iter().flatten();
        for (name, d) in recorded {
            let sha = d["sha256"].as_str().unwrap_or_default().to_string();
            match digests.get(name) {
                Some((first, at)) if *first != sha => bail!(
                    "the snapshot {} changed between shards: SHA-256 {first} in '{}', {sha} in '{}'",
                    crate::args::quote(name),
                    at.join("manifest.json").display(),
                    dir.join("manifest.json").display()
                ),
                Some(_) => {}
                None => {
                    digests.insert(name.clone(), (sha, dir.clone()));
                }
            }
        }
    }
    let inputs = crate::cmd::merge::shared_inputs(&set.seen)?;
    let run = &set.run;
    let (_, first) = &set.seen[&1];
    if first["command"] != "train-eval" {
        bail!("the shards are not all of one cowrie train-eval");
    }
    let text = |k: &str| run[k].as_str().unwrap_or_default().to_string();
    let (game, variant, opponent) = (text("game"), text("variant"), text("opponent"));
    let eval_games = run["eval_games"].as_u64().unwrap_or_default();
    let snapshot_games: Vec<u64> = run["snapshots"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_u64)
        .collect();
    let mut results: BTreeMap<(u64, u64), f64> = BTreeMap::new();
    for (dir, m) in set.seen.values() {
        let path = dir.join("games.csv");
        let lines = crate::cmd::merge::lines(dir, "games.csv", m, read)?;
        for line in lines.iter().skip(1) {
            let row = std::str::from_utf8(line).unwrap_or_default().trim_end();
            let f: Vec<&str> = row.split(',').collect();
            let parsed = match f[..] {
                [s, g, r] => s
                    .parse::<u64>()
                    .ok()
                    .zip(g.parse::<u64>().ok())
                    .zip(r.parse::<f64>().ok()),
                _ => None,
            };
            let ((s, g), r) = parsed.with_context(|| {
                format!(
                    "'{}': the row {} is not games,game_index,net_return",
                    path.display(),
                    crate::args::quote(row)
                )
            })?;
            if results.insert((s, g), r).is_some() {
                bail!("game {g} of the snapshot after {s} games appears in two shards");
            }
        }
    }
    let mut curve = String::from(CURVE_HEADER);
    for &s in &snapshot_games {
        let returns: Vec<f64> = results
            .range((s, 0)..(s, eval_games))
            .map(|(_, r)| *r)
            .collect();
        if returns.len() as u64 != eval_games {
            bail!(
                "the shards hold {} of the {eval_games} evaluation games of the snapshot after {s} games",
                returns.len()
            );
        }
        curve.push_str(&curve_line(s, &returns, &opponent));
    }
    let expected = snapshot_games.len() as u64 * eval_games;
    if results.len() as u64 != expected {
        bail!(
            "the shards hold {} games, not the {expected} of the evaluation",
            results.len()
        );
    }
    crate::output::create_dir(out)?;
    write_curve(
        &out.join("curve.csv"),
        &out.join("curve.svg"),
        &curve,
        &game,
        &variant,
        &opponent,
    )?;
    let mut whole = run.clone();
    whole["shard"] = serde_json::Value::String(Shard::WHOLE.to_string());
    let mut manifest = Manifest::start("merge", command_line, whole, 1, true, inputs);
    manifest
        .files
        .insert("curve.csv".to_string(), FileDigest::of(curve.as_bytes()));
    manifest.status = "complete";
    manifest.games_written = expected;
    manifest.finished = crate::run::manifest::now_rfc3339();
    manifest.write(out)?;
    Ok(format!(
        "{game} {variant}: the evaluation of {} snapshots merged from {} shards; learning curve in {}\n",
        snapshot_games.len(),
        set.n,
        out.join("curve.csv").display()
    ))
}

/// `cowrie train-eval`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("Output directory: games.csv (each evaluation game's result) and manifest.json; with the whole run (no --shard), curve.csv and curve.svg too")))]
#[command(mut_arg("threads", |a| a.help("Worker threads (the results do not depend on it)")))]
#[command(mut_arg("force", |a| a.help("Replace the run DIR already holds")))]
#[command(mut_arg("resume", |a| a.help("Play again the interrupted shard in DIR (same arguments and snapshots); a shard writes its games when it ends")))]
pub struct TrainEvalArgs {
    /// The game the snapshots were trained for, and its rules (as given to cowrie train).
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// The directory of snapshots `cowrie train --keep-snapshots` writes
    /// (`<out stem>.snapshots`).
    #[arg(long, value_name = "DIR")]
    pub snapshots: PathBuf,
    /// Evaluation games per snapshot against --opponent (seat-swapped pairs), as cowrie train's.
    #[arg(long, default_value_t = 400, allow_negative_numbers = true, value_parser = game_count)]
    pub eval_games: u64,
    /// The fixed opponent of the learning curve, as cowrie train's.
    #[arg(long, default_value = "heuristic")]
    pub opponent: String,
    /// Play only shard K of N of the evaluation's seat-swapped pairs (numbered snapshot after
    /// snapshot, dealt round the shards); `cowrie merge` joins the shards' directories into
    /// the learning curve.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
    /// `--threads`.
    #[command(flatten)]
    pub workers: ThreadsArg,
    /// `--force`.
    #[command(flatten)]
    pub forcing: ForceArg,
    /// `--resume`.
    #[command(flatten)]
    pub resuming: ResumeArg,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `cowrie train-eval`.
///
/// # Errors
/// As [`run`].
pub fn command(args: TrainEvalArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    crate::output::print_stdout(&run(&args, command_line)?)
}
