//! The value of a position from its children's stored values: the minimax rule the databases
//! must satisfy, used by the consistency check and by move choice.

use cowrie_engine::games::baghchal::Bitboard;

use crate::index::Index;
use crate::layer::{Layer, Side};
use crate::moves;
use crate::rules::SolveRules;
use crate::value::Value;

/// What a position's children are read from: the index, the rules, the position's own layer
/// and the one below (`None` when a capture wins).
#[derive(Clone, Copy, Debug)]
pub struct Children<'a> {
    /// The index of the layers.
    pub index: &'a Index,
    /// The rules solved under.
    pub rules: &'a SolveRules,
    /// The position's own layer.
    pub this: &'a Layer,
    /// The layer with one goat fewer.
    pub below: Option<&'a Layer>,
}

impl Children<'_> {
    /// Calls `f` with the stored value of each child of the board (`tigers`, `goats`) with
    /// `side` to move (the value for the side to move in the child), a goats' pass included
    /// under `goats-blocked=pass`.
    pub fn for_each(
        &self,
        side: Side,
        tigers: Bitboard,
        goats: Bitboard,
        mut f: impl FnMut(Value),
    ) {
        let here = |t: Bitboard, g: Bitboard| {
            self.this
                .value(side.other(), self.index.canonical(t, g).slot)
                .expect("a canonical slot")
        };
        match side {
            Side::Goats => {
                let mut any = false;
                moves::goat_steps(tigers, goats, |g| {
                    any = true;
                    f(here(tigers, g));
                });
                if !any && self.rules.goats_pass {
                    f(here(tigers, goats));
                }
            }
            Side::Tigers => {
                moves::tiger_steps(tigers, goats, |t| f(here(t, goats)));
                moves::tiger_jumps(tigers, goats, |t, g| {
                    f(match self.below {
                        None => Value::Loss(0),
                        Some(b) => b
                            .value(Side::Goats, self.index.canonical(t, g).slot)
                            .expect("a canonical slot"),
                    });
                });
            }
        }
    }

    /// The value the minimax rule gives a position from its children's values: the best of
    /// [`Value::parent`] over the children by [`Value::preference`]; a loss in 0 without
    /// children.
    #[must_use]
    pub fn value(&self, side: Side, tigers: Bitboard, goats: Bitboard) -> Value {
        let mut best: Option<Value> = None;
        self.for_each(side, tigers, goats, |child| {
            let v = child.parent();
            if best.is_none_or(|b| v.preference() > b.preference()) {
                best = Some(v);
            }
        });
        best.unwrap_or(Value::Loss(0))
    }
}
