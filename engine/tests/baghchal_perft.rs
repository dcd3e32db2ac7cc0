//! Baghchal perft: the fast bitboard generator against a deliberately simple second generator
//! written here (coordinates and direction vectors, no bitboards, no tables), and against the
//! counts in `data/baghchal.perft`.

use cowrie_engine::{perft, Baghchal, BaghchalRules, Game};

/// A slow Baghchal position: a 5x5 array of cells.
#[derive(Clone)]
struct Slow {
    cell: [[u8; 5]; 5], // 0 empty, 1 goat, 2 tiger; [row][col]
    in_hand: u32,
    captured: u32,
    goats_to_move: bool,
}

const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

impl Slow {
    fn start() -> Slow {
        let mut cell = [[0; 5]; 5];
        for (r, c) in [(0, 0), (0, 4), (4, 0), (4, 4)] {
            cell[r][c] = 2;
        }
        Slow {
            cell,
            in_hand: 20,
            captured: 0,
            goats_to_move: true,
        }
    }

    fn at(&self, r: i32, c: i32) -> Option<u8> {
        if (0..5).contains(&r) && (0..5).contains(&c) {
            Some(self.cell[r as usize][c as usize])
        } else {
            None
        }
    }

    /// Directions usable from (r, c): diagonals only where r + c is even.
    fn dirs(r: i32, c: i32) -> &'static [(i32, i32)] {
        if (r + c) % 2 == 0 {
            &DIRS
        } else {
            &DIRS[..4]
        }
    }

    /// Successor positions of the side to move.
    fn children(&self) -> Vec<Slow> {
        let mut out = Vec::new();
        if self.goats_to_move && self.in_hand > 0 {
            for r in 0..5 {
                for c in 0..5 {
                    if self.cell[r][c] == 0 {
                        let mut n = self.clone();
                        n.cell[r][c] = 1;
                        n.in_hand -= 1;
                        n.goats_to_move = false;
                        out.push(n);
                    }
                }
            }
            return out;
        }
        let me = if self.goats_to_move { 1 } else { 2 };
        for r in 0..5i32 {
            for c in 0..5i32 {
                if self.cell[r as usize][c as usize] != me {
                    continue;
                }
                for &(dr, dc) in Slow::dirs(r, c) {
                    let (r1, c1) = (r + dr, c + dc);
                    match self.at(r1, c1) {
                        Some(0) => {
                            let mut n = self.clone();
                            n.cell[r as usize][c as usize] = 0;
                            n.cell[r1 as usize][c1 as usize] = me;
                            n.goats_to_move = !self.goats_to_move;
                            out.push(n);
                        }
                        Some(1) if me == 2 && self.at(r + 2 * dr, c + 2 * dc) == Some(0) => {
                            let mut n = self.clone();
                            n.cell[r as usize][c as usize] = 0;
                            n.cell[r1 as usize][c1 as usize] = 0;
                            n.cell[(r + 2 * dr) as usize][(c + 2 * dc) as usize] = 2;
                            n.captured += 1;
                            n.goats_to_move = true;
                            out.push(n);
                        }
                        _ => {}
                    }
                }
            }
        }
        out
    }

    fn is_over(&self, win_captures: u32) -> bool {
        self.captured >= win_captures || self.children().is_empty()
    }
}

fn slow_perft(s: &Slow, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if s.is_over(5) {
        return 0;
    }
    s.children().iter().map(|c| slow_perft(c, depth - 1)).sum()
}

fn pinned() -> Vec<(u32, u64)> {
    include_str!("data/baghchal.perft")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace();
            let d = it.next().unwrap().parse().unwrap();
            let n = it.next().unwrap().parse().unwrap();
            (d, n)
        })
        .collect()
}

#[test]
fn perft_from_start_matches_the_independent_counts_and_the_slow_generator() {
    let start = Baghchal::new(&BaghchalRules::default());
    // Depths 1 to 5 as counted outside cowrie (tests/data/baghchal.perft).
    let given = [21u64, 252, 5052, 68204, 1_304_788];
    for (d, &n) in given.iter().enumerate() {
        let depth = d as u32 + 1;
        assert_eq!(perft(&start, depth), n, "fast perft({depth})");
        assert_eq!(slow_perft(&Slow::start(), depth), n, "slow perft({depth})");
    }
}

#[test]
fn perft_data_file_agrees_with_both_generators() {
    let start = Baghchal::new(&BaghchalRules::default());
    let rows = pinned();
    assert!(rows.iter().any(|&(d, _)| d == 6), "depth 6 is pinned");
    for (depth, n) in rows {
        assert_eq!(perft(&start, depth), n, "fast perft({depth})");
        assert_eq!(slow_perft(&Slow::start(), depth), n, "slow perft({depth})");
    }
}
