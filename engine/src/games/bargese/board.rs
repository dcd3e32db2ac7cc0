//! The cross-shaped board and each player's track, as compile-time tables.
//!
//! Sources: Finkel 2002 (DLP.Evidence.1604, with Anna Tajeddin's description)
//! and the DLP's Bargese rules summary (docs/sources.md). Both: "four 3x8 rectangles, arranged in a cross" round
//! the central square, the kitchen.
//!
//! Coordinates: `(x, y)` on a 19 x 19 grid, `x` growing east, `y` growing north. The kitchen is
//! the central 3 x 3 block `x, y` in `8..=10`; the south arm is `x` in `8..=10`, `y` in `0..=7`
//! and the other arms are its rotations about `(9, 9)`. Player one sits in the south arm, player
//! two in the north arm (the sources: opposite arms, neither holding a bange square).
//!
//! A track index `t` (`0..=82`) is a square of a player's own track:
//! - `0..=7`: outward down its own central row, from the square next to the kitchen (the entry
//!   square) to the arm's outer end (Finkel 2002: pieces enter "on the top square of the central
//!   row of their arm, proceed down that row");
//! - `8..=75`: anticlockwise round the outer rows of all four arms, 17 squares an arm, ending on
//!   its own arm's outer end again (Finkel 2002: "continue in an anti-clockwise direction around
//!   the board, until returning to the central track in the player's arm");
//! - `76..=82`: up the central row to the square next to the kitchen, the dodo (Tajeddin: a piece
//!   on "the square next to the kitchen ... becomes dodo"). `82` is the entry square again.
//!
//! Player two's track is player one's turned by 180 degrees.

use crate::game::Player;

/// Squares on a player's track: indices `0..=82`.
pub const TRACK_LEN: usize = 83;
/// The track index of the entry square (where the hal enters a piece), next to the kitchen.
pub const ENTRY: u8 = 0;
/// The track index of the arm's outer end on the way out.
pub const OUTER_END_OUT: u8 = 7;
/// The track index of the arm's outer end on the way home: the first square of the homeward
/// central row (the same physical square as [`OUTER_END_OUT`]).
pub const OUTER_END_HOME: u8 = 75;
/// The first homeward track index strictly inside the own central row.
pub const HOME_ROW_START: u8 = 76;
/// The track index of the dodo, the square next to the kitchen on the way home (the same
/// physical square as [`ENTRY`]).
pub const DODO: u8 = 82;
/// Position code of a piece in the kitchen.
pub const KITCHEN: u8 = 83;
/// Position code of a piece off the board (not yet entered, or hammered).
pub const OFF: u8 = 84;
/// The track index of the player's X square in the right-hand outer row of its own arm, where a
/// dust may enter a piece: 11 squares counted from off the board (Finkel 2002: "a piece can enter
/// on the X in the right hand row of the player's arm").
pub const X_ENTRY: u8 = 10;
/// The track index of the player's bange square, where a bange may enter a piece. Finkel 2002: the
/// "bottom left corner" of the two arms without players is marked; Tajeddin: "each player's
/// bange square will thus be in the next column to the right". Read as the outer corner of the
/// next arm that the track reaches first (the left-hand outer corner as seen by someone sitting
/// at that arm's end): 24 squares counted from off the board, one short of where a bange's 25
/// lands, and where the hal plus 23 would land. `docs/rules/bargese.md` discusses the reading.
pub const BANGE_ENTRY: u8 = 23;
/// The other reading of the bange square (`bange-square=inner`): the corner of the same arm next
/// to the kitchen, "bottom left" as the owner sees it from the home arm; 17 squares counted from
/// off the board.
pub const BANGE_INNER: u8 = 16;

/// Squares on the 68-square ring of outer rows.
pub const RING_LEN: usize = 68;

/// A grid coordinate `(x, y)`.
pub type Coord = (u8, u8);

/// The 17 ring squares of the south arm, in track order: out along the west outer row (x = 8),
/// across the arm's end, back along the east outer row (x = 10).
const fn south_segment(i: usize) -> Coord {
    if i < 8 {
        (8, 7 - i as u8)
    } else if i == 8 {
        (9, 0)
    } else {
        (10, (i - 9) as u8)
    }
}

/// Rotates a coordinate 90 degrees anticlockwise about the kitchen's centre `(9, 9)`.
#[must_use]
pub const fn rotate90(c: Coord) -> Coord {
    (18 - c.1, c.0)
}

/// Rotates a coordinate 180 degrees about the kitchen's centre.
#[must_use]
pub const fn rotate180(c: Coord) -> Coord {
    (18 - c.0, 18 - c.1)
}

/// Ring square `q` (`0..68`): the south arm's segment, then the east, north and west arms',
/// each the previous turned anticlockwise.
const fn ring(q: usize) -> Coord {
    let mut c = south_segment(q % 17);
    let mut a = 0;
    while a < q / 17 {
        c = rotate90(c);
        a += 1;
    }
    c
}

/// The coordinate of player one's track index `t`.
const fn track_coord_one(t: usize) -> Coord {
    if t <= 7 {
        (9, 7 - t as u8)
    } else if t <= 75 {
        // Track index 8 is the south arm's east outer corner, ring square 9.
        ring((t + 1) % RING_LEN)
    } else {
        (9, (t - 75) as u8)
    }
}

const fn build_track() -> [[Coord; TRACK_LEN]; 2] {
    let mut out = [[(0, 0); TRACK_LEN]; 2];
    let mut t = 0;
    while t < TRACK_LEN {
        out[0][t] = track_coord_one(t);
        out[1][t] = rotate180(out[0][t]);
        t += 1;
    }
    out
}

/// Each player's track as coordinates, indexed `[player][t]`.
pub const TRACK: [[Coord; TRACK_LEN]; 2] = build_track();

/// A square's id: `19 * y + x`.
#[must_use]
pub const fn square_id(c: Coord) -> u16 {
    c.1 as u16 * 19 + c.0 as u16
}

const fn build_square_ids() -> [[u16; TRACK_LEN]; 2] {
    let mut out = [[0; TRACK_LEN]; 2];
    let mut p = 0;
    while p < 2 {
        let mut t = 0;
        while t < TRACK_LEN {
            out[p][t] = square_id(TRACK[p][t]);
            t += 1;
        }
        p += 1;
    }
    out
}

/// Each player's track as square ids, indexed `[player][t]`.
pub const SQUARE: [[u16; TRACK_LEN]; 2] = build_square_ids();

const fn build_opp_to_mine() -> [[u8; 2]; TRACK_LEN] {
    let mut out = [[NOT_ON_TRACK; 2]; TRACK_LEN];
    let mut u = 0;
    while u < TRACK_LEN {
        let mut n = 0;
        let mut t = 0;
        while t < TRACK_LEN {
            let (a, b) = (TRACK[0][t], TRACK[1][u]);
            if a.0 == b.0 && a.1 == b.1 {
                out[u][n] = t as u8;
                n += 1;
            }
            t += 1;
        }
        u += 1;
    }
    out
}

/// Marks an unused slot of [`OPP_TO_MINE`].
pub const NOT_ON_TRACK: u8 = u8::MAX;

/// For an opposing piece on its track index `u`: the mover's track indices of that square (none,
/// one, or two at the mover's own outer end), padded with [`NOT_ON_TRACK`]. The same for both
/// players, the tracks being turned 180 degrees.
pub const OPP_TO_MINE: [[u8; 2]; TRACK_LEN] = build_opp_to_mine();

/// [`OPP_TO_MINE`] as bit sets: bit `t` for each of the mover's track indices `t`.
pub const OPP_TO_MINE_BITS: [u128; TRACK_LEN] = {
    let mut out = [0u128; TRACK_LEN];
    let mut u = 0;
    while u < TRACK_LEN {
        let mut k = 0;
        while k < 2 {
            let t = OPP_TO_MINE[u][k];
            if t != NOT_ON_TRACK {
                out[u] |= 1u128 << t;
            }
            k += 1;
        }
        u += 1;
    }
    out
};

/// Whether a coordinate is on the cross (an arm square; the kitchen block excluded).
#[must_use]
pub const fn on_cross(c: Coord) -> bool {
    let (x, y) = (c.0, c.1);
    if x > 18 || y > 18 {
        return false;
    }
    let mid_x = x >= 8 && x <= 10;
    let mid_y = y >= 8 && y <= 10;
    (mid_x || mid_y) && !(mid_x && mid_y)
}

/// Whether a coordinate is an X (safe) square. Finkel 2002 and the DLP summary: "in the outer rows of each
/// arm, the third square from the outer corners is marked with an X". In the south arm the
/// outer rows are `x = 8` and `x = 10`, the outer corners `y = 0`, so the X squares are
/// `(8, 2)` and `(10, 2)`; the other arms' are their rotations.
#[must_use]
pub const fn is_x(c: Coord) -> bool {
    let mut k = 0;
    let mut a = (8u8, 2u8);
    let mut b = (10u8, 2u8);
    while k < 4 {
        if (c.0 == a.0 && c.1 == a.1) || (c.0 == b.0 && c.1 == b.1) {
            return true;
        }
        a = rotate90(a);
        b = rotate90(b);
        k += 1;
    }
    false
}

const fn build_x_by_track() -> [bool; TRACK_LEN] {
    let mut out = [false; TRACK_LEN];
    let mut t = 0;
    while t < TRACK_LEN {
        out[t] = is_x(TRACK[0][t]);
        t += 1;
    }
    out
}

/// Whether track index `t` is an X square (the same for both players by symmetry).
pub const X_BY_TRACK: [bool; TRACK_LEN] = build_x_by_track();

/// The coordinate of `player`'s track index `t`.
///
/// # Panics
/// If `t > 82`.
#[must_use]
pub fn coord(player: Player, t: u8) -> Coord {
    TRACK[player.index()][t as usize]
}

/// The opponent's track indices of the physical square at `player`'s track index `t` (none in
/// `player`'s private central row, two at the opponent's own outer end).
#[must_use]
pub fn opponent_indices(player: Player, t: u8) -> Vec<u8> {
    let target = coord(player, t);
    let opp = player.opponent();
    (0..TRACK_LEN as u8)
        .filter(|&u| coord(opp, u) == target)
        .collect()
}

/// A drawing of the board: each cross square shows player one's first track index on it (two
/// digits, `..` if player one never visits it), followed by `x` on an X square, `/` on a bange
/// square, `*` on a square player one visits twice (entry/dodo and the outer end), or a space;
/// `KK` is the kitchen. Rows run from y = 18 (top, north) down to y = 0; columns x = 0..18.
#[must_use]
pub fn diagram() -> String {
    let mut out = String::new();
    out.push_str("     ");
    for x in 0..19 {
        out.push_str(&format!("{x:>3} "));
    }
    while out.ends_with(' ') {
        out.pop();
    }
    out.push('\n');
    for y in (0..19u8).rev() {
        out.push_str(&format!("{y:>3}  "));
        for x in 0..19u8 {
            let c = (x, y);
            if (8..=10).contains(&x) && (8..=10).contains(&y) {
                out.push_str(" KK ");
                continue;
            }
            if !on_cross(c) {
                out.push_str("    ");
                continue;
            }
            let visits: Vec<usize> = (0..TRACK_LEN).filter(|&t| TRACK[0][t] == c).collect();
            let bange = c == TRACK[0][BANGE_ENTRY as usize] || c == TRACK[1][BANGE_ENTRY as usize];
            let mark = if is_x(c) {
                'x'
            } else if bange {
                '/'
            } else if visits.len() > 1 {
                '*'
            } else {
                ' '
            };
            match visits.first() {
                Some(t) => out.push_str(&format!(" {t:>2}{mark}")),
                None => out.push_str(&format!(" ..{mark}")),
            }
        }
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
    }
    out
}
