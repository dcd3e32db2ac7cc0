//! What Python needs of each game beyond the `Game` trait (and the harness's `Report`, which
//! names the sides): integer action ids and the observation tensor. `docs/python.md` documents both.
//!
//! - Baghchal has a fixed action encoding: every placement, step, jump and the pass has one id
//!   whatever the position ([`PyGame::ACTION_IDS_FIXED`]).
//! - The dice games' actions are whole turns (Frangieh and Julbahar: the play of both dice;
//!   Bargese: every throw of the turn), too many to enumerate: their id is the index in the
//!   state's ordered legal list.

use cowrie_agents::{td, Evaluate};
use cowrie_engine::bargese::Stage;
use cowrie_engine::bargese::{KITCHEN, OFF};
use cowrie_engine::{Baghchal, BaghchalAction, Bargese, Frangieh, Game, Julbahar, Player, ToAct};
use cowrie_experiments::games::Report;

/// A game as the Python package offers it.
pub trait PyGame: Game + Evaluate + Report {
    /// Whether action ids are a fixed encoding of the actions (else indices into the legal list).
    const ACTION_IDS_FIXED: bool;

    /// The number of distinct action ids: the encoding's size where ids are fixed, else the
    /// largest legal list the reinforcement-learning environment offers in full.
    const NUM_DISTINCT_ACTIONS: usize;

    /// The fixed id of `action` (only called where [`PyGame::ACTION_IDS_FIXED`]).
    fn fixed_id(action: Self::Action) -> usize {
        let _ = action;
        unreachable!("only games with fixed action ids encode actions")
    }

    /// The action of fixed id `id`, if `id` encodes one.
    fn from_fixed_id(id: usize) -> Option<Self::Action> {
        let _ = id;
        None
    }

    /// The shape of [`PyGame::observation`].
    fn observation_shape() -> Vec<usize>;

    /// The observation tensor, flattened in row-major order, from the view of
    /// [`PyGame::viewer`].
    fn observation(&self) -> Vec<f32>;

    /// The player whose view the observation takes.
    fn viewer(&self) -> Player;
}

/// Baghchal action ids: a placement on point `p` is `p`; a step `from`-`to` is
/// `25 + 25 from + to`; a jump `from`-`to` is `650 + 25 from + to`; the pass is `1275`.
mod baghchal_ids {
    pub const STEP: usize = 25;
    pub const JUMP: usize = 25 + 625;
    pub const PASS: usize = 25 + 625 + 625;
}

impl PyGame for Baghchal {
    const ACTION_IDS_FIXED: bool = true;
    const NUM_DISTINCT_ACTIONS: usize = baghchal_ids::PASS + 1;

    fn fixed_id(action: BaghchalAction) -> usize {
        use baghchal_ids::{JUMP, PASS, STEP};
        match action {
            BaghchalAction::Place(p) => usize::from(p),
            BaghchalAction::Step { from, to } => STEP + 25 * usize::from(from) + usize::from(to),
            BaghchalAction::Jump { from, to } => JUMP + 25 * usize::from(from) + usize::from(to),
            BaghchalAction::Pass => PASS,
        }
    }

    fn from_fixed_id(id: usize) -> Option<BaghchalAction> {
        use baghchal_ids::{JUMP, PASS, STEP};
        let pair = |k: usize| ((k / 25) as u8, (k % 25) as u8);
        Some(match id {
            0..STEP => BaghchalAction::Place(id as u8),
            STEP..JUMP => {
                let (from, to) = pair(id - STEP);
                BaghchalAction::Step { from, to }
            }
            JUMP..PASS => {
                let (from, to) = pair(id - JUMP);
                BaghchalAction::Jump { from, to }
            }
            PASS => BaghchalAction::Pass,
            _ => return None,
        })
    }

    /// Five 5x5 planes, point `p` at row `p / 5` (rank 1 first), column `p % 5` (file `a`
    /// first): goats; tigers; all ones when the goats are to move; goats in hand / 20;
    /// goats captured / 20.
    fn observation_shape() -> Vec<usize> {
        vec![5, 5, 5]
    }

    fn observation(&self) -> Vec<f32> {
        let mut x = vec![0.0f32; 125];
        let (goats, tigers) = (self.goats(), self.tigers());
        for p in 0..25 {
            x[p] = f32::from(u8::from(goats >> p & 1 == 1));
            x[25 + p] = f32::from(u8::from(tigers >> p & 1 == 1));
        }
        let goats_to_move = matches!(self.to_act(), ToAct::Decision(p) if p == Player::ONE);
        let hand = f32::from(self.goats_in_hand()) / 20.0;
        let captured = f32::from(self.captured()) / 20.0;
        for p in 0..25 {
            x[50 + p] = if goats_to_move { 1.0 } else { 0.0 };
            x[75 + p] = hand;
            x[100 + p] = captured;
        }
        x
    }

    fn viewer(&self) -> Player {
        Player::ONE
    }
}

/// The legal lists the environment offers in full for Frangieh and Julbahar: a play of a
/// double moves up to four checkers by the same number of points, and its result depends only
/// on the multiset of points they leave (the bar or one of 24 points), so a roll has at most
/// C(25 + 4 - 1, 4) = 20,475 distinct results; a play of two different dice has fewer
/// (at most 25 x 25 ordered pairs of sources, and 2 x 25 plays of one die).
const TABLES_MAX_ACTIONS: usize = 20_475;

impl PyGame for Frangieh {
    const ACTION_IDS_FIXED: bool = false;
    const NUM_DISTINCT_ACTIONS: usize = TABLES_MAX_ACTIONS;

    /// The `td` agent's encoding `frangieh-tesauro-1` (196 inputs, `agents/src/td/frangieh.rs`).
    fn observation_shape() -> Vec<usize> {
        vec![td::frangieh::INPUTS]
    }

    fn observation(&self) -> Vec<f32> {
        let mut inputs = td::Inputs::default();
        td::frangieh::encode(self, &mut inputs);
        dense(&inputs, td::frangieh::INPUTS)
    }

    fn viewer(&self) -> Player {
        self.side_to_move()
    }
}

/// The encoded inputs as a dense vector of `n` values.
fn dense(inputs: &td::Inputs, n: usize) -> Vec<f32> {
    let mut x = vec![0.0f32; n];
    for &i in &inputs.nonzero[..inputs.len] {
        x[usize::from(i)] = inputs.x[usize::from(i)];
    }
    x
}

impl PyGame for Julbahar {
    const ACTION_IDS_FIXED: bool = false;
    const NUM_DISTINCT_ACTIONS: usize = TABLES_MAX_ACTIONS;

    /// 56 values from the view of the turn player: for the viewer, then the opponent, the
    /// checkers on each of the 26 places of that side's own numbering (0 borne off, 1 to 24
    /// the points, 25 the bar) / 15; then the match scores (viewer, opponent) / the target; then
    /// whether the decision moves the opponent's checkers (the opening throw's winner moving
    /// them) and the game number inside the match / the target.
    fn observation_shape() -> Vec<usize> {
        vec![56]
    }

    fn observation(&self) -> Vec<f32> {
        let me = self.side_to_move();
        let (m, o) = (me.index(), me.opponent().index());
        let counts = self.board().counts();
        let mut x = Vec::with_capacity(56);
        for side in [m, o] {
            x.extend(counts[side].iter().map(|&n| f32::from(n) / 15.0));
        }
        let target = self.rules().target.max(1) as f32;
        let scores = self.scores();
        x.push(scores[m] as f32 / target);
        x.push(scores[o] as f32 / target);
        let moves_opponent = matches!(self.to_act(), ToAct::Decision(_)) && self.moving_side() != m;
        x.push(if moves_opponent { 1.0 } else { 0.0 });
        x.push(self.game_number() as f32 / target);
        x
    }

    fn viewer(&self) -> Player {
        self.side_to_move()
    }
}

/// The legal lists the environment offers in full for Bargese: a turn of many throws can have
/// more results (the bench's first 100 random games reach 8,911); beyond this many, the actions
/// past the first 65,536 of the game's order are masked out.
const BARGESE_MAX_ACTIONS: usize = 65_536;

impl PyGame for Bargese {
    const ACTION_IDS_FIXED: bool = false;
    const NUM_DISTINCT_ACTIONS: usize = BARGESE_MAX_ACTIONS;

    /// 179 values from the view of the player to act (or to throw): for the viewer, then the
    /// opponent, the pieces on each of the 85 position codes of that player's own track
    /// (0 to 82 the track, 83 the kitchen, 84 off the board) / 4; then the throws of the turn not
    /// yet played, counted by mouths up (0 to 6), each count / 4; then whether the viewer is to
    /// play the throws, and whether the opening (the shells, or the throws before the first dust
    /// or bange) is still on.
    fn observation_shape() -> Vec<usize> {
        vec![179]
    }

    fn observation(&self) -> Vec<f32> {
        let me = self.viewer();
        let mut x = vec![0.0f32; 179];
        for (k, p) in [me, me.opponent()].into_iter().enumerate() {
            for code in self.pieces(p) {
                debug_assert!(code <= OFF && (code <= KITCHEN || code == OFF));
                x[85 * k + usize::from(code)] += 0.25;
            }
        }
        for (kind, &n) in self.throws().iter().enumerate() {
            x[170 + kind] = f32::from(n) / 4.0;
        }
        x[177] = if matches!(self.stage(), Stage::Moving(_)) {
            1.0
        } else {
            0.0
        };
        x[178] = if matches!(
            self.stage(),
            Stage::ShellsFirst | Stage::ShellsSecond(_) | Stage::Opening(_)
        ) {
            1.0
        } else {
            0.0
        };
        x
    }

    fn viewer(&self) -> Player {
        match self.stage() {
            Stage::ShellsFirst | Stage::Over(_) => Player::ONE,
            Stage::ShellsSecond(_) => Player::TWO,
            Stage::Opening(p) | Stage::Throwing(p) | Stage::Moving(p) => p,
        }
    }
}
