//! The 24-point tables board that Frangieh and Julbahar share: points as triangles in two
//! rows of twelve with the bar between the halves, checkers stacked on their points, the bar,
//! a tray of borne-off checkers beside each side's home board, the dice, and panels of words.
//! Each point carries both players' numbers.

use cowrie_engine::tables::{Board, Roll, BAR, OFF};

use super::draw::{
    self, centred, circle, group, line, lines, polygon, rect, text, Anchor, FAINT, INK,
};

const LEFT: f64 = 40.0;
const TOP: f64 = 90.0;
const HALF: f64 = 6.0 * POINT;
const POINT: f64 = 55.0;
const BAR_W: f64 = 50.0;
const DEPTH: f64 = 400.0;
const TRI: f64 = 170.0;
const RADIUS: f64 = 21.0;
const TRAY_X: f64 = LEFT + 2.0 * HALF + BAR_W + 20.0;
const TRAY_W: f64 = 80.0;
const WIDTH: f64 = TRAY_X + TRAY_W + 30.0;
const FILL: [&str; 2] = ["#fbfbf7", "#3b2f2f"];
const LABEL: [&str; 2] = [INK, "#ffffff"];
const FELT: &str = "#e3d7b8";
const POINT_FILL: [&str; 2] = ["#b5523b", "#5b7c99"];

/// What a tables diagram shows beside the board.
pub struct TablesView<'a> {
    /// The game's name, the title.
    pub title: &'a str,
    /// The board (side 0 is player one, each side in its own tables numbering).
    pub board: &'a Board,
    /// Where player one's tables point `p` is: `false` puts points 1 to 12 on the bottom row
    /// from right to left and 13 to 24 on the top row from left to right (backgammon's usual
    /// picture, player one's home board bottom right); `true` swaps the rows, so player one
    /// starts bottom right and bears off top right (Julbahar's tracks).
    pub swap_rows: bool,
    /// The number written for each side at a point given as player one's tables point.
    pub number: fn(side: usize, p1_point: usize) -> usize,
    /// The two sides' names, as the panel writes them.
    pub names: [String; 2],
    /// The dice shown, with the words above them.
    pub dice: Option<(u8, u8)>,
    /// The words above the dice (who rolled them, what is due).
    pub dice_label: String,
    /// Lines of words under the board: whose turn, the score, the result.
    pub panel: Vec<String>,
    /// The description for `<desc>`.
    pub desc: String,
}

/// The dice, the words above them and the turn's words for `mover` with a roll due
/// (`None`) or `roll` to play.
#[must_use]
pub fn turn_words(mover: &str, roll: Option<Roll>) -> (Option<(u8, u8)>, String, String) {
    match roll {
        None => (
            None,
            format!("{mover} to roll"),
            format!("{mover} to roll the dice"),
        ),
        Some(r) => (
            Some((r.0, r.1)),
            format!("{mover} to play {}-{}", r.0, r.1),
            format!("{mover} to play the roll {}-{}", r.0, r.1),
        ),
    }
}

/// Column (0 to 11 from the left) and row (`true` top) of player one's tables point `p`.
fn place(p: usize, swap_rows: bool) -> (usize, bool) {
    let (col, top) = if p <= 12 {
        (12 - p, false)
    } else {
        (p - 13, true)
    };
    (col, top != swap_rows)
}

fn column_x(col: usize) -> f64 {
    let half = if col < 6 { 0.0 } else { HALF + BAR_W };
    LEFT + half + POINT * (col % 6) as f64 + POINT / 2.0
}

fn checker(
    x: f64,
    y: f64,
    radius: f64,
    side: usize,
    count: Option<u8>,
) -> svg::node::element::Group {
    let mut g = group(
        if side == 0 {
            "checker p1"
        } else {
            "checker p2"
        },
        "a checker",
    )
    .add(circle(x, y, radius, FILL[side], INK));
    if let Some(n) = count {
        g = g.add(
            centred(x, y, 17.0, &n.to_string())
                .set("fill", LABEL[side])
                .set("font-weight", "bold"),
        );
    }
    g
}

/// A stack of `n` checkers of `side` from `(x, y0)` towards the board's middle (`dir` +1
/// downwards, -1 upwards): at most five drawn, the last carrying the number when more.
fn stack(x: f64, y0: f64, dir: f64, n: u8, side: usize) -> svg::node::element::Group {
    let mut g = group("stack", &format!("{n} checkers"));
    let shown = n.min(5);
    for i in 0..shown {
        let y = y0 + dir * (RADIUS + 34.0 * f64::from(i));
        let label = (i + 1 == shown && n > 5).then_some(n);
        g = g.add(checker(x, y, RADIUS, side, label));
    }
    g
}

/// A die of `value` with its top-left corner at `(x, y)`.
fn die(x: f64, y: f64, value: u8) -> svg::node::element::Group {
    let s = 44.0;
    let mut g = group("die", &format!("a die showing {value}")).add(
        rect(x, y, s, s, "#ffffff", INK)
            .set("rx", 6)
            .set("stroke-width", 2),
    );
    let (a, b, c) = (x + s * 0.25, x + s * 0.5, x + s * 0.75);
    let (u, v, w) = (y + s * 0.25, y + s * 0.5, y + s * 0.75);
    let pips: &[(f64, f64)] = match value {
        1 => &[(b, v)],
        2 => &[(a, u), (c, w)],
        3 => &[(a, u), (b, v), (c, w)],
        4 => &[(a, u), (c, u), (a, w), (c, w)],
        5 => &[(a, u), (c, u), (b, v), (a, w), (c, w)],
        _ => &[(a, u), (c, u), (a, v), (c, v), (a, w), (c, w)],
    };
    for &(px, py) in pips {
        g = g.add(circle(px, py, 4.5, INK, INK));
    }
    g
}

/// Draws the board and its panels.
#[must_use]
pub fn diagram(v: &TablesView<'_>) -> String {
    let panel_top = TOP + DEPTH + 60.0;
    let height = panel_top + 26.0 * (v.panel.len() as f64 + 3.0) + 10.0;
    let mut doc = draw::document(WIDTH, height, v.title, &v.desc)
        .add(text(WIDTH / 2.0, 34.0, 22.0, Anchor::Middle, v.title).set("font-weight", "bold"));
    let mut board = group("board", "the tables board")
        .add(rect(LEFT, TOP, HALF, DEPTH, FELT, INK))
        .add(rect(LEFT + HALF + BAR_W, TOP, HALF, DEPTH, FELT, INK))
        .add(rect(LEFT + HALF, TOP, BAR_W, DEPTH, "#8b6b4a", INK))
        .add(
            centred(LEFT + HALF + BAR_W / 2.0, TOP + DEPTH / 2.0, 13.0, "bar")
                .set("fill", "#ffffff"),
        );
    for p in 1..=24 {
        let (col, top) = place(p, v.swap_rows);
        let x = column_x(col);
        let (base, tip, edge, far) = if top {
            (TOP, TOP + TRI, TOP - 10.0, TOP - 30.0)
        } else {
            (
                TOP + DEPTH,
                TOP + DEPTH - TRI,
                TOP + DEPTH + 22.0,
                TOP + DEPTH + 42.0,
            )
        };
        board = board
            .add(polygon(
                &[
                    (x - POINT / 2.0 + 2.0, base),
                    (x + POINT / 2.0 - 2.0, base),
                    (x, tip),
                ],
                POINT_FILL[col % 2],
                "none",
            ))
            .add(
                centred(x, edge - 5.0, 15.0, &(v.number)(0, p).to_string())
                    .set("font-weight", "bold"),
            )
            .add(centred(x, far - 5.0, 12.0, &(v.number)(1, p).to_string()).set("fill", FAINT));
    }
    doc = doc.add(board);
    // Checkers: player two's point q is player one's 25 - q.
    for side in 0..2 {
        for slot in 1..=24 {
            let n = v.board.count(side, slot);
            if n == 0 {
                continue;
            }
            let p1 = if side == 0 { slot } else { 25 - slot };
            let (col, top) = place(p1, v.swap_rows);
            let (y0, dir) = if top { (TOP, 1.0) } else { (TOP + DEPTH, -1.0) };
            doc = doc.add(stack(column_x(col), y0, dir, n, side).set("data-point", p1));
        }
        let bar = v.board.count(side, BAR);
        if bar > 0 {
            let x = LEFT + HALF + BAR_W / 2.0;
            let (y0, dir) = if side == 0 {
                (TOP + DEPTH / 2.0 + 14.0, 1.0)
            } else {
                (TOP + DEPTH / 2.0 - 14.0, -1.0)
            };
            doc = doc.add(
                stack(x, y0 - dir * RADIUS, dir, bar, side)
                    .set("class", "bar")
                    .set("data-what", format!("{bar} on the bar")),
            );
        }
    }
    // Trays: beside each side's home board (player one's points 1 to 6 are on the right).
    let p1_home_top = place(1, v.swap_rows).1;
    for side in 0..2 {
        let top = (side == 0) == p1_home_top;
        let y = if top { TOP } else { TOP + DEPTH / 2.0 + 10.0 };
        let h = DEPTH / 2.0 - 10.0;
        let off = v.board.count(side, OFF);
        let mut tray = group("tray", &format!("{} borne off: {off}", v.names[side]))
            .add(rect(TRAY_X, y, TRAY_W, h, "#d9ccb0", INK));
        for i in 0..off {
            let sy = if top {
                y + 6.0 + 9.0 * f64::from(i)
            } else {
                y + h - 14.0 - 9.0 * f64::from(i)
            };
            tray =
                tray.add(rect(TRAY_X + 8.0, sy, TRAY_W - 16.0, 8.0, FILL[side], INK).set("rx", 2));
        }
        let label_y = if top { y + h - 8.0 } else { y + 16.0 };
        tray = tray.add(text(
            TRAY_X + TRAY_W / 2.0,
            label_y,
            13.0,
            Anchor::Middle,
            &format!("{} off: {off}", ["X", "O"][side]),
        ));
        doc = doc.add(tray);
    }
    doc = doc.add(
        text(
            TRAY_X + TRAY_W / 2.0,
            TOP - 30.0,
            12.0,
            Anchor::Middle,
            "borne off",
        )
        .set("fill", FAINT),
    );
    // The dice under the board's right half, the words above them.
    let dx = LEFT + HALF + BAR_W + HALF;
    let dy = TOP + DEPTH + 128.0;
    if !v.dice_label.is_empty() {
        doc = doc
            .add(text(dx, dy - 10.0, 15.0, Anchor::End, &v.dice_label).set("font-weight", "bold"));
    }
    if let Some((a, b)) = v.dice {
        doc = doc.add(die(dx - 98.0, dy, a)).add(die(dx - 44.0, dy, b));
    }
    // The panel: a key to the checkers and numbers, then the position in words.
    let key_y = panel_top;
    doc = doc
        .add(checker(LEFT + 10.0, key_y - 5.0, 10.0, 0, None).set("class", "key"))
        .add(text(
            LEFT + 30.0,
            key_y,
            15.0,
            Anchor::Start,
            &format!("{} (bold numbers)", v.names[0]),
        ))
        .add(checker(LEFT + 10.0, key_y + 21.0, 10.0, 1, None).set("class", "key"))
        .add(text(
            LEFT + 30.0,
            key_y + 26.0,
            15.0,
            Anchor::Start,
            &format!("{} (grey numbers)", v.names[1]),
        ));
    doc = doc.add(line(
        LEFT,
        key_y + 40.0,
        TRAY_X + TRAY_W,
        key_y + 40.0,
        FAINT,
        1.0,
    ));
    doc = doc.add(lines(LEFT, key_y + 66.0, 15.0, 26.0, &v.panel));
    doc.to_string()
}
