//! Baghchal ("the tiger moving game", Nepal): four tigers against twenty goats on a 5x5
//! alquerque grid. Sources: Parlett 1976 (DLP.Evidence.755) and
//! Averbakh 1995 (DLP.Evidence.1453), clause by clause in `docs/sources.md`. `docs/rules/baghchal.md` states the rules as implemented.
//!
//! Player one ([`GOATS`]) moves first: Parlett, "the goat-player moves first and turns
//! alternate".

mod board;
mod movegen;
mod notation;
mod playout;
mod rules;
mod window;

pub use board::{parse_point, point_name, Bitboard, JUMPS, STEPS};
pub use rules::{BaghchalRules, GoatsBlocked, Repetition, DEFAULT_PLY_CAP};

use crate::game::{ChanceChain, EndReason, Game, GameFacts, ParseError, Player, ToAct};
use crate::zobrist;

/// The goat player: player one, who moves first.
pub const GOATS: Player = Player::ONE;
/// The tiger player: player two.
pub const TIGERS: Player = Player::TWO;

/// Goats the goat player starts with, all in hand (both sources: twenty goats).
pub const TOTAL_GOATS: u8 = 20;

/// One Baghchal action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BaghchalAction {
    /// Placement phase: a goat from hand onto an empty point. Parlett: "the goat-player places a
    /// goat on any unoccupied point"; Averbakh: goats "are entered one at a time".
    Place(u8),
    /// A goat or tiger moves to an adjacent empty point along a line (both sources).
    Step {
        /// From point.
        from: u8,
        /// To point.
        to: u8,
    },
    /// A tiger jumps the goat on the adjacent point and lands on the empty point right behind
    /// it on the same line; the goat is captured (both sources; one jump per turn, Parlett).
    Jump {
        /// From point.
        from: u8,
        /// Landing point; the captured goat stood half-way.
        to: u8,
    },
    /// The goats pass: only under `goats-blocked=pass`, when they have no move.
    Pass,
}

impl BaghchalAction {
    /// The point of the goat a jump captures.
    #[must_use]
    pub const fn captured_point(from: u8, to: u8) -> u8 {
        // Points on one line are evenly spaced in index, so the midpoint is the mean.
        (from + to) / 2
    }
}

// Zobrist keys: 25 goat keys, 25 tiger keys, the tigers-to-move key, 21 goats-in-hand keys.
static KEYS: [u64; 72] = zobrist::keys(0x0BA6_C4A1_u64);
const GOAT_KEY: usize = 0;
const TIGER_KEY: usize = 25;
const TIGERS_TO_MOVE_KEY: usize = 50;
const IN_HAND_KEY: usize = 51;

/// A Baghchal position with its rules: the game state.
///
/// Cheap to clone unless a repetition rule is on (then the movement-phase history since the
/// last capture is cloned too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Baghchal {
    rules: BaghchalRules,
    goats: Bitboard,
    tigers: Bitboard,
    in_hand: u8,
    captured: u8,
    to_move: Player,
    plies: u32,
    status: ToAct,
    hash: u64,
    /// Hashes of movement-phase positions since the last irreversible ply, the current one
    /// last. Kept only when a repetition rule is on.
    history: Vec<u64>,
}

impl Baghchal {
    /// The goats on the board.
    #[must_use]
    pub fn goats(&self) -> Bitboard {
        self.goats
    }

    /// The tigers on the board.
    #[must_use]
    pub fn tigers(&self) -> Bitboard {
        self.tigers
    }

    /// Goats still in hand (placement phase while this is positive).
    #[must_use]
    pub fn goats_in_hand(&self) -> u8 {
        self.in_hand
    }

    /// Goats captured so far.
    #[must_use]
    pub fn captured(&self) -> u8 {
        self.captured
    }

    /// The player whose turn it is (also at a terminal state: who would move next).
    #[must_use]
    pub fn side_to_move(&self) -> Player {
        self.to_move
    }

    /// Whether the goats are still placing (any goat in hand).
    #[must_use]
    pub fn is_placement_phase(&self) -> bool {
        self.in_hand > 0
    }

    /// The hash recomputed from the pieces, for checking the incremental one.
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = KEYS[IN_HAND_KEY + self.in_hand as usize];
        for p in board::bits(self.goats) {
            h ^= KEYS[GOAT_KEY + p as usize];
        }
        for p in board::bits(self.tigers) {
            h ^= KEYS[TIGER_KEY + p as usize];
        }
        if self.to_move == TIGERS {
            h ^= KEYS[TIGERS_TO_MOVE_KEY];
        }
        h
    }

    /// Builds a position from its parts, checking it, and computes its status.
    ///
    /// # Errors
    /// A reason in words if the parts do not make a position: overlapping pieces, not four
    /// tigers, goats not adding up to twenty.
    pub fn from_parts(
        rules: BaghchalRules,
        goats: Bitboard,
        tigers: Bitboard,
        in_hand: u8,
        captured: u8,
        to_move: Player,
        plies: u32,
    ) -> Result<Self, String> {
        if goats & tigers != 0 {
            return Err("a goat and a tiger on one point".into());
        }
        if (goats | tigers) & !board::ALL != 0 {
            return Err("a piece off the board".into());
        }
        if tigers.count_ones() != 4 {
            return Err(format!("{} tigers (there are four)", tigers.count_ones()));
        }
        let total = goats.count_ones() + u32::from(in_hand) + u32::from(captured);
        if total != u32::from(TOTAL_GOATS) {
            return Err(format!(
                "goats on board + in hand + captured = {total} (must be {TOTAL_GOATS})"
            ));
        }
        let mut s = Baghchal {
            rules,
            goats,
            tigers,
            in_hand,
            captured,
            to_move,
            plies,
            status: ToAct::Decision(to_move),
            hash: 0,
            history: Vec::new(),
        };
        s.hash = s.hash_from_scratch();
        s.record_history(true);
        s.status = s.compute_status();
        Ok(s)
    }

    fn record_history(&mut self, irreversible: bool) {
        if self.rules.repetition == Repetition::None || self.in_hand > 0 {
            return;
        }
        if irreversible {
            self.history.clear();
        }
        self.history.push(self.hash);
    }

    fn compute_status(&self) -> ToAct {
        if let Some(end) = end_rule(&self.rules, self.captured, self.to_move, || {
            self.has_move(self.to_move)
        }) {
            return ToAct::Terminal(end);
        }
        if self.rules.repetition == Repetition::ThreefoldDraw
            && self.history.iter().filter(|&&h| h == self.hash).count() >= 3
        {
            return ToAct::Terminal(EndReason::Draw);
        }
        if let Some(cap) = self.rules.ply_cap {
            if self.plies >= cap {
                return ToAct::Terminal(EndReason::Truncated);
            }
        }
        ToAct::Decision(self.to_move)
    }

    /// Moves the pieces for `action` (not the hash, side to move or status); returns whether the
    /// ply is irreversible (a placement or a capture).
    #[inline]
    fn apply_board(&mut self, action: BaghchalAction) -> bool {
        match action {
            BaghchalAction::Place(p) => {
                self.goats |= 1 << p;
                self.in_hand -= 1;
                true
            }
            BaghchalAction::Step { from, to } => {
                let m = (1 << from) | (1 << to);
                if self.to_move == GOATS {
                    self.goats ^= m;
                } else {
                    self.tigers ^= m;
                }
                false
            }
            BaghchalAction::Jump { from, to } => {
                self.tigers ^= (1 << from) | (1 << to);
                self.goats &= !(1 << BaghchalAction::captured_point(from, to));
                self.captured += 1;
                true
            }
            BaghchalAction::Pass => false,
        }
    }

    /// The hash of the position after `action`, without playing it.
    #[must_use]
    pub fn hash_after(&self, action: BaghchalAction) -> u64 {
        let mut h = self.hash ^ KEYS[TIGERS_TO_MOVE_KEY];
        let own = if self.to_move == GOATS {
            GOAT_KEY
        } else {
            TIGER_KEY
        };
        match action {
            BaghchalAction::Place(p) => {
                h ^= KEYS[GOAT_KEY + p as usize]
                    ^ KEYS[IN_HAND_KEY + self.in_hand as usize]
                    ^ KEYS[IN_HAND_KEY + self.in_hand as usize - 1];
            }
            BaghchalAction::Step { from, to } => {
                h ^= KEYS[own + from as usize] ^ KEYS[own + to as usize];
            }
            BaghchalAction::Jump { from, to } => {
                let over = BaghchalAction::captured_point(from, to);
                h ^= KEYS[TIGER_KEY + from as usize]
                    ^ KEYS[TIGER_KEY + to as usize]
                    ^ KEYS[GOAT_KEY + over as usize];
            }
            BaghchalAction::Pass => {}
        }
        h
    }
}

/// The end rules read from the position alone, in the order they are checked: the tigers'
/// captures, then a side to move that has no move (`can_move` is asked only if needed). The
/// repetition rules and the ply cap, which need the history or the ply count, follow in
/// [`Baghchal`]'s status; the playout checks the cap itself.
#[inline]
pub(super) fn end_rule(
    rules: &BaghchalRules,
    captured: u8,
    to_move: Player,
    can_move: impl FnOnce() -> bool,
) -> Option<EndReason> {
    // DLP.Evidence.755 and 1453: the DLP summaries and the quoted texts give the tigers' win (5,
    // more than 5, or all goats: the rules' `win_captures`).
    if captured >= rules.win_captures {
        return Some(EndReason::Win(TIGERS));
    }
    if !can_move() {
        if to_move == TIGERS {
            // Parlett: a tiger player unable to make a legal move has lost; Averbakh: goats win
            // by reducing the tigers to immobility. Holds in the placement phase too.
            return Some(EndReason::Win(GOATS));
        }
        if rules.goats_blocked == GoatsBlocked::Lose {
            // Silent in both texts; option `goats-blocked`, default `lose`.
            return Some(EndReason::Win(TIGERS));
        }
    }
    None
}

impl Game for Baghchal {
    type Action = BaghchalAction;
    type Outcome = std::convert::Infallible;
    type Rules = BaghchalRules;

    const NAME: &'static str = "baghchal";

    fn new(rules: &BaghchalRules) -> Self {
        // Both sources: tigers on the four corners, twenty goats in hand, goats to move.
        Baghchal::from_parts(*rules, 0, board::CORNERS, TOTAL_GOATS, 0, GOATS, 0)
            .expect("the start position is valid")
    }

    fn rules(&self) -> &BaghchalRules {
        &self.rules
    }

    fn facts(rules: &BaghchalRules) -> GameFacts {
        GameFacts {
            has_chance: false,
            chance_chain: ChanceChain::Bounded(0),
            ply_cap: rules.ply_cap,
            // Without a repetition rule goats and tigers can shuffle for ever.
            ends_without_cap: rules.repetition != Repetition::None,
            history_free: rules.repetition == Repetition::None,
            max_points: 1,
        }
    }

    #[inline]
    fn to_act(&self) -> ToAct {
        self.status
    }

    #[inline]
    fn legal_actions(&self, buf: &mut Vec<BaghchalAction>) {
        buf.clear();
        if let ToAct::Decision(_) = self.status {
            self.push_moves(buf);
            if buf.is_empty() {
                buf.push(BaghchalAction::Pass);
            }
        }
    }

    #[inline]
    fn play_unchecked(&mut self, action: BaghchalAction) {
        let hash = self.hash_after(action);
        let irreversible = self.apply_board(action);
        self.hash = hash;
        self.to_move = self.to_move.opponent();
        self.plies += 1;
        self.record_history(irreversible);
        self.status = self.compute_status();
    }

    fn chance_outcomes(&self, buf: &mut Vec<(Self::Outcome, f64)>) {
        buf.clear();
    }

    fn apply_outcome(&mut self, outcome: Self::Outcome) {
        match outcome {}
    }

    fn returns(&self) -> [f64; 2] {
        // Parlett 1976 and Averbakh 1995: a game is won or lost, for one point.
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

    fn from_notation(text: &str, rules: &BaghchalRules) -> Result<Self, ParseError> {
        notation::parse_position(text, rules)
    }

    fn action_to_string(&self, action: BaghchalAction) -> String {
        notation::format_action(action)
    }

    fn parse_action(&self, text: &str) -> Result<BaghchalAction, ParseError> {
        notation::parse_action(text)
    }

    fn outcome_to_string(&self, outcome: Self::Outcome) -> String {
        match outcome {}
    }

    fn random_playout<R: rand::Rng>(&mut self, rng: &mut R) {
        if self.rules.repetition == Repetition::None {
            self.fast_random_playout(rng);
        } else {
            crate::game::generic_random_playout(self, rng);
        }
    }
}
