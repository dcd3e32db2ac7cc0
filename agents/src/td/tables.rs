//! The point units of the tables games' encodings (Frangieh, Julbahar), after Tesauro's
//! TD-Gammon (Tesauro 1992): a side's checkers `n` on a point as four units, `n >= 1`,
//! `n >= 2`, `n >= 3` and `(n - 3) / 2` above 3.

use cowrie_engine::games::tables::{Board, Direction};

use super::net::{Changes, Inputs};

/// Sets the units of `n` checkers at `at..at + 4`: branch-free (the first `min(n, 4)` units are
/// the non-zero ones, listed in order; the values written past them are never read).
#[inline(always)]
fn units(inputs: &mut Inputs, at: usize, n: u8) {
    let len = inputs.len;
    inputs.x[at..at + 4].copy_from_slice(&[1.0, 1.0, 1.0, f32::from(n.max(3) - 3) / 2.0]);
    for (j, slot) in inputs.nonzero[len..len + 4].iter_mut().enumerate() {
        *slot = (at + j) as u16;
    }
    inputs.len = len + usize::from(n.min(4));
}

/// Sets inputs `0..192`: for each point `p` (1 to 24) in side `me`'s numbering, `me`'s
/// checkers there at `4 (p - 1)` and the opponent's checkers on the same point (its own point
/// `direction.other(p)`) at `96 + 4 (p - 1)`.
pub fn encode_points(board: &Board, me: usize, direction: Direction, inputs: &mut Inputs) {
    let c = board.counts();
    let o = 1 - me;
    for p in 1..=24 {
        units(inputs, 4 * (p - 1), c[me][p]);
        units(inputs, 96 + 4 * (p - 1), c[o][direction.other(p)]);
    }
}

/// The four units of `n` checkers (0 to 15) as the encoding holds them: 0 past the first
/// `min(n, 4)`.
const UNITS: [[f32; 4]; 16] = {
    let mut t = [[0.0f32; 4]; 16];
    let mut n = 1;
    while n < 16 {
        t[n][0] = 1.0;
        t[n][1] = if n >= 2 { 1.0 } else { 0.0 };
        t[n][2] = if n >= 3 { 1.0 } else { 0.0 };
        t[n][3] = if n > 3 { (n - 3) as f32 / 2.0 } else { 0.0 };
        n += 1;
    }
    t
};

/// Bit `q` set for each point `q` (1 to 24) where the two count arrays differ: the arrays'
/// points compared eight at a time, without branches.
#[inline(always)]
fn differing(r: &[u8; 26], c: &[u8; 26]) -> u32 {
    let word = |a: &[u8; 26], at: usize| {
        u64::from_le_bytes(a[at..at + 8].try_into().expect("eight bytes"))
    };
    let mut m = 0;
    for at in [1, 9, 17] {
        // The low bit of each byte set where the byte differs, then the eight low bits
        // gathered into the top byte (each lands on its own bit, so no carries).
        let mut x = word(r, at) ^ word(c, at);
        x |= x >> 4;
        x |= x >> 2;
        x |= x >> 1;
        x &= 0x0101_0101_0101_0101;
        let bits = (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
        m |= bits << at;
    }
    m
}

/// Pushes the units at `at + 4 (p - 1)` of each point `p` of `points` that changed.
#[inline(always)]
fn push_points(
    changes: &mut Changes,
    at: usize,
    mut points: u32,
    r: &[u8; 26],
    c: &[u8; 26],
    other: impl Fn(usize) -> usize,
) {
    while points != 0 {
        let p = points.trailing_zeros() as usize;
        points &= points - 1;
        let q = other(p);
        let (o, n) = (&UNITS[usize::from(r[q])], &UNITS[usize::from(c[q])]);
        for j in 0..4 {
            changes.push(at + 4 * (p - 1) + j, o[j], n[j]);
        }
    }
}

/// Pushes onto `changes` the inputs `0..192` where [`encode_points`] of `board` differs from
/// that of `reference` (both from side `me`'s view), in increasing input order, without
/// encoding either: only the points whose counts differ are looked at.
pub fn points_changes(
    reference: &Board,
    board: &Board,
    me: usize,
    direction: Direction,
    changes: &mut Changes,
) {
    let (r, c) = (reference.counts(), board.counts());
    let o = 1 - me;
    let mine = differing(&r[me], &c[me]);
    let theirs = differing(&r[o], &c[o]);
    // Bit `p` where the opponent's point `other(p)` differs.
    let theirs = match direction {
        // other(p) = 25 - p: bit q to bit 31 - q, then down by 6.
        Direction::Opposite => theirs.reverse_bits() >> 6,
        Direction::Same => (1..=24)
            .filter(|&p| theirs & (1 << direction.other(p)) != 0)
            .fold(0, |m, p| m | 1 << p),
    };
    push_points(changes, 0, mine, &r[me], &c[me], |p| p);
    push_points(changes, 96, theirs, &r[o], &c[o], |p| direction.other(p));
}
