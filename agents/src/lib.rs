//! Game-playing agents over the cowrie game API.
//!
//! - [`Agent`]: the trait every agent implements, generic over the game;
//! - [`AgentSpec`]: an agent written on the command line (`random`, `heuristic`, `mcts:…`,
//!   `expectimax:…`), parsed and validated;
//! - [`AnyAgent`]: the built agent, dispatched statically by `match` (no trait objects in the
//!   hot loop);
//! - [`Evaluate`]: a game's static evaluation, one file per game under [`heuristic`];
//! - [`random`], [`heuristic`], [`mcts`], [`expectimax`], [`perfect`]: the agents.
//!
//! Every agent owns its random stream, handed to it at construction by the runner (derived from
//! the run seed, game index and seat as `docs/conventions.md` says), so an agent that draws more
//! random numbers never changes the dice a game sees. `docs/agents.md` describes the agents.

pub mod expectimax;
pub mod heuristic;
pub mod mcts;
pub mod perfect;
pub mod random;
pub mod spec;

pub use expectimax::{ChancePruning, Expectimax, SearchConfig};
pub use heuristic::{leaf_value, Evaluate, HeuristicAgent};
pub use mcts::MctsAgent;
pub use perfect::{Oracle, PerfectAgent};
pub use random::RandomAgent;
pub use spec::{
    AgentSpec, Budget, ExpectimaxParams, MctsParams, PerfectParams, Rollout, SpecError,
};

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
    /// Perfect play from a solved database.
    Perfect(Box<PerfectAgent<G>>),
}

impl<G: Evaluate> AnyAgent<G> {
    /// Builds the agent `spec` describes, with its own random stream `rng`, for the kinds
    /// that cannot fail to build.
    ///
    /// # Panics
    /// For a `perfect` spec whose database cannot be read: check such specs with
    /// [`AnyAgent::try_build`] first.
    #[must_use]
    pub fn build(spec: &AgentSpec, rng: ChaCha8Rng) -> AnyAgent<G> {
        match spec {
            AgentSpec::Perfect(_) => Self::try_build(spec, rng)
                .unwrap_or_else(|e| panic!("{e} (check agents with try_build first)")),
            AgentSpec::Random => AnyAgent::Random(RandomAgent::new(rng)),
            AgentSpec::Heuristic { temperature } => {
                AnyAgent::Heuristic(HeuristicAgent::new(*temperature, rng))
            }
            AgentSpec::Mcts(p) => AnyAgent::Mcts(Box::new(MctsAgent::new(*p, rng))),
            AgentSpec::Expectimax(p) => AnyAgent::Expectimax(Box::new(Expectimax::new(*p, rng))),
        }
    }

    /// Builds the agent `spec` describes, any kind.
    ///
    /// # Errors
    /// [`SpecError::Unavailable`] if a `perfect` agent's database cannot be read or the game
    /// has no solver.
    pub fn try_build(spec: &AgentSpec, rng: ChaCha8Rng) -> Result<AnyAgent<G>, SpecError> {
        match spec {
            AgentSpec::Perfect(p) => {
                let oracle = G::perfect_oracle(&p.db).map_err(|reason| SpecError::Unavailable {
                    kind: "perfect".to_string(),
                    reason,
                })?;
                Ok(AnyAgent::Perfect(Box::new(PerfectAgent::new(
                    oracle, p.depth, rng,
                ))))
            }
            _ => Ok(Self::build(spec, rng)),
        }
    }

    /// Whether the agent can play under `rules` (a `perfect` agent only under the rules its
    /// database was solved for).
    ///
    /// # Errors
    /// [`SpecError::Unavailable`] with the reason.
    pub fn check_rules(&self, rules: &G::Rules) -> Result<(), SpecError> {
        match self {
            AnyAgent::Perfect(a) => {
                a.oracle()
                    .check_rules(rules)
                    .map_err(|reason| SpecError::Unavailable {
                        kind: "perfect".to_string(),
                        reason,
                    })
            }
            _ => Ok(()),
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
            AnyAgent::Perfect(a) => a.choose(state, legal),
        }
    }
}
