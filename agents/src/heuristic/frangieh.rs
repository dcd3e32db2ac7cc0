//! Frangieh's evaluation: a race-and-safety score for the backgammon family.
//!
//! From `player`'s view, with `me`/`opp` the two sides (weights sum to 1):
//! - `+0.50` × pip-count lead ÷ 167 (the starting pip count), clamped to ±1;
//! - `+0.25` × (checkers borne off − opponent's) ÷ 15;
//! - `+0.15` × (opponent's checkers on the bar − own) ÷ 15;
//! - `−0.10` × (own blots − opponent's blots) ÷ 8 (a blot: a point with a single checker), clamped.
//!
//! Hand-set weights, not tuned; at a finished game the exact returns.

use cowrie_engine::games::frangieh::{Phase, Scoring};
use cowrie_engine::{Frangieh, FrangiehRules, Game, Player, ToAct};

use cowrie_engine::games::tables::TablesParams;

use crate::bearoff::Race;
use crate::td::encoding::Encoding;
use crate::td::frangieh as tesauro;
use crate::td::net::{Changes, Inputs};

use crate::evaluate::Evaluate;

fn blots(state: &Frangieh, side: usize) -> f64 {
    (1..=24)
        .filter(|&s| state.board().count(side, s) == 1)
        .count() as f64
}

impl Evaluate for Frangieh {
    fn evaluate(&self, player: Player) -> f64 {
        if let ToAct::Terminal(_) = self.to_act() {
            return self.returns()[player.index()];
        }
        let (me, opp) = (player.index(), player.opponent().index());
        let b = self.board();
        let race =
            ((f64::from(b.pip_count(opp)) - f64::from(b.pip_count(me))) / 167.0).clamp(-1.0, 1.0);
        let off = (f64::from(b.off(me)) - f64::from(b.off(opp))) / 15.0;
        let bar = (f64::from(b.bar(opp)) - f64::from(b.bar(me))) / 15.0;
        let blot = ((blots(self, me) - blots(self, opp)) / 8.0).clamp(-1.0, 1.0);
        0.5 * race + 0.25 * off + 0.15 * bar - 0.10 * blot
    }

    fn roll_text(&self) -> Option<String> {
        match self.phase() {
            Phase::Play(r) => Some(format!("{}-{}", r.0, r.1)),
            _ => None,
        }
    }

    fn td_encoding(rules: &FrangiehRules) -> Option<Encoding> {
        Some(Encoding {
            name: tesauro::NAME,
            inputs: tesauro::INPUTS,
            outputs: match rules.scoring {
                Scoring::Single => 1,
                Scoring::Gammons => 5,
            },
        })
    }

    fn td_inputs(&self, inputs: &mut Inputs) -> Option<Player> {
        Some(tesauro::encode(self, inputs))
    }

    fn td_changes(&self, reference: &Self, changes: &mut Changes) -> Option<Player> {
        tesauro::changes(reference, self, changes)
    }

    fn bearoff_rules(rules: &FrangiehRules) -> Option<TablesParams> {
        Some(rules.tables())
    }

    fn bearoff_race(&self) -> Option<Race> {
        if self.phase() != Phase::Roll {
            return None;
        }
        let gammons = self.rules().scoring == Scoring::Gammons;
        Race::on_board(self.board(), self.side_to_move(), self.params(), gammons)
    }
}
