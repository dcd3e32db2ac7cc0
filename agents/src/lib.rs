//! Game-playing agents over the cowrie game API.
//!
//! - [`Agent`]: the trait every agent implements, generic over the game;
//! - [`AgentSpec`]: an agent written on the command line (`random`, `heuristic`, `mcts:…`,
//!   `expectimax:…`), parsed and validated;
//! - [`AnyAgent`]: the built agent, dispatched statically by `match` (no trait objects in the
//!   hot loop);
//! - [`Evaluate`]: a game's static evaluation, one file per game under [`heuristic`];
//! - [`random`], [`heuristic`], [`mcts`], [`expectimax`]: the agents.
//!
//! Every agent owns its random stream, handed to it at construction by the runner (derived from
//! the run seed, game index and seat as `docs/conventions.md` says), so an agent that draws more
//! random numbers never changes the dice a game sees. `docs/agents.md` describes the agents.
//!
//! # Examples
//!
//! Parse a spec as the command line writes it, build the agent with its own stream, and let it
//! choose at Baghchal's start (the goats place first; a placement is written as its point):
//!
//! ```
//! use cowrie_agents::{Agent, AgentSpec, AnyAgent};
//! use cowrie_engine::{Baghchal, BaghchalRules, Game};
//! use rand::SeedableRng;
//!
//! let spec: AgentSpec = "expectimax:depth=2".parse().unwrap();
//! let mut agent = AnyAgent::<Baghchal>::build(&spec, rand_chacha::ChaCha8Rng::seed_from_u64(7));
//! let state = Baghchal::new(&BaghchalRules::default());
//! let mut legal = Vec::new();
//! state.legal_actions(&mut legal);
//! assert_eq!(legal.len(), 21); // every empty point
//! let action = agent.choose(&state, &legal);
//! assert!(legal.contains(&action));
//! // A bad spec is refused with a message naming what is wrong.
//! let err = "mcts:iterations=0".parse::<AgentSpec>().unwrap_err();
//! assert!(err.to_string().contains("iterations"));
//! ```

pub mod expectimax;
pub mod heuristic;
pub mod mcts;
pub mod random;
pub mod spec;

pub use expectimax::{ChancePruning, Expectimax, SearchConfig};
pub use heuristic::{leaf_value, Evaluate, HeuristicAgent};
pub use mcts::MctsAgent;
pub use random::RandomAgent;
pub use spec::{AgentSpec, Budget, ExpectimaxParams, MctsParams, Rollout, SpecError};

use cowrie_engine::Game;
use rand_chacha::ChaCha8Rng;

/// An agent: chooses an action at a decision node.
pub trait Agent<G: Game>: Send {
    /// Chooses one of `legal` (the state's legal actions in the game's order, never empty).
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action;
}

/// Any built agent for game `G`, one variant per kind.
#[derive(Clone, Debug)]
pub enum AnyAgent<G: Evaluate> {
    /// Uniform random play.
    Random(RandomAgent),
    /// One-ply greedy or softmax play on the evaluation.
    Heuristic(HeuristicAgent),
    /// UCT Monte Carlo tree search.
    Mcts(Box<MctsAgent<G>>),
    /// Expectiminimax with alpha-beta and Star1/Star2.
    Expectimax(Box<Expectimax<G>>),
}

impl<G: Evaluate> AnyAgent<G> {
    /// Builds the agent `spec` describes, with its own random stream `rng`.
    #[must_use]
    pub fn build(spec: &AgentSpec, rng: ChaCha8Rng) -> AnyAgent<G> {
        match spec {
            AgentSpec::Random => AnyAgent::Random(RandomAgent::new(rng)),
            AgentSpec::Heuristic { temperature } => {
                AnyAgent::Heuristic(HeuristicAgent::new(*temperature, rng))
            }
            AgentSpec::Mcts(p) => AnyAgent::Mcts(Box::new(MctsAgent::new(*p, rng))),
            AgentSpec::Expectimax(p) => AnyAgent::Expectimax(Box::new(Expectimax::new(*p, rng))),
        }
    }
}

impl<G: Evaluate> Agent<G> for AnyAgent<G> {
    #[inline]
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action {
        match self {
            AnyAgent::Random(a) => a.choose(state, legal),
            AnyAgent::Heuristic(a) => a.choose(state, legal),
            AnyAgent::Mcts(a) => a.choose(state, legal),
            AnyAgent::Expectimax(a) => a.choose(state, legal),
        }
    }
}
