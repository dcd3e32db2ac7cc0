//! `cowrie bearoff --game G [--variant V] [--option k=v]... (--out DIR | --position P)`: the
//! one-sided bear-off database of a tables game's rule set (Frangieh, Julbahar), built from the
//! engine's own plays ([`cowrie_agents::bearoff`]).
//!
//! With `--out DIR` it writes `DIR/expected.csv` (per position: `position` as six counts,
//! 1-point first, `checkers`, `pips`, `expected_turns`, and for fifteen checkers
//! `expected_turns_to_first_off`), `DIR/distribution.csv` (`position`, `until` — `all` for the
//! turns to bear off every checker, `first` for the turns until the first is borne off, fifteen
//! checkers only — `turns`, `probability`, the rows with a stored probability, the last of
//! each position holding the remainder below 1e-9) and `DIR/manifest.json` (command line,
//! build, rules, the policy and what a turn is, build time, each file's length and SHA-256),
//! and prints a summary. With `--position P` it prints that position's expected turns and
//! distributions.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use cowrie_agents::bearoff::{index, Database};
use cowrie_agents::Evaluate;
use cowrie_engine::games::tables::TablesParams;
use cowrie_engine::{Game, RuleSet};
use serde::Serialize;

use crate::args::{ForceArg, GameRulesArgs};
use crate::output::print_stdout;
use crate::registry::{dispatch, resolve_rules, GameTask};
use crate::run::digest::FileDigest;

/// The policy every database follows, as the manifest states it.
pub const POLICY: &str = "each roll played to minimise the expected number of turns to bear off all checkers (ties: the engine's first play); for the turns to the first checker off, to minimise those";
/// What a turn is, as the manifest states it.
pub const TURN: &str = "one roll of two dice and its play (a double four moves; a roll with no legal play a turn that leaves the position); in a bear-off race neither Frangieh nor Julbahar gives a second roll in a turn";

/// `cowrie bearoff`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("force", |a| a.help("Replace the database (or finished run) DIR already holds; without it such a directory is refused (an interrupted build is replaced: run the same command again)")))]
pub struct BearoffArgs {
    /// The game (frangieh or julbahar), variant and options.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// Output directory: writes expected.csv, distribution.csv and manifest.json.
    #[arg(
        long,
        value_name = "DIR",
        required_unless_present = "position",
        conflicts_with = "position"
    )]
    pub out: Option<PathBuf>,
    /// Prints one position's distributions instead: six counts, 1-point first (`3,0,0,0,0,1`:
    /// three on the 1-point, one on the 6-point), at most 15 checkers.
    #[arg(long, value_name = "COUNTS")]
    pub position: Option<String>,
    /// `--force`.
    #[command(flatten)]
    pub force: ForceArg,
}

struct Params<'a> {
    variant: Option<&'a str>,
    options: &'a [String],
}

impl GameTask for Params<'_> {
    type Output = TablesParams;
    fn run<G: Game + Evaluate>(self) -> anyhow::Result<TablesParams> {
        let rules = G::Rules::resolve(self.variant, self.options)?;
        G::bearoff_rules(&rules).ok_or_else(|| {
            anyhow::anyhow!(
                "{} has no bear-off database (there are for frangieh and julbahar)",
                G::NAME
            )
        })
    }
}

/// One position's lines: expected turns and the distribution.
fn describe(db: &Database, home: &index::Home) -> String {
    let mut out = String::new();
    let (first, d) = db.turns(home);
    let _ = writeln!(
        out,
        "position {} ({} checkers, {} pips): expected turns to bear off {:.6}",
        index::format(home),
        index::checkers(home),
        index::pips(home),
        db.expected(home)
    );
    for (k, p) in d.iter().enumerate() {
        let _ = writeln!(out, "  {:>3} turns  {p:.9}", first + k);
    }
    if let (Some(e1), Some((f1, d1))) = (db.expected_first_off(home), db.turns_to_first_off(home)) {
        let _ = writeln!(out, "expected turns until the first checker is off {e1:.6}");
        for (k, p) in d1.iter().enumerate() {
            let _ = writeln!(out, "  {:>3} turns  {p:.9}", f1 + k);
        }
    }
    out
}

/// A database's manifest: the fields every manifest opens with (status, command, command line,
/// build), then what defines the database in place of a run's games; written by the runs'
/// writer ([`crate::run::manifest::write_json`]), so a reader never sees half of it.
#[derive(Serialize)]
struct Manifest<'a> {
    status: &'static str,
    command: &'static str,
    command_line: Vec<String>,
    #[serde(flatten)]
    build: cowrie_solver::Build,
    game: &'a str,
    variant: String,
    options: std::collections::BTreeMap<String, String>,
    policy: &'static str,
    turn: &'static str,
    positions: usize,
    build_seconds: f64,
    files: std::collections::BTreeMap<String, FileDigest>,
}

impl Manifest<'_> {
    /// Writes the manifest to `dir/manifest.json` as a run's is written
    /// ([`crate::run::manifest::write_json`]).
    fn write(&self, dir: &std::path::Path) -> anyhow::Result<()> {
        crate::run::manifest::write_json(dir, self)
    }
}

/// After SIGINT: stops the build, marking the database's manifest in `written` (once files
/// are being written) `interrupted`, with one line saying how to continue.
fn stop_if_interrupted(
    written: Option<(&mut Manifest<'_>, &std::path::Path)>,
) -> anyhow::Result<()> {
    if !crate::interrupt::requested() {
        return Ok(());
    }
    let message = match written {
        None => {
            "interrupted: no bear-off database was written; run the same command again to build it"
                .to_string()
        }
        Some((manifest, dir)) => {
            manifest.status = "interrupted";
            manifest.write(dir)?;
            format!(
                "interrupted: the bear-off database in '{}' is incomplete (its manifest says interrupted); run the same command again to build it",
                dir.display()
            )
        }
    };
    Err(crate::interrupt::Interrupted {
        message,
        written: 0,
    }
    .into())
}

fn csv_bytes(db: &Database, homes: &[index::Home]) -> anyhow::Result<(Vec<u8>, Vec<u8>)> {
    let mut e = csv::Writer::from_writer(Vec::new());
    e.write_record([
        "position",
        "checkers",
        "pips",
        "expected_turns",
        "expected_turns_to_first_off",
    ])?;
    let mut d = csv::Writer::from_writer(Vec::new());
    d.write_record(["position", "until", "turns", "probability"])?;
    for h in homes {
        let pos = index::format(h);
        e.write_record([
            pos.clone(),
            index::checkers(h).to_string(),
            index::pips(h).to_string(),
            db.expected(h).to_string(),
            db.expected_first_off(h)
                .map_or(String::new(), |x| x.to_string()),
        ])?;
        let mut rows = vec![("all", db.turns(h))];
        if let Some(f) = db.turns_to_first_off(h) {
            rows.push(("first", f));
        }
        for (until, (first, probs)) in rows {
            for (k, p) in probs.iter().enumerate() {
                d.write_record([
                    pos.as_str(),
                    until,
                    &(first + k).to_string(),
                    &p.to_string(),
                ])?;
            }
        }
    }
    Ok((e.into_inner()?, d.into_inner()?))
}

/// `cowrie bearoff`.
///
/// # Errors
/// An unknown game, variant or option, a game without a bear-off database, a bad position, or
/// an output directory that cannot be written: one line naming it.
pub fn command(a: BearoffArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    let game = a.rules.game().to_string();
    let variant = a.rules.variant.variant.as_deref();
    let options = &a.rules.variant.options;
    let params = dispatch(&game, Params { variant, options })?;
    let home = a
        .position
        .as_deref()
        .map(index::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    if let Some(out) = &a.out {
        crate::run::outputs::check_new_dir(out, &[], a.force.force)?;
    }
    let start = Instant::now();
    let db = Database::build(&params);
    let seconds = start.elapsed().as_secs_f64();
    stop_if_interrupted(None)?;
    if let Some(home) = home {
        return print_stdout(&describe(&db, &home));
    }
    let out = a.out.expect("clap requires --out without --position");
    crate::output::create_dir(&out)?;
    let (variant_name, resolved) = resolve_rules(&game, variant, options)?;
    let homes = index::all();
    let (expected, distribution) = csv_bytes(&db, &homes)?;
    stop_if_interrupted(None)?;
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut manifest = Manifest {
        status: "running",
        command: "bearoff",
        command_line: crate::run::provenance::command_line(&command_line, &cwd),
        build: crate::run::provenance::build(),
        game: &game,
        variant: variant_name.clone(),
        options: resolved.into_iter().collect(),
        policy: POLICY,
        turn: TURN,
        positions: homes.len(),
        build_seconds: seconds,
        files: std::collections::BTreeMap::new(),
    };
    // A manifest that lists no file, `running` until every file is written: no earlier
    // manifest vouches for the files while they are being replaced.
    manifest.write(&out)?;
    for (name, bytes) in [
        ("expected.csv", &expected),
        ("distribution.csv", &distribution),
    ] {
        let path = out.join(name);
        std::fs::write(&path, bytes)
            .with_context(|| format!("cannot write '{}'", path.display()))?;
        manifest
            .files
            .insert(name.to_string(), FileDigest::of(bytes));
        stop_if_interrupted(Some((&mut manifest, &out)))?;
    }
    manifest.status = "complete";
    manifest.write(&out)?;
    let files = manifest.files;
    let mut text = format!(
        "bear-off database of {game} '{variant_name}'{}: {} positions, built in {seconds:.2} s\n",
        if options.is_empty() {
            String::new()
        } else {
            format!(" with {}", options.join(" "))
        },
        homes.len()
    );
    for h in [
        [1, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 1],
        [15, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 15],
        [3, 3, 3, 2, 2, 2],
    ] {
        let _ = writeln!(
            text,
            "  {:<14} expected turns {:>9.6}",
            index::format(&h),
            db.expected(&h)
        );
    }
    let _ = writeln!(
        text,
        "distribution.csv sha256 {} ({}); expected.csv sha256 {}",
        files["distribution.csv"].sha256,
        out.join("distribution.csv").display(),
        files["expected.csv"].sha256
    );
    print_stdout(&text)
}
