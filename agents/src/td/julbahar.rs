//! Julbahar's input encoding for the learned evaluation (`julbahar-tables-1`): Tesauro's point
//! units as for Frangieh (Tesauro 1992), with the match score, so the network estimates the
//! probability of winning the unit the rules play — the match to `target` (31 by Barakat 1974
//! §1773) or, under `unit=game`, the game.
//!
//! From the view of the player to act (the viewer; at the opening throw's chance node, the
//! player the state names to move), 197 inputs:
//! - 0..192: the point units (`tables.rs`) of the viewer's checkers, point by point in its
//!   numbering, and of the opponent's checkers on the same points (mapped through the rules'
//!   direction);
//! - 192, 193: the viewer's and the opponent's checkers borne off ÷ 15 (nothing is ever hit, so
//!   there is no bar);
//! - 194, 195: the viewer's and the opponent's match totals ÷ `target` (0 under `unit=game`);
//! - 196: 1 at the opening throw of a game (the board is the start, who starts is undecided).
//!
//! The dice of a decision node are not encoded, as for Frangieh.

use cowrie_engine::games::julbahar::{Phase, Unit};
use cowrie_engine::{Game, Julbahar, Player};

use super::net::Inputs;
use super::tables::encode_points;

/// The encoding's name, recorded in the weights' metadata.
pub const NAME: &str = "julbahar-tables-1";
/// Inputs of the encoding.
pub const INPUTS: usize = 197;

/// Encodes `state` from the view of the player to act; returns that player.
pub fn encode(state: &Julbahar, inputs: &mut Inputs) -> Player {
    inputs.clear();
    let me = state.side_to_move();
    let (m, o) = (me.index(), me.opponent().index());
    let b = state.board();
    encode_points(b, m, state.params().direction, inputs);
    inputs.set(192, f32::from(b.off(m)) / 15.0);
    inputs.set(193, f32::from(b.off(o)) / 15.0);
    let rules = state.rules();
    if rules.unit == Unit::Match {
        let target = rules.target.max(1) as f32;
        let s = state.scores();
        inputs.set(194, s[m] as f32 / target);
        inputs.set(195, s[o] as f32 / target);
    }
    if state.phase() == Phase::Opening {
        inputs.set(196, 1.0);
    }
    me
}
