//! Agent specs as written on the command line: `kind` or `kind:key=value,key=value`.
//!
//! Each kind's parameters are declared once, in its table below ([`HEURISTIC`], [`MCTS`],
//! [`EXPECTIMAX`], [`TD`], [`EXTERNAL`], [`PERFECT`], [`HOSTED`]; [`KINDS`] lists them all): the key, the
//! values it accepts, its default and what it sets ([`crate::params`]). The parser, its errors,
//! the canonical text and the tables of `docs/agents.md` all read them.
//!
//! Every unknown kind, unknown or repeated parameter, bad value, missing or doubled budget is
//! refused with a one-line error naming it. [`AgentSpec`]'s `Display` writes the canonical full
//! spec (every parameter, defaults included, except those declared [`Fallback::Quiet`]: `mcts`
//! writes its enhancements only when they are on, `expectimax` and `td` their node budget only
//! when it is not the default, so the text earlier runs recorded is kept), which reads back to
//! the same spec.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use cowrie_engine::Word;

use crate::params::{AnyKind, Fallback, Kind, Param, ParamError, Shared, Value, Values};

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
    /// `python`: a policy registered by a host program, the Python package
    /// ([`crate::hosted`]).
    Hosted(HostedParams),
}

/// The parameters of a `python` agent: the policy's name, its version and whether its author
/// declares it reproducible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostedParams {
    /// The name the policy is registered under.
    pub name: String,
    /// The version its author gives, if any.
    pub version: Option<String>,
    /// Whether its author declares that the same state and random stream always give the same
    /// choice.
    pub reproducible: bool,
}

impl HostedParams {
    /// Names and versions are words of letters, digits and `_ . + -`, so that a spec's text
    /// (its commas) and a run's files hold them as given.
    fn check(&self) -> Result<(), ParamError> {
        let fields = [
            ("name", Some(&self.name)),
            ("version", self.version.as_ref()),
        ];
        for (param, value) in fields {
            let Some(value) = value else { continue };
            let ok = value.starts_with(|c: char| c.is_ascii_alphanumeric())
                && value
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.+-".contains(c));
            if !ok {
                return Err(ParamError::BadValue {
                    kind: HOSTED.name.to_string(),
                    param: param.to_string(),
                    value: value.clone(),
                    expected: HOSTED_WORD.to_string(),
                });
            }
        }
        Ok(())
    }
}

/// What a `python` agent's name and version may be.
const HOSTED_WORD: &str = "a word of letters, digits and _ . + -, beginning with a letter or digit";

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
#[derive(Clone, Debug, PartialEq)]
pub struct TdParams {
    /// The network.
    pub weights: Weights,
    /// 0: greedy on the network; 1 or 2: expectiminimax over every roll, the network at the
    /// leaves (an expectimax search of `ply + 1` decision plies); at 2 unless `filter` is 0, the
    /// filtered search of [`crate::td::filtered`].
    pub ply: u32,
    /// The search's node budget per move (`nodes=N`, as [`ExpectimaxParams::nodes`]): a deeper
    /// iteration that would visit more nodes is abandoned and the move is the deepest completed
    /// one's, so `ply=2,nodes=N` searches two plies where that is cheap and one elsewhere.
    pub nodes: u64,
    /// Whether bear-off races are valued exactly from the one-sided bear-off database
    /// ([`crate::bearoff`]) instead of by the network (`bearoff=on`; default off).
    pub bearoff: bool,
    /// The move filter at `ply=2` (`filter=N`, [`DEFAULT_FILTER`] by default; 0 turns it off):
    /// every candidate is scored at `ply=0` and only the best `N` within [`TdParams::threshold`]
    /// of the best are searched ([`crate::td::filter`]).
    pub filter: u32,
    /// The move filter's equity threshold (`threshold=T`, [`DEFAULT_THRESHOLD`] by default).
    pub threshold: f64,
}

/// The default of [`TdParams::filter`]: 0, no filter, so `td:ply=2` is the exact expectiminimax
/// it was before the filter existed and a recorded spec replays the same games; `filter=2` is the
/// setting that makes `ply=2` affordable (docs/agents.md, *Move filter*).
pub const DEFAULT_FILTER: u32 = 0;

/// The default of [`TdParams::threshold`]: how far below the best candidate's `ply=0` equity a
/// candidate may be and still be searched at `ply=2`.
pub const DEFAULT_THRESHOLD: f64 = 0.16;

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
            // As its author declares.
            AgentSpec::Hosted(p) => p.reproducible,
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
    #[error("unknown agent '{0}' (known: {known})", known = kind_names())]
    UnknownKind(String),
    /// Parameters the kind refuses: unknown, repeated, missing or out of range.
    #[error(transparent)]
    Params(#[from] ParamError),
    /// An agent that could not be built: a missing or unreadable file, a game without one.
    #[error("agent '{kind}': {reason}")]
    Unavailable {
        /// The agent kind.
        kind: String,
        /// Why, in words.
        reason: String,
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

/// The default search depth of a `perfect` agent outside its database.
pub const PERFECT_DEPTH: u32 = 4;

impl Rollout {
    /// Every rollout policy, in the order of [`Rollout::WORDS`].
    const ALL: [Rollout; 2] = [Rollout::Random, Rollout::Heuristic];
    /// The word of each policy in a spec, and what it plays.
    const WORDS: &'static [Word] = &[
        Word {
            word: "random",
            meaning: "uniformly random moves",
        },
        Word {
            word: "heuristic",
            meaning: "greedy on the evaluation, ties broken by the agent's stream",
        },
    ];

    fn word(self) -> &'static str {
        let i = Self::ALL.iter().position(|&r| r == self);
        Self::WORDS[i.expect("every policy has a word")].word
    }

    fn from_word(word: &str) -> Option<Rollout> {
        let i = Self::WORDS.iter().position(|w| w.word == word)?;
        Some(Self::ALL[i])
    }
}

/// A time budget or limit in milliseconds (up to a day).
const MILLIS: Values = Values::Whole {
    min: 1,
    max: 86_400_000,
    unit: "milliseconds",
    or_none: false,
};

/// A search depth in decision plies.
const DEPTH: Values = Values::Whole {
    min: 1,
    max: MAX_DEPTH as u64,
    unit: "",
    or_none: false,
};

/// A number from 0.
const NON_NEGATIVE: Values = Values::Number {
    min: 0.0,
    min_included: true,
    max: None,
    or_none: false,
};

/// The node budget of a search's move, shared by `expectimax` and `td`.
const NODES: Shared = Shared {
    key: "nodes",
    values: Values::Whole {
        min: 1,
        max: MAX_NODES,
        unit: "",
        or_none: false,
    },
    default: Fallback::Quiet(Value::Whole(DEFAULT_NODES)),
    doc: "the node budget of a move: an iteration that would visit more nodes is abandoned for the deepest completed one",
};

/// What a network is read from: `shipped`, `shipped:VARIANT` or a file.
const WEIGHTS: &str = "shipped, shipped:VARIANT or a safetensors file";

/// A number as a spec writes it.
fn text(x: impl ToString) -> Option<String> {
    Some(x.to_string())
}

/// `on` or `off`.
fn switch_text(on: bool) -> Option<String> {
    text(Value::Switch(on))
}

/// The `random` kind.
pub const RANDOM: Kind<(), AgentSpec> = Kind {
    name: "random",
    doc: "uniform random play",
    examples: &["random"],
    params: &[],
    blank: || (),
    wrap: |()| AgentSpec::Random,
};

/// The `heuristic` kind: its parameters are its temperature.
pub const HEURISTIC: Kind<f64, AgentSpec> = Kind {
    name: "heuristic",
    doc: "one-ply search on the game's evaluation",
    examples: &["heuristic:temperature=0"],
    params: &[Param {
        key: "temperature",
        values: NON_NEGATIVE,
        default: Fallback::Value(Value::Number(0.0)),
        doc: "0 plays the best move, ties broken by the agent's stream; T > 0 samples from the softmax exp(v / T)",
        get: |t| text(t),
        set: |t, v| {
            *t = v.number()?;
            Some(())
        },
    }],
    blank: || 0.0,
    wrap: |temperature| AgentSpec::Heuristic { temperature },
};

/// The `mcts` kind.
pub const MCTS: Kind<MctsParams, AgentSpec> = Kind {
    name: "mcts",
    doc: "UCT Monte Carlo tree search, with enhancements off unless turned on",
    examples: &[
        "mcts:iterations=2000,c=1.4,rollout=random,cutoff=none",
        "mcts:iterations=1000,c=1.4,rollout=random,cutoff=none,bias=1,solver=on,widen=2,widen_exp=0.5,reuse=on",
    ],
    params: &[
        Param {
            key: "iterations",
            values: Values::Whole {
                min: 1,
                max: u32::MAX as u64,
                unit: "",
                or_none: false,
            },
            default: Fallback::OneOf,
            doc: "iterations per move (reproducible)",
            get: |p| match p.budget {
                Budget::Iterations(n) => text(n),
                Budget::Millis(_) => None,
            },
            set: |p, v| {
                p.budget = Budget::Iterations(v.whole_u32()?);
                Some(())
            },
        },
        Param {
            key: "ms",
            values: MILLIS,
            default: Fallback::OneOf,
            doc: "milliseconds per move (not reproducible)",
            get: |p| match p.budget {
                Budget::Millis(ms) => text(ms),
                Budget::Iterations(_) => None,
            },
            set: |p, v| {
                p.budget = Budget::Millis(v.whole()?);
                Some(())
            },
        },
        Param {
            key: "c",
            values: NON_NEGATIVE,
            default: Fallback::Value(Value::Number(1.4)),
            doc: "the UCT exploration constant",
            get: |p| text(p.c),
            set: |p, v| {
                p.c = v.number()?;
                Some(())
            },
        },
        Param {
            key: "rollout",
            values: Values::Words(Rollout::WORDS),
            default: Fallback::Value(Value::Word("random")),
            doc: "how a new leaf is played out",
            get: |p| text(p.rollout.word()),
            set: |p, v| {
                p.rollout = Rollout::from_word(v.word()?)?;
                Some(())
            },
        },
        Param {
            key: "cutoff",
            values: Values::Whole {
                min: 0,
                max: u32::MAX as u64,
                unit: "plies",
                or_none: true,
            },
            default: Fallback::Value(Value::None),
            doc: "decision plies of rollout before the evaluation scores the position (0 scores the leaf itself); none plays to the end",
            get: |p| p.cutoff.map_or(text(Value::None), text),
            set: |p, v| {
                p.cutoff = match v {
                    Value::None => None,
                    v => Some(v.whole_u32()?),
                };
                Some(())
            },
        },
        Param {
            key: "bias",
            values: NON_NEGATIVE,
            default: Fallback::Quiet(Value::Number(0.0)),
            doc: "the progressive bias weight W: a child's evaluation h adds W h / (n + 1) to its UCT score; 0 is off",
            get: |p| text(p.bias),
            set: |p, v| {
                p.bias = v.number()?;
                Some(())
            },
        },
        Param {
            key: "solver",
            values: Values::Switch,
            default: Fallback::Quiet(Value::Switch(false)),
            doc: "the MCTS-solver: proven values backed up and played",
            get: |p| switch_text(p.solver),
            set: |p, v| {
                p.solver = v.switch()?;
                Some(())
            },
        },
        Param {
            key: "widen",
            values: Values::Number {
                min: 0.0,
                min_included: false,
                max: None,
                or_none: true,
            },
            default: Fallback::Quiet(Value::None),
            doc: "progressive widening's K: a node visited N times selects among its first ceil(K N^A) children; none selects among all",
            get: |p| p.widening.map_or(text(Value::None), |w| text(w.k)),
            set: |p, v| {
                p.widening = match v {
                    Value::None => None,
                    v => Some(Widening {
                        k: v.number()?,
                        exponent: WIDEN_EXPONENT,
                    }),
                };
                Some(())
            },
        },
        Param {
            key: "widen_exp",
            values: Values::Number {
                min: 0.0,
                min_included: false,
                max: Some(1.0),
                or_none: false,
            },
            default: Fallback::With {
                key: "widen",
                value: Value::Number(WIDEN_EXPONENT),
            },
            doc: "progressive widening's exponent A",
            get: |p| p.widening.map(|w| w.exponent.to_string()),
            set: |p, v| {
                p.widening.as_mut()?.exponent = v.number()?;
                Some(())
            },
        },
        Param {
            key: "reuse",
            values: Values::Switch,
            default: Fallback::Quiet(Value::Switch(false)),
            doc: "tree reuse: the subtree of the position reached is kept between the agent's moves",
            get: |p| switch_text(p.reuse),
            set: |p, v| {
                p.reuse = v.switch()?;
                Some(())
            },
        },
        Param {
            key: "net",
            values: Values::Text {
                placeholder: "EVAL",
                meaning: "heuristic (the game's own evaluation), or a network: shipped, shipped:VARIANT or a safetensors file",
            },
            default: Fallback::Quiet(Value::Text("heuristic")),
            doc: "the evaluation of the bias, the cutoff and greedy rollouts",
            get: |p| p.net.as_ref().map_or(text("heuristic"), text),
            set: |p, v| {
                p.net = match v.text()? {
                    "heuristic" => None,
                    w => Some(Weights::read(w)?),
                };
                Some(())
            },
        },
    ],
    blank: || MctsParams {
        budget: Budget::Iterations(0),
        c: 0.0,
        rollout: Rollout::Random,
        cutoff: None,
        bias: 0.0,
        solver: false,
        widening: None,
        reuse: false,
        net: None,
    },
    wrap: AgentSpec::Mcts,
};

/// The `expectimax` kind.
pub const EXPECTIMAX: Kind<ExpectimaxParams, AgentSpec> = Kind {
    name: "expectimax",
    doc: "expectiminimax with alpha-beta and Star1/Star2 pruning, by iterative deepening",
    examples: &["expectimax:depth=3", "expectimax:depth=64,ms=50"],
    params: &[
        Param {
            key: "depth",
            values: DEPTH,
            default: Fallback::AnyOf(Some(Value::Whole(MAX_DEPTH as u64))),
            doc: "the deepest iteration, in decision plies",
            get: |p| text(p.depth),
            set: |p, v| {
                p.depth = v.whole_u32()?;
                Some(())
            },
        },
        Param {
            key: "ms",
            values: MILLIS,
            default: Fallback::AnyOf(None),
            doc: "a time budget per move (not reproducible): the move is the deepest iteration completed in time",
            get: |p| p.ms.map(|ms| ms.to_string()),
            set: |p, v| {
                p.ms = Some(v.whole()?);
                Some(())
            },
        },
        NODES.with(
            |p: &ExpectimaxParams| text(p.nodes),
            |p, v| {
                p.nodes = v.whole()?;
                Some(())
            },
        ),
    ],
    blank: || ExpectimaxParams {
        depth: MAX_DEPTH,
        ms: None,
        nodes: DEFAULT_NODES,
    },
    wrap: AgentSpec::Expectimax,
};

/// The `td` kind.
pub const TD: Kind<TdParams, AgentSpec> = Kind {
    name: "td",
    doc: "a learned evaluation (trained by TD(lambda) self-play), greedy or searched",
    examples: &[
        "td:weights=shipped,ply=0",
        "td:weights=runs/net.safetensors,ply=1",
        "td:weights=shipped,ply=2,nodes=100000",
        "td:weights=shipped,ply=2,filter=3,threshold=0.08",
    ],
    params: &[
        Param {
            key: "weights",
            values: Values::Text {
                placeholder: "FILE",
                meaning: WEIGHTS,
            },
            default: Fallback::Value(Value::Text("shipped")),
            doc: "the network: the one shipped for the game and variant, the one shipped for another variant of the game (to play rules without their own), or a file",
            get: |p| text(&p.weights),
            set: |p, v| {
                p.weights = Weights::read(v.text()?)?;
                Some(())
            },
        },
        Param {
            key: "ply",
            values: Values::Whole {
                min: 0,
                max: 2,
                unit: "",
                or_none: false,
            },
            default: Fallback::Value(Value::Whole(0)),
            doc: "0 plays greedily on the network; 1 searches two decision plies by expectiminimax, the network at the leaves; 2 one turn more: by expectiminimax on every candidate, or with filter=N on those the move filter keeps",
            get: |p| text(p.ply),
            set: |p, v| {
                p.ply = v.whole_u32()?;
                Some(())
            },
        },
        NODES.with(
            |p: &TdParams| text(p.nodes),
            |p, v| {
                p.nodes = v.whole()?;
                Some(())
            },
        ),
        Param {
            key: "bearoff",
            values: Values::Switch,
            default: Fallback::Quiet(Value::Switch(false)),
            doc: "bear-off races (both sides wholly home, the game's result at stake) valued exactly from the one-sided bear-off database instead of by the network",
            get: |p| switch_text(p.bearoff),
            set: |p, v| {
                p.bearoff = v.switch()?;
                Some(())
            },
        },
        Param {
            key: "filter",
            values: Values::Whole {
                min: 0,
                max: u32::MAX as u64,
                unit: "",
                or_none: false,
            },
            default: Fallback::Quiet(Value::Whole(DEFAULT_FILTER as u64)),
            doc: "the move filter at ply 2: every candidate scored at ply 0, only the best N within the threshold searched (0: no filter, every candidate searched by expectiminimax)",
            get: |p| text(p.filter),
            set: |p, v| {
                p.filter = v.whole_u32()?;
                Some(())
            },
        },
        Param {
            key: "threshold",
            values: NON_NEGATIVE,
            default: Fallback::Quiet(Value::Number(DEFAULT_THRESHOLD)),
            doc: "the move filter's threshold: a candidate more than T below the best one's ply-0 equity is not searched",
            get: |p| text(p.threshold),
            set: |p, v| {
                p.threshold = v.number()?;
                Some(())
            },
        },
    ],
    blank: || TdParams {
        weights: Weights::Shipped,
        ply: 0,
        nodes: DEFAULT_NODES,
        bearoff: false,
        filter: DEFAULT_FILTER,
        threshold: DEFAULT_THRESHOLD,
    },
    wrap: AgentSpec::Td,
};

/// The `external` kind.
pub const EXTERNAL: Kind<ExternalParams, AgentSpec> = Kind {
    name: "external",
    doc: "another program, spoken to over JSON lines",
    examples: &["external:timeout_ms=30000,cmd=python3 tools/gnubg_agent.py --ply 0"],
    params: &[
        Param {
            key: "timeout_ms",
            values: MILLIS,
            default: Fallback::Value(Value::Whole(DEFAULT_TIMEOUT_MS)),
            doc: "how long the program may take to answer one move before it forfeits",
            get: |p| text(p.timeout_ms),
            set: |p, v| {
                p.timeout_ms = v.whole()?;
                Some(())
            },
        },
        Param {
            key: "cmd",
            values: Values::Rest {
                placeholder: "COMMAND",
                meaning: "a program and its arguments: the rest of the spec, commas included",
            },
            default: Fallback::Required,
            doc: "the program to run",
            get: |p| text(&p.cmd),
            set: |p, v| {
                p.cmd = v.text()?.to_string();
                Some(())
            },
        },
    ],
    blank: || ExternalParams {
        cmd: String::new(),
        timeout_ms: DEFAULT_TIMEOUT_MS,
        stderr: None,
    },
    wrap: AgentSpec::External,
};

/// The `perfect` kind.
pub const PERFECT: Kind<PerfectParams, AgentSpec> = Kind {
    name: "perfect",
    doc: "perfect play from a solved database, by search where it does not reach",
    examples: &["perfect:db=dbs/five-captures,depth=4"],
    params: &[
        Param {
            key: "db",
            values: Values::Text {
                placeholder: "DIR",
                meaning: "a database directory written by cowrie solve",
            },
            default: Fallback::Required,
            doc: "the solved database",
            get: |p| text(p.db.display()),
            set: |p, v| {
                p.db = PathBuf::from(v.text()?);
                Some(())
            },
        },
        Param {
            key: "depth",
            values: DEPTH,
            default: Fallback::Value(Value::Whole(PERFECT_DEPTH as u64)),
            doc: "the depth of the search where the database does not reach, in plies",
            get: |p| text(p.depth),
            set: |p, v| {
                p.depth = v.whole_u32()?;
                Some(())
            },
        },
    ],
    blank: || PerfectParams {
        db: PathBuf::new(),
        depth: PERFECT_DEPTH,
    },
    wrap: AgentSpec::Perfect,
};

/// The `python` kind.
pub const HOSTED: Kind<HostedParams, AgentSpec> = Kind {
    name: "python",
    doc: "a Python policy registered by the Python package (docs/python.md)",
    examples: &["python:name=greedy,version=2,reproducible=on"],
    params: &[
        Param {
            key: "name",
            values: Values::Text {
                placeholder: "NAME",
                meaning: HOSTED_WORD,
            },
            default: Fallback::Required,
            doc: "the name the policy is registered under",
            get: |p| text(&p.name),
            set: |p, v| {
                p.name = v.text()?.to_string();
                Some(())
            },
        },
        Param {
            key: "version",
            values: Values::Text {
                placeholder: "VERSION",
                meaning: HOSTED_WORD,
            },
            default: Fallback::Quiet(Value::Text("none")),
            doc: "the policy's version, as its author gives it (none: no version)",
            get: |p| p.version.clone(),
            set: |p, v| {
                let v = v.text()?;
                p.version = (v != "none").then(|| v.to_string());
                Some(())
            },
        },
        Param {
            key: "reproducible",
            values: Values::Switch,
            default: Fallback::Value(Value::Switch(false)),
            doc: "whether the policy's author declares that the same state and random stream always give the same choice",
            get: |p| switch_text(p.reproducible),
            set: |p, v| {
                p.reproducible = v.switch()?;
                Some(())
            },
        },
    ],
    blank: || HostedParams {
        name: String::new(),
        version: None,
        reproducible: false,
    },
    wrap: AgentSpec::Hosted,
};

/// Every agent kind, in the order errors and docs list them.
pub static KINDS: &[&dyn AnyKind<AgentSpec>] = &[
    &RANDOM,
    &HEURISTIC,
    &MCTS,
    &EXPECTIMAX,
    &TD,
    &EXTERNAL,
    &PERFECT,
    &HOSTED,
];

/// The kinds' names, comma-separated.
fn kind_names() -> String {
    let names: Vec<&str> = KINDS.iter().map(|k| k.name()).collect();
    names.join(", ")
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let (name, params) = match text.split_once(':') {
            Some((k, p)) => (k, Some(p)),
            None => (text, None),
        };
        let kind = KINDS
            .iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| SpecError::UnknownKind(text.to_string()))?;
        let spec = kind.read(params)?;
        if let AgentSpec::Td(p) = &spec {
            p.check_filter()?;
        }
        if let AgentSpec::Hosted(p) = &spec {
            p.check()?;
        }
        Ok(spec)
    }
}

impl TdParams {
    /// The move filter is a part of `ply=2`'s search: `filter=N` is refused at another ply, and
    /// `threshold=T` without a filter, where either would change the spec's text and nothing it
    /// plays.
    fn check_filter(&self) -> Result<(), ParamError> {
        let needs = |param: &str, value: String, with: &str| ParamError::Needs {
            kind: "td".to_string(),
            param: param.to_string(),
            value,
            with: with.to_string(),
        };
        if self.filter != DEFAULT_FILTER && self.ply != 2 {
            return Err(needs("filter", self.filter.to_string(), "ply=2"));
        }
        if self.threshold != DEFAULT_THRESHOLD && self.filter == 0 {
            return Err(needs(
                "threshold",
                self.threshold.to_string(),
                "'filter' on",
            ));
        }
        Ok(())
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical spec text, as written to CSV: every parameter, defaults included (but
    /// those declared [`Fallback::Quiet`] at their default).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => RANDOM.write(f, &()),
            AgentSpec::Heuristic { temperature } => HEURISTIC.write(f, temperature),
            AgentSpec::Mcts(p) => MCTS.write(f, p),
            AgentSpec::Expectimax(p) => EXPECTIMAX.write(f, p),
            AgentSpec::Td(p) => TD.write(f, p),
            AgentSpec::External(p) => EXTERNAL.write(f, p),
            AgentSpec::Perfect(p) => PERFECT.write(f, p),
            AgentSpec::Hosted(p) => HOSTED.write(f, p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::markdown;

    #[test]
    fn every_table_agrees_with_itself() {
        for kind in KINDS {
            kind.check_table();
        }
    }

    /// `docs/agents.md` shows the tables the declarations render, so the docs cannot drift.
    #[test]
    fn the_docs_show_every_declared_parameter() {
        let docs = include_str!("../../docs/agents.md");
        let tables = markdown(KINDS);
        assert!(
            docs.contains(&tables),
            "docs/agents.md lacks the declared tables; paste:\n{tables}"
        );
    }

    /// The errors read the declarations: the known keys, the values accepted, the budgets.
    #[test]
    fn errors_list_what_the_declarations_accept() {
        for (text, message) in [
            (
                "mcts:iterations=10,depth=3",
                "agent 'mcts' takes no parameter 'depth=3' (known: iterations, ms, c, rollout, \
                 cutoff, bias, solver, widen, widen_exp, reuse, net)",
            ),
            (
                "random:depth=3",
                "agent 'random' takes no parameter 'depth=3' (known: none)",
            ),
            (
                "mcts:c=1",
                "agent 'mcts' needs a budget: iterations=N or ms=N",
            ),
            (
                "expectimax:nodes=5",
                "agent 'expectimax' needs a budget: depth=N and/or ms=N",
            ),
            (
                "mcts:ms=5,iterations=5",
                "agent 'mcts': give either 'iterations=' or 'ms=', not both",
            ),
            (
                "expectimax:depth=65",
                "agent 'expectimax': bad value '65' for 'depth' (expected a whole number from 1 to 64)",
            ),
            (
                "td:nodes=0",
                "agent 'td': bad value '0' for 'nodes' (expected a whole number from 1 to 10^12)",
            ),
            (
                "td:ply=3",
                "agent 'td': bad value '3' for 'ply' (expected 0, 1 or 2)",
            ),
            (
                "mcts:iterations=1,widen_exp=1.5,widen=1",
                "agent 'mcts': bad value '1.5' for 'widen_exp' (expected a number in (0, 1])",
            ),
            (
                "mcts:iterations=1,widen_exp=0.5",
                "agent 'mcts': 'widen_exp' (given '0.5') applies only with 'widen' on",
            ),
            (
                "mcts:iterations=1,rollout=smart",
                "agent 'mcts': bad value 'smart' for 'rollout' (expected random or heuristic)",
            ),
            (
                "external:ms=5,cmd=x",
                "agent 'external' takes no parameter 'ms=5' (known: timeout_ms, cmd)",
            ),
            (
                "perfect:depth=2",
                "agent 'perfect' needs db=DIR (a database directory written by cowrie solve)",
            ),
            (
                "alphazero",
                "unknown agent 'alphazero' (known: random, heuristic, mcts, expectimax, td, \
                 external, perfect, python)",
            ),
        ] {
            assert_eq!(err(text), message, "{text}");
        }
    }

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
            ("external:cmd=", "bad value '' for 'cmd'"),
            ("td:ply=3", "'ply'"),
            ("td:depth=1", "'depth=1'"),
            ("td:nodes=0", "'nodes'"),
            (
                "td:ply=1,filter=2",
                "'filter' (given '2') applies only with ply=2",
            ),
            ("td:filter=2", "applies only with ply=2"),
            (
                "td:ply=2,threshold=0.5",
                "'threshold' (given '0.5') applies only with 'filter' on",
            ),
            ("perfect", "db=DIR"),
            ("perfect:depth=3", "db=DIR"),
            ("perfect:db=x,depth=0", "'depth'"),
            ("perfect:db=", "'db'"),
            ("td:weights=shipped:", "'weights'"),
            ("mcts:iterations=10,widen=none,widen_exp=0.5", "'widen_exp'"),
        ] {
            let e = err(text);
            assert!(e.contains(needle), "{text}: {e}");
            assert!(!e.contains('\n'), "{text}: one line");
        }
    }
}
