//! `cowrie-verifier DIR`: checks every position of a Baghchal database against its children
//! (docs/solver.md, *The independent verifier*). Exit code 0 when every file agrees, 1 on a
//! mismatch (the first printed), 2 when the database or the output cannot be used.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use cowrie_verifier::run::{self, Observer, Row};

/// Checks every position of a Baghchal database written by `cowrie solve` against the values
/// of its children, with a board, move generation and index of its own.
#[derive(Debug, Parser)]
#[command(name = "cowrie-verifier", version)]
struct Args {
    /// The database directory.
    #[arg(value_name = "DIR")]
    db: PathBuf,
    /// Where the summary CSV and the checkpoints go (default: DIR/verify).
    #[arg(long, value_name = "OUT")]
    out: Option<PathBuf>,
    /// Skip the files already checked clean (by their checkpoints in OUT).
    #[arg(long)]
    resume: bool,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Say nothing but the outcome.
    #[arg(long)]
    quiet: bool,
}

/// Progress on stderr, a line per file.
struct Progress {
    quiet: bool,
}

impl Observer for Progress {
    fn start(&self, file: &str, slots: u64) {
        if !self.quiet {
            eprintln!("{file}: checking {slots} slots");
        }
    }

    fn finish(&self, row: &Row, seconds: Option<f64>) {
        if self.quiet {
            return;
        }
        match seconds {
            Some(s) => eprintln!(
                "{}: {} positions, {} mismatches, counts {}, {:.1} s ({:.0} positions/s)",
                row.file,
                row.positions,
                row.mismatches,
                row.counts,
                s,
                row.positions as f64 / s.max(1e-9)
            ),
            None => eprintln!("{}: checked before (checkpoint)", row.file),
        }
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(n) = args.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build_global()
        {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    let config = run::Config {
        out: args.out.clone().unwrap_or_else(|| args.db.join("verify")),
        db: args.db,
        resume: args.resume,
    };
    let start = std::time::Instant::now();
    let report = match run::run(&config, &Progress { quiet: args.quiet }) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let positions: u64 = report.rows.iter().map(|r| r.positions).sum();
    let mismatches: u64 = report.rows.iter().map(|r| r.mismatches).sum();
    println!(
        "{} files, {positions} positions, {mismatches} mismatches ({} checked now in {seconds:.1} s, {} from checkpoints); summary {}",
        report.rows.len(),
        report.checked,
        report.resumed,
        config.out.join(run::SUMMARY).display()
    );
    for d in &report.count_differences {
        println!("counts differ: {d}");
    }
    if let Some(m) = report.first.first() {
        print!("first mismatch: {m}");
    }
    if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
