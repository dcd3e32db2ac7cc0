//! Play notation in GNU Backgammon's style: `24/18 13/11`, `bar/22*`, `bar/22*/16`, `6/off`,
//! `8/2(2)`, and `pass` for a roll that cannot be played.
//!
//! Writing: the moves are joined into one path per checker, higher starting point first; a
//! path's intermediate points are written only where it hits (`*`); identical paths are written
//! once with their number in brackets. Reading: the same form, also with every intermediate
//! point written (`24/21/20`) or with moves in any order; the `*` marks are optional (whether a
//! landing hits is read from the position).

use super::board::{Board, BAR, OFF};
use super::moving::is_blot;
use super::params::TablesParams;
use super::play::Play;
use super::sequences::sequence_key;

fn blot_at(board: &Board, side: usize, p: usize, params: &TablesParams) -> bool {
    (1..25).contains(&p)
        && is_blot(
            params.landing,
            board.count(1 - side, params.direction.other(p)),
        )
}

fn point_text(p: u8, out: &mut String) {
    match p {
        0 => out.push_str("off"),
        25 => out.push_str("bar"),
        _ => out.push_str(&p.to_string()),
    }
}

/// Writes `play` for `side`, as made on `board` (the position before the play).
#[must_use]
pub fn format_play(play: &Play, board: &Board, side: usize, params: &TablesParams) -> String {
    if play.is_pass() {
        return "pass".to_string();
    }
    // Paths: each a list of points, at most five long.
    let mut moves = play.moves().to_vec();
    moves.sort_unstable_by(|a, b| b.cmp(a));
    let mut paths: Vec<Vec<u8>> = Vec::with_capacity(4);
    for [from, to] in moves {
        match paths
            .iter_mut()
            .find(|p| *p.last().expect("non-empty") == from && from != 0)
        {
            Some(path) => path.push(to),
            None => paths.push(vec![from, to]),
        }
    }
    let mut texts: Vec<(String, usize)> = Vec::with_capacity(4);
    for path in &paths {
        let mut t = String::new();
        point_text(path[0], &mut t);
        let last = path.len() - 1;
        for (i, &p) in path.iter().enumerate().skip(1) {
            // Without hits in passing only a path's last point (where the checker ends the
            // play) hits.
            let hit =
                blot_at(board, side, p as usize, params) && (params.hit_in_passing || i == last);
            if i == last || hit {
                t.push('/');
                point_text(p, &mut t);
                if hit {
                    t.push('*');
                }
            }
        }
        match texts.iter_mut().find(|(s, _)| *s == t) {
            Some((_, n)) => *n += 1,
            None => texts.push((t, 1)),
        }
    }
    let mut out = String::new();
    for (i, (t, n)) in texts.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(t);
        if *n > 1 {
            out.push_str(&format!("({n})"));
        }
    }
    out
}

fn parse_point(s: &str, first: bool) -> Result<u8, String> {
    match s {
        "bar" if first => Ok(BAR as u8),
        "off" if !first => Ok(0),
        _ => match s.parse::<u8>() {
            Ok(p) if (1..=24).contains(&p) => Ok(p),
            _ => Err(format!(
                "'{s}' is not a point (1 to 24, bar first, off last)"
            )),
        },
    }
}

/// Reads a play for `side` on `board` (the position before it), in the notation
/// [`format_play`] writes. Does not check legality: whatever moves are written, with hits where
/// they land on a lone opposing checker.
///
/// # Errors
/// A reason in words if the text is not in the notation, a move goes backwards, or there are
/// more than four single moves.
pub fn parse_play(
    text: &str,
    board: &Board,
    side: usize,
    params: &TablesParams,
) -> Result<Play, String> {
    let text = text.trim();
    if text == "pass" {
        return Ok(Play::PASS);
    }
    let mut moves: Vec<[u8; 2]> = Vec::with_capacity(4);
    for token in text.split_whitespace() {
        let (path, times) = match token.split_once('(') {
            Some((p, rest)) => {
                let n = rest
                    .strip_suffix(')')
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|&n| (1..=4).contains(&n))
                    .ok_or_else(|| format!("bad repeat count in '{token}'"))?;
                (p, n)
            }
            None => (token, 1),
        };
        let points: Vec<u8> = path
            .split('/')
            .enumerate()
            .map(|(i, s)| parse_point(s.strip_suffix('*').unwrap_or(s), i == 0))
            .collect::<Result<_, _>>()?;
        if points.len() < 2 {
            return Err(format!("'{token}' is not a move (from/to)"));
        }
        for _ in 0..times {
            for w in points.windows(2) {
                if w[1] >= w[0] {
                    return Err(format!("'{token}' moves backwards"));
                }
                moves.push([w[0], w[1]]);
            }
        }
    }
    if moves.is_empty() {
        return Err("no move".to_string());
    }
    if moves.len() > 4 {
        return Err(format!("{} single moves (at most four)", moves.len()));
    }
    if !params.hit_in_passing {
        moves.sort_unstable_by(|a, b| b.cmp(a));
        let key = sequence_key(&moves, board, side, params);
        let mut m = [[0u8; 2]; 4];
        m[..moves.len()].copy_from_slice(&moves);
        return Ok(Play::from_key(key, m, moves.len()));
    }
    let mut hits: Vec<u8> = Vec::with_capacity(4);
    for &[_, to] in &moves {
        if blot_at(board, side, to as usize, params) && !hits.contains(&to) {
            hits.push(to);
        }
    }
    Ok(Play::from_moves(&moves, &hits))
}

/// Writes one side's checkers as `slot:count` entries from the bar down to off
/// (`bar:1,13:5,6:4,off:2`), the position notation of the tables games.
pub fn format_side(board: &Board, side: usize, out: &mut String) {
    let mut first = true;
    for slot in (0..=BAR).rev() {
        let c = board.count(side, slot);
        if c == 0 {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        match slot {
            BAR => out.push_str("bar"),
            OFF => out.push_str("off"),
            _ => out.push_str(&slot.to_string()),
        }
        out.push(':');
        out.push_str(&c.to_string());
    }
}

/// Reads what [`format_side`] writes into `counts` (indexed by slot). `allow_bar` is false for
/// games without hitting (Julbahar), where a checker on the bar is not a position.
///
/// # Errors
/// A reason naming the bad entry.
pub fn parse_side(text: &str, counts: &mut [u8; 26], allow_bar: bool) -> Result<(), String> {
    for entry in text.split(',') {
        let (slot, count) = entry
            .split_once(':')
            .ok_or_else(|| format!("'{entry}' is not slot:count"))?;
        let slot = match slot {
            "bar" if allow_bar => BAR,
            "off" => OFF,
            _ => match slot.parse::<usize>() {
                Ok(p) if (1..=24).contains(&p) => p,
                _ if allow_bar => return Err(format!("'{slot}' is not a point, bar or off")),
                _ => return Err(format!("'{slot}' is not a point or off")),
            },
        };
        let count = match count.parse::<u8>() {
            Ok(c) if (1..=15).contains(&c) => c,
            _ => return Err(format!("'{count}' is not a count from 1 to 15")),
        };
        if counts[slot] != 0 {
            return Err(format!("slot {slot} listed twice"));
        }
        counts[slot] = count;
    }
    Ok(())
}
