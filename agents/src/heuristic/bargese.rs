//! Bargese's evaluation: progress along the track.
//!
//! A piece's progress is 0 off the board, `i + 1` on track square `i` (0..=82) and 84 in the
//! kitchen. From `player`'s view (weights sum to 1):
//! - `+0.8` × (own progress − opponent's) ÷ (4 × 84);
//! - `+0.2` × (own pieces in the kitchen − opponent's) ÷ 4.
//!
//! Hand-set weights, not tuned; at a finished game the exact returns.

use cowrie_engine::{Bargese, BargeseRules, Game, Player, ToAct};

use crate::evaluate::Evaluate;
use crate::td::bargese as tracks;
use crate::td::encoding::Encoding;
use crate::td::net::Inputs;

fn progress(state: &Bargese, player: Player) -> f64 {
    f64::from(tracks::progress(state.pieces(player)))
}

impl Evaluate for Bargese {
    fn evaluate(&self, player: Player) -> f64 {
        if let ToAct::Terminal(_) = self.to_act() {
            return self.returns()[player.index()];
        }
        let opp = player.opponent();
        let race = (progress(self, player) - progress(self, opp)) / (4.0 * 84.0);
        let kitchen = (self.in_kitchen(player) as f64 - self.in_kitchen(opp) as f64) / 4.0;
        0.8 * race + 0.2 * kitchen
    }

    fn td_encoding(_rules: &BargeseRules) -> Option<Encoding> {
        // A game is won or lost (one point): one output, the probability of winning.
        Some(Encoding {
            name: tracks::NAME,
            inputs: tracks::INPUTS,
            outputs: 1,
        })
    }

    fn td_inputs(&self, inputs: &mut Inputs) -> Option<Player> {
        Some(tracks::encode(self, inputs))
    }
}
