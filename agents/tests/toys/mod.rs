//! Toy games for the agents' tests: tic-tac-toe, Pig with a turn cap (a dice game small enough
//! to solve by dynamic programming), and a Nim with an extra-move rule.

#![allow(dead_code)]

use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt;

use cowrie_agents::Evaluate;
use cowrie_engine::{
    ChanceChain, EndReason, Game, GameFacts, ParseError, Player, RuleOption, RuleSet, ToAct,
    VariantInfo,
};

/// The toys have no options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoRules;

impl RuleSet for NoRules {
    const GAME: &'static str = "toy";
    const VARIANTS: &'static [VariantInfo] = &[VariantInfo {
        name: "standard",
        source: "test toy",
        settings: &[],
    }];
    const OPTIONS: &'static [RuleOption<Self>] = &[];
}

/// The `Game` items the toys share.
macro_rules! toy_items {
    () => {
        fn rules(&self) -> &NoRules {
            &NoRules
        }
        fn notation(&self) -> String {
            format!("{self:?}")
        }
        fn from_notation(text: &str, _rules: &NoRules) -> Result<Self, ParseError> {
            Err(ParseError::Position {
                text: text.to_string(),
                reason: "toys have no notation".into(),
            })
        }
        fn action_to_string(&self, action: Self::Action) -> String {
            format!("{action:?}")
        }
        fn parse_action(&self, text: &str) -> Result<Self::Action, ParseError> {
            Err(ParseError::Action {
                text: text.to_string(),
                reason: "toys have no notation".into(),
            })
        }
        fn outcome_to_string(&self, outcome: Self::Outcome) -> String {
            format!("{outcome:?}")
        }
        fn plies(&self) -> u32 {
            self.plies
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Tic-tac-toe.

/// Tic-tac-toe: player one is X, cells 0..9 row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    cells: [u8; 9],
    to_move: Player,
    plies: u32,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    /// A position from nine characters `X`, `O` or `.`; X moves when the counts are equal.
    pub fn from_cells(text: &str) -> Self {
        let mut cells = [0u8; 9];
        for (i, ch) in text.chars().enumerate() {
            cells[i] = match ch {
                'X' => 1,
                'O' => 2,
                _ => 0,
            };
        }
        let xs = cells.iter().filter(|&&c| c == 1).count();
        let os = cells.iter().filter(|&&c| c == 2).count();
        TicTacToe {
            cells,
            to_move: if xs == os { Player::ONE } else { Player::TWO },
            plies: (xs + os) as u32,
        }
    }

    fn winner(&self) -> Option<Player> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]])
                .then(|| Player::from_index(usize::from(c - 1)))
        })
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.cells {
            write!(f, "{}", [".", "X", "O"][usize::from(c)])?;
        }
        Ok(())
    }
}

impl Game for TicTacToe {
    type Action = u8;
    type Outcome = Infallible;
    type Rules = NoRules;
    const NAME: &'static str = "tictactoe";

    toy_items!();

    fn new(_rules: &NoRules) -> Self {
        TicTacToe::from_cells(".........")
    }
    fn facts(_rules: &NoRules) -> GameFacts {
        GameFacts {
            has_chance: false,
            chance_chain: ChanceChain::Bounded(0),
            ply_cap: None,
            ends_without_cap: true,
            history_free: true,
            max_points: 1,
        }
    }
    fn to_act(&self) -> ToAct {
        if let Some(w) = self.winner() {
            ToAct::Terminal(EndReason::Win(w))
        } else if self.cells.iter().all(|&c| c != 0) {
            ToAct::Terminal(EndReason::Draw)
        } else {
            ToAct::Decision(self.to_move)
        }
    }
    fn legal_actions(&self, buf: &mut Vec<u8>) {
        buf.clear();
        if let ToAct::Decision(_) = self.to_act() {
            buf.extend((0..9u8).filter(|&i| self.cells[usize::from(i)] == 0));
        }
    }
    fn play_unchecked(&mut self, action: u8) {
        self.cells[usize::from(action)] = self.to_move.index() as u8 + 1;
        self.to_move = self.to_move.opponent();
        self.plies += 1;
    }
    fn chance_outcomes(&self, buf: &mut Vec<(Infallible, f64)>) {
        buf.clear();
    }
    fn apply_outcome(&mut self, outcome: Infallible) {
        match outcome {}
    }
    fn returns(&self) -> [f64; 2] {
        match self.winner() {
            Some(p) => {
                let mut r = [-1.0; 2];
                r[p.index()] = 1.0;
                r
            }
            None => [0.0; 2],
        }
    }
    fn hash(&self) -> u64 {
        let mut h = self.to_move.index() as u64;
        for c in self.cells {
            h = h * 3 + u64::from(c);
        }
        h.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl Evaluate for TicTacToe {
    /// Lines still open for `player` minus lines open for the opponent, over 8, halved.
    fn evaluate(&self, player: Player) -> f64 {
        if let ToAct::Terminal(_) = self.to_act() {
            return self.returns()[player.index()];
        }
        let me = player.index() as u8 + 1;
        let mut open = 0i32;
        for l in LINES {
            let mine = l.iter().any(|&i| self.cells[i] == me);
            let theirs = l.iter().any(|&i| self.cells[i] == 3 - me);
            open += i32::from(!theirs) - i32::from(!mine);
        }
        0.5 * f64::from(open) / 8.0
    }
}

// ---------------------------------------------------------------------------------------------
// Pig with a turn cap.

/// Points that win.
pub const PIG_TARGET: u8 = 7;
/// Die faces: 1 ends the turn with nothing, others add to the turn total.
pub const PIG_FACES: u8 = 3;
/// Turns after which the game is truncated (value 0).
pub const PIG_TURN_CAP: u8 = 4;

/// Pig: on a turn the player rolls as often as they like, adding the faces to a turn total; a
/// 1 loses the turn total and ends the turn; holding banks it. Reaching [`PIG_TARGET`] wins at
/// once. After [`PIG_TURN_CAP`] turns the game is truncated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pig {
    pub score: [u8; 2],
    pub turn_total: u8,
    pub to_move: Player,
    pub turns: u8,
    pub rolling: bool,
    plies: u32,
}

/// A Pig action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PigAction {
    /// Roll the die (a chance node follows).
    Roll,
    /// Bank the turn total and pass the turn.
    Hold,
}

impl Pig {
    /// A position from its parts.
    pub fn at(score: [u8; 2], turn_total: u8, to_move: Player, turns: u8, rolling: bool) -> Self {
        Pig {
            score,
            turn_total,
            to_move,
            turns,
            rolling,
            plies: 0,
        }
    }

    /// The position's fields, as a dynamic-programming key.
    pub fn key(&self) -> (u8, u8, u8, usize, u8, bool) {
        (
            self.score[0],
            self.score[1],
            self.turn_total,
            self.to_move.index(),
            self.turns,
            self.rolling,
        )
    }

    fn end_turn(&mut self) {
        self.turn_total = 0;
        self.turns += 1;
        self.to_move = self.to_move.opponent();
    }
}

impl fmt::Display for Pig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.key())
    }
}

impl Game for Pig {
    type Action = PigAction;
    type Outcome = u8;
    type Rules = NoRules;
    const NAME: &'static str = "pig";

    toy_items!();

    fn new(_rules: &NoRules) -> Self {
        Pig::at([0, 0], 0, Player::ONE, 0, false)
    }
    fn facts(_rules: &NoRules) -> GameFacts {
        GameFacts {
            has_chance: true,
            chance_chain: ChanceChain::Bounded(1),
            ply_cap: None,
            ends_without_cap: true,
            history_free: true,
            max_points: 1,
        }
    }
    fn to_act(&self) -> ToAct {
        for p in Player::BOTH {
            if self.score[p.index()] >= PIG_TARGET {
                return ToAct::Terminal(EndReason::Win(p));
            }
        }
        if self.turns >= PIG_TURN_CAP {
            ToAct::Terminal(EndReason::Truncated)
        } else if self.rolling {
            ToAct::Chance
        } else {
            ToAct::Decision(self.to_move)
        }
    }
    fn legal_actions(&self, buf: &mut Vec<PigAction>) {
        buf.clear();
        if let ToAct::Decision(_) = self.to_act() {
            buf.extend([PigAction::Roll, PigAction::Hold]);
        }
    }
    fn play_unchecked(&mut self, action: PigAction) {
        match action {
            PigAction::Roll => self.rolling = true,
            PigAction::Hold => {
                self.score[self.to_move.index()] += self.turn_total;
                self.end_turn();
            }
        }
        self.plies += 1;
    }
    fn chance_outcomes(&self, buf: &mut Vec<(u8, f64)>) {
        buf.clear();
        if self.to_act() == ToAct::Chance {
            buf.extend((1..=PIG_FACES).map(|f| (f, 1.0 / f64::from(PIG_FACES))));
        }
    }
    fn apply_outcome(&mut self, face: u8) {
        self.rolling = false;
        if face == 1 {
            self.end_turn();
        } else {
            self.turn_total += face;
            let me = self.to_move.index();
            if self.score[me] + self.turn_total >= PIG_TARGET {
                self.score[me] += self.turn_total;
                self.turn_total = 0;
            }
        }
    }
    fn returns(&self) -> [f64; 2] {
        match self.to_act() {
            ToAct::Terminal(EndReason::Win(p)) => {
                let mut r = [-1.0; 2];
                r[p.index()] = 1.0;
                r
            }
            _ => [0.0; 2],
        }
    }
    fn hash(&self) -> u64 {
        let (a, b, c, d, e, f) = self.key();
        let packed = u64::from(a)
            | u64::from(b) << 8
            | u64::from(c) << 16
            | (d as u64) << 24
            | u64::from(e) << 32
            | u64::from(f) << 40;
        packed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5151
    }
}

impl Evaluate for Pig {
    /// Banked score plus turn total, difference over twice the target, times 0.9: in
    /// `[-0.9, 0.9]`.
    fn evaluate(&self, player: Player) -> f64 {
        if let ToAct::Terminal(_) = self.to_act() {
            return self.returns()[player.index()];
        }
        let mut mine = [f64::from(self.score[0]), f64::from(self.score[1])];
        mine[self.to_move.index()] += f64::from(self.turn_total);
        let d = (mine[player.index()] - mine[player.opponent().index()])
            / (2.0 * f64::from(PIG_TARGET));
        0.9 * d.clamp(-1.0, 1.0)
    }
}

/// The exact value of a Pig position for player one, by dynamic programming over the game graph
/// (memoised on the position's fields; the graph is acyclic: every action raises the turn total
/// or the turn count).
pub fn pig_value(state: &Pig, memo: &mut HashMap<(u8, u8, u8, usize, u8, bool), f64>) -> f64 {
    if let Some(&v) = memo.get(&state.key()) {
        return v;
    }
    let v = match state.to_act() {
        ToAct::Terminal(_) => state.returns()[0],
        ToAct::Chance => (1..=PIG_FACES)
            .map(|f| {
                let mut s = state.clone();
                s.apply_outcome(f);
                pig_value(&s, memo) / f64::from(PIG_FACES)
            })
            .sum(),
        ToAct::Decision(p) => {
            let sign = if p == Player::ONE { 1.0 } else { -1.0 };
            [PigAction::Roll, PigAction::Hold]
                .iter()
                .map(|&a| {
                    let mut s = state.clone();
                    s.play_unchecked(a);
                    sign * pig_value(&s, memo)
                })
                .fold(f64::NEG_INFINITY, f64::max)
                * sign
        }
    };
    memo.insert(state.key(), v);
    v
}

// ---------------------------------------------------------------------------------------------
// Nim with an extra move.

/// Nim with one pile: take 1 or 2 stones; taking the last stone wins. Taking a single stone
/// from an even pile earns an extra move: the same player moves again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtraNim {
    pub pile: u8,
    pub to_move: Player,
    last: Player,
    plies: u32,
}

impl ExtraNim {
    /// A pile of `pile` stones with `to_move` to move.
    pub fn at(pile: u8, to_move: Player) -> Self {
        ExtraNim {
            pile,
            to_move,
            last: to_move.opponent(),
            plies: 0,
        }
    }
}

impl fmt::Display for ExtraNim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} stones, {} to move", self.pile, self.to_move)
    }
}

impl Game for ExtraNim {
    type Action = u8;
    type Outcome = Infallible;
    type Rules = NoRules;
    const NAME: &'static str = "extranim";

    toy_items!();

    fn new(_rules: &NoRules) -> Self {
        ExtraNim::at(10, Player::ONE)
    }
    fn facts(_rules: &NoRules) -> GameFacts {
        GameFacts {
            has_chance: false,
            chance_chain: ChanceChain::Bounded(0),
            ply_cap: None,
            ends_without_cap: true,
            history_free: true,
            max_points: 1,
        }
    }
    fn to_act(&self) -> ToAct {
        if self.pile == 0 {
            ToAct::Terminal(EndReason::Win(self.last))
        } else {
            ToAct::Decision(self.to_move)
        }
    }
    fn legal_actions(&self, buf: &mut Vec<u8>) {
        buf.clear();
        buf.extend((1..=2).filter(|&k| k <= self.pile));
    }
    fn play_unchecked(&mut self, take: u8) {
        let extra = take == 1 && self.pile.is_multiple_of(2);
        self.pile -= take;
        self.last = self.to_move;
        if !extra {
            self.to_move = self.to_move.opponent();
        }
        self.plies += 1;
    }
    fn chance_outcomes(&self, buf: &mut Vec<(Infallible, f64)>) {
        buf.clear();
    }
    fn apply_outcome(&mut self, outcome: Infallible) {
        match outcome {}
    }
    fn returns(&self) -> [f64; 2] {
        match self.to_act() {
            ToAct::Terminal(EndReason::Win(p)) => {
                let mut r = [-1.0; 2];
                r[p.index()] = 1.0;
                r
            }
            _ => [0.0; 2],
        }
    }
    fn hash(&self) -> u64 {
        (u64::from(self.pile) << 1 | self.to_move.index() as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl Evaluate for ExtraNim {
    fn evaluate(&self, player: Player) -> f64 {
        match self.to_act() {
            ToAct::Terminal(_) => self.returns()[player.index()],
            _ => 0.0,
        }
    }
}

/// The value of a pile for the player to move (+1 a win, -1 a loss), by dynamic programming on
/// the pile size: a move to an empty pile wins; after an extra move the same player's value
/// carries over, otherwise the opponent's value is negated.
pub fn extranim_value(pile: u8) -> f64 {
    let mut v = vec![0.0f64; usize::from(pile) + 1];
    for n in 1..=usize::from(pile) {
        let mut best = f64::NEG_INFINITY;
        for take in 1..=2usize.min(n) {
            let rest = n - take;
            let value = if rest == 0 {
                1.0
            } else if take == 1 && n.is_multiple_of(2) {
                v[rest]
            } else {
                -v[rest]
            };
            best = best.max(value);
        }
        v[n] = best;
    }
    v[usize::from(pile)]
}

// ---------------------------------------------------------------------------------------------
// A dice race.

/// Squares from start to home.
pub const RACE_HOME: u8 = 5;
/// Tokens per player.
pub const RACE_TOKENS: usize = 3;

/// A one-die race: each player has [`RACE_TOKENS`] tokens on squares `0..=RACE_HOME`. A turn is
/// a throw of a three-sided die and one token moved forward by the throw (stopping at home). A
/// throw of 3 earns another throw after the move. The first player with every token home wins.
/// Every ply moves a token forward, so the game graph is acyclic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    pub tokens: [[u8; RACE_TOKENS]; 2],
    pub to_move: Player,
    /// The throw to play, or 0 before the throw (a chance node).
    pub throw: u8,
    plies: u32,
}

impl Race {
    /// A position from its parts (a chance node when `throw` is 0).
    pub fn at(tokens: [[u8; RACE_TOKENS]; 2], to_move: Player, throw: u8) -> Self {
        Race {
            tokens,
            to_move,
            throw,
            plies: 0,
        }
    }

    /// The position's fields, as a dynamic-programming key.
    pub fn key(&self) -> ([[u8; RACE_TOKENS]; 2], usize, u8) {
        (self.tokens, self.to_move.index(), self.throw)
    }

    fn pips(&self, p: Player) -> u32 {
        self.tokens[p.index()]
            .iter()
            .map(|&t| u32::from(RACE_HOME - t))
            .sum()
    }
}

impl fmt::Display for Race {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.key())
    }
}

impl Game for Race {
    /// The index of the token moved.
    type Action = u8;
    type Outcome = u8;
    type Rules = NoRules;
    const NAME: &'static str = "race";

    toy_items!();

    fn new(_rules: &NoRules) -> Self {
        Race::at([[0; RACE_TOKENS]; 2], Player::ONE, 0)
    }
    fn facts(_rules: &NoRules) -> GameFacts {
        GameFacts {
            has_chance: true,
            chance_chain: ChanceChain::Bounded(1),
            ply_cap: None,
            ends_without_cap: true,
            history_free: true,
            max_points: 1,
        }
    }
    fn to_act(&self) -> ToAct {
        for p in Player::BOTH {
            if self.pips(p) == 0 {
                return ToAct::Terminal(EndReason::Win(p));
            }
        }
        if self.throw == 0 {
            ToAct::Chance
        } else {
            ToAct::Decision(self.to_move)
        }
    }
    /// Tokens not home, one per distinct square (the lowest index), by index.
    fn legal_actions(&self, buf: &mut Vec<u8>) {
        buf.clear();
        if let ToAct::Decision(p) = self.to_act() {
            let mine = &self.tokens[p.index()];
            for (i, &t) in mine.iter().enumerate() {
                if t < RACE_HOME && !mine[..i].contains(&t) {
                    buf.push(i as u8);
                }
            }
        }
    }
    fn play_unchecked(&mut self, token: u8) {
        let t = &mut self.tokens[self.to_move.index()][usize::from(token)];
        *t = (*t + self.throw).min(RACE_HOME);
        if self.throw != 3 {
            self.to_move = self.to_move.opponent();
        }
        self.throw = 0;
        self.plies += 1;
    }
    fn chance_outcomes(&self, buf: &mut Vec<(u8, f64)>) {
        buf.clear();
        if self.to_act() == ToAct::Chance {
            buf.extend((1..=3).map(|f| (f, 1.0 / 3.0)));
        }
    }
    fn apply_outcome(&mut self, face: u8) {
        self.throw = face;
    }
    fn returns(&self) -> [f64; 2] {
        match self.to_act() {
            ToAct::Terminal(EndReason::Win(p)) => {
                let mut r = [-1.0; 2];
                r[p.index()] = 1.0;
                r
            }
            _ => [0.0; 2],
        }
    }
    fn hash(&self) -> u64 {
        let mut h = self.to_move.index() as u64;
        for side in self.tokens {
            for t in side {
                h = h * 8 + u64::from(t);
            }
        }
        (h * 4 + u64::from(self.throw)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl Evaluate for Race {
    /// The difference of pips still to go over the most a player can have, times 0.9, plus the
    /// throw in hand for the player to move: in `[-0.9, 0.9]` since a live game has pips left on
    /// both sides.
    fn evaluate(&self, player: Player) -> f64 {
        if let ToAct::Terminal(_) = self.to_act() {
            return self.returns()[player.index()];
        }
        let total = f64::from(RACE_HOME) * RACE_TOKENS as f64;
        let mut pips = [
            f64::from(self.pips(Player::ONE)),
            f64::from(self.pips(Player::TWO)),
        ];
        pips[self.to_move.index()] -= f64::from(self.throw).min(pips[self.to_move.index()] - 1.0);
        let d = (pips[player.opponent().index()] - pips[player.index()]) / total;
        0.9 * d.clamp(-1.0, 1.0)
    }
}

/// The exact value of a race position for player one, by dynamic programming over the game
/// graph (memoised on the position's fields; acyclic).
pub fn race_value(
    state: &Race,
    memo: &mut HashMap<([[u8; RACE_TOKENS]; 2], usize, u8), f64>,
) -> f64 {
    if let Some(&v) = memo.get(&state.key()) {
        return v;
    }
    let v = match state.to_act() {
        ToAct::Terminal(_) => state.returns()[0],
        ToAct::Chance => (1..=3u8)
            .map(|f| {
                let mut s = state.clone();
                s.apply_outcome(f);
                race_value(&s, memo) / 3.0
            })
            .sum(),
        ToAct::Decision(p) => {
            let sign = if p == Player::ONE { 1.0 } else { -1.0 };
            let mut moves = Vec::new();
            state.legal_actions(&mut moves);
            moves
                .iter()
                .map(|&a| {
                    let mut s = state.clone();
                    s.play_unchecked(a);
                    sign * race_value(&s, memo)
                })
                .fold(f64::NEG_INFINITY, f64::max)
                * sign
        }
    };
    memo.insert(state.key(), v);
    v
}
