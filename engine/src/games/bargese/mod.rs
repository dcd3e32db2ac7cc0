//! Bargese, the Syrian cowrie race game of the pachisi family, played by women in Aleppo
//! (bargese) and Damascus (barcese). Sources: Finkel 2002 (DLP.Evidence.1604: the DLP's
//! summary and Anna Tajeddin's first-hand description, Finkel 2002: 67-69) and the DLP's shorter
//! Bargese rules summary, clause by clause in `docs/sources.md`. `docs/rules/bargese.md` states the rules
//! as implemented, draws the board and lists every reading the texts leave open.
//!
//! Model: chance nodes for the opening's three-shell throws and for every throw of six cowries;
//! one decision node per turn (per throw under `timing=after-each`) whose actions are the
//! distinct positions the accumulated throws can reach. Player one sits in the south arm and
//! player two in the north arm; under the `shells` opening the three-shell throw decides who
//! throws first.

mod action;
mod board;
#[cfg(test)]
mod brute;
#[cfg(test)]
mod crosscheck;
mod dag;
mod direct;
mod lattice;
mod movegen;
mod notation;
mod ordered;
mod packing;
mod rules;
mod sequence;
mod step;
mod throws;
mod uses;

pub use action::BargeseAction;
pub use board::{
    coord, diagram, is_x, on_cross, opponent_indices, rotate180, rotate90, square_id, Coord,
    BANGE_ENTRY, BANGE_INNER, DODO, ENTRY, HOME_ROW_START, KITCHEN, NOT_ON_TRACK, OFF, OPP_TO_MINE,
    OUTER_END_HOME, OUTER_END_OUT, RING_LEN, SQUARE, TRACK, TRACK_LEN, X_BY_TRACK, X_ENTRY,
};
pub use movegen::MAX_COUNT;
pub use rules::{
    BangeSquare, BargeseRules, BesideSafe, EntryOnto, Hal, Leftover, MustUse, Opening,
    OpeningExtra, OuterEnd, Remainder, Timing, DEFAULT_PLY_CAP, P_MAX, P_MIN,
};
pub use step::is_homeward_safe;
pub use throws::{binomial, Throw, VALUES};

use crate::game::{ChanceChain, ChanceNode, EndReason, Game, GameFacts, ParseError, Player, ToAct};
use crate::zobrist;

/// A chance outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BargeseOutcome {
    /// The opening's throw of three shells: how many landed mouths up (`0..=3`).
    Shells(u8),
    /// A throw of the six cowries.
    Throw(Throw),
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Player one throws three shells (the `shells` opening).
    ShellsFirst,
    /// Player two throws three shells; player one threw this many mouths up.
    ShellsSecond(u8),
    /// Before anyone's first dust or bange: this player throws; only a dust or bange starts
    /// the game.
    Opening(Player),
    /// This player throws (again).
    Throwing(Player),
    /// This player plays the throws.
    Moving(Player),
    /// The game is over.
    Over(EndReason),
}

// Zobrist keys: pieces by (player, position code 0..=84, count 1..=4), 14 stage keys.
const PIECE_KEYS: [u64; 680] = zobrist::keys(0xBA26_E5E0_0001);
const STAGE_KEYS: [u64; 14] = zobrist::keys(0xBA26_E5E0_0002);
const THROW_SALT: u64 = 0xBA26_E5E0_0003;

fn throw_key(kind: usize, count: u16) -> u64 {
    if count == 0 {
        0
    } else {
        zobrist::splitmix64(THROW_SALT ^ ((kind as u64) << 16) ^ u64::from(count)).1
    }
}

fn stage_index(s: Stage) -> usize {
    match s {
        Stage::ShellsFirst => 0,
        Stage::ShellsSecond(n) => 1 + usize::from(n.min(3)),
        Stage::Opening(p) => 5 + p.index(),
        Stage::Throwing(p) => 7 + p.index(),
        Stage::Moving(p) => 9 + p.index(),
        Stage::Over(EndReason::Win(p)) => 11 + p.index(),
        Stage::Over(_) => 13,
    }
}

fn pieces_key(player: Player, pieces: [u8; 4]) -> u64 {
    // Pieces are sorted: one key per square, for the number of pieces on it. Computed without
    // branches: the last piece of each run of equal squares adds the key for the run's length.
    let mut h = 0;
    for i in 0..4 {
        let run = (0..=i).filter(|&j| pieces[j] == pieces[i]).count();
        let last = (i == 3) | (pieces[(i + 1).min(3)] != pieces[i]);
        let key = PIECE_KEYS[(player.index() * 85 + pieces[i] as usize) * 4 + (run - 1)];
        h ^= key & 0u64.wrapping_sub(u64::from(last));
    }
    h
}

/// [`binomial`] of six and of three shells at p = 1/2, for the hot path; the same numbers, since
/// halving is exact in floating point.
const FAIR_SIX: [f64; 7] = [
    1.0 / 64.0,
    6.0 / 64.0,
    15.0 / 64.0,
    20.0 / 64.0,
    15.0 / 64.0,
    6.0 / 64.0,
    1.0 / 64.0,
];
const FAIR_THREE: [f64; 4] = [1.0 / 8.0, 3.0 / 8.0, 3.0 / 8.0, 1.0 / 8.0];

/// The outcomes of a fair throw of six shells with their chances, as `chance_outcomes` lists
/// them: one copy for the hot path.
const FAIR_THROWS: [(BargeseOutcome, f64); 7] = {
    let mut out = [(BargeseOutcome::Shells(0), 0.0); 7];
    let mut k = 0;
    while k < 7 {
        out[k] = (
            BargeseOutcome::Throw(Throw::from_mouths(k as u8)),
            FAIR_SIX[k],
        );
        k += 1;
    }
    out
};

/// A Bargese position with its rules: the game state. Cheap to clone (no heap data).
#[derive(Clone, Debug, PartialEq)]
pub struct Bargese {
    rules: BargeseRules,
    pieces: [[u8; 4]; 2],
    stage: Stage,
    throws: [u16; 7],
    plies: u32,
    hash: u64,
    shells_winner: Option<Player>,
    first_entered: Option<Player>,
    hammerings: [u32; 2],
}

impl Bargese {
    /// A player's pieces: ascending position codes (track index, [`KITCHEN`], [`OFF`]).
    #[must_use]
    pub fn pieces(&self, player: Player) -> [u8; 4] {
        self.pieces[player.index()]
    }

    /// Where the game stands.
    #[must_use]
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The throws of the current turn not yet played, counted by mouths up.
    #[must_use]
    pub fn throws(&self) -> [u16; 7] {
        self.throws
    }

    /// Who won the opening's three-shell throw, if it has been decided.
    #[must_use]
    pub fn shells_winner(&self) -> Option<Player> {
        self.shells_winner
    }

    /// The player who starts by the rules: Tajeddin (Finkel 2002) has the player with more
    /// mouths up in the three-shell throw start the throwing; under `opening=alternate` player
    /// one starts it; under `opening=none` nobody throws before the first turn, and `None` says
    /// that the player at the first decision node starts. The shells' winner decides nothing
    /// until some throw lets a player enter, so this is not always the first player to decide.
    #[must_use]
    pub fn starter(&self) -> Option<Player> {
        match self.rules.opening {
            Opening::Alternate => Some(Player::ONE),
            Opening::Shells | Opening::None => self.shells_winner,
        }
    }

    /// Who first entered a piece, if anyone has.
    #[must_use]
    pub fn first_entered(&self) -> Option<Player> {
        self.first_entered
    }

    /// How many opposing pieces `player` has hammered.
    #[must_use]
    pub fn hammerings(&self, player: Player) -> u32 {
        self.hammerings[player.index()]
    }

    /// How many of `player`'s pieces are in the kitchen.
    #[must_use]
    pub fn in_kitchen(&self, player: Player) -> usize {
        self.pieces[player.index()]
            .iter()
            .filter(|&&p| p == KITCHEN)
            .count()
    }

    /// The hash recomputed from the position, for checking the incremental one.
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = STAGE_KEYS[stage_index(self.stage)];
        for p in Player::BOTH {
            h ^= pieces_key(p, self.pieces[p.index()]);
        }
        for (k, &c) in self.throws.iter().enumerate() {
            h ^= throw_key(k, c);
        }
        h
    }

    /// Builds a position from its parts, checking them, with the hash computed.
    ///
    /// # Errors
    /// A reason in words if a piece code is out of range or the pieces are not in ascending
    /// order, a count exceeds [`MAX_COUNT`], or the stage is malformed.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        rules: BargeseRules,
        pieces: [[u8; 4]; 2],
        stage: Stage,
        throws: [u16; 7],
        plies: u32,
        shells_winner: Option<Player>,
        first_entered: Option<Player>,
        hammerings: [u32; 2],
    ) -> Result<Self, String> {
        for side in &pieces {
            if side.iter().any(|&p| p > OFF) {
                return Err("a piece code beyond 84".into());
            }
            if side.windows(2).any(|w| w[0] > w[1]) {
                return Err("pieces not in ascending order".into());
            }
        }
        if throws.iter().any(|&c| c > MAX_COUNT) {
            return Err(format!("more than {MAX_COUNT} throws of one kind"));
        }
        if let Stage::ShellsSecond(n) = stage {
            if n > 3 {
                return Err("more than three shells mouths up".into());
            }
        }
        let mut s = Bargese {
            rules,
            pieces,
            stage,
            throws,
            plies,
            hash: 0,
            shells_winner,
            first_entered,
            hammerings,
        };
        s.hash = s.hash_from_scratch();
        Ok(s)
    }

    fn set_stage(&mut self, stage: Stage) {
        self.hash ^= STAGE_KEYS[stage_index(self.stage)] ^ STAGE_KEYS[stage_index(stage)];
        self.stage = stage;
    }

    fn add_throw(&mut self, t: Throw) {
        let k = t as usize;
        let c = self.throws[k];
        if c < MAX_COUNT {
            self.hash ^= throw_key(k, c) ^ throw_key(k, c + 1);
            self.throws[k] = c + 1;
        }
    }

    /// Puts one of `p`'s pieces, all off the board, on track index `square`.
    fn place_first(&mut self, p: Player, square: u8) {
        let old = self.pieces[p.index()];
        let new = packing::sort4([square, old[1], old[2], old[3]]);
        self.hash ^= pieces_key(p, old) ^ pieces_key(p, new);
        self.pieces[p.index()] = new;
        self.first_entered.get_or_insert(p);
    }

    fn clear_throws(&mut self) {
        for k in 0..7 {
            self.hash ^= throw_key(k, self.throws[k]);
            self.throws[k] = 0;
        }
    }

    /// Whether the current throws include one that grants no further throw (so the turn ends
    /// when they are played).
    fn has_final_throw(&self) -> bool {
        Throw::ALL
            .iter()
            .any(|t| !t.grants_another() && self.throws[*t as usize] > 0)
    }

    fn mouth_probabilities(&self, n: u32) -> impl Iterator<Item = (u32, f64)> + '_ {
        let p = self.rules.p;
        (0..=n).map(move |k| {
            let prob = match (n, p == 0.5) {
                (6, true) => FAIR_SIX[k as usize],
                (3, true) => FAIR_THREE[k as usize],
                _ => binomial(n, k, p),
            };
            (k, prob)
        })
    }
}

impl std::fmt::Display for Bargese {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&notation::format_position(self))
    }
}

impl Game for Bargese {
    type Action = BargeseAction;
    type Outcome = BargeseOutcome;
    type Rules = BargeseRules;

    const NAME: &'static str = "bargese";

    fn new(rules: &BargeseRules) -> Self {
        // Both sources: four pieces per player, all off the board at the start.
        let stage = match rules.opening {
            Opening::Shells => Stage::ShellsFirst,
            // [1604.6]: the players take turns throwing until one throws a dust or bange; the
            // summary does not say who throws first.
            Opening::Alternate => Stage::Opening(Player::ONE),
            Opening::None => Stage::Throwing(Player::ONE),
        };
        Bargese::from_parts(*rules, [[OFF; 4]; 2], stage, [0; 7], 0, None, None, [0, 0])
            .expect("the start position is valid")
    }

    fn rules(&self) -> &BargeseRules {
        &self.rules
    }

    fn facts(rules: &BargeseRules) -> GameFacts {
        GameFacts {
            has_chance: true,
            // The three-shell throw is repeated on ties, the opening throws pass to and fro
            // until a dust or bange; under `timing=throw-first` a throw that grants another is
            // followed by it. Without either, each throw is played as soon as it is thrown.
            chance_chain: if rules.opening != Opening::None || rules.timing == Timing::ThrowFirst {
                ChanceChain::Unbounded
            } else {
                ChanceChain::Bounded(1)
            },
            ply_cap: rules.ply_cap,
            // Hammering sends pieces back, so positions can recur; under `hal=strict` a piece
            // one short of the dodo is stranded for good.
            ends_without_cap: false,
            history_free: true,
            max_points: 1,
        }
    }

    #[inline]
    fn to_act(&self) -> ToAct {
        match self.stage {
            Stage::Moving(p) => ToAct::Decision(p),
            Stage::Over(r) => ToAct::Terminal(r),
            _ => ToAct::Chance,
        }
    }

    fn legal_actions(&self, buf: &mut Vec<BargeseAction>) {
        buf.clear();
        if let Stage::Moving(me) = self.stage {
            movegen::generate(
                me,
                self.pieces[me.index()],
                self.pieces[me.opponent().index()],
                &self.throws,
                &self.rules,
                buf,
            );
        }
    }

    fn play_unchecked(&mut self, action: BargeseAction) {
        let Stage::Moving(me) = self.stage else {
            panic!("play_unchecked at a node that is not a decision node");
        };
        let opp = me.opponent();
        let old_opp = self.pieces[opp.index()];
        let mut new_opp = old_opp;
        for (j, p) in new_opp.iter_mut().enumerate() {
            if action.hammered >> j & 1 == 1 {
                // Finkel 2002 [1604.8]: a hammered piece "must re-enter from the beginning".
                *p = OFF;
            }
        }
        let new_opp = packing::sort4(new_opp);
        self.hash ^= pieces_key(me, self.pieces[me.index()]) ^ pieces_key(me, action.pieces);
        if action.hammered != 0 {
            self.hash ^= pieces_key(opp, old_opp) ^ pieces_key(opp, new_opp);
        }
        self.pieces[me.index()] = action.pieces;
        self.pieces[opp.index()] = new_opp;
        self.hammerings[me.index()] += action.hammered.count_ones();
        if self.first_entered.is_none() && action.pieces.iter().any(|&p| p != OFF) {
            self.first_entered = Some(me);
        }
        self.plies += 1;
        // After a throw that grants another (`timing=after-each`), the same player throws again.
        let more = !self.has_final_throw();
        self.clear_throws();
        let next = if self.in_kitchen(me) == 4 {
            // Both sources: the first to bring all four pieces into the kitchen wins.
            Stage::Over(EndReason::Win(me))
        } else if self.rules.ply_cap.is_some_and(|cap| self.plies >= cap) {
            Stage::Over(EndReason::Truncated)
        } else {
            Stage::Throwing(if more { me } else { opp })
        };
        self.set_stage(next);
    }

    fn chance_outcomes(&self, buf: &mut Vec<(BargeseOutcome, f64)>) {
        buf.clear();
        match self.stage {
            Stage::ShellsFirst | Stage::ShellsSecond(_) => {
                // Tajeddin: "each player throws three dice".
                buf.extend(
                    self.mouth_probabilities(3)
                        .map(|(k, p)| (BargeseOutcome::Shells(k as u8), p)),
                );
            }
            Stage::Opening(_) | Stage::Throwing(_) if self.rules.p == 0.5 => {
                buf.extend_from_slice(&FAIR_THROWS);
            }
            Stage::Opening(_) | Stage::Throwing(_) => {
                buf.extend(
                    self.mouth_probabilities(6)
                        .map(|(k, p)| (BargeseOutcome::Throw(Throw::from_mouths(k as u8)), p)),
                );
            }
            Stage::Moving(_) | Stage::Over(_) => {}
        }
    }

    fn chance_node(&self) -> ChanceNode {
        ChanceNode {
            game: 1,
            // The three-shell throws decide who starts; a throw of six cowries, the opening's
            // included, is the throwing player's.
            thrower: match self.stage {
                Stage::Opening(p) | Stage::Throwing(p) | Stage::Moving(p) => Some(p),
                Stage::ShellsFirst | Stage::ShellsSecond(_) | Stage::Over(_) => None,
            },
        }
    }

    fn apply_outcome(&mut self, outcome: BargeseOutcome) {
        let after_each = self.rules.timing == Timing::AfterEach;
        match (self.stage, outcome) {
            (Stage::ShellsFirst, BargeseOutcome::Shells(n)) => {
                self.set_stage(Stage::ShellsSecond(n));
            }
            (Stage::ShellsSecond(a), BargeseOutcome::Shells(b)) => {
                // Tajeddin: "the one scoring more teeth plays first"; a tie throws again.
                if a == b {
                    self.set_stage(Stage::ShellsFirst);
                } else {
                    let first = if a > b { Player::ONE } else { Player::TWO };
                    self.shells_winner = Some(first);
                    self.set_stage(Stage::Opening(first));
                }
            }
            (Stage::Opening(p), BargeseOutcome::Throw(t)) => {
                let square = step::entry_square(
                    t as usize,
                    self.rules.bange_entry,
                    self.rules.bange_square.track_index(),
                );
                let placed = square.filter(|_| self.rules.opening_entry);
                if let Some(square) = placed {
                    // Tajeddin [1604.T5]: "if the initial throw was dust the player will place his
                    // first piece on the right-hand X square", after a bange on the / square. The
                    // placement is forced, so it is made as the throw falls (no decision, no
                    // ply); no opposing piece is on the board yet.
                    self.place_first(p, square);
                } else {
                    self.add_throw(t);
                }
                let nothing_to_play = self.throws.iter().all(|&c| c == 0);
                if t.has_hal() {
                    // Tajeddin: "until one player throws either a dust or bange. This player
                    // continues to throw until he throws a combination which does not entitle
                    // him to a further throw."
                    self.set_stage(if after_each && !nothing_to_play {
                        Stage::Moving(p)
                    } else {
                        Stage::Throwing(p)
                    });
                } else if t.grants_another() && self.rules.opening_extra == OpeningExtra::Keep {
                    self.set_stage(Stage::Opening(p));
                } else {
                    self.clear_throws();
                    self.set_stage(Stage::Opening(p.opponent()));
                }
            }
            (Stage::Throwing(p), BargeseOutcome::Throw(t)) => {
                self.add_throw(t);
                if after_each || !t.grants_another() {
                    self.set_stage(Stage::Moving(p));
                }
            }
            (stage, o) => panic!("outcome {o:?} at stage {stage:?}"),
        }
    }

    fn returns(&self) -> [f64; 2] {
        // Finkel 2002 [1604.T12]: the first player with all four pieces in the kitchen wins.
        self.end_reason().map_or([0.0; 2], |e| e.returns(1))
    }

    #[inline]
    fn plies(&self) -> u32 {
        self.plies
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn notation(&self) -> String {
        notation::format_position(self)
    }

    fn from_notation(text: &str, rules: &BargeseRules) -> Result<Self, ParseError> {
        notation::parse_position(text, rules)
    }

    fn action_to_string(&self, action: BargeseAction) -> String {
        notation::format_action(self, action)
    }

    fn parse_action(&self, text: &str) -> Result<BargeseAction, ParseError> {
        notation::parse_action(self, text)
    }

    fn outcome_to_string(&self, outcome: BargeseOutcome) -> String {
        match outcome {
            BargeseOutcome::Shells(n) => format!("shells:{n}"),
            BargeseOutcome::Throw(t) => t.name().to_string(),
        }
    }
}

#[cfg(test)]
mod tests;
