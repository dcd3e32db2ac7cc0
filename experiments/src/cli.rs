//! The command line's top level: the parser and the list of commands. Each command's own
//! arguments live beside its run in `cmd/<name>.rs`; the argument groups several commands share
//! and the value parsers are in [`crate::args`], below the commands, so that nothing the
//! commands use imports back up into this list.

use clap::{Args, Parser, Subcommand};

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
    /// Joins the directories of a sharded match, comparison, study, ladder, tournament,
    /// convergence run or training run's evaluation into the output of one run.
    Merge(crate::cmd::merge::MergeArgs),
    /// How a match, comparison, study, ladder, tournament, convergence run or training run's
    /// evaluation (train-eval) splits into shards:
    /// the largest shard count with no empty shard, and each of N shards' units and games (and,
    /// with --calibrate, expected CPU seconds); plays nothing of the run.
    Plan(crate::cmd::plan::PlanArgs),
    /// Re-plays recorded games through the engine, verifying and printing them.
    Replay(crate::cmd::replay::ReplayArgs),
    /// Trains a learned evaluation by TD(lambda) self-play: writes the weights (safetensors),
    /// a checkpoint, and a learning curve (CSV and SVG).
    Train(crate::cmd::train::TrainArgs),
    /// The learning curve of the snapshots `train --keep-snapshots` writes, played in shards
    /// (--shard K/N) that `cowrie merge` joins into the curve the training run writes.
    TrainEval(crate::cmd::train_eval::TrainEvalArgs),
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
    /// The one-sided bear-off database of a tables game's rule set (frangieh, julbahar): every
    /// position of up to 15 checkers on the home points, its distribution of turns to bear off;
    /// writes DIR/expected.csv, DIR/distribution.csv, DIR/manifest.json, or prints one position.
    Bearoff(crate::cmd::bearoff::BearoffArgs),
    /// The match-equity table of matches to a target score (Julbahar), from a subgames.csv.
    Equity(crate::cmd::equity::EquityArgs),
    /// Draws a position of any game as a diagram labelled in words, SVG or PNG (by the
    /// extension of --out).
    Show(crate::cmd::show::ShowArgs),
    /// Plays a game against an agent on a local web page (or, with --line, on stdin and
    /// stdout): the board, the legal moves with the agent's analysis, undo, the record.
    Play(crate::cmd::play::PlayArgs),
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

/// The exit code of a refused command line (bad arguments, a bad input, a failed run).
pub const EXIT_REFUSED: u8 = 2;

/// The longest error line printed: the longest messages cowrie writes itself are well under
/// it, so only an echoed input is cut.
const MAX_ERROR_LINE: usize = 400;

/// What the command line does with arguments that do not parse (`e`): the exit code and the
/// text. Help and version (also bare `cowrie`, which prints the help) go whole to stdout with
/// exit code 0; a refusal is clap's first paragraph on one line (a missing argument is named on
/// the lines after the first), without the usage and tips after it, starting `error: `, with
/// exit code [`EXIT_REFUSED`]. The `cowrie` program and the Python package's `run_command` both
/// answer so.
#[must_use]
pub fn unparsed(e: &clap::Error) -> (u8, String) {
    use clap::CommandFactory;
    if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        return (0, Cli::command().render_help().to_string());
    }
    if !e.use_stderr() {
        return (0, e.render().to_string());
    }
    let text = e.render().to_string();
    let first: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let line = if first.is_empty() {
        "error: bad arguments".to_string()
    } else {
        cowrie_engine::clip(&first.join(" "), MAX_ERROR_LINE)
    };
    (EXIT_REFUSED, line)
}

/// A failed run's error `e` as one line, its causes after it, starting `error: ` (exit code
/// [`EXIT_REFUSED`]).
#[must_use]
pub fn error_line(e: &anyhow::Error) -> String {
    let msg = format!("{e:#}").replace('\n', " ");
    format!("error: {}", cowrie_engine::clip(&msg, MAX_ERROR_LINE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn answer(args: &[&str]) -> (u8, String) {
        unparsed(&Cli::try_parse_from(args).expect_err("the arguments do not parse"))
    }

    #[test]
    fn help_is_printed_whole_and_a_refusal_is_one_line_with_exit_code_2() {
        for args in [
            &["cowrie"][..],
            &["cowrie", "--help"],
            &["cowrie", "match", "--help"],
        ] {
            let (code, text) = answer(args);
            assert_eq!(code, 0, "{args:?}");
            assert!(
                text.contains("Usage:") && text.lines().count() > 3,
                "{text}"
            );
        }
        let (code, text) = answer(&["cowrie", "--version"]);
        assert_eq!(
            (code, text.trim()),
            (0, format!("cowrie {}", env!("CARGO_PKG_VERSION")).as_str())
        );
        // A missing argument is named on the lines after clap's first: it joins the one line.
        let (code, text) = answer(&["cowrie", "match", "--game", "baghchal"]);
        assert_eq!(code, 2);
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(
            text.starts_with("error: ") && text.contains("--p1 <SPEC>"),
            "{text}"
        );
        assert!(!text.contains("Usage"), "{text}");
        let (code, text) = answer(&["cowrie", "match", "--bogus"]);
        assert_eq!((code, text.lines().count()), (2, 1), "{text}");
        assert!(text.contains("'--bogus'"), "{text}");
    }
}
