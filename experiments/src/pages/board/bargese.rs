//! Bargese's diagram: the cross of four 3 x 8 arms round the kitchen (docs/rules/bargese.md,
//! Finkel 2002) with its X squares and the two bange squares marked, the pieces on the track
//! (lying on their side in their own central row, the dodo pointing at the kitchen), the
//! pieces in the kitchen, those off the board beside each player's arm, the throws still to
//! play, and the stage of the turn. Player one sits south, player two north.

use cowrie_engine::bargese::{
    coord, is_x, on_cross, OuterEnd, Stage, Throw, DODO, HOME_ROW_START, KITCHEN, OFF,
    OUTER_END_HOME,
};
use cowrie_engine::{Bargese, Game, Player};
use svg::node::element::Group;

use super::draw::{
    self, centred, circle, ellipse, group, line, lines, polygon, rect, text, Anchor, FAINT, INK,
};
use super::Draw;

const CELL: f64 = 34.0;
const X0: f64 = 30.0;
const Y0: f64 = 70.0;
const GRID: f64 = 19.0 * CELL;
const WIDTH: f64 = GRID + 2.0 * X0;
const FILL: [&str; 2] = ["#c0392b", "#1f5fa8"];
const TINT: [&str; 2] = ["#f6dcd8", "#d9e5f4"];

fn name(p: Player) -> &'static str {
    if p == Player::ONE {
        "South"
    } else {
        "North"
    }
}

/// The top-left corner of grid square `(x, y)` (y north, so row 18 is at the top).
fn corner(x: u8, y: u8) -> (f64, f64) {
    (X0 + CELL * f64::from(x), Y0 + CELL * f64::from(18 - y))
}

fn centre(x: u8, y: u8) -> (f64, f64) {
    let (a, b) = corner(x, y);
    (a + CELL / 2.0, b + CELL / 2.0)
}

/// A piece standing at `(x, y)`, with `count` written on it when more than one.
fn standing(x: f64, y: f64, player: Player, count: usize) -> Group {
    let mut g = group(
        if player == Player::ONE {
            "piece p1"
        } else {
            "piece p2"
        },
        &format!("{count} {} piece(s) standing", name(player)),
    )
    .add(circle(x, y, 11.0, FILL[player.index()], INK));
    if count > 1 {
        g = g.add(
            centred(x, y, 13.0, &count.to_string())
                .set("fill", "#ffffff")
                .set("font-weight", "bold"),
        );
    }
    g
}

/// A piece lying on its side along its central row (`vertical` for the south and north
/// arms); a dodo also points at the kitchen, in direction `(dx, dy)`.
fn lying(x: f64, y: f64, player: Player, count: usize, dodo: Option<(f64, f64)>) -> Group {
    let what = if dodo.is_some() {
        "the dodo, lying, pointing at the kitchen"
    } else {
        "lying on its side"
    };
    let mut g = group(
        if player == Player::ONE {
            "piece p1 lying"
        } else {
            "piece p2 lying"
        },
        &format!("{count} {} piece(s), {what}", name(player)),
    )
    .add(match dodo {
        Some((dx, dy)) => ellipse(
            x - dx * 3.0,
            y - dy * 3.0,
            6.5,
            11.0,
            0.0,
            FILL[player.index()],
            INK,
        ),
        None => ellipse(x, y, 6.5, 14.0, 0.0, FILL[player.index()], INK),
    });
    if let Some((dx, dy)) = dodo {
        // An arrowhead from the piece's top towards the kitchen.
        let (tx, ty) = (x + dx * 17.0, y + dy * 17.0);
        let (bx, by) = (x + dx * 8.0, y + dy * 8.0);
        g = g.add(polygon(
            &[
                (tx, ty),
                (bx - dy * 7.0, by + dx * 7.0),
                (bx + dy * 7.0, by - dx * 7.0),
            ],
            INK,
            INK,
        ));
    }
    if count > 1 {
        g = g.add(
            centred(x, y, 12.0, &count.to_string())
                .set("fill", "#ffffff")
                .set("font-weight", "bold"),
        );
    }
    g
}

/// The board: every cross square, the X and bange marks, the central rows tinted for their
/// owners, and the kitchen; `bange` is the bange square's track index (`bange-square`).
fn cross(bange: u8) -> Group {
    let bange_squares = [coord(Player::ONE, bange), coord(Player::TWO, bange)];
    let mut g = group("cross", "the cross-shaped board");
    for y in 0..19u8 {
        for x in 0..19u8 {
            if !on_cross((x, y)) {
                continue;
            }
            let (a, b) = corner(x, y);
            let fill = if x == 9 && y < 8 {
                TINT[0]
            } else if x == 9 && y > 10 {
                TINT[1]
            } else if y == 9 {
                "#eeeeee"
            } else {
                "#fffdf6"
            };
            g = g.add(rect(a, b, CELL, CELL, fill, INK).set("stroke-width", 1));
            if is_x((x, y)) {
                g = g.add(
                    group("x-square", "an X square: safe")
                        .add(line(
                            a + 6.0,
                            b + 6.0,
                            a + CELL - 6.0,
                            b + CELL - 6.0,
                            INK,
                            2.5,
                        ))
                        .add(line(
                            a + CELL - 6.0,
                            b + 6.0,
                            a + 6.0,
                            b + CELL - 6.0,
                            INK,
                            2.5,
                        )),
                );
            }
            if bange_squares.contains(&(x, y)) {
                g = g.add(group("bange", "a bange square").add(line(
                    a + 5.0,
                    b + 5.0,
                    a + CELL - 5.0,
                    b + CELL - 5.0,
                    "#7a4a00",
                    4.0,
                )));
            }
        }
    }
    let (a, b) = corner(8, 10);
    g.add(
        rect(a, b, 3.0 * CELL, 3.0 * CELL, "#f3e3b5", INK)
            .set("stroke-width", 2)
            .set("class", "kitchen"),
    )
}

fn stage_words(s: &Bargese) -> Vec<String> {
    match s.stage() {
        Stage::ShellsFirst => {
            vec!["Opening: South throws three shells (more mouths up starts)".into()]
        }
        Stage::ShellsSecond(n) => vec![format!(
            "Opening: South threw {n} mouth(s) up with three shells; North throws"
        )],
        Stage::Opening(p) => vec![format!(
            "Opening: {} throws the six cowries; only a dust or a bange starts the game",
            name(p)
        )],
        Stage::Throwing(p) => vec![format!("{} is throwing", name(p))],
        Stage::Moving(p) => vec![format!("{} to play the throws", name(p))],
        Stage::Over(reason) => vec![format!(
            "Game over: {}",
            super::ending(reason, |p| name(p).to_string())
        )],
    }
}

impl Draw for Bargese {
    fn diagram(&self) -> String {
        let rules = self.rules();
        let lies_from = if rules.outer_end == OuterEnd::Home {
            OUTER_END_HOME
        } else {
            HOME_ROW_START
        };
        let mut status = stage_words(self);
        let throws = self.throws();
        let pending: Vec<String> = Throw::ALL
            .iter()
            .filter(|t| throws[t.mouths() as usize] > 0)
            .map(|t| {
                let n = throws[t.mouths() as usize];
                format!(
                    "{}{} ({} mouth{} up) = {}{}",
                    if n > 1 {
                        format!("{n} \u{d7} ")
                    } else {
                        String::new()
                    },
                    t.name(),
                    t.mouths(),
                    if t.mouths() == 1 { "" } else { "s" },
                    t.value(),
                    if t.has_hal() {
                        format!(", or the hal (1) and {}", t.value() - 1)
                    } else {
                        String::new()
                    }
                )
            })
            .collect();
        let words: Vec<String> = Player::BOTH
            .iter()
            .map(|&p| {
                format!(
                    "{}: {} in the kitchen, {} off the board; has hammered {} opposing piece(s)",
                    name(p),
                    self.in_kitchen(p),
                    self.pieces(p).iter().filter(|&&c| c == OFF).count(),
                    self.hammerings(p)
                )
            })
            .collect();
        status.extend(words);
        let opening = match (self.shells_winner(), self.first_entered()) {
            (Some(w), Some(e)) => format!(
                "; {} won the three-shell throw, {} entered a piece first",
                name(w),
                name(e)
            ),
            (Some(w), None) => format!("; {} won the three-shell throw", name(w)),
            (None, Some(e)) => format!("; {} entered a piece first", name(e)),
            (None, None) => String::new(),
        };
        status.push(format!("Plies played: {}{opening}", self.plies()));
        let desc = format!(
            "Bargese: {}; throws to play: {}; position {}",
            status.join("; "),
            if pending.is_empty() {
                "none".to_string()
            } else {
                pending.join(", ")
            },
            self.notation()
        );
        let mut doc = draw::document(WIDTH, Y0 + GRID + 140.0, "Bargese", &desc)
            .add(
                text(WIDTH / 2.0, 34.0, 22.0, Anchor::Middle, "Bargese").set("font-weight", "bold"),
            )
            .add(cross(self.rules().bange_square.track_index()));
        let (kx, ky) = centre(9, 9);
        doc = doc.add(centred(kx, ky - 26.0, 13.0, "kitchen"));
        for p in Player::BOTH {
            let pieces = self.pieces(p);
            let mut done = [false; 4];
            for i in 0..4 {
                let code = pieces[i];
                if done[i] || code >= KITCHEN {
                    continue;
                }
                let same: Vec<usize> = (i..4).filter(|&j| pieces[j] == code).collect();
                for &j in &same {
                    done[j] = true;
                }
                let (gx, gy) = coord(p, code);
                let (mut x, y) = centre(gx, gy);
                // Opposing pieces beside each other on one square stand side by side.
                let other = self.pieces(p.opponent());
                if other
                    .iter()
                    .any(|&c| c < KITCHEN && coord(p.opponent(), c) == (gx, gy))
                {
                    x += if p == Player::ONE { -8.0 } else { 8.0 };
                }
                let piece = if code >= lies_from {
                    let toward = if p == Player::ONE {
                        (0.0, -1.0)
                    } else {
                        (0.0, 1.0)
                    };
                    lying(x, y, p, same.len(), (code == DODO).then_some(toward))
                } else {
                    standing(x, y, p, same.len())
                };
                doc = doc.add(piece.set("data-track", code));
            }
            // The kitchen: player one's pieces in its south half, player two's in its north.
            let home = self.in_kitchen(p);
            for k in 0..home {
                let x = kx - 24.0 + 16.0 * k as f64;
                let y = if p == Player::ONE {
                    ky + 28.0
                } else {
                    ky - 6.0
                };
                doc = doc.add(
                    group(
                        "kitchen-piece",
                        &format!("a {} piece in the kitchen", name(p)),
                    )
                    .add(circle(x, y, 9.0, FILL[p.index()], INK)),
                );
            }
            // Off the board: beside the player's arm, in the empty corner to its left.
            let off = pieces.iter().filter(|&&c| c == OFF).count();
            let (bx, by) = if p == Player::ONE {
                corner(0, 7)
            } else {
                corner(11, 18)
            };
            let mut tray = group(
                "off-board",
                &format!("{} pieces off the board: {off}", name(p)),
            )
            .add(rect(
                bx + 8.0,
                by + 8.0,
                8.0 * CELL - 16.0,
                3.0 * CELL,
                "#f4f4f4",
                FAINT,
            ))
            .add(text(
                bx + 18.0,
                by + 30.0,
                14.0,
                Anchor::Start,
                &format!("{} off the board: {off}", name(p)),
            ));
            for k in 0..off {
                tray = tray.add(standing(bx + 34.0 + 30.0 * k as f64, by + 62.0, p, 1));
            }
            doc = doc.add(tray);
        }
        // The throws to play, in the south-east corner.
        let (tx, ty) = corner(11, 7);
        let mut panel = vec![if pending.is_empty() {
            "Throws to play: none".to_string()
        } else {
            "Throws to play:".to_string()
        }];
        // Each throw on its line, its hal reading on the next (the corner is narrow).
        for t in &pending {
            match t.split_once(", or ") {
                Some((value, hal)) => {
                    panel.extend([format!("  {value},"), format!("    or {hal}")])
                }
                None => panel.push(format!("  {t}")),
            }
        }
        doc = doc.add(group("throws", "the throws to play").add(lines(
            tx + 12.0,
            ty + 26.0,
            13.0,
            20.0,
            &panel,
        )));
        // The key, in the north-west corner.
        let (nx, ny) = corner(0, 18);
        let key = group("key", "the key")
            .add(circle(nx + 18.0, ny + 20.0, 8.0, FILL[0], INK))
            .add(text(
                nx + 32.0,
                ny + 25.0,
                13.0,
                Anchor::Start,
                "South: player one (seat 1)",
            ))
            .add(circle(nx + 18.0, ny + 44.0, 8.0, FILL[1], INK))
            .add(text(
                nx + 32.0,
                ny + 49.0,
                13.0,
                Anchor::Start,
                "North: player two (seat 2)",
            ))
            .add(ellipse(nx + 18.0, ny + 70.0, 4.5, 10.0, 0.0, FAINT, INK))
            .add(text(
                nx + 32.0,
                ny + 75.0,
                13.0,
                Anchor::Start,
                "lying: on the way home, safe",
            ))
            .add(text(
                nx + 8.0,
                ny + 99.0,
                13.0,
                Anchor::Start,
                "\u{2716} an X square: safe",
            ))
            .add(text(
                nx + 8.0,
                ny + 118.0,
                13.0,
                Anchor::Start,
                "\\ a bange square: South's in",
            ))
            .add(text(
                nx + 8.0,
                ny + 136.0,
                13.0,
                Anchor::Start,
                "the east arm, North's in the west",
            ))
            .add(text(
                nx + 8.0,
                ny + 155.0,
                13.0,
                Anchor::Start,
                "\u{25b2} a dodo, about to go home",
            ))
            .add(text(
                nx + 8.0,
                ny + 178.0,
                12.0,
                Anchor::Start,
                "Pieces enter next to the kitchen,",
            ))
            .add(text(
                nx + 8.0,
                ny + 194.0,
                12.0,
                Anchor::Start,
                "go down their own central row,",
            ))
            .add(text(
                nx + 8.0,
                ny + 210.0,
                12.0,
                Anchor::Start,
                "round the arms anticlockwise and",
            ))
            .add(text(
                nx + 8.0,
                ny + 226.0,
                12.0,
                Anchor::Start,
                "back up it to the kitchen.",
            ));
        doc = doc.add(key);
        let under = Y0 + GRID + 26.0;
        doc = doc.add(lines(X0, under, 14.0, 22.0, &status));
        doc.to_string()
    }
}
