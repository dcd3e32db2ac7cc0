//! The databases' position index, decoded from its description in `docs/solver.md`.
//!
//! A set of points is ordered by its *key*, the sum of `2^p` over its points (the order of the
//! solver's bitmasks). A board is stored at its canonical image, the least of its eight images
//! by the tigers' key, then the goats'. Within a layer (goats on the board) and a side to move,
//! its slot is `class * C(21, g) + rank`: `class` numbers the canonical tiger sets in increasing
//! key order, and `rank` is the colexicographic rank of the goat set among the `g`-subsets of
//! the 21 points the tigers leave free (numbered in increasing order), `sum C(f_i, i + 1)` over
//! the goats' free numbers `f_0 < f_1 < ...`. The placement files use the same slots with
//! every board stored, any image of a symmetric board as good as another.

use crate::board::{Cell, Cells, POINTS, SYMMETRIES};

/// The points the four tigers leave free.
pub const FREE: usize = POINTS - 4;

/// A canonical tiger set.
#[derive(Clone, Debug)]
pub struct Class {
    /// Its points, in increasing order.
    pub tigers: [usize; 4],
    /// The free points in increasing order.
    pub free: [usize; FREE],
    /// `number[p]`: the position of point `p` in [`Class::free`] (unused for the tigers).
    number: [u8; POINTS],
    /// The symmetries other than the identity that map the tiger set to itself.
    pub stabiliser: Vec<usize>,
}

impl Class {
    /// The board with this class's tigers and nothing else.
    #[must_use]
    pub fn board(&self) -> Cells {
        let mut cells = [Cell::Empty; POINTS];
        for &t in &self.tigers {
            cells[t] = Cell::Tiger;
        }
        cells
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    class: u16,
    /// Bit `s` set for each symmetry taking this tiger set to its class's.
    to_class: u8,
}

/// Where a board is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The tiger class.
    pub class: usize,
    /// The goat set's rank within the class.
    pub rank: u32,
}

/// The index: binomial coefficients, the symmetries and the tiger classes.
#[derive(Clone, Debug)]
pub struct Index {
    binomial: [[u32; POINTS + 1]; POINTS + 1],
    perms: [[usize; POINTS]; SYMMETRIES],
    /// `images[s][byte][bits]`: the key of the image under `s` of the points `8 * byte + i`
    /// for the bits `i` of `bits`.
    images: Box<[[[u32; 256]; 4]; SYMMETRIES]>,
    classes: Vec<Class>,
    /// By the colexicographic rank of a tiger set among the 4-subsets of the 25 points.
    entries: Vec<Entry>,
}

/// The key of a set of points: the sum of `2^p`.
fn key(points: impl IntoIterator<Item = usize>) -> u32 {
    points.into_iter().map(|p| 1u32 << p).sum()
}

impl Default for Index {
    fn default() -> Self {
        Self::new()
    }
}

impl Index {
    /// Builds the tables (a few milliseconds).
    #[must_use]
    pub fn new() -> Self {
        let mut binomial = [[0u32; POINTS + 1]; POINTS + 1];
        for n in 0..=POINTS {
            binomial[n][0] = 1;
            for k in 1..=n {
                binomial[n][k] = binomial[n - 1][k - 1] + binomial[n - 1][k];
            }
        }
        let perms = crate::board::symmetries();
        let image = |s: usize, set: &[usize; 4]| {
            let mut t = set.map(|p| perms[s][p]);
            t.sort_unstable();
            t
        };
        // Every tiger set in colexicographic order, which is increasing key order: by the
        // highest point, then the next, ...
        let mut sets = Vec::new();
        for d in 3..POINTS {
            for c in 2..d {
                for b in 1..c {
                    for a in 0..b {
                        sets.push([a, b, c, d]);
                    }
                }
            }
        }
        let mut classes: Vec<Class> = Vec::new();
        let mut class_of_key = std::collections::HashMap::new();
        let mut entries = Vec::with_capacity(sets.len());
        for set in &sets {
            let least = (0..SYMMETRIES)
                .map(|s| image(s, set))
                .min_by_key(|t| key(*t))
                .expect("eight images");
            let to_class = (0..SYMMETRIES)
                .filter(|&s| image(s, set) == least)
                .fold(0u8, |m, s| m | 1 << s);
            if least == *set {
                let mut free = [0; FREE];
                let mut number = [u8::MAX; POINTS];
                for (i, p) in (0..POINTS).filter(|p| !set.contains(p)).enumerate() {
                    free[i] = p;
                    number[p] = i as u8;
                }
                class_of_key.insert(key(*set), classes.len() as u16);
                classes.push(Class {
                    tigers: *set,
                    free,
                    number,
                    stabiliser: (1..SYMMETRIES)
                        .filter(|&s| to_class >> s & 1 == 1)
                        .collect(),
                });
            }
            // The least image comes no later in key order, so its class is known.
            entries.push(Entry {
                class: class_of_key[&key(least)],
                to_class,
            });
        }
        let mut images = Box::new([[[0u32; 256]; 4]; SYMMETRIES]);
        for (s, table) in images.iter_mut().enumerate() {
            for (byte, row) in table.iter_mut().enumerate() {
                for (bits, img) in row.iter_mut().enumerate() {
                    *img = (0..8)
                        .filter(|i| bits >> i & 1 == 1 && 8 * byte + i < POINTS)
                        .map(|i| 1u32 << perms[s][8 * byte + i])
                        .sum();
                }
            }
        }
        Index {
            binomial,
            perms,
            images,
            classes,
            entries,
        }
    }

    /// C(n, k); 0 when k > n.
    #[must_use]
    #[inline]
    pub fn binomial(&self, n: usize, k: usize) -> u32 {
        if k > n {
            0
        } else {
            self.binomial[n][k]
        }
    }

    /// The canonical tiger sets in slot order.
    #[must_use]
    pub fn classes(&self) -> &[Class] {
        &self.classes
    }

    /// `perm[s][p]`: the image of point `p` under symmetry `s`.
    #[must_use]
    pub fn perms(&self) -> &[[usize; POINTS]; SYMMETRIES] {
        &self.perms
    }

    /// Goat sets per class with `goats` goats on the board: C(21, goats).
    #[must_use]
    pub fn per_class(&self, goats: usize) -> u32 {
        self.binomial(FREE, goats)
    }

    /// Slots per side to move of a movement layer with `goats` goats.
    #[must_use]
    pub fn slots(&self, goats: usize) -> u64 {
        self.classes.len() as u64 * u64::from(self.per_class(goats))
    }

    /// The rank of a goat set given by its free numbers in increasing order.
    #[must_use]
    #[inline]
    pub fn rank_of_numbers(&self, numbers: &[u8]) -> u32 {
        numbers
            .iter()
            .enumerate()
            .map(|(i, &f)| self.binomial[usize::from(f)][i + 1])
            .sum()
    }

    /// The rank, within `class`, of the goat set with key `goats` (its points free in `class`).
    #[inline]
    fn rank_of_key(&self, class: &Class, goats: u32) -> u32 {
        let mut rank = 0;
        let mut i = 1;
        let mut rest = goats;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            rank += self.binomial[usize::from(class.number[p])][i];
            i += 1;
        }
        rank
    }

    /// Where `cells` (four tigers) is stored: the class of its tiger set and the rank of its
    /// goats' image under a symmetry taking the tigers there, the image of least key if
    /// `canonical` (the movement layers), else the first such symmetry's (the placement files,
    /// which store every image).
    ///
    /// # Panics
    /// If the board does not have four tigers.
    #[must_use]
    #[inline]
    pub fn locate(&self, cells: &Cells, canonical: bool) -> Slot {
        // The tiger set's colexicographic rank and the goats' key, in one pass.
        let mut set_rank = 0usize;
        let mut tigers = 0;
        let mut goats = 0u32;
        for (p, &c) in cells.iter().enumerate() {
            match c {
                Cell::Tiger => {
                    tigers += 1;
                    set_rank += self.binomial[p][tigers] as usize;
                }
                Cell::Goat => goats |= 1 << p,
                Cell::Empty => {}
            }
        }
        assert_eq!(tigers, 4, "four tigers");
        let entry = self.entries[set_rank];
        let class = &self.classes[usize::from(entry.class)];
        let mut best = u32::MAX;
        let mut syms = entry.to_class;
        while syms != 0 {
            let s = syms.trailing_zeros() as usize;
            syms &= syms - 1;
            best = best.min(self.image(s, goats));
            if !canonical {
                break;
            }
        }
        Slot {
            class: usize::from(entry.class),
            rank: self.rank_of_key(class, best),
        }
    }

    /// The key of the image under symmetry `s` of the set with key `set`.
    #[inline]
    fn image(&self, s: usize, set: u32) -> u32 {
        let t = &self.images[s];
        t[0][(set & 0xFF) as usize]
            | t[1][(set >> 8 & 0xFF) as usize]
            | t[2][(set >> 16 & 0xFF) as usize]
            | t[3][(set >> 24) as usize]
    }

    /// Whether the board of `class` with goats on the free numbers `numbers` is its own
    /// canonical image (no symmetry of the tiger set gives the goats a smaller key).
    #[must_use]
    #[inline]
    pub fn is_canonical(&self, class: &Class, numbers: &[u8]) -> bool {
        if class.stabiliser.is_empty() {
            return true;
        }
        let own: u32 = numbers
            .iter()
            .map(|&f| 1u32 << class.free[usize::from(f)])
            .sum();
        class.stabiliser.iter().all(|&s| {
            let perm = &self.perms[s];
            let img: u32 = numbers
                .iter()
                .map(|&f| 1u32 << perm[class.free[usize::from(f)]])
                .sum();
            img >= own
        })
    }

    /// The board stored at `rank` of `class` with `goats` goats: the inverse of the rank.
    #[must_use]
    pub fn board(&self, class: usize, goats: usize, rank: u32) -> Cells {
        let class = &self.classes[class];
        let mut cells = class.board();
        let mut r = rank;
        let mut top = FREE;
        for i in (1..=goats).rev() {
            let mut f = top - 1;
            while self.binomial(f, i) > r {
                f -= 1;
            }
            r -= self.binomial(f, i);
            cells[class.free[f]] = Cell::Goat;
            top = f;
        }
        cells
    }
}

/// The `k`-subsets of the 21 free numbers in colexicographic order (rank 0, 1, 2, ...), as
/// increasing arrays of free numbers.
#[derive(Clone, Debug)]
pub struct Subsets {
    numbers: [u8; FREE],
    k: usize,
}

impl Subsets {
    /// The first subset: `0, 1, ..., k - 1`.
    #[must_use]
    pub fn new(k: usize) -> Self {
        let mut numbers = [0u8; FREE];
        for (i, n) in numbers.iter_mut().enumerate().take(k) {
            *n = i as u8;
        }
        Subsets { numbers, k }
    }

    /// The current subset.
    #[must_use]
    #[inline]
    pub fn numbers(&self) -> &[u8] {
        &self.numbers[..self.k]
    }

    /// Moves to the next subset; `false` after the last.
    #[inline]
    pub fn advance(&mut self) -> bool {
        // Raise the lowest number that can rise without meeting the next, and reset those
        // below it to the smallest values.
        for i in 0..self.k {
            let limit = if i + 1 < self.k {
                self.numbers[i + 1]
            } else {
                FREE as u8
            };
            if self.numbers[i] + 1 < limit {
                self.numbers[i] += 1;
                for (j, n) in self.numbers.iter_mut().enumerate().take(i) {
                    *n = j as u8;
                }
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_1666_tiger_classes() {
        // Burnside's lemma: the identity fixes all C(25, 4) = 12,650 tiger sets; the half turn
        // those made of two of its 12 swapped pairs, C(12, 2) = 66; a quarter turn those made of
        // one of its 6 four-cycles, 6; a reflection fixes 5 points and swaps 10 pairs:
        // C(5, 4) + C(5, 2) * 10 + C(10, 2) = 150. (12,650 + 66 + 2 * 6 + 4 * 150) / 8 = 1,666.
        let index = Index::new();
        assert_eq!(index.classes().len(), 1666);
        assert_eq!(index.entries.len(), 12_650);
        assert_eq!(index.per_class(16), 20_349);
        assert_eq!(index.classes()[0].tigers, [0, 1, 2, 3]);
    }

    #[test]
    fn subsets_run_in_rank_order_and_boards_locate_at_their_rank() {
        let index = Index::new();
        for k in [0, 1, 2, 5, 19, 20, 21] {
            let mut s = Subsets::new(k);
            let mut r = 0;
            loop {
                assert_eq!(index.rank_of_numbers(s.numbers()), r);
                if r % 97 == 0 {
                    let class = 500;
                    let cells = index.board(class, k, r);
                    let at = index.locate(&cells, false);
                    // Class 500's tiger set is its own class's: the identity takes it there.
                    assert_eq!(at, Slot { class, rank: r });
                }
                r += 1;
                if !s.advance() {
                    break;
                }
            }
            assert_eq!(r, index.per_class(k));
        }
    }

    #[test]
    fn every_image_of_a_board_has_the_canonical_slot() {
        let index = Index::new();
        let mut x = 0x9E37_79B9u32;
        for trial in 0..3000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let class = (x % 1666) as usize;
            let goats = 1 + trial % 20;
            let rank = (x >> 11) % index.per_class(goats);
            let cells = index.board(class, goats, rank);
            let at = index.locate(&cells, true);
            for perm in index.perms() {
                let mut img = [Cell::Empty; POINTS];
                for p in 0..POINTS {
                    img[perm[p]] = cells[p];
                }
                assert_eq!(index.locate(&img, true), at);
            }
            // The canonical image is the board itself exactly when no symmetry of the tiger
            // set lowers the goats' key.
            let c = &index.classes()[class];
            let numbers: Vec<u8> = (0..POINTS)
                .filter(|&p| cells[p] == Cell::Goat)
                .map(|p| c.number[p])
                .collect();
            assert_eq!(index.rank_of_numbers(&numbers), rank);
            let canonical = index.is_canonical(c, &numbers);
            assert_eq!(canonical, at == Slot { class, rank });
        }
    }
}
