//! `cowrie train`: a learned evaluation by TD(lambda) self-play (`cowrie_agents::td::train`),
//! with a progress bar, checkpoints, `--resume`, and a learning curve against a fixed opponent.
//!
//! Games are played in batches of `--batch` with the same weights, their updates summed in game
//! order and applied at once, so the weights depend on the arguments and seed only, never on
//! `--threads`. Training game `g` draws its dice from the chance stream of pair `g` of the run
//! seed. Every `--eval-every` games (and at 0 and at the end) the greedy network plays
//! `--eval-games` games in seat-swapped pairs against `--opponent` on the dice of run seed 1
//! (the same for every network), appended to `<out stem>.curve.csv` and drawn in
//! `<out stem>.curve.svg`. A checkpoint (`<out>.ckpt`: the weights, with the games done and the
//! training arguments in its metadata) is written at each evaluation; `--resume` continues
//! from it and reaches the same weights as an uninterrupted run. With `--keep-snapshots` the
//! weights of each evaluation point are kept too (`<out stem>.snapshots/games-<G>.safetensors`,
//! each written to a temporary file and renamed), so that `cowrie train-eval` can play the
//! learning curve in shards on other machines ([`crate::cmd::train_eval`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Args;
use cowrie_agents::td::net::Grad;
use cowrie_agents::td::train::{self_play, Scratch};
use cowrie_agents::td::{self, Net};
use cowrie_agents::{AgentSpec, AnyAgent, Evaluate};
use cowrie_engine::{Game, RuleSet};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::args::{
    fraction_f32, game_count, positive_f32, whole_in, ForceArg, GameRulesArgs, OutArg, ResumeArg,
    SeedArg, ThreadsArg, MAX_GAMES,
};
use crate::cmd::train_eval::{curve_line, evaluate, snapshot_name, write_curve, CURVE_HEADER};
use crate::config::RulesConfig;
use crate::output::print_stdout;
use crate::progress::Progress;
use crate::registry::{dispatch, GameTask};
use crate::run::seeds::chance_stream;

struct TrainTask<'a>(&'a TrainArgs, Vec<String>);

impl GameTask for TrainTask<'_> {
    type Output = String;
    fn run<G: Game + Evaluate>(self) -> anyhow::Result<String> {
        train::<G>(self.0, &self.1)
    }
}

/// Runs `cowrie train`; returns the text printed on stdout.
///
/// # Errors
/// Bad arguments (one line naming them), a game without a learned evaluation, unreadable
/// `--init` weights, a checkpoint of other arguments, unwritable output.
pub fn run(args: &TrainArgs, command_line: Vec<String>) -> anyhow::Result<String> {
    if args.eval_games % 2 == 1 {
        bail!(
            "--eval-games {}: seat-swapped pairs need an even count",
            args.eval_games
        );
    }
    dispatch(args.rules.game(), TrainTask(args, command_line))
}

/// The arguments a checkpoint must share with the run that resumes it.
fn fingerprint(a: &TrainArgs, variant: &str) -> String {
    format!(
        "game={} variant={variant} options={} seed={} hidden={} lambda={} alpha={} batch={} eval_every={} eval_games={} opponent={} init={}",
        a.rules.game(),
        a.rules.variant.options.join(";"),
        a.seeding.or_default(),
        a.hidden,
        a.lambda,
        a.alpha,
        a.batch,
        a.eval_every,
        a.eval_games,
        a.opponent,
        a.init.as_ref().map_or("none".to_string(), |p| p.display().to_string())
    )
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The directory of the weights kept at each evaluation point: `<out stem>.snapshots`.
fn snapshots_dir(out: &Path) -> PathBuf {
    out.with_extension("snapshots")
}

fn curve_path(out: &Path, ext: &str) -> PathBuf {
    out.with_extension(format!("curve.{ext}"))
}

fn train<G: Game + Evaluate>(a: &TrainArgs, command_line: &[String]) -> anyhow::Result<String> {
    let config = RulesConfig::from_args(&a.rules)?;
    let rules = config.typed::<G>()?;
    let variant = config.resolved.variant.clone();
    let enc = G::td_encoding(&rules)
        .with_context(|| format!("the game {} has no learned evaluation to train", G::NAME))?;
    let opponent: AgentSpec = a
        .opponent
        .parse()
        .map_err(|e| anyhow::anyhow!("--opponent: {e}"))?;
    AnyAgent::<G>::check_rules(&opponent, &rules)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.workers.threads)
        .build()
        .context("starting worker threads")?;
    let ckpt = with_suffix(&a.output.out, ".ckpt");
    let print = fingerprint(a, &variant);
    let (mut net, mut done) = if a.resuming.resume {
        let net = Net::load(&ckpt).map_err(|e| anyhow::anyhow!("--resume: {e}"))?;
        if net.meta.get("train_args") != Some(&print) {
            bail!(
                "--resume: '{}' was written by other arguments ({})",
                ckpt.display(),
                net.meta.get("train_args").map_or("none", String::as_str)
            );
        }
        let done: u64 = net
            .meta
            .get("games")
            .and_then(|g| g.parse().ok())
            .with_context(|| format!("--resume: '{}' has no games count", ckpt.display()))?;
        (net, done)
    } else if let Some(init) = &a.init {
        let net = Net::load(init)?;
        td::check::<G>(&net, &rules, &init.display().to_string())?;
        if net.shape().1 != a.hidden {
            bail!(
                "--init '{}' has {} hidden units, not --hidden {}",
                init.display(),
                net.shape().1,
                a.hidden
            );
        }
        (net, 0)
    } else {
        let mut rng = ChaCha8Rng::seed_from_u64(a.seeding.or_default());
        rng.set_stream(u64::MAX);
        (Net::random(enc.inputs, a.hidden, enc.outputs, &mut rng), 0)
    };
    if done > a.games {
        bail!(
            "--resume: the checkpoint has {done} games, more than --games {}",
            a.games
        );
    }
    if let Some(dir) = a.output.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create '{}'", dir.display()))?;
    }
    // The snapshots: a fresh run keeps none of an earlier run's.
    let snapshots = a.keep_snapshots.then(|| snapshots_dir(&a.output.out));
    if let Some(dir) = &snapshots {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create '{}'", dir.display()))?;
        if !a.resuming.resume {
            for old in crate::cmd::train_eval::snapshots_in(dir)?.into_values() {
                std::fs::remove_file(&old)
                    .with_context(|| format!("cannot replace '{}'", old.display()))?;
            }
        }
    }
    // The learning curve: on resume, the rows up to the checkpoint.
    let curve = curve_path(&a.output.out, "csv");
    let mut rows = String::from(CURVE_HEADER);
    if a.resuming.resume {
        let old = cowrie_solver::bounded::read_text(&curve)
            .with_context(|| format!("--resume: cannot read '{}'", curve.display()))?;
        for line in old.lines().skip(1) {
            let g: u64 = line
                .split(',')
                .next()
                .and_then(|g| g.parse().ok())
                .unwrap_or(u64::MAX);
            if g <= done {
                rows.push_str(line);
                rows.push('\n');
            }
        }
    }
    // What the network was trained with: the opponent's files (and `--init`'s weights).
    let mut inputs =
        crate::run::provenance::inputs_of::<G>(&rules, std::slice::from_ref(&opponent))?;
    if let Some(init) = &a.init {
        let d = crate::run::digest::FileDigest::of_file(init)
            .with_context(|| format!("cannot read '{}'", init.display()))?;
        inputs
            .entry("init".to_string())
            .or_default()
            .insert(init.display().to_string(), d.into());
    }
    let inputs = serde_json::to_string(&inputs).context("serialising the inputs")?;
    let meta = |net: &mut Net, games: u64| {
        let m = &mut net.meta;
        m.insert("git_commit".into(), crate::run::provenance::COMMIT.into());
        m.insert(
            "git_dirty".into(),
            crate::run::provenance::dirty().map_or("unknown".into(), |d| d.to_string()),
        );
        m.insert(
            "build_profile".into(),
            crate::run::provenance::PROFILE.into(),
        );
        m.insert("inputs".into(), inputs.clone());
        m.insert("game".into(), G::NAME.into());
        m.insert("variant".into(), variant.clone());
        m.insert(
            "options".into(),
            rules
                .resolved()
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(";"),
        );
        m.insert("encoding".into(), enc.name.into());
        m.insert("outputs".into(), td::output_names(enc.outputs).into());
        m.insert(
            "method".into(),
            "TD(lambda) self-play, offline lambda-return, batched".into(),
        );
        m.insert("games".into(), games.to_string());
        m.insert("train_args".into(), print.clone());
        if !m.contains_key("command") || games == 0 {
            m.insert("command".into(), command_line.join(" "));
        }
    };
    let write_rows = |rows: &str| {
        write_curve(
            &curve,
            &curve_path(&a.output.out, "svg"),
            rows,
            G::NAME,
            &variant,
            &a.opponent,
        )
    };
    let save = |net: &Net, path: &Path| -> anyhow::Result<()> {
        let tmp = with_suffix(path, ".tmp");
        net.save(&tmp)
            .with_context(|| format!("cannot write '{}'", tmp.display()))?;
        std::fs::rename(&tmp, path).with_context(|| format!("cannot write '{}'", path.display()))
    };
    let all: Vec<u64> = (0..a.eval_games).collect();
    // An evaluation point: the weights kept (with --keep-snapshots), and their curve row.
    let eval_point = |net: &Net, games: u64, rows: &mut String| -> anyhow::Result<()> {
        if let Some(dir) = &snapshots {
            save(net, &dir.join(snapshot_name(games)))?;
        }
        if a.eval_games > 0 {
            let returns =
                pool.install(|| evaluate::<G>(net, enc.outputs, &rules, &opponent, &all))?;
            rows.push_str(&curve_line(games, &returns, &a.opponent));
        }
        Ok(())
    };
    if done == 0 {
        meta(&mut net, 0);
        eval_point(&net, 0, &mut rows)?;
        write_rows(&rows)?;
        save(&net, &ckpt)?;
    }
    let progress = Progress::own(!a.quiet);
    let bar = progress.bar(a.games, "games");
    bar.inc(done);
    let started = Instant::now();
    let start_done = done;
    let mut plies = 0u64;
    let mut sum = net.zero_grad();
    while done < a.games {
        // A batch never straddles an evaluation, so checkpoints fall on whole batches.
        let mut end = (done + a.batch).min(a.games);
        if let Some(k) = done.checked_div(a.eval_every) {
            end = end.min((k + 1) * a.eval_every);
        }
        let grads: Vec<(Grad, u32)> = pool.install(|| {
            (done..end)
                .into_par_iter()
                .map_init(Scratch::<G>::default, |s, g| {
                    let mut grad = net.zero_grad();
                    let mut chance = chance_stream(a.seeding.or_default(), g);
                    let p = self_play::<G>(
                        &net,
                        enc.outputs,
                        &rules,
                        a.lambda,
                        &mut chance,
                        s,
                        &mut grad,
                    );
                    (grad, p)
                })
                .collect()
        });
        sum.clear();
        for (g, p) in &grads {
            sum.add(g);
            plies += u64::from(*p);
        }
        net.step(&sum, a.alpha);
        bar.inc(end - done);
        let crossed = a.eval_every > 0 && end.is_multiple_of(a.eval_every);
        done = end;
        if crossed || done == a.games {
            meta(&mut net, done);
            eval_point(&net, done, &mut rows)?;
            write_rows(&rows)?;
            save(&net, &ckpt)?;
        }
    }
    progress.finish(&bar);
    meta(&mut net, done);
    save(&net, &a.output.out)?;
    let secs = started.elapsed().as_secs_f64();
    let trained = done - start_done;
    let last = rows.lines().last().unwrap_or("");
    Ok(format!(
        "{} {variant}: {} games of TD(lambda) self-play ({trained} in this run, {:.0} games/s, {:.0} plies/s), weights in {}\nlearning curve in {} (last row: {last})\n",
        G::NAME,
        done,
        trained as f64 / secs.max(1e-9),
        plies as f64 / secs.max(1e-9),
        a.output.out.display(),
        curve.display(),
    ))
}

/// `cowrie train`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("The weights file to write (safetensors); the checkpoint is FILE.ckpt, the learning curve FILE's stem .curve.csv and .curve.svg").value_name("FILE")))]
#[command(mut_arg("seed", |a| a.help("Run seed: the initial weights and the dice of every training game. Default 1")))]
#[command(mut_arg("threads", |a| a.help("Worker threads (the weights do not depend on it)")))]
#[command(mut_arg("resume", |a| a.help("Continue from FILE.ckpt, written by the same arguments")))]
#[command(mut_arg("force", |a| a.help("Replace the weights FILE already holds (with its checkpoint and learning curve); without it an existing FILE is refused")))]
pub struct TrainArgs {
    /// The game (one with a learned evaluation: frangieh) and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// Self-play games in all (with --resume, including those already played); 0 writes the
    /// initial weights and their evaluation.
    #[arg(long, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
    /// `--seed`.
    #[command(flatten)]
    pub seeding: SeedArg,
    /// `--threads`.
    #[command(flatten)]
    pub workers: ThreadsArg,
    /// Start from these weights instead of random ones.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// `--resume`.
    #[command(flatten)]
    pub resuming: ResumeArg,
    /// `--force`.
    #[command(flatten)]
    pub forcing: ForceArg,
    /// Hidden units (1 to the network's maximum, 256).
    #[arg(long, default_value_t = 80, allow_negative_numbers = true,
          value_parser = |t: &str| whole_in::<usize>(t, 1, td::net::MAX_HIDDEN as u64, "hidden units"))]
    pub hidden: usize,
    /// TD(lambda)'s lambda, from 0 to 1.
    #[arg(long, default_value_t = 0.7, allow_negative_numbers = true, value_parser = fraction_f32)]
    pub lambda: f32,
    /// Learning rate per position, above 0 (the batch's updates are summed).
    #[arg(long, default_value_t = 0.02, allow_negative_numbers = true, value_parser = positive_f32)]
    pub alpha: f32,
    /// Games played with the same weights before their summed update is applied (games of a
    /// batch are played in parallel; 1 updates after every game, as TD-Gammon did).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true,
          value_parser = |t: &str| whole_in::<u64>(t, 1, MAX_GAMES, "games"))]
    pub batch: u64,
    /// Games between two evaluations and checkpoints (0: only at the start and the end).
    #[arg(long, default_value_t = 10000, allow_negative_numbers = true, value_parser = game_count)]
    pub eval_every: u64,
    /// Evaluation games against --opponent (seat-swapped pairs; 0: no learning curve).
    #[arg(long, default_value_t = 400, allow_negative_numbers = true, value_parser = game_count)]
    pub eval_games: u64,
    /// The fixed opponent of the learning curve.
    #[arg(long, default_value = "heuristic")]
    pub opponent: String,
    /// Keep the weights of every evaluation point as `<FILE stem>.snapshots/games-<G>.safetensors`,
    /// for `cowrie train-eval` to play the learning curve in shards (with --eval-games 0,
    /// training plays no evaluation itself).
    #[arg(long)]
    pub keep_snapshots: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `cowrie train`: trains and prints the learning curve's summary.
///
/// # Errors
/// As [`run`].
pub fn command(args: TrainArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    let out = &args.output.out;
    let inputs: Vec<&Path> = args.init.iter().map(PathBuf::as_path).collect();
    for path in [
        out.clone(),
        with_suffix(out, ".ckpt"),
        curve_path(out, "csv"),
        curve_path(out, "svg"),
    ] {
        crate::run::outputs::check_file("--out", &path, &inputs)?;
    }
    if out.exists() && !args.resuming.resume && !args.forcing.force {
        bail!(
            "--out '{}' already holds weights; pass --force to replace them, --resume to continue their training, or choose another file",
            out.display()
        );
    }
    print_stdout(&run(&args, command_line)?)
}
