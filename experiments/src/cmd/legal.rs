//! `cowrie legal`: every legal resulting position of Frangieh positions with given dice, for
//! checking the engine against other backgammon programs.
//!
//! Input, one position per line (blank lines are skipped):
//! - a JSON object `{"points":[24 ints],"bar":[m,o],"off":[m,o],"dice":[d1,d2]}` in the
//!   encoding of `engine/tests/data/frangieh_legal_moves.json`: the mover's view, `points[i]`
//!   is the mover's point `i + 1`, positive for the mover's checkers and negative for the
//!   opponent's; other fields are ignored;
//! - or `<PositionID> <d1> <d2>`: a GNU Backgammon Position ID (player on roll = mover).
//!
//! Output, one JSON line per input line: `{"position":…,"position_id":…,"dice":[d1,d2],
//! "n_results":k,"results":[{"play":…,"position":…},…]}` where each result is the position
//! after the mover's whole play, still from the mover's view (before the board is turned), and
//! `play` one play reaching it in GNU Backgammon's notation (`pass` if the roll cannot be
//! played, in which case the one result is the unchanged position). Results are sorted by
//! position (`points`, then `bar`, then `off`, as integer lists).

use std::io::{BufRead, Write};

use anyhow::{anyhow, bail, Context};
use clap::Args;
use cowrie_engine::games::frangieh::Phase;
use cowrie_engine::games::tables::{Board, Direction, Roll};
use cowrie_engine::RuleSet;
use cowrie_engine::{Frangieh, FrangiehRules, Game, Player};
use serde::{Deserialize, Serialize};

use crate::args::VariantArgs;

/// A position from the mover's view, in the test data's encoding.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct View {
    /// The mover's points 1 to 24: positive for the mover's checkers, negative for the
    /// opponent's.
    pub points: Vec<i8>,
    /// Checkers on the bar: mover's, opponent's.
    pub bar: [u8; 2],
    /// Checkers borne off: mover's, opponent's.
    pub off: [u8; 2],
}

#[derive(Deserialize)]
struct JsonInput {
    points: Vec<i8>,
    bar: [u8; 2],
    off: [u8; 2],
    /// Read as a list so that a wrong number of dice is named as such.
    dice: Vec<u8>,
}

/// The two dice of an input line, or an error naming how many were given.
fn two_dice(dice: &[u8]) -> anyhow::Result<[u8; 2]> {
    match *dice {
        [a, b] => Ok([a, b]),
        _ => bail!("{} dice {dice:?} (need exactly 2)", dice.len()),
    }
}

#[derive(Serialize)]
struct Result1 {
    play: String,
    position: View,
}

#[derive(Serialize)]
struct Output {
    position: View,
    position_id: String,
    dice: [u8; 2],
    n_results: usize,
    results: Vec<Result1>,
}

fn view_of(board: &Board) -> View {
    let (points, bar, off) = board.to_view(0, Direction::Opposite);
    View {
        points: points.to_vec(),
        bar,
        off,
    }
}

fn parse_line(line: &str, rules: &FrangiehRules) -> anyhow::Result<(Frangieh, [u8; 2])> {
    let (board, dice) = if line.starts_with('{') {
        let j: JsonInput = serde_json::from_str(line)
            .map_err(crate::args::json_error)
            .context("not a position object")?;
        let points: [i8; 24] = j
            .points
            .try_into()
            .map_err(|p: Vec<i8>| anyhow!("{} points (need 24)", p.len()))?;
        let board = Board::from_view(0, &points, j.bar, j.off, Direction::Opposite)
            .map_err(|e| anyhow!("{e}"))?;
        (board, two_dice(&j.dice)?)
    } else {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 2 {
            bail!("expected a JSON object or '<PositionID> <d1> <d2>'");
        }
        let board =
            cowrie_engine::games::tables::decode_position_id(f[0]).map_err(|e| anyhow!("{e}"))?;
        let die = |s: &str| {
            s.parse::<u8>()
                .with_context(|| format!("die {}", crate::args::quote(s)))
        };
        let dice = f[1..]
            .iter()
            .map(|s| die(s))
            .collect::<anyhow::Result<Vec<u8>>>()?;
        (board, two_dice(&dice)?)
    };
    if !dice.iter().all(|d| (1..=6).contains(d)) {
        bail!("dice {dice:?} are not 1 to 6");
    }
    let roll = Roll::new(dice[0], dice[1]);
    let state = Frangieh::from_parts(*rules, board, Player::ONE, Phase::Play(roll), 0)
        .map_err(|e| anyhow!("{e}"))?;
    Ok((state, dice))
}

/// Reads positions from `input` and writes their legal results to `out`, one line each (see
/// the module documentation for both formats).
///
/// # Errors
/// An error naming the line number and text of the first line that is not a well-formed legal
/// position with two dice from 1 to 6; or a write error.
pub fn run_legal<R: BufRead, W: Write>(
    input: R,
    mut out: W,
    rules: &FrangiehRules,
) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.with_context(|| format!("reading line {}", i + 1))?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let (state, dice) = parse_line(text, rules)
            .with_context(|| format!("line {}: {}", i + 1, crate::args::quote(text)))?;
        state.legal_actions(&mut buf);
        let mut results: Vec<Result1> = buf
            .iter()
            .map(|&a| {
                let mut next = state;
                next.play_unchecked(a);
                Result1 {
                    play: state.action_to_string(a),
                    position: view_of(next.board()),
                }
            })
            .collect();
        results.sort_by(|a, b| a.position.cmp(&b.position));
        let o = Output {
            position: view_of(state.board()),
            position_id: state.position_id(),
            dice,
            n_results: results.len(),
            results,
        };
        serde_json::to_writer(&mut out, &o)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// The Frangieh variant `cowrie legal` plays where none is given: `modern`, GNU Backgammon's
/// rules without the cube, which the programs it is checked against play.
pub const DEFAULT_VARIANT: &str = "modern";

/// `cowrie legal`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("variant", |a| a.help("The Frangieh variant (default modern: GNU Backgammon's rules without the cube)")))]
pub struct LegalArgs {
    /// The variant and option overrides.
    #[command(flatten)]
    pub variant: VariantArgs,
}

/// `cowrie legal`: reads positions from stdin and writes their legal results to stdout; a closed
/// pipe (`cowrie legal | head`) is not an error.
///
/// # Errors
/// Bad rules, a malformed input line, or an I/O error.
pub fn command(args: LegalArgs, _command_line: Vec<String>) -> anyhow::Result<()> {
    let rules = cowrie_engine::FrangiehRules::resolve(
        Some(args.variant.variant.as_deref().unwrap_or(DEFAULT_VARIANT)),
        &args.variant.options,
    )?;
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match run_legal(stdin, stdout, &rules) {
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            Ok(())
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowrie_engine::RuleSet;

    #[test]
    fn start_31_by_id_and_json_agree() {
        let rules = FrangiehRules::variant("modern").unwrap();
        let json = r#"{"points":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0],"dice":[3,1]}"#;
        let input = format!("4HPwATDgc/ABMA 3 1\n\n{json}\n");
        let mut out = Vec::new();
        run_legal(input.as_bytes(), &mut out, &rules).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0], lines[1]);
        let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        // 16 distinct results for the opening 3-1 (GNU Backgammon, the cases file).
        assert_eq!(v["n_results"], 16);
    }

    #[test]
    fn bad_lines_are_named() {
        let rules = FrangiehRules::default();
        for bad in ["4HPwATDgc/ABMA 7 1", "hello", "{\"points\":[1]}"] {
            let input = format!("4HPwATDgc/ABMA 3 1\n{bad}\n");
            let e = run_legal(input.as_bytes(), std::io::sink(), &rules).unwrap_err();
            let msg = format!("{e:#}");
            assert!(msg.contains("line 2") && msg.contains(bad), "{msg}");
        }
        let json3 = r#"{"points":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0],"dice":[3,1,2]}"#;
        for (bad, n) in [
            ("4HPwATDgc/ABMA 3 1 2", "3 dice"),
            ("4HPwATDgc/ABMA 3", "1 dice"),
            (json3, "3 dice"),
        ] {
            let e = run_legal(bad.as_bytes(), std::io::sink(), &rules).unwrap_err();
            let msg = format!("{e:#}");
            assert!(msg.contains(n) && msg.contains("need exactly 2"), "{msg}");
        }
    }
}
