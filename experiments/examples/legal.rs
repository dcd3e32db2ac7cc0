//! Runs `cowrie legal` on stdin and stdout: `legal [variant] [key=value ...]` (default variant
//! `barakat-1974`). Used by `tools/crosscheck_gnubg.py`.

use std::io::{stdin, stdout, BufWriter};

use cowrie_engine::{FrangiehRules, RuleSet};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules =
        FrangiehRules::resolve(args.first().map(String::as_str), &args[1.min(args.len())..])?;
    cowrie_experiments::cmd::legal::run_legal(
        stdin().lock(),
        BufWriter::new(stdout().lock()),
        &rules,
    )
}
