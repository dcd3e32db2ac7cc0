//! `python:name=NAME`: an agent whose choices a host program makes, such as a Python policy
//! registered with the Python package `cowrie` (`docs/python.md`).
//!
//! This crate knows nothing of Python. A host installs itself once per process
//! ([`install_host`]); an agent spec `python:name=NAME` is then built by asking the host to
//! start a game of the policy registered under `NAME` ([`Host::start`]), handing it a seed drawn
//! from the agent's own stream (the first 64-bit output of the stream the runner gives the
//! agent for that game and seat, `docs/conventions.md`), so the policy's randomness is
//! reproducible whatever the thread count. At each decision the host is given the state
//! (type-erased, as `&dyn Any`; it is the game `G` the agent plays) and answers the index of
//! its choice in the state's legal actions, in the game's order.
//!
//! In a process without a host (the `cowrie` program), building such an agent is refused with
//! a one-line error. A host that fails at a decision (the policy raised an exception, or
//! answered something that is not a legal action) makes the agent forfeit the game at once and
//! keep the one-line account of the failure ([`HostedAgent::failure`]): the runner then stops
//! the run with that error rather than record the game.

use std::any::Any;
use std::sync::OnceLock;

use cowrie_engine::Game;
use rand::RngCore;
use rand_chacha::ChaCha8Rng;

use crate::agent::{Agent, Forfeit, ForfeitReason};
use crate::spec::{HostedParams, SpecError};

/// A program that makes the choices of `python:` agents (the Python package).
pub trait Host: Send + Sync {
    /// Starts one game of the policy `params` names, its randomness seeded with `seed`.
    ///
    /// # Errors
    /// No policy registered under the name, or one registered with another version or
    /// reproducibility than `params` gives, in one line.
    fn start(&self, params: &HostedParams, seed: u64) -> Result<Box<dyn HostedGame>, String>;
}

/// One game of a hosted policy.
pub trait HostedGame: Send {
    /// The index, in the state's legal actions in the game's order, of the policy's choice at
    /// `state` (a decision node of the game the agent plays, as `&dyn Any`).
    ///
    /// # Errors
    /// The policy failed or answered something that is not a legal action: one line naming
    /// the policy and the bad value.
    fn choose(&mut self, state: &dyn Any) -> Result<usize, String>;
}

/// The process's host, once installed.
static HOST: OnceLock<Box<dyn Host>> = OnceLock::new();

/// Installs `host` as the process's host of `python:` agents; `false` (and `host` dropped) if
/// one is installed already.
pub fn install_host(host: Box<dyn Host>) -> bool {
    HOST.set(host).is_ok()
}

/// A `python:` agent for one game.
pub struct HostedAgent {
    /// The spec's text, naming the agent in errors.
    label: String,
    /// The game under way, started by the host.
    game: Box<dyn HostedGame>,
    /// Why the policy could not play, once it failed.
    failure: Option<String>,
}

impl std::fmt::Debug for HostedAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostedAgent")
            .field("label", &self.label)
            .field("failure", &self.failure)
            .finish_non_exhaustive()
    }
}

impl Clone for HostedAgent {
    /// A hosted game cannot be copied: the copy is an agent that forfeits at its first move
    /// (nothing in the runner copies a built agent).
    fn clone(&self) -> Self {
        HostedAgent {
            label: self.label.clone(),
            game: Box::new(Failed),
            failure: Some(format!("agent '{}': a copy cannot play", self.label)),
        }
    }
}

/// The game of an agent that cannot play.
struct Failed;

impl HostedGame for Failed {
    fn choose(&mut self, _state: &dyn Any) -> Result<usize, String> {
        Err("cannot play".to_string())
    }
}

impl HostedAgent {
    /// Starts a game of the policy `params` names with the process's host, seeded by the
    /// first 64-bit output of `rng`.
    ///
    /// # Errors
    /// No host in this process, or the host's refusal.
    pub fn new(params: &HostedParams, mut rng: ChaCha8Rng) -> Result<HostedAgent, SpecError> {
        let unavailable = |reason: String| SpecError::Unavailable {
            kind: "python".to_string(),
            reason,
        };
        let host = HOST.get().ok_or_else(|| {
            unavailable(format!(
                "'{}' is a Python policy: it plays only through the Python package cowrie, \
                 which registers it (docs/python.md)",
                params.name
            ))
        })?;
        let game = host.start(params, rng.next_u64()).map_err(unavailable)?;
        Ok(HostedAgent {
            label: crate::spec::AgentSpec::Hosted(params.clone()).to_string(),
            game,
            failure: None,
        })
    }

    /// Why the policy could not play this game (the run must not record it), once it failed.
    #[must_use]
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }
}

impl<G: Game> Agent<G> for HostedAgent {
    /// # Panics
    /// Never on a legal list; a failed policy's choice is the first legal action, and
    /// [`HostedAgent::failure`] says why (the runner calls [`Agent::try_choose`]).
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action {
        self.try_choose(state, legal).unwrap_or(legal[0])
    }

    fn try_choose(&mut self, state: &G, legal: &[G::Action]) -> Result<G::Action, Forfeit> {
        if let Some(f) = &self.failure {
            return Err(Forfeit {
                reason: ForfeitReason::Crash,
                detail: f.clone(),
            });
        }
        let chosen = self.game.choose(state).and_then(|i| {
            legal.get(i).copied().ok_or_else(|| {
                format!(
                    "agent '{}': the host chose index {i} of {} legal actions",
                    self.label,
                    legal.len()
                )
            })
        });
        chosen.map_err(|detail| {
            self.failure = Some(detail.clone());
            Forfeit {
                reason: ForfeitReason::Crash,
                detail,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AgentSpec, AnyAgent};
    use cowrie_engine::{Baghchal, BaghchalRules};
    use rand::SeedableRng;

    /// A host whose policies answer the index named by the policy's name (`last`: the last
    /// legal action; `past-end`: one past it; anything else fails), noting each seed.
    struct Toy;

    struct ToyGame(String);

    impl Host for Toy {
        fn start(&self, params: &HostedParams, seed: u64) -> Result<Box<dyn HostedGame>, String> {
            assert_eq!(seed, ChaCha8Rng::seed_from_u64(7).next_u64());
            Ok(Box::new(ToyGame(params.name.clone())))
        }
    }

    impl HostedGame for ToyGame {
        fn choose(&mut self, state: &dyn Any) -> Result<usize, String> {
            let state = state.downcast_ref::<Baghchal>().expect("a Baghchal state");
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            match self.0.as_str() {
                "last" => Ok(legal.len() - 1),
                "past-end" => Ok(legal.len()),
                other => Err(format!("{other} failed")),
            }
        }
    }

    fn build(text: &str) -> Result<AnyAgent<Baghchal>, SpecError> {
        let spec: AgentSpec = text.parse().expect("a spec");
        AnyAgent::<Baghchal>::try_build(&spec, ChaCha8Rng::seed_from_u64(7))
    }

    /// One test, as the host is the process's: refused before a host is installed, then
    /// played through it, a failure kept and forfeited.
    #[test]
    fn a_hosted_agent_plays_through_the_host_and_keeps_its_failure() {
        let err = build("python:name=last").expect_err("no host yet");
        assert_eq!(
            err.to_string(),
            "agent 'python': 'last' is a Python policy: it plays only through the Python \
             package cowrie, which registers it (docs/python.md)"
        );
        assert!(install_host(Box::new(Toy)));
        assert!(!install_host(Box::new(Toy)), "one host per process");

        let state = Baghchal::new(&BaghchalRules::default());
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        // The start: every one of the 21 empty points is a placement.
        assert_eq!(legal.len(), 21);
        let mut last = build("python:name=last").expect("built");
        assert_eq!(last.try_choose(&state, &legal), Ok(legal[20]));
        assert_eq!(last.failure(), None);

        for (name, detail) in [
            (
                "past-end",
                "agent 'python:name=past-end,reproducible=off': the host chose index 21 of 21 legal actions",
            ),
            ("boom", "boom failed"),
        ] {
            let mut agent = build(&format!("python:name={name}")).expect("built");
            let forfeit = agent.try_choose(&state, &legal).expect_err("a failure");
            assert_eq!(forfeit.reason, ForfeitReason::Crash);
            assert_eq!(forfeit.detail, detail);
            assert_eq!(agent.failure(), Some(detail));
            // Once failed, it stays failed.
            assert!(agent.try_choose(&state, &legal).is_err());
        }
    }
}
