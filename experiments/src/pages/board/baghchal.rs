//! Baghchal's diagram: the 5x5 alquerque grid (diagonals through the points whose row and
//! column add up to an even number, docs/rules/baghchal.md), the tigers and goats on it, the
//! goats still in hand and those captured, and whose turn it is.

use cowrie_engine::baghchal::{GOATS, TOTAL_GOATS};
use cowrie_engine::{Baghchal, Game, Player, ToAct};

use super::draw::{self, centred, circle, group, line, lines, text, Anchor, FAINT, INK};
use super::Draw;

const STEP: f64 = 90.0;
const X0: f64 = 80.0;
const Y0: f64 = 90.0;
const WIDTH: f64 = 520.0;
const HEIGHT: f64 = 700.0;
const TIGER: &str = "#e8891c";
const GOAT: &str = "#f6f2e4";

/// The centre of point `p` (index `5 * row + col`, rank 1 at the bottom).
fn at(p: usize) -> (f64, f64) {
    let (row, col) = (p / 5, p % 5);
    (X0 + STEP * col as f64, Y0 + STEP * (4 - row) as f64)
}

fn side(p: Player) -> String {
    if p == GOATS {
        "the goats"
    } else {
        "the tigers"
    }
    .to_string()
}

fn token(x: f64, y: f64, radius: f64, tiger: bool) -> svg::node::element::Group {
    let (fill, label, class) = if tiger {
        (TIGER, "T", "tiger")
    } else {
        (GOAT, "G", "goat")
    };
    group(class, class)
        .add(circle(x, y, radius, fill, INK))
        .add(centred(x, y, radius, label).set("font-weight", "bold"))
}

impl Draw for Baghchal {
    fn diagram(&self) -> String {
        let status = match self.to_act() {
            ToAct::Terminal(reason) => format!(
                "Game over: {}{}",
                super::ending(reason, side),
                if self.captured() < self.rules().win_captures && reason.winner() == Some(GOATS) {
                    " (the tigers cannot move)"
                } else {
                    ""
                }
            ),
            _ => format!(
                "{} to move ({} phase)",
                if self.side_to_move() == GOATS {
                    "Goats"
                } else {
                    "Tigers"
                },
                if self.is_placement_phase() {
                    "placement"
                } else {
                    "movement"
                }
            ),
        };
        let goats = self.goats().count_ones();
        let desc = format!(
            "Baghchal: {} tigers and {goats} goats on the board, {} goats in hand, {} captured; {status}.",
            self.tigers().count_ones(),
            self.goats_in_hand(),
            self.captured()
        );
        let mut doc = draw::document(WIDTH, HEIGHT, "Baghchal", &desc).add(
            text(WIDTH / 2.0, 36.0, 22.0, Anchor::Middle, "Baghchal").set("font-weight", "bold"),
        );
        // The lines: orthogonal between neighbours, diagonals from even points.
        let mut grid = group("grid", "the alquerque grid");
        for p in 0..25 {
            let (x, y) = at(p);
            let (row, col) = (p / 5, p % 5);
            if col < 4 {
                let (x2, y2) = at(p + 1);
                grid = grid.add(line(x, y, x2, y2, INK, 2.0));
            }
            if row < 4 {
                let (x2, y2) = at(p + 5);
                grid = grid.add(line(x, y, x2, y2, INK, 2.0));
            }
            if (row + col) % 2 == 0 && row < 4 {
                if col < 4 {
                    let (x2, y2) = at(p + 6);
                    grid = grid.add(line(x, y, x2, y2, INK, 2.0));
                }
                if col > 0 {
                    let (x2, y2) = at(p + 4);
                    grid = grid.add(line(x, y, x2, y2, INK, 2.0));
                }
            }
        }
        for i in 0..5 {
            let (x, _) = at(i);
            let (_, y) = at(5 * i);
            let file = char::from(b'a' + i as u8).to_string();
            grid = grid
                .add(centred(x, Y0 + 4.0 * STEP + 40.0, 16.0, &file).set("fill", FAINT))
                .add(centred(X0 - 45.0, y, 16.0, &(i + 1).to_string()).set("fill", FAINT));
        }
        doc = doc.add(grid);
        for p in 0..25 {
            let (x, y) = at(p);
            if self.tigers() >> p & 1 == 1 {
                doc = doc.add(token(x, y, 26.0, true));
            } else if self.goats() >> p & 1 == 1 {
                doc = doc.add(token(x, y, 24.0, false));
            }
        }
        // Off the board: goats in hand, then captured goats.
        let y_hand = Y0 + 4.0 * STEP + 90.0;
        doc = doc.add(text(
            40.0,
            y_hand,
            16.0,
            Anchor::Start,
            &format!("Goats in hand: {} of {TOTAL_GOATS}", self.goats_in_hand()),
        ));
        let mut hand = group("in-hand", "goats in hand");
        for i in 0..self.goats_in_hand() {
            hand = hand.add(token(52.0 + 22.0 * f64::from(i), y_hand + 22.0, 9.0, false));
        }
        doc = doc.add(hand);
        let y_cap = y_hand + 62.0;
        doc = doc.add(text(
            40.0,
            y_cap,
            16.0,
            Anchor::Start,
            &format!(
                "Goats captured by the tigers: {} (the tigers win at {})",
                self.captured(),
                self.rules().win_captures
            ),
        ));
        let mut captured = group("captured", "goats captured");
        for i in 0..self.captured() {
            let x = 52.0 + 22.0 * f64::from(i);
            captured = captured.add(token(x, y_cap + 22.0, 9.0, false)).add(line(
                x - 9.0,
                y_cap + 13.0,
                x + 9.0,
                y_cap + 31.0,
                "#b00020",
                2.5,
            ));
        }
        doc = doc.add(captured);
        doc = doc.add(lines(
            40.0,
            y_cap + 72.0,
            16.0,
            22.0,
            &[status, format!("Plies played: {}", self.plies())],
        ));
        doc.to_string()
    }
}
