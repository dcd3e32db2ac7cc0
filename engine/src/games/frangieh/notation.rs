//! Text forms: the position notation (see the module documentation of `frangieh`) and the
//! board display.

use std::fmt;

use super::{Frangieh, FrangiehRules, Phase};
use crate::game::{Game, ParseError, Player};
use crate::games::tables::{self, Board, Roll};

pub(super) fn format_position(s: &Frangieh) -> String {
    let mut out = String::with_capacity(64);
    tables::format_side(&s.board, 0, &mut out);
    out.push('/');
    tables::format_side(&s.board, 1, &mut out);
    out.push(' ');
    out.push(if s.to_move == Player::ONE { '1' } else { '2' });
    out.push(' ');
    match s.phase {
        Phase::Opening => out.push_str("opening"),
        Phase::Roll => out.push_str("roll"),
        Phase::Play(r) => out.push_str(&format!("{}-{}", r.0, r.1)),
        Phase::Over => out.push_str("over"),
    }
    out.push(' ');
    out.push_str(&s.plies.to_string());
    out
}

pub(super) fn parse_position(text: &str, rules: &FrangiehRules) -> Result<Frangieh, ParseError> {
    let err = |reason: String| ParseError::Position {
        text: text.to_string(),
        reason,
    };
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 4 {
        return Err(err(format!(
            "expected 4 space-separated fields (board, turn, phase, plies), found {}",
            fields.len()
        )));
    }
    let (a, b) = fields[0]
        .split_once('/')
        .ok_or_else(|| err("the board needs player 1/player 2".into()))?;
    let mut n = [[0u8; 26]; 2];
    tables::parse_side(a, &mut n[0], true).map_err(&err)?;
    tables::parse_side(b, &mut n[1], true).map_err(&err)?;
    let to_move = match fields[1] {
        "1" => Player::ONE,
        "2" => Player::TWO,
        t => return Err(err(format!("turn '{t}' is not 1 or 2"))),
    };
    let phase = match fields[2] {
        "opening" => Phase::Opening,
        "roll" => Phase::Roll,
        "over" => Phase::Over,
        d => {
            let dice = d
                .split_once('-')
                .and_then(|(x, y)| Some((x.parse::<u8>().ok()?, y.parse::<u8>().ok()?)))
                .filter(|&(x, y)| (1..=6).contains(&y) && y <= x && x <= 6)
                .ok_or_else(|| {
                    err(format!(
                        "phase '{d}' is not opening, roll, over or dice (larger first, 6-1)"
                    ))
                })?;
            Phase::Play(Roll(dice.0, dice.1))
        }
    };
    let plies = fields[3]
        .parse::<u32>()
        .map_err(|_| err(format!("plies '{}' is not a number", fields[3])))?;
    Frangieh::from_parts(*rules, Board::from_counts(n), to_move, phase, plies).map_err(err)
}

impl fmt::Display for Frangieh {
    /// The board from player one's side (`X`; player two is `O`), points in player one's
    /// numbering: 13 to 24 along the top, 12 down to 1 along the bottom; then the bar, the
    /// borne-off checkers, the pip counts and who is to act.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (points, bar, off) = self.board.to_view(0, self.params.direction);
        let cell = |p: usize| -> String {
            match points[p - 1] {
                0 => " . ".to_string(),
                v if v > 0 => format!("X{v:<2}"),
                v => format!("O{:<2}", -v),
            }
        };
        let row = |f: &mut fmt::Formatter<'_>, pts: &[usize]| -> fmt::Result {
            for (i, &p) in pts.iter().enumerate() {
                if i == 6 {
                    write!(f, "| ")?;
                }
                write!(f, "{:>3} ", p)?;
            }
            writeln!(f)
        };
        let top: Vec<usize> = (13..25).collect();
        let bottom: Vec<usize> = (1..13).rev().collect();
        row(f, &top)?;
        for (i, &p) in top.iter().enumerate() {
            if i == 6 {
                write!(f, "| ")?;
            }
            write!(f, "{} ", cell(p))?;
        }
        writeln!(f)?;
        for (i, &p) in bottom.iter().enumerate() {
            if i == 6 {
                write!(f, "| ")?;
            }
            write!(f, "{} ", cell(p))?;
        }
        writeln!(f)?;
        row(f, &bottom)?;
        writeln!(
            f,
            "bar X {} O {}   off X {} O {}   pips X {} O {}",
            bar[0],
            bar[1],
            off[0],
            off[1],
            self.board.pip_count(0),
            self.board.pip_count(1)
        )?;
        let who = if self.to_move == Player::ONE {
            "X"
        } else {
            "O"
        };
        match self.phase {
            Phase::Opening => write!(f, "opening roll due"),
            Phase::Roll => write!(f, "{who} to roll"),
            Phase::Play(r) => write!(f, "{who} to play {}-{}", r.0, r.1),
            Phase::Over => write!(f, "{who} has won ({})", self.win_type()),
        }?;
        if let Some(reason) = self.end_reason() {
            if reason == crate::game::EndReason::Truncated {
                write!(f, " (truncated at the ply cap)")?;
            }
        }
        Ok(())
    }
}
