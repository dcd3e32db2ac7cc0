//! Frangieh, the Levantine form of backgammon (Syria, Lebanon, Jordan, Egypt), as described by
//! Barakat 1974 (R. Barakat, *Tawula: A Study in Arabic Folklore*, pp. 12-16), as the Digital
//! Ludeme Project records it (DLP.Evidence.1769; clauses §1769.1 to §1769.10 in
//! docs/sources.md). `docs/rules/frangieh.md` states the rules as implemented, every point where
//! the source is silent, and the options.
//!
//! Built on the shared tables engine ([`crate::games::tables`]): a position is a tables
//! [`Board`], the player to act and the phase (opening roll, roll, play with known dice, over).
//! An action is a whole play ([`FrangiehAction`]); the legal actions are the distinct resulting
//! positions, in the generator's order ([`crate::games::tables::generate_plays`]).
//!
//! # Position notation
//! `<player 1>/<player 2> <turn> <phase> <plies>`. Each player's part lists its occupied slots
//! in its own numbering from the bar down, `slot:count` separated by commas, with `bar` and
//! `off` as slot names. `<turn>` is `1` or `2` (the player to act, or the winner once over).
//! `<phase>` is `opening` (the opening roll is due), `roll` (the turn player's roll is due),
//! the dice to play larger first (`6-1`, `3-3`), or `over`. `<plies>` counts decision plies.
//! The start: `24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 1 opening 0`.
//!
//! # Actions and outcomes
//! Plays are written as GNU Backgammon writes them (`24/18 13/11`, `bar/22*`, `6/off`,
//! `8/2(2)`) in the mover's numbering, `pass` when the roll cannot be played. Outcomes: a roll
//! `6-1`; the opening `opening 5-3` (player one's die, then player two's).

mod notation;
mod rules;

pub use rules::{FrangiehRules, MustUse, Opening, Scoring};

use crate::game::{ChanceChain, ChanceNode, EndReason, Game, GameFacts, ParseError, Player, ToAct};
use crate::games::tables::{self, generate_plays, Board, Play, Roll, TablesParams, ROLLS};
use crate::zobrist;

/// One Frangieh action: a whole play for the roll (see [`Play`]).
pub type FrangiehAction = Play;

/// A chance outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrangiehOutcome {
    /// The opening: player one's die and player two's die, never equal (a tie is re-rolled).
    Opening {
        /// Player one's die.
        p1: u8,
        /// Player two's die.
        p2: u8,
    },
    /// A roll of two dice by the player to move.
    Roll(Roll),
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The opening roll is due (chance).
    Opening,
    /// The turn player's roll is due (chance).
    Roll,
    /// The turn player plays this roll (decision).
    Play(Roll),
    /// A player has borne off all fifteen checkers.
    Over,
}

/// The 21 rolls with their probabilities (1/36 for a double, 1/18 otherwise), in [`ROLLS`]
/// order.
const ROLL_OUTCOMES: [(FrangiehOutcome, f64); 21] = {
    let mut out = [(FrangiehOutcome::Roll(Roll(1, 1)), 0.0); 21];
    let mut i = 0;
    while i < 21 {
        let r = ROLLS[i];
        let p = if r.0 == r.1 { 1.0 / 36.0 } else { 1.0 / 18.0 };
        out[i] = (FrangiehOutcome::Roll(r), p);
        i += 1;
    }
    out
};

// Zobrist keys: player two to act, then the phases (opening, roll, 21 rolls to play, over).
const KEYS: [u64; 25] = zobrist::keys(0xF2A7_61E4_u64);
const TURN_KEY: usize = 0;
const PHASE_KEY: usize = 1;

/// A Frangieh position with its rules: the game state. `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frangieh {
    rules: FrangiehRules,
    params: TablesParams,
    board: Board,
    to_move: Player,
    phase: Phase,
    plies: u32,
    /// The opening dice (player one's, player two's) once rolled in this game.
    opening: Option<(u8, u8)>,
    status: ToAct,
}

impl Frangieh {
    /// Builds a position from its parts, checking the board, and computes its status.
    ///
    /// # Errors
    /// A reason in words: wrong checker counts, a point held by both players, a finished board
    /// with a phase other than `over` or the reverse.
    pub fn from_parts(
        rules: FrangiehRules,
        board: Board,
        to_move: Player,
        phase: Phase,
        plies: u32,
    ) -> Result<Self, String> {
        let params = rules.tables();
        board.validate(params.direction)?;
        let done = [board.off(0) == 15, board.off(1) == 15];
        match (done, phase) {
            ([true, true], _) => return Err("both players have borne off".into()),
            ([false, false], Phase::Over) => return Err("phase over but nobody won".into()),
            ([false, false], _) => {}
            (_, Phase::Over) => {
                if !done[to_move.index()] {
                    return Err("once over, the turn is the winner's".into());
                }
            }
            _ => {
                return Err("a player has borne off all checkers but the phase is not over".into())
            }
        }
        let mut s = Frangieh {
            rules,
            params,
            board,
            to_move,
            phase,
            plies,
            opening: None,
            status: ToAct::Chance,
        };
        s.status = s.compute_status();
        Ok(s)
    }

    /// The position of a GNU Backgammon Position ID with player one on roll and `roll` to play.
    ///
    /// # Errors
    /// The reason, if the ID is malformed.
    pub fn from_position_id(id: &str, roll: Roll, rules: FrangiehRules) -> Result<Self, String> {
        let board = tables::decode_position_id(id)?;
        Frangieh::from_parts(rules, board, Player::ONE, Phase::Play(roll), 0)
    }

    /// The GNU Backgammon Position ID of the board with the turn player on roll.
    #[must_use]
    pub fn position_id(&self) -> String {
        tables::encode_position_id(&self.board, self.to_move.index())
    }

    /// The board (side 0 is player one).
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The player whose turn it is (the winner once over).
    #[must_use]
    pub fn side_to_move(&self) -> Player {
        self.to_move
    }

    /// The opening dice (player one's, player two's), once rolled in this game.
    #[must_use]
    pub fn opening_dice(&self) -> Option<(u8, u8)> {
        self.opening
    }

    /// The tables parameters of the rules.
    #[must_use]
    pub fn params(&self) -> &TablesParams {
        &self.params
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
            Phase::Roll => 1,
            Phase::Play(r) => 2 + tables::roll_index(r),
            Phase::Over => 23,
        };
        turn ^ KEYS[PHASE_KEY + phase]
    }

    /// Points the winner scores: 1, or under `scoring=gammons` 2 for a gammon (the loser has
    /// borne off nothing) and 3 for a backgammon (besides, a loser's checker on the bar or in
    /// the winner's home board). 0 if nobody has won.
    #[must_use]
    pub fn points(&self) -> u32 {
        let ToAct::Terminal(EndReason::Win(w)) = self.status else {
            return 0;
        };
        if self.rules.scoring == Scoring::Single {
            return 1;
        }
        let l = w.opponent().index();
        if self.board.off(l) > 0 {
            return 1;
        }
        // The winner's home board is the loser's points 19 to 24.
        let trapped = self.board.bar(l) > 0 || (19..25).any(|p| self.board.count(l, p) > 0);
        if trapped {
            3
        } else {
            2
        }
    }

    /// Which win this was: `single`, `gammon` or `backgammon` (empty if none).
    #[must_use]
    pub fn win_type(&self) -> &'static str {
        match (self.status, self.rules.scoring, self.points()) {
            (ToAct::Terminal(EndReason::Win(_)), Scoring::Gammons, 3) => "backgammon",
            (ToAct::Terminal(EndReason::Win(_)), Scoring::Gammons, 2) => "gammon",
            (ToAct::Terminal(EndReason::Win(_)), _, _) => "single",
            _ => "",
        }
    }

    fn compute_status(&self) -> ToAct {
        if self.phase == Phase::Over {
            // Barakat 1974 [1769.10]: "the first player to remove all of their pieces wins".
            return ToAct::Terminal(EndReason::Win(self.to_move));
        }
        if let Some(cap) = self.rules.ply_cap {
            if self.plies >= cap {
                return ToAct::Terminal(EndReason::Truncated);
            }
        }
        match self.phase {
            Phase::Play(_) => ToAct::Decision(self.to_move),
            _ => ToAct::Chance,
        }
    }
}

impl Game for Frangieh {
    type Action = FrangiehAction;
    type Outcome = FrangiehOutcome;
    type Rules = FrangiehRules;

    const NAME: &'static str = "frangieh";

    fn new(rules: &FrangiehRules) -> Self {
        // Without an opening roll, player one rolls first (Ludii 1.3.12's Frangieh.lud).
        let phase = match rules.opening {
            Opening::None => Phase::Roll,
            Opening::RollAgain | Opening::Modern => Phase::Opening,
        };
        Frangieh::from_parts(*rules, Board::start(&rules.tables()), Player::ONE, phase, 0)
            .expect("the start position is valid")
    }

    fn rules(&self) -> &FrangiehRules {
        &self.rules
    }

    fn facts(rules: &FrangiehRules) -> GameFacts {
        GameFacts {
            has_chance: true,
            // The opening roll, then under the source's opening a fresh roll of two dice; every
            // other roll is played (or passed) at once.
            chance_chain: ChanceChain::Bounded(match rules.opening {
                Opening::RollAgain => 2,
                Opening::Modern | Opening::None => 1,
            }),
            ply_cap: rules.ply_cap,
            // Every play moves checkers forward; hits send them back, but a game ends with
            // probability one (positions may repeat, but no player can be forced to cycle for
            // ever).
            ends_without_cap: true,
            history_free: true,
            max_points: match rules.scoring {
                Scoring::Single => 1,
                Scoring::Gammons => 3,
            },
        }
    }

    #[inline]
    fn to_act(&self) -> ToAct {
        self.status
    }

    fn legal_actions(&self, buf: &mut Vec<Play>) {
        match (self.status, self.phase) {
            (ToAct::Decision(p), Phase::Play(roll)) => {
                generate_plays(&self.board, p.index(), roll, &self.params, buf);
            }
            _ => buf.clear(),
        }
    }

    fn play_unchecked(&mut self, action: Play) {
        let me = self.to_move.index();
        action.apply(&mut self.board, me, &self.params);
        self.plies += 1;
        if self.board.off(me) == 15 {
            self.phase = Phase::Over;
        } else {
            self.to_move = self.to_move.opponent();
            self.phase = Phase::Roll;
        }
        self.status = self.compute_status();
    }

    fn chance_outcomes(&self, buf: &mut Vec<(FrangiehOutcome, f64)>) {
        buf.clear();
        if self.status != ToAct::Chance {
            return;
        }
        match self.phase {
            Phase::Opening => {
                // Ties are re-rolled (the source is silent; universal practice), so the opening
                // is the conditional distribution given no tie: each of the 30 ordered pairs of
                // different dice with probability 1/30.
                for p1 in 1..=6 {
                    for p2 in 1..=6 {
                        if p1 != p2 {
                            buf.push((FrangiehOutcome::Opening { p1, p2 }, 1.0 / 30.0));
                        }
                    }
                }
            }
            _ => buf.extend_from_slice(&ROLL_OUTCOMES),
        }
    }

    fn apply_outcome(&mut self, outcome: FrangiehOutcome) {
        match outcome {
            FrangiehOutcome::Opening { p1, p2 } => {
                assert_eq!(self.phase, Phase::Opening, "not the opening");
                assert!(p1 != p2, "a tied opening is re-rolled");
                self.opening = Some((p1, p2));
                // Barakat 1974 [1769.3]: "the player who rolls the highest plays first".
                self.to_move = if p1 > p2 { Player::ONE } else { Player::TWO };
                self.phase = match self.rules.opening {
                    // Barakat 1974 [1769.3]: "... and then rolls again to begin play".
                    Opening::RollAgain | Opening::None => Phase::Roll,
                    Opening::Modern => Phase::Play(Roll::new(p1, p2)),
                };
            }
            FrangiehOutcome::Roll(r) => {
                assert_eq!(self.phase, Phase::Roll, "no roll is due");
                self.phase = Phase::Play(r);
            }
        }
        self.status = self.compute_status();
    }

    fn returns(&self) -> [f64; 2] {
        self.end_reason()
            .map_or([0.0; 2], |e| e.returns(self.points()))
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

    fn from_notation(text: &str, rules: &FrangiehRules) -> Result<Self, ParseError> {
        notation::parse_position(text, rules)
    }

    fn action_to_string(&self, action: Play) -> String {
        tables::format_play(&action, &self.board, self.to_move.index(), &self.params)
    }

    fn parse_action(&self, text: &str) -> Result<Play, ParseError> {
        tables::parse_play(text, &self.board, self.to_move.index(), &self.params).map_err(
            |reason| ParseError::Action {
                text: text.to_string(),
                reason,
            },
        )
    }

    fn chance_node(&self) -> ChanceNode {
        ChanceNode {
            game: 1,
            // The opening roll decides who starts; every other roll is the turn player's.
            thrower: (self.phase != Phase::Opening).then_some(self.to_move),
        }
    }

    fn outcome_to_string(&self, outcome: FrangiehOutcome) -> String {
        match outcome {
            FrangiehOutcome::Opening { p1, p2 } => format!("opening {p1}-{p2}"),
            FrangiehOutcome::Roll(r) => format!("{}-{}", r.0, r.1),
        }
    }
}
