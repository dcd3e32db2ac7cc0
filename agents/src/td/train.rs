//! TD(lambda) self-play (Sutton 1988; Tesauro 1992, 1995), in the offline lambda-return form
//! (Sutton and Barto 2018, section 12.1): a game is played greedily on the network's equity
//! (ties to the first action in the game's order; the dice are the only randomness); the
//! positions after each move (the player to act next as viewer) get targets
//! `G_t = (1 - lambda) y_{t+1} + lambda G_{t+1}`, `G_T` the game's outcome, each seen from
//! `x_t`'s viewer; then each position's outputs are moved toward its target by the
//! cross-entropy gradient of the sigmoid outputs ([`Net::accumulate`]), summed over the game.
//!
//! The caller sums the updates of a batch of games played with the same weights, in game
//! order, and applies them at once: the result is the same for any number of threads.

use cowrie_engine::{sample_outcome, Game, Player, ToAct};
use rand_chacha::ChaCha8Rng;

use super::net::{Grad, Inputs, Net, Outputs};
use super::{equity, flip, outcome};
use crate::evaluate::Evaluate;
use crate::value::Viewed;

/// Buffers reused across games.
#[derive(Debug)]
pub struct Scratch<G: Game> {
    actions: Vec<G::Action>,
    outcomes: Vec<(G::Outcome, f64)>,
    inputs: Vec<Inputs>,
    viewers: Vec<Player>,
    outputs: Vec<Outputs>,
    x: Inputs,
}

impl<G: Game> Default for Scratch<G> {
    fn default() -> Self {
        Scratch {
            actions: Vec::new(),
            outcomes: Vec::new(),
            inputs: Vec::new(),
            viewers: Vec::new(),
            outputs: Vec::new(),
            x: Inputs::default(),
        }
    }
}

/// The network's equity of `state` from `player`'s view (exact returns at the end).
#[inline]
pub fn value<G: Evaluate>(
    net: &Net,
    outputs: usize,
    state: &G,
    player: Player,
    x: &mut Inputs,
) -> f64 {
    if let ToAct::Terminal(_) = state.to_act() {
        return state.returns()[player.index()];
    }
    let viewer = state.td_inputs(x).expect("an encoded game");
    Viewed::new(viewer, equity(&net.forward(x), outputs)).for_player(player)
}

/// The index of the legal action whose result the network values best for the mover (the
/// first of equals).
pub fn greedy<G: Evaluate>(
    net: &Net,
    outputs: usize,
    state: &G,
    legal: &[G::Action],
    x: &mut Inputs,
) -> usize {
    let ToAct::Decision(me) = state.to_act() else {
        panic!("greedy play at a node that is not a decision node");
    };
    let mut best = (f64::NEG_INFINITY, 0);
    for (i, &a) in legal.iter().enumerate() {
        let mut child = state.clone();
        child.play_unchecked(a);
        let v = value(net, outputs, &child, me, x);
        if v > best.0 {
            best = (v, i);
        }
    }
    best.1
}

/// Plays one self-play game under `rules` on `net` (dice from `chance`) and adds its
/// TD(lambda) update to `grad`. Returns the decision plies played.
pub fn self_play<G: Evaluate>(
    net: &Net,
    outputs: usize,
    rules: &G::Rules,
    lambda: f32,
    chance: &mut ChaCha8Rng,
    s: &mut Scratch<G>,
    grad: &mut Grad,
) -> u32 {
    let mut state = G::new(rules);
    s.viewers.clear();
    s.outputs.clear();
    let mut t = 0;
    loop {
        match state.to_act() {
            ToAct::Terminal(_) => break,
            ToAct::Chance => {
                state.chance_outcomes(&mut s.outcomes);
                let o = sample_outcome(&s.outcomes, chance);
                state.apply_outcome(o);
            }
            ToAct::Decision(_) => {
                state.legal_actions(&mut s.actions);
                let i = if s.actions.len() == 1 {
                    0
                } else {
                    greedy(net, outputs, &state, &s.actions, &mut s.x)
                };
                state.play_unchecked(s.actions[i]);
                if !matches!(state.to_act(), ToAct::Terminal(_)) {
                    if s.inputs.len() <= t {
                        s.inputs.push(Inputs::default());
                    }
                    let viewer = state.td_inputs(&mut s.inputs[t]).expect("an encoded game");
                    s.viewers.push(viewer);
                    s.outputs.push(net.forward(&s.inputs[t]));
                    t += 1;
                }
            }
        }
    }
    if t == 0 {
        return state.plies();
    }
    // Targets from the last position back, each in its own viewer's view.
    let mut target = outcome(&state, s.viewers[t - 1], outputs);
    for k in (0..t).rev() {
        net.accumulate(&s.inputs[k], &target, grad);
        if k > 0 {
            let same = s.viewers[k - 1] == s.viewers[k];
            let mut next = [0.0; super::net::MAX_OUTPUTS];
            for j in 0..outputs {
                next[j] = (1.0 - lambda) * s.outputs[k][j] + lambda * target[j];
            }
            target = if same { next } else { flip(&next, outputs) };
        }
    }
    state.plies()
}
