//! Julbahar's diagram: the tables board with both players' tracks as docs/rules/julbahar.md
//! draws them (player one, X, starts on the south-east corner and bears off from the
//! north-east quadrant; player two, O, the other way round), numbered along each track from
//! 1, the dice, and the match score.

use cowrie_engine::julbahar::{Phase, Unit};
use cowrie_engine::{Game, Julbahar, ToAct};

use super::frangieh::name;
use super::tables::{self, TablesView};
use super::Draw;

impl Draw for Julbahar {
    fn diagram(&self) -> String {
        let b = self.board();
        let parts = self.parts();
        let mover = name(self.side_to_move());
        let other = name(self.side_to_move().opponent());
        let (dice, dice_label, turn) = match self.phase() {
            Phase::Opening => (
                None,
                "opening throw due".to_string(),
                "Each player throws two dice: the higher throw (doubles first) starts".to_string(),
            ),
            Phase::OpeningPlay(r) => (
                Some((r.0, r.1)),
                format!("{mover} plays {other}'s checkers {}-{}", r.0, r.1),
                format!(
                    "{mover} won the opening throw with {}-{} and moves {other}'s checkers by it",
                    r.0, r.1
                ),
            ),
            Phase::Roll => tables::turn_words(&mover, None),
            Phase::Play(r) => tables::turn_words(&mover, Some(r)),
            Phase::Over => (None, String::new(), String::new()),
        };
        let rules = self.rules();
        let [s1, s2] = self.scores();
        let mut panel = vec![
            match self.to_act() {
                ToAct::Terminal(reason) => format!(
                    "{} over: {}",
                    if rules.unit == Unit::Match {
                        "Match"
                    } else {
                        "Game"
                    },
                    super::ending(reason, name)
                ),
                _ => turn,
            },
            format!(
                "Match score (to {}): X {s1}, O {s2}; game {}, scored in it: X {}, O {}",
                rules.target,
                self.game_number(),
                parts.game_points[0],
                parts.game_points[1]
            ),
            format!(
                "Borne off: X {}, O {}; plies played in the match: {}, in this game: {}",
                b.off(0),
                b.off(1),
                self.plies(),
                parts.game_plies
            ),
        ];
        for g in self.game_log() {
            panel.push(format!(
                "Game {}: {}, X scored {}, O {}",
                g.game,
                g.bore_off.map_or("unfinished".to_string(), |p| format!(
                    "{} bore off first",
                    name(p)
                )),
                g.points[0],
                g.points[1]
            ));
        }
        let desc = format!(
            "Julbahar: {}; position {}",
            panel.join("; "),
            self.notation()
        );
        tables::diagram(&TablesView {
            title: "Julbahar",
            board: b,
            swap_rows: true,
            // Numbers along each side's track from 1: X's track point is 25 minus its tables
            // point; O's is X's tables point.
            number: |side, p| if side == 0 { 25 - p } else { p },
            names: [
                "X: player one (seat 1), south, light, moves 1 \u{2192} 24 from bottom right"
                    .to_string(),
                "O: player two (seat 2), north, dark, moves 1 \u{2192} 24 from top right"
                    .to_string(),
            ],
            dice,
            dice_label,
            panel,
            desc,
        })
    }
}
