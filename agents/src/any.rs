//! [`AnyAgent`]: the agent an [`AgentSpec`] describes, built for one game, one variant per kind
//! and dispatched statically by `match` (no trait objects in the hot loop).

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;

use crate::agent::{Agent, Forfeit};
use crate::evaluate::Evaluate;
use crate::expectimax::Expectimax;
use crate::external::ExternalAgent;
use crate::heuristic::HeuristicAgent;
use crate::hosted::HostedAgent;
use crate::mcts::MctsAgent;
use crate::perfect::{Oracle, PerfectAgent};
use crate::random::RandomAgent;
use crate::spec::{AgentSpec, SpecError, Weights};
use crate::td::{self, TdAgent};

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
    /// A policy a host program plays (the Python package).
    Hosted(Box<HostedAgent>),
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
                let oracle = Self::open_oracle(&p.db)?;
                AnyAgent::Perfect(Box::new(PerfectAgent::new(oracle, p.depth, rng)))
            }
            AgentSpec::Hosted(p) => AnyAgent::Hosted(Box::new(HostedAgent::new(p, rng)?)),
        })
    }

    /// The database in `dir`, opened once per process.
    fn open_oracle(dir: &std::path::Path) -> Result<Arc<dyn Oracle<G>>, SpecError> {
        G::perfect_oracle(dir).map_err(|reason| SpecError::Unavailable {
            kind: "perfect".to_string(),
            reason,
        })
    }

    /// Why a `python` agent's policy could not play the game under way (a game that must not
    /// be recorded), once it failed; `None` for every other agent.
    #[must_use]
    pub fn failure(&self) -> Option<&str> {
        match self {
            AnyAgent::Hosted(a) => a.failure(),
            _ => None,
        }
    }

    /// The database a `perfect` agent reads (opened once per process, shared with the agents
    /// built from it); `None` for the other kinds.
    ///
    /// # Errors
    /// As [`AnyAgent::try_build`] for `perfect`.
    pub fn oracle(spec: &AgentSpec) -> Result<Option<Arc<dyn Oracle<G>>>, SpecError> {
        match spec {
            AgentSpec::Perfect(p) => Self::open_oracle(&p.db).map(Some),
            _ => Ok(None),
        }
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
                Self::open_oracle(&p.db)?
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

/// A file an agent reads: its weights or its database's manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Shipped weights, built into the program: their path in the repository (as
    /// [`td::shipped_name`] writes it) and the bytes the program holds.
    Shipped {
        /// `agents/weights/GAME-VARIANT.safetensors`.
        path: String,
        /// The bytes built in.
        bytes: &'static [u8],
    },
    /// A file read from disk, as the spec names it (a database's `DIR/manifest.json`, which
    /// records the length and SHA-256 of each of the database's files).
    File(std::path::PathBuf),
}

impl<G: Evaluate> AnyAgent<G> {
    /// The files the agent `spec` reads when it plays `G` under `rules`: the weights of `td`
    /// (and of `mcts` with `net=`), the manifest of a `perfect` agent's database; none for the
    /// others (an `external` agent's command is its spec, not a file).
    #[must_use]
    pub fn inputs(spec: &AgentSpec, rules: &G::Rules) -> Vec<Input> {
        let weights = match spec {
            AgentSpec::Td(p) => Some(&p.weights),
            AgentSpec::Mcts(p) => p.net.as_ref(),
            AgentSpec::Perfect(p) => return vec![Input::File(p.db.join("manifest.json"))],
            _ => None,
        };
        match weights {
            None => Vec::new(),
            Some(Weights::File(path)) => vec![Input::File(path.clone())],
            Some(w) => match td::shipped_for::<G>(w, rules) {
                Some((path, Some(bytes))) => vec![Input::Shipped { path, bytes }],
                _ => Vec::new(),
            },
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
            AnyAgent::External(a) => a.choose(state, legal),
            AnyAgent::Td(a) => a.choose(state, legal),
            AnyAgent::Perfect(a) => a.choose(state, legal),
            AnyAgent::Hosted(a) => a.choose(state, legal),
        }
    }

    #[inline]
    fn try_choose(&mut self, state: &G, legal: &[G::Action]) -> Result<G::Action, Forfeit> {
        match self {
            AnyAgent::External(a) => a.try_choose(state, legal),
            AnyAgent::Hosted(a) => a.try_choose(state, legal),
            other => Ok(other.choose(state, legal)),
        }
    }
}
