//! `cowrie study` (and `cowrie` with no arguments): the built-in study, the README's main job.
//!
//! One seat-swapped match per (game, named variant), each in `OUT/<game>-<variant>/`, and a
//! combined `OUT/summary.csv` with one row per run and seat. The agents are the strongest that
//! exist so far (see the README for what each study row used).

use std::fmt::Write as _;

use anyhow::Context;
use cowrie_agents::AgentSpec;
use cowrie_engine::{Baghchal, Frangieh, Game, RuleSet};

use crate::cli::StudyArgs;
use crate::cmd::match_cmd::{self, MatchConfig};
use crate::stats::Tally;

/// Games per run when none are given.
pub const DEFAULT_GAMES: u64 = 2000;

/// One run of the study.
#[derive(Clone, Debug)]
pub struct StudyRun {
    /// Game name.
    pub game: &'static str,
    /// Variant name.
    pub variant: &'static str,
    /// Agent specs in seat order for the first game of each pair.
    pub agents: [&'static str; 2],
}

/// The study's runs: every named variant of every game.
#[must_use]
pub fn runs() -> Vec<StudyRun> {
    let mut out = Vec::new();
    for v in <Baghchal as Game>::Rules::variants() {
        out.push(StudyRun {
            game: Baghchal::NAME,
            variant: v.name,
            agents: ["random", "random"],
        });
    }
    for v in <Frangieh as Game>::Rules::variants() {
        out.push(StudyRun {
            game: Frangieh::NAME,
            variant: v.name,
            agents: ["random", "random"],
        });
    }
    out
}

/// Runs the study.
///
/// # Errors
/// Bad arguments or unwritable output.
pub fn run(args: &StudyArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    if args.games == 0 || args.games % 2 == 1 {
        anyhow::bail!(
            "--games {}: the study plays seat-swapped pairs, so the count must be even and positive",
            args.games
        );
    }
    crate::output::create_dir(&args.out)?;
    let summary_path = args.out.join("summary.csv");
    let mut w = csv::Writer::from_path(&summary_path)
        .with_context(|| format!("cannot write '{}'", summary_path.display()))?;
    let mut header = vec!["game", "variant", "agent_p1", "agent_p2", "seat", "side"];
    header.extend(Tally::CSV_COLUMNS);
    header.extend(["plies_mean", "plies_median", "plies_max"]);
    w.write_record(&header)?;
    let mut table = String::new();
    let _ = writeln!(
        table,
        "{:<10} {:<15} {:<22} {:>6} {:>9}  {:<18} {:>6} {:>6} {:>10}",
        "game",
        "variant",
        "agents",
        "games",
        "seat 1 wr",
        "95% Wilson",
        "draws",
        "trunc.",
        "mean plies"
    );
    for r in runs() {
        let dir = args.out.join(format!("{}-{}", r.game, r.variant));
        let cfg = MatchConfig {
            game: r.game.to_string(),
            variant: Some(r.variant.to_string()),
            options: Vec::new(),
            agents: [
                r.agents[0].parse::<AgentSpec>()?,
                r.agents[1].parse::<AgentSpec>()?,
            ],
            games: args.games,
            swap: true,
            seed: args.run.seed,
            threads: args.run.threads,
            out: dir,
            progress: !args.run.quiet,
            command_line: command_line.clone(),
            shard: crate::schedule::Shard::WHOLE,
            resume: false,
            record: false,
        };
        eprintln!("study: {} {} ...", r.game, r.variant);
        let rep = match_cmd::run(&cfg)?;
        for (i, t) in rep.summary.seats.iter().enumerate() {
            let mut fields = vec![
                r.game.to_string(),
                r.variant.to_string(),
                r.agents[0].to_string(),
                r.agents[1].to_string(),
                (i + 1).to_string(),
                side_name(r.game, i),
            ];
            fields.extend(t.csv_fields());
            fields.extend([
                format!("{:.3}", rep.summary.plies.mean),
                format!("{}", rep.summary.plies.median),
                rep.summary.plies.max.to_string(),
            ]);
            w.write_record(&fields)?;
        }
        let s1 = rep.summary.seats[0];
        let (lo, hi) = s1.win_interval();
        let _ = writeln!(
            table,
            "{:<10} {:<15} {:<22} {:>6} {:>9.4}  [{lo:.4}, {hi:.4}] {:>6} {:>6} {:>10.2}",
            r.game,
            r.variant,
            format!("{} v {}", r.agents[0], r.agents[1]),
            s1.n,
            s1.win_rate(),
            s1.draws,
            s1.truncated,
            rep.summary.plies.mean
        );
    }
    w.flush()
        .with_context(|| format!("cannot write '{}'", summary_path.display()))?;
    let _ = writeln!(
        table,
        "seat 1 is the side that moves first by the rules where they fix it (Baghchal: goats); per-run CSV under {}",
        args.out.display()
    );
    crate::output::print_stdout(&table)
}

fn side_name(game: &str, seat_index: usize) -> String {
    let p = cowrie_engine::Player::from_index(seat_index);
    match game {
        "baghchal" => Baghchal::side_name(p).to_string(),
        "frangieh" => Frangieh::side_name(p).to_string(),
        _ => format!("seat {}", seat_index + 1),
    }
}
