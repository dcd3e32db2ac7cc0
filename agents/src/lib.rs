//! Game-playing agents over the cowrie game API.
//!
//! - [`agent`]: the [`Agent`] trait every agent implements, generic over the game, and the
//!   [`Forfeit`] an agent returns when it can no longer play;
//! - [`spec`]: an [`AgentSpec`], an agent written on the command line (`random`, `heuristic`,
//!   `mcts:…`, `expectimax:…`), parsed and validated against each kind's parameters, declared
//!   once in [`params`];
//! - [`any`]: the [`AnyAgent`] built from a spec, dispatched statically by `match` (no trait
//!   objects in the hot loop);
//! - [`evaluate`]: [`Evaluate`], a game's static evaluation (one file per game under
//!   [`heuristic`]);
//! - [`random`], [`heuristic`], [`mcts`], [`expectimax`], [`td`], [`external`], [`perfect`],
//!   [`hosted`]: the agents;
//! - [`analysis`]: what an agent says of each legal action (equities, solved values, visits);
//! - [`value`]: [`Viewed`], a zero-sum value and whose view it is, the one conversion between
//!   views.
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

pub mod agent;
pub mod analysis;
pub mod any;
pub mod bearoff;
pub mod evaluate;
pub mod expectimax;
pub mod external;
pub mod heuristic;
pub mod hosted;
pub mod mcts;
pub mod params;
pub mod perfect;
pub mod random;
pub mod spec;
pub mod td;
pub mod value;

pub use agent::{Agent, Forfeit, ForfeitReason};
pub use analysis::{analyse, Analysis};
pub use any::{AnyAgent, Input};
pub use evaluate::{leaf_value, Evaluate};
pub use expectimax::{ChancePruning, Evaluator, Expectimax, SearchConfig};
pub use external::ExternalAgent;
pub use heuristic::HeuristicAgent;
pub use hosted::{install_host, Host, HostedAgent, HostedGame};
pub use mcts::MctsAgent;
pub use params::ParamError;
pub use perfect::{Oracle, PerfectAgent};
pub use random::RandomAgent;
pub use spec::{
    AgentSpec, Budget, ExpectimaxParams, ExternalParams, HostedParams, MctsParams, PerfectParams,
    Rollout, SpecError, TdParams, Weights, Widening, DEFAULT_FILTER, DEFAULT_THRESHOLD,
};
pub use td::TdAgent;
pub use value::Viewed;
