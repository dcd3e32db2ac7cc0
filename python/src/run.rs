//! `cowrie.play_match`: a run of `cowrie match` through the experiments library, so its
//! `games.csv` is the command line's, byte for byte; stopped on request (Ctrl-C in Python) as
//! the command line stops on SIGINT, after writing the games it has finished.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use cowrie_agents::AgentSpec;
use cowrie_engine::one_line;
use cowrie_experiments::cmd::match_cmd::{self, MatchConfig};
use cowrie_experiments::progress::Progress;
use cowrie_experiments::schedule::Shard;
use indicatif::style::ProgressTracker;
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// The arguments of one match, as `cowrie match` takes them.
pub struct MatchArgs {
    /// `--game`.
    pub game: String,
    /// `--p1`.
    pub p1: String,
    /// `--p2`.
    pub p2: String,
    /// `--games`.
    pub games: u64,
    /// `--variant`.
    pub variant: Option<String>,
    /// `--option`, in order.
    pub options: Vec<String>,
    /// `--seed`.
    pub seed: u64,
    /// `--threads`.
    pub threads: usize,
    /// Seat-swapped pairs (no `--no-swap`).
    pub swap: bool,
    /// `--out`.
    pub out: PathBuf,
    /// `--record`.
    pub record: bool,
    /// `--resume`.
    pub resume: bool,
}

impl MatchArgs {
    /// The command line that runs the same match.
    fn command_line(&self) -> Vec<String> {
        let mut c: Vec<String> = ["cowrie", "match", "--game", &self.game]
            .map(str::to_string)
            .to_vec();
        if let Some(v) = &self.variant {
            c.extend(["--variant".to_string(), v.clone()]);
        }
        for o in &self.options {
            c.extend(["--option".to_string(), o.clone()]);
        }
        c.extend([
            "--p1".to_string(),
            self.p1.clone(),
            "--p2".to_string(),
            self.p2.clone(),
            "--games".to_string(),
            self.games.to_string(),
            "--seed".to_string(),
            self.seed.to_string(),
            "--threads".to_string(),
            self.threads.to_string(),
        ]);
        if !self.swap {
            c.push("--no-swap".to_string());
        }
        if self.record {
            c.push("--record".to_string());
        }
        if self.resume {
            c.push("--resume".to_string());
        }
        c.extend([
            "--out".to_string(),
            self.out.display().to_string(),
            "--quiet".to_string(),
        ]);
        c
    }
}

/// A request to stop a run, and how many of its games are on disk.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    requested: Arc<AtomicBool>,
    written: Arc<AtomicU64>,
}

impl Stop {
    /// Asks the run to stop at its next write of finished games.
    pub fn request(&self) {
        self.requested.store(true, Ordering::SeqCst);
    }
}

/// The payload of the unwind that stops a run (`resume_unwind` runs no panic hook).
struct Stopped;

/// Watches a run's progress bar, which the runner advances right after each batch of finished
/// games is written and vouched for by the manifest: there, the run is stopped when asked, by
/// unwinding out of the runner (nothing is left half-written at that point).
#[derive(Clone)]
struct StopAtCheckpoint(Stop);

impl ProgressTracker for StopAtCheckpoint {
    fn clone_box(&self) -> Box<dyn ProgressTracker> {
        Box::new(self.clone())
    }

    fn tick(&mut self, state: &ProgressState, _: Instant) {
        self.0.written.store(state.pos(), Ordering::SeqCst);
        // Once only: the unwind must not start again while the bar is dropped.
        if self.0.requested.swap(false, Ordering::SeqCst) {
            resume_unwind(Box::new(Stopped));
        }
    }

    fn reset(&mut self, _: &ProgressState, _: Instant) {}

    fn write(&self, _: &ProgressState, _: &mut dyn std::fmt::Write) {}
}

/// How a match ended.
pub enum Played {
    /// Every game played: the text of `games.csv`.
    Complete(String),
    /// Stopped on request with `written` of its `games` on disk, resumable (`--resume`).
    Stopped {
        /// Games (or Julbahar matches) written.
        written: u64,
    },
}

/// Plays the match into `args.out` (every file `cowrie match` writes) and returns the text of
/// its `games.csv`, or stops at the first write of finished games after `stop` is requested,
/// its manifest marked `interrupted` as the command line marks it on SIGINT.
///
/// # Errors
/// The command line's message for a bad argument (game, variant, option, agent, counts) or an
/// unwritable directory.
pub fn play_match(args: &MatchArgs, stop: &Stop) -> Result<Played, String> {
    let spec = |s: &str| s.parse::<AgentSpec>().map_err(|e| e.to_string());
    let bar = ProgressBar::hidden()
        .with_style(ProgressStyle::default_bar().with_key("stop", StopAtCheckpoint(stop.clone())));
    let cfg = MatchConfig {
        game: args.game.clone(),
        variant: args.variant.clone(),
        options: args.options.clone(),
        agents: [spec(&args.p1)?, spec(&args.p2)?],
        games: args.games,
        swap: args.swap,
        seed: args.seed,
        threads: args.threads,
        out: args.out.clone(),
        progress: Progress::Shared(bar),
        command_line: args.command_line(),
        shard: Shard::WHOLE,
        resume: args.resume,
        record: args.record,
    };
    cowrie_experiments::cli::thread_count(&args.threads.to_string())
        .map_err(|e| format!("--threads {}: {e}", args.threads))?;
    match catch_unwind(AssertUnwindSafe(|| match_cmd::run(&cfg))) {
        // The command line's one-line message (`experiments/src/main.rs`), without its `error: `.
        Ok(done) => done.map_err(|e| one_line(&format!("{e:#}").replace('\n', " ")))?,
        Err(payload) if payload.is::<Stopped>() => {
            mark_interrupted(&args.out)?;
            return Ok(Played::Stopped {
                written: stop.written.load(Ordering::SeqCst),
            });
        }
        Err(payload) => resume_unwind(payload),
    };
    let path = args.out.join("games.csv");
    std::fs::read_to_string(&path)
        .map(Played::Complete)
        .map_err(|e| format!("cannot read '{}': {e}", path.display()))
}

/// Marks the manifest of a stopped run `interrupted` (it says `running` while games are
/// played): `status` is its first field, as the runner writes it.
fn mark_interrupted(out: &std::path::Path) -> Result<(), String> {
    let path = out.join("manifest.json");
    let cannot = |e: std::io::Error| format!("cannot write '{}': {e}", path.display());
    let text = std::fs::read_to_string(&path).map_err(cannot)?;
    let Some(rest) = text.strip_prefix("{\n  \"status\": \"running\",") else {
        return Ok(());
    };
    let tmp = out.join("manifest.json.tmp");
    std::fs::write(&tmp, format!("{{\n  \"status\": \"interrupted\",{rest}")).map_err(cannot)?;
    std::fs::rename(&tmp, &path).map_err(cannot)
}
