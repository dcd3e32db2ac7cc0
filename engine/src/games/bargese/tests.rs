//! Unit tests of the board geometry and the throws. The expected values are worked out by hand
//! from the sources' description (Finkel 2002), not from the tables under test.

#![allow(clippy::needless_range_loop)] // index loops read as the track indices they check

use super::board::*;
use super::throws::*;
use crate::game::Player;

/// Player one's track, walked square by square from the description: out down the south arm's
/// central row, then anticlockwise round the outer rows (crossing diagonally at the four
/// corners of the kitchen), back to the outer end and up the central row to the dodo.
fn walked_track() -> Vec<Coord> {
    let legs: [((i8, i8), usize); 19] = [
        ((0, -1), 7),  // central row outward to (9, 0)
        ((1, 0), 1),   // to the south arm's east outer corner (10, 0)
        ((0, 1), 7),   // up the east outer row to (10, 7)
        ((1, 1), 1),   // across the kitchen's corner into the east arm (11, 8)
        ((1, 0), 7),   // out along the east arm to (18, 8)
        ((0, 1), 2),   // across its end to (18, 10)
        ((-1, 0), 7),  // back to (11, 10)
        ((-1, 1), 1),  // into the north arm (10, 11)
        ((0, 1), 7),   // out to (10, 18)
        ((-1, 0), 2),  // across its end to (8, 18)
        ((0, -1), 7),  // back to (8, 11)
        ((-1, -1), 1), // into the west arm (7, 10)
        ((-1, 0), 7),  // out to (0, 10)
        ((0, -1), 2),  // across its end to (0, 8)
        ((1, 0), 7),   // back to (7, 8)
        ((1, -1), 1),  // into the south arm (8, 7)
        ((0, -1), 7),  // out to (8, 0)
        ((1, 0), 1),   // the outer end again (9, 0)
        ((0, 1), 7),   // home up the central row to the dodo (9, 7)
    ];
    let mut at = (9i8, 7i8);
    let mut out = vec![(9u8, 7u8)];
    for ((dx, dy), n) in legs {
        for _ in 0..n {
            at = (at.0 + dx, at.1 + dy);
            out.push((at.0 as u8, at.1 as u8));
        }
    }
    out
}

#[test]
fn track_matches_the_walk() {
    let walk = walked_track();
    assert_eq!(walk.len(), 83);
    assert_eq!(TRACK_LEN, 83);
    for (t, &c) in walk.iter().enumerate() {
        assert_eq!(TRACK[0][t], c, "track index {t}");
    }
}

#[test]
fn consecutive_squares_are_adjacent() {
    let mut diagonals = Vec::new();
    for p in 0..2 {
        for t in 0..TRACK_LEN {
            assert!(on_cross(TRACK[p][t]), "player {p} index {t} off the cross");
        }
        for t in 1..TRACK_LEN {
            let (a, b) = (TRACK[p][t - 1], TRACK[p][t]);
            let dx = (i32::from(a.0) - i32::from(b.0)).abs();
            let dy = (i32::from(a.1) - i32::from(b.1)).abs();
            assert!(dx <= 1 && dy <= 1 && dx + dy > 0, "{a:?} -> {b:?}");
            if dx + dy == 2 {
                diagonals.push((p, t));
            }
        }
    }
    // Only the four steps round the kitchen's corners are diagonal.
    let one: Vec<usize> = diagonals.iter().filter(|d| d.0 == 0).map(|d| d.1).collect();
    assert_eq!(one, vec![16, 33, 50, 67]);
    assert_eq!(diagonals.len(), 8);
}

#[test]
fn track_goes_anticlockwise() {
    // Shoelace area of the ring (indices 8..=75) about the centre: positive = anticlockwise.
    let mut area = 0i64;
    for t in 8..75 {
        let (a, b) = (TRACK[0][t], TRACK[0][t + 1]);
        let (ax, ay) = (i64::from(a.0) - 9, i64::from(a.1) - 9);
        let (bx, by) = (i64::from(b.0) - 9, i64::from(b.1) - 9);
        area += ax * by - bx * ay;
    }
    assert!(area > 0, "signed area {area}");
}

#[test]
fn landmarks() {
    assert_eq!(TRACK[0][ENTRY as usize], (9, 7));
    assert_eq!(TRACK[0][DODO as usize], (9, 7));
    assert_eq!(TRACK[0][OUTER_END_OUT as usize], (9, 0));
    assert_eq!(TRACK[0][OUTER_END_HOME as usize], (9, 0));
    // The X in the right-hand (east) outer row of the south arm: third from the corner (10, 0).
    assert_eq!(TRACK[0][X_ENTRY as usize], (10, 2));
    // A dust's 11 counted from off the board: 1 onto the entry square, 10 more.
    assert_eq!(ENTRY + 10, X_ENTRY);
    // The bange square: the outer corner of the east arm (the arm to the south player's right).
    assert_eq!(TRACK[0][BANGE_ENTRY as usize], (18, 8));
    assert_eq!(TRACK[1][BANGE_ENTRY as usize], (0, 10));
    // 24 counted from off the board; a bange's 25 would land one further, the arm's end middle.
    assert_eq!(ENTRY + 23, BANGE_ENTRY);
    assert_eq!(TRACK[0][24], (18, 9));
}

#[test]
fn x_squares() {
    // By hand: third square from each outer corner in each outer row, all four arms.
    let xs = [
        (8, 2),
        (10, 2),
        (16, 8),
        (16, 10),
        (8, 16),
        (10, 16),
        (2, 8),
        (2, 10),
    ];
    for y in 0..19 {
        for x in 0..19 {
            assert_eq!(is_x((x, y)), xs.contains(&(x, y)), "({x}, {y})");
        }
    }
    let on_track: Vec<usize> = (0..TRACK_LEN).filter(|&t| X_BY_TRACK[t]).collect();
    assert_eq!(on_track, vec![10, 21, 27, 38, 44, 55, 61, 72]);
    for t in 0..TRACK_LEN {
        assert_eq!(is_x(TRACK[1][t]), X_BY_TRACK[t]);
    }
}

#[test]
fn tracks_are_rotations_and_share_the_ring() {
    for t in 0..TRACK_LEN {
        assert_eq!(TRACK[1][t], rotate180(TRACK[0][t]));
        assert_eq!(rotate90(rotate90(TRACK[0][t])), TRACK[1][t]);
    }
    let one: std::collections::HashSet<Coord> = TRACK[0].iter().copied().collect();
    let two: std::collections::HashSet<Coord> = TRACK[1].iter().copied().collect();
    assert_eq!(one.len(), 75);
    let shared: std::collections::HashSet<Coord> = one.intersection(&two).copied().collect();
    assert_eq!(shared.len(), RING_LEN);
    // Player one's own central row: only its outer end (9, 0) is on player two's track, at 41.
    assert_eq!(opponent_indices(Player::ONE, 7), vec![41]);
    assert_eq!(opponent_indices(Player::ONE, 75), vec![41]);
    assert_eq!(opponent_indices(Player::ONE, 41), vec![7, 75]);
    for t in (0..7).chain(76..83) {
        assert!(opponent_indices(Player::ONE, t).is_empty(), "{t}");
    }
    // On the ring the opponent is 34 squares (half the ring) ahead.
    assert_eq!(opponent_indices(Player::ONE, 10), vec![44]);
    assert_eq!(opponent_indices(Player::ONE, 23), vec![57]);
}

#[test]
fn throw_distribution_at_one_half() {
    let counts = [1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0];
    for (k, c) in counts.iter().enumerate() {
        assert_eq!(binomial(6, k as u32, 0.5), c / 64.0);
    }
    let again: f64 = Throw::ALL
        .iter()
        .filter(|t| t.grants_another())
        .map(|t| binomial(6, u32::from(t.mouths()), 0.5))
        .sum();
    assert_eq!(again, 14.0 / 64.0);
    for (k, c) in [1.0, 3.0, 3.0, 1.0].iter().enumerate() {
        assert_eq!(binomial(3, k as u32, 0.5), c / 8.0);
    }
    assert_eq!(
        Throw::ALL.map(Throw::value),
        [6, 11, 2, 3, 4, 25, 12],
        "shaka, dust, doi, t'laite, arba, bange, bara"
    );
}

#[test]
fn fair_tables_are_the_binomial() {
    for k in 0..7 {
        assert_eq!(super::FAIR_SIX[k], binomial(6, k as u32, 0.5));
    }
    for k in 0..4 {
        assert_eq!(super::FAIR_THREE[k], binomial(3, k as u32, 0.5));
    }
}
