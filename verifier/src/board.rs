//! The board as 25 cells, its lines and its eight symmetries, derived from the rules' own words
//! (`docs/rules/baghchal.md`): a 5x5 grid of points, point `5 * row + col` (file `a`-`e` the
//! column, rank `1`-`5` the row); every point joined to its orthogonal neighbours, and the points
//! whose row + column is even also to their diagonal neighbours (the alquerque pattern).

use std::fmt;

/// The points of the board.
pub const POINTS: usize = 25;
/// The width (and height) of the grid.
const SIDE: i32 = 5;

/// What stands on a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A goat.
    Goat,
    /// A tiger.
    Tiger,
}

/// The board: what stands on each of the 25 points.
pub type Cells = [Cell; POINTS];

/// A point's row (rank 1 is row 0) and column (file a is column 0).
#[must_use]
pub fn row_col(p: usize) -> (i32, i32) {
    ((p / 5) as i32, (p % 5) as i32)
}

/// The point at (`row`, `col`), if it is on the board.
#[must_use]
pub fn at(row: i32, col: i32) -> Option<usize> {
    ((0..SIDE).contains(&row) && (0..SIDE).contains(&col)).then(|| (row * SIDE + col) as usize)
}

/// Whether diagonal lines pass through the point: row + column even.
#[must_use]
pub fn has_diagonals(p: usize) -> bool {
    let (r, c) = row_col(p);
    (r + c) % 2 == 0
}

/// The eight directions (row step, column step), orthogonal first.
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The lines through each point: for each direction a line runs in from the point, the next
/// point along it and the one after (`None` where the line ends).
#[derive(Clone, Debug)]
pub struct Lines {
    /// `next[p]`: the points one step from `p` along a line.
    pub next: [Vec<usize>; POINTS],
    /// `jumps[p]`: (the point jumped over, the landing point) for each line from `p` that runs
    /// on for two points.
    pub jumps: [Vec<(usize, usize)>; POINTS],
}

impl Lines {
    /// The lines of the alquerque pattern.
    #[must_use]
    pub fn new() -> Self {
        let mut next: [Vec<usize>; POINTS] = std::array::from_fn(|_| Vec::new());
        let mut jumps: [Vec<(usize, usize)>; POINTS] = std::array::from_fn(|_| Vec::new());
        for p in 0..POINTS {
            let (r, c) = row_col(p);
            for &(dr, dc) in &DIRECTIONS {
                let diagonal = dr != 0 && dc != 0;
                // A diagonal line runs only through points with diagonals; from such a point a
                // diagonal step keeps row + column even, so the line goes on.
                if diagonal && !has_diagonals(p) {
                    continue;
                }
                let Some(q) = at(r + dr, c + dc) else {
                    continue;
                };
                next[p].push(q);
                if let Some(t) = at(r + 2 * dr, c + 2 * dc) {
                    jumps[p].push((q, t));
                }
            }
            next[p].sort_unstable();
            jumps[p].sort_unstable_by_key(|&(_, t)| t);
        }
        Lines { next, jumps }
    }
}

impl Default for Lines {
    fn default() -> Self {
        Self::new()
    }
}

/// The number of symmetries of the square.
pub const SYMMETRIES: usize = 8;

/// The image of (`row`, `col`) under symmetry `s`: the identity, three turns and four
/// reflections (about the centre `c3`).
fn map_row_col(s: usize, r: i32, c: i32) -> (i32, i32) {
    let m = SIDE - 1;
    match s {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (m - r, c),
        6 => (c, r),
        _ => (m - c, m - r),
    }
}

/// `perm[s][p]`: the image of point `p` under symmetry `s`.
#[must_use]
pub fn symmetries() -> [[usize; POINTS]; SYMMETRIES] {
    std::array::from_fn(|s| {
        std::array::from_fn(|p| {
            let (r, c) = row_col(p);
            let (r2, c2) = map_row_col(s, r, c);
            at(r2, c2).expect("a symmetry keeps the board")
        })
    })
}

/// A point's name: `a1` .. `e5`.
#[must_use]
pub fn point_name(p: usize) -> String {
    let (r, c) = row_col(p);
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

/// The board in the position text form's first field: rank 5 down to rank 1, separated by `/`,
/// `G`, `T` or `.` from file a to e.
pub struct BoardText<'a>(pub &'a Cells);

impl fmt::Display for BoardText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..SIDE).rev() {
            for col in 0..SIDE {
                let p = at(row, col).expect("on the board");
                f.write_str(match self.0[p] {
                    Cell::Empty => ".",
                    Cell::Goat => "G",
                    Cell::Tiger => "T",
                })?;
            }
            if row > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pattern_has_its_lines() {
        let lines = Lines::new();
        // Orthogonal segments: 4 per row and per column, 40; diagonal ones: each of the 16 unit
        // squares has the one joining its two even corners. Each segment is two steps.
        let steps: usize = lines.next.iter().map(Vec::len).sum();
        assert_eq!(steps, 80 + 2 * 16);
        // The centre has all eight; a corner three (two orthogonal, one diagonal); b1 two
        // orthogonal along the edge and one up.
        assert_eq!(lines.next[12].len(), 8);
        assert_eq!(lines.next[0], vec![1, 5, 6]);
        assert_eq!(lines.next[1], vec![0, 2, 6]);
        // No diagonal jump from b1 (odd), one from b2 over c3 to d4.
        assert!(lines.jumps[1].iter().all(|&(_, t)| t == 3 || t == 11));
        assert!(lines.jumps[6].contains(&(12, 18)));
        // Every line segment is a step both ways.
        for p in 0..POINTS {
            for &q in &lines.next[p] {
                assert!(lines.next[q].contains(&p));
            }
        }
    }

    #[test]
    fn the_symmetries_are_eight_permutations_that_keep_the_lines() {
        let lines = Lines::new();
        let perms = symmetries();
        for (s, perm) in perms.iter().enumerate() {
            let mut seen = [false; POINTS];
            for &q in perm {
                seen[q] = true;
            }
            assert!(seen.iter().all(|&b| b), "symmetry {s} is a permutation");
            for p in 0..POINTS {
                for &q in &lines.next[p] {
                    assert!(lines.next[perm[p]].contains(&perm[q]), "s {s} {p}-{q}");
                }
            }
            for t in &perms[..s] {
                assert_ne!(perm, t);
            }
        }
        assert_eq!(perms[0], std::array::from_fn(|p| p));
    }

    #[test]
    fn the_start_board_reads_as_the_text_form() {
        let mut cells = [Cell::Empty; POINTS];
        for p in [0, 4, 20, 24] {
            cells[p] = Cell::Tiger;
        }
        cells[12] = Cell::Goat;
        assert_eq!(
            BoardText(&cells).to_string(),
            "T...T/...../..G../...../T...T"
        );
        assert_eq!(point_name(12), "c3");
        assert_eq!(point_name(4), "e1");
    }
}
