//! The games' static evaluations, one documented [`Evaluate`] implementation per game in its
//! own file, and the one-ply [`HeuristicAgent`] that plays on them.
//!
//! Adding a game's evaluation is one file and one line: write `heuristic/<game>.rs` with
//! `impl Evaluate for <Game>` and add `mod <game>;` below.

mod baghchal;
mod bargese;
mod frangieh;
mod julbahar;

use cowrie_engine::{Game, Player, ToAct};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::agent::Agent;
use crate::evaluate::{leaf_value, Evaluate};

/// Picks an action by the evaluation of the position after it, from the mover's view:
/// greedily with ties broken uniformly by `rng` when `temperature` is 0, else by a softmax at
/// that temperature. `values` is a scratch buffer.
///
/// # Panics
/// If `legal` is empty or `state` is not a decision node.
pub fn pick_by_evaluation<G: Evaluate>(
    state: &G,
    legal: &[G::Action],
    temperature: f64,
    rng: &mut ChaCha8Rng,
    values: &mut Vec<f64>,
) -> G::Action {
    pick_by(state, legal, temperature, rng, values, leaf_value)
}

/// [`pick_by_evaluation`] with another evaluation: `value(position, player)` scores a position
/// after a move from `player`'s view (finished games included).
///
/// # Panics
/// If `legal` is empty or `state` is not a decision node.
pub fn pick_by<G: Game>(
    state: &G,
    legal: &[G::Action],
    temperature: f64,
    rng: &mut ChaCha8Rng,
    values: &mut Vec<f64>,
    value: impl Fn(&G, Player) -> f64,
) -> G::Action {
    let ToAct::Decision(me) = state.to_act() else {
        panic!("pick_by_evaluation at a node that is not a decision node");
    };
    values.clear();
    let mut best = f64::NEG_INFINITY;
    for &a in legal {
        let mut child = state.clone();
        child.play_unchecked(a);
        let v = value(&child, me);
        best = best.max(v);
        values.push(v);
    }
    if temperature == 0.0 {
        // Reservoir sampling among the maxima: uniform over ties, one draw per tie.
        let mut pick = 0;
        let mut ties = 0u32;
        for (i, &v) in values.iter().enumerate() {
            if v == best {
                ties += 1;
                if ties == 1 || rng.gen_range(0..ties) == 0 {
                    pick = i;
                }
            }
        }
        return legal[pick];
    }
    let mut total = 0.0;
    for v in values.iter_mut() {
        *v = ((*v - best) / temperature).exp();
        total += *v;
    }
    let mut u = rng.gen::<f64>() * total;
    for (i, &w) in values.iter().enumerate() {
        if u < w {
            return legal[i];
        }
        u -= w;
    }
    legal[legal.len() - 1]
}

/// Plays the action whose resulting position evaluates best for the mover (one-ply search):
/// greedy at temperature 0 (ties broken by the agent's stream), else softmax.
#[derive(Clone, Debug)]
pub struct HeuristicAgent {
    temperature: f64,
    rng: ChaCha8Rng,
    values: Vec<f64>,
}

impl HeuristicAgent {
    /// A heuristic agent at `temperature` (0 = greedy) drawing from `rng`.
    #[must_use]
    pub fn new(temperature: f64, rng: ChaCha8Rng) -> Self {
        HeuristicAgent {
            temperature,
            rng,
            values: Vec::new(),
        }
    }
}

impl<G: Evaluate> Agent<G> for HeuristicAgent {
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action {
        if legal.len() == 1 {
            return legal[0];
        }
        pick_by_evaluation(
            state,
            legal,
            self.temperature,
            &mut self.rng,
            &mut self.values,
        )
    }
}
