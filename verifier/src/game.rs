//! The rules of play on [`Cells`], from `docs/rules/baghchal.md`: placement while goats are in
//! hand, goat steps once all twenty are placed, tiger steps and single jumps in either phase,
//! the tigers' win by captures (`win-captures`), tigers without a move lose, goats without a
//! move lose or pass (`goats-blocked`).

use std::fmt;

use crate::board::{point_name, BoardText, Cell, Cells, Lines, POINTS};

/// The goats a game starts with, all in hand.
pub const TOTAL_GOATS: u8 = 20;

/// The rules a database is solved under (what decides a position's value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The capture that wins for the tigers.
    pub win_captures: u8,
    /// Goats without a move pass (`goats-blocked=pass`) instead of losing.
    pub goats_pass: bool,
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let blocked = if self.goats_pass { "pass" } else { "lose" };
        write!(
            f,
            "win-captures={},goats-blocked={blocked}",
            self.win_captures
        )
    }
}

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The goats (who move first).
    Goats,
    /// The tigers.
    Tigers,
}

impl Side {
    /// The other side.
    #[must_use]
    pub fn other(self) -> Side {
        match self {
            Side::Goats => Side::Tigers,
            Side::Tigers => Side::Goats,
        }
    }

    /// `goats` or `tigers`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Side::Goats => "goats",
            Side::Tigers => "tigers",
        }
    }
}

/// A position: the board, the side to move, the goats in hand and those captured (with the
/// goats on the board, twenty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The board.
    pub cells: Cells,
    /// The side to move.
    pub side: Side,
    /// Goats not yet placed.
    pub in_hand: u8,
    /// Goats captured.
    pub captured: u8,
}

/// A move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// A goat from hand onto the point.
    Place(usize),
    /// A piece to an adjacent empty point along a line.
    Step(usize, usize),
    /// A tiger over the goat on the adjacent point to the empty point behind it.
    Jump(usize, usize),
    /// Goats without a move, under `goats-blocked=pass`.
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Place(p) => write!(f, "{}", point_name(p)),
            Move::Step(a, b) => write!(f, "{}-{}", point_name(a), point_name(b)),
            Move::Jump(a, b) => write!(f, "{}x{}", point_name(a), point_name(b)),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// How a position stands by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game is over: this side has won.
    Won(Side),
    /// The side to move has a move (a pass counts).
    Moves,
}

impl Position {
    /// The goats on the board: those neither in hand nor captured.
    #[must_use]
    #[inline]
    pub fn goats_on_board(&self) -> u8 {
        TOTAL_GOATS - self.in_hand - self.captured
    }

    /// Goats placed so far.
    #[must_use]
    pub fn placed(&self) -> u8 {
        TOTAL_GOATS - self.in_hand
    }

    /// Whether the goats are still placing.
    #[must_use]
    pub fn is_placement(&self) -> bool {
        self.in_hand > 0
    }

    /// Calls `f` with each move and the position after it, in no particular order: placements
    /// while goats are in hand; goat steps once all are placed (and a pass if there is none,
    /// under `goats-blocked=pass`); tiger steps and jumps. A position won by captures has no
    /// moves. Returns the number of moves.
    pub fn for_each_child(
        &self,
        rules: &Rules,
        lines: &Lines,
        mut f: impl FnMut(Move, &Position),
    ) -> usize {
        if self.captured >= rules.win_captures {
            return 0;
        }
        let mut n = 0;
        let mut child = *self;
        child.side = self.side.other();
        match self.side {
            Side::Goats if self.in_hand > 0 => {
                child.in_hand -= 1;
                for p in 0..POINTS {
                    if self.cells[p] == Cell::Empty {
                        child.cells[p] = Cell::Goat;
                        f(Move::Place(p), &child);
                        child.cells[p] = Cell::Empty;
                        n += 1;
                    }
                }
            }
            Side::Goats => {
                n += steps(&mut child, Cell::Goat, lines, &mut f);
                if n == 0 && rules.goats_pass {
                    f(Move::Pass, &child);
                    n += 1;
                }
            }
            Side::Tigers => {
                n += steps(&mut child, Cell::Tiger, lines, &mut f);
                child.captured += 1;
                for from in 0..POINTS {
                    if self.cells[from] != Cell::Tiger {
                        continue;
                    }
                    for &(over, to) in &lines.jumps[from] {
                        if self.cells[over] == Cell::Goat && self.cells[to] == Cell::Empty {
                            child.cells[from] = Cell::Empty;
                            child.cells[over] = Cell::Empty;
                            child.cells[to] = Cell::Tiger;
                            f(Move::Jump(from, to), &child);
                            child.cells = self.cells;
                            n += 1;
                        }
                    }
                }
            }
        }
        n
    }

    /// The position's standing: won by the tigers once the winning capture is made; else lost
    /// for a side to move without a move (a pass is a move).
    #[must_use]
    pub fn status(&self, rules: &Rules, lines: &Lines) -> Status {
        if self.captured >= rules.win_captures {
            return Status::Won(Side::Tigers);
        }
        if self.for_each_child(rules, lines, |_, _| {}) == 0 {
            return Status::Won(self.side.other());
        }
        Status::Moves
    }

    /// The fewest plies that reach the position: each goat placed follows a tiger ply (the
    /// first excepted), and after the last placement the tigers move first.
    #[must_use]
    pub fn least_plies(&self) -> u32 {
        let placed = u32::from(self.placed());
        match self.side {
            Side::Goats => 2 * placed,
            Side::Tigers => 2 * placed - 1,
        }
    }
}

/// Moves every piece of `kind` to each empty neighbour in `child` (whose board is the parent's
/// and is restored after each move), calling `f`; returns the number of moves.
fn steps(
    child: &mut Position,
    kind: Cell,
    lines: &Lines,
    f: &mut impl FnMut(Move, &Position),
) -> usize {
    let mut n = 0;
    for from in 0..POINTS {
        if child.cells[from] != kind {
            continue;
        }
        for &to in &lines.next[from] {
            if child.cells[to] == Cell::Empty {
                child.cells[from] = Cell::Empty;
                child.cells[to] = kind;
                f(Move::Step(from, to), child);
                child.cells[to] = Cell::Empty;
                child.cells[from] = kind;
                n += 1;
            }
        }
    }
    n
}

impl fmt::Display for Position {
    /// The position text form (`cowrie probe --position`): the board, the side (`g`/`t`), goats
    /// in hand, goats captured and the fewest plies that reach it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.side {
            Side::Goats => 'g',
            Side::Tigers => 't',
        };
        write!(
            f,
            "{} {side} {} {} {}",
            BoardText(&self.cells),
            self.in_hand,
            self.captured,
            self.least_plies()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(text: &str, side: Side, in_hand: u8, captured: u8) -> Position {
        let mut cells = [Cell::Empty; POINTS];
        for (i, rank) in text.split('/').enumerate() {
            for (col, ch) in rank.chars().enumerate() {
                cells[(4 - i) * 5 + col] = match ch {
                    'G' => Cell::Goat,
                    'T' => Cell::Tiger,
                    _ => Cell::Empty,
                };
            }
        }
        Position {
            cells,
            side,
            in_hand,
            captured,
        }
    }

    const FIVE: Rules = Rules {
        win_captures: 5,
        goats_pass: false,
    };

    #[test]
    fn the_start_has_21_placements_and_the_winning_capture_ends_the_game() {
        let lines = Lines::new();
        let start = position("T...T/...../...../...../T...T", Side::Goats, 20, 0);
        assert_eq!(start.for_each_child(&FIVE, &lines, |_, _| {}), 21);
        assert_eq!(start.to_string(), "T...T/...../...../...../T...T g 20 0 0");
        // A tiger on a1 jumps the goat on b2 to c3: with four captured, the fifth wins.
        let p = position("....T/...../...../.G.../T...T", Side::Tigers, 0, 4);
        let mut won = 0;
        p.for_each_child(&FIVE, &lines, |mv, c| {
            if mv == Move::Jump(0, 12) {
                assert_eq!(c.status(&FIVE, &lines), Status::Won(Side::Tigers));
                won += 1;
            }
        });
        assert_eq!(won, 1);
    }

    #[test]
    fn blocked_goats_lose_or_pass_and_blocked_tigers_lose() {
        let lines = Lines::new();
        // Tigers on the corners hemmed in by goats, the one empty point (b3) out of their reach.
        let hemmed = position("TGGGT/GGGGG/G.GGG/GGGGG/TGGGT", Side::Tigers, 0, 0);
        assert_eq!(hemmed.status(&FIVE, &lines), Status::Won(Side::Goats));
        // The one empty point, a1, has tigers on all its neighbours (a2, b1, b2).
        let stuck = position("GGGGT/GGGGG/GGGGG/TTGGG/.TGGG", Side::Goats, 0, 0);
        assert_eq!(stuck.status(&FIVE, &lines), Status::Won(Side::Tigers));
        let pass = Rules {
            goats_pass: true,
            ..FIVE
        };
        assert_eq!(stuck.status(&pass, &lines), Status::Moves);
        let mut moves = Vec::new();
        stuck.for_each_child(&pass, &lines, |mv, c| moves.push((mv, c.side)));
        assert_eq!(moves, vec![(Move::Pass, Side::Tigers)]);
    }
}
