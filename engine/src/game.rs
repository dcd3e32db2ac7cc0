//! The game API every cowrie game implements: players, who acts, the [`Game`] trait and its errors.
//!
//! The conventions behind it (seats, plies and turns, truncation, returns) are written out in
//! `docs/conventions.md`; this module is their code.

use std::fmt;
use std::hash::Hash;

use crate::quote::{clip, clip_quoted, quote_input};

/// One of the two players of a game, by index: `Player::ONE` (index 0) and `Player::TWO` (index 1).
///
/// Player one is the player the game's rules name first. Where the rules fix who moves first it is
/// that player (Baghchal: the goats); where an opening roll decides, it is simply the first-listed
/// player (seat 1 of a match).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player(u8);

impl Player {
    /// The first player (index 0, seat 1).
    pub const ONE: Player = Player(0);
    /// The second player (index 1, seat 2).
    pub const TWO: Player = Player(1);
    /// Both players in index order.
    pub const BOTH: [Player; 2] = [Player::ONE, Player::TWO];

    /// The player with this index.
    ///
    /// # Panics
    /// If `index > 1`.
    #[must_use]
    pub const fn from_index(index: usize) -> Player {
        assert!(index < 2, "a player index is 0 or 1");
        Player(index as u8)
    }

    /// This player's index: 0 or 1.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat number used on the command line and in CSV: 1 or 2.
    #[must_use]
    pub const fn seat(self) -> u8 {
        self.0 + 1
    }

    /// The other player.
    #[must_use]
    pub const fn opponent(self) -> Player {
        Player(self.0 ^ 1)
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}", self.seat())
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A player won by the rules.
    Win(Player),
    /// A draw by the rules (for example a repetition rule).
    Draw,
    /// The game reached the ply cap its rules declare. Never counted as a draw.
    Truncated,
}

impl EndReason {
    /// The winner, if any.
    #[must_use]
    pub fn winner(self) -> Option<Player> {
        match self {
            EndReason::Win(p) => Some(p),
            EndReason::Draw | EndReason::Truncated => None,
        }
    }

    /// Returns per player for a game that ended this way: the winner gains `points` and the
    /// loser loses as many; `[0.0, 0.0]` for a draw or a truncation. Every game's
    /// [`Game::returns`] is this, with the points its rules score for the win.
    #[must_use]
    pub fn returns(self, points: u32) -> [f64; 2] {
        match self {
            EndReason::Win(w) => {
                let pts = f64::from(points);
                let mut r = [-pts; 2];
                r[w.index()] = pts;
                r
            }
            EndReason::Draw | EndReason::Truncated => [0.0; 2],
        }
    }

    /// The name used in the `end_reason` CSV column: `win`, `draw` or `truncated`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Win(_) => "win",
            EndReason::Draw => "draw",
            EndReason::Truncated => "truncated",
        }
    }
}

/// Who acts in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToAct {
    /// A decision node: this player chooses one of the legal actions.
    Decision(Player),
    /// A chance node: nature draws one of the listed outcomes (dice, cowries).
    Chance,
    /// The game is over.
    Terminal(EndReason),
}

/// What a chance node is for: the facts a harness keys its dice by, so that a throw keeps its
/// value when a rule elsewhere in the game changes (`docs/conventions.md`, "Seeds and random
/// streams"). It describes the node only; no rule reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChanceNode {
    /// The game the node belongs to within the unit of play, from 1: Julbahar's game number
    /// within its match; 1 in games whose unit is a single game.
    pub game: u32,
    /// Whose throw it is: the player who acts after it, within that player's turn (a roll of
    /// the dice it will play, a throw of the cowries it will move by). `None` for an opening
    /// throw, which decides who starts and belongs to no player's turn (Frangieh's opening
    /// roll, Julbahar's opening throw, Bargese's three-shell throws).
    pub thrower: Option<Player>,
}

impl ChanceNode {
    /// An opening throw of the first game.
    pub const OPENING: ChanceNode = ChanceNode {
        game: 1,
        thrower: None,
    };
}

/// How long a chain of chance nodes can be: chance nodes in a row, with no decision between
/// them (a roll followed by a fresh roll, extra throws, an opening throw repeated on ties).
///
/// A search that expands chance nodes at no depth cost needs a cut on unbounded chains; the
/// cut is the search's own parameter (`SearchConfig::chance_chain_cut` of the agents'
/// expectimax), this is what the rules say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChanceChain {
    /// No chain is longer than this (0 for a game without chance nodes).
    Bounded(u32),
    /// Chains can be as long as the dice say: every length has a positive probability.
    Unbounded,
}

/// Static facts about a game under a given rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameFacts {
    /// Whether the game has chance nodes (exactly when `chance_chain` is not `Bounded(0)`).
    pub has_chance: bool,
    /// How many chance nodes can follow each other without a decision between them.
    pub chance_chain: ChanceChain,
    /// The ply cap the rules declare (plies = actions at decision nodes, forced passes included),
    /// if any. A game that reaches it ends as [`EndReason::Truncated`].
    pub ply_cap: Option<u32>,
    /// Whether every game ends without the cap (no cycles are possible under these rules).
    pub ends_without_cap: bool,
    /// Whether what can happen from a position depends only on the position and the ply count
    /// (false under a repetition rule, where the moves that led to it matter too): a search may
    /// then reuse a position's value found at another move of the game.
    pub history_free: bool,
    /// The largest number of points a player can win or lose in one game (1 for plain win/loss).
    pub max_points: u32,
}

/// The reason part of a parse error: a reason may quote part of the input.
fn reason_text(reason: &str) -> String {
    clip(&clip_quoted(reason), 200)
}

/// Why a text could not be read as a position, action or rule option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A position notation that does not describe a legal position of the game.
    #[error("malformed position {}: {}", quote_input(text), reason_text(reason))]
    Position {
        /// The text that was given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An action that is not written in the game's action notation.
    #[error("malformed action {}: {}", quote_input(text), reason_text(reason))]
    Action {
        /// The text that was given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// Why an action or outcome was refused by the checked API.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The action is not among the legal actions of the state.
    #[error("illegal action '{0}'")]
    IllegalAction(String),
    /// The state is not a decision node (a chance node or a finished game).
    #[error("not a decision node")]
    NotDecision,
    /// The state is not a chance node, or the outcome is not one of its outcomes.
    #[error("invalid chance outcome '{0}'")]
    InvalidOutcome(String),
}

/// A two-player game with optional chance nodes: the contract every cowrie game implements.
///
/// The state type *is* the game (`impl Game for Baghchal`); its rule set ([`Game::Rules`]) is data
/// passed at construction. Agents and the self-play runner are generic over this trait. It holds
/// the rules only: what a harness reports of a game (side names, its own CSV columns, the games
/// inside a match) is the harness's trait (`Report` in `cowrie-experiments`), and a game's
/// evaluation the agents' (`Evaluate` in `cowrie-agents`).
///
/// Contract (checked for every game by [`crate::testing::conformance`]):
/// - [`Game::legal_actions`] clears the buffer and writes the legal actions of a decision node in
///   a fixed, documented order, each exactly once; at a decision node there is at least one (a
///   forced pass is an explicit action);
/// - [`Game::chance_outcomes`] lists every outcome of a chance node once with a positive
///   probability, summing to 1; [`Game::apply_outcome`] is deterministic;
/// - [`Game::returns`] is zero-sum at a terminal state, within `±facts.max_points`;
/// - `Self::from_notation(&s.notation())` reproduces the state's notation and hash.
pub trait Game: Clone + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// One action at a decision node.
    type Action: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;
    /// One outcome of a chance node (a roll, a throw). A different type from actions, so a die
    /// roll can never be played as a move.
    type Outcome: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;
    /// The rule set: named variants are values of it.
    type Rules: crate::rules::RuleSet + PartialEq + Send + Sync + 'static;

    /// The game's name on the command line and in CSV (`baghchal`).
    const NAME: &'static str;

    /// The start position under `rules`.
    fn new(rules: &Self::Rules) -> Self;

    /// The rule set this state is played under.
    fn rules(&self) -> &Self::Rules;

    /// Static facts of the game under `rules`.
    fn facts(rules: &Self::Rules) -> GameFacts;

    /// Who acts now.
    fn to_act(&self) -> ToAct;

    /// Clears `buf` and writes the legal actions of a decision node, in the game's fixed order.
    /// Leaves `buf` empty at chance and terminal nodes. Never allocates once `buf` has grown to
    /// the game's largest branching factor.
    fn legal_actions(&self, buf: &mut Vec<Self::Action>);

    /// Plays `action` at a decision node without checking it.
    ///
    /// # Panics
    /// May panic, or leave the state inconsistent, if `action` is not legal here; use
    /// [`Game::try_play`] for unchecked input.
    fn play_unchecked(&mut self, action: Self::Action);

    /// Clears `buf` and writes every outcome of a chance node with its exact probability.
    /// Leaves `buf` empty elsewhere.
    fn chance_outcomes(&self, buf: &mut Vec<(Self::Outcome, f64)>);

    /// Applies a chance outcome. Deterministic.
    ///
    /// # Panics
    /// May panic if the state is not a chance node or `outcome` is not one of its outcomes.
    fn apply_outcome(&mut self, outcome: Self::Outcome);

    /// Returns per player at a terminal state: points won (positive) or lost (negative), zero-sum;
    /// `[0.0, 0.0]` for a draw, a truncation, or a state that is not terminal.
    fn returns(&self) -> [f64; 2];

    /// Decision plies played so far in this game (forced passes included, chance outcomes not).
    fn plies(&self) -> u32;

    /// A 64-bit Zobrist hash of the position (board, player to act, pieces in hand; not the ply
    /// counter), updated incrementally.
    fn hash(&self) -> u64;

    /// The position in the game's text notation; [`Game::from_notation`] reads it back.
    fn notation(&self) -> String;

    /// Reads a position written by [`Game::notation`], to be played under `rules`.
    ///
    /// # Errors
    /// [`ParseError::Position`] naming the text, if it is not a well-formed, legal position.
    fn from_notation(text: &str, rules: &Self::Rules) -> Result<Self, ParseError>;

    /// Writes an action in the game's action notation.
    fn action_to_string(&self, action: Self::Action) -> String;

    /// Reads an action in the game's action notation. Does not check legality.
    ///
    /// # Errors
    /// [`ParseError::Action`] naming the text, if it is not in the notation.
    fn parse_action(&self, text: &str) -> Result<Self::Action, ParseError>;

    /// Writes a chance outcome as text (for game records).
    fn outcome_to_string(&self, outcome: Self::Outcome) -> String;

    /// What the chance node at this state is for (meaningful at chance nodes only): its game
    /// within the unit of play and whose throw it is. The default, [`ChanceNode::OPENING`],
    /// says nothing of a player, so a harness treats every chance node of a game that keeps it
    /// as one sequence of opening throws.
    fn chance_node(&self) -> ChanceNode {
        ChanceNode::OPENING
    }

    /// The game's outcome, if it is over.
    fn end_reason(&self) -> Option<EndReason> {
        match self.to_act() {
            ToAct::Terminal(reason) => Some(reason),
            _ => None,
        }
    }

    /// Plays uniformly random actions and chance outcomes from this state to the end of the game
    /// (a win, a draw or the ply cap), drawing everything from `rng`: at a decision node the
    /// action `legal[rng.gen_range(0..legal.len())]` of [`Game::legal_actions`], at a chance node
    /// [`sample_outcome`]`(&outcomes, rng)`.
    ///
    /// This default goes through the public API; a game may override it with a faster path,
    /// which must make exactly the same draws and so play exactly the same game (each override
    /// is tested against this definition).
    fn random_playout<R: rand::Rng>(&mut self, rng: &mut R) {
        generic_random_playout(self, rng);
    }

    /// Plays `action` after checking that it is legal.
    ///
    /// # Errors
    /// [`PlayError::NotDecision`] at a chance or terminal node; [`PlayError::IllegalAction`] if
    /// `action` is not among [`Game::legal_actions`].
    ///
    /// # Examples
    ///
    /// Baghchal's goats place first, on any of the 21 empty points; a refused action leaves the
    /// state as it was.
    ///
    /// ```
    /// use cowrie_engine::{Baghchal, BaghchalRules, Frangieh, FrangiehRules, Game, PlayError, ToAct};
    ///
    /// let mut state = Baghchal::new(&BaghchalRules::default());
    /// let mut legal = Vec::new();
    /// state.legal_actions(&mut legal);
    /// assert_eq!(legal.len(), 21);
    /// let c3 = state.parse_action("c3").unwrap();
    /// state.try_play(c3).unwrap();
    /// assert_eq!(state.notation(), "T...T/...../..G../...../T...T t 19 0 1");
    ///
    /// // The tigers are to move now: a placement is not theirs, and a1 to c3 is no jump (b2 is
    /// // empty), but a1 steps to b2.
    /// let before = state.notation();
    /// assert_eq!(state.try_play(c3), Err(PlayError::IllegalAction("c3".into())));
    /// let jump = state.parse_action("a1xc3").unwrap();
    /// assert_eq!(state.try_play(jump), Err(PlayError::IllegalAction("a1xc3".into())));
    /// assert_eq!(state.notation(), before);
    /// state.try_play(state.parse_action("a1-b2").unwrap()).unwrap();
    /// assert_eq!(state.plies(), 2);
    ///
    /// // Frangieh opens with a roll: at a chance node no action plays.
    /// let mut frangieh = Frangieh::new(&FrangiehRules::default());
    /// assert_eq!(frangieh.to_act(), ToAct::Chance);
    /// let mv = frangieh.parse_action("24/18").unwrap();
    /// assert_eq!(frangieh.try_play(mv), Err(PlayError::NotDecision));
    /// ```
    fn try_play(&mut self, action: Self::Action) -> Result<(), PlayError> {
        if !matches!(self.to_act(), ToAct::Decision(_)) {
            return Err(PlayError::NotDecision);
        }
        let mut buf = Vec::new();
        self.legal_actions(&mut buf);
        if !buf.contains(&action) {
            return Err(PlayError::IllegalAction(self.action_to_string(action)));
        }
        self.play_unchecked(action);
        Ok(())
    }

    /// Applies `outcome` after checking it is an outcome of this chance node.
    ///
    /// # Errors
    /// [`PlayError::InvalidOutcome`] if the state is not a chance node or the outcome is not listed.
    fn try_apply_outcome(&mut self, outcome: Self::Outcome) -> Result<(), PlayError> {
        let mut buf = Vec::new();
        self.chance_outcomes(&mut buf);
        if !buf.iter().any(|(o, _)| *o == outcome) {
            return Err(PlayError::InvalidOutcome(self.outcome_to_string(outcome)));
        }
        self.apply_outcome(outcome);
        Ok(())
    }
}

/// Draws a chance outcome from `outcomes` (as listed by [`Game::chance_outcomes`]) using one
/// uniform number in `[0, 1)` from `rng`.
///
/// # Panics
/// If `outcomes` is empty.
pub fn sample_outcome<O: Copy, R: rand::Rng + ?Sized>(outcomes: &[(O, f64)], rng: &mut R) -> O {
    let mut u: f64 = rng.gen();
    for &(o, p) in outcomes {
        if u < p {
            return o;
        }
        u -= p;
    }
    outcomes.last().expect("a chance node has outcomes").0
}

/// The definition of [`Game::random_playout`] through the public API: the trait's default, and
/// the reference every faster override is tested against.
pub fn generic_random_playout<G: Game, R: rand::Rng>(state: &mut G, rng: &mut R) {
    let mut actions = Vec::new();
    let mut outcomes = Vec::new();
    loop {
        match state.to_act() {
            ToAct::Terminal(_) => return,
            ToAct::Chance => {
                state.chance_outcomes(&mut outcomes);
                let o = sample_outcome(&outcomes, rng);
                state.apply_outcome(o);
            }
            ToAct::Decision(_) => {
                state.legal_actions(&mut actions);
                let a = actions[rng.gen_range(0..actions.len())];
                state.play_unchecked(a);
            }
        }
    }
}
