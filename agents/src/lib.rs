//! Game-playing agents over the cowrie game API.
//!
//! - [`Agent`]: the trait every agent implements, generic over the game;
//! - [`AgentSpec`]: an agent written on the command line (`random`, `heuristic`, `mcts:…`,
//!   `expectimax:…`), parsed and validated;
//! - [`AnyAgent`]: the built agent, dispatched statically by `match` (no trait objects in the
//!   hot loop);
//! - [`Evaluate`]: a game's static evaluation, one file per game under [`heuristic`];
//! - [`random`], [`heuristic`], [`mcts`], [`expectimax`], [`perfect`]: the agents;
//! - [`Viewed`]: a zero-sum value and whose view it is, the one conversion between views.
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
pub mod external;
pub mod heuristic;
pub mod mcts;
pub mod perfect;
pub mod random;
pub mod spec;
pub mod td;
pub mod value;

pub use expectimax::{ChancePruning, Evaluator, Expectimax, SearchConfig};
pub use external::{ExternalAgent, Forfeit, ForfeitReason};
pub use heuristic::{leaf_value, Evaluate, HeuristicAgent};
pub use mcts::MctsAgent;
pub use perfect::{Oracle, PerfectAgent};
pub use random::RandomAgent;
pub use spec::{
    AgentSpec, Budget, ExpectimaxParams, ExternalParams, MctsParams, PerfectParams, Rollout,
    SpecError, TdParams, Weights, Widening,
};
pub use td::TdAgent;
pub use value::Viewed;

use cowrie_engine::Game;
use rand_chacha::ChaCha8Rng;

/// An agent: chooses an action at a decision node.
pub trait Agent<G: Game>: Send {
    /// Chooses one of `legal` (the state's legal actions in the game's order, never empty).
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action;

    /// Chooses as [`Agent::choose`] does, or forfeits the game (an external program that
    /// crashed, timed out or answered an illegal action). The runner calls this; every agent
    /// but the external one always returns `Ok`.
    ///
    /// # Errors
    /// The [`Forfeit`], once the agent can no longer play this game.
    fn try_choose(&mut self, state: &G, legal: &[G::Action]) -> Result<G::Action, Forfeit> {
        Ok(self.choose(state, legal))
    }
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
    /// The learned evaluation, greedy or searched.
    Td(Box<TdAgent<G>>),
    /// Another program over the JSON-lines protocol.
    External(Box<ExternalAgent>),
    /// Perfect play from a solved database.
    Perfect(Box<PerfectAgent<G>>),
}

impl<G: Evaluate> AnyAgent<G> {
    /// Builds the agent `spec` describes, with its own random stream `rng`.
    ///
    /// # Panics
    /// For a kind whose building can fail (`external`, `td`, `perfect`): use
    /// [`AnyAgent::try_build`].
    #[must_use]
    pub fn build(spec: &AgentSpec, rng: ChaCha8Rng) -> AnyAgent<G> {
        match Self::try_build(spec, rng) {
            Ok(a) => a,
            Err(e) => panic!("{e}"),
        }
    }

    /// Builds the agent `spec` describes, with its own random stream `rng`.
    ///
    /// # Errors
    /// An `external` command that cannot be run (empty, unbalanced quotes, no such program);
    /// `td` weights that cannot be read or are not a network for this game; a `perfect`
    /// database that cannot be read, or a game without a solver.
    pub fn try_build(spec: &AgentSpec, rng: ChaCha8Rng) -> Result<AnyAgent<G>, SpecError> {
        Ok(match spec {
            AgentSpec::Random => AnyAgent::Random(RandomAgent::new(rng)),
            AgentSpec::Heuristic { temperature } => {
                AnyAgent::Heuristic(HeuristicAgent::new(*temperature, rng))
            }
            AgentSpec::Mcts(p) => {
                if let Some(Weights::File(path)) = &p.net {
                    td::load_cached(path).map_err(|e| SpecError::Weights(e.to_string()))?;
                }
                AnyAgent::Mcts(Box::new(MctsAgent::new(p.clone(), rng)))
            }
            AgentSpec::Expectimax(p) => AnyAgent::Expectimax(Box::new(Expectimax::new(*p, rng))),
            AgentSpec::External(p) => AnyAgent::External(Box::new(ExternalAgent::new(p, rng)?)),
            AgentSpec::Td(p) => {
                if let Weights::File(path) = &p.weights {
                    td::load_cached(path).map_err(|e| SpecError::Weights(e.to_string()))?;
                }
                AnyAgent::Td(Box::new(TdAgent::new(p.clone(), rng)))
            }
            AgentSpec::Perfect(p) => {
                let oracle = G::perfect_oracle(&p.db).map_err(|reason| SpecError::Unavailable {
                    kind: "perfect".to_string(),
                    reason,
                })?;
                AnyAgent::Perfect(Box::new(PerfectAgent::new(oracle, p.depth, rng)))
            }
        })
    }

    /// Checks that `spec` can play `G` under `rules` before a run starts: for `td`, that the
    /// weights were trained for this game, encoding and scoring; for `perfect`, that its
    /// database was solved under these rules.
    ///
    /// # Errors
    /// As [`AnyAgent::try_build`], and weights or a database for other rules, naming them.
    pub fn check_rules(spec: &AgentSpec, rules: &G::Rules) -> Result<(), SpecError> {
        match spec {
            AgentSpec::Td(p) => {
                td::resolve::<G>(&p.weights, rules)?;
            }
            AgentSpec::Mcts(p) => {
                if let Some(w) = &p.net {
                    td::resolve::<G>(w, rules)?;
                }
            }
            AgentSpec::Perfect(p) => {
                let oracle = G::perfect_oracle(&p.db).map_err(|reason| SpecError::Unavailable {
                    kind: "perfect".to_string(),
                    reason,
                })?;
                oracle
                    .check_rules(rules)
                    .map_err(|reason| SpecError::Unavailable {
                        kind: "perfect".to_string(),
                        reason,
                    })?;
            }
            _ => {}
        }
        Ok(())
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
            AnyAgent::External(a) => a.choose(state, legal),
            AnyAgent::Td(a) => a.choose(state, legal),
            AnyAgent::Perfect(a) => a.choose(state, legal),
        }
    }

    #[inline]
    fn try_choose(&mut self, state: &G, legal: &[G::Action]) -> Result<G::Action, Forfeit> {
        match self {
            AnyAgent::External(a) => a.try_choose(state, legal),
            other => Ok(other.choose(state, legal)),
        }
    }
}
