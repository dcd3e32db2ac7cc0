//! Text forms: the position notation (see the module documentation of `julbahar`) and the
//! board display.

use std::fmt;

use super::{Julbahar, JulbaharRules, Parts, Phase};
use crate::game::{Game, ParseError, Player};
use crate::games::tables::{self, Board, Roll};

fn seat(p: Option<Player>) -> char {
    match p {
        None => '0',
        Some(Player::ONE) => '1',
        Some(_) => '2',
    }
}

pub(super) fn format_position(s: &Julbahar) -> String {
    let mut out = String::with_capacity(80);
    tables::format_side(&s.board, 0, &mut out);
    out.push('/');
    tables::format_side(&s.board, 1, &mut out);
    out.push(' ');
    out.push(seat(Some(s.to_move)));
    out.push(' ');
    match s.phase {
        Phase::Opening => out.push_str("opening"),
        Phase::OpeningPlay(r) => out.push_str(&format!("opening:{}-{}", r.0, r.1)),
        Phase::Roll => out.push_str("roll"),
        Phase::Play(r) => out.push_str(&format!("{}-{}", r.0, r.1)),
        Phase::Over => out.push_str("over"),
    }
    out.push_str(&format!(
        " {} {}-{} {} {} {}-{} {} {} {}",
        s.plies,
        s.scores[0],
        s.scores[1],
        s.game,
        seat(s.starter),
        s.game_points[0],
        s.game_points[1],
        s.game_plies,
        s.game_turns,
        seat(s.last)
    ));
    out
}

fn parse_roll(d: &str) -> Option<Roll> {
    let (x, y) = d.split_once('-')?;
    let (x, y) = (x.parse::<u8>().ok()?, y.parse::<u8>().ok()?);
    ((1..=6).contains(&y) && y <= x && x <= 6).then_some(Roll(x, y))
}

fn parse_pair(t: &str) -> Option<[u32; 2]> {
    let (a, b) = t.split_once('-')?;
    Some([a.parse().ok()?, b.parse().ok()?])
}

fn parse_seat(t: &str, none: bool) -> Result<Option<Player>, String> {
    match t {
        "0" if none => Ok(None),
        "1" => Ok(Some(Player::ONE)),
        "2" => Ok(Some(Player::TWO)),
        _ => Err(format!("'{t}' is not a seat")),
    }
}

pub(super) fn parse_position(text: &str, rules: &JulbaharRules) -> Result<Julbahar, ParseError> {
    let err = |reason: String| ParseError::Position {
        text: text.to_string(),
        reason,
    };
    let f: Vec<&str> = text.split(' ').collect();
    if f.len() != 11 {
        return Err(err(format!(
            "expected 11 space-separated fields (board, turn, phase, plies, scores, game, \
             starter, game points, game plies, game turns, last), found {}",
            f.len()
        )));
    }
    let (a, b) = f[0]
        .split_once('/')
        .ok_or_else(|| err("the board needs player 1/player 2".into()))?;
    let mut n = [[0u8; 26]; 2];
    tables::parse_side(a, &mut n[0], false).map_err(&err)?;
    tables::parse_side(b, &mut n[1], false).map_err(&err)?;
    let to_move = parse_seat(f[1], false).map_err(&err)?.expect("not none");
    let phase = match f[2] {
        "opening" => Phase::Opening,
        "roll" => Phase::Roll,
        "over" => Phase::Over,
        d => match d.strip_prefix("opening:") {
            Some(r) => Phase::OpeningPlay(
                parse_roll(r).ok_or_else(|| err(format!("'{r}' is not a throw (6-1)")))?,
            ),
            None => Phase::Play(parse_roll(d).ok_or_else(|| {
                err(format!(
                    "phase '{d}' is not opening, opening:<dice>, roll, over or dice (6-1)"
                ))
            })?),
        },
    };
    let num = |t: &str, what: &str| -> Result<u32, ParseError> {
        t.parse::<u32>()
            .map_err(|_| err(format!("{what} '{t}' is not a number")))
    };
    let parts = Parts {
        board: Board::from_counts(n),
        to_move,
        phase,
        plies: num(f[3], "plies")?,
        scores: parse_pair(f[4]).ok_or_else(|| err(format!("scores '{}' are not a-b", f[4])))?,
        game: num(f[5], "game")?,
        starter: parse_seat(f[6], true).map_err(&err)?,
        game_points: parse_pair(f[7])
            .ok_or_else(|| err(format!("game points '{}' are not a-b", f[7])))?,
        game_plies: num(f[8], "game plies")?,
        game_turns: num(f[9], "game turns")?,
        last: parse_seat(f[10], true).map_err(&err)?,
    };
    Julbahar::from_parts(*rules, parts).map_err(err)
}

impl fmt::Display for Julbahar {
    /// The board from player one's side (`X`; player two is `O`), points in player one's tables
    /// numbering (its track point `t` is `25 - t`): 13 to 24 along the top, 12 down to 1 along
    /// the bottom; then the borne-off checkers, the totals and who is to act.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (points, _, off) = self.board.to_view(0, self.params.direction);
        let cell = |p: usize| -> String {
            match points[p - 1] {
                0 => " . ".to_string(),
                v if v > 0 => format!("X{v:<2}"),
                v => format!("O{:<2}", -v),
            }
        };
        for pts in [
            (13..25).collect::<Vec<usize>>(),
            (1..13).rev().collect::<Vec<usize>>(),
        ] {
            for (i, &p) in pts.iter().enumerate() {
                if i == 6 {
                    write!(f, "| ")?;
                }
                write!(f, "{p:>3} ")?;
            }
            writeln!(f)?;
            for (i, &p) in pts.iter().enumerate() {
                if i == 6 {
                    write!(f, "| ")?;
                }
                write!(f, "{} ", cell(p))?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "off X {} O {}   totals X {} O {}   game {}",
            off[0], off[1], self.scores[0], self.scores[1], self.game
        )?;
        let who = if self.to_move == Player::ONE {
            "X"
        } else {
            "O"
        };
        match self.phase {
            Phase::Opening => write!(f, "opening throw due"),
            Phase::OpeningPlay(r) => {
                write!(
                    f,
                    "{who} won the opening and moves the opponent by {}-{}",
                    r.0, r.1
                )
            }
            Phase::Roll => write!(f, "{who} to roll"),
            Phase::Play(r) => write!(f, "{who} to play {}-{}", r.0, r.1),
            Phase::Over => write!(f, "{who} has won"),
        }?;
        if self.end_reason() == Some(crate::game::EndReason::Truncated) {
            write!(f, " (truncated at the ply cap)")?;
        }
        Ok(())
    }
}
