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
    Match(MatchArgs),
    /// A round robin between two or more agents, with Elo differences and ratings.
    Tournament(TournamentArgs),
    /// A strength ladder: each adjacent pair of rungs plays seat-swapped pairs; writes
    /// DIR/ladder.csv, DIR/games.csv, DIR/manifest.json.
    Ladder(LadderArgs),
    /// First-mover advantage of one rule set: the same agent in both seats.
    Advantage(AdvantageArgs),
    /// The same self-play under several rule sets, side by side, with differences and intervals.
    Compare(CompareArgs),
    /// The same self-play under a ladder of agent strengths: whether the first-mover win rate
    /// and the draw share have settled; writes DIR/converge.csv, DIR/converge.svg.
    Converge(ConvergeArgs),
    /// The built-in study (the README's main job): every game and named variant, CSV per run.
    Study(StudyArgs),
    /// Lists a game's named variants and options.
    Rules(RulesArgs),
    /// Every legal resulting position of backgammon positions and dice (Frangieh rules), one
    /// JSON line per input line read from stdin; see `experiments/src/cmd/legal.rs` for the formats.
    Legal(LegalArgs),
    /// The bench signature: a fixed seeded workload on every game, its hash and rates.
    Bench(BenchArgs),
    /// Joins the directories of a sharded match into the output of one run.
    Merge(MergeArgs),
    /// Re-plays recorded games through the engine, verifying and printing them.
    Replay(ReplayArgs),
    /// Trains a learned evaluation by TD(lambda) self-play: writes the weights (safetensors),
    /// a checkpoint, and a learning curve (CSV and SVG).
    Train(TrainArgs),
    /// Solves Baghchal into DIR: the movement phase by retrograde analysis, a layer at a time,
    /// then the placement phase by backward induction back to the start.
    Solve(SolveArgs),
    /// A Baghchal position's perfect-play value and every move's, from a database.
    Probe(ProbeArgs),
    /// Judges every move of recorded Baghchal games against perfect play: wins and draws
    /// thrown away, by agent, side and phase, to CSV.
    Judge(JudgeArgs),
    /// Prints a shell completion script for cowrie (for example `cowrie completions bash >
    /// ~/.local/share/bash-completion/completions/cowrie`).
    Completions(CompletionsArgs),
    /// Prints cowrie's manual page (roff), generated from the same definitions as `--help`
    /// (`cowrie man > cowrie.1; man ./cowrie.1`).
    Man,
    /// The match-equity table of matches to a target score (Julbahar), from a subgames.csv.
    Equity(EquityArgs),
    /// Draws a position of any game as an SVG diagram, labelled in words.
    Show(ShowArgs),
    /// Bargese: the effect of entering first, each seed played as dealt and with the first
    /// entry forced to each seat; writes DIR/entry.csv, DIR/estimates.csv.
    Entry(EntryArgs),
    /// Writes DIR/README.md (default `results/`) from the CSVs and manifests under DIR, with
    /// forest plots of variant effects; `--check` fails (exit code 1) where a file differs.
    Report(ReportArgs),
}

/// `cowrie entry`.
#[derive(Debug, Args, Clone)]
pub struct EntryArgs {
    /// The Bargese variant (one with an opening of void throws; default finkel-2002).
    #[arg(long)]
    pub variant: Option<String>,
    /// Overrides one rule option, `key=value`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The agent in both seats.
    #[arg(long, default_value = "heuristic")]
    pub agent: AgentSpec,
    /// Seeds, each played three times.
    #[arg(long, allow_negative_numbers = true, value_parser = game_count)]
    pub seeds: u64,
    /// Run seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (the output does not depend on it).
    #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = thread_count)]
    pub threads: usize,
    /// Output directory.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// `cowrie report`.
#[derive(Debug, Args, Clone)]
pub struct ReportArgs {
    /// The results directory.
    #[arg(default_value = "results")]
    pub dir: PathBuf,
    /// Regenerates in memory and exits with code 1, naming the first differing line, where a
    /// written file differs; writes nothing.
    #[arg(long)]
    pub check: bool,
}

/// `cowrie completions`.
#[derive(Debug, Args, Clone)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `cowrie equity`.
#[derive(Debug, Args, Clone)]
pub struct EquityArgs {
    /// The subgames.csv of a Julbahar run.
    #[arg(long, value_name = "FILE")]
    pub subgames: PathBuf,
    /// The score that ends a match (the run's `target` option).
    #[arg(long, default_value_t = 31)]
    pub target: u32,
    /// Bootstrap resamples of the matches' seat-swapped pairs.
    #[arg(long, default_value_t = 200)]
    pub resamples: usize,
    /// Seed of the resampling.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fewest games begun at a score pair for its raw frequency to be printed.
    #[arg(long, default_value_t = 30)]
    pub min_visits: u64,
    /// Output directory (writes equity.csv).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// `cowrie show`.
#[derive(Debug, Args, Clone)]
pub struct ShowArgs {
    /// The game and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// The position in the game's notation (`docs/rules/GAME.md`); default: the start.
    #[arg(long, value_name = "NOTATION")]
    pub position: Option<String>,
    /// The SVG file to write.
    #[arg(long, value_name = "FILE.svg")]
    pub out: PathBuf,
}

/// `cowrie train`.
#[derive(Debug, Args, Clone)]
pub struct TrainArgs {
    /// The game (one with a learned evaluation: frangieh) and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// Self-play games in all (with --resume, including those already played).
    #[arg(long, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// The weights file to write (safetensors); the checkpoint is FILE.ckpt, the learning
    /// curve FILE's stem .curve.csv and .curve.svg.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Run seed: the initial weights and the dice of every training game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (the weights do not depend on it).
    #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = thread_count)]
    pub threads: usize,
    /// Start from these weights instead of random ones.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// Continue from FILE.ckpt, written by the same arguments.
    #[arg(long)]
    pub resume: bool,
    /// Hidden units.
    #[arg(long, default_value_t = 80)]
    pub hidden: usize,
    /// TD(lambda)'s lambda.
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Learning rate per position (the batch's updates are summed).
    #[arg(long, default_value_t = 0.02)]
    pub alpha: f32,
    /// Games played with the same weights before their summed update is applied (games of a
    /// batch are played in parallel; 1 updates after every game, as TD-Gammon did).
    #[arg(long, default_value_t = 1)]
    pub batch: u64,
    /// Games between two evaluations and checkpoints (0: only at the start and the end).
    #[arg(long, default_value_t = 10000)]
    pub eval_every: u64,
    /// Evaluation games against --opponent (seat-swapped pairs; 0: no learning curve).
    #[arg(long, default_value_t = 400)]
    pub eval_games: u64,
    /// The fixed opponent of the learning curve.
    #[arg(long, default_value = "heuristic")]
    pub opponent: String,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// A game and its rules, as every command that plays or reads a game takes them.
#[derive(Debug, Args, Clone)]
pub struct GameRulesArgs {
    /// The game: baghchal, frangieh, julbahar or bargese.
    #[arg(long)]
    pub game: String,
    /// A named variant (default: the game's first, see `cowrie rules --game G`).
    #[arg(long)]
    pub variant: Option<String>,
    /// Overrides one rule option, `key=value`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

/// `cowrie solve`.
#[derive(Debug, Args, Clone)]
pub struct SolveArgs {
    /// The game and rules solved.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// The database directory.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Worker threads.
    #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = thread_count)]
    pub threads: usize,
    /// Continue the solve in DIR from its last finished layer.
    #[arg(long)]
    pub resume: bool,
    /// Refuse to start if the solve needs more memory than this, in GB (default: the
    /// machine's memory minus a quarter).
    #[arg(long, value_name = "M")]
    pub memory_gb: Option<f64>,
    /// After solving, verify: position counts against Burnside's lemma, every stored value
    /// against its children's, and sampled short distances against a minimax search.
    #[arg(long)]
    pub verify: bool,
    /// Positions with a stored distance of at most --verify-depth the search checks (1 to
    /// 100000; also the placement positions checked per half).
    #[arg(long, default_value_t = 300, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub verify_samples: u64,
    /// The search bound of the sample check, in plies (1 to 15).
    #[arg(long, default_value_t = 15, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=15))]
    pub verify_depth: u32,
    /// Solve the movement phase only, not the placement phase.
    #[arg(long)]
    pub movement_only: bool,
    /// Solve the placement phase back to the positions with this many goats placed (0: the
    /// start position); a later run with --resume continues further back.
    #[arg(long, default_value_t = 0, value_name = "P", value_parser = clap::value_parser!(u32).range(0..=19))]
    pub down_to_placed: u32,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `cowrie judge`.
#[derive(Debug, Args, Clone)]
pub struct JudgeArgs {
    /// A records.jsonl written by `cowrie match --record` (Baghchal games).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The database directory written by `cowrie solve` (its rules must be the games').
    #[arg(long, value_name = "DIR")]
    pub db: PathBuf,
    /// The CSV written: one row per agent, side and phase.
    #[arg(long, value_name = "FILE.csv")]
    pub out: PathBuf,
}

/// `cowrie probe`.
#[derive(Debug, Args, Clone)]
pub struct ProbeArgs {
    /// The game and rules solved.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// The database directory written by `cowrie solve`.
    #[arg(long, value_name = "DIR")]
    pub db: PathBuf,
    /// The position in the game's notation (`docs/rules/baghchal.md`).
    #[arg(long, value_name = "NOTATION")]
    pub position: String,
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
    let t = text.trim();
    if t.starts_with('-') {
        return Err("must be a positive number".to_string());
    }
    match t.parse::<u64>() {
        Ok(n) if n <= MAX_GAMES => Ok(n),
        Ok(_) => Err(format!("at most {MAX_GAMES} (2^40) games")),
        Err(_) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("at most {MAX_GAMES} (2^40) games"))
        }
        Err(_) => Err("must be a positive whole number".to_string()),
    }
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

/// `cowrie merge`.
#[derive(Debug, Args, Clone)]
pub struct MergeArgs {
    /// Output directory for the merged run.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The shards' output directories (every shard of one run, in any order).
    #[arg(required = true, value_name = "SHARD_DIR")]
    pub shards: Vec<PathBuf>,
}

/// `cowrie replay`.
#[derive(Debug, Args, Clone)]
pub struct ReplayArgs {
    /// A records.jsonl written by `cowrie match --record`.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Only this game (its game_index).
    #[arg(long)]
    pub game_index: Option<u64>,
    /// Print only the verification line per game, not the positions.
    #[arg(long)]
    pub quiet: bool,
    /// Also write the game (the one --game-index names, or the file's only game) as one
    /// self-contained HTML page stepping through its positions.
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// Also write one JSON line per ply of the replayed games: game_index, ply, seat, agent,
    /// the position before (with the dice to play), the action and the position after, in the
    /// game's notation (written once every game has replayed as recorded).
    #[arg(long, value_name = "FILE.jsonl")]
    pub plies: Option<PathBuf>,
}

/// Arguments shared by runs of games.
#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// Run seed: the output is a pure function of the arguments and this seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (the output does not depend on it).
    #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = thread_count)]
    pub threads: usize,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
}

/// `cowrie match`.
#[derive(Debug, Args, Clone)]
pub struct MatchArgs {
    /// The game and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// The agent in seat 1 (swapped with --p2 in every second game unless --no-swap).
    #[arg(long, value_name = "SPEC", value_parser = agent_spec)]
    pub p1: AgentSpec,
    /// The agent in seat 2.
    #[arg(long, value_name = "SPEC", value_parser = agent_spec)]
    pub p2: AgentSpec,
    /// Number of games (even, unless --no-swap).
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// Play every game with --p1 in seat 1 instead of seat-swapped pairs.
    #[arg(long)]
    pub no_swap: bool,
    /// Output directory (created if missing; its games.csv, summary.csv and manifest.json are
    /// replaced, unless --resume).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Continue the interrupted run in DIR (same arguments): keeps its finished games and ends
    /// with the bytes an uninterrupted run writes.
    #[arg(long)]
    pub resume: bool,
    /// Play only shard K of N of the schedule (whole seat-swapped pairs); `cowrie merge` joins
    /// the shards' directories into the output of one run.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Also write DIR/records.jsonl: every game's chance outcomes and plies, for `cowrie replay`.
    #[arg(long)]
    pub record: bool,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `cowrie study`.
#[derive(Debug, Args, Clone)]
pub struct StudyArgs {
    /// Output directory (`runs/` is untracked by git; the committed results are written with
    /// `--out results/default-study`).
    #[arg(long, value_name = "DIR", default_value = "runs/default-study")]
    pub out: PathBuf,
    /// Games per run (even).
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// Continue an interrupted study in DIR (same arguments), run by run: finished runs are
    /// verified against their manifests and kept, the interrupted one resumes.
    #[arg(long)]
    pub resume: bool,
    /// The study's name: its run seed is derived from it (docs/conventions.md), so studies of
    /// different names play different games.
    #[arg(long, default_value = "default-study")]
    pub name: String,
    /// Run seed instead of the one derived from --name (a study given another's seed replays
    /// its games).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (the output does not depend on it).
    #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = thread_count)]
    pub threads: usize,
    /// No progress bar (it is also hidden when stderr is not a terminal).
    #[arg(long)]
    pub quiet: bool,
}

/// `cowrie rules`.
#[derive(Debug, Args, Clone)]
pub struct RulesArgs {
    /// The game.
    #[arg(long)]
    pub game: String,
}

/// Games per (game, variant) in the bench signature's workload (`cowrie bench`).
pub const SIGNATURE_GAMES: u64 = 1000;

/// `cowrie bench`.
#[derive(Debug, Args, Clone)]
pub struct BenchArgs {
    /// Games per (game, variant); the signature quoted in the README uses the default.
    #[arg(long, default_value_t = SIGNATURE_GAMES, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
}

/// `cowrie advantage`.
#[derive(Debug, Args, Clone)]
pub struct AdvantageArgs {
    /// The game and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// The agent in both seats.
    #[arg(long, value_name = "SPEC", value_parser = agent_spec)]
    pub agent: AgentSpec,
    /// Games (even: seat-swapped pairs).
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// Output directory.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `cowrie compare`.
#[derive(Debug, Args, Clone)]
pub struct CompareArgs {
    /// The game.
    #[arg(long)]
    pub game: String,
    /// A rule set, `VARIANT` or `VARIANT+key=value+...`; give two or more, the first is the
    /// reference.
    #[arg(long = "set", value_name = "RULES", required = true)]
    pub sets: Vec<String>,
    /// The agent in both seats.
    #[arg(long, value_name = "SPEC", value_parser = agent_spec)]
    pub agent: AgentSpec,
    /// Games per rule set (even: seat-swapped pairs).
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// Output directory.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
    /// Continue an interrupted comparison in DIR (same arguments), rule set by rule set:
    /// finished runs (also ones joined by `cowrie merge` from shards) are verified against
    /// their manifests and kept, the interrupted one resumes.
    #[arg(long)]
    pub resume: bool,
}

/// `cowrie converge`.
#[derive(Debug, Args, Clone)]
pub struct ConvergeArgs {
    /// The game and its rules.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// A rung's agent, in both seats; give two or more, weakest first.
    #[arg(long = "agent", value_name = "SPEC", required = true, value_parser = agent_spec)]
    pub agents: Vec<AgentSpec>,
    /// Games per rung (even: seat-swapped pairs).
    #[arg(long, default_value_t = 200, allow_negative_numbers = true, value_parser = game_count)]
    pub games: u64,
    /// Output directory.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Continue an interrupted run in DIR (same arguments): finished rungs are verified
    /// against their manifests and kept, the interrupted one resumes.
    #[arg(long)]
    pub resume: bool,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `cowrie tournament`.
#[derive(Debug, Args, Clone)]
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
    /// Output directory.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Continue an interrupted run in DIR (same arguments): finished pairings are verified
    /// against their manifests and kept, the interrupted one resumes.
    #[arg(long)]
    pub resume: bool,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `cowrie ladder`.
#[derive(Debug, Args, Clone)]
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
    /// Output directory.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Continue an interrupted run in DIR (same arguments): finished steps are verified
    /// against their manifests and kept, the interrupted one resumes.
    #[arg(long)]
    pub resume: bool,
    /// Also write the ladder table (DIR/ladder.csv) to FILE.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Seed, threads, progress.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `cowrie legal`.
#[derive(Debug, Args, Clone)]
pub struct LegalArgs {
    /// The Frangieh variant (`modern` is GNU Backgammon's rules without the cube).
    #[arg(long, default_value = "modern")]
    pub variant: String,
    /// Overrides one rule option, `key=value`; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}
