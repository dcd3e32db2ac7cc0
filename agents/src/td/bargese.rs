//! Bargese's input encoding for the learned evaluation (`bargese-tracks-2`): where each side's
//! four pieces stand on its own track, home in the kitchen or not yet entered, the throws
//! in hand, and where the two tracks meet: which pieces stand within reach of an opposing piece
//! behind them (Finkel 2002, DLP.Evidence.1604; `docs/rules/bargese.md` for the track and for
//! hammering).
//!
//! From the view of the player the stage names (to throw or to move; player one at the first
//! three-shell throw, player two at the second), 262 inputs:
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
//! - 179: 1 where the viewer is to move (a decision node), 0 where it is to throw;
//! - 180..220: **shots** on the viewer's pieces: at `180 + d - 1`, the pairs (viewer's piece
//!   that can be hammered, opposing piece) with the opposing piece `d` squares (1 to 40) behind
//!   it along the opponent's track, ÷ 2. A piece can be hammered on a square both tracks share
//!   that is not an X, and not on its own central row on the way home (index 75 counts as home
//!   unless `outer-end=open`); a piece off the board counts as standing one square before the
//!   entry square (so a dust's 11 reaches the X, and the hal the entry square);
//! - 220..260: the shots on the opponent's pieces by the viewer's, the same way;
//! - 260, 261: the viewer's and the opponent's pip counts (the squares left to the kitchen: 84
//!   off the board, `83 - i` on track square `i`, 0 in the kitchen) ÷ 336.
//!
//! The first 180 inputs are those of `bargese-tracks-1`, which had nothing else: there the network
//! had to learn from pairs of squares on two tracks where a piece stands in danger, and a greedy
//! player on it beat `expectimax:depth=2` in about half the games.

use cowrie_engine::games::bargese::{
    is_homeward_safe, OuterEnd, Stage, KITCHEN, NOT_ON_TRACK, OFF, OPP_TO_MINE, TRACK_LEN,
    X_BY_TRACK,
};
use cowrie_engine::{Bargese, Game, Player};

use super::net::Inputs;

/// The encoding's name, recorded in the weights' metadata.
pub const NAME: &str = "bargese-tracks-2";
/// Inputs of the encoding.
pub const INPUTS: usize = 262;
/// The farthest distance behind a piece at which an opposing piece counts as a shot.
pub const SHOT_REACH: usize = 40;
/// The first input of the shots on the viewer's pieces.
pub const SHOTS_ON_VIEWER: usize = 180;
/// The first input of the shots on the opponent's pieces.
pub const SHOTS_ON_OPPONENT: usize = SHOTS_ON_VIEWER + SHOT_REACH;
/// The viewer's pip count's input (the opponent's follows).
pub const PIPS: usize = SHOTS_ON_OPPONENT + SHOT_REACH;

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

/// Whether a piece on its own track square `t` can be hammered (`docs/rules/bargese.md`,
/// *Hammering and safety*): on the board, not on an X, not lying on its side homeward. Its
/// private squares are left out by [`OPP_TO_MINE`], which has no opposing index for them.
fn exposed(t: u8, outer_end: OuterEnd) -> bool {
    t < KITCHEN && !X_BY_TRACK[usize::from(t)] && !is_homeward_safe(t, outer_end)
}

/// The pairs `(victim, hunter)` with the hunter `d` squares behind the victim along the
/// hunter's track, by `d` (1 to [`SHOT_REACH`]), set at `at + d - 1` ÷ 2.
fn shots(inputs: &mut Inputs, at: usize, victims: [u8; 4], hunters: [u8; 4], outer_end: OuterEnd) {
    let mut count = [0u8; SHOT_REACH];
    for v in victims {
        if !exposed(v, outer_end) {
            continue;
        }
        // The victim's square in the hunter's numbering (none on private squares).
        for u in OPP_TO_MINE[usize::from(v)] {
            if u == NOT_ON_TRACK {
                continue;
            }
            for h in hunters {
                let from = match h {
                    KITCHEN => continue,
                    OFF => -1,
                    t => i32::from(t),
                };
                let d = i32::from(u) - from;
                if (1..=SHOT_REACH as i32).contains(&d) {
                    count[(d - 1) as usize] += 1;
                }
            }
        }
    }
    for (k, &n) in count.iter().enumerate() {
        inputs.set(at + k, f32::from(n) / 2.0);
    }
}

/// A side's progress along its track: 0 a piece off the board, `i + 1` on track square `i`,
/// 84 in the kitchen, summed over its four pieces (0 to 336). Its pip count, the squares left to
/// the kitchen, is `336 -` this.
#[must_use]
pub fn progress(of: [u8; 4]) -> u32 {
    of.iter()
        .map(|&t| match t {
            OFF => 0,
            KITCHEN => 84,
            t => u32::from(t) + 1,
        })
        .sum()
}

/// Encodes `state` (not finished) from the view of the player its stage names; returns that
/// player.
pub fn encode(state: &Bargese, inputs: &mut Inputs) -> Player {
    inputs.clear();
    let stage = state.stage();
    let me = viewer(stage);
    let (mine, theirs) = (state.pieces(me), state.pieces(me.opponent()));
    let (k0, o0) = pieces(inputs, 0, mine);
    let (k1, o1) = pieces(inputs, TRACK_LEN, theirs);
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
    let outer_end = state.rules().outer_end;
    shots(inputs, SHOTS_ON_VIEWER, mine, theirs, outer_end);
    shots(inputs, SHOTS_ON_OPPONENT, theirs, mine, outer_end);
    inputs.set(PIPS, (336 - progress(mine)) as f32 / 336.0);
    inputs.set(PIPS + 1, (336 - progress(theirs)) as f32 / 336.0);
    me
}
