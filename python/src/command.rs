//! `cowrie._cowrie.run_command`: one `cowrie match`, `study`, `merge`, `tournament`, `ladder` or
//! `converge` command line run in this process through the command line's own parser and command functions
//! (`experiments/src/cmd/`), so its files are those the `cowrie` program writes for the same
//! arguments. `cowrie.distributed` runs each shard of a match or study so inside a Ray worker,
//! then joins the shards with `cowrie merge`; `cowrie.tournament`, `cowrie.ladder` and
//! `cowrie.converge` run their commands so, with Python policies among the agents.

use clap::Parser;
use cowrie_engine::one_line;
use cowrie_experiments::cli::{Cli, Command};
use cowrie_experiments::cmd::{converge, ladder, match_cmd, merge, study, tournament};

/// Parses `argv` (`argv[0]` is the program's name, as `cowrie`) as the command line does and
/// runs it. Only the commands the package wraps are taken: `match`, `study`, `merge`,
/// `tournament`, `ladder` and `converge`.
///
/// # Errors
/// The command line's one-line message for bad arguments (clap's first paragraph) or a failed
/// run, without its `error: `.
pub fn run_command(argv: &[String]) -> Result<(), String> {
    let cli = Cli::try_parse_from(argv).map_err(|e| {
        let (_, text) = cowrie_experiments::cli::unparsed(&e);
        one_line(text.trim_start_matches("error: "))
    })?;
    let command_line = argv.to_vec();
    let done = match cli.command {
        Command::Match(a) => match_cmd::command(a, command_line),
        Command::Study(a) => study::command(a, command_line),
        Command::Merge(a) => merge::command(a, command_line),
        Command::Tournament(a) => tournament::command(a, command_line),
        Command::Ladder(a) => ladder::command(a, command_line),
        Command::Converge(a) => converge::command(a, command_line),
        _ => {
            let name = argv.get(1).map_or("", String::as_str);
            return Err(format!(
                "'{name}': run_command runs only cowrie match, study, merge, tournament, ladder and converge"
            ));
        }
    };
    done.map_err(|e| {
        cowrie_experiments::cli::error_line(&e)
            .trim_start_matches("error: ")
            .to_string()
    })
}
