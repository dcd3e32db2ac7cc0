//! The `perfect` agent: plays from a solved database where it reaches, and otherwise by an
//! alpha-beta search whose leaves read the database where they reach it.
//!
//! Where the database covers the position (Baghchal's movement phase, and the placement phase as
//! far back as its placement halves are solved), every move is scored by
//! the exact value of the position it leads to, for the mover: a win beats a draw beats a loss,
//! the shortest win and the longest loss preferred ([`cowrie_solver::Value::preference`]); ties
//! are broken uniformly by the agent's stream. That move is value-optimal: it keeps every win
//! and draw and ends won games as fast as possible.
//!
//! Elsewhere (placement positions the database does not reach) it searches `depth` plies with
//! alpha-beta; a leaf is scored
//! exactly if the database covers it or the game is over there, and by the game's evaluation
//! otherwise (scaled far below every exact score). This is perfect play only where the search
//! reaches the database from every line, which near the end of placement it does; earlier it is
//! a heuristic search, stated as such.

pub(crate) mod baghchal;
pub(crate) mod oracle;

pub use baghchal::BaghchalOracle;
pub use oracle::Oracle;

use std::fmt;
use std::sync::Arc;

use cowrie_engine::{Game, Player, ToAct};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::agent::Agent;
use crate::evaluate::Evaluate;

/// Exact scores lie beyond this magnitude; evaluation scores within [`EVAL_SCALE`].
const EXACT: i32 = 50_000;
/// The scale of evaluation scores: `evaluate` in `[-1, 1]` times this.
const EVAL_SCALE: f64 = 1000.0;

/// Plays perfectly from a database, by search with the database at its leaves elsewhere.
#[derive(Clone)]
pub struct PerfectAgent<G: Game> {
    oracle: Arc<dyn Oracle<G>>,
    depth: u32,
    rng: ChaCha8Rng,
    scores: Vec<i32>,
}

impl<G: Game> fmt::Debug for PerfectAgent<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PerfectAgent")
            .field("oracle", &self.oracle)
            .field("depth", &self.depth)
            .finish_non_exhaustive()
    }
}

/// A score one ply further from the root: exact wins and losses are a ply longer.
fn one_ply_later(score: i32) -> i32 {
    if score > EXACT {
        score - 1
    } else if score < -EXACT {
        score + 1
    } else {
        score
    }
}

impl<G: Evaluate> PerfectAgent<G> {
    /// The agent reading `oracle`, searching `depth` plies where it does not reach, drawing
    /// tie-breaks from `rng`.
    #[must_use]
    pub fn new(oracle: Arc<dyn Oracle<G>>, depth: u32, rng: ChaCha8Rng) -> Self {
        PerfectAgent {
            oracle,
            depth: depth.max(1),
            rng,
            scores: Vec::new(),
        }
    }

    /// The database the agent reads.
    #[must_use]
    pub fn oracle(&self) -> &Arc<dyn Oracle<G>> {
        &self.oracle
    }

    /// The score of `state` for `player` by a `depth`-ply minimax search with alpha-beta
    /// pruning (`alpha`, `beta` from `player`'s view). Each node maximises or minimises by the
    /// player who acts there, read from the state, not from depth parity.
    fn search(&self, state: &G, player: Player, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        if let Some(s) = self.oracle.score(state, player) {
            return s;
        }
        let ToAct::Decision(mover) = state.to_act() else {
            return (state.evaluate(player) * EVAL_SCALE) as i32;
        };
        if depth == 0 {
            return (state.evaluate(player) * EVAL_SCALE) as i32;
        }
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let maximise = mover == player;
        let mut best = if maximise { i32::MIN } else { i32::MAX };
        for a in legal {
            let mut child = state.clone();
            child.play_unchecked(a);
            let v = one_ply_later(self.search(&child, player, depth - 1, alpha, beta));
            if maximise {
                best = best.max(v);
                alpha = alpha.max(best);
            } else {
                best = best.min(v);
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

impl<G: Evaluate> Agent<G> for PerfectAgent<G> {
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let ToAct::Decision(me) = state.to_act() else {
            panic!("choose at a node that is not a decision node");
        };
        self.scores.clear();
        for &a in legal {
            let mut child = state.clone();
            child.play_unchecked(a);
            let s = match self.oracle.score(&child, me) {
                Some(s) => s,
                None => self.search(&child, me, self.depth - 1, -i32::MAX, i32::MAX),
            };
            self.scores.push(one_ply_later(s));
        }
        let best = *self.scores.iter().max().expect("legal moves");
        let mut pick = 0;
        let mut ties = 0u32;
        for (i, &s) in self.scores.iter().enumerate() {
            if s == best {
                ties += 1;
                if ties == 1 || self.rng.gen_range(0..ties) == 0 {
                    pick = i;
                }
            }
        }
        legal[pick]
    }
}
