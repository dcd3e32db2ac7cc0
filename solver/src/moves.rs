//! Movement-phase moves on bare bitboards, for the solver's inner loops: the goats' steps, the
//! tigers' steps and jumps, and the predecessors of a position.
//!
//! The moves are those of the engine (`engine/src/games/baghchal/movegen.rs`, built on the same
//! step and jump tables); a test compares them with the engine's legal actions on random
//! positions under every option the solver takes.
//!
//! Predecessors: a step joins two adjacent points and leaves the starting point empty, so the
//! reverse of a step is again a step. The positions from which a step of side X leads to a board
//! are therefore the boards reached by a step of X from it, with X to move. Jumps are not
//! reversed within a layer: a jump captures, so its predecessor lies in the layer above.

use cowrie_engine::games::baghchal::{Bitboard, JUMPS, STEPS};

/// All 25 points.
pub const ALL: Bitboard = (1 << 25) - 1;

/// Iterates the set points of `b`, lowest first.
#[inline]
pub fn points(b: Bitboard) -> impl Iterator<Item = usize> {
    let mut b = b;
    std::iter::from_fn(move || {
        if b == 0 {
            return None;
        }
        let p = b.trailing_zeros() as usize;
        b &= b - 1;
        Some(p)
    })
}

/// Calls `f` with the set of `movers` after each step of one of them to an empty point
/// (`occupied` holds every piece, movers included).
#[inline]
fn steps(movers: Bitboard, occupied: Bitboard, mut f: impl FnMut(Bitboard)) {
    let empty = ALL & !occupied;
    for from in points(movers) {
        for to in points(STEPS[from] & empty) {
            f(movers ^ (1 << from | 1 << to));
        }
    }
}

/// The number of steps of `movers` to empty points.
#[inline]
fn step_count(movers: Bitboard, occupied: Bitboard) -> u32 {
    let empty = ALL & !occupied;
    points(movers)
        .map(|from| (STEPS[from] & empty).count_ones())
        .sum()
}

/// Calls `f` with the goat set after each goat step.
#[inline]
pub fn goat_steps(tigers: Bitboard, goats: Bitboard, f: impl FnMut(Bitboard)) {
    steps(goats, tigers | goats, f);
}

/// The number of goat steps.
#[must_use]
#[inline]
pub fn goat_step_count(tigers: Bitboard, goats: Bitboard) -> u32 {
    step_count(goats, tigers | goats)
}

/// Calls `f` with the tiger set after each tiger step.
#[inline]
pub fn tiger_steps(tigers: Bitboard, goats: Bitboard, f: impl FnMut(Bitboard)) {
    steps(tigers, tigers | goats, f);
}

/// The number of tiger steps.
#[must_use]
#[inline]
pub fn tiger_step_count(tigers: Bitboard, goats: Bitboard) -> u32 {
    step_count(tigers, tigers | goats)
}

/// Calls `f` with the (tiger set, goat set) after each tiger jump.
#[inline]
pub fn tiger_jumps(tigers: Bitboard, goats: Bitboard, mut f: impl FnMut(Bitboard, Bitboard)) {
    let empty = ALL & !(tigers | goats);
    for from in points(tigers) {
        for j in &JUMPS.jumps[from][..JUMPS.len[from] as usize] {
            if goats >> j.over & 1 == 1 && empty >> j.to & 1 == 1 {
                f(tigers ^ (1 << from | 1 << j.to), goats ^ 1 << j.over);
            }
        }
    }
}
