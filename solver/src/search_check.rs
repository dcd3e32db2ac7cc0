//! A check that does not read the database: a plain depth-limited minimax on the engine's own
//! game (its legal actions and end rules) proves or refutes a forced end within a number of
//! plies. A position stored as a win in `d` must be a forced win within `d` plies and not within
//! `d - 2`; a loss in `d` likewise a forced loss; a draw, or a longer distance, neither within
//! the bound. Results are memoised per query by the engine's position hash. The sample check
//! tries children in the order of the database's values, which only decides how soon the search
//! stops: its answers come from the engine's moves and end rules.

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

/// Slots drawn per requested sample before the sampling gives up on filling a kind.
pub const DRAWS_PER_SAMPLE: u64 = 100_000;

/// Samples `decided` positions of `db` with a stored distance of at most `bound` and
/// `undecided` others (draws or longer), uniformly over slots of uniformly chosen layers and
/// sides, from `seed`; checks each with the minimax search on the engine's game under `rules`.
/// Sampling stops after [`DRAWS_PER_SAMPLE`] slots a requested sample; the report says how
/// many of each kind were found.
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
    // A database may hold few or no positions of one kind (none within the bound in a small
    // game): the draws are bounded, and the report counts the samples actually found.
    let mut draws = (decided + undecided).saturating_mul(DRAWS_PER_SAMPLE);
    while (short.len() as u64) < decided || (long.len() as u64) < undecided {
        if draws == 0 {
            break;
        }
        draws -= 1;
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
    // The database orders the children (the mover's best first by its values) so a proof or
    // a refutation is found early; the answers come from the engine's moves and end rules
    // alone, and are the same in any order.
    let order = |c: &Baghchal| db.state_value(c).map_or(0, Value::preference);
    let check = |(state, v): &(Baghchal, Value)| -> Result<(), Box<SearchMismatch>> {
        let mut search = Search::new(&order);
        let ok = match (*v, v.distance().map(u32::from)) {
            // A distance within the bound: the end is forced in exactly that many plies.
            (Value::Win(_), Some(d)) if d <= bound => {
                search.wins(state, d) && (d < 2 || !search.wins(state, d - 2))
            }
            (Value::Loss(_), Some(d)) if d <= bound => {
                search.loses(state, d) && (d < 2 || !search.loses(state, d - 2))
            }
            // A draw or a distance beyond the bound: no forced end within the bound (the
            // search never goes deeper than the bound).
            _ => !search.wins(state, bound) && !search.loses(state, bound),
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

/// The order children are tried in: a key per child, smallest first. It changes how soon a
/// search stops, never what it answers.
pub type Order<'a> = &'a (dyn Fn(&Baghchal) -> i32 + Sync);

/// The engine's move order.
fn plain(_: &Baghchal) -> i32 {
    0
}

/// Whether the side to move in `state` can force a win within `plies` plies.
#[must_use]
pub fn wins_within(state: &Baghchal, plies: u32) -> bool {
    Search::new(&plain).wins(state, plies)
}

/// Whether the side to move in `state` loses within `plies` plies whatever it plays.
#[must_use]
pub fn loses_within(state: &Baghchal, plies: u32) -> bool {
    Search::new(&plain).loses(state, plies)
}

/// A depth-limited minimax over the engine's moves, memoised, trying children in `order`.
pub struct Search<'a> {
    order: Order<'a>,
    memo: Memo,
    /// Positions visited (memo misses).
    pub nodes: u64,
}

impl<'a> Search<'a> {
    /// A search trying children in `order`.
    #[must_use]
    pub fn new(order: Order<'a>) -> Self {
        Search {
            order,
            memo: Memo::new(),
            nodes: 0,
        }
    }

    fn children(&self, state: &Baghchal) -> Vec<Baghchal> {
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let mut out: Vec<(i32, Baghchal)> = legal
            .into_iter()
            .map(|a| {
                let mut c = state.clone();
                c.play_unchecked(a);
                ((self.order)(&c), c)
            })
            .collect();
        out.sort_by_key(|(k, _)| *k);
        out.into_iter().map(|(_, c)| c).collect()
    }

    /// Whether the side to move in `state` can force a win within `plies` plies.
    pub fn wins(&mut self, state: &Baghchal, plies: u32) -> bool {
        if plies == 0 || !matches!(state.to_act(), ToAct::Decision(_)) {
            return false;
        }
        let key = (state.hash(), plies, true);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        self.nodes += 1;
        // The players alternate in Baghchal (a pass is a ply), so the child's side to move is
        // the opponent.
        let r = self
            .children(state)
            .iter()
            .any(|c| self.loses(c, plies - 1));
        self.memo.insert(key, r);
        r
    }

    /// Whether the side to move in `state` loses within `plies` plies whatever it plays.
    pub fn loses(&mut self, state: &Baghchal, plies: u32) -> bool {
        match state.to_act() {
            ToAct::Terminal(EndReason::Win(p)) => return p != state.side_to_move(),
            ToAct::Terminal(_) | ToAct::Chance => return false,
            ToAct::Decision(_) => {}
        }
        if plies == 0 {
            return false;
        }
        let key = (state.hash(), plies, false);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        self.nodes += 1;
        let r = self.children(state).iter().all(|c| self.wins(c, plies - 1));
        self.memo.insert(key, r);
        r
    }
}
