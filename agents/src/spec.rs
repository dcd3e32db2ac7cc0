//! Agent specs as written on the command line: `kind` or `kind:key=value,key=value`.
//!
//! | kind | parameters (defaults) |
//! | --- | --- |
//! | `random` | none |
//! | `heuristic` | `temperature=0` (0: greedy, ties broken by the agent's stream; `T > 0`: softmax over the evaluation) |
//! | `mcts` | `iterations=N` or `ms=N` (exactly one, required), `c=1.4`, `rollout=random` (or `heuristic`), `cutoff=none` (or a number of plies); the enhancements, off by default: `bias=0` (progressive bias weight), `solver=off`, `widen=none` (with `widen_exp=0.5`), `reuse=off`, `net=heuristic` (or `shipped` or a safetensors file: the evaluation) |
//! | `expectimax` | `depth=N` and/or `ms=N` (at least one), iterative deepening up to `depth` (64 when only `ms` is given); `nodes=100000000` (the node budget of a move, written only when not the default) |
//! | `td` | `weights=shipped` (or `shipped:VARIANT`, or a safetensors file), `ply=0` (0, 1 or 2) |
//! | `external` | `timeout_ms=30000`, then `cmd=...` (required, last: everything after `cmd=`, commas included, is the command) |
//! | `perfect` | `db=DIR` (required: a database written by `cowrie solve`), `depth=4` (the search where the database does not reach) |
//!
//! Every unknown kind, unknown or repeated parameter, bad value, missing or doubled budget is
//! refused with a one-line error naming it. [`AgentSpec`]'s `Display` writes the canonical full
//! spec (every parameter, defaults included, except that `mcts` writes its enhancements only when
//! they are on, so plain UCT keeps the text earlier runs recorded), which reads back to the same spec.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// The deepest iterative-deepening search an `expectimax` spec may ask for (and the limit when
/// only a time budget is given).
pub const MAX_DEPTH: u32 = 64;

/// A parsed, validated agent spec.
///
/// # Examples
///
/// A spec read as the command line writes it, the agent built from it with its own random
/// stream, and its move where the tigers can win at once: four goats taken, and e1 or e5
/// jumps to e3 taking the fifth (the default variant, `five-captures`).
///
/// ```
/// use cowrie_agents::{Agent, AgentSpec, AnyAgent};
/// use cowrie_engine::{Baghchal, BaghchalRules, EndReason, Game, Player, ToAct};
/// use rand::SeedableRng;
///
/// let position = "TGGGT/GGGGG/GGGG./GG.GG/T...T t 0 4 40";
/// for text in ["heuristic", "expectimax:depth=1"] {
///     let spec: AgentSpec = text.parse().unwrap();
///     // The canonical text reads back to the same spec.
///     assert_eq!(spec.to_string().parse::<AgentSpec>().unwrap(), spec);
///     let rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
///     let mut agent = AnyAgent::<Baghchal>::build(&spec, rng);
///     let mut state = Baghchal::from_notation(position, &BaghchalRules::default()).unwrap();
///     let mut legal = Vec::new();
///     state.legal_actions(&mut legal);
///     assert_eq!(legal.len(), 4); // a1-b1, e1-d1 and the two jumps
///     let mv = agent.choose(&state, &legal);
///     state.try_play(mv).unwrap();
///     assert_eq!(state.to_act(), ToAct::Terminal(EndReason::Win(Player::TWO)), "{text}");
/// }
/// let spec: AgentSpec = "heuristic".parse().unwrap();
/// assert_eq!(spec, AgentSpec::Heuristic { temperature: 0.0 });
/// assert_eq!(spec.to_string(), "heuristic:temperature=0");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// `random`: uniform random play.
    Random,
    /// `heuristic`: one-ply search on the game's evaluation.
    Heuristic {
        /// Softmax temperature; 0 plays greedily.
        temperature: f64,
    },
    /// `mcts`: UCT Monte Carlo tree search.
    Mcts(MctsParams),
    /// `expectimax`: depth-limited expectiminimax with alpha-beta and Star1/Star2 pruning.
    Expectimax(ExpectimaxParams),
    /// `td`: the learned evaluation, greedy or searched ([`crate::td`]).
    Td(TdParams),
    /// `external`: another program, spoken to over JSON lines ([`crate::external`]).
    External(ExternalParams),
    /// `perfect`: perfect play from a solved database, a search with the database at its
    /// leaves where the database does not reach.
    Perfect(PerfectParams),
}

/// The parameters of a `perfect` agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerfectParams {
    /// The database directory.
    pub db: std::path::PathBuf,
    /// The depth of the search outside the database, in plies.
    pub depth: u32,
}

/// Which weights a `td` agent plays with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Weights {
    /// The weights shipped for the game and variant (`weights=shipped`, the default).
    Shipped,
    /// The weights shipped for the game under another named variant (`weights=shipped:VARIANT`),
    /// for playing rules that have none of their own with the same network (the encoding and
    /// outputs must fit).
    ShippedFor(String),
    /// A safetensors file.
    File(PathBuf),
}

/// The parameters of a `td` agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TdParams {
    /// The network.
    pub weights: Weights,
    /// 0: greedy on the network; 1 or 2: expectiminimax over every roll, the network at the
    /// leaves (an expectimax search of `ply + 1` decision plies).
    pub ply: u32,
    /// The search's node budget per move (`nodes=N`, as [`ExpectimaxParams::nodes`]): a deeper
    /// iteration that would visit more nodes is abandoned and the move is the deepest completed
    /// one's, so `ply=2,nodes=N` searches two plies where that is cheap and one elsewhere.
    pub nodes: u64,
}

/// The default per-move timeout of an `external` agent, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// The parameters of an `external` agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalParams {
    /// The command, split into words as a POSIX shell would.
    pub cmd: String,
    /// Milliseconds the program may take to answer one move before it forfeits.
    pub timeout_ms: u64,
    /// Where the program's standard error goes (not part of the spec text: the runner sets it
    /// to a file in the run directory; `None` inherits the caller's).
    pub stderr: Option<PathBuf>,
}

/// How long a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of iterations (reproducible).
    Iterations(u32),
    /// A wall-clock budget in milliseconds per move (not reproducible).
    Millis(u64),
}

/// How MCTS plays out a new leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly random actions.
    Random,
    /// Greedy on the evaluation, ties broken at random.
    Heuristic,
}

/// The parameters of an `mcts` agent.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsParams {
    /// Iterations or milliseconds per move.
    pub budget: Budget,
    /// The UCT exploration constant.
    pub c: f64,
    /// The rollout policy.
    pub rollout: Rollout,
    /// Decision plies of rollout before the position is scored by the evaluation; `None`
    /// plays to the end of the game.
    pub cutoff: Option<u32>,
    /// The weight of the progressive bias (`bias=W`; 0, the default, is off): each child's
    /// evaluation, scored when its parent is expanded, adds `W * h / (n + 1)` to its UCT score
    /// and orders the unvisited children best first.
    pub bias: f64,
    /// The MCTS-solver backup of proven values (`solver=on`).
    pub solver: bool,
    /// Progressive widening (`widen=K[,widen_exp=A]`): a node visited `N` times selects among
    /// its first `ceil(K * N^A)` children (decision nodes in order of evaluation, chance nodes in
    /// order of probability); `None` selects among all.
    pub widening: Option<Widening>,
    /// Tree reuse between the player's moves (`reuse=on`).
    pub reuse: bool,
    /// The evaluation for the bias, the cutoff and greedy rollouts: `None` the game's own
    /// (`heuristic`), else a learned network (`net=shipped` or `net=FILE`).
    pub net: Option<Weights>,
}

/// The parameters of progressive widening: `ceil(k * N^exponent)` children at a node visited
/// `N` times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    /// The multiplier `K` (`widen=K`, above 0).
    pub k: f64,
    /// The exponent `A` (`widen_exp=A`, in (0, 1]; 0.5 by default).
    pub exponent: f64,
}

/// The default exponent of progressive widening.
pub const WIDEN_EXPONENT: f64 = 0.5;

impl MctsParams {
    /// Whether any enhancement over plain UCT is on (bias, solver, widening, reuse).
    #[must_use]
    pub fn enhanced(&self) -> bool {
        self.bias > 0.0 || self.solver || self.widening.is_some() || self.reuse
    }
}

impl Weights {
    /// `shipped` or a file; `None` for an empty value.
    fn read(text: &str) -> Option<Weights> {
        match text {
            "" | "shipped:" => None,
            "shipped" => Some(Weights::Shipped),
            v if v.starts_with("shipped:") => Some(Weights::ShippedFor(v[8..].to_string())),
            f => Some(Weights::File(PathBuf::from(f))),
        }
    }
}

impl fmt::Display for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Weights::Shipped => write!(f, "shipped"),
            Weights::ShippedFor(v) => write!(f, "shipped:{v}"),
            Weights::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// The parameters of an `expectimax` agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpectimaxParams {
    /// The deepest iteration, in decision plies.
    pub depth: u32,
    /// A time budget per move in milliseconds, if any.
    pub ms: Option<u64>,
    /// The node budget per move (`nodes=N`; [`DEFAULT_NODES`] by default): an iteration deeper
    /// than 1 that would visit more nodes in all is abandoned, and the move is the deepest
    /// completed iteration's.
    pub nodes: u64,
}

/// The default node budget of an `expectimax` move (see [`ExpectimaxParams::nodes`]).
pub const DEFAULT_NODES: u64 = 100_000_000;
/// The largest node budget a spec may give.
pub const MAX_NODES: u64 = 1_000_000_000_000;

impl AgentSpec {
    /// Whether the same spec and stream always give the same moves: false for time budgets.
    #[must_use]
    pub fn is_reproducible(&self) -> bool {
        match self {
            AgentSpec::Random | AgentSpec::Heuristic { .. } | AgentSpec::Td(_) => true,
            AgentSpec::Mcts(p) => matches!(p.budget, Budget::Iterations(_)),
            AgentSpec::Expectimax(p) => p.ms.is_none(),
            AgentSpec::Perfect(_) => true,
            // The program may be anything, and its timeout is wall-clock time.
            AgentSpec::External(_) => false,
        }
    }

    /// This spec with an external agent's standard error sent to `path`; other kinds unchanged.
    #[must_use]
    pub fn with_stderr(&self, path: PathBuf) -> AgentSpec {
        match self {
            AgentSpec::External(p) => AgentSpec::External(ExternalParams {
                stderr: Some(path),
                ..p.clone()
            }),
            other => other.clone(),
        }
    }
}

/// Why an agent spec was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The kind before `:` is not known.
    #[error(
        "unknown agent '{0}' (known: random, heuristic, mcts, expectimax, td, external, perfect)"
    )]
    UnknownKind(String),
    /// A required parameter missing.
    #[error("agent '{kind}' needs {expected}")]
    MissingParam {
        /// The agent kind.
        kind: String,
        /// The parameter it needs.
        expected: &'static str,
    },
    /// An agent that could not be built: a missing or unreadable file, a game without one.
    #[error("agent '{kind}': {reason}")]
    Unavailable {
        /// The agent kind.
        kind: String,
        /// Why, in words.
        reason: String,
    },
    /// A parameter the kind does not take.
    #[error("agent '{kind}' takes no parameter '{param}' (known: {known})")]
    UnknownParam {
        /// The agent kind.
        kind: String,
        /// The parameter given.
        param: String,
        /// The parameters the kind takes.
        known: &'static str,
    },
    /// A parameter given twice.
    #[error("agent '{kind}': parameter '{param}' given twice")]
    Repeated {
        /// The agent kind.
        kind: String,
        /// The parameter.
        param: String,
    },
    /// A parameter value that does not parse or is out of range.
    #[error("agent '{kind}': bad value '{value}' for '{param}' (expected {expected})")]
    BadValue {
        /// The agent kind.
        kind: String,
        /// The parameter.
        param: String,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// A search without a budget.
    #[error("agent '{kind}' needs a budget: {expected}")]
    MissingBudget {
        /// The agent kind.
        kind: String,
        /// The budget parameters it accepts.
        expected: &'static str,
    },
    /// Both an iteration and a time budget.
    #[error("agent '{kind}': give either 'iterations=' or 'ms=', not both")]
    BothBudgets {
        /// The agent kind.
        kind: String,
    },
    /// Weights that cannot be used (a missing file, another game or encoding).
    #[error("agent 'td': {0}")]
    Weights(String),
    /// An external agent's command that cannot be run.
    #[error("agent 'external': command '{cmd}': {reason}")]
    Program {
        /// The command.
        cmd: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// `key=value` items of a spec, checked against the kind's known keys.
struct Params<'a> {
    kind: &'a str,
    known: &'static str,
    items: Vec<(&'a str, &'a str)>,
}

impl<'a> Params<'a> {
    fn read(kind: &'a str, text: Option<&'a str>, known: &'static str) -> Result<Self, SpecError> {
        let mut items: Vec<(&str, &str)> = Vec::new();
        for item in text.unwrap_or("").split(',').filter(|s| !s.is_empty()) {
            let unknown = || SpecError::UnknownParam {
                kind: kind.to_string(),
                param: item.to_string(),
                known: if known.is_empty() { "none" } else { known },
            };
            let (k, v) = item.split_once('=').ok_or_else(unknown)?;
            if !known.split(", ").any(|n| n == k) {
                return Err(unknown());
            }
            if items.iter().any(|(seen, _)| *seen == k) {
                return Err(SpecError::Repeated {
                    kind: kind.to_string(),
                    param: k.to_string(),
                });
            }
            items.push((k, v));
        }
        Ok(Params { kind, known, items })
    }

    fn get(&self, key: &str) -> Option<&'a str> {
        debug_assert!(self.known.split(", ").any(|n| n == key));
        self.items.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// The node budget of a search (`nodes=N`, 1 to [`MAX_NODES`]; [`DEFAULT_NODES`] if absent).
    fn nodes(&self) -> Result<u64, SpecError> {
        match self.get("nodes") {
            None => Ok(DEFAULT_NODES),
            Some(v) => match v.parse::<u64>() {
                Ok(n) if (1..=MAX_NODES).contains(&n) => Ok(n),
                _ => Err(self.bad("nodes", v, "a whole number from 1 to 10^12")),
            },
        }
    }

    fn bad(&self, param: &str, value: &str, expected: &'static str) -> SpecError {
        SpecError::BadValue {
            kind: self.kind.to_string(),
            param: param.to_string(),
            value: value.to_string(),
            expected,
        }
    }

    /// A finite, non-negative number.
    fn number(&self, key: &str, default: f64) -> Result<f64, SpecError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
                _ => Err(self.bad(key, v, "a finite number >= 0")),
            },
        }
    }

    /// A positive integer no larger than `max`.
    fn count(&self, key: &str, max: u64) -> Result<Option<u64>, SpecError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => match v.parse::<u64>() {
                Ok(n) if n >= 1 && n <= max => Ok(Some(n)),
                _ => Err(self.bad(
                    key,
                    v,
                    match max {
                        64 => "a whole number from 1 to 64",
                        86_400_000 => "a whole number of milliseconds from 1 to 86400000",
                        _ => "a whole number from 1 to 4294967295",
                    },
                )),
            },
        }
    }
}

const HEURISTIC_KEYS: &str = "temperature";
const MCTS_KEYS: &str =
    "iterations, ms, c, rollout, cutoff, bias, solver, widen, widen_exp, reuse, net";
const EXPECTIMAX_KEYS: &str = "depth, ms, nodes";
const EXTERNAL_KEYS: &str = "timeout_ms";
const TD_KEYS: &str = "weights, ply, nodes";

/// Reads `external:[timeout_ms=N,]cmd=COMMAND`: `cmd=` comes last and takes the rest.
fn parse_external(params: Option<&str>) -> Result<AgentSpec, SpecError> {
    let text = params.unwrap_or("");
    let (before, cmd) = if let Some(cmd) = text.strip_prefix("cmd=") {
        ("", cmd)
    } else if let Some(at) = text.find(",cmd=") {
        (&text[..at], &text[at + 5..])
    } else {
        return Err(SpecError::MissingBudget {
            kind: "external".to_string(),
            expected: "cmd=COMMAND (last)",
        });
    };
    let p = Params::read("external", Some(before), EXTERNAL_KEYS)?;
    let timeout_ms = match p.get("timeout_ms") {
        None => DEFAULT_TIMEOUT_MS,
        Some(v) => v
            .parse::<u64>()
            .ok()
            .filter(|&n| (1..=86_400_000).contains(&n))
            .ok_or_else(|| {
                p.bad(
                    "timeout_ms",
                    v,
                    "a whole number of milliseconds from 1 to 86400000",
                )
            })?,
    };
    if cmd.trim().is_empty() {
        return Err(SpecError::Program {
            cmd: cmd.to_string(),
            reason: "no program given".to_string(),
        });
    }
    Ok(AgentSpec::External(ExternalParams {
        cmd: cmd.to_string(),
        timeout_ms,
        stderr: None,
    }))
}
const PERFECT_KEYS: &str = "db, depth";
/// The default search depth of a `perfect` agent outside its database.
pub const PERFECT_DEPTH: u32 = 4;

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let (kind, params) = match text.split_once(':') {
            Some((k, p)) => (k, Some(p)),
            None => (text, None),
        };
        match kind {
            "random" => {
                Params::read(kind, params, "")?;
                Ok(AgentSpec::Random)
            }
            "heuristic" => {
                let p = Params::read(kind, params, HEURISTIC_KEYS)?;
                Ok(AgentSpec::Heuristic {
                    temperature: p.number("temperature", 0.0)?,
                })
            }
            "mcts" => {
                let p = Params::read(kind, params, MCTS_KEYS)?;
                let iterations = p.count("iterations", u64::from(u32::MAX))?;
                let ms = p.count("ms", 86_400_000)?;
                let budget = match (iterations, ms) {
                    (Some(n), None) => Budget::Iterations(n as u32),
                    (None, Some(ms)) => Budget::Millis(ms),
                    (Some(_), Some(_)) => {
                        return Err(SpecError::BothBudgets {
                            kind: kind.to_string(),
                        })
                    }
                    (None, None) => {
                        return Err(SpecError::MissingBudget {
                            kind: kind.to_string(),
                            expected: "iterations=N or ms=N",
                        })
                    }
                };
                let rollout = match p.get("rollout") {
                    None | Some("random") => Rollout::Random,
                    Some("heuristic") => Rollout::Heuristic,
                    Some(v) => return Err(p.bad("rollout", v, "random or heuristic")),
                };
                let cutoff = match p.get("cutoff") {
                    None | Some("none") => None,
                    Some(v) => Some(
                        v.parse::<u32>()
                            .map_err(|_| p.bad("cutoff", v, "a number of plies >= 0, or none"))?,
                    ),
                };
                let switch = |key: &str| match p.get(key) {
                    None | Some("off") => Ok(false),
                    Some("on") => Ok(true),
                    Some(v) => Err(p.bad(key, v, "on or off")),
                };
                let widening = match (p.get("widen"), p.get("widen_exp")) {
                    (None | Some("none"), None) => None,
                    (None | Some("none"), Some(v)) => {
                        return Err(p.bad("widen_exp", v, "widening on (widen=K) to set it"))
                    }
                    (Some(k), _) => {
                        let k = match k.parse::<f64>() {
                            Ok(x) if x.is_finite() && x > 0.0 => x,
                            _ => return Err(p.bad("widen", k, "a finite number > 0, or none")),
                        };
                        let exponent = match p.get("widen_exp") {
                            None => WIDEN_EXPONENT,
                            Some(v) => match v.parse::<f64>() {
                                Ok(x) if x > 0.0 && x <= 1.0 => x,
                                _ => return Err(p.bad("widen_exp", v, "a number in (0, 1]")),
                            },
                        };
                        Some(Widening { k, exponent })
                    }
                };
                Ok(AgentSpec::Mcts(MctsParams {
                    budget,
                    c: p.number("c", 1.4)?,
                    rollout,
                    cutoff,
                    bias: p.number("bias", 0.0)?,
                    solver: switch("solver")?,
                    widening,
                    reuse: switch("reuse")?,
                    net: match p.get("net") {
                        None | Some("heuristic") => None,
                        Some(v) => Some(
                            Weights::read(v)
                                .ok_or_else(|| p.bad("net", v, "heuristic, shipped or a file"))?,
                        ),
                    },
                }))
            }
            "expectimax" => {
                let p = Params::read(kind, params, EXPECTIMAX_KEYS)?;
                let depth = p.count("depth", u64::from(MAX_DEPTH))?;
                let ms = p.count("ms", 86_400_000)?;
                if depth.is_none() && ms.is_none() {
                    return Err(SpecError::MissingBudget {
                        kind: kind.to_string(),
                        expected: "depth=N and/or ms=N",
                    });
                }
                let nodes = p.nodes()?;
                Ok(AgentSpec::Expectimax(ExpectimaxParams {
                    depth: depth.map_or(MAX_DEPTH, |d| d as u32),
                    ms,
                    nodes,
                }))
            }
            "td" => {
                let p = Params::read(kind, params, TD_KEYS)?;
                let weights = match p.get("weights") {
                    None => Weights::Shipped,
                    Some(v) => {
                        Weights::read(v).ok_or_else(|| p.bad("weights", v, "a file or shipped"))?
                    }
                };
                let ply = match p.get("ply") {
                    None => 0,
                    Some(v) => match v.parse::<u32>() {
                        Ok(n) if n <= 2 => n,
                        _ => return Err(p.bad("ply", v, "0, 1 or 2")),
                    },
                };
                let nodes = p.nodes()?;
                Ok(AgentSpec::Td(TdParams {
                    weights,
                    ply,
                    nodes,
                }))
            }
            "external" => parse_external(params),
            "perfect" => {
                let p = Params::read(kind, params, PERFECT_KEYS)?;
                let db = match p.get("db") {
                    Some(v) if !v.is_empty() => std::path::PathBuf::from(v),
                    _ => {
                        return Err(SpecError::MissingParam {
                            kind: kind.to_string(),
                            expected: "db=DIR (a database written by cowrie solve)",
                        })
                    }
                };
                let depth = p.count("depth", u64::from(MAX_DEPTH))?;
                Ok(AgentSpec::Perfect(PerfectParams {
                    db,
                    depth: depth.map_or(PERFECT_DEPTH, |d| d as u32),
                }))
            }
            _ => Err(SpecError::UnknownKind(text.to_string())),
        }
    }
}

/// Writes `,nodes=N` only when `nodes` is not the default, so earlier runs keep their text.
fn write_nodes(f: &mut fmt::Formatter<'_>, nodes: u64) -> fmt::Result {
    if nodes == DEFAULT_NODES {
        Ok(())
    } else {
        write!(f, ",nodes={nodes}")
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical spec text, as written to CSV: every parameter, defaults included (the
    /// `mcts` enhancements only when on).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => write!(f, "random"),
            AgentSpec::Heuristic { temperature } => {
                write!(f, "heuristic:temperature={temperature}")
            }
            AgentSpec::Mcts(p) => {
                write!(f, "mcts:")?;
                match p.budget {
                    Budget::Iterations(n) => write!(f, "iterations={n}")?,
                    Budget::Millis(ms) => write!(f, "ms={ms}")?,
                }
                let rollout = match p.rollout {
                    Rollout::Random => "random",
                    Rollout::Heuristic => "heuristic",
                };
                write!(f, ",c={},rollout={rollout},cutoff=", p.c)?;
                match p.cutoff {
                    Some(n) => write!(f, "{n}")?,
                    None => write!(f, "none")?,
                }
                // The enhancements are written only when on, so plain UCT keeps the text
                // earlier runs recorded.
                if p.bias > 0.0 {
                    write!(f, ",bias={}", p.bias)?;
                }
                if p.solver {
                    write!(f, ",solver=on")?;
                }
                if let Some(w) = p.widening {
                    write!(f, ",widen={},widen_exp={}", w.k, w.exponent)?;
                }
                if p.reuse {
                    write!(f, ",reuse=on")?;
                }
                if let Some(w) = &p.net {
                    write!(f, ",net={w}")?;
                }
                Ok(())
            }
            AgentSpec::Expectimax(p) => {
                write!(f, "expectimax:depth={}", p.depth)?;
                if let Some(ms) = p.ms {
                    write!(f, ",ms={ms}")?;
                }
                write_nodes(f, p.nodes)
            }
            AgentSpec::Td(p) => {
                write!(f, "td:weights={},ply={}", p.weights, p.ply)?;
                write_nodes(f, p.nodes)
            }
            AgentSpec::External(p) => {
                write!(f, "external:timeout_ms={},cmd={}", p.timeout_ms, p.cmd)
            }
            AgentSpec::Perfect(p) => {
                write!(f, "perfect:db={},depth={}", p.db.display(), p.depth)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        text.parse::<AgentSpec>().unwrap_err().to_string()
    }

    #[test]
    fn parses_and_refuses() {
        assert_eq!("random".parse::<AgentSpec>(), Ok(AgentSpec::Random));
        assert_eq!(AgentSpec::Random.to_string(), "random");
        let e = err("rnadom");
        assert!(e.contains("'rnadom'"), "{e}");
        let e = err("random:depth=3");
        assert!(e.contains("'depth=3'"), "{e}");
    }

    #[test]
    fn canonical_text_round_trips() {
        for (given, canonical) in [
            ("random", "random"),
            ("heuristic", "heuristic:temperature=0"),
            ("heuristic:temperature=0.25", "heuristic:temperature=0.25"),
            (
                "mcts:iterations=200",
                "mcts:iterations=200,c=1.4,rollout=random,cutoff=none",
            ),
            (
                "mcts:ms=50,rollout=heuristic,cutoff=8,c=0.7",
                "mcts:ms=50,c=0.7,rollout=heuristic,cutoff=8",
            ),
            (
                "mcts:iterations=9,reuse=on,widen=2,solver=on,bias=0.5",
                "mcts:iterations=9,c=1.4,rollout=random,cutoff=none,bias=0.5,solver=on,\
                 widen=2,widen_exp=0.5,reuse=on",
            ),
            (
                "mcts:iterations=9,net=w.safetensors,bias=2",
                "mcts:iterations=9,c=1.4,rollout=random,cutoff=none,bias=2,net=w.safetensors",
            ),
            (
                "mcts:iterations=9,bias=0,solver=off,widen=none,reuse=off,net=heuristic",
                "mcts:iterations=9,c=1.4,rollout=random,cutoff=none",
            ),
            (
                "mcts:iterations=9,widen_exp=0.25,widen=1.5",
                "mcts:iterations=9,c=1.4,rollout=random,cutoff=none,widen=1.5,widen_exp=0.25",
            ),
            ("expectimax:depth=3", "expectimax:depth=3"),
            ("expectimax:ms=20", "expectimax:depth=64,ms=20"),
            ("expectimax:ms=20,depth=5", "expectimax:depth=5,ms=20"),
            (
                "expectimax:nodes=5000,depth=2",
                "expectimax:depth=2,nodes=5000",
            ),
            ("expectimax:depth=2,nodes=100000000", "expectimax:depth=2"),
            (
                "external:cmd=python3 agent.py --x a,b",
                "external:timeout_ms=30000,cmd=python3 agent.py --x a,b",
            ),
            ("td", "td:weights=shipped,ply=0"),
            (
                "td:ply=2,weights=w.safetensors",
                "td:weights=w.safetensors,ply=2",
            ),
            (
                "td:weights=shipped:barakat-1974",
                "td:weights=shipped:barakat-1974,ply=0",
            ),
            ("td:nodes=5000,ply=2", "td:weights=shipped,ply=2,nodes=5000"),
            ("td:ply=1,nodes=100000000", "td:weights=shipped,ply=1"),
            (
                "external:timeout_ms=50,cmd=./a",
                "external:timeout_ms=50,cmd=./a",
            ),
            ("perfect:db=dbs/five", "perfect:db=dbs/five,depth=4"),
            ("perfect:depth=2,db=x", "perfect:db=x,depth=2"),
        ] {
            let spec: AgentSpec = given.parse().unwrap();
            assert_eq!(spec.to_string(), canonical, "{given}");
            assert_eq!(canonical.parse::<AgentSpec>(), Ok(spec), "{canonical}");
        }
    }

    #[test]
    fn reproducibility_follows_the_budget() {
        for (text, reproducible) in [
            ("random", true),
            ("heuristic:temperature=1", true),
            ("mcts:iterations=10", true),
            ("mcts:ms=10", false),
            ("expectimax:depth=2", true),
            ("expectimax:depth=2,ms=10", false),
            ("external:cmd=true", false),
        ] {
            let spec: AgentSpec = text.parse().unwrap();
            assert_eq!(spec.is_reproducible(), reproducible, "{text}");
        }
    }

    #[test]
    fn every_bad_parameter_is_named() {
        for (text, needle) in [
            ("minimax:depth=2", "'minimax:depth=2'"),
            ("mcts:iterations=10,depth=3", "'depth=3'"),
            (
                "mcts:iterations=10,iterations=20",
                "'iterations' given twice",
            ),
            ("mcts", "needs a budget"),
            ("mcts:c=1", "needs a budget"),
            ("mcts:iterations=10,ms=5", "not both"),
            ("mcts:iterations=0", "'iterations'"),
            ("mcts:iterations=ten", "'ten'"),
            ("mcts:iterations=10,c=-1", "'c'"),
            ("mcts:iterations=10,c=nan", "'c'"),
            ("mcts:iterations=10,rollout=smart", "'smart'"),
            ("mcts:iterations=10,cutoff=-2", "'cutoff'"),
            ("mcts:iterations=10,solver=yes", "'yes'"),
            ("mcts:iterations=10,reuse=1", "'1'"),
            ("mcts:iterations=10,bias=-1", "'bias'"),
            ("mcts:iterations=10,widen=0", "'widen'"),
            ("mcts:iterations=10,widen=2,widen_exp=1.5", "'widen_exp'"),
            ("mcts:iterations=10,widen_exp=0.5", "'widen_exp'"),
            ("mcts:iterations=10,net=", "'net'"),
            ("expectimax:depth=2,nodes=0", "'nodes'"),
            ("expectimax:depth=2,nodes=1000000000001", "'nodes'"),
            ("heuristic:temperature=hot", "'temperature'"),
            ("heuristic:temp=1", "'temp=1'"),
            ("expectimax", "needs a budget"),
            ("expectimax:depth=0", "'depth'"),
            ("expectimax:depth=65", "'depth'"),
            ("expectimax:depth", "'depth'"),
            ("external", "cmd=COMMAND"),
            ("external:timeout_ms=5", "cmd=COMMAND"),
            ("external:timeout_ms=0,cmd=x", "'timeout_ms'"),
            ("external:ms=5,cmd=x", "'ms=5'"),
            ("external:cmd=", "no program"),
            ("td:ply=3", "'ply'"),
            ("td:depth=1", "'depth=1'"),
            ("td:nodes=0", "'nodes'"),
            ("perfect", "db=DIR"),
            ("perfect:depth=3", "db=DIR"),
            ("perfect:db=x,depth=0", "'depth'"),
        ] {
            let e = err(text);
            assert!(e.contains(needle), "{text}: {e}");
            assert!(!e.contains('\n'), "{text}: one line");
        }
    }
}
