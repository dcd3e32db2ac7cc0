//! Placement-phase values at two bits a slot: loss, draw or win for the side to move, for
//! every board of one number of goats, stored class by class.
//!
//! The slots are those of [`crate::index::Index`] (`class * C(21, g) + rank`), but each class's
//! block starts on a byte boundary (its length rounded up to four slots) so that blocks can be
//! written in parallel. Unlike the movement layers, every slot holds a value, the
//! non-canonical images of symmetric boards included (they are boards like any other, and the
//! placement solve computes them rather than looking up their canonical twin).

use serde::{Deserialize, Serialize};

use crate::combin::{binomial, FREE_POINTS};

/// A two-bit value for the side to move.
pub type Code = u8;
/// The side to move loses.
pub const LOSS: Code = 0;
/// Neither side can force a win.
pub const DRAW: Code = 1;
/// The side to move wins.
pub const WIN: Code = 2;

/// The code of the parent whose move leads to a child of code `child` (the child's value is
/// its own side to move's, the other side).
#[must_use]
#[inline]
pub fn parent(child: Code) -> Code {
    WIN - child
}

/// `win`, `draw` or `loss`.
#[must_use]
pub fn name(code: Code) -> &'static str {
    match code {
        WIN => "win",
        DRAW => "draw",
        _ => "loss",
    }
}

/// Bytes per class block for boards with `goats` goats.
#[must_use]
pub fn stride(goats: u32) -> usize {
    (binomial(FREE_POINTS, goats) as usize).div_ceil(4)
}

/// The values of every board with `goats` goats, one side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    goats: u32,
    stride: usize,
    bytes: Vec<u8>,
}

impl Packed {
    /// All slots set to [`LOSS`] (code 0), for `classes` tiger classes.
    #[must_use]
    pub fn zeroed(goats: u32, classes: usize) -> Self {
        let stride = stride(goats);
        Packed {
            goats,
            stride,
            bytes: vec![0; stride * classes],
        }
    }

    /// The values from their bytes (as [`Packed::bytes`] gives them); `None` if the length does
    /// not fit `classes` blocks.
    #[must_use]
    pub fn from_bytes(goats: u32, classes: usize, bytes: Vec<u8>) -> Option<Self> {
        let stride = stride(goats);
        (bytes.len() == stride * classes).then_some(Packed {
            goats,
            stride,
            bytes,
        })
    }

    /// Goats on the board.
    #[must_use]
    pub fn goats(&self) -> u32 {
        self.goats
    }

    /// The bytes, class blocks in order.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes, to fill block by block ([`stride`] bytes a class).
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }

    /// The byte blocks of the classes, to fill in parallel.
    pub fn blocks_mut(&mut self) -> std::slice::ChunksExactMut<'_, u8> {
        self.bytes.chunks_exact_mut(self.stride)
    }

    /// The block of `class`.
    #[must_use]
    #[inline]
    pub fn block(&self, class: usize) -> &[u8] {
        &self.bytes[class * self.stride..(class + 1) * self.stride]
    }

    /// The code of `rank` within the block of `class`.
    #[must_use]
    #[inline]
    pub fn get(&self, class: usize, rank: u32) -> Code {
        get(self.block(class), rank)
    }
}

/// The code of `rank` within a class block.
#[must_use]
#[inline]
pub fn get(block: &[u8], rank: u32) -> Code {
    block[(rank >> 2) as usize] >> ((rank & 3) * 2) & 3
}

/// Sets the code of `rank` within a class block (whose slot must hold 0).
#[inline]
pub fn put(block: &mut [u8], rank: u32, code: Code) {
    block[(rank >> 2) as usize] |= code << ((rank & 3) * 2);
}

/// The counts of one part (positions inequivalent under the symmetries).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Positions.
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
}

impl Tally {
    /// Counts one position of value `code`.
    pub fn add(&mut self, code: Code) {
        self.positions += 1;
        match code {
            WIN => self.wins += 1,
            DRAW => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// The sum of two tallies.
    #[must_use]
    pub fn join(self, o: Tally) -> Tally {
        Tally {
            positions: self.positions + o.positions,
            wins: self.wins + o.wins,
            draws: self.draws + o.draws,
            losses: self.losses + o.losses,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_within_blocks() {
        let mut p = Packed::zeroed(3, 5);
        assert_eq!(p.bytes().len(), 5 * 1330usize.div_ceil(4));
        for (class, block) in p.blocks_mut().enumerate() {
            for rank in 0..1330u32 {
                put(block, rank, ((rank + class as u32) % 3) as Code);
            }
        }
        for class in 0..5 {
            for rank in 0..1330u32 {
                assert_eq!(p.get(class, rank), ((rank + class as u32) % 3) as Code);
            }
        }
        assert_eq!(parent(LOSS), WIN);
        assert_eq!(parent(DRAW), DRAW);
        assert_eq!(parent(WIN), LOSS);
    }
}
