//! `cowrie.play_match`: a run of `cowrie match` through the experiments library, so its
//! `games.csv` is the command line's, byte for byte; stopped on request (Ctrl-C in Python) as
//! the command line stops on SIGINT, after writing the games it has finished.

use std::path::PathBuf;

use cowrie_agents::AgentSpec;
use cowrie_engine::one_line;
use cowrie_experiments::config::RulesConfig;
use cowrie_experiments::interrupt::{self, Interrupted};
use cowrie_experiments::progress::Progress;
use cowrie_experiments::run::runner::{self, MatchConfig};
use cowrie_experiments::run::schedule::Shard;

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
    /// `--force`: replace a finished run in `out`.
    pub force: bool,
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
        if self.force {
            c.push("--force".to_string());
        }
        c.extend([
            "--out".to_string(),
            self.out.display().to_string(),
            "--quiet".to_string(),
        ]);
        c
    }
}

/// A request to stop a run: the command line's own SIGINT flag
/// ([`cowrie_experiments::interrupt`]), which the runner reads after each batch of finished
/// games is written and vouched for by the manifest, so it stops where nothing is half-written.
/// The flag is the process's: a request stops every run under way in it, as Ctrl-C does.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stop;

impl Stop {
    /// Asks the run to stop at its next write of finished games.
    pub fn request(self) {
        interrupt::request();
    }
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
/// The command line's message for a bad argument (game, variant, option, agent, counts), an
/// unwritable directory, or one holding a finished run without `force` or `resume`.
pub fn play_match(args: &MatchArgs, _stop: &Stop) -> Result<Played, String> {
    let spec = |s: &str| s.parse::<AgentSpec>().map_err(|e| e.to_string());
    let agents = [spec(&args.p1)?, spec(&args.p2)?];
    // Self-play (the same spec in both seats) has no seat swap, as on the command line.
    let swap = args.swap && agents[0] != agents[1];
    let cfg = MatchConfig {
        rules: RulesConfig::new(&args.game, args.variant.as_deref(), &args.options)
            .map_err(|e| message(&e))?,
        agents,
        games: args.games,
        swap,
        seed: args.seed,
        threads: args.threads,
        out: args.out.clone(),
        progress: Progress::Hidden,
        command_line: args.command_line(),
        shard: Shard::WHOLE,
        resume: args.resume,
        record: args.record,
    };
    cowrie_experiments::args::thread_count(&args.threads.to_string())
        .map_err(|e| format!("--threads {}: {e}", args.threads))?;
    // As `cowrie match` does: a finished run in `out` is replaced only with `force`.
    cowrie_experiments::run::outputs::check_dir(&args.out, &[], args.resume, args.force)
        .map_err(|e| message(&e))?;
    // The command line's one-line message (`experiments/src/main.rs`), without its `error: `.
    match runner::run(&cfg) {
        Ok(_) => {}
        Err(e) => match e.downcast_ref::<Interrupted>() {
            Some(stopped) => {
                interrupt::clear();
                return Ok(Played::Stopped {
                    written: stopped.written,
                });
            }
            None => return Err(message(&e)),
        },
    }
    let path = args.out.join("games.csv");
    std::fs::read_to_string(&path)
        .map(Played::Complete)
        .map_err(|e| format!("cannot read '{}': {e}", path.display()))
}

/// An error as one line: `{:#}` shows an error's whole chain of causes.
fn message(e: &impl std::fmt::Display) -> String {
    one_line(&format!("{e:#}").replace('\n', " "))
}
