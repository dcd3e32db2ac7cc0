//! The `td` agent's filtered two-ply search (`ply=2` with the move filter on), after GNU
//! Backgammon's move filters and n-ply evaluation:
//!
//! - **Root**: every candidate is scored at `ply=0` (one batch, [`Evaluator::evaluate_moves`])
//!   and the move filter ([`filter::keep`]) keeps the best few within a threshold; only those
//!   are searched, each on its own (no pruning between candidates), and the best value wins
//!   (equal values: the better `ply=0` candidate).
//! - **Below the root**, a position is valued `d` plies deep: a finished game by its returns, any
//!   position at `d = 0` by the network; a chance node by the weighted mean of its outcomes (at
//!   the same `d`; a chance chain cut as [`crate::expectimax`] cuts it); a decision node by
//!   scoring every move at `ply=0` in one batch and taking the best one's value: the batch
//!   value itself at `d = 1` (so one ply from the horizon the node is an exact maximum, as in
//!   expectiminimax), else the value of the position after it at `d - 1`. So the reply at an
//!   inner node is the one the network prefers at `ply=0`, not the best one a deeper search
//!   would find; that is where the cost goes from every reply's subtree to one.
//!
//! A kept candidate's value does not depend on which others were kept, so the filtered search
//! chooses the move the unfiltered one (every candidate kept) chooses whenever it keeps it.
//!
//! **Nodes**: every candidate scored at the root, and below it every state entered (a chance
//! node, a decision node, each move a decision node scores, a leaf). A kept candidate at `ply=2`
//! in a game of dice rolls thus costs `1 + Σ_rolls (1 + R + 1 + Σ_rolls' (1 + R'))`, `R` the
//! opponent's moves after its roll and `R'` the mover's after its own roll following the
//! opponent's chosen reply (fewer where a game ends). **Budget**: once the nodes of a move reach
//! the node budget the search is abandoned and the move is the filter's best (`ply=0`'s).

use cowrie_engine::{ChanceChain, Game, Player, ToAct};

use super::{filter, NetEval};
use crate::evaluate::Evaluate;
use crate::expectimax::{Evaluator, MAX_CHANCE_CHAIN};
use crate::value::Viewed;

/// The filtered search of a `td` agent, with its node count.
#[derive(Clone, Debug)]
pub struct Filtered<G: Game> {
    eval: NetEval,
    nodes: u64,
    limit: u64,
    aborted: bool,
    /// Chance nodes entered since the last decision node on the current line.
    chain: u32,
    chain_cut: u32,
    move_pool: Vec<Vec<G::Action>>,
    leaf_pool: Vec<Vec<(f64, bool)>>,
    outcome_pool: Vec<Vec<(G::Outcome, f64)>>,
    kept: Vec<usize>,
    values: Vec<f64>,
}

/// The move filter and depth of a [`Filtered`] search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FilterParams {
    /// Plies searched below the root (2 for `td:ply=2`).
    pub ply: u32,
    /// The most candidates kept (at least 1).
    pub most: usize,
    /// How far below the best `ply=0` value a kept candidate may be.
    pub threshold: f64,
    /// The node budget of a move.
    pub nodes: u64,
}

impl<G: Evaluate> Filtered<G> {
    /// A search on `eval`.
    #[must_use]
    pub fn new(eval: NetEval) -> Self {
        Filtered {
            eval,
            nodes: 0,
            limit: u64::MAX,
            aborted: false,
            chain: 0,
            chain_cut: MAX_CHANCE_CHAIN,
            move_pool: Vec::new(),
            leaf_pool: Vec::new(),
            outcome_pool: Vec::new(),
            kept: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Nodes visited since construction or the last [`Filtered::reset_nodes`].
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Sets the node counter to zero.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// The move at decision node `state` among `legal` (two or more), given every candidate's
    /// `ply=0` value from the mover's view (`leaves`, as [`Evaluator::evaluate_moves`] gives
    /// them).
    pub fn choose(
        &mut self,
        state: &G,
        legal: &[G::Action],
        leaves: &[(f64, bool)],
        params: FilterParams,
    ) -> G::Action {
        let ToAct::Decision(me) = state.to_act() else {
            panic!("the filtered search chooses at a decision node");
        };
        self.chain_cut = match G::facts(state.rules()).chance_chain {
            ChanceChain::Bounded(bound) => bound,
            ChanceChain::Unbounded => MAX_CHANCE_CHAIN,
        };
        let start = self.nodes;
        self.nodes += legal.len() as u64;
        let mut values = std::mem::take(&mut self.values);
        values.clear();
        values.extend(leaves.iter().map(|&(v, _)| v));
        let mut kept = std::mem::take(&mut self.kept);
        filter::keep(&values, params.most, params.threshold, &mut kept);
        self.values = values;
        let greedy = legal[kept[0]];
        self.limit = start.saturating_add(params.nodes);
        self.aborted = false;
        self.check_budget();
        let mut best = (f64::NEG_INFINITY, greedy);
        if kept.len() > 1 {
            for &i in &kept {
                let (v0, terminal) = leaves[i];
                let v = if terminal {
                    v0
                } else {
                    let mut child = state.clone();
                    child.play_unchecked(legal[i]);
                    self.chain = 0;
                    self.value(&child, params.ply, me)
                };
                if self.aborted {
                    best.1 = greedy;
                    break;
                }
                if v > best.0 {
                    best = (v, legal[i]);
                }
            }
        }
        self.kept = kept;
        best.1
    }

    fn check_budget(&mut self) {
        if self.nodes >= self.limit {
            self.aborted = true;
        }
    }

    fn take<T>(pool: &mut Vec<Vec<T>>) -> Vec<T> {
        pool.pop().unwrap_or_default()
    }

    /// The value of `state` `depth` plies deep, from `pov`'s view (see the module's docs).
    fn value(&mut self, state: &G, depth: u32, pov: Player) -> f64 {
        if self.aborted {
            return 0.0;
        }
        match state.to_act() {
            ToAct::Terminal(_) => {
                self.nodes += 1;
                state.returns()[pov.index()]
            }
            ToAct::Chance if depth == 0 || self.chain >= self.chain_cut => self.leaf(state, pov),
            _ if depth == 0 => self.leaf(state, pov),
            ToAct::Chance => {
                self.nodes += 1;
                self.check_budget();
                let mut outcomes = Self::take(&mut self.outcome_pool);
                state.chance_outcomes(&mut outcomes);
                self.chain += 1;
                let mut sum = 0.0;
                for &(o, p) in &outcomes {
                    let mut child = state.clone();
                    child.apply_outcome(o);
                    sum += p * self.value(&child, depth, pov);
                }
                self.chain -= 1;
                self.outcome_pool.push(outcomes);
                sum
            }
            ToAct::Decision(q) => {
                let mut moves = Self::take(&mut self.move_pool);
                state.legal_actions(&mut moves);
                let mut leaves = Self::take(&mut self.leaf_pool);
                self.eval.evaluate_moves(state, &moves, q, &mut leaves);
                self.nodes += 1 + moves.len() as u64;
                self.check_budget();
                let mut pick = 0;
                for (k, &(v, _)) in leaves.iter().enumerate() {
                    if v > leaves[pick].0 {
                        pick = k;
                    }
                }
                let (v, terminal) = leaves[pick];
                let chain = std::mem::replace(&mut self.chain, 0);
                let value = if depth == 1 || terminal {
                    Viewed::new(q, v).for_player(pov)
                } else {
                    let mut child = state.clone();
                    child.play_unchecked(moves[pick]);
                    self.value(&child, depth - 1, pov)
                };
                self.chain = chain;
                self.move_pool.push(moves);
                self.leaf_pool.push(leaves);
                value
            }
        }
    }

    /// A position scored by the network at the horizon.
    fn leaf(&mut self, state: &G, pov: Player) -> f64 {
        self.nodes += 1;
        self.check_budget();
        self.eval.value(state, pov)
    }
}
