//! The command line, parsed by clap into raw arguments (clap types and their value parsers
//! only); [`crate::config`] turns them into validated configs.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use cowrie_agents::AgentSpec;

/// cowrie: rules engines, agents and self-play experiments for traditional board games.
///
/// `cowrie study` runs the built-in study; `cowrie <command> --help` describes each command.
#[derive(Debug, Parser)]
#[command(name = "cowrie", version, arg_required_else_help = true)]
pub struct Cli {
    /// What to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Self-play between two agents: writes DIR/games.csv, DIR/summary.csv, DIR/manifest.json.
    Match(crate::cmd::match_cmd::MatchArgs),
    /// A round robin between two or more agents, with Elo differences and ratings.
    Tournament(crate::cmd::tournament::TournamentArgs),
    /// A strength ladder: each adjacent pair of rungs plays seat-swapped pairs; writes
    /// DIR/ladder.csv, DIR/games.csv, DIR/manifest.json.
    Ladder(crate::cmd::ladder::LadderArgs),
    /// First-mover advantage of one rule set: the same agent in both seats.
    Advantage(crate::cmd::compare::AdvantageArgs),
    /// The same self-play under several rule sets, side by side, with differences and intervals.
    Compare(crate::cmd::compare::CompareArgs),
    /// The same self-play under a ladder of agent strengths: whether the first-mover win rate
    /// and the draw share have settled; writes DIR/converge.csv, DIR/converge.svg.
    Converge(crate::cmd::converge::ConvergeArgs),
    /// The built-in study (the README's main job): every game and named variant, CSV per run.
    Study(crate::cmd::study::StudyArgs),
    /// Lists a game's named variants and options.
    Rules(crate::cmd::rules_cmd::RulesArgs),
    /// Every legal resulting position of backgammon positions and dice (Frangieh rules), one
    /// JSON line per input line read from stdin; see `experiments/src/cmd/legal.rs` for the formats.
    Legal(crate::cmd::legal::LegalArgs),
    /// The bench signature: a fixed seeded workload on every game, its hash and rates.
    Bench(crate::cmd::bench::BenchArgs),
    /// Joins the directories of a sharded match into the output of one run.
    Merge(crate::cmd::merge::MergeArgs),
    /// Re-plays recorded games through the engine, verifying and printing them.
    Replay(crate::cmd::replay::ReplayArgs),
    /// Trains a learned evaluation by TD(lambda) self-play: writes the weights (safetensors),
    /// a checkpoint, and a learning curve (CSV and SVG).
    Train(crate::cmd::train::TrainArgs),
    /// Solves Baghchal into DIR: the movement phase by retrograde analysis, a layer at a time,
    /// then the placement phase by backward induction back to the start.
    Solve(crate::cmd::solve::SolveArgs),
    /// A Baghchal position's perfect-play value and every move's, from a database.
    Probe(crate::cmd::probe::ProbeArgs),
    /// Judges every move of recorded Baghchal games against perfect play: wins and draws
    /// thrown away, by agent, side and phase, to CSV.
    Judge(crate::cmd::judge::JudgeArgs),
    /// Prints a shell completion script for cowrie (for example `cowrie completions bash >
    /// ~/.local/share/bash-completion/completions/cowrie`).
    Completions(CompletionsArgs),
    /// Prints cowrie's manual page (roff), generated from the same definitions as `--help`
    /// (`cowrie man > cowrie.1; man ./cowrie.1`).
    Man,
    /// The match-equity table of matches to a target score (Julbahar), from a subgames.csv.
    Equity(crate::cmd::equity::EquityArgs),
    /// Draws a position of any game as a diagram labelled in words, SVG or PNG (by the
    /// extension of --out).
    Show(crate::cmd::show::ShowArgs),
    /// Bargese: the effect of entering first, each seed played as dealt and with the first
    /// entry forced to each seat; writes DIR/entry.csv, DIR/estimates.csv.
    Entry(crate::cmd::entry::EntryArgs),
    /// Writes DIR/README.md (default `results/`) from the CSVs and manifests under DIR, with
    /// forest plots of variant effects; `--check` fails (exit code 1) where a file differs.
    Report(crate::cmd::report::ReportArgs),
}

/// `cowrie completions`.
#[derive(Debug, Args, Clone)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

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

/// Parses a count of seeds (each a fixed set of games): a whole number from 0 to [`MAX_GAMES`].
///
/// # Errors
/// As [`game_count`], stating the limit in seeds.
pub fn seed_count(text: &str) -> Result<u64, String> {
    whole_in(text, 0, MAX_GAMES, "seeds")
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
