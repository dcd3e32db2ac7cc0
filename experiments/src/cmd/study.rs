//! `cowrie study` (and `cowrie` with no arguments): the built-in study, the README's main job.
//!
//! For every game, the same agent plays both seats under each named variant (seat-swapped pairs,
//! `--games` games per variant): first-mover advantage per game and variant, and the variants of
//! each game compared (Baghchal's three win rules among them). Bargese adds the first player to
//! enter a piece as a second first mover; Julbahar, whose unit is a match to 31, reports the first
//! mover per match and per game inside the matches (from `subgames.csv`). Each game is one
//! `cowrie compare` run in `OUT/<game>/` (its `compare.csv`, `compare.svg`, and per variant an
//! ordinary match directory); `OUT/summary.csv` gathers every game's `compare.csv` rows.
//!
//! The agents are the strongest that keep the whole study near ten minutes on 2 cores (see
//! [`runs`]).

use std::fmt::Write as _;

use anyhow::Context;
use cowrie_engine::{Baghchal, Bargese, Frangieh, Game, Julbahar, RuleSet};

use crate::cli::StudyArgs;
use crate::cmd::compare::{self, CompareConfig, RuleSetSpec};

/// Games per variant when none are given: about ±2.2 points of 95% interval at a 50% rate.
pub const DEFAULT_GAMES: u64 = 2000;

/// One game of the study and the agent that plays both seats.
#[derive(Clone, Debug)]
pub struct StudyRun {
    /// Game name.
    pub game: &'static str,
    /// The game's named variants, the default first.
    pub variants: Vec<&'static str>,
    /// The agent spec in both seats.
    pub agent: &'static str,
}

fn variants<G: Game>() -> Vec<&'static str> {
    G::Rules::variants().iter().map(|v| v.name).collect()
}

/// The study's games and agents:
/// - Baghchal: `expectimax:depth=2` (alpha-beta two plies deep on the Baghchal evaluation);
///   random play says little here (random tigers win 98%);
/// - Frangieh: `expectimax:depth=2` (its own play, then every roll of the opponent and its best
///   reply); it beats `heuristic` in 56% [50.3%, 61.5%] of 300 seat-swapped games (seed 1);
/// - Julbahar: `expectimax:depth=2`, about 0.1 to 0.3 CPU-seconds per match to 31; it beats
///   `heuristic` in 60 of 60 seat-swapped matches (seed 1);
/// - Bargese: `heuristic` (greedy on track progress); whole-turn branching reaches thousands of
///   plays after long chains of throws, which rules out search agents within the budget.
#[must_use]
pub fn runs() -> Vec<StudyRun> {
    vec![
        StudyRun {
            game: Baghchal::NAME,
            variants: variants::<Baghchal>(),
            agent: "expectimax:depth=2",
        },
        StudyRun {
            game: Frangieh::NAME,
            variants: variants::<Frangieh>(),
            agent: "expectimax:depth=2",
        },
        StudyRun {
            game: Julbahar::NAME,
            variants: variants::<Julbahar>(),
            agent: "expectimax:depth=2",
        },
        StudyRun {
            game: Bargese::NAME,
            variants: variants::<Bargese>(),
            agent: "heuristic",
        },
    ]
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
    let mut header: Option<Vec<u8>> = None;
    let mut summary = Vec::new();
    let mut table = String::new();
    let _ = writeln!(
        table,
        "{:<9} {:<14} {:<19} {:>6}  {:<24} {:<24} {:>8} {:>9}",
        "game",
        "variant",
        "agent (both seats)",
        "games",
        "seat 1 win rate [95%]",
        "first mover [95%]",
        "timeouts",
        "plies"
    );
    for r in runs() {
        let dir = args.out.join(r.game);
        eprintln!("study: {} ({}) ...", r.game, r.agent);
        let cfg = CompareConfig {
            game: r.game.to_string(),
            sets: r
                .variants
                .iter()
                .map(|v| v.parse::<RuleSetSpec>())
                .collect::<anyhow::Result<_>>()?,
            agent: r.agent.parse()?,
            games: args.games,
            seed: args.run.seed,
            threads: args.run.threads,
            out: dir.clone(),
            progress: !args.run.quiet,
            command_line: command_line.clone(),
            resume: args.resume,
        };
        compare::run(&cfg)?;
        let path = dir.join("compare.csv");
        let bytes =
            std::fs::read(&path).with_context(|| format!("cannot read '{}'", path.display()))?;
        let mut lines = bytes.split_inclusive(|&b| b == b'\n');
        let head = lines.next().unwrap_or_default();
        header.get_or_insert_with(|| head.to_vec());
        for l in lines {
            summary.extend_from_slice(l);
        }
        let mut reader = csv::Reader::from_path(&path)?;
        let h = reader.headers()?.clone();
        let col = |n: &str| h.iter().position(|x| x == n).unwrap_or(0);
        let recs: Vec<csv::StringRecord> = reader.records().collect::<Result<_, _>>()?;
        for v in &r.variants {
            let get = |metric: &str| {
                recs.iter()
                    .find(|x| &x[col("rule_set")] == *v && &x[col("metric")] == metric)
                    .cloned()
            };
            let rate = |metric: &str| {
                get(metric).map_or(String::new(), |x| {
                    format!(
                        "{:.3} [{:.3}, {:.3}]",
                        x[col("value")].parse::<f64>().unwrap_or(f64::NAN),
                        x[col("ci95_low")].parse::<f64>().unwrap_or(f64::NAN),
                        x[col("ci95_high")].parse::<f64>().unwrap_or(f64::NAN)
                    )
                })
            };
            let value = |metric: &str| {
                get(metric).map_or(f64::NAN, |x| x[col("value")].parse().unwrap_or(f64::NAN))
            };
            let _ = writeln!(
                table,
                "{:<9} {:<14} {:<19} {:>6}  {:<24} {:<24} {:>8.3} {:>9.1}",
                r.game,
                v,
                r.agent,
                args.games,
                rate("advantage_p1"),
                rate("first_mover_win_rate"),
                value("timeouts"),
                value("duration_plies")
            );
            if get("first_enterer_win_rate").is_some() {
                let _ = writeln!(
                    table,
                    "{:<9} {:<14} {:<19} {:>6}  {:<24} {:<24}",
                    "",
                    "",
                    "  first to enter",
                    args.games,
                    "",
                    rate("first_enterer_win_rate"),
                );
            }
            if get("subgames").is_some() {
                let _ = writeln!(
                    table,
                    "{:<9} {:<14} {:<19} {:>6}  {:<24} {:<24} {:>8.3}",
                    "",
                    "",
                    "  per game in match",
                    value("subgames"),
                    rate("subgame_seat1_win_rate"),
                    rate("subgame_first_mover_win_rate"),
                    value("subgame_unfinished"),
                );
            }
        }
    }
    let path = args.out.join("summary.csv");
    let mut all = header.unwrap_or_default();
    all.extend(summary);
    std::fs::write(&path, all).with_context(|| format!("cannot write '{}'", path.display()))?;
    crate::run_index::write(&args.out, "cowrie study: every game and named variant")?;
    let _ = writeln!(
        table,
        "seat 1 = the side the rules name first (Baghchal: goats); first mover = who made the first decision, or the rules' starter (bargese: the three-shell throw's winner)\nbargese \"first to enter\": the first player to enter a piece; julbahar rows count matches to 31, \"per game in match\" rows the games inside them (timeouts column: games left unfinished when the match ended)\nrates are fractions of all games; every metric and its interval per variant: {} (docs/metrics.md)",
        path.display()
    );
    crate::output::print_stdout(&table)
}
