//! The index of a layer: a perfect hash of movement-phase boards with a given number of goats,
//! reduced by the eight symmetries.
//!
//! A board is mapped to its canonical image, the least of its eight images ordered by the
//! tiger set's bitmask, then the goat set's. Its slot is `class * C(21, g) + rank`: `class`
//! numbers the canonical tiger sets (1,666 classes of the C(25, 4) = 12,650 tiger sets) in
//! increasing bitmask order, and `rank` is the colexicographic rank of the goat set squeezed
//! onto the 21 points the tigers leave free. A class whose tiger set has symmetries of its own
//! (a stabiliser larger than the identity) leaves the slots of the non-canonical goat sets
//! unused; every other slot is one position.

use cowrie_engine::games::baghchal::Bitboard;

use crate::combin::{self, binomial, FREE_POINTS};
use crate::layer::Side;
use crate::symmetry;

/// The tiger sets: four tigers on 25 points.
pub const TIGER_SETS: u32 = 12650;

/// A canonical tiger set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TigerClass {
    /// The canonical tiger set (least image under the symmetries).
    pub tigers: Bitboard,
    /// The symmetries (bit `s` for symmetry `s`) that map the set to itself; bit 0 always set.
    pub stabiliser: u8,
}

#[derive(Clone, Copy, Debug)]
struct TigerEntry {
    class: u16,
    /// The symmetries taking this tiger set to its class's canonical set.
    to_canonical: u8,
}

/// The tiger classes and the lookup from any tiger set to its class: shared by every layer.
#[derive(Clone, Debug)]
pub struct Index {
    classes: Vec<TigerClass>,
    by_rank: Vec<TigerEntry>,
}

/// A board's canonical slot and the order of its stabiliser (the symmetries mapping it to
/// itself: 1, 2, 4 or 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The slot within its layer and side to move.
    pub slot: u32,
    /// The number of symmetries that fix the board.
    pub stabiliser: u32,
}

/// The colexicographic rank of a set of four points among the 25.
#[inline]
fn tiger_rank(tigers: Bitboard) -> usize {
    let mut t = tigers;
    let mut r = 0;
    let mut i = 1;
    while t != 0 {
        let p = t.trailing_zeros();
        r += binomial(p, i);
        i += 1;
        t &= t - 1;
    }
    r as usize
}

impl Default for Index {
    fn default() -> Self {
        Self::new()
    }
}

impl Index {
    /// Builds the tiger classes (a few milliseconds).
    #[must_use]
    pub fn new() -> Self {
        let mut classes = Vec::new();
        let mut class_of_rank = vec![u16::MAX; TIGER_SETS as usize];
        let mut by_rank = Vec::with_capacity(TIGER_SETS as usize);
        let mut t: Bitboard = 0b1111;
        for r in 0..TIGER_SETS as usize {
            debug_assert_eq!(tiger_rank(t), r);
            let images: Vec<Bitboard> = (0..symmetry::COUNT)
                .map(|s| symmetry::apply(s, t))
                .collect();
            let least = *images.iter().min().expect("eight images");
            let mut to_canonical = 0u8;
            for (s, &img) in images.iter().enumerate() {
                if img == least {
                    to_canonical |= 1 << s;
                }
            }
            if least == t {
                class_of_rank[r] = classes.len() as u16;
                classes.push(TigerClass {
                    tigers: t,
                    stabiliser: to_canonical,
                });
            }
            // The least image has a rank no larger than this set's, so its class is known.
            let class = class_of_rank[tiger_rank(least)];
            by_rank.push(TigerEntry {
                class,
                to_canonical,
            });
            if r + 1 < TIGER_SETS as usize {
                t = combin::next_subset(t);
            }
        }
        Index { classes, by_rank }
    }

    /// The canonical tiger sets, in slot order.
    #[must_use]
    pub fn classes(&self) -> &[TigerClass] {
        &self.classes
    }

    /// The slots per side to move of the layer with `goats` goats: classes x C(21, goats).
    #[must_use]
    pub fn slots(&self, goats: u32) -> usize {
        self.classes.len() * binomial(FREE_POINTS, goats) as usize
    }

    /// The class of the tiger set `tigers` and one symmetry taking it to the class's canonical
    /// set.
    #[must_use]
    #[inline]
    pub fn class_of(&self, tigers: Bitboard) -> (usize, usize) {
        let e = self.by_rank[tiger_rank(tigers)];
        (e.class as usize, e.to_canonical.trailing_zeros() as usize)
    }

    /// The canonical slot of the board (`tigers`, `goats`) and its stabiliser's order.
    #[must_use]
    #[inline]
    pub fn canonical(&self, tigers: Bitboard, goats: Bitboard) -> Canonical {
        let e = self.by_rank[tiger_rank(tigers)];
        let class = self.classes[e.class as usize];
        let mut best = Bitboard::MAX;
        let mut count = 0;
        let mut syms = e.to_canonical;
        while syms != 0 {
            let s = syms.trailing_zeros() as usize;
            syms &= syms - 1;
            let img = symmetry::apply(s, goats);
            if img < best {
                best = img;
                count = 1;
            } else if img == best {
                count += 1;
            }
        }
        let g = goats.count_ones();
        let rank = combin::rank(combin::squeeze(best, class.tigers));
        Canonical {
            slot: u32::from(e.class) * binomial(FREE_POINTS, g) + rank,
            stabiliser: count,
        }
    }

    /// The canonical board stored at `slot` of the layer with `goats` goats: (tigers, goats).
    #[must_use]
    #[inline]
    pub fn board(&self, goats: u32, slot: u32) -> (Bitboard, Bitboard) {
        let per_class = binomial(FREE_POINTS, goats);
        let class = self.classes[(slot / per_class) as usize];
        let g = combin::spread(combin::unrank(slot % per_class, goats), class.tigers);
        (class.tigers, g)
    }

    /// The layer with `goats` goats in chunks of one side to move and one tiger class:
    /// `2 * classes` chunks, goats to move first. Chunk `chunk`'s side, class, first slot within
    /// its side, and its boards' goat sets in slot order.
    #[must_use]
    pub fn chunk(&self, goats: u32, chunk: usize) -> Chunk {
        let classes = self.classes.len();
        let side = if chunk < classes {
            Side::Goats
        } else {
            Side::Tigers
        };
        let class = chunk % classes;
        let per_class = binomial(FREE_POINTS, goats);
        Chunk {
            side,
            class,
            tigers: self.classes[class].tigers,
            first_slot: class as u32 * per_class,
            left: per_class,
            next: (1 << goats) - 1,
        }
    }

    /// For the board (`class`'s tiger set, `goats`): `None` if another symmetric goat set takes
    /// the canonical slot (the slot of `goats` is then unused), else the stabiliser's order.
    #[must_use]
    #[inline]
    pub fn stabiliser_if_canonical(&self, class: usize, goats: Bitboard) -> Option<u32> {
        let mut syms = self.classes[class].stabiliser & !1;
        let mut count = 1;
        while syms != 0 {
            let s = syms.trailing_zeros() as usize;
            syms &= syms - 1;
            let img = symmetry::apply(s, goats);
            if img < goats {
                return None;
            }
            if img == goats {
                count += 1;
            }
        }
        Some(count)
    }
}

/// The boards of one side to move and one tiger class, in slot order: see [`Index::chunk`].
#[derive(Clone, Debug)]
pub struct Chunk {
    /// The side to move.
    pub side: Side,
    /// The tiger class.
    pub class: usize,
    /// The class's tiger set.
    pub tigers: Bitboard,
    /// The slot of the first board within its side.
    pub first_slot: u32,
    left: u32,
    next: u32,
}

impl Iterator for Chunk {
    /// The goat set of each slot (used or not).
    type Item = Bitboard;

    #[inline]
    fn next(&mut self) -> Option<Bitboard> {
        if self.left == 0 {
            return None;
        }
        let m = self.next;
        self.left -= 1;
        if self.left > 0 {
            self.next = combin::next_subset(m);
        }
        Some(combin::spread(m, self.tigers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_1666_tiger_classes() {
        // Burnside's lemma by hand: the identity fixes C(25,4) = 12650 sets; the half turn
        // fixes sets of two swapped pairs, C(12,2) = 66; each quarter turn fixes one 4-cycle,
        // 6 of them; each of the four reflections fixes 5 points and 10 swapped pairs, giving
        // C(5,4) + C(5,2) * 10 + C(10,2) = 5 + 100 + 45 = 150.
        // (12650 + 66 + 2 * 6 + 4 * 150) / 8 = 1666.
        let index = Index::new();
        assert_eq!(index.classes().len(), 1666);
        assert_eq!(index.slots(20), 1666 * 21);
    }

    #[test]
    fn every_image_of_a_board_has_one_slot() {
        let index = Index::new();
        let mut x = 0x2545_F491u32;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let r = x % TIGER_SETS;
            let class = index.by_rank[r as usize].class as usize;
            let tigers = index.classes[class].tigers;
            let goats = combin::spread(combin::unrank((x >> 5) % 5985, 4), tigers);
            let c = index.canonical(tigers, goats);
            let images: Vec<Canonical> = (0..8)
                .map(|s| index.canonical(symmetry::apply(s, tigers), symmetry::apply(s, goats)))
                .collect();
            assert!(images.iter().all(|&i| i == c));
            let fixed = (0..8)
                .filter(|&s| {
                    symmetry::apply(s, tigers) == tigers && symmetry::apply(s, goats) == goats
                })
                .count() as u32;
            assert_eq!(c.stabiliser, fixed);
            let (bt, bg) = index.board(4, c.slot);
            assert_eq!(index.canonical(bt, bg), c);
            assert_eq!(
                index.stabiliser_if_canonical(c.slot as usize / 5985, bg),
                Some(fixed)
            );
        }
    }
}
