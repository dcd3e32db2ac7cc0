//! `cowrie report [DIR]`: writes `DIR/README.md` (and the forest plots of variant effects,
//! `DIR/<study>/<game>/effects.svg`) from the CSVs and manifests under `DIR`; `--check`
//! regenerates them in memory and fails with [`Stale`] where a written file differs.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::output::print_stdout;
use crate::pages::results_report::{build, first_difference};

/// A committed file differs from its regeneration; `main` prints the message as one line and
/// exits with [`EXIT_CODE`].
#[derive(Debug)]
pub struct Stale {
    /// Which file, and its first differing line.
    pub message: String,
}

impl std::fmt::Display for Stale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Stale {}

/// The exit code of `--check` when a file differs.
pub const EXIT_CODE: u8 = 1;

/// `a` and `b` from a little before their first differing character, at most 100 characters
/// each.
fn around_difference(a: &str, b: &str) -> (String, String) {
    const BEFORE: usize = 30;
    const MAX: usize = 100;
    let same = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let start = same.saturating_sub(BEFORE);
    let cut = |s: &str| {
        let body: String = s.chars().skip(start).take(MAX).collect();
        let more = s.chars().count() > start + MAX;
        format!(
            "{}{body}{}",
            if start > 0 { "..." } else { "" },
            if more { "..." } else { "" }
        )
    };
    (cut(a), cut(b))
}

/// Runs the command; returns what to print.
///
/// # Errors
/// Bad input (naming the file), an unwritable output, or [`Stale`] under `--check`.
pub fn run(args: &ReportArgs) -> anyhow::Result<String> {
    let report = build(&args.dir)?;
    let mut files: Vec<(&std::path::Path, &[u8])> =
        vec![(report.readme_path.as_path(), report.readme.as_bytes())];
    files.extend(report.svgs.iter().map(|(p, b)| (p.as_path(), b.as_slice())));
    if args.check {
        for (path, bytes) in &files {
            let committed = std::fs::read(path).unwrap_or_default();
            if committed != *bytes {
                let (a, b) = (
                    String::from_utf8_lossy(&committed),
                    String::from_utf8_lossy(bytes),
                );
                let (n, x, y) =
                    first_difference(&a, &b).unwrap_or((1, String::new(), String::new()));
                let (x, y) = around_difference(&x, &y);
                return Err(Stale {
                    message: format!(
                        "'{}' differs from `cowrie report {}` at line {n}: written {:?}, generated {:?}",
                        path.display(),
                        args.dir.display(),
                        x,
                        y
                    ),
                }
                .into());
            }
        }
        return Ok(format!(
            "{} file(s) under '{}' match `cowrie report`\n",
            files.len(),
            args.dir.display()
        ));
    }
    for (path, bytes) in &files {
        std::fs::write(path, bytes)
            .with_context(|| format!("cannot write '{}'", path.display()))?;
    }
    Ok(format!(
        "wrote {} and {} plot(s)\n",
        report.readme_path.display(),
        report.svgs.len()
    ))
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

/// `cowrie report`: writes (or with `--check` checks) the report and prints what it did.
///
/// # Errors
/// As [`run`].
pub fn command(args: ReportArgs, _command_line: Vec<String>) -> anyhow::Result<()> {
    print_stdout(&run(&args)?)
}
