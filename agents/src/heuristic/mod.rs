//! Static evaluation of positions ([`Evaluate`]), one documented evaluation per game in its own
//! file, and the one-ply [`HeuristicAgent`] that plays on it.
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

use std::sync::Arc;

use crate::perfect::oracle::Oracle;
use crate::td::encoding::Encoding;
use crate::td::net::Inputs;
use crate::Agent;

/// A game with a static evaluation: what the heuristic agent, heuristic rollouts, MCTS cutoffs
/// and expectimax leaves score positions with.
pub trait Evaluate: Game {
    /// The value of this state from `player`'s view.
    ///
    /// Contract: in `[-1, 1]` at non-terminal states (decision or chance nodes), antisymmetric
    /// (`evaluate(p) == -evaluate(p.opponent())`), and at terminal states exactly
    /// `returns()[player.index()]` (which may reach `±facts.max_points`). Expectimax's Star1 and
    /// Star2 pruning rely on these bounds.
    fn evaluate(&self, player: Player) -> f64;

    /// The dice or throw to be played at this decision node, in the game's outcome notation
    /// (`6-1`), for the external-agent protocol; `None` where the game has none to tell.
    fn roll_text(&self) -> Option<String> {
        None
    }

    /// The learned evaluation's input encoding under `rules`, if the game has one (`td`
    /// agents and `cowrie train` refuse the others).
    fn td_encoding(rules: &Self::Rules) -> Option<Encoding> {
        let _ = rules;
        None
    }

    /// Encodes this non-terminal state for the learned evaluation, from the view of the
    /// player it returns (the player to act); `None` where [`Evaluate::td_encoding`] is.
    fn td_inputs(&self, inputs: &mut Inputs) -> Option<Player> {
        let _ = inputs;
        None
    }

    /// The solved database in `dir` for the `perfect` agent. Games without a solver refuse
    /// (the default).
    ///
    /// # Errors
    /// The reason in words: no solver for the game, no database in `dir`.
    fn perfect_oracle(dir: &std::path::Path) -> Result<Arc<dyn Oracle<Self>>, String> {
        let _ = dir;
        Err(format!(
            "{} has no solver; perfect play is offered for baghchal",
            Self::NAME
        ))
    }
}

/// The value of `state` for `player`: the exact returns at a terminal state (0 for a draw or a
/// truncation), otherwise the evaluation.
#[inline]
pub fn leaf_value<G: Evaluate>(state: &G, player: Player) -> f64 {
    match state.to_act() {
        ToAct::Terminal(_) => state.returns()[player.index()],
        _ => state.evaluate(player),
    }
}

/// The largest absolute value [`leaf_value`] can take in `state`'s game: the bound Star1 and
/// Star2 pruning use.
#[must_use]
pub fn value_bound<G: Game>(state: &G) -> f64 {
    f64::from(G::facts(state.rules()).max_points.max(1))
}

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
