//! Uniform random play: every legal action equally likely.

use cowrie_engine::Game;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::agent::Agent;

/// Chooses uniformly among the legal actions with its own stream.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random agent drawing from `rng`.
    #[must_use]
    pub fn new(rng: ChaCha8Rng) -> Self {
        RandomAgent { rng }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    #[inline]
    fn choose(&mut self, _state: &G, legal: &[G::Action]) -> G::Action {
        legal[self.rng.gen_range(0..legal.len())]
    }
}
