//! A check that does not read the database: a plain depth-limited minimax on the engine's own
//! game (its legal actions and end rules) proves or refutes a forced end within a number of
//! plies. A position stored as a win in `d` must be a forced win within `d` plies and not within
//! `d - 2`; a loss in `d` likewise a forced loss; a draw, or a longer distance, neither within
//! the bound. Results are memoised per query by the engine's position hash.

use std::collections::HashMap;

use cowrie_engine::games::baghchal::{Repetition, TOTAL_GOATS};
use cowrie_engine::{Baghchal, BaghchalRules, EndReason, Game, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::db::Database;
use crate::layer::Side;
use crate::value::Value;

/// What a sample check found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SampleReport {
    /// Positions with a stored distance within the bound, proved at that distance and refuted
    /// two plies shorter.
    pub decided: u64,
    /// Draws and longer distances, refuted within the bound.
    pub undecided: u64,
}

/// A sampled position whose search disagrees with its stored value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{position}: stored {stored}, but the search within {bound} plies says otherwise")]
pub struct SearchMismatch {
    /// The position's notation.
    pub position: String,
    /// Its stored value.
    pub stored: Value,
    /// The bound searched.
    pub bound: u32,
}

/// Samples `decided` positions of `db` with a stored distance of at most `bound` and
/// `undecided` others (draws or longer), uniformly over slots of uniformly chosen layers and
/// sides, from `seed`; checks each with the minimax search on the engine's game under `rules`.
///
/// # Errors
/// The first disagreement in sampling order.
pub fn check_samples(
    db: &Database,
    rules: &BaghchalRules,
    decided: u64,
    undecided: u64,
    bound: u32,
    seed: u64,
) -> Result<SampleReport, Box<SearchMismatch>> {
    let mut rules = *rules;
    rules.ply_cap = None;
    rules.repetition = Repetition::None;
    let layers: Vec<u32> = db.rules().layers().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut short, mut long) = (Vec::new(), Vec::new());
    while (short.len() as u64) < decided || (long.len() as u64) < undecided {
        let g = layers[rng.gen_range(0..layers.len())];
        let layer = db.layer(g).expect("a solved layer");
        let side = Side::BOTH[rng.gen_range(0..2)];
        let slot = rng.gen_range(0..layer.slots() as u32);
        let Some(v) = layer.value(side, slot) else {
            continue;
        };
        let (tigers, goats) = db.index().board(g, slot);
        let captured = TOTAL_GOATS - g as u8;
        let state = Baghchal::from_parts(rules, goats, tigers, 0, captured, side.player(), 0)
            .expect("a stored board is a position");
        match v.distance() {
            Some(d) if u32::from(d) <= bound => {
                if (short.len() as u64) < decided {
                    short.push((state, v));
                }
            }
            _ => {
                if (long.len() as u64) < undecided {
                    long.push((state, v));
                }
            }
        }
    }
    let check = |(state, v): &(Baghchal, Value)| -> Result<(), Box<SearchMismatch>> {
        let ok = match *v {
            Value::Win(d) => {
                let d = u32::from(d);
                wins_within(state, d) && (d < 2 || !wins_within(state, d - 2))
            }
            Value::Loss(d) => {
                let d = u32::from(d);
                loses_within(state, d) && (d < 2 || !loses_within(state, d - 2))
            }
            Value::Draw => false,
        };
        let ok = ok || {
            // A draw or a distance beyond the bound: no forced end within the bound.
            let beyond = v.distance().is_none_or(|d| u32::from(d) > bound);
            beyond && !wins_within(state, bound) && !loses_within(state, bound)
        };
        if ok {
            Ok(())
        } else {
            Err(Box::new(SearchMismatch {
                position: state.notation(),
                stored: *v,
                bound,
            }))
        }
    };
    let results: Vec<Result<(), Box<SearchMismatch>>> =
        short.par_iter().chain(long.par_iter()).map(check).collect();
    results.into_iter().collect::<Result<Vec<()>, _>>()?;
    Ok(SampleReport {
        decided: short.len() as u64,
        undecided: long.len() as u64,
    })
}

/// Memo of (hash, plies, asking for a win) → answer.
type Memo = HashMap<(u64, u32, bool), bool>;

/// Whether the side to move in `state` can force a win within `plies` plies.
#[must_use]
pub fn wins_within(state: &Baghchal, plies: u32) -> bool {
    wins(state, plies, &mut Memo::new())
}

/// Whether the side to move in `state` loses within `plies` plies whatever it plays.
#[must_use]
pub fn loses_within(state: &Baghchal, plies: u32) -> bool {
    loses(state, plies, &mut Memo::new())
}

fn children(state: &Baghchal) -> impl Iterator<Item = Baghchal> + '_ {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    legal.into_iter().map(move |a| {
        let mut c = state.clone();
        c.play_unchecked(a);
        c
    })
}

fn wins(state: &Baghchal, plies: u32, memo: &mut Memo) -> bool {
    if plies == 0 || !matches!(state.to_act(), ToAct::Decision(_)) {
        return false;
    }
    let key = (state.hash(), plies, true);
    if let Some(&r) = memo.get(&key) {
        return r;
    }
    // The players alternate in Baghchal (a pass is a ply), so the child's side to move is the
    // opponent.
    let r = children(state).any(|c| loses(&c, plies - 1, memo));
    memo.insert(key, r);
    r
}

fn loses(state: &Baghchal, plies: u32, memo: &mut Memo) -> bool {
    match state.to_act() {
        ToAct::Terminal(EndReason::Win(p)) => return p != state.side_to_move(),
        ToAct::Terminal(_) | ToAct::Chance => return false,
        ToAct::Decision(_) => {}
    }
    if plies == 0 {
        return false;
    }
    let key = (state.hash(), plies, false);
    if let Some(&r) = memo.get(&key) {
        return r;
    }
    let r = children(state).all(|c| wins(&c, plies - 1, memo));
    memo.insert(key, r);
    r
}
