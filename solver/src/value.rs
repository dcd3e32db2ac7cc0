//! Values as stored: win, loss or draw for the side to move, with the distance to the end in
//! plies, in 16 bits.
//!
//! Every end of a movement-phase game is a loss for the side to move (the tigers blocked, the
//! goats blocked under `goats-blocked=lose`, or the goats to move after the winning capture), so
//! a position won for the side to move lies an odd number of plies from the end and a lost one
//! an even number. The stored word is `distance + 1`, its parity giving the value; 0 is a draw,
//! and [`UNUSED`] marks a slot that holds no position.

use std::fmt;

/// The stored word of a slot that holds no position (a non-canonical symmetric image).
pub const UNUSED: u16 = u16::MAX;

/// The longest distance a word can hold.
pub const MAX_DISTANCE: u16 = 0x7FFD;

/// The perfect-play value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins; the winner ends the game in this many plies at the latest, so
    /// the shortest forced win.
    Win(u16),
    /// The side to move loses; the loser can delay the end this many plies, no more.
    Loss(u16),
    /// Neither side can force a win: with best play the game never ends.
    Draw,
}

impl Value {
    /// The stored word of this value.
    #[must_use]
    pub fn encode(self) -> u16 {
        match self {
            Value::Win(d) | Value::Loss(d) => d + 1,
            Value::Draw => 0,
        }
    }

    /// The value of a stored word; `None` for [`UNUSED`].
    #[must_use]
    #[inline]
    pub fn decode(word: u16) -> Option<Value> {
        match word {
            0 => Some(Value::Draw),
            UNUSED => None,
            w if w & 1 == 0 => Some(Value::Win(w - 1)),
            w => Some(Value::Loss(w - 1)),
        }
    }

    /// The distance to the end, if the game ends.
    #[must_use]
    pub fn distance(self) -> Option<u16> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The value one ply earlier, for the player who moved into a position of this value.
    #[must_use]
    pub fn parent(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// A total order for the mover choosing among children, from the mover's view of the
    /// resulting value ([`Value::parent`] of the child's): a win beats a draw beats a loss, a
    /// shorter win beats a longer, a longer loss beats a shorter.
    #[must_use]
    pub fn preference(self) -> i32 {
        match self {
            Value::Win(d) => 100_000 - i32::from(d),
            Value::Draw => 0,
            Value::Loss(d) => -100_000 + i32::from(d),
        }
    }

    /// `win`, `loss` or `draw`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Loss(d) => write!(f, "loss in {d}"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_and_keep_parity() {
        for v in [Value::Draw, Value::Loss(0), Value::Win(1), Value::Loss(40)] {
            assert_eq!(Value::decode(v.encode()), Some(v));
        }
        assert_eq!(Value::decode(UNUSED), None);
        assert_eq!(Value::Loss(0).parent(), Value::Win(1));
        assert!(Value::Win(3).preference() > Value::Win(5).preference());
        assert!(Value::Loss(8).preference() > Value::Loss(2).preference());
        assert!(Value::Draw.preference() > Value::Loss(100).preference());
    }
}
