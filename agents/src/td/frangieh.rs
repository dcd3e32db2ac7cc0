//! Frangieh's input encoding for the learned evaluation (`frangieh-tesauro-1`), after Tesauro's
//! TD-Gammon (Tesauro 1992, "Practical issues in temporal difference learning"; Tesauro 1995,
//! "Temporal difference learning and TD-Gammon", CACM 38(3)).
//!
//! From the view of the player to act (on roll, or to play the dice; the viewer), 196 inputs:
//! - for each of the 24 points in the viewer's numbering (1 to 24, index `p - 1`), the viewer's
//!   checkers there `n` as four units at `4 (p - 1)`: `n >= 1`, `n >= 2`, `n >= 3`, and
//!   `(n - 3) / 2` when `n > 3`;
//! - the same four units for the opponent's checkers on that point (the opponent's own point
//!   `25 - p`) at `96 + 4 (p - 1)`;
//! - 192: the viewer's checkers on the bar ÷ 2; 193: the opponent's ÷ 2;
//! - 194: the viewer's checkers borne off ÷ 15; 195: the opponent's ÷ 15.
//!
//! There is no side-to-move input: the viewer is always the player to act. The dice are not
//! encoded (at a decision node the network values the position before the roll is used).

use cowrie_engine::games::tables::Direction;
use cowrie_engine::{Frangieh, Player};

use super::net::{Changes, Inputs};
use super::tables::{encode_points, points_changes};

/// The encoding's name, recorded in the weights' metadata.
pub const NAME: &str = "frangieh-tesauro-1";
/// Inputs of the encoding.
pub const INPUTS: usize = 196;

/// Encodes `state` from the view of the player to act; returns that player.
pub fn encode(state: &Frangieh, inputs: &mut Inputs) -> Player {
    inputs.clear();
    let me = state.side_to_move();
    let (m, o) = (me.index(), me.opponent().index());
    let b = state.board();
    // The sides move in opposite directions: the opponent's point 25 - p is the viewer's p.
    encode_points(b, m, Direction::Opposite, inputs);
    inputs.set(192, f32::from(b.bar(m)) / 2.0);
    inputs.set(193, f32::from(b.bar(o)) / 2.0);
    inputs.set(194, f32::from(b.off(m)) / 15.0);
    inputs.set(195, f32::from(b.off(o)) / 15.0);
    me
}

/// Pushes onto `changes` the inputs where the encoding of `state` differs from that of
/// `reference`, in increasing input order (as [`encode`] would give them, without encoding
/// either); returns the player to act, or `None` (nothing pushed) when the two have different
/// players to act.
pub fn changes(reference: &Frangieh, state: &Frangieh, changes: &mut Changes) -> Option<Player> {
    let me = state.side_to_move();
    if reference.side_to_move() != me {
        return None;
    }
    let (m, o) = (me.index(), me.opponent().index());
    let (r, b) = (reference.board(), state.board());
    points_changes(r, b, m, Direction::Opposite, changes);
    let bar = |b: &cowrie_engine::games::tables::Board, s| f32::from(b.bar(s)) / 2.0;
    let off = |b: &cowrie_engine::games::tables::Board, s| f32::from(b.off(s)) / 15.0;
    changes.push(192, bar(r, m), bar(b, m));
    changes.push(193, bar(r, o), bar(b, o));
    changes.push(194, off(r, m), off(b, m));
    changes.push(195, off(r, o), off(b, o));
    Some(me)
}
