//! The consistency check: every stored value equals the value the minimax rule gives it from
//! its children's stored values (`Children::value`), for every position of a layer.
//!
//! It rereads the layer through the forward move generator only; it shares the index and the
//! move generator with the solver but none of the retrograde bookkeeping (counts, floors,
//! tentative wins, levels). With the distances and the forced losses in 0 (no move; the goats
//! after the winning capture), a database consistent everywhere holds the game's values, given
//! that the move generator and the index are right (`docs/solver.md`, verification (b)); the
//! independent brute-force solver in `solver/tests` and the verifier check those too.

use rayon::prelude::*;

use crate::children::Children;
use crate::layer::Side;
use crate::value::{Value, UNUSED};

/// A position whose stored value disagrees with its children's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("goats {goats} side {side:?} slot {slot}: stored {stored:?}, children give {computed:?}")]
pub struct Mismatch {
    /// Goats on the board.
    pub goats: u32,
    /// Side to move.
    pub side: Side,
    /// The slot.
    pub slot: u32,
    /// The stored value (`None`: the slot is marked unused).
    pub stored: Option<Value>,
    /// The value from the children (`None`: the slot holds no canonical position).
    pub computed: Option<Value>,
}

/// Checks every slot of `children.this`: canonical slots hold the value from their children,
/// the others are marked unused. Returns the number of positions checked.
///
/// # Errors
/// The first mismatch in slot order.
pub fn check_layer(children: &Children<'_>) -> Result<u64, Box<Mismatch>> {
    let index = children.index;
    let goats = children.this.goats();
    let results: Vec<Result<u64, Box<Mismatch>>> = (0..2 * index.classes().len())
        .into_par_iter()
        .map(|chunk| {
            let boards = index.chunk(goats, chunk);
            let (side, class, tigers, first) =
                (boards.side, boards.class, boards.tigers, boards.first_slot);
            let mut checked = 0;
            for (r, g) in boards.enumerate() {
                let slot = first + r as u32;
                let word = children.this.word(side, slot);
                let computed = index
                    .stabiliser_if_canonical(class, g)
                    .map(|_| children.value(side, tigers, g));
                let stored = Value::decode(word);
                if computed != stored || (computed.is_none() && word != UNUSED) {
                    return Err(Box::new(Mismatch {
                        goats,
                        side,
                        slot,
                        stored,
                        computed,
                    }));
                }
                checked += u64::from(computed.is_some());
            }
            Ok(checked)
        })
        .collect();
    results.into_iter().sum()
}
