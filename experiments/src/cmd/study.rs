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
//! The agents are the strongest that keep the whole study near a quarter of an hour on 2 cores
//! (see [`runs`]); Frangieh's `ludii` variant, which has no shipped network, is a run of its own
//! (`OUT/frangieh-ludii/`).

use std::fmt::Write as _;

use anyhow::Context;
use cowrie_engine::{Baghchal, Bargese, Frangieh, Game, Julbahar, RuleSet};

use crate::cmd::compare::{self, CompareConfig, RuleSetSpec};
use crate::config::{RunConfig, StudyConfig};

/// Games per variant when none are given: about ±2.2 points of 95% interval at a 50% rate.
pub const DEFAULT_GAMES: u64 = 2000;

/// One `cowrie compare` run of the study: a game, some of its variants, and the agent that
/// plays both seats.
#[derive(Clone, Debug)]
pub struct StudyRun {
    /// Game name.
    pub game: &'static str,
    /// The variants compared, the reference first.
    pub variants: Vec<&'static str>,
    /// The agent spec in both seats.
    pub agent: &'static str,
    /// The run's directory under the study's output directory.
    pub dir: &'static str,
}

fn variants<G: Game>() -> Vec<&'static str> {
    G::Rules::variants().iter().map(|v| v.name).collect()
}

/// The study's games and agents, the strongest of each game's ladder (results/ladder) that keep
/// the whole study near a quarter of an hour on 2 cores:
/// - Baghchal: `expectimax:depth=2` (alpha-beta two plies deep on the Baghchal evaluation); the
///   perfect-play agent needs a database a fresh clone does not have, and under perfect play the
///   `five-captures` and `averbakh-1995` starts are draws (results/solve);
/// - Frangieh: `td:ply=0` (the shipped TD(lambda) network) under the variants it is shipped for,
///   `barakat-1974` and `modern`, where it beats `expectimax:depth=2` in 75-80% of games at a
///   fraction of its cost (results/td-frangieh); `ludii`, which has no shipped network, is played
///   by `expectimax:depth=2` in a run of its own (`frangieh-ludii/`), so that no variant
///   difference is taken between two agents;
/// - Julbahar: `expectimax:depth=2`, the top of its ladder;
/// - Bargese: `expectimax:depth=2`, the top of its ladder (the ladders' rates, with their
///   intervals, are in results/README.md).
#[must_use]
pub fn runs() -> Vec<StudyRun> {
    let frangieh: Vec<&'static str> = variants::<Frangieh>();
    let with_net = |v: &&str| cowrie_agents::td::shipped(Frangieh::NAME, v).is_some();
    vec![
        StudyRun {
            game: Baghchal::NAME,
            variants: variants::<Baghchal>(),
            agent: "expectimax:depth=2",
            dir: Baghchal::NAME,
        },
        StudyRun {
            game: Frangieh::NAME,
            variants: frangieh.iter().copied().filter(with_net).collect(),
            agent: "td:ply=0",
            dir: Frangieh::NAME,
        },
        StudyRun {
            game: Frangieh::NAME,
            variants: frangieh.iter().copied().filter(|v| !with_net(v)).collect(),
            agent: "expectimax:depth=2",
            dir: "frangieh-ludii",
        },
        StudyRun {
            game: Julbahar::NAME,
            variants: variants::<Julbahar>(),
            agent: "expectimax:depth=2",
            dir: Julbahar::NAME,
        },
        StudyRun {
            game: Bargese::NAME,
            variants: variants::<Bargese>(),
            agent: "expectimax:depth=2",
            dir: Bargese::NAME,
        },
    ]
}

/// The columns `summary.csv` adds to the rows of the games' `compare.csv`: the Holm and
/// Benjamini-Hochberg adjustments of `p_value` and `diff_p_value` over the whole study's family
/// (every hypothesis every game declares).
pub const STUDY_COLUMNS: [&str; 4] = [
    "study_p_holm",
    "study_p_bh",
    "study_diff_p_holm",
    "study_diff_p_bh",
];

/// Runs the study.
///
/// # Errors
/// Bad arguments or unwritable output.
pub fn run(args: &StudyConfig) -> anyhow::Result<()> {
    let seed = args.seed;
    crate::output::create_dir(&args.out)?;
    let mut header: Option<csv::StringRecord> = None;
    let mut records: Vec<(&'static str, csv::StringRecord)> = Vec::new();
    let all = runs();
    let units: u64 = all
        .iter()
        .map(|r| r.variants.len() as u64 * args.games)
        .sum();
    let bar = crate::progress::study_bar(units, args.progress);
    for (i, r) in all.into_iter().enumerate() {
        let first = i == 0;
        let dir = args.out.join(r.dir);
        bar.suspend(|| eprintln!("study: {} ({}) ...", r.game, r.agent));
        let cfg = CompareConfig {
            // A game the interrupted study had not reached starts afresh.
            resume: args.resume && (first || dir.exists()),
            ..CompareConfig::new(
                "study",
                r.game,
                r.variants
                    .iter()
                    .map(|v| v.parse::<RuleSetSpec>())
                    .collect::<anyhow::Result<_>>()?,
                r.agent.parse()?,
                args.games,
                RunConfig {
                    seed,
                    threads: args.threads,
                    progress: crate::progress::Progress::Shared(bar.clone()),
                    command_line: args.command_line.clone(),
                },
                dir.clone(),
            )?
        };
        compare::run(&cfg)?;
        let path = dir.join("compare.csv");
        let mut reader = csv::Reader::from_path(&path)
            .with_context(|| format!("cannot read '{}'", path.display()))?;
        header.get_or_insert(reader.headers()?.clone());
        for rec in reader.records() {
            records.push((r.game, rec?));
        }
    }
    bar.finish_and_clear();
    let header = header.unwrap_or_default();
    let col = |n: &str| header.iter().position(|x| x == n).unwrap_or(0);
    let number = |rec: &csv::StringRecord, c: &str| rec[col(c)].parse::<f64>().unwrap_or(f64::NAN);
    let ps: Vec<f64> = records
        .iter()
        .flat_map(|(_, rec)| [number(rec, "p_value"), number(rec, "diff_p_value")])
        .collect();
    let (holm, bh) = (
        crate::multiple::holm(&ps),
        crate::multiple::benjamini_hochberg(&ps),
    );
    let fmt = |x: f64| {
        if x.is_nan() {
            String::new()
        } else {
            format!("{x:.6}")
        }
    };
    let path = args.out.join("summary.csv");
    let mut w = csv::Writer::from_path(&path)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    let mut head: Vec<&str> = header.iter().collect();
    head.extend(STUDY_COLUMNS);
    w.write_record(&head)?;
    let mut summary: Vec<csv::StringRecord> = Vec::new();
    for (i, (_, rec)) in records.iter().enumerate() {
        let mut out = rec.clone();
        for x in [holm[2 * i], bh[2 * i], holm[2 * i + 1], bh[2 * i + 1]] {
            out.push_field(&fmt(x));
        }
        w.write_record(&out)?;
        summary.push(out);
    }
    w.flush()
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    let mut full = header.clone();
    for c in STUDY_COLUMNS {
        full.push_field(c);
    }
    let table = table(args, seed, &full, &records, &summary, &path);
    crate::run_index::write(&args.out, "cowrie study: every game and named variant")?;
    crate::output::print_stdout(&table)
}

/// The printed table: per game and variant, the rates with their intervals clustered by pair
/// and the study-wide Holm-adjusted p-values, read back from the rows of `summary.csv`.
fn table(
    args: &StudyConfig,
    seed: u64,
    header: &csv::StringRecord,
    records: &[(&'static str, csv::StringRecord)],
    summary: &[csv::StringRecord],
    path: &std::path::Path,
) -> String {
    let col = |n: &str| header.iter().position(|x| x == n).unwrap_or(0);
    let mut table = String::new();
    let _ = writeln!(
        table,
        "study '{}', seed {seed}{}, {} games per variant (seat-swapped pairs)",
        args.name,
        if args.seed_given {
            " (given)"
        } else {
            " (from the study's name)"
        },
        args.games
    );
    let _ = writeln!(
        table,
        "{:<9} {:<14} {:<19} {:>6}  {:<33} {:<33} {:>8} {:>9}",
        "game",
        "variant",
        "agent (both seats)",
        "games",
        "seat 1 win rate [95%] Holm p",
        "first mover [95%] Holm p",
        "timeouts",
        "plies"
    );
    for r in runs() {
        for v in &r.variants {
            let get = |metric: &str| {
                records
                    .iter()
                    .zip(summary)
                    .find(|((g, x), _)| {
                        *g == r.game && &x[col("rule_set")] == *v && &x[col("metric")] == metric
                    })
                    .map(|(_, x)| x)
            };
            let num = |x: &csv::StringRecord, c: &str| x[col(c)].parse::<f64>().unwrap_or(f64::NAN);
            let rate = |metric: &str| {
                get(metric).map_or(String::new(), |x| {
                    let p = num(x, "study_p_holm");
                    format!(
                        "{:.3} [{:.3}, {:.3}] {}",
                        num(x, "value"),
                        num(x, "clustered_ci95_low"),
                        num(x, "clustered_ci95_high"),
                        if p.is_nan() {
                            String::new()
                        } else {
                            format!("{p:.4}")
                        }
                    )
                })
            };
            let value = |metric: &str| get(metric).map_or(f64::NAN, |x| num(x, "value"));
            let _ = writeln!(
                table,
                "{:<9} {:<14} {:<19} {:>6}  {:<33} {:<33} {:>8.3} {:>9.1}",
                r.game,
                v,
                r.agent,
                args.games,
                rate("advantage_p1"),
                if r.game == Baghchal::NAME {
                    "= seat 1 (the goats: one factor)".to_string()
                } else {
                    rate("first_mover_win_rate")
                },
                value("timeouts"),
                value("duration_plies")
            );
            if get("first_enterer_win_rate").is_some() {
                let _ = writeln!(
                    table,
                    "{:<9} {:<14} {:<19} {:>6}  {:<33} {:<33}",
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
                    "{:<9} {:<14} {:<19} {:>6}  {:<33} {:<33} {:>8.3}",
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
    let _ = writeln!(
        table,
        "seat 1 = the side the rules name first (Baghchal: goats); first mover = who made the first decision, or the rules' starter (bargese: the three-shell throw's winner)\nbaghchal: the goats always move first, so side and move order are one factor and no first-mover effect is separable from the side; under perfect play the five-captures and averbakh-1995 starts are draws (results/solve: cowrie solve --game baghchal --variant V)\nfrangieh: td:ply=0 is the shipped network of each variant it is shipped for; ludii has none and is played by expectimax:depth=2, compared with no other variant\nbargese \"first to enter\": the first player to enter a piece; julbahar rows count matches to 31, \"per game in match\" rows the games inside them (timeouts column: games left unfinished when the match ended)\nrates are fractions of all games; [95%]: clustered by seat-swapped pair (games in a match: by pair of matches); Holm p: the p-value of \"wins as often as the other player\", Holm-adjusted over every hypothesis of the study; empty where the hypothesis repeats one above or is not declared\nevery metric, its intervals, the paired variant differences and all p-values: {} (docs/metrics.md)",
        path.display()
    );
    table
}
