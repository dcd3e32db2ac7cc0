//! Julbahar, a Syrian and Egyptian tables game without hitting, played as a match to 31, as
//! described by Barakat 1974 (R. Barakat, *Tawula: A Study in Arabic Folklore*, p. 21), as the
//! Digital Ludeme Project records it (DLP.Evidence.1773; clauses §1773.1 to §1773.10 in
//! docs/sources.md). `docs/rules/julbahar.md` states the rules as implemented, the tracks, every
//! point where the source is silent, and the options.
//!
//! Built on the shared tables engine ([`crate::games::tables`]) with [`Landing::Block`], early
//! exact bear-off and all fifteen checkers on each side's first point; what differs from
//! Frangieh is only data ([`JulbaharRules::tables`]).
//!
//! # The state is the match
//! One [`Julbahar`] value is a whole match (under `unit=match`, the default): the board of the
//! game in progress, both totals, the game number, who started it, and a log of the games
//! played ([`Julbahar::game_log`]). [`Game::plies`] counts the decision plies of the whole
//! match. Under `unit=game` the state ends with the first game.
//!
//! # Track numbering
//! Internally each side's points are numbered as in the tables module: the first point of its
//! track is its 24-point, the last its 1-point, and bearing off goes below 1. The rules document
//! numbers each track from its start, as the source counts points (§1773.1: the first point,
//! where all fifteen start, is 1): track point `t` is tables point `25 - t`.
//!
//! # Position notation
//! `<player 1>/<player 2> <turn> <phase> <plies> <score 1>-<score 2> <game> <starter>
//! <game points 1>-<game points 2> <game plies> <game turns> <last>`. The board and `<turn>`
//! are as in Frangieh (slots in the tables numbering, `off` for borne off). `<phase>`:
//! `opening` (the opening throw is due), `opening:6-5` (the throw's winner, the turn player,
//! moves the opponent's checkers by 6-5), `roll`, dice to play (`6-5`) or `over`. `<plies>`
//! counts the unit's decision plies; `<game>` is the game number (from 1); `<starter>` the
//! seat that moved first in it (`0` before the opening throw); then the points each player
//! scored in this game, its decision plies and turns, and the seat that made the last decision
//! of this game (`0` if none). The start: `24:15/24:15 1 opening 0 0-0 1 0 0-0 0 0 0`.
//! The game log is not part of the notation.
//!
//! # Actions and outcomes
//! A whole play, written as GNU Backgammon writes plays (`24/18 24/20`, `3/off`, `pass`), in
//! the tables numbering of the side whose checkers move (the opponent's, for the opening
//! move). Outcomes: a roll `6-1`; the opening throw `opening p2 6-6` (its winner and the throw
//! the winner moves the opponent's checkers by).

mod notation;
mod rules;

pub use rules::{
    AfterOpening, Bonus, EarlyBearOff, JulbaharRules, NextGame, Opening, Unit, DEFAULT_PLY_CAP,
};

use crate::game::{ChanceChain, ChanceNode, EndReason, Game, GameFacts, ParseError, Player, ToAct};
use crate::games::tables::{
    self, generate_plays, playable_dice, Board, Landing, Play, Roll, TablesParams, ROLLS,
};
use crate::zobrist;

/// One Julbahar action: a whole play for the roll (see [`Play`]).
pub type JulbaharAction = Play;

/// A chance outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JulbaharOutcome {
    /// The opening throw, ties thrown again: its winner and the winner's throw, by which it
    /// moves the opponent's checkers. (The loser's throw only decides who wins, so it is summed
    /// over.)
    Opening {
        /// Who won the opening throw.
        winner: Player,
        /// The winner's throw.
        roll: Roll,
    },
    /// A roll of two dice by the player to move.
    Roll(Roll),
}

/// Where the match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The opening throw is due (chance).
    Opening,
    /// The opening throw's winner (the turn player) moves the opponent's checkers by this
    /// throw (decision).
    OpeningPlay(Roll),
    /// The turn player's roll is due (chance).
    Roll,
    /// The turn player plays this roll (decision).
    Play(Roll),
    /// The unit (match or game) is over; the turn player won it.
    Over,
}

/// One game of a match, for the per-game log (`subgames.csv`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameRecord {
    /// The game's number in the match, from 1.
    pub game: u32,
    /// Who made the game's first move (the opening throw's winner, moving the opponent's
    /// checkers; or the player who rolled first).
    pub first: Player,
    /// Who bore off all fifteen; `None` if the match ended during the game (a bonus reached the
    /// target, or the ply cap).
    pub bore_off: Option<Player>,
    /// Points each player scored during the game (bonuses included).
    pub points: [u32; 2],
    /// Decision plies of the game (passes included).
    pub plies: u32,
    /// Turns of the game: maximal stretches of consecutive decisions by one player.
    pub turns: u32,
}

/// The opening rank of a throw: a double beats any non-double and a higher double a lower one;
/// non-doubles compare by total (Barakat 1974 §1773.3: "The player who obtains the higher number goes
/// first, except when doubles are thrown, then the opponent must throw higher doubles").
#[must_use]
pub fn opening_rank(r: Roll) -> u8 {
    if r.is_double() {
        100 + r.0
    } else {
        r.0 + r.1
    }
}

/// The opening outcomes with their probabilities: for each winner and each throw `r` that can
/// win, `P(r) * P(the other throw ranks lower) / (1 - P(tie))`. Player one's outcomes first,
/// throws in [`ROLLS`] order.
fn opening_outcomes(buf: &mut Vec<(JulbaharOutcome, f64)>) {
    let tie: f64 = ROLLS
        .iter()
        .map(|&r| {
            let same: f64 = ROLLS
                .iter()
                .filter(|&&q| opening_rank(q) == opening_rank(r))
                .map(|q| q.probability())
                .sum();
            r.probability() * same
        })
        .sum();
    for winner in Player::BOTH {
        for &r in &ROLLS {
            let lower: f64 = ROLLS
                .iter()
                .filter(|&&q| opening_rank(q) < opening_rank(r))
                .map(|q| q.probability())
                .sum();
            if lower > 0.0 {
                let p = r.probability() * lower / (1.0 - tie);
                buf.push((JulbaharOutcome::Opening { winner, roll: r }, p));
            }
        }
    }
}

const ROLL_OUTCOMES: [(JulbaharOutcome, f64); 21] = {
    let mut out = [(JulbaharOutcome::Roll(Roll(1, 1)), 0.0); 21];
    let mut i = 0;
    while i < 21 {
        let r = ROLLS[i];
        let p = if r.0 == r.1 { 1.0 / 36.0 } else { 1.0 / 18.0 };
        out[i] = (JulbaharOutcome::Roll(r), p);
        i += 1;
    }
    out
};

/// Highest total a player can hold: the target (at most 200) plus at most 15.
const MAX_SCORE: usize = 256;
// Zobrist keys: player two to act; 46 phases (opening, 21 opening plays, roll, 21 plays, over,
// spare); starter (none, 1, 2); then each player's total.
const TURN_KEY: usize = 0;
const PHASE_KEY: usize = 1;
const STARTER_KEY: usize = PHASE_KEY + 46;
const SCORE_KEY: usize = STARTER_KEY + 3;
const KEYS: [u64; SCORE_KEY + 2 * MAX_SCORE] = zobrist::keys(0x7B_A4A8_u64);

/// A Julbahar match (or single game, under `unit=game`): the game state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Julbahar {
    rules: JulbaharRules,
    params: TablesParams,
    board: Board,
    to_move: Player,
    phase: Phase,
    plies: u32,
    scores: [u32; 2],
    game: u32,
    starter: Option<Player>,
    game_points: [u32; 2],
    game_plies: u32,
    game_turns: u32,
    last: Option<Player>,
    log: Vec<GameRecord>,
    status: ToAct,
}

/// The parts of a position, as read from or written to the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts {
    /// The board of the game in progress (side 0 is player one).
    pub board: Board,
    /// The turn player (the winner once over).
    pub to_move: Player,
    /// The phase.
    pub phase: Phase,
    /// Decision plies of the unit so far.
    pub plies: u32,
    /// Both totals.
    pub scores: [u32; 2],
    /// The game number, from 1.
    pub game: u32,
    /// Who moved first in this game, once known.
    pub starter: Option<Player>,
    /// Points scored in this game so far.
    pub game_points: [u32; 2],
    /// Decision plies of this game.
    pub game_plies: u32,
    /// Turns of this game.
    pub game_turns: u32,
    /// Who made this game's last decision.
    pub last: Option<Player>,
}

impl Julbahar {
    /// Builds a position from its parts, checking them, and computes its status.
    ///
    /// # Errors
    /// A reason in words: a bad board, a total beyond the limit, a finished board not marked
    /// over, an `over` phase that nothing justifies.
    pub fn from_parts(rules: JulbaharRules, p: Parts) -> Result<Self, String> {
        let params = rules.tables();
        p.board.validate(params.direction)?;
        if p.board.bar(0) + p.board.bar(1) > 0 {
            return Err("Julbahar has no bar: nothing is ever hit".into());
        }
        if p.scores
            .iter()
            .any(|&s| s as usize >= MAX_SCORE - 16 || s > rules.target + 15)
        {
            return Err("a total beyond the target plus 15".into());
        }
        if p.game == 0 {
            return Err("games are numbered from 1".into());
        }
        let done = [p.board.off(0) == 15, p.board.off(1) == 15];
        if done[0] && done[1] {
            return Err("both players have borne off".into());
        }
        let decided = p.scores[p.to_move.index()] >= rules.target || done[p.to_move.index()];
        match p.phase {
            Phase::Over if !decided => return Err("phase over but nobody has won".into()),
            Phase::Over => {}
            _ if done[0] || done[1] => {
                return Err("a player has borne off all checkers but the phase is not over".into())
            }
            _ if rules.unit == Unit::Match && p.scores.iter().any(|&s| s >= rules.target) => {
                return Err("a total has reached the target but the phase is not over".into())
            }
            _ => {}
        }
        let mut s = Julbahar {
            rules,
            params,
            board: p.board,
            to_move: p.to_move,
            phase: p.phase,
            plies: p.plies,
            scores: p.scores,
            game: p.game,
            starter: p.starter,
            game_points: p.game_points,
            game_plies: p.game_plies,
            game_turns: p.game_turns,
            last: p.last,
            log: Vec::new(),
            status: ToAct::Chance,
        };
        s.status = s.compute_status();
        Ok(s)
    }

    /// The parts of this position (the inverse of [`Julbahar::from_parts`], log aside).
    #[must_use]
    pub fn parts(&self) -> Parts {
        Parts {
            board: self.board,
            to_move: self.to_move,
            phase: self.phase,
            plies: self.plies,
            scores: self.scores,
            game: self.game,
            starter: self.starter,
            game_points: self.game_points,
            game_plies: self.game_plies,
            game_turns: self.game_turns,
            last: self.last,
        }
    }

    /// The board of the game in progress (side 0 is player one).
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The turn player (the winner once over).
    #[must_use]
    pub fn side_to_move(&self) -> Player {
        self.to_move
    }

    /// The side (0 or 1) whose checkers the decision at this node moves: the opponent of the
    /// turn player while the opening throw's winner moves the opponent's checkers, else the
    /// turn player.
    #[must_use]
    pub fn moving_side(&self) -> usize {
        match self.phase {
            Phase::OpeningPlay(_) => self.to_move.opponent().index(),
            _ => self.to_move.index(),
        }
    }

    /// Both totals.
    #[must_use]
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }

    /// The number of the game in progress (or the last game, once over), from 1.
    #[must_use]
    pub fn game_number(&self) -> u32 {
        self.game
    }

    /// The tables parameters of the rules.
    #[must_use]
    pub fn params(&self) -> &TablesParams {
        &self.params
    }

    /// The games of the unit so far, in order: each finished game, and once the unit is over
    /// the game it ended in if that game was not finished (a bonus reached the target, or the
    /// ply cap). The data of the runner's `subgames.csv`.
    #[must_use]
    pub fn game_log(&self) -> &[GameRecord] {
        &self.log
    }

    /// The hash recomputed from scratch, for checking the incremental one.
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        self.board.hash_from_scratch() ^ self.side_keys()
    }

    fn side_keys(&self) -> u64 {
        let turn = if self.to_move == Player::TWO {
            KEYS[TURN_KEY]
        } else {
            0
        };
        let phase = match self.phase {
            Phase::Opening => 0,
            Phase::OpeningPlay(r) => 1 + tables::roll_index(r),
            Phase::Roll => 22,
            Phase::Play(r) => 23 + tables::roll_index(r),
            Phase::Over => 44,
        };
        let starter = self.starter.map_or(0, |p| 1 + p.index());
        turn ^ KEYS[PHASE_KEY + phase]
            ^ KEYS[STARTER_KEY + starter]
            ^ KEYS[SCORE_KEY + self.scores[0] as usize]
            ^ KEYS[SCORE_KEY + MAX_SCORE + self.scores[1] as usize]
    }

    fn compute_status(&self) -> ToAct {
        if self.phase == Phase::Over {
            return ToAct::Terminal(EndReason::Win(self.to_move));
        }
        if let Some(cap) = self.rules.ply_cap {
            if self.plies >= cap {
                return ToAct::Terminal(EndReason::Truncated);
            }
        }
        match self.phase {
            Phase::OpeningPlay(_) | Phase::Play(_) => ToAct::Decision(self.to_move),
            _ => ToAct::Chance,
        }
    }

    fn record(&self, bore_off: Option<Player>) -> GameRecord {
        GameRecord {
            game: self.game,
            first: self.starter.unwrap_or(Player::ONE),
            bore_off,
            points: self.game_points,
            plies: self.game_plies,
            turns: self.game_turns,
        }
    }

    /// Credits `points` to `p`; returns whether the match is won by it.
    fn score(&mut self, p: Player, points: u32) -> bool {
        self.scores[p.index()] += points;
        self.game_points[p.index()] += points;
        self.rules.unit == Unit::Match && self.scores[p.index()] >= self.rules.target
    }

    fn end(&mut self, winner: Player, bore_off: Option<Player>) {
        self.log.push(self.record(bore_off));
        self.to_move = winner;
        self.phase = Phase::Over;
    }

    /// Sets up the next game after `winner` has borne off.
    fn next_game(&mut self, winner: Player) {
        self.log.push(self.record(Some(winner)));
        let previous_starter = self.starter.unwrap_or(Player::ONE);
        self.board = Board::start(&self.params);
        self.game += 1;
        self.game_points = [0; 2];
        self.game_plies = 0;
        self.game_turns = 0;
        self.last = None;
        let first = match self.rules.next_game {
            NextGame::Opening => None,
            NextGame::Loser => Some(winner.opponent()),
            NextGame::Alternate => Some(previous_starter.opponent()),
        };
        self.begin(first);
    }

    /// Starts a game: with `first` rolling first, or by the opening procedure.
    fn begin(&mut self, first: Option<Player>) {
        match (first, self.rules.opening) {
            (Some(p), _) => {
                self.to_move = p;
                self.starter = Some(p);
                self.phase = Phase::Roll;
            }
            (None, Opening::Throw) => {
                self.to_move = Player::ONE;
                self.starter = None;
                self.phase = Phase::Opening;
            }
            (None, Opening::None) => {
                self.to_move = Player::ONE;
                self.starter = Some(Player::ONE);
                self.phase = Phase::Roll;
            }
        }
    }
}

impl Game for Julbahar {
    type Action = JulbaharAction;
    type Outcome = JulbaharOutcome;
    type Rules = JulbaharRules;

    const NAME: &'static str = "julbahar";

    fn new(rules: &JulbaharRules) -> Self {
        let mut s = Julbahar::from_parts(
            *rules,
            Parts {
                board: Board::start(&rules.tables()),
                to_move: Player::ONE,
                phase: Phase::Roll,
                plies: 0,
                scores: [0; 2],
                game: 1,
                starter: None,
                game_points: [0; 2],
                game_plies: 0,
                game_turns: 0,
                last: None,
            },
        )
        .expect("the start position is valid");
        s.begin(None);
        s.status = s.compute_status();
        s
    }

    fn rules(&self) -> &JulbaharRules {
        &self.rules
    }

    fn facts(rules: &JulbaharRules) -> GameFacts {
        GameFacts {
            has_chance: true,
            // Every throw is played (or passed) at once: the opening throw, whose ties are
            // thrown again within one chance node, by its winner's move of the opponent's
            // checkers, every roll by its player.
            chance_chain: ChanceChain::Bounded(1),
            ply_cap: rules.ply_cap,
            // Nothing is hit, so checkers only advance; but two players each completely blocked
            // by the other's checkers would pass for ever (not shown impossible), hence the cap.
            ends_without_cap: false,
            history_free: true,
            max_points: 1,
        }
    }

    #[inline]
    fn to_act(&self) -> ToAct {
        self.status
    }

    fn legal_actions(&self, buf: &mut Vec<Play>) {
        match (self.status, self.phase) {
            (ToAct::Decision(_), Phase::Play(roll) | Phase::OpeningPlay(roll)) => {
                generate_plays(&self.board, self.moving_side(), roll, &self.params, buf);
            }
            _ => buf.clear(),
        }
    }

    fn play_unchecked(&mut self, action: Play) {
        debug_assert_eq!(self.params.landing, Landing::Block);
        let me = self.to_move;
        let side = self.moving_side();
        action.apply(&mut self.board, side, &self.params);
        self.plies += 1;
        self.game_plies += 1;
        if self.last != Some(me) {
            self.game_turns += 1;
            self.last = Some(me);
        }
        self.starter.get_or_insert(me);
        let opening = matches!(self.phase, Phase::OpeningPlay(_));
        if let (Phase::Play(roll), false) = (self.phase, opening) {
            if self.board.off(side) == 15 {
                // Barakat 1974 [1773]: "The winning player's score equals the number of the opponent's
                // pieces which are left on the board."
                let points = 15 - u32::from(self.board.off(me.opponent().index()));
                let won = self.score(me, points);
                if won || self.rules.unit == Unit::Game {
                    self.end(me, Some(me));
                } else {
                    self.next_game(me);
                }
                self.status = self.compute_status();
                self.truncate_log();
                return;
            }
            // Barakat 1974 [1773.9]: "whenever a player is unable to move and the opponent is able
            // to, the opponent gains five points." A pass leaves the board as it was, so the
            // player's own dice are read on the board after the play too.
            let dice = if roll.is_double() { 4 } else { 2 };
            let opp = me.opponent();
            let opp_dice = || playable_dice(&self.board, opp.index(), &self.params);
            let roll_dice = 1u8 << roll.0 | 1u8 << roll.1;
            let bonus = match self.rules.bonus {
                Bonus::Pass => action.is_pass() && opp_dice() != 0,
                Bonus::Blocked => {
                    action.is_pass()
                        && playable_dice(&self.board, side, &self.params) == 0
                        && opp_dice() != 0
                }
                Bonus::SameRoll => action.is_pass() && opp_dice() & roll_dice != 0,
                Bonus::Die => action.moves().len() < dice && opp_dice() != 0,
                Bonus::Off => false,
            };
            if bonus && self.score(opp, 5) {
                self.end(opp, None);
                self.status = self.compute_status();
                return;
            }
        }
        self.phase = Phase::Roll;
        let after_winner = opening && self.rules.after_opening == AfterOpening::Winner;
        if !after_winner {
            self.to_move = me.opponent();
        }
        self.status = self.compute_status();
        self.truncate_log();
    }

    fn chance_outcomes(&self, buf: &mut Vec<(JulbaharOutcome, f64)>) {
        buf.clear();
        if self.status != ToAct::Chance {
            return;
        }
        match self.phase {
            Phase::Opening => opening_outcomes(buf),
            _ => buf.extend_from_slice(&ROLL_OUTCOMES),
        }
    }

    fn apply_outcome(&mut self, outcome: JulbaharOutcome) {
        match outcome {
            JulbaharOutcome::Opening { winner, roll } => {
                assert_eq!(self.phase, Phase::Opening, "not the opening");
                self.to_move = winner;
                self.starter = Some(winner);
                self.phase = Phase::OpeningPlay(roll);
            }
            JulbaharOutcome::Roll(r) => {
                assert_eq!(self.phase, Phase::Roll, "no roll is due");
                self.phase = Phase::Play(r);
            }
        }
        self.status = self.compute_status();
    }

    fn returns(&self) -> [f64; 2] {
        // One point for the unit won: the match (or the single game under `unit=game`).
        self.end_reason().map_or([0.0; 2], |e| e.returns(1))
    }

    fn plies(&self) -> u32 {
        self.plies
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash() ^ self.side_keys()
    }

    fn notation(&self) -> String {
        notation::format_position(self)
    }

    fn from_notation(text: &str, rules: &JulbaharRules) -> Result<Self, ParseError> {
        notation::parse_position(text, rules)
    }

    fn action_to_string(&self, action: Play) -> String {
        tables::format_play(&action, &self.board, self.moving_side(), &self.params)
    }

    fn parse_action(&self, text: &str) -> Result<Play, ParseError> {
        tables::parse_play(text, &self.board, self.moving_side(), &self.params).map_err(|reason| {
            ParseError::Action {
                text: text.to_string(),
                reason,
            }
        })
    }

    fn chance_node(&self) -> ChanceNode {
        ChanceNode {
            game: self.game,
            // The opening throw decides who starts the game; every roll is the turn player's.
            thrower: (self.phase != Phase::Opening).then_some(self.to_move),
        }
    }

    fn outcome_to_string(&self, outcome: JulbaharOutcome) -> String {
        match outcome {
            JulbaharOutcome::Opening { winner, roll } => {
                format!("opening {winner} {}-{}", roll.0, roll.1)
            }
            JulbaharOutcome::Roll(r) => format!("{}-{}", r.0, r.1),
        }
    }
}

impl Julbahar {
    /// Once truncated by the ply cap, logs the unfinished game.
    fn truncate_log(&mut self) {
        if self.status == ToAct::Terminal(EndReason::Truncated)
            && self.game_plies > 0
            && self.log.last().map(|g| g.game) != Some(self.game)
        {
            self.log.push(self.record(None));
        }
    }
}
