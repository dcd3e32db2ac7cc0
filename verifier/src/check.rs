//! The check of one file: every slot's stored value against the value the rules give it from
//! its children's stored values.
//!
//! A movement position's value is the best, for the side to move, of the values its moves lead
//! to seen one ply earlier: a win in `d` if some child is lost in `d - 1` (the least such `d`),
//! else a draw if some child is drawn, else a loss in `d`, `d - 1` the longest of the children's
//! wins; without a move, a loss in 0. A child after the winning capture is lost for the goats
//! in 0. A placement position's code is the same rule without distances.

use rayon::prelude::*;

use crate::board::{Cell, Lines};
use crate::game::{Move, Position, Rules, Side, TOTAL_GOATS};
use crate::index::{Class, Index, Subsets};
use crate::layout::{bits_at, Code, Counts, DbFile, Value};

/// The mismatches kept per file (all are counted).
pub const KEPT: usize = 10;

/// A table of stored values the children are read from.
#[derive(Clone, Copy, Debug)]
pub enum Table<'a> {
    /// One side to move of a movement layer: its words.
    Words {
        /// Goats on the board.
        goats: u32,
        /// The side to move.
        side: Side,
        /// The words in slot order.
        words: &'a [u16],
    },
    /// One part of a placement half: its class blocks.
    Codes {
        /// Goats placed.
        placed: u32,
        /// The side to move.
        side: Side,
        /// Goats captured.
        captured: u32,
        /// The blocks, class by class.
        bytes: &'a [u8],
        /// Bytes per block.
        stride: usize,
    },
}

/// What a slot holds, or what it should hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// A movement value.
    Value(Value),
    /// A placement code.
    Code(Code),
    /// The unused mark (a movement slot of a non-canonical board).
    Unused,
    /// Two bits that are no code (3).
    Invalid,
}

impl std::fmt::Display for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stored::Value(v) => write!(f, "{v}"),
            Stored::Code(c) => f.write_str(c.name()),
            Stored::Unused => f.write_str("unused (no canonical board)"),
            Stored::Invalid => f.write_str("the invalid code 3"),
        }
    }
}

/// A slot whose stored value is not its children's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The file.
    pub file: DbFile,
    /// The position (the board the slot decodes to).
    pub position: Position,
    /// The slot within its side to move (a movement layer) or part (a placement half):
    /// `class * C(21, goats) + rank`.
    pub slot: u64,
    /// What the slot holds.
    pub stored: Stored,
    /// What the rules give it (`None`: a child's slot holds no value).
    pub expected: Option<Stored>,
    /// Each move with what its child's slot holds.
    pub children: Vec<(Move, Option<Stored>)>,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{}, {} to move, slot {}: {}",
            self.file.name(),
            self.position.side.name(),
            self.slot,
            self.position
        )?;
        let expected = self.expected.map_or_else(
            || "nothing (a child's slot holds no value)".to_string(),
            |e| e.to_string(),
        );
        writeln!(f, "  stored {}, its children give {expected}", self.stored)?;
        for (mv, c) in &self.children {
            let c = c.map_or_else(|| "no value".to_string(), |s| s.to_string());
            writeln!(f, "  {mv}: {c} for the side to move after it")?;
        }
        Ok(())
    }
}

/// The outcome of checking one file.
#[derive(Clone, Debug, Default)]
pub struct FileCheck {
    /// Slots read.
    pub slots: u64,
    /// Positions checked: canonical boards in a movement layer, every slot in a placement half.
    pub positions: u64,
    /// Slots whose stored value is not their children's.
    pub mismatches: u64,
    /// The first [`KEPT`] mismatches in file order.
    pub first: Vec<Mismatch>,
    /// The stored values of the positions inequivalent under the symmetries: per side to move
    /// (a layer) or per part (a half).
    pub counts: Vec<Counts>,
}

impl FileCheck {
    fn join(mut self, o: FileCheck) -> FileCheck {
        self.slots += o.slots;
        self.positions += o.positions;
        self.mismatches += o.mismatches;
        let room = KEPT.saturating_sub(self.first.len());
        self.first.extend(o.first.into_iter().take(room));
        self.counts = if self.counts.is_empty() {
            o.counts
        } else {
            self.counts
                .iter()
                .zip(&o.counts)
                .map(|(a, b)| a.join(*b))
                .collect()
        };
        self
    }

    fn note(&mut self, m: impl FnOnce() -> Mismatch) {
        self.mismatches += 1;
        if self.first.len() < KEPT {
            self.first.push(m());
        }
    }
}

/// Reads children's values from tables, by the rules and the index.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    /// The index.
    pub index: &'a Index,
    /// The lines of the board.
    pub lines: &'a Lines,
    /// The rules.
    pub rules: Rules,
    /// The tables children may lie in.
    pub tables: Vec<Table<'a>>,
}

impl Reader<'_> {
    /// What the database holds for `pos`: after the winning capture a loss in 0 (the goats to
    /// move); otherwise its slot in the table that holds it.
    ///
    /// # Panics
    /// If no table holds the position (the caller chose the tables).
    #[must_use]
    pub fn stored(&self, pos: &Position) -> Stored {
        if pos.captured >= self.rules.win_captures {
            return Stored::Value(Value::Loss(0));
        }
        let goats = u32::from(pos.goats_on_board());
        let placed = u32::from(pos.placed());
        let captured = u32::from(pos.captured);
        for t in &self.tables {
            match *t {
                Table::Words {
                    goats: g,
                    side,
                    words,
                } if !pos.is_placement() && g == goats && side == pos.side => {
                    let at = self.index.locate(&pos.cells, true);
                    let slot = at.class as u64 * u64::from(self.index.per_class(g as usize))
                        + u64::from(at.rank);
                    return match Value::from_word(words[slot as usize]) {
                        Some(v) => Stored::Value(v),
                        None => Stored::Unused,
                    };
                }
                Table::Codes {
                    placed: p,
                    side,
                    captured: c,
                    bytes,
                    stride,
                } if pos.is_placement() && p == placed && side == pos.side && c == captured => {
                    let at = self.index.locate(&pos.cells, false);
                    let block = &bytes[at.class * stride..(at.class + 1) * stride];
                    return Code::from_bits(bits_at(block, at.rank))
                        .map_or(Stored::Invalid, Stored::Code);
                }
                _ => {}
            }
        }
        panic!("no table holds {pos}");
    }

    /// The value the rules give `pos` from its children's stored values: `None` if a child's
    /// slot holds none (or a movement child holds a code).
    #[must_use]
    pub fn expected(&self, pos: &Position) -> Option<Stored> {
        let mut ok = true;
        if pos.is_placement() {
            let mut best = None::<Code>;
            pos.for_each_child(&self.rules, self.lines, |_, child| {
                let c = match self.stored(child) {
                    Stored::Value(v) => v.code(),
                    Stored::Code(c) => c,
                    Stored::Unused | Stored::Invalid => {
                        ok = false;
                        return;
                    }
                };
                best = best.max(Some(c.before()));
            });
            ok.then(|| Stored::Code(best.unwrap_or(Code::Loss)))
        } else {
            let mut best = None::<Value>;
            pos.for_each_child(&self.rules, self.lines, |_, child| {
                let Stored::Value(v) = self.stored(child) else {
                    ok = false;
                    return;
                };
                let v = v.before();
                if best.is_none_or(|b| v.is_better_than(b)) {
                    best = Some(v);
                }
            });
            ok.then(|| Stored::Value(best.unwrap_or(Value::Loss(0))))
        }
    }

    /// Each move of `pos` with what its child's slot holds.
    #[must_use]
    pub fn children(&self, pos: &Position) -> Vec<(Move, Option<Stored>)> {
        let mut out = Vec::new();
        pos.for_each_child(&self.rules, self.lines, |mv, child| {
            out.push((mv, Some(self.stored(child))));
        });
        out
    }
}

/// Calls `visit` with every board of `class` with `goats` goats in rank order: the rank, the
/// goats' free numbers, and `template` with the board set.
fn each_board(
    class: &Class,
    goats: u32,
    template: Position,
    mut visit: impl FnMut(u32, &[u8], &Position),
) {
    let mut pos = template;
    let mut subsets = Subsets::new(goats as usize);
    let mut rank = 0;
    loop {
        pos.cells = class.board();
        for &f in subsets.numbers() {
            pos.cells[class.free[usize::from(f)]] = Cell::Goat;
        }
        visit(rank, subsets.numbers(), &pos);
        rank += 1;
        if !subsets.advance() {
            break;
        }
    }
}

/// Runs `check` on the tasks `0..tasks` in parallel and joins their outcomes in task order.
fn in_parallel(tasks: usize, check: impl Fn(usize) -> FileCheck + Sync + Send) -> FileCheck {
    (0..tasks)
        .into_par_iter()
        .map(check)
        .collect::<Vec<_>>()
        .into_iter()
        .fold(FileCheck::default(), FileCheck::join)
}

/// Checks the layer with `goats` goats: `reader` holds its two sides' words and the goats'
/// words of the layer below (unless a capture from this layer wins), `words` this layer's
/// words, the goats to move first. Canonical boards must hold their children's value, the
/// other slots the unused mark.
#[must_use]
pub fn check_layer(reader: &Reader<'_>, goats: u32, words: &[u16]) -> FileCheck {
    let index = reader.index;
    let classes = index.classes().len();
    let per_class = index.per_class(goats as usize);
    let per_side = index.slots(goats as usize);
    let file = DbFile::Layer(goats);
    in_parallel(2 * classes, |chunk| {
        let side = if chunk < classes {
            Side::Goats
        } else {
            Side::Tigers
        };
        let class_no = chunk % classes;
        let class = &index.classes()[class_no];
        let base = class_no as u64 * u64::from(per_class);
        let side_base = if side == Side::Goats { 0 } else { per_side };
        let mut out = FileCheck {
            counts: vec![Counts::default(); 2],
            ..FileCheck::default()
        };
        let template = Position {
            cells: class.board(),
            side,
            in_hand: 0,
            captured: TOTAL_GOATS - goats as u8,
        };
        each_board(class, goats, template, |rank, numbers, pos| {
            let slot = base + u64::from(rank);
            let word = words[(side_base + slot) as usize];
            let stored = Value::from_word(word).map_or(Stored::Unused, Stored::Value);
            let expected = if index.is_canonical(class, numbers) {
                out.positions += 1;
                reader.expected(pos)
            } else {
                Some(Stored::Unused)
            };
            if expected != Some(stored) {
                out.note(|| Mismatch {
                    file,
                    position: *pos,
                    slot,
                    stored,
                    expected,
                    children: reader.children(pos),
                });
            } else if let Stored::Value(v) = stored {
                out.counts[usize::from(side == Side::Tigers)].add(v);
            }
            out.slots += 1;
        });
        out
    })
}

/// Checks one part of a placement half: every slot (every board, symmetric images included)
/// must hold its children's code. `reader` holds the part itself and the tables of its
/// children. The counts are of the canonical boards.
#[must_use]
pub fn check_part(
    reader: &Reader<'_>,
    file: DbFile,
    placed: u32,
    side: Side,
    captured: u32,
) -> FileCheck {
    let index = reader.index;
    let goats = placed - captured;
    let per_class = index.per_class(goats as usize);
    let (bytes, stride) = reader
        .tables
        .iter()
        .find_map(|t| match *t {
            Table::Codes {
                placed: p,
                side: s,
                captured: c,
                bytes,
                stride,
            } if (p, s, c) == (placed, side, captured) => Some((bytes, stride)),
            _ => None,
        })
        .expect("the reader holds the part");
    in_parallel(index.classes().len(), |class_no| {
        let class = &index.classes()[class_no];
        let block = &bytes[class_no * stride..(class_no + 1) * stride];
        let mut out = FileCheck {
            counts: vec![Counts::default()],
            ..FileCheck::default()
        };
        let template = Position {
            cells: class.board(),
            side,
            in_hand: TOTAL_GOATS - placed as u8,
            captured: captured as u8,
        };
        each_board(class, goats, template, |rank, numbers, pos| {
            let stored =
                Code::from_bits(bits_at(block, rank)).map_or(Stored::Invalid, Stored::Code);
            let expected = reader.expected(pos);
            out.positions += 1;
            out.slots += 1;
            if expected != Some(stored) {
                out.note(|| Mismatch {
                    file,
                    position: *pos,
                    slot: class_no as u64 * u64::from(per_class) + u64::from(rank),
                    stored,
                    expected,
                    children: reader.children(pos),
                });
            } else if let (true, Stored::Code(c)) = (index.is_canonical(class, numbers), stored) {
                out.counts[0].add_code(c);
            }
        });
        out
    })
}
