//! Game-playing agents over the cowrie game API.
//!
//! - [`Agent`]: the trait every agent implements, generic over the game;
//! - [`AgentSpec`]: an agent written on the command line (`random`), parsed and validated;
//! - [`AnyAgent`]: the built agent, dispatched statically by `match` (no trait objects in the
//!   hot loop);
//! - [`random`]: uniform random play.
//!
//! Every agent owns its random stream, handed to it at construction by the runner (derived from
//! the run seed, game index and seat as `docs/conventions.md` says), so an agent that draws more
//! random numbers never changes the dice a game sees.

pub mod random;
pub mod spec;

pub use random::RandomAgent;
pub use spec::{AgentSpec, SpecError};

use cowrie_engine::Game;
use rand_chacha::ChaCha8Rng;

/// An agent: chooses an action at a decision node.
pub trait Agent<G: Game>: Send {
    /// Chooses one of `legal` (the state's legal actions in the game's order, never empty).
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action;
}

/// Any built agent, one variant per kind.
#[derive(Clone, Debug)]
pub enum AnyAgent {
    /// Uniform random play.
    Random(RandomAgent),
}

impl AnyAgent {
    /// Builds the agent `spec` describes, with its own random stream `rng`.
    #[must_use]
    pub fn build(spec: &AgentSpec, rng: ChaCha8Rng) -> AnyAgent {
        match spec {
            AgentSpec::Random => AnyAgent::Random(RandomAgent::new(rng)),
        }
    }
}

impl<G: Game> Agent<G> for AnyAgent {
    #[inline]
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action {
        match self {
            AnyAgent::Random(a) => a.choose(state, legal),
        }
    }
}
