//! The `cowrie` command-line program. Errors are one line on stderr and exit code 2.

use std::process::ExitCode;

use anyhow::Context;
use clap::{CommandFactory, Parser};
use cowrie_experiments::cli::{Cli, Command};
use cowrie_experiments::cmd::{
    bench, converge, entry, equity, judge, ladder, merge, probe, replay, report, rules_cmd, show,
    solve, study, tournament, train,
};
use cowrie_experiments::config::{
    BenchConfig, CompareConfig, ConvergeConfig, LadderConfig, MatchConfig, StudyConfig,
    TournamentConfig,
};
use cowrie_experiments::output::print_stdout;
use cowrie_experiments::run::comparison as compare;
use cowrie_experiments::run::runner;

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
                let text = e.render().to_string();
                eprintln!("{}", text.lines().next().unwrap_or("error: bad arguments"));
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
        Command::Match(args) => {
            let cfg = MatchConfig::from_args(&args, cl)?;
            let report = runner::run(&cfg)?;
            print_stdout(&report.text)
        }
        Command::Study(args) => study::run(&StudyConfig::from_args(&args, cl)?),
        Command::Rules(args) => rules_cmd::run(&args.game),
        Command::Tournament(a) => {
            print_stdout(&tournament::run(&TournamentConfig::tournament(&a, cl)?)?)
        }
        Command::Ladder(a) => print_stdout(&ladder::run(&LadderConfig::from_args(&a, cl)?)?),
        Command::Advantage(a) => print_stdout(&compare::run(&CompareConfig::advantage(&a, cl)?)?),
        Command::Compare(a) => print_stdout(&compare::run(&CompareConfig::compare(&a, cl)?)?),
        Command::Converge(a) => print_stdout(&converge::run(&ConvergeConfig::from_args(&a, cl)?)?),
        Command::Legal(a) => {
            use cowrie_engine::RuleSet;
            let rules = cowrie_engine::FrangiehRules::resolve(Some(&a.variant), &a.options)?;
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            match cowrie_experiments::cmd::legal::run_legal(stdin, stdout, &rules) {
                Err(e)
                    if e.downcast_ref::<std::io::Error>()
                        .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
                {
                    Ok(())
                }
                other => other,
            }
        }
        Command::Bench(args) => bench::run(&BenchConfig::from_args(&args)?),
        Command::Merge(args) => merge::run(&args, cl),
        Command::Replay(args) => replay::run(&args),
        Command::Train(args) => print_stdout(&train::run(&args, cl)?),
        Command::Solve(args) => print_stdout(&solve::run(&args, cl)?),
        Command::Probe(args) => print_stdout(&probe::run(&args)?),
        Command::Judge(args) => print_stdout(&judge::run(&args)?),
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
        Command::Equity(a) => print_stdout(&equity::run(&equity::EquityConfig {
            subgames: a.subgames,
            target: a.target,
            resamples: a.resamples,
            seed: a.seed,
            min_visits: a.min_visits,
            out: a.out,
        })?),
        Command::Show(args) => print_stdout(&show::run(&args)?),
        Command::Entry(a) => print_stdout(&entry::run(&entry::EntryConfig {
            variant: a.variant,
            options: a.options,
            agent: a.agent,
            seeds: a.seeds,
            seed: a.seed,
            threads: a.threads,
            out: a.out,
            command_line: cl,
        })?),
        Command::Report(args) => print_stdout(&report::run(&args)?),
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
