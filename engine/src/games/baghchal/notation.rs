//! Text forms: the position notation, actions, and the board display.
//!
//! Position: five ranks from rank 5 down to rank 1 separated by `/`, each five characters
//! `G` (goat), `T` (tiger) or `.` (empty) from file a to e; then the side to move (`g` or `t`),
//! goats in hand, goats captured and plies played, separated by single spaces. The start:
//! `T...T/...../...../...../T...T g 20 0 0`. Repetition history is not part of the notation
//! (as the halfmove history is not part of chess FEN).
//!
//! Actions: a placement is the point (`c3`), a step `from-to` (`a1-b2`), a jump `fromxto`
//! (`a1xc3`), a pass `pass`. Points are named file `a`..`e` (column 0..4), rank `1`..`5`
//! (row 0..4).

use std::fmt;

use super::board::{parse_point, point_name, Bitboard, STEPS};
use super::{Baghchal, BaghchalAction, BaghchalRules, GOATS, TIGERS};
use crate::game::ParseError;

pub(super) fn format_position(s: &Baghchal) -> String {
    let mut out = String::with_capacity(40);
    for rank in (0..5).rev() {
        for file in 0..5 {
            let p = rank * 5 + file;
            out.push(if s.goats >> p & 1 == 1 {
                'G'
            } else if s.tigers >> p & 1 == 1 {
                'T'
            } else {
                '.'
            });
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let side = if s.to_move == GOATS { 'g' } else { 't' };
    out.push_str(&format!(" {side} {} {} {}", s.in_hand, s.captured, s.plies));
    out
}

pub(super) fn parse_position(text: &str, rules: &BaghchalRules) -> Result<Baghchal, ParseError> {
    let err = |reason: String| ParseError::Position {
        text: text.to_string(),
        reason,
    };
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 5 {
        return Err(err(format!(
            "expected 5 space-separated fields (board, side, in hand, captured, plies), found {}",
            fields.len()
        )));
    }
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 5 {
        return Err(err(format!("expected 5 ranks, found {}", ranks.len())));
    }
    let (mut goats, mut tigers): (Bitboard, Bitboard) = (0, 0);
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 4 - i;
        if rank_text.len() != 5 {
            return Err(err(format!("rank {} is not 5 points", rank + 1)));
        }
        for (file, c) in rank_text.chars().enumerate() {
            let bit = 1 << (rank * 5 + file);
            match c {
                'G' => goats |= bit,
                'T' => tigers |= bit,
                '.' => {}
                _ => return Err(err(format!("unexpected '{c}' on the board"))),
            }
        }
    }
    let to_move = match fields[1] {
        "g" => GOATS,
        "t" => TIGERS,
        other => return Err(err(format!("side to move '{other}' is not g or t"))),
    };
    let num = |name: &str, f: &str| {
        f.parse::<u32>()
            .map_err(|_| err(format!("{name} '{f}' is not a number")))
    };
    let in_hand = num("goats in hand", fields[2])?;
    let captured = num("goats captured", fields[3])?;
    let plies = num("plies", fields[4])?;
    if in_hand > 20 || captured > 20 {
        return Err(err("more than twenty goats in hand or captured".into()));
    }
    Baghchal::from_parts(
        *rules,
        goats,
        tigers,
        in_hand as u8,
        captured as u8,
        to_move,
        plies,
    )
    .map_err(err)
}

pub(super) fn format_action(a: BaghchalAction) -> String {
    match a {
        BaghchalAction::Place(p) => point_name(p),
        BaghchalAction::Step { from, to } => format!("{}-{}", point_name(from), point_name(to)),
        BaghchalAction::Jump { from, to } => format!("{}x{}", point_name(from), point_name(to)),
        BaghchalAction::Pass => "pass".to_string(),
    }
}

pub(super) fn parse_action(text: &str) -> Result<BaghchalAction, ParseError> {
    let err = |reason: &str| ParseError::Action {
        text: text.to_string(),
        reason: reason.to_string(),
    };
    if text == "pass" {
        return Ok(BaghchalAction::Pass);
    }
    let point = |s: &str| parse_point(s).ok_or_else(|| err("points are a1..e5"));
    if text.len() == 2 {
        return Ok(BaghchalAction::Place(point(text)?));
    }
    if text.len() == 5 && text.is_char_boundary(2) && text.is_char_boundary(3) {
        let (from, to) = (point(&text[..2])?, point(&text[3..])?);
        return match &text[2..3] {
            "-" if STEPS[from as usize] & (1 << to) != 0 => Ok(BaghchalAction::Step { from, to }),
            "-" => Err(err("a step joins adjacent points on a line")),
            "x" => {
                let (fr, fc, tr, tc) = (from / 5, from % 5, to / 5, to % 5);
                let straight = (fr.abs_diff(tr), fc.abs_diff(tc));
                if matches!(straight, (0, 2) | (2, 0) | (2, 2)) {
                    Ok(BaghchalAction::Jump { from, to })
                } else {
                    Err(err("a jump lands two points away along a line"))
                }
            }
            _ => Err(err("expected '-' (step) or 'x' (jump) between the points")),
        };
    }
    Err(err(
        "expected a point (c3), a step (a1-b2), a jump (a1xc3) or pass",
    ))
}

impl fmt::Display for Baghchal {
    /// The board as a drawing, rank 5 at the top, with the alquerque lines, then a status line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..5).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..5 {
                let p = rank * 5 + file;
                let c = if self.goats >> p & 1 == 1 {
                    'G'
                } else if self.tigers >> p & 1 == 1 {
                    'T'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
                if file < 4 {
                    write!(f, "---")?;
                }
            }
            writeln!(f)?;
            if rank > 0 {
                write!(f, "  ")?;
                for file in 0..5 {
                    write!(f, "|")?;
                    if file < 4 {
                        // Between ranks `rank` and `rank - 1`: the diagonal of this cell runs
                        // through the corner whose row + column is even.
                        let lower = rank - 1;
                        let slash = if (lower + file) % 2 == 0 { '/' } else { '\\' };
                        write!(f, " {slash} ")?;
                    }
                }
                writeln!(f)?;
            }
        }
        writeln!(f, "  a   b   c   d   e")?;
        write!(
            f,
            "{} to move; goats in hand {}, captured {}; ply {}",
            if self.to_move == GOATS {
                "goats"
            } else {
                "tigers"
            },
            self.in_hand,
            self.captured,
            self.plies
        )
    }
}
