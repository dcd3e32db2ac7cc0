//! The `cowrie` command-line program. Errors are one line on stderr and exit code 2.

use std::process::ExitCode;

use anyhow::Context;
use clap::{CommandFactory, Parser};
use cowrie_experiments::cli::{Cli, Command};
use cowrie_experiments::cmd::{
    bearoff, bench, compare, converge, entry, equity, judge, ladder, legal, match_cmd, merge, plan,
    play, probe, replay, report, rules_cmd, show, solve, study, tournament, train, train_eval,
};
use cowrie_experiments::output::print_stdout;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Bare `cowrie`: the help, on stdout, as `cowrie --help` prints it.
            if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = print_stdout(&Cli::command().render_help().to_string());
                return ExitCode::SUCCESS;
            }
            if e.use_stderr() {
                // The message's first paragraph on one line (a missing argument is named on
                // the lines after the first), without the usage and tips after it.
                let text = e.render().to_string();
                let first: Vec<&str> = text
                    .lines()
                    .take_while(|l| !l.trim().is_empty())
                    .map(str::trim)
                    .collect();
                if first.is_empty() {
                    eprintln!("error: bad arguments");
                } else {
                    eprintln!("{}", one_line(&first.join(" ")));
                }
                return ExitCode::from(2);
            }
            let _ = print_stdout(&e.render().to_string());
            return ExitCode::SUCCESS;
        }
    };
    cowrie_experiments::interrupt::install();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<report::Stale>() => {
            eprintln!("{e}");
            ExitCode::from(report::EXIT_CODE)
        }
        Err(e) if e.is::<cowrie_experiments::interrupt::Interrupted>() => {
            eprintln!("{e}");
            ExitCode::from(cowrie_experiments::interrupt::EXIT_CODE)
        }
        Err(e) => {
            let msg = format!("{e:#}").replace('\n', " ");
            eprintln!("error: {}", one_line(&msg));
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    // The command line, for the manifests.
    let cl: Vec<String> = std::env::args().collect();
    match cli.command {
        Command::Match(a) => match_cmd::command(a, cl),
        Command::Study(a) => study::command(a, cl),
        Command::Rules(a) => rules_cmd::command(a, cl),
        Command::Tournament(a) => tournament::command(a, cl),
        Command::Ladder(a) => ladder::command(a, cl),
        Command::Advantage(a) => compare::advantage(a, cl),
        Command::Compare(a) => compare::command(a, cl),
        Command::Converge(a) => converge::command(a, cl),
        Command::Legal(a) => legal::command(a, cl),
        Command::Bench(a) => bench::command(a, cl),
        Command::Merge(a) => merge::command(a, cl),
        Command::Plan(a) => plan::command(a, cl),
        Command::Replay(a) => replay::command(a, cl),
        Command::Train(a) => train::command(a, cl),
        Command::TrainEval(a) => train_eval::command(a, cl),
        Command::Solve(a) => solve::command(a, cl),
        Command::Probe(a) => probe::command(a, cl),
        Command::Judge(a) => judge::command(a, cl),
        Command::Bearoff(a) => bearoff::command(a, cl),
        Command::Equity(a) => equity::command(a, cl),
        Command::Show(a) => show::command(a, cl),
        Command::Entry(a) => entry::command(a, cl),
        Command::Play(a) => play::command(a, cl),
        Command::Report(a) => report::command(a, cl),
        Command::Completions(args) => {
            let mut text = Vec::new();
            clap_complete::generate(args.shell, &mut Cli::command(), "cowrie", &mut text);
            print_stdout(&String::from_utf8_lossy(&text))
        }
        Command::Man => {
            let mut text = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut text)
                .context("rendering the manual page")?;
            print_stdout(&String::from_utf8_lossy(&text))
        }
    }
}

/// An error line of at most a few hundred characters, whatever input it quotes: the longest
/// messages cowrie writes itself are well under this, so only an echoed input is cut.
fn one_line(msg: &str) -> String {
    const MAX: usize = 400;
    let n = msg.chars().count();
    if n <= MAX {
        return msg.to_string();
    }
    let head: String = msg.chars().take(MAX).collect();
    format!("{head}... ({n} characters in all)")
}
