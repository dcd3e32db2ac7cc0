//! The argument groups several commands share — `--game`, `--variant` and `--option`,
//! `--out`, `--resume`, `--threads`, `--seed`, each declared once here, with a command's own
//! help text set by `#[command(mut_arg(...))]` where it differs — and the value parsers and
//! message helpers every command uses. Each command turns its arguments into its config,
//! checked before anything is written ([`crate::config`] holds the pieces configs share).

use std::path::PathBuf;

use clap::Args;
use cowrie_agents::AgentSpec;

/// A game and its rules, as every command that plays or reads a game takes them.
#[derive(Debug, Args, Clone)]
pub struct GameRulesArgs {
    /// The game.
    #[command(flatten)]
    pub which: GameArg,
    /// The variant and option overrides.
    #[command(flatten)]
    pub variant: VariantArgs,
}

impl GameRulesArgs {
    /// The game's name, as given.
    #[must_use]
    pub fn game(&self) -> &str {
        &self.which.game
    }
}

/// `--game`.
#[derive(Debug, Args, Clone)]
pub struct GameArg {
    /// The game: baghchal, frangieh, julbahar or bargese.
    #[arg(long)]
    pub game: String,
}

/// A named variant and rule-option overrides, for a game given by `--game` or fixed by the
/// command.
#[derive(Debug, Args, Clone)]
pub struct VariantArgs {
    /// A named variant (default: the game's first, see `cowrie rules --game G`).
    #[arg(long)]
    pub variant: Option<String>,
    /// Overrides one rule option, `key=value`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

/// `--out`: where a command writes (each command's `--help` says what: a run's directory, a
/// database's, or one file).
#[derive(Debug, Args, Clone)]
pub struct OutArg {
    /// Output directory (created if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// `--resume`: continue an interrupted run in the output directory.
#[derive(Debug, Args, Clone)]
pub struct ResumeArg {
    /// Continue the interrupted run in DIR (same arguments): finished work is verified against
    /// its manifest and kept, the interrupted part resumes.
    #[arg(long)]
    pub resume: bool,
}

/// `--force`: replace a finished run in the output directory.
#[derive(Debug, Args, Clone)]
pub struct ForceArg {
    /// Replace the finished run (or database) DIR already holds; without it such a directory
    /// is refused (an interrupted run is replaced, or continued with --resume).
    #[arg(long)]
    pub force: bool,
}

/// `--no-verify`: read a solver database without checking its files' checksums.
#[derive(Debug, Args, Clone)]
pub struct NoVerifyArg {
    /// Skip the check of each database file against the SHA-256 its manifest records (made
    /// once per file on its first read, which reads the whole file).
    #[arg(long)]
    pub no_verify: bool,
}

impl NoVerifyArg {
    /// Sets the solver's checking for this process.
    pub fn apply(&self) {
        cowrie_solver::db::set_verify(!self.no_verify);
    }

    /// `text` (a command's output) with, under `--no-verify`, a last line saying the database
    /// was read unchecked.
    #[must_use]
    pub fn stated(&self, mut text: String) -> String {
        if self.no_verify {
            text.push_str(
                "the database's files were read without checking them against their SHA-256 (--no-verify)\n",
            );
        }
        text
    }
}

/// `--threads`.
#[derive(Debug, Args, Clone)]
pub struct ThreadsArg {
    /// Worker threads (the output does not depend on it).
    #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = thread_count)]
    pub threads: usize,
}

/// `--seed`.
#[derive(Debug, Args, Clone)]
pub struct SeedArg {
    /// Run seed (default 1): the output is a pure function of the arguments and this seed.
    #[arg(long, value_name = "SEED", allow_negative_numbers = true, value_parser = seed_value)]
    pub seed: Option<u64>,
}

impl SeedArg {
    /// The seed given, or 1.
    #[must_use]
    pub fn or_default(&self) -> u64 {
        self.seed.unwrap_or(1)
    }
}

/// Parses an agent spec (`KIND[:key=value,...]`, see `docs/agents.md`), refusing an empty
/// parameter list or an empty parameter (`heuristic:`, `mcts:iterations=5,`), which the spec
/// grammar does not allow but `AgentSpec`'s parser lets through.
///
/// # Errors
/// The text naming the problem, or `AgentSpec`'s own error.
pub fn agent_spec(text: &str) -> Result<AgentSpec, String> {
    if let Some((kind, params)) = text.split_once(':') {
        if params.is_empty() {
            return Err(format!(
                "agent '{text}': nothing after ':' (write '{kind}' or '{kind}:key=value,...')"
            ));
        }
        if params.split(',').any(str::is_empty) {
            return Err(format!("agent '{text}': an empty parameter between commas"));
        }
    }
    text.parse::<AgentSpec>().map_err(|e| e.to_string())
}

/// The largest count of games a run accepts: 2^40 (its schedule is computed on demand, so any
/// count up to this costs no memory before the games are played).
pub const MAX_GAMES: u64 = 1 << 40;

/// The most worker threads a run accepts: the larger of 256 and four times the machine's
/// available parallelism (so 16 threads are allowed on any machine).
#[must_use]
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    256.max(4 * cores)
}

/// Quotes at most the first 80 characters of a user's input, with its length when longer and
/// control characters escaped, so an error line stays one short line whatever was passed.
#[must_use]
pub fn quote(text: &str) -> String {
    cowrie_engine::quote_input(text)
}

/// A JSON parse error as a message can carry it: serde's text quotes the offending value, which
/// may be any length, so it is cut after 200 characters.
pub fn json_error(e: serde_json::Error) -> anyhow::Error {
    anyhow::anyhow!(cowrie_engine::clip(
        &cowrie_engine::clip_quoted(&e.to_string()),
        200,
    ))
}

/// Parses a count of games: a whole number from 0 to [`MAX_GAMES`] (commands refuse 0
/// themselves, naming what needs at least one).
///
/// # Errors
/// A negative, fractional or too large number, or not a number.
pub fn game_count(text: &str) -> Result<u64, String> {
    whole_in(text, 0, MAX_GAMES, "games")
}

/// Parses a run seed: any whole number from 0 to 2^64 - 1.
///
/// # Errors
/// A negative, fractional or too large number, or not a number.
pub fn seed_value(text: &str) -> Result<u64, String> {
    whole_in(text, 0, u64::MAX, "")
}

/// Parses a whole number from `min` to `max` (`unit` names what is counted, for the message;
/// empty for a plain number), as every count flag takes it: clap's message names the flag and
/// the value, this text the range (give the flag `allow_negative_numbers`, so a negative value
/// reaches it).
///
/// # Errors
/// A negative, fractional or out-of-range number, or not a number, stating the range.
pub fn whole_in<T: TryFrom<u64>>(text: &str, min: u64, max: u64, unit: &str) -> Result<T, String> {
    let what = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    let range = if max == MAX_GAMES {
        format!("from {min} to {max} (2^40){what}")
    } else {
        format!("from {min} to {max}{what}")
    };
    let wanted = || format!("must be a whole number {range}");
    match text.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => T::try_from(n).map_err(|_| wanted()),
        _ => Err(wanted()),
    }
}

/// Parses a finite number above 0 that a 32-bit float holds (a learning rate).
///
/// # Errors
/// Zero, a negative number, infinity or NaN, a number beyond the 32-bit range, or not a number.
pub fn positive_f32(text: &str) -> Result<f32, String> {
    let x = real(text)?;
    #[allow(clippy::cast_possible_truncation)]
    let y = x as f32;
    if !(x > 0.0 && y.is_finite() && y > 0.0) {
        return Err(format!(
            "must be a finite number above 0 (at most {:e}, at least {:e})",
            f32::MAX,
            f32::MIN_POSITIVE
        ));
    }
    Ok(y)
}

/// Parses a finite number above 0 (a size in gigabytes).
///
/// # Errors
/// Zero, a negative number, infinity or NaN, or not a number.
pub fn positive_f64(text: &str) -> Result<f64, String> {
    match real(text)? {
        x if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err("must be a finite number above 0".to_string()),
    }
}

/// Parses a fraction: a number from 0 to 1, as a 32-bit float.
///
/// # Errors
/// A number outside [0, 1], NaN, or not a number.
pub fn fraction_f32(text: &str) -> Result<f32, String> {
    match real(text)? {
        // A value in [0, 1] rounds to one in [0, 1].
        #[allow(clippy::cast_possible_truncation)]
        x if (0.0..=1.0).contains(&x) => Ok(x as f32),
        _ => Err("must be from 0 to 1".to_string()),
    }
}

/// A decimal number.
fn real(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .map_err(|_| "must be a number".to_string())
}

/// Parses a worker-thread count: 1 to [`max_threads`].
///
/// # Errors
/// Zero, a negative number, more than the bound, or not a number.
pub fn thread_count(text: &str) -> Result<usize, String> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err("must be a positive number".to_string());
    }
    let max = max_threads();
    match t.parse::<usize>() {
        Ok(0) => Err("at least one worker thread is needed".to_string()),
        Ok(n) if n <= max => Ok(n),
        Ok(_) => Err(format!(
            "at most {max} worker threads (the larger of 256 and 4x this machine's parallelism)"
        )),
        Err(_) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("{}: at most {max} worker threads", quote(text)))
        }
        Err(_) => Err(format!("{}: must be a positive whole number", quote(text))),
    }
}

/// Arguments shared by runs of games.
#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// The run seed.
    #[command(flatten)]
    pub seeding: SeedArg,
    /// Worker threads.
    #[command(flatten)]
    pub workers: ThreadsArg,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
}
