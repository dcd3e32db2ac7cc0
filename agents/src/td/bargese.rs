//! Bargese's input encoding for the learned evaluation (`bargese-tracks-1`): where each side's
//! four pieces stand on its own track, home in the kitchen or not yet entered, and the throws
//! in hand (Finkel 2002, DLP.Evidence.1604; `docs/rules/bargese.md` for the track).
//!
//! From the view of the player the stage names (to throw or to move; player one at the first
//! three-shell throw, player two at the second), 180 inputs:
//! - 0..83: the viewer's pieces on each square of its track (index 0, the entry, to 82, the
//!   dodo), as a count;
//! - 83..166: the opponent's pieces on each square of *its* track, as a count (the two tracks
//!   share the ring of outer rows, so where a piece can hammer is for the network to learn);
//! - 166, 167: the viewer's and the opponent's pieces in the kitchen ÷ 4;
//! - 168, 169: the viewer's and the opponent's pieces off the board (not entered, or hammered)
//!   ÷ 4;
//! - 170..177: the throws of the turn not yet played, by mouths up (0 to 6), each count ÷ 2;
//! - 177: 1 before the game has started (the three-shell throws, or waiting for a first dust or
//!   bange); 178: the mouths up of player one's three-shell throw ÷ 3 while player two throws;
//! - 179: 1 where the viewer is to move (a decision node), 0 where it is to throw.

use cowrie_engine::games::bargese::{Stage, KITCHEN, OFF, TRACK_LEN};
use cowrie_engine::{Bargese, Player};

use super::net::Inputs;

/// The encoding's name, recorded in the weights' metadata.
pub const NAME: &str = "bargese-tracks-1";
/// Inputs of the encoding.
pub const INPUTS: usize = 180;

/// The player whose view the encoding of a state at `stage` takes.
fn viewer(stage: Stage) -> Player {
    match stage {
        Stage::ShellsFirst | Stage::Over(_) => Player::ONE,
        Stage::ShellsSecond(_) => Player::TWO,
        Stage::Opening(p) | Stage::Throwing(p) | Stage::Moving(p) => p,
    }
}

fn pieces(inputs: &mut Inputs, at: usize, of: [u8; 4]) -> (f32, f32) {
    let (mut kitchen, mut off) = (0.0, 0.0);
    let mut count = [0u8; TRACK_LEN];
    for p in of {
        match p {
            KITCHEN => kitchen += 0.25,
            OFF => off += 0.25,
            t => count[usize::from(t)] += 1,
        }
    }
    for (t, &n) in count.iter().enumerate() {
        inputs.set(at + t, f32::from(n));
    }
    (kitchen, off)
}

/// Encodes `state` (not finished) from the view of the player its stage names; returns that
/// player.
pub fn encode(state: &Bargese, inputs: &mut Inputs) -> Player {
    inputs.clear();
    let stage = state.stage();
    let me = viewer(stage);
    let (k0, o0) = pieces(inputs, 0, state.pieces(me));
    let (k1, o1) = pieces(inputs, TRACK_LEN, state.pieces(me.opponent()));
    inputs.set(166, k0);
    inputs.set(167, k1);
    inputs.set(168, o0);
    inputs.set(169, o1);
    for (k, &n) in state.throws().iter().enumerate() {
        inputs.set(170 + k, f32::from(n) / 2.0);
    }
    match stage {
        Stage::ShellsFirst | Stage::Opening(_) => inputs.set(177, 1.0),
        Stage::ShellsSecond(n) => {
            inputs.set(177, 1.0);
            inputs.set(178, f32::from(n) / 3.0);
        }
        Stage::Moving(_) => inputs.set(179, 1.0),
        Stage::Throwing(_) | Stage::Over(_) => {}
    }
    me
}
