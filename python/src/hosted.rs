//! The host of `python:name=NAME` agents: Python policies registered in this process's table
//! (`cowrie.policy`, filled by `cowrie.PythonAgent` and the functions that take agents),
//! played by the runner's own code path through [`cowrie_agents::hosted`].
//!
//! The runner plays without the GIL; each choice of a Python policy takes it for the call and
//! gives it back. A game starts by calling `cowrie.policy._start(name, version, reproducible,
//! seed)`, which answers the game's `choose(state)` (the policy with its
//! `numpy.random.Generator` for the game, seeded from the agent's stream, bound in). A failure
//! (an exception, a value that is not a legal action id) comes back as one line naming the
//! agent and the value; the Python exception itself is kept ([`take_failure`]) so that the
//! error raised in Python has it as its cause.

use std::any::Any;
use std::sync::Mutex;

use cowrie_agents::{AgentSpec, Host, HostedGame, HostedParams};
use cowrie_engine::one_line;
use pyo3::prelude::*;

use crate::dynamic::state_of_any;
use crate::State;

/// The Python exception of the last policy that failed in this process, if not yet taken.
static FAILURE: Mutex<Option<PyErr>> = Mutex::new(None);

/// The Python exception of the last policy that failed, taken (so a later run starts clean).
pub fn take_failure() -> Option<PyErr> {
    FAILURE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()
}

/// Keeps `e` as the last policy failure.
fn keep_failure(e: PyErr) {
    *FAILURE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
}

/// An exception in one line: `TypeName: message`.
fn describe(py: Python<'_>, e: &PyErr) -> String {
    let kind = e
        .get_type(py)
        .name()
        .map_or_else(|_| "Exception".to_string(), |n| n.to_string());
    let text = e.value(py).to_string();
    if text.is_empty() {
        kind
    } else {
        one_line(&format!("{kind}: {text}").replace('\n', " "))
    }
}

/// The host of the package's Python policies.
pub struct PolicyHost;

impl Host for PolicyHost {
    fn start(&self, params: &HostedParams, seed: u64) -> Result<Box<dyn HostedGame>, String> {
        let label = AgentSpec::Hosted(params.clone()).to_string();
        Python::with_gil(|py| {
            let started = py.import("cowrie.policy").and_then(|m| {
                m.getattr("_start")?.call1((
                    params.name.as_str(),
                    params.version.as_deref(),
                    params.reproducible,
                    seed,
                ))
            });
            match started {
                Ok(choose) => Ok(Box::new(PolicyGame {
                    label: label.clone(),
                    choose: choose.unbind(),
                }) as Box<dyn HostedGame>),
                // `_start`'s own message names the policy (a LookupError).
                Err(e) => Err(one_line(&e.value(py).to_string())),
            }
        })
    }
}

/// One game of a Python policy: its `choose(state)` for this game.
struct PolicyGame {
    /// The agent's spec text, naming it in errors.
    label: String,
    /// The callable `_start` answered.
    choose: Py<PyAny>,
}

impl HostedGame for PolicyGame {
    fn choose(&mut self, state: &dyn Any) -> Result<usize, String> {
        let label = &self.label;
        let state = state_of_any(state)
            .ok_or_else(|| format!("agent '{label}': a state of a game the package lacks"))?;
        Python::with_gil(|py| {
            let given = State {
                inner: state.clone_box(),
            };
            let answer = match self.choose.call1(py, (given,)) {
                Ok(a) => a.into_bound(py),
                Err(e) => {
                    let line = format!("agent '{label}': choose raised {}", describe(py, &e));
                    keep_failure(e);
                    return Err(line);
                }
            };
            let at = state.notation();
            let shown = answer
                .repr()
                .map_or_else(|_| "?".to_string(), |r| one_line(&r.to_string()));
            let id = crate::id("illegal action", &answer).map_err(|_| {
                format!("agent '{label}': choose returned {shown} at '{at}', not an action id (a whole number from 0)")
            })?;
            state
                .index_of(id)
                .map_err(|why| format!("agent '{label}': choose returned {shown} at '{at}': {why}"))
        })
    }
}
