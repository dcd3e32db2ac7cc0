//! `cowrie probe --game baghchal --variant V --db DIR --position NOTATION`: a position's
//! perfect-play value (with its distance in the movement phase), and every move with its value.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::bail;
use clap::Args;
use cowrie_engine::{Baghchal, EndReason, Game, ToAct};
use cowrie_solver::packed::{self, Code};
use cowrie_solver::placement_db::{self, PlacementReader};
use cowrie_solver::{Database, Value};

use crate::args::GameRulesArgs;
use crate::config::SolverRules;
use crate::games::Report;
use crate::output::print_stdout;

/// Every legal move of `state` with its value for the mover, best first (the order of
/// [`Value::preference`], ties in the engine's move order).
#[must_use]
pub fn move_values(db: &Database, state: &Baghchal) -> Vec<(String, Value)> {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let mut rows: Vec<(String, Value)> = legal
        .iter()
        .map(|&a| {
            let mut child = state.clone();
            child.play_unchecked(a);
            let v = db
                .state_value(&child)
                .expect("a movement-phase child")
                .parent();
            (state.action_to_string(a), v)
        })
        .collect();
    rows.sort_by_key(|(_, v)| std::cmp::Reverse(v.preference()));
    rows
}

/// `cowrie probe` on a placement-phase position: its value and every move's, from the placement
/// halves (which keep values, not distances).
fn placement(args: &ProbeArgs, db: &Database, state: &Baghchal) -> anyhow::Result<String> {
    let reader = PlacementReader::open(&args.db, db.rules())?;
    let placed = 20 - u32::from(state.goats_in_hand());
    let read = |s: &Baghchal| -> anyhow::Result<Code> {
        match placement_db::state_code(&reader, db, s)? {
            Some(c) => Ok(c),
            None => bail!(
                "position '{}' has {placed} goats placed; the database's placement phase is not solved back that far (cowrie solve --resume --down-to-placed {placed})",
                args.position
            ),
        }
    };
    let value = read(state)?;
    let side = Baghchal::side_name(state.side_to_move());
    let mut out = String::new();
    let _ = writeln!(out, "position {}", state.notation());
    let _ = writeln!(
        out,
        "{side} to move: {} (placement phase: values without distances)",
        packed::name(value)
    );
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let mut rows = Vec::new();
    for &a in &legal {
        let mut child = state.clone();
        child.play_unchecked(a);
        rows.push((state.action_to_string(a), packed::parent(read(&child)?)));
    }
    rows.sort_by_key(|&(_, c)| std::cmp::Reverse(c));
    let _ = writeln!(out, "moves, best first (value for {side}):");
    for (mv, c) in rows {
        let _ = writeln!(out, "  {mv:<6} {}", packed::name(c));
    }
    Ok(out)
}

/// How a finished game ended, in words: who won, or a draw.
fn over(end: EndReason) -> String {
    match end.winner() {
        Some(p) => format!("{} win", Baghchal::side_name(p)),
        None => end.as_str().to_string(),
    }
}

/// Runs `cowrie probe`; returns the text printed on stdout.
///
/// # Errors
/// Bad rules or position, a placement-phase position the database does not reach, a missing or
/// foreign database.
pub fn run(args: &ProbeArgs) -> anyhow::Result<String> {
    let SolverRules {
        solver: rules,
        engine: mut engine_rules,
        ..
    } = SolverRules::from_args(&args.rules)?;
    engine_rules.ply_cap = None;
    let state = Baghchal::from_notation(&args.position, &engine_rules)?;
    if state.captured() > engine_rules.win_captures {
        bail!(
            "position '{}' has {} goats captured, but the game ends at the capture that makes {} (win-captures)",
            args.position,
            state.captured(),
            engine_rules.win_captures
        );
    }
    let db = Database::open(&args.db, &rules)?;
    if state.is_placement_phase() {
        if let ToAct::Terminal(end) = state.to_act() {
            return Ok(format!(
                "position {}\nthe game is over: {}\n",
                state.notation(),
                over(end)
            ));
        }
        return placement(args, &db, &state);
    }
    let value = db.state_value(&state).expect("a movement-phase position");
    let side = Baghchal::side_name(state.side_to_move());
    let mut out = String::new();
    let _ = writeln!(out, "position {}", state.notation());
    let _ = writeln!(out, "{side} to move: {value}");
    if let ToAct::Terminal(end) = state.to_act() {
        let _ = writeln!(out, "the game is over: {}", over(end));
        return Ok(out);
    }
    let _ = writeln!(out, "moves, best first (value for {side}):");
    for (mv, v) in move_values(&db, &state) {
        let _ = writeln!(out, "  {mv:<6} {v}");
    }
    Ok(out)
}

/// `cowrie probe`.
#[derive(Debug, Args, Clone)]
pub struct ProbeArgs {
    /// The game and rules solved.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// The database directory written by `cowrie solve`.
    #[arg(long, value_name = "DIR")]
    pub db: PathBuf,
    /// The position in the game's notation (`docs/rules/baghchal.md`).
    #[arg(long, value_name = "NOTATION")]
    pub position: String,
    /// `--no-verify`.
    #[command(flatten)]
    pub verifying: crate::args::NoVerifyArg,
}

/// `cowrie probe`: prints the position's value and every move's.
///
/// # Errors
/// As [`run`].
pub fn command(args: ProbeArgs, _command_line: Vec<String>) -> anyhow::Result<()> {
    args.verifying.apply();
    print_stdout(&args.verifying.stated(run(&args)?))
}
