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
            let (code, text) = cowrie_experiments::cli::unparsed(&e);
            if code == 0 {
                let _ = print_stdout(&text);
            } else {
                eprintln!("{text}");
            }
            return ExitCode::from(code);
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
            eprintln!("{}", cowrie_experiments::cli::error_line(&e));
            ExitCode::from(cowrie_experiments::cli::EXIT_REFUSED)
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
