//! Julbahar's evaluation: the match score and the race of the current game.
//!
//! From `player`'s view (weights sum to 1), with the match played to 31:
//! - `+0.6` × (own match points − opponent's) ÷ 31, clamped to ±1;
//! - `+0.3` × pip-count lead in the current game ÷ 360 (fifteen checkers × 24 points);
//! - `+0.1` × (own checkers borne off − opponent's) ÷ 15.
//!
//! Hand-set weights, not tuned; at a finished match the exact returns.

use cowrie_engine::games::julbahar::{Phase, Unit};
use cowrie_engine::{Game, Julbahar, JulbaharRules, Player, ToAct};

use cowrie_engine::games::tables::TablesParams;

use crate::bearoff::Race;
use crate::evaluate::Evaluate;
use crate::td::encoding::Encoding;
use crate::td::julbahar as tables;
use crate::td::net::Inputs;

impl Evaluate for Julbahar {
    fn evaluate(&self, player: Player) -> f64 {
        if let ToAct::Terminal(_) = self.to_act() {
            return self.returns()[player.index()];
        }
        let (me, opp) = (player.index(), player.opponent().index());
        let s = self.scores();
        let score = ((f64::from(s[me]) - f64::from(s[opp])) / 31.0).clamp(-1.0, 1.0);
        let b = self.board();
        let race = (f64::from(b.pip_count(opp)) - f64::from(b.pip_count(me))) / 360.0;
        let off = (f64::from(b.off(me)) - f64::from(b.off(opp))) / 15.0;
        0.6 * score + 0.3 * race + 0.1 * off
    }

    fn roll_text(&self) -> Option<String> {
        match self.phase() {
            Phase::Play(r) | Phase::OpeningPlay(r) => Some(format!("{}-{}", r.0, r.1)),
            _ => None,
        }
    }

    fn td_encoding(_rules: &JulbaharRules) -> Option<Encoding> {
        // Every unit is won or lost (one point): one output, the probability of winning it.
        Some(Encoding {
            name: tables::NAME,
            inputs: tables::INPUTS,
            outputs: 1,
        })
    }

    fn td_inputs(&self, inputs: &mut Inputs) -> Option<Player> {
        Some(tables::encode(self, inputs))
    }

    /// Only under `unit=game`: under `unit=match` the value at stake is the match, which the
    /// game's win probability alone does not give.
    fn bearoff_rules(rules: &JulbaharRules) -> Option<TablesParams> {
        Some(rules.tables())
    }

    fn bearoff_race(&self) -> Option<Race> {
        if self.phase() != Phase::Roll || self.rules().unit != Unit::Game {
            return None;
        }
        Race::on_board(self.board(), self.side_to_move(), self.params(), false)
    }
}
