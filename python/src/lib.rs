//! `cowrie._cowrie`: the native half of the Python package `cowrie` (its Python half is
//! `python/cowrie/`). Classes [`Game`], [`State`], [`Agent`] and [`Chance`] follow OpenSpiel's
//! names; [`play_match_csv`] runs `cowrie match` through the experiments library, and
//! [`run_command`] one `cowrie match`, `study`, `merge`, `tournament`, `ladder` or `converge`
//! command line. Python policies play as `python:name=NAME` agents ([`hosted`]).
//!
//! No Rust panic reaches Python: inputs are checked before any engine call, errors come back as
//! `ValueError` with the engine's or the command line's message, and every call into the
//! engine, agents or runner goes through [`guard`], which turns a panic into a `RuntimeError`.

mod command;
mod dynamic;
mod games;
mod hosted;
mod run;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cowrie_agents::AgentSpec;
use cowrie_engine::{Baghchal, Bargese, Frangieh, Julbahar, Player, ToAct};
use cowrie_experiments::args::{max_threads, MAX_GAMES};
use cowrie_experiments::run::seeds::{agent_stream, chance_stream, Dice};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use dynamic::{shared, DynAgent, DynGame, DynState, GameOf};

/// OpenSpiel's player id of a chance node.
const CHANCE_PLAYER: i64 = -1;
/// OpenSpiel's player id of a terminal state.
const TERMINAL_PLAYER: i64 = -4;

/// Runs `f`, turning a panic into a `RuntimeError` and an error message into a `ValueError`.
fn guard<T>(f: impl FnOnce() -> Result<T, String>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(msg)) => Err(PyValueError::new_err(msg)),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_default();
            Err(PyRuntimeError::new_err(format!(
                "internal error in cowrie: {what}"
            )))
        }
    }
}

/// The whole-number argument `name`: `value` (a Python `int`, or any object with
/// `__index__`, as a numpy integer) from `least` to `most`, or a `ValueError` naming the
/// argument, its value and the range (never a wrapped or overflowed number).
fn whole(name: &str, value: &Bound<'_, PyAny>, least: u64, most: u64) -> PyResult<u64> {
    let range = format!("must be a whole number from {least} to {most}");
    let refuse = |shown: String| Err(PyValueError::new_err(format!("{name} {shown}: {range}")));
    let index = if value.is_instance_of::<PyBool>() {
        None
    } else {
        value
            .py()
            .import("operator")?
            .call_method1("index", (value,))
            .ok()
    };
    let Some(n) = index else {
        return refuse(value.repr()?.to_string());
    };
    if n.lt(least)? || n.gt(most)? {
        return refuse(n.to_string());
    }
    n.extract()
}

/// An action or outcome id (`what` is `illegal action` or `invalid chance outcome`, the
/// engine's words): a negative or too large number is refused as the engine refuses an id past
/// the last, naming it.
fn id(what: &str, value: &Bound<'_, PyAny>) -> PyResult<usize> {
    whole(what, value, 0, usize::MAX as u64)
        .map(|n| n as usize)
        .map_err(|_| {
            let shown = value.to_string();
            PyValueError::new_err(format!("{what} {shown}: ids are whole numbers from 0"))
        })
}

/// The game named `name` under `variant` and `options`.
fn resolve_game(
    name: &str,
    variant: Option<&str>,
    options: &[String],
) -> Result<Arc<dyn DynGame>, String> {
    Ok(match name {
        "baghchal" => shared(GameOf::<Baghchal>::resolve(variant, options)?),
        "frangieh" => shared(GameOf::<Frangieh>::resolve(variant, options)?),
        "julbahar" => shared(GameOf::<Julbahar>::resolve(variant, options)?),
        "bargese" => shared(GameOf::<Bargese>::resolve(variant, options)?),
        // The command line's message for an unknown game.
        _ => {
            return Err(
                cowrie_experiments::registry::resolve_rules(name, variant, options)
                    .err()
                    .map_or_else(|| format!("unknown game '{name}'"), |e| e.to_string()),
            )
        }
    })
}

/// A game under a resolved rule set (OpenSpiel's `Game`). Made by `cowrie.load_game`.
#[pyclass(module = "cowrie._cowrie", frozen)]
struct Game {
    inner: Arc<dyn DynGame>,
}

#[pymethods]
impl Game {
    /// Builds a game: `Game(name, variant, options)` with options as `key=value` texts.
    #[new]
    #[pyo3(signature = (name, variant=None, options=Vec::new()))]
    fn py_new(name: &str, variant: Option<&str>, options: Vec<String>) -> PyResult<Self> {
        guard(|| resolve_game(name, variant, &options)).map(|inner| Game { inner })
    }

    /// The game's name (`baghchal`).
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    /// The named variant the rules start from.
    #[getter]
    fn variant(&self) -> String {
        self.inner.variant().to_string()
    }

    /// The `key=value` overrides applied after the variant, as given.
    #[getter]
    fn overrides(&self) -> Vec<String> {
        self.inner.overrides().to_vec()
    }

    /// The game's named variants, the default first.
    fn variants(&self) -> Vec<String> {
        self.inner.variants()
    }

    /// Every rule option's resolved value, in the game's order, as `--option key=value` reads it.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        for (k, v) in self.inner.options() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The variants and options in words, with their sources and defaults (`cowrie rules`).
    fn describe(&self) -> String {
        self.inner.describe()
    }

    /// The start position.
    fn new_initial_state(&self) -> PyResult<State> {
        guard(|| Ok(self.inner.new_initial_state())).map(|inner| State { inner })
    }

    /// Reads a position written in the game's notation (`str(state)`).
    fn state_from_notation(&self, text: &str) -> PyResult<State> {
        guard(|| self.inner.state_from_notation(text)).map(|inner| State { inner })
    }

    /// Two players.
    fn num_players(&self) -> usize {
        2
    }

    /// The number of distinct action ids: Baghchal's fixed encoding (1,276), or for the dice
    /// games the longest legal list offered in full (`docs/python.md`).
    fn num_distinct_actions(&self) -> usize {
        self.inner.num_distinct_actions()
    }

    /// Whether action ids are a fixed encoding of the actions (Baghchal), rather than indices
    /// into the state's legal list (the dice games).
    fn action_ids_fixed(&self) -> bool {
        self.inner.action_ids_fixed()
    }

    /// The ply cap of the rules (plies, forced passes included), or `None`.
    fn max_game_length(&self) -> Option<u32> {
        self.inner.max_game_length()
    }

    /// The largest number of points one game can win (`returns()` lies within plus or minus it).
    fn max_utility(&self) -> u32 {
        self.inner.max_utility()
    }

    /// Whether the game has chance nodes.
    fn has_chance(&self) -> bool {
        self.inner.has_chance()
    }

    /// The shape of `State.observation_tensor()`.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.inner.observation_shape()
    }

    /// The two players' side names (`["goats", "tigers"]`).
    fn side_names(&self) -> Vec<&'static str> {
        self.inner.side_names().to_vec()
    }

    fn __str__(&self) -> String {
        let mut s = format!("{} {}", self.inner.name(), self.inner.variant());
        for o in self.inner.overrides() {
            s += &format!(" {o}");
        }
        s
    }

    fn __repr__(&self) -> String {
        format!("<cowrie.Game {}>", self.__str__())
    }
}

/// A state of a game (OpenSpiel's `State`): a decision node, a chance node or a terminal state.
#[pyclass(module = "cowrie._cowrie")]
struct State {
    inner: Box<dyn DynState>,
}

#[pymethods]
impl State {
    /// The game this state belongs to.
    fn get_game(&self) -> Game {
        Game {
            inner: self.inner.game(),
        }
    }

    /// 0 or 1 at a decision node; -1 (`cowrie.CHANCE_PLAYER_ID`) at a chance node; -4
    /// (`cowrie.TERMINAL_PLAYER_ID`) once the game is over, as in OpenSpiel.
    fn current_player(&self) -> i64 {
        match self.inner.to_act() {
            ToAct::Decision(p) => p.index() as i64,
            ToAct::Chance => CHANCE_PLAYER,
            ToAct::Terminal(_) => TERMINAL_PLAYER,
        }
    }

    /// Whether nature acts here (dice, cowries, opening throws).
    fn is_chance_node(&self) -> bool {
        matches!(self.inner.to_act(), ToAct::Chance)
    }

    /// Whether the game is over (a win, a draw, or the rules' ply cap).
    fn is_terminal(&self) -> bool {
        matches!(self.inner.to_act(), ToAct::Terminal(_))
    }

    /// How the game ended: `win`, `draw` or `truncated`; `None` before the end.
    fn end_reason(&self) -> Option<&'static str> {
        match self.inner.to_act() {
            ToAct::Terminal(r) => Some(r.as_str()),
            _ => None,
        }
    }

    /// The legal action ids at a decision node, in the game's fixed order; at a chance node,
    /// as in OpenSpiel, the outcome ids (those of `chance_outcomes()`, in its order); empty at
    /// the end.
    fn legal_actions(&self) -> PyResult<Vec<usize>> {
        guard(|| Ok(self.inner.legal_ids()))
    }

    /// The action `action` in the game's notation (at a chance node, the outcome's text).
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let action = id("illegal action", action)?;
        guard(|| self.inner.action_to_string(action))
    }

    /// The id of the legal action written `text` in the game's notation (at a chance node, of
    /// the outcome written so).
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        guard(|| self.inner.string_to_action(text))
    }

    /// Plays the legal action `action` at a decision node, or applies the chance outcome
    /// `action` at a chance node (as OpenSpiel's `apply_action`); a `ValueError` naming the
    /// action when it is not legal here.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action = id("illegal action", action)?;
        guard(|| self.inner.apply_action(action))
    }

    /// Applies the chance outcome `outcome` (an id from `chance_outcomes()`).
    fn apply_outcome(&mut self, outcome: &Bound<'_, PyAny>) -> PyResult<()> {
        let outcome = id("invalid chance outcome", outcome)?;
        guard(|| self.inner.apply_outcome(outcome))
    }

    /// A chance node's outcomes as `(outcome id, probability)`, summing to 1 (empty elsewhere).
    fn chance_outcomes(&self) -> PyResult<Vec<(usize, f64)>> {
        guard(|| Ok(self.inner.chance_outcomes()))
    }

    /// The chance outcome `outcome` as the game writes it (`6-1`).
    fn outcome_to_string(&self, outcome: &Bound<'_, PyAny>) -> PyResult<String> {
        let outcome = id("invalid chance outcome", outcome)?;
        guard(|| self.inner.outcome_to_string(outcome))
    }

    /// The number of plies played (decisions, forced passes included; chance outcomes are not).
    fn plies(&self) -> u32 {
        self.inner.plies()
    }

    /// Returns per player: points won (positive) or lost, zero-sum; zeros before the end, for a
    /// draw, or for a truncation.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns().to_vec()
    }

    /// The 64-bit Zobrist hash of the position.
    fn position_hash(&self) -> u64 {
        self.inner.hash()
    }

    /// The player whose view `observation_tensor()` takes.
    fn observation_player(&self) -> usize {
        self.inner.viewer().index()
    }

    /// The observation tensor as a `numpy.float32` array of `game.observation_tensor_shape()`
    /// (the encodings: `docs/python.md`).
    fn observation_tensor<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let values = guard(|| Ok(self.inner.observation()))?;
        let shape = self.inner.game().observation_shape();
        let np = py.import("numpy")?;
        np.call_method1("array", (values, "float32"))?
            .call_method1("reshape", (shape,))
    }

    /// An independent copy.
    fn clone(&self) -> State {
        State {
            inner: self.inner.clone_box(),
        }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// The position in the game's notation; `cowrie.state_from_notation` reads it back.
    fn __str__(&self) -> String {
        self.inner.notation()
    }

    fn __repr__(&self) -> String {
        format!(
            "<cowrie.State {}: {}>",
            self.inner.game().name(),
            self.inner.notation()
        )
    }
}

/// An agent (`cowrie.agent(spec, seed=...)`): any agent spec the command line takes, with its
/// own random stream, built for a game at its first `choose`.
#[pyclass(module = "cowrie._cowrie")]
struct Agent {
    spec: AgentSpec,
    rng: Option<ChaCha8Rng>,
    built: Mutex<Option<Box<dyn DynAgent>>>,
}

#[pymethods]
impl Agent {
    /// The agent `spec` (`mcts:iterations=200`) on the ChaCha8 stream `stream` of `seed`: a run
    /// of `cowrie match` gives the agent in seat `s` (0 or 1) of game `i` stream `4 i + 1 + s`.
    #[new]
    #[pyo3(signature = (spec, seed=None, stream=None))]
    fn py_new(
        spec: &str,
        seed: Option<&Bound<'_, PyAny>>,
        stream: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let spec: AgentSpec = guard(|| spec.parse::<AgentSpec>().map_err(|e| e.to_string()))?;
        let rng = stream_of(seed, stream)?;
        Ok(Agent {
            spec,
            rng: Some(rng),
            built: Mutex::new(None),
        })
    }

    /// The spec in the command line's form.
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The id of the action the agent plays at `state`, a decision node.
    fn choose(&mut self, py: Python<'_>, state: &State) -> PyResult<usize> {
        let built = self
            .built
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if built.is_none() {
            let rng = self
                .rng
                .take()
                .unwrap_or_else(|| ChaCha8Rng::seed_from_u64(0));
            *built = Some(guard(|| state.inner.build_agent(&self.spec, rng))?);
        }
        let agent = built
            .as_mut()
            .unwrap_or_else(|| unreachable!("built above"));
        let inner = &state.inner;
        py.allow_threads(|| guard(|| agent.choose(inner.as_ref())))
    }

    fn __repr__(&self) -> String {
        format!("<cowrie.Agent {}>", self.spec)
    }
}

/// The ChaCha8 stream `stream` (0 when not given) of `seed` (0 when not given), both 64-bit.
fn stream_of(
    seed: Option<&Bound<'_, PyAny>>,
    stream: Option<&Bound<'_, PyAny>>,
) -> PyResult<ChaCha8Rng> {
    let u64_of =
        |name: &str, v: Option<&Bound<'_, PyAny>>| v.map_or(Ok(0), |v| whole(name, v, 0, u64::MAX));
    let mut rng = ChaCha8Rng::seed_from_u64(u64_of("seed", seed)?);
    rng.set_stream(u64_of("stream", stream)?);
    Ok(rng)
}

/// A chance sampler: draws outcomes as `cowrie match` draws them, each chance node's outcome
/// from its own place in the pair's ChaCha8 stream (pair `k` of a run uses stream `4 k`),
/// keyed by the game within the unit of play, whose throw it is, that player's turn and the
/// throw's index within the turn (`docs/conventions.md`). The turns are counted from the
/// throws drawn and the decisions noted with `decision`.
#[pyclass(module = "cowrie._cowrie")]
struct Chance {
    dice: Dice,
}

#[pymethods]
impl Chance {
    /// The dice of stream `stream` of `seed`.
    #[new]
    #[pyo3(signature = (seed=None, stream=None))]
    fn py_new(
        seed: Option<&Bound<'_, PyAny>>,
        stream: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        Ok(Chance {
            dice: Dice::from_stream(stream_of(seed, stream)?),
        })
    }

    /// The id of an outcome of chance node `state`, drawn from its place in the stream.
    fn sample(&mut self, state: &State) -> PyResult<usize> {
        let dice = &mut self.dice;
        guard(|| {
            let node = state
                .inner
                .chance_node()
                .ok_or_else(|| "not a chance node".to_string())?;
            state
                .inner
                .sample_outcome(&mut dice.at(node))
                .ok_or_else(|| "not a chance node".to_string())
        })
    }

    /// Notes a decision of `player` (0 or 1), as the runner does at every decision node: a
    /// turn of that player's begins when another was in control.
    fn decision(&mut self, player: &Bound<'_, PyAny>) -> PyResult<()> {
        let p = whole("player", player, 0, 1)?;
        self.dice
            .decision(if p == 0 { Player::ONE } else { Player::TWO });
        Ok(())
    }
}

/// Reads a position of `game` written in its notation.
#[pyfunction]
fn state_from_notation(game: &Game, text: &str) -> PyResult<State> {
    game.state_from_notation(text)
}

/// The game names, in the command line's order.
#[pyfunction]
fn game_names() -> Vec<&'static str> {
    cowrie_experiments::registry::GAMES.to_vec()
}

/// The ChaCha8 stream numbers `cowrie match` gives game `game_index` of a run
/// (`docs/conventions.md`), from the runner's own derivation: `chance` (the pair's dice, cowries
/// and opening throws) and the agents in `seat1` and `seat2`. A run has at most 2^40 games, so
/// `game_index` is from 0 to 2^40 - 1.
#[pyfunction]
#[pyo3(signature = (game_index, swap=true))]
fn streams<'py>(
    py: Python<'py>,
    game_index: &Bound<'py, PyAny>,
    swap: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let i = whole("game_index", game_index, 0, MAX_GAMES - 1)?;
    let pair = if swap { i / 2 } else { i };
    let d = PyDict::new(py);
    d.set_item("chance", chance_stream(0, pair).get_stream())?;
    d.set_item("seat1", agent_stream(0, i, Player::ONE).get_stream())?;
    d.set_item("seat2", agent_stream(0, i, Player::TWO).get_stream())?;
    Ok(d)
}

/// How often a match being played looks for a signal (Ctrl-C) to handle.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` (a run of the experiments library) on a thread of its own while this one waits
/// without the GIL, handling Python's signals every [`SIGNAL_POLL`]: the first exception a
/// signal handler raises asks the run to stop ([`run::Stop`]) and is returned beside its result.
fn on_own_thread<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> PyResult<T> + Send,
) -> (PyResult<T>, Option<PyErr>) {
    let (tx, mut rx) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(move || tx.send(work()));
        let mut signal = None;
        loop {
            let (got, back) = py.allow_threads(move || (rx.recv_timeout(SIGNAL_POLL), rx));
            rx = back;
            match got {
                Ok(done) => return (done, signal),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        run::Stop.request();
                        signal.get_or_insert(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let lost = PyRuntimeError::new_err("internal error in cowrie: the run stopped");
                    return (Err(lost), signal);
                }
            }
        }
    })
}

/// Plays `cowrie match` with these arguments into `out` and returns the text of its
/// `games.csv` (the Python function `cowrie.play_match` wraps it).
///
/// The match is played on a thread of its own while this one waits without the GIL, handling
/// Python's signals every [`SIGNAL_POLL`]: an exception from a signal handler (Ctrl-C's
/// `KeyboardInterrupt`) stops the run at its next write of finished games, every finished game
/// on disk and the manifest `interrupted`, and is raised then; `resume=True` continues it.
#[pyfunction]
#[pyo3(signature = (game, p1, p2, games, variant, options, seed, threads, swap, out, record, resume=false, force=false))]
#[allow(clippy::too_many_arguments)]
fn play_match_csv(
    py: Python<'_>,
    game: String,
    p1: String,
    p2: String,
    games: &Bound<'_, PyAny>,
    variant: Option<String>,
    options: Vec<String>,
    seed: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
    swap: bool,
    out: String,
    record: bool,
    resume: bool,
    force: bool,
) -> PyResult<String> {
    let args = run::MatchArgs {
        game,
        p1,
        p2,
        games: whole("--games", games, 1, MAX_GAMES)?,
        variant,
        options,
        seed: whole("--seed", seed, 0, u64::MAX)?,
        threads: whole("--threads", threads, 1, max_threads() as u64)? as usize,
        swap,
        out: out.into(),
        record,
        resume,
        force,
    };
    hosted::take_failure();
    let (played, signal) = on_own_thread(py, || guard(|| run::play_match(&args, &run::Stop)));
    let played = played.map_err(|e| with_policy_cause(py, e))?;
    match (played, signal) {
        (run::Played::Complete(csv), None) => Ok(csv),
        (played, Some(e)) if e.is_instance_of::<PyKeyboardInterrupt>(py) => {
            let (games, out) = (args.games, args.out.display());
            Err(PyKeyboardInterrupt::new_err(match played {
                run::Played::Stopped { written } => format!(
                    "interrupted: {written} of {games} games are in '{out}'; call play_match again with resume=True to continue"
                ),
                // The last games were written before the request was seen.
                run::Played::Complete(_) => {
                    format!("interrupted once the run was complete: its {games} games are in '{out}'")
                }
            }))
        }
        // Another signal handler's exception, raised as it was.
        (_, Some(e)) => Err(e),
        (run::Played::Stopped { .. }, None) => Err(PyRuntimeError::new_err(
            "internal error in cowrie: the run stopped unasked",
        )),
    }
}

/// Runs one `cowrie match`, `study`, `merge`, `tournament`, `ladder` or `converge` command line (`argv`, the
/// program's name first) in this process, through the command line's parser and command
/// functions: the files it writes are the `cowrie` program's for the same arguments, and its
/// manifests record `argv` as the command line.
///
/// The command runs on a thread of its own while this one waits without the GIL, handling
/// Python's signals every [`SIGNAL_POLL`]: an exception from a signal handler (Ctrl-C's
/// `KeyboardInterrupt`) asks the run to stop as SIGINT asks the command line (a match or study
/// stops at its next write of finished games, resumable with `--resume`) and is raised once it
/// has stopped.
#[pyfunction]
fn run_command(py: Python<'_>, argv: Vec<String>) -> PyResult<()> {
    hosted::take_failure();
    let (done, signal) = on_own_thread(py, || guard(|| command::run_command(&argv)));
    if let Some(e) = signal {
        cowrie_experiments::interrupt::clear();
        return Err(e);
    }
    done.map_err(|e| with_policy_cause(py, e))
}

/// `e` with the exception a Python policy raised during the run, if one did, as its cause.
fn with_policy_cause(py: Python<'_>, e: PyErr) -> PyErr {
    if let Some(cause) = hosted::take_failure() {
        e.set_cause(py, Some(cause));
    }
    e
}

/// The native half of the package `cowrie`.
#[pymodule]
fn _cowrie(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // `python:` agents are this process's Python policies (a second import keeps the first host).
    cowrie_agents::install_host(Box::new(hosted::PolicyHost));
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<Agent>()?;
    m.add_class::<Chance>()?;
    m.add_function(wrap_pyfunction!(state_from_notation, m)?)?;
    m.add_function(wrap_pyfunction!(game_names, m)?)?;
    m.add_function(wrap_pyfunction!(play_match_csv, m)?)?;
    m.add_function(wrap_pyfunction!(run_command, m)?)?;
    m.add_function(wrap_pyfunction!(streams, m)?)?;
    m.add("CHANCE_PLAYER_ID", CHANCE_PLAYER)?;
    m.add("TERMINAL_PLAYER_ID", TERMINAL_PLAYER)?;
    Ok(())
}
