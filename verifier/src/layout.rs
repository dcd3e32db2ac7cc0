//! Reading a database directory, as `docs/solver.md` describes its layout: `manifest.json`
//! (the rules, the layers and placement halves written), `layer-GG.bin` (one little-endian
//! `u16` word per slot, the goats to move first: `distance + 1`, its parity giving win or
//! loss, `0` a draw, `0xFFFF` an unused slot), `placement-PP-SIDE.bin` (two bits a slot: loss,
//! draw, win; a block per class rounded up to whole bytes, a part per number of captures), and
//! the summaries `layer-GG.csv`.

use std::fmt;
use std::fs;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::game::{Rules, Side, TOTAL_GOATS};
use crate::index::Index;

/// The manifest's `format`.
pub const FORMAT: &str = "cowrie-baghchal-movement-phase";
/// The manifest's `version`.
pub const VERSION: u32 = 1;
/// The word of an unused slot.
pub const UNUSED: u16 = 0xFFFF;

/// Why a database cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// A file could not be read.
    #[error("{0}: {1}")]
    Io(PathBuf, io::Error),
    /// The manifest is not a database's.
    #[error("{0}: not a Baghchal database manifest ({1})")]
    Manifest(PathBuf, String),
    /// A file has the wrong size.
    #[error("{0}: {1} bytes, the index gives {2}")]
    Size(PathBuf, u64, u64),
    /// A file the checks need is not listed as written.
    #[error("{0}: {1} is not written, and {2} needs it")]
    Missing(PathBuf, String, String),
    /// A summary CSV cannot be read.
    #[error("{0}: malformed summary ({1})")]
    Summary(PathBuf, String),
}

/// An I/O error on `path`.
pub fn io_error(path: &Path) -> impl FnOnce(io::Error) -> FormatError + '_ {
    move |e| FormatError::Io(path.to_path_buf(), e)
}

#[derive(Deserialize)]
struct RawRules {
    win_captures: u8,
    goats_pass: bool,
}

#[derive(Deserialize)]
struct RawLayer {
    goats: u32,
    slots_per_side: u64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
struct RawTally {
    positions: u64,
    wins: u64,
    draws: u64,
    losses: u64,
}

#[derive(Deserialize)]
struct RawPart {
    captured: u32,
    tally: RawTally,
}

#[derive(Deserialize)]
struct RawHalf {
    placed: u32,
    side: String,
    parts: Vec<RawPart>,
}

#[derive(Deserialize)]
struct RawManifest {
    format: String,
    version: u32,
    rules: RawRules,
    layers: Vec<RawLayer>,
    #[serde(default)]
    placement: Vec<RawHalf>,
}

/// Positions of one side to move (or one part of a placement half) by value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions (inequivalent under the symmetries).
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// The longest win, in plies (movement layers only).
    pub longest_win: u16,
    /// The longest loss, in plies (movement layers only).
    pub longest_loss: u16,
}

impl Counts {
    /// Counts one position.
    pub fn add(&mut self, v: Value) {
        self.positions += 1;
        match v {
            Value::Win(d) => {
                self.wins += 1;
                self.longest_win = self.longest_win.max(d);
            }
            Value::Draw => self.draws += 1,
            Value::Loss(d) => {
                self.losses += 1;
                self.longest_loss = self.longest_loss.max(d);
            }
        }
    }

    /// Counts one placement position (no distance).
    pub fn add_code(&mut self, c: Code) {
        self.positions += 1;
        match c {
            Code::Win => self.wins += 1,
            Code::Draw => self.draws += 1,
            Code::Loss => self.losses += 1,
        }
    }

    /// The counts of both.
    #[must_use]
    pub fn join(self, o: Counts) -> Counts {
        Counts {
            positions: self.positions + o.positions,
            wins: self.wins + o.wins,
            draws: self.draws + o.draws,
            losses: self.losses + o.losses,
            longest_win: self.longest_win.max(o.longest_win),
            longest_loss: self.longest_loss.max(o.longest_loss),
        }
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} positions, {} wins, {} draws, {} losses",
            self.positions, self.wins, self.draws, self.losses
        )
    }
}

/// A file of the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DbFile {
    /// A movement layer: goats on the board.
    Layer(u32),
    /// A placement half: goats placed, the side to move.
    Half(u32, Side),
}

impl DbFile {
    /// The file name.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            DbFile::Layer(g) => format!("layer-{g:02}.bin"),
            DbFile::Half(p, s) => format!("placement-{p:02}-{}.bin", s.name()),
        }
    }

    /// The path in `dir`.
    #[must_use]
    pub fn path(self, dir: &Path) -> PathBuf {
        dir.join(self.name())
    }
}

/// A placement half as the manifest lists it.
#[derive(Clone, Debug)]
pub struct HalfEntry {
    /// Goats placed.
    pub placed: u32,
    /// The side to move.
    pub side: Side,
    /// The counts by captures, as the manifest gives them.
    pub parts: Vec<(u32, Counts)>,
}

/// What a database's manifest says.
#[derive(Clone, Debug)]
pub struct Manifest {
    /// The rules solved under.
    pub rules: Rules,
    /// The movement layers written, with their slots per side.
    pub layers: Vec<(u32, u64)>,
    /// The placement halves written.
    pub halves: Vec<HalfEntry>,
}

impl Manifest {
    /// Reads `dir/manifest.json`.
    ///
    /// # Errors
    /// An unreadable file, or one that is not a database's manifest.
    pub fn read(dir: &Path) -> Result<Self, FormatError> {
        let path = dir.join("manifest.json");
        let text = fs::read_to_string(&path).map_err(io_error(&path))?;
        let bad = |why: String| FormatError::Manifest(path.clone(), why);
        let raw: RawManifest = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        if raw.format != FORMAT || raw.version != VERSION {
            return Err(bad(format!(
                "format {} version {}",
                raw.format, raw.version
            )));
        }
        if !(1..=TOTAL_GOATS).contains(&raw.rules.win_captures) {
            return Err(bad(format!("win_captures {}", raw.rules.win_captures)));
        }
        let mut halves = Vec::new();
        for h in raw.placement {
            let side = match h.side.as_str() {
                "goats" => Side::Goats,
                "tigers" => Side::Tigers,
                other => return Err(bad(format!("a half with side '{other}'"))),
            };
            if h.placed >= u32::from(TOTAL_GOATS) {
                return Err(bad(format!("a half with {} placed", h.placed)));
            }
            let parts = h
                .parts
                .iter()
                .map(|p| {
                    let t = p.tally;
                    let counts = Counts {
                        positions: t.positions,
                        wins: t.wins,
                        draws: t.draws,
                        losses: t.losses,
                        ..Counts::default()
                    };
                    (p.captured, counts)
                })
                .collect();
            halves.push(HalfEntry {
                placed: h.placed,
                side,
                parts,
            });
        }
        Ok(Manifest {
            rules: Rules {
                win_captures: raw.rules.win_captures,
                goats_pass: raw.rules.goats_pass,
            },
            layers: raw
                .layers
                .iter()
                .map(|l| (l.goats, l.slots_per_side))
                .collect(),
            halves,
        })
    }

    /// Whether the layer with `goats` goats is written.
    #[must_use]
    pub fn has_layer(&self, goats: u32) -> bool {
        self.layers.iter().any(|&(g, _)| g == goats)
    }

    /// The half (`placed`, `side`), if written.
    #[must_use]
    pub fn half(&self, placed: u32, side: Side) -> Option<&HalfEntry> {
        self.halves
            .iter()
            .find(|h| h.placed == placed && h.side == side)
    }
}

/// A stored movement-phase value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A win in this many plies (the winner ends the game as fast as it can).
    Win(u16),
    /// A loss in this many plies (the loser delays the end as long as it can).
    Loss(u16),
    /// Neither side can force the end.
    Draw,
}

impl Value {
    /// The value of a word; `None` for [`UNUSED`].
    #[must_use]
    #[inline]
    pub fn from_word(w: u16) -> Option<Value> {
        match w {
            UNUSED => None,
            0 => Some(Value::Draw),
            // Distance + 1: a win lies an odd number of plies from the end.
            w if w % 2 == 0 => Some(Value::Win(w - 1)),
            w => Some(Value::Loss(w - 1)),
        }
    }

    /// The word of a value.
    #[must_use]
    pub fn word(self) -> u16 {
        match self {
            Value::Win(d) | Value::Loss(d) => d + 1,
            Value::Draw => 0,
        }
    }

    /// The value for the player who moved into a position of this value.
    #[must_use]
    #[inline]
    pub fn before(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// Whether the mover prefers `self` to `other`: any win to a draw to any loss, a shorter
    /// win, a longer loss.
    #[must_use]
    #[inline]
    pub fn is_better_than(self, other: Value) -> bool {
        let rank = |v: Value| match v {
            Value::Win(d) => (2, -i32::from(d)),
            Value::Draw => (1, 0),
            Value::Loss(d) => (0, i32::from(d)),
        };
        rank(self) > rank(other)
    }

    /// The placement phase's code of this value (without the distance).
    #[must_use]
    pub fn code(self) -> Code {
        match self {
            Value::Win(_) => Code::Win,
            Value::Draw => Code::Draw,
            Value::Loss(_) => Code::Loss,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Loss(d) => write!(f, "loss in {d}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// A placement-phase value for the side to move, as two bits: 0 loss, 1 draw, 2 win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// The side to move loses.
    Loss = 0,
    /// Neither side can force a win.
    Draw = 1,
    /// The side to move wins.
    Win = 2,
}

impl Code {
    /// The code of two bits; `None` for 3.
    #[must_use]
    #[inline]
    pub fn from_bits(b: u8) -> Option<Code> {
        match b {
            0 => Some(Code::Loss),
            1 => Some(Code::Draw),
            2 => Some(Code::Win),
            _ => None,
        }
    }

    /// The code for the player who moved into a position of this code.
    #[must_use]
    #[inline]
    pub fn before(self) -> Code {
        match self {
            Code::Win => Code::Loss,
            Code::Draw => Code::Draw,
            Code::Loss => Code::Win,
        }
    }

    /// `win`, `draw` or `loss`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Code::Win => "win",
            Code::Draw => "draw",
            Code::Loss => "loss",
        }
    }
}

/// Bytes of a placement part's class block with `goats` goats: four slots a byte, rounded up.
#[must_use]
pub fn block_bytes(index: &Index, goats: u32) -> usize {
    (index.per_class(goats as usize) as usize).div_ceil(4)
}

/// The two bits of `rank` within a class block.
#[must_use]
#[inline]
pub fn bits_at(block: &[u8], rank: u32) -> u8 {
    (block[(rank / 4) as usize] >> (2 * (rank % 4))) & 3
}

/// The captures a half's parts hold, in file order: at most one per tiger ply played (the goats
/// to move with `p` placed follow `p` tiger plies, the tigers to move `p - 1`), and fewer than
/// the winning number.
#[must_use]
pub fn half_captures(rules: &Rules, placed: u32, side: Side) -> Vec<u32> {
    let tiger_plies = match side {
        Side::Goats => placed,
        Side::Tigers => placed.saturating_sub(1),
    };
    (0..=tiger_plies.min(u32::from(rules.win_captures) - 1)).collect()
}

/// A placement half in memory: a part per number of captures, each `classes` blocks.
#[derive(Clone, Debug)]
pub struct HalfData {
    /// Goats placed.
    pub placed: u32,
    /// The side to move.
    pub side: Side,
    /// `(captured, bytes)` in file order.
    pub parts: Vec<(u32, Vec<u8>)>,
    /// Bytes per class block of each part.
    pub strides: Vec<usize>,
}

impl HalfData {
    /// Reads the half's file, checking its size against the index.
    ///
    /// # Errors
    /// An unreadable file or one of the wrong size.
    pub fn read(
        dir: &Path,
        index: &Index,
        rules: &Rules,
        placed: u32,
        side: Side,
    ) -> Result<Self, FormatError> {
        let path = DbFile::Half(placed, side).path(dir);
        let bytes = fs::read(&path).map_err(io_error(&path))?;
        let captures = half_captures(rules, placed, side);
        let strides: Vec<usize> = captures
            .iter()
            .map(|&c| block_bytes(index, placed - c))
            .collect();
        let want: usize = strides.iter().map(|s| s * index.classes().len()).sum();
        if bytes.len() != want {
            return Err(FormatError::Size(path, bytes.len() as u64, want as u64));
        }
        let mut parts = Vec::new();
        let mut at = 0;
        for (&c, &s) in captures.iter().zip(&strides) {
            let n = s * index.classes().len();
            parts.push((c, bytes[at..at + n].to_vec()));
            at += n;
        }
        Ok(HalfData {
            placed,
            side,
            parts,
            strides,
        })
    }

    /// The part with `captured` captures: its bytes and block stride.
    #[must_use]
    pub fn part(&self, captured: u32) -> Option<(&[u8], usize)> {
        self.parts
            .iter()
            .zip(&self.strides)
            .find(|((c, _), _)| *c == captured)
            .map(|((_, b), &s)| (b.as_slice(), s))
    }
}

/// Reads the words of one side to move of the layer with `goats` goats (or both sides, if
/// `side` is `None`: the goats to move first), checking the file's size against the index.
///
/// # Errors
/// An unreadable file or one of the wrong size.
pub fn read_layer(
    dir: &Path,
    index: &Index,
    goats: u32,
    side: Option<Side>,
) -> Result<Vec<u16>, FormatError> {
    let path = DbFile::Layer(goats).path(dir);
    let mut f = fs::File::open(&path).map_err(io_error(&path))?;
    let len = f.metadata().map_err(io_error(&path))?.len();
    let per_side = 2 * index.slots(goats as usize);
    if len != 2 * per_side {
        return Err(FormatError::Size(path, len, 2 * per_side));
    }
    let (offset, n) = match side {
        None => (0, 2 * per_side),
        Some(Side::Goats) => (0, per_side),
        Some(Side::Tigers) => (per_side, per_side),
    };
    f.seek(SeekFrom::Start(offset)).map_err(io_error(&path))?;
    let mut bytes = vec![0u8; n as usize];
    f.read_exact(&mut bytes).map_err(io_error(&path))?;
    Ok(bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect())
}

/// The rows of a layer's summary `layer-GG.csv` (goats to move, tigers to move), if the file
/// is there.
///
/// # Errors
/// A file that is there but cannot be read as a summary.
pub fn read_layer_summary(dir: &Path, goats: u32) -> Result<Option<[Counts; 2]>, FormatError> {
    let path = dir.join(format!("layer-{goats:02}.csv"));
    if !path.exists() {
        return Ok(None);
    }
    let bad = |why: String| FormatError::Summary(path.clone(), why);
    let mut reader = csv::Reader::from_path(&path).map_err(|e| bad(e.to_string()))?;
    let headers = reader.headers().map_err(|e| bad(e.to_string()))?.clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| bad(format!("no column '{name}'")))
    };
    let cols = [
        "side_to_move",
        "positions",
        "wins",
        "draws",
        "losses",
        "longest_win",
        "longest_loss",
    ]
    .map(column);
    let mut cols_at = [0usize; 7];
    for (slot, c) in cols_at.iter_mut().zip(cols) {
        *slot = c?;
    }
    let mut out = [Counts::default(); 2];
    let mut seen = [false; 2];
    for row in reader.records() {
        let row = row.map_err(|e| bad(e.to_string()))?;
        let field = |i: usize| row.get(cols_at[i]).unwrap_or_default();
        let num = |i: usize| {
            field(i)
                .parse::<u64>()
                .map_err(|_| bad(format!("'{}' is not a count", field(i))))
        };
        let side = match field(0) {
            "goats" => 0,
            "tigers" => 1,
            other => return Err(bad(format!("side '{other}'"))),
        };
        let distance = |i: usize| {
            num(i).and_then(|n| u16::try_from(n).map_err(|_| bad(format!("distance {n}"))))
        };
        out[side] = Counts {
            positions: num(1)?,
            wins: num(2)?,
            draws: num(3)?,
            losses: num(4)?,
            longest_win: distance(5)?,
            longest_loss: distance(6)?,
        };
        seen[side] = true;
    }
    if seen != [true, true] {
        return Err(bad("not one row per side to move".into()));
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_decode_by_parity_and_values_order_for_the_mover() {
        assert_eq!(Value::from_word(0), Some(Value::Draw));
        assert_eq!(Value::from_word(1), Some(Value::Loss(0)));
        assert_eq!(Value::from_word(2), Some(Value::Win(1)));
        assert_eq!(Value::from_word(UNUSED), None);
        for v in [Value::Draw, Value::Loss(6), Value::Win(7)] {
            assert_eq!(Value::from_word(v.word()), Some(v));
        }
        assert!(Value::Win(3).is_better_than(Value::Win(5)));
        assert!(Value::Loss(8).is_better_than(Value::Loss(2)));
        assert!(Value::Draw.is_better_than(Value::Loss(100)));
        assert!(Value::Win(99).is_better_than(Value::Draw));
        assert!(!Value::Draw.is_better_than(Value::Draw));
        assert_eq!(Value::Loss(0).before(), Value::Win(1));
        assert_eq!(Code::Loss.before(), Code::Win);
    }

    #[test]
    fn halves_hold_a_part_per_possible_capture_count() {
        let five = Rules {
            win_captures: 5,
            goats_pass: false,
        };
        assert_eq!(half_captures(&five, 0, Side::Goats), vec![0]);
        assert_eq!(half_captures(&five, 1, Side::Tigers), vec![0]);
        assert_eq!(half_captures(&five, 2, Side::Goats), vec![0, 1, 2]);
        assert_eq!(half_captures(&five, 19, Side::Tigers), vec![0, 1, 2, 3, 4]);
        // Four slots a byte: C(21, 19) = 210 slots in 53 bytes.
        assert_eq!(block_bytes(&Index::new(), 19), 53);
    }
}
