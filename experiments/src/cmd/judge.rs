//! `cowrie judge --db DIR FILE --out FILE.csv`: every move of the Baghchal games in a
//! `records.jsonl` judged against perfect play — which moves kept the mover's value and which
//! threw a win away (to a draw or a loss) or a draw away (to a loss) — by agent, side and phase.
//!
//! A move is judged where the database gives the value of the position before it and after it
//! (the movement phase always; the placement phase as far back as its halves are solved); the
//! others are counted as unjudged. Error rates are ratios over the positions where the error was
//! possible (won positions for a win thrown away, drawn ones for a draw thrown away), with a 95%
//! interval clustered by game ([`crate::stats::clustered::clustered_wilson`]): the moves of one game are
//! not independent. `distinct_games` counts the different lines of play among the games: a
//! deterministic agent in self-play plays one game again and again, and its interval (zero
//! width when every game is the same) then describes that game, not the agent's play at large.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::Path;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args;
use cowrie_engine::{Baghchal, BaghchalRules, Game, RuleSet, ToAct};
use cowrie_solver::packed::{self, Code, DRAW, LOSS, WIN};
use cowrie_solver::placement_db::{self, PlacementReader};
use cowrie_solver::{Database, SolveRules};

use crate::args::OutArg;
use crate::games::Report;
use crate::output::print_stdout;
use crate::run::gamelog::GameRecord;
use crate::run::gamelog::{check_against_run, parse_record};
use crate::run::selfplay::Event;
use crate::stats::clustered::{self, Cluster, Estimate};

/// The phase a move was played in.
fn phase_name(placement: bool) -> &'static str {
    if placement {
        "placement"
    } else {
        "movement"
    }
}

/// The counts of one (agent, side, phase), and per game the counts the intervals cluster.
#[derive(Default)]
struct Tally {
    moves: u64,
    unjudged: u64,
    won: u64,
    win_to_draw: u64,
    win_to_loss: u64,
    drawn: u64,
    draw_to_loss: u64,
    lost: u64,
    /// Per game: (won positions, wins thrown away, drawn positions, draws thrown away).
    games: BTreeMap<u64, [f64; 4]>,
    /// The distinct games (by their moves) among them: a deterministic agent in self-play
    /// repeats one game, and its rates then describe that one game however many were played.
    distinct: std::collections::BTreeSet<u64>,
}

impl Tally {
    fn add(&mut self, game: u64, line: u64, before: Option<Code>, after: Option<Code>) {
        self.moves += 1;
        let (Some(b), Some(a)) = (before, after) else {
            self.unjudged += 1;
            return;
        };
        self.distinct.insert(line);
        let g = self.games.entry(game).or_default();
        match b {
            WIN => {
                self.won += 1;
                g[0] += 1.0;
                if a != WIN {
                    g[1] += 1.0;
                }
                match a {
                    DRAW => self.win_to_draw += 1,
                    LOSS => self.win_to_loss += 1,
                    _ => {}
                }
            }
            DRAW => {
                self.drawn += 1;
                g[2] += 1.0;
                if a == LOSS {
                    self.draw_to_loss += 1;
                    g[3] += 1.0;
                }
            }
            _ => self.lost += 1,
        }
    }

    /// The rate of `errors` over `base` (indexes into the per-game counts) with its interval.
    fn rate(&self, base: usize, errors: usize) -> (f64, f64, f64) {
        let clusters: Vec<Cluster> = self
            .games
            .values()
            .filter(|g| g[base] > 0.0)
            .map(|g| Cluster {
                y: g[errors],
                m: g[base],
            })
            .collect();
        if clusters.is_empty() {
            return (f64::NAN, 0.0, 1.0);
        }
        let e = Estimate::of_slice(&clusters);
        let (lo, hi) = clustered::clustered_wilson(&e);
        (e.value, lo, hi)
    }
}

/// The CSV header.
pub const COLUMNS: &[&str] = &[
    "agent",
    "side",
    "phase",
    "games",
    "distinct_games",
    "moves",
    "unjudged",
    "won",
    "win_to_draw",
    "win_to_loss",
    "win_lost_rate",
    "win_lost_lo",
    "win_lost_hi",
    "drawn",
    "draw_to_loss",
    "draw_lost_rate",
    "draw_lost_lo",
    "draw_lost_hi",
    "lost",
];

fn fmt_rate(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else {
        format!("{x:.4}")
    }
}

/// Judges one record's moves into `tallies`.
fn judge_game(
    rec: &GameRecord,
    reader: &PlacementReader,
    db: &Database,
    tallies: &mut BTreeMap<(String, &'static str, &'static str), Tally>,
) -> anyhow::Result<()> {
    let at = |what: String| anyhow::anyhow!("game {}: {what}", rec.game_index);
    let mut rules = BaghchalRules::variant(&rec.variant).map_err(|e| at(e.to_string()))?;
    for (k, v) in &rec.options {
        rules.set_option(k, v).map_err(|e| at(e.to_string()))?;
    }
    let wanted = SolveRules::from_rules(&rules)?;
    if wanted != *db.rules() {
        bail!(at(format!(
            "played under {wanted}, the database is solved for {}",
            db.rules()
        )));
    }
    let mut state = Baghchal::new(&rules);
    if state.notation() != rec.start {
        bail!(at(format!(
            "start position {} is not the rules' start '{}'",
            crate::args::quote(&rec.start),
            state.notation()
        )));
    }
    let value = |s: &Baghchal| placement_db::state_code(reader, db, s);
    // The game's line of play, to count distinct games.
    let line = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for ev in &rec.events {
            if let Event::Ply { action, .. } = ev {
                action.hash(&mut h);
            }
        }
        h.finish()
    };
    for (n, ev) in rec.events.iter().enumerate() {
        let Event::Ply { seat, action } = ev else {
            bail!(at(format!("event {n}: a chance outcome in baghchal")));
        };
        let ToAct::Decision(p) = state.to_act() else {
            bail!(at(format!("event {n}: a ply after the end")));
        };
        if p.seat() != *seat {
            bail!(at(format!("event {n}: seat {seat} plays out of turn")));
        }
        let a = state
            .parse_action(action)
            .map_err(|e| at(format!("event {n}: {e}")))?;
        let placement = state.goats_in_hand() > 0;
        let before = value(&state)?;
        state
            .try_play(a)
            .map_err(|e| at(format!("event {n}: {e}")))?;
        let after = value(&state)?.map(packed::parent);
        let agent = rec.agents[usize::from(*seat - 1)].clone();
        tallies
            .entry((agent, Baghchal::side_name(p), phase_name(placement)))
            .or_default()
            .add(rec.game_index, line, before, after);
    }
    Ok(())
}

/// Runs `cowrie judge`; returns the report printed on stdout.
///
/// # Errors
/// An unreadable or foreign records file, a game of another rule set than the database's, an
/// unwritable output.
pub fn run(args: &JudgeArgs) -> anyhow::Result<String> {
    // The records first: a file that cannot be read is refused before the database opens.
    let bytes = cowrie_solver::bounded::read_lines(&args.file)
        .with_context(|| format!("cannot read '{}'", args.file.display()))?;
    let run = check_against_run(&args.file, &bytes)?;
    let manifest = cowrie_solver::Manifest::read_required(&args.db)?;
    let db = Database::open(&args.db, &manifest.rules)?;
    let reader = PlacementReader::open(&args.db, &manifest.rules)?;
    let mut tallies = BTreeMap::new();
    let mut games = 0u64;
    for (n, line) in bytes.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read '{}'", args.file.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let rec = parse_record(&args.file, n, Ok(line), run.as_ref())?;
        if rec.game != Baghchal::NAME {
            bail!(
                "'{}' line {}: a game of {}, not baghchal",
                args.file.display(),
                n + 1,
                crate::args::quote(&rec.game)
            );
        }
        judge_game(&rec, &reader, &db, &mut tallies)
            .with_context(|| format!("'{}' line {}", args.file.display(), n + 1))?;
        games += 1;
    }
    if games == 0 {
        bail!("'{}' holds no game records", args.file.display());
    }
    write_csv(&args.output.out, &tallies)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "judged {games} games against the database in '{}' ({}); placement phase {}",
        args.db.display(),
        manifest.rules,
        if reader.complete() {
            "solved back to the start"
        } else {
            "solved in part (moves before it are unjudged)"
        }
    );
    let _ = writeln!(
        out,
        "{:<28} {:<6} {:<9} {:>7} {:>7} {:>24} {:>7} {:>24}",
        "agent",
        "side",
        "phase",
        "moves",
        "won",
        "win thrown away [95%]",
        "drawn",
        "draw thrown away [95%]"
    );
    for ((agent, side, phase), t) in &tallies {
        let (w, wl, wh) = t.rate(0, 1);
        let (d, dl, dh) = t.rate(2, 3);
        let show = |r: f64, lo: f64, hi: f64| {
            if r.is_nan() {
                "-".to_string()
            } else {
                format!("{r:.4} [{lo:.4}, {hi:.4}]")
            }
        };
        let _ = writeln!(
            out,
            "{agent:<28} {side:<6} {phase:<9} {:>7} {:>7} {:>24} {:>7} {:>24}",
            t.moves,
            t.won,
            show(w, wl, wh),
            t.drawn,
            show(d, dl, dh)
        );
    }
    let _ = writeln!(out, "wrote '{}'", args.output.out.display());
    Ok(out)
}

fn write_csv(
    path: &Path,
    tallies: &BTreeMap<(String, &'static str, &'static str), Tally>,
) -> anyhow::Result<()> {
    let tmp = path.with_extension("csv.tmp");
    let mut w = csv::Writer::from_path(&tmp)
        .with_context(|| format!("cannot write '{}'", tmp.display()))?;
    w.write_record(COLUMNS)?;
    for ((agent, side, phase), t) in tallies {
        let (w_r, w_lo, w_hi) = t.rate(0, 1);
        let (d_r, d_lo, d_hi) = t.rate(2, 3);
        let nan_bounds = |r: f64, x: f64| {
            if r.is_nan() {
                String::new()
            } else {
                fmt_rate(x)
            }
        };
        w.write_record([
            agent.clone(),
            (*side).to_string(),
            (*phase).to_string(),
            t.games.len().to_string(),
            t.distinct.len().to_string(),
            t.moves.to_string(),
            t.unjudged.to_string(),
            t.won.to_string(),
            t.win_to_draw.to_string(),
            t.win_to_loss.to_string(),
            fmt_rate(w_r),
            nan_bounds(w_r, w_lo),
            nan_bounds(w_r, w_hi),
            t.drawn.to_string(),
            t.draw_to_loss.to_string(),
            fmt_rate(d_r),
            nan_bounds(d_r, d_lo),
            nan_bounds(d_r, d_hi),
            t.lost.to_string(),
        ])?;
    }
    w.flush()
        .with_context(|| format!("cannot write '{}'", tmp.display()))?;
    drop(w);
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write '{}'", path.display()))?;
    Ok(())
}

/// `cowrie judge`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("The CSV written: one row per agent, side and phase").value_name("FILE.csv")))]
pub struct JudgeArgs {
    /// A records.jsonl written by `cowrie match --record` (Baghchal games).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The database directory written by `cowrie solve` (its rules must be the games').
    #[arg(long, value_name = "DIR")]
    pub db: PathBuf,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
    /// `--no-verify`.
    #[command(flatten)]
    pub verifying: crate::args::NoVerifyArg,
}

/// `cowrie judge`: judges the games and prints the table.
///
/// # Errors
/// As [`run`].
pub fn command(args: JudgeArgs, _command_line: Vec<String>) -> anyhow::Result<()> {
    args.verifying.apply();
    crate::run::outputs::check_file("--out", &args.output.out, &[&args.file])?;
    print_stdout(&args.verifying.stated(run(&args)?))
}
