//! Text forms of positions and actions.
//!
//! Position: seven space-separated fields:
//! 1. the pieces, player one's four then `/` then player two's four, comma-separated, each a
//!    track index `0..=82` on the player's own track, `k` (kitchen) or `o` (off the board), in
//!    ascending code order (track, then `k`, then `o`);
//! 2. the stage: `shells` (player one throws three shells), `shells:N` (player two throws;
//!    player one threw `N`), `open1`/`open2` (opening throws), `throw1`/`throw2`,
//!    `move1`/`move2`, `win1`/`win2`, `truncated`;
//! 3. the turn's throws not yet played, names by mouths up joined by `,` (`dust,dust,doi`), or
//!    `-`;
//! 4. plies played;
//! 5. the seat that won the three-shell throw, or `-`;
//! 6. the seat that first entered a piece, or `-`;
//! 7. hammerings by player one and two, `a,b`.
//!
//! The start of `finkel-2002`: `o,o,o,o/o,o,o,o shells - 0 - - 0,0`.
//!
//! Actions: see [`super::BargeseAction`].

use super::board::{KITCHEN, OFF};
use super::packing::sort4;
use super::{Bargese, BargeseAction, BargeseRules, Stage, Throw};
use crate::game::{EndReason, ParseError, Player};

fn code(p: u8) -> String {
    match p {
        KITCHEN => "k".to_string(),
        OFF => "o".to_string(),
        t => t.to_string(),
    }
}

fn parse_code(s: &str) -> Option<u8> {
    match s {
        "k" => Some(KITCHEN),
        "o" => Some(OFF),
        _ => s.parse::<u8>().ok().filter(|&t| t < KITCHEN),
    }
}

fn pieces_text(p: [u8; 4]) -> String {
    p.iter().map(|&c| code(c)).collect::<Vec<_>>().join(",")
}

fn parse_pieces(s: &str) -> Option<[u8; 4]> {
    let v: Vec<u8> = s.split(',').map(parse_code).collect::<Option<Vec<_>>>()?;
    let arr: [u8; 4] = v.try_into().ok()?;
    Some(sort4(arr))
}

fn seat_text(p: Option<Player>) -> String {
    p.map_or_else(|| "-".to_string(), |p| p.seat().to_string())
}

fn parse_seat(s: &str) -> Option<Option<Player>> {
    match s {
        "-" => Some(None),
        "1" => Some(Some(Player::ONE)),
        "2" => Some(Some(Player::TWO)),
        _ => None,
    }
}

pub(super) fn format_position(s: &Bargese) -> String {
    let stage = match s.stage {
        Stage::ShellsFirst => "shells".to_string(),
        Stage::ShellsSecond(n) => format!("shells:{n}"),
        Stage::Opening(p) => format!("open{}", p.seat()),
        Stage::Throwing(p) => format!("throw{}", p.seat()),
        Stage::Moving(p) => format!("move{}", p.seat()),
        Stage::Over(EndReason::Win(p)) => format!("win{}", p.seat()),
        Stage::Over(_) => "truncated".to_string(),
    };
    let mut throws = Vec::new();
    for t in Throw::ALL {
        for _ in 0..s.throws[t as usize] {
            throws.push(t.name());
        }
    }
    let throws = if throws.is_empty() {
        "-".to_string()
    } else {
        throws.join(",")
    };
    format!(
        "{}/{} {stage} {throws} {} {} {} {},{}",
        pieces_text(s.pieces[0]),
        pieces_text(s.pieces[1]),
        s.plies,
        seat_text(s.shells_winner),
        seat_text(s.first_entered),
        s.hammerings[0],
        s.hammerings[1]
    )
}

pub(super) fn parse_position(text: &str, rules: &BargeseRules) -> Result<Bargese, ParseError> {
    let err = |reason: String| ParseError::Position {
        text: text.to_string(),
        reason,
    };
    let f: Vec<&str> = text.split(' ').collect();
    if f.len() != 7 {
        return Err(err(format!(
            "expected 7 space-separated fields, found {}",
            f.len()
        )));
    }
    let (a, b) = f[0]
        .split_once('/')
        .ok_or_else(|| err("pieces need '/' between the players".into()))?;
    let one = parse_pieces(a).ok_or_else(|| err(format!("bad pieces '{a}'")))?;
    let two = parse_pieces(b).ok_or_else(|| err(format!("bad pieces '{b}'")))?;
    let seat_of = |c: Option<char>| match c {
        Some('1') => Ok(Player::ONE),
        Some('2') => Ok(Player::TWO),
        _ => Err(err(format!("bad stage '{}'", f[1]))),
    };
    let stage = match f[1] {
        "shells" => Stage::ShellsFirst,
        "truncated" => Stage::Over(EndReason::Truncated),
        s if s.starts_with("shells:") => match s[7..].parse::<u8>() {
            Ok(n) if n <= 3 => Stage::ShellsSecond(n),
            _ => return Err(err(format!("bad stage '{s}'"))),
        },
        s if s.len() == 5 && s.starts_with("open") => Stage::Opening(seat_of(s.chars().nth(4))?),
        s if s.len() == 6 && s.starts_with("throw") => Stage::Throwing(seat_of(s.chars().nth(5))?),
        s if s.len() == 5 && s.starts_with("move") => Stage::Moving(seat_of(s.chars().nth(4))?),
        s if s.len() == 4 && s.starts_with("win") => {
            Stage::Over(EndReason::Win(seat_of(s.chars().nth(3))?))
        }
        s => return Err(err(format!("bad stage '{s}'"))),
    };
    let mut throws = [0u16; 7];
    if f[2] != "-" {
        for name in f[2].split(',') {
            let t = Throw::from_name(name).ok_or_else(|| err(format!("bad throw '{name}'")))?;
            throws[t as usize] += 1;
        }
    }
    let plies = f[3]
        .parse::<u32>()
        .map_err(|_| err(format!("bad plies '{}'", f[3])))?;
    let shells = parse_seat(f[4]).ok_or_else(|| err(format!("bad seat '{}'", f[4])))?;
    let first = parse_seat(f[5]).ok_or_else(|| err(format!("bad seat '{}'", f[5])))?;
    let (h1, h2) = f[6]
        .split_once(',')
        .and_then(|(x, y)| Some((x.parse::<u32>().ok()?, y.parse::<u32>().ok()?)))
        .ok_or_else(|| err(format!("bad hammerings '{}'", f[6])))?;
    Bargese::from_parts(
        *rules,
        [one, two],
        stage,
        throws,
        plies,
        shells,
        first,
        [h1, h2],
    )
    .map_err(err)
}

fn mover(s: &Bargese) -> Player {
    match s.stage {
        Stage::Moving(p) | Stage::Throwing(p) | Stage::Opening(p) => p,
        _ => Player::ONE,
    }
}

pub(super) fn format_action(s: &Bargese, a: BargeseAction) -> String {
    let me = mover(s);
    if a.hammered == 0 && a.pieces == s.pieces[me.index()] {
        return "pass".to_string();
    }
    let mut out = pieces_text(a.pieces);
    if a.hammered != 0 {
        let opp = s.pieces[me.opponent().index()];
        let mut hit: Vec<u8> = (0..4)
            .filter(|&j| a.hammered >> j & 1 == 1)
            .map(|j| opp[j])
            .collect();
        hit.dedup();
        out.push_str(" x");
        out.push_str(&hit.iter().map(|&c| code(c)).collect::<Vec<_>>().join(","));
    }
    out
}

pub(super) fn parse_action(s: &Bargese, text: &str) -> Result<BargeseAction, ParseError> {
    let err = |reason: String| ParseError::Action {
        text: text.to_string(),
        reason,
    };
    let me = mover(s);
    if text == "pass" {
        return Ok(BargeseAction {
            pieces: s.pieces[me.index()],
            hammered: 0,
        });
    }
    let (pieces, hit) = match text.split_once(" x") {
        Some((p, h)) => (p, Some(h)),
        None => (text, None),
    };
    let pieces = parse_pieces(pieces).ok_or_else(|| err("expected four position codes".into()))?;
    let mut hammered = 0u8;
    if let Some(h) = hit {
        let opp = s.pieces[me.opponent().index()];
        for tok in h.split(',') {
            let c = parse_code(tok)
                .filter(|&c| c < KITCHEN)
                .ok_or_else(|| err(format!("bad hammered index '{tok}'")))?;
            let mut any = false;
            for (j, &o) in opp.iter().enumerate() {
                if o == c {
                    hammered |= 1 << j;
                    any = true;
                }
            }
            if !any {
                return Err(err(format!("no opposing piece on its track index {c}")));
            }
        }
    }
    Ok(BargeseAction { pieces, hammered })
}
