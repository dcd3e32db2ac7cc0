//! Frangieh's diagram: the tables board in backgammon's usual picture (player one, X, sits
//! south with its home board bottom right), the dice to play or the opening throw, the pip
//! counts, and the result.

use cowrie_engine::frangieh::Phase;
use cowrie_engine::{Frangieh, Game, Player, ToAct};

use super::tables::{self, TablesView};
use super::Draw;

/// The side's name as the panels write it.
pub(crate) fn name(p: Player) -> String {
    if p == Player::ONE { "X" } else { "O" }.to_string()
}

impl Draw for Frangieh {
    fn diagram(&self) -> String {
        let b = self.board();
        let mover = name(self.side_to_move());
        let (dice, dice_label, turn) = match self.phase() {
            Phase::Opening => (
                None,
                "opening roll due".to_string(),
                "Each player rolls one die to decide who starts".to_string(),
            ),
            Phase::Roll => tables::turn_words(&mover, None),
            Phase::Play(r) => tables::turn_words(&mover, Some(r)),
            Phase::Over => (None, String::new(), String::new()),
        };
        let mut panel = Vec::new();
        match self.to_act() {
            ToAct::Terminal(reason) => panel.push(format!(
                "Game over: {} ({}, {} point{})",
                super::ending(reason, name),
                self.win_type(),
                self.points(),
                if self.points() == 1 { "" } else { "s" }
            )),
            _ => panel.push(turn),
        }
        if let Some((a, o)) = self.opening_dice() {
            panel.push(format!("Opening throw: X rolled {a}, O rolled {o}"));
        }
        panel.push(format!(
            "Pips to go: X {}, O {}; borne off: X {}, O {}; on the bar: X {}, O {}",
            b.pip_count(0),
            b.pip_count(1),
            b.off(0),
            b.off(1),
            b.bar(0),
            b.bar(1)
        ));
        panel.push(format!("Plies played: {}", self.plies()));
        let desc = format!(
            "Frangieh: {}; position {}",
            panel.join("; "),
            self.notation()
        );
        tables::diagram(&TablesView {
            title: "Frangieh",
            board: b,
            swap_rows: false,
            number: |side, p| if side == 0 { p } else { 25 - p },
            names: [
                "X: player one (seat 1), south, light, moves 24 \u{2192} 1".to_string(),
                "O: player two (seat 2), north, dark, moves 24 \u{2192} 1".to_string(),
            ],
            dice,
            dice_label,
            panel,
            desc,
        })
    }
}
