//! `cowrie probe --game baghchal --variant V --db DIR --position NOTATION`: a movement-phase
//! position's perfect-play value and distance, and every move with its value.

use std::fmt::Write as _;

use anyhow::bail;
use cowrie_engine::{Baghchal, BaghchalRules, Game, RuleSet, ToAct};
use cowrie_solver::{Database, Value};

use crate::cli::ProbeArgs;
use crate::cmd::solve::solver_rules;

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

/// Runs `cowrie probe`; returns the text printed on stdout.
///
/// # Errors
/// Bad rules or position, a placement-phase position, a missing or foreign database.
pub fn run(args: &ProbeArgs) -> anyhow::Result<String> {
    let rules = solver_rules(&args.rules)?;
    let mut engine_rules =
        BaghchalRules::resolve(args.rules.variant.as_deref(), &args.rules.options)?;
    engine_rules.ply_cap = None;
    let state = Baghchal::from_notation(&args.position, &engine_rules)?;
    if state.is_placement_phase() {
        bail!(
            "position '{}' is in the placement phase ({} goats in hand); the database covers the movement phase",
            args.position,
            state.goats_in_hand()
        );
    }
    let db = Database::open(&args.db, &rules)?;
    let value = db.state_value(&state).expect("a movement-phase position");
    let side = Baghchal::side_name(state.side_to_move());
    let mut out = String::new();
    let _ = writeln!(out, "position {}", state.notation());
    let _ = writeln!(out, "{side} to move: {value}");
    if let ToAct::Terminal(end) = state.to_act() {
        let _ = writeln!(out, "the game is over ({})", end.as_str());
        return Ok(out);
    }
    let _ = writeln!(out, "moves, best first (value for {side}):");
    for (mv, v) in move_values(&db, &state) {
        let _ = writeln!(out, "  {mv:<6} {v}");
    }
    Ok(out)
}
