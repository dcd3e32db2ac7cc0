//! A solved layer: the stored word of every slot, goats to move first, then tigers to move.

use cowrie_engine::games::baghchal::{GOATS, TIGERS};
use cowrie_engine::Player;

use crate::value::Value;

/// The side to move, as the first half or the second half of a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The goats to move.
    Goats,
    /// The tigers to move.
    Tigers,
}

impl Side {
    /// Both sides in storage order.
    pub const BOTH: [Side; 2] = [Side::Goats, Side::Tigers];

    /// The side of a player.
    #[must_use]
    pub fn of(player: Player) -> Side {
        if player == GOATS {
            Side::Goats
        } else {
            Side::Tigers
        }
    }

    /// The player of this side.
    #[must_use]
    pub fn player(self) -> Player {
        match self {
            Side::Goats => GOATS,
            Side::Tigers => TIGERS,
        }
    }

    /// `goats` or `tigers`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Side::Goats => "goats",
            Side::Tigers => "tigers",
        }
    }

    /// The other side.
    #[must_use]
    pub fn other(self) -> Side {
        match self {
            Side::Goats => Side::Tigers,
            Side::Tigers => Side::Goats,
        }
    }
}

/// The values of one layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    goats: u32,
    words: Vec<u16>,
}

impl Layer {
    /// A layer from its words (length twice the slots per side).
    ///
    /// # Panics
    /// If the length is odd.
    #[must_use]
    pub fn new(goats: u32, words: Vec<u16>) -> Self {
        assert_eq!(words.len() % 2, 0, "two sides");
        Layer { goats, words }
    }

    /// Goats on the board in this layer.
    #[must_use]
    pub fn goats(&self) -> u32 {
        self.goats
    }

    /// Slots per side to move.
    #[must_use]
    pub fn slots(&self) -> usize {
        self.words.len() / 2
    }

    /// All words, goats to move first.
    #[must_use]
    pub fn words(&self) -> &[u16] {
        &self.words
    }

    /// The word of `slot` with `side` to move.
    #[must_use]
    #[inline]
    pub fn word(&self, side: Side, slot: u32) -> u16 {
        let base = match side {
            Side::Goats => 0,
            Side::Tigers => self.slots(),
        };
        self.words[base + slot as usize]
    }

    /// The value of `slot` with `side` to move; `None` for an unused slot.
    #[must_use]
    #[inline]
    pub fn value(&self, side: Side, slot: u32) -> Option<Value> {
        Value::decode(self.word(side, slot))
    }
}
