//! Depth-limited expectiminimax with alpha-beta at decision nodes, Star1 or Star2 pruning at
//! chance nodes (Ballard 1983; Hauk, Buro and Schaeffer 2004), iterative deepening, a
//! transposition table on the Zobrist hash and move ordering. On a game without chance nodes
//! (Baghchal) it is alpha-beta.
//!
//! - **Values** are from the view of a player, read from the state: a decision node searches
//!   from its own player's view, and the sign flips only where the player to act actually
//!   differs from the view asked for (a negamax without depth parity), so a player who moves
//!   twice in a row, an extra throw or a pass needs no special case.
//! - **Depth** counts decision plies: playing an action costs one, a chance outcome costs
//!   nothing. A chain of chance nodes (a throw, an extra throw after doubles, an opening roll)
//!   between two plies is expanded in full at no depth; at depth 0 the state is scored by the
//!   evaluation whatever it is (a chance node included). Every line of a depth-`d` search thus
//!   holds exactly `d` plies unless the game ends first.
//! - **Chance chains**: where the rules bound them ([`chance_chain`] is
//!   [`ChanceChain::Bounded`]) every chain is expanded in full; where they do not (Bargese's extra
//!   throws), the search's own cut applies: the [`SearchConfig::chance_chain_cut`]` + 1`-th
//!   chance node in a row without a decision between them is scored by the evaluation like a
//!   depth-0 node.
//! - **Leaves**: terminal states score their exact returns (0 for a draw or a truncation),
//!   others the [`Evaluator`] (the game's [`Evaluate::evaluate`] by default, or a learned
//!   network for the `td` agent), bounded by `±max_points` (the Star1/Star2 bounds).
//! - **Transposition table**: decision nodes only, keyed by [`Game::hash`], an entry used for a
//!   cutoff only at the same remaining depth (so a search's value equals the fixed-depth
//!   expectiminimax value) and for move ordering at any depth. Kept from move to move, with
//!   ageing, where no value can depend on the game's history ([`SearchConfig::keep_table`]),
//!   else cleared at every move. The hash holds no ply counter and no repetition history: near
//!   the ply cap, or under a repetition rule, two transposed positions may differ in ways the
//!   table does not see.
//! - **Node budget** ([`ExpectimaxParams::nodes`]): an iteration deeper than 1 that would pass
//!   it is abandoned; the move is the deepest completed iteration's.
//! - **Move ordering**: the table's best move first, then (at depth >= 2) by the evaluation of
//!   the position after the move; the root's moves are first shuffled by the agent's stream, so
//!   equal moves are chosen among at random.
//!
//! [`chance_chain`]: cowrie_engine::GameFacts::chance_chain

use std::time::{Duration, Instant};

use cowrie_engine::{ChanceChain, Game, Player, ToAct};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::agent::Agent;
use crate::evaluate::{value_bound, Evaluate};
use crate::spec::ExpectimaxParams;
pub use crate::spec::DEFAULT_NODES;
use crate::value::Viewed;

const INF: f64 = f64::INFINITY;
const TT_BITS: u32 = 16;

/// The default of [`SearchConfig::chance_chain_cut`]: the most chance nodes expanded in a row
/// without a decision between them in a game whose rules do not bound such chains.
pub const MAX_CHANCE_CHAIN: u32 = 3;

/// What scores the leaves of the search: a value from `player`'s view at a non-terminal state,
/// within `±max_points` of the game (the Star1/Star2 bounds).
pub trait Evaluator<G: Game>: Clone + std::fmt::Debug + Send {
    /// The value of non-terminal `state` from `player`'s view.
    fn evaluate(&self, state: &G, player: Player) -> f64;

    /// The value of each child of decision node `state` after `moves`, in order, from
    /// `player`'s view, as the search scores a leaf: the exact returns at a terminal child
    /// (`true` beside it), else [`Evaluator::evaluate`]'s value. An evaluator may score the
    /// children together (the `td` network's batch, [`crate::td::incremental`]).
    fn evaluate_moves(
        &self,
        state: &G,
        moves: &[G::Action],
        player: Player,
        out: &mut Vec<(f64, bool)>,
    ) {
        self.evaluate_moves_while(state, moves, player, out, |_, _| true);
    }

    /// [`Evaluator::evaluate_moves`], stopping after the first child for which `go_on` (given
    /// its index and its entry) returns `false`: `out` then ends with that child's entry, and
    /// the children after it are not scored. The entries are those of the whole list.
    fn evaluate_moves_while(
        &self,
        state: &G,
        moves: &[G::Action],
        player: Player,
        out: &mut Vec<(f64, bool)>,
        mut go_on: impl FnMut(usize, (f64, bool)) -> bool,
    ) {
        out.clear();
        for (k, &a) in moves.iter().enumerate() {
            let mut child = state.clone();
            child.play_unchecked(a);
            let leaf = match child.to_act() {
                ToAct::Terminal(_) => (child.returns()[player.index()], true),
                _ => (self.evaluate(&child, player), false),
            };
            out.push(leaf);
            if !go_on(k, leaf) {
                break;
            }
        }
    }
}

/// The game's own evaluation ([`Evaluate::evaluate`]): the default evaluator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Static;

impl<G: Evaluate> Evaluator<G> for Static {
    #[inline]
    fn evaluate(&self, state: &G, player: Player) -> f64 {
        state.evaluate(player)
    }
}

/// Pruning at chance nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChancePruning {
    /// Every outcome searched with a full window.
    None,
    /// Star1: each outcome's window is narrowed by the values already found and the bounds of
    /// the rest.
    Star1,
    /// Star2: Star1 after a probing pass that searches one move of each outcome's successor for
    /// a bound on its value.
    Star2,
}

/// Switches of the search, for tests and comparisons; [`SearchConfig::default`] turns
/// everything on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Alpha-beta at decision nodes (off: plain expectiminimax).
    pub alpha_beta: bool,
    /// Pruning at chance nodes (needs `alpha_beta`).
    pub chance: ChancePruning,
    /// The transposition table.
    pub transposition_table: bool,
    /// Whether the table is kept from one move's search to the next (with ageing: entries of an
    /// earlier search are the first replaced) where values cannot depend on the game's history:
    /// no repetition rule ([`cowrie_engine::GameFacts::history_free`]), the same rules as the
    /// last search, and no line of the search reaching the ply cap. Otherwise (or off) the
    /// table is cleared for every move.
    pub keep_table: bool,
    /// Move ordering by the evaluation.
    pub move_ordering: bool,
    /// The most chance nodes expanded in a row without a decision between them, in a game whose
    /// chains the rules do not bound ([`ChanceChain::Unbounded`], as in Bargese, whose shaka,
    /// dust, bange and bara grant further throws under `timing=throw-first`); the next one is
    /// scored by the evaluation as if the depth had run out. A parameter of the search, not a
    /// rule: without it an unbounded chain would expand an unbounded tree at no depth. Games
    /// whose rules bound their chains ([`ChanceChain::Bounded`]) are expanded in full.
    pub chance_chain_cut: u32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            alpha_beta: true,
            chance: ChancePruning::Star2,
            transposition_table: true,
            keep_table: true,
            move_ordering: true,
            chance_chain_cut: MAX_CHANCE_CHAIN,
        }
    }
}

impl SearchConfig {
    /// Plain expectiminimax: no pruning, no table (the reference the tests compare with).
    pub const PLAIN: SearchConfig = SearchConfig {
        alpha_beta: false,
        chance: ChancePruning::None,
        transposition_table: false,
        keep_table: false,
        move_ordering: false,
        chance_chain_cut: MAX_CHANCE_CHAIN,
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry<A> {
    key: u64,
    depth: u32,
    value: f64,
    bound: Bound,
    best: Option<A>,
    /// Whether the node's search scored a live position at the horizon.
    horizon: bool,
    /// The search that stored it (ageing).
    generation: u32,
}

/// A move searched already by a Star2 probe.
#[derive(Clone, Copy, Debug)]
struct Probed<A> {
    mv: A,
    /// Its value from the mover's view.
    value: f64,
    /// Whether `value` is exact (else an upper bound: the probe failed low).
    exact: bool,
    /// Whether the probe scored a live position at the horizon.
    horizon: bool,
}

type Known<A> = Option<Probed<A>>;

/// Per outcome of a chance node: a lower and an upper bound on its value, and a probed move.
type OutcomeBounds<A> = (f64, f64, Known<A>);

/// The expectimax agent and search.
#[derive(Clone, Debug)]
pub struct Expectimax<G: Game, E = Static> {
    params: ExpectimaxParams,
    eval: E,
    config: SearchConfig,
    rng: ChaCha8Rng,
    table: Vec<Option<Entry<G::Action>>>,
    nodes: u64,
    deadline: Option<Instant>,
    /// The node count at which the current iteration is abandoned (the node budget).
    node_limit: Option<u64>,
    /// Searches started, stamped on table entries.
    generation: u32,
    /// The rules of the last search (the table holds their values).
    last_rules: Option<G::Rules>,
    aborted: bool,
    move_pool: Vec<Vec<G::Action>>,
    key_pool: Vec<Vec<(f64, G::Action)>>,
    outcome_pool: Vec<Vec<(G::Outcome, f64)>>,
    state_pool: Vec<Vec<G>>,
    bound_pool: Vec<Vec<OutcomeBounds<G::Action>>>,
    leaf_pool: Vec<Vec<(f64, bool)>>,
    /// Per outcome of a chance node, its successor's legal moves as generated by the Star2
    /// probe (empty where it generated none), reused by the outcome's full search.
    list_pool: Vec<Vec<Vec<G::Action>>>,
    /// The legal moves of the next decision node the search enters, generated already.
    pending: Option<Vec<G::Action>>,
    last_depth: u32,
    /// Chance nodes entered since the last decision node on the current line.
    chain: u32,
    /// The longest chain expanded in the current search: the game's bound where its rules give
    /// one, else the configuration's cut.
    chain_cut: u32,
    /// Whether the current iteration scored a live position at depth 0 (else it was exact).
    horizon: bool,
}

impl<G: Evaluate> Expectimax<G> {
    /// An expectimax agent with `params` and every pruning on, drawing from `rng`, on the
    /// game's evaluation.
    #[must_use]
    pub fn new(params: ExpectimaxParams, rng: ChaCha8Rng) -> Self {
        Expectimax::with_evaluator(params, rng, Static)
    }
}

impl<G: Evaluate, E: Evaluator<G>> Expectimax<G, E> {
    /// An expectimax agent with `params` and every pruning on, drawing from `rng`, whose leaves
    /// `eval` scores.
    #[must_use]
    pub fn with_evaluator(params: ExpectimaxParams, rng: ChaCha8Rng, eval: E) -> Self {
        Expectimax {
            params,
            eval,
            config: SearchConfig::default(),
            rng,
            table: vec![None; 1 << TT_BITS],
            nodes: 0,
            deadline: None,
            node_limit: None,
            generation: 0,
            last_rules: None,
            aborted: false,
            move_pool: Vec::new(),
            key_pool: Vec::new(),
            outcome_pool: Vec::new(),
            state_pool: Vec::new(),
            bound_pool: Vec::new(),
            leaf_pool: Vec::new(),
            list_pool: Vec::new(),
            pending: None,
            last_depth: 0,
            chain: 0,
            chain_cut: MAX_CHANCE_CHAIN,
            horizon: false,
        }
    }

    /// The same agent with the search switches `config`.
    #[must_use]
    pub fn with_config(mut self, config: SearchConfig) -> Self {
        self.config = config;
        self
    }

    /// Nodes visited since construction or the last [`Expectimax::reset_nodes`]: every state
    /// the search enters (decision, chance, leaf; a Star2 probe's nodes included, a node whose
    /// search a probe began and the full pass finished counted once).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Sets the node counter to zero.
    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// The depth of the last iteration [`Agent::choose`] completed (deepening stops early once
    /// an iteration reaches no depth-0 live position: its result is then exact).
    #[must_use]
    pub fn last_depth(&self) -> u32 {
        self.last_depth
    }

    /// The depth-`depth` expectiminimax value of `state` from `player`'s view (one search, full
    /// window, no time limit, the table cleared first).
    pub fn value(&mut self, state: &G, depth: u32, player: Player) -> f64 {
        self.start_search(state, false);
        self.deadline = None;
        self.node_limit = None;
        self.aborted = false;
        self.negamax(state, depth, -INF, INF, player, None)
    }

    /// Starts a search of `state`'s game: a new generation of table entries, the table cleared
    /// unless `keep` and the game cannot cycle, the chance-chain cut set.
    fn start_search(&mut self, state: &G, keep: bool) {
        let facts = G::facts(state.rules());
        self.generation = self.generation.wrapping_add(1);
        let below_cap = facts
            .ply_cap
            .is_none_or(|cap| state.plies().saturating_add(self.params.depth) < cap);
        let same_rules = self.last_rules.as_ref() == Some(state.rules());
        if !(keep && self.config.keep_table && facts.history_free && below_cap && same_rules) {
            self.clear_table();
        }
        if !same_rules {
            self.last_rules = Some(state.rules().clone());
        }
        self.chain_cut = match facts.chance_chain {
            // No chain of the game reaches its bound plus one: nothing is cut.
            ChanceChain::Bounded(bound) => bound,
            ChanceChain::Unbounded => self.config.chance_chain_cut,
        };
    }

    fn clear_table(&mut self) {
        if self.config.transposition_table {
            self.table.fill(None);
        }
    }

    /// Reads the table slot of each of `states` (the successors of one chance node) together,
    /// so that the processor fetches them from memory at once rather than one at a time as the
    /// search reaches each successor. Changes nothing.
    fn touch_slots(&self, states: &[G]) {
        let mut keys = 0u64;
        for s in states {
            if let Some(e) = &self.table[(s.hash() & ((1 << TT_BITS) - 1)) as usize] {
                keys ^= e.key;
            }
        }
        std::hint::black_box(keys);
    }

    fn check_time(&mut self) {
        if self.node_limit.is_some_and(|limit| self.nodes >= limit) {
            self.aborted = true;
        }
        if let Some(d) = self.deadline {
            if self.nodes & 1023 == 0 && Instant::now() >= d {
                self.aborted = true;
            }
        }
    }

    /// A depth-0 child already scored by [`Evaluator::evaluate_moves`] (its value, and whether
    /// it is terminal), counted as [`Expectimax::negamax`] would count it.
    #[inline]
    fn scored_leaf(&mut self, (value, terminal): (f64, bool)) -> f64 {
        if self.aborted {
            return 0.0;
        }
        self.nodes += 1;
        if !terminal {
            self.horizon = true;
            self.check_time();
        }
        value
    }

    fn take<T>(pool: &mut Vec<Vec<T>>) -> Vec<T> {
        pool.pop().unwrap_or_default()
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        state: &G,
        depth: u32,
        alpha: f64,
        beta: f64,
        pov: Player,
        known: Known<G::Action>,
    ) -> f64 {
        if self.aborted {
            return 0.0;
        }
        match state.to_act() {
            ToAct::Decision(p) if p != pov && depth > 0 => {
                // The window and the value in p's view (negamax), the value back in pov's.
                Viewed::new(p, self.negamax(state, depth, -beta, -alpha, p, known)).for_player(pov)
            }
            ToAct::Terminal(_) => {
                self.nodes += 1;
                state.returns()[pov.index()]
            }
            ToAct::Chance if depth == 0 || self.chain >= self.chain_cut => {
                self.nodes += 1;
                self.horizon = true;
                self.check_time();
                self.eval.evaluate(state, pov)
            }
            _ if depth == 0 => {
                self.nodes += 1;
                self.horizon = true;
                self.check_time();
                self.eval.evaluate(state, pov)
            }
            ToAct::Decision(_) => {
                // A node whose search a Star2 probe began (`known`) was counted by the probe.
                if known.is_none() {
                    self.nodes += 1;
                }
                self.check_time();
                let chain = std::mem::replace(&mut self.chain, 0);
                let v = self.decision(state, depth, alpha, beta, pov, known);
                self.chain = chain;
                v
            }
            ToAct::Chance => {
                self.nodes += 1;
                self.check_time();
                self.chain += 1;
                let v = self.chance(state, depth, alpha, beta, pov);
                self.chain -= 1;
                v
            }
        }
    }

    /// The moves of decision node `state` (player `p`) in search order; `legal`: its legal
    /// moves in the game's order, when generated already.
    fn ordered_moves(
        &mut self,
        state: &G,
        depth: u32,
        p: Player,
        legal: Option<Vec<G::Action>>,
    ) -> Vec<G::Action> {
        let moves = legal.unwrap_or_else(|| {
            let mut moves = Self::take(&mut self.move_pool);
            state.legal_actions(&mut moves);
            moves
        });
        self.order(state, depth, p, moves)
    }

    /// `moves`, the legal moves of decision node `state` (player `p`) in the game's order, put
    /// in search order.
    fn order(
        &mut self,
        state: &G,
        depth: u32,
        p: Player,
        mut moves: Vec<G::Action>,
    ) -> Vec<G::Action> {
        if self.config.move_ordering && depth >= 2 && moves.len() > 1 {
            let mut keys = Self::take(&mut self.key_pool);
            let mut leaves = Self::take(&mut self.leaf_pool);
            self.eval.evaluate_moves(state, &moves, p, &mut leaves);
            keys.clear();
            keys.extend(leaves.iter().zip(&moves).map(|(&(v, _), &a)| (v, a)));
            self.leaf_pool.push(leaves);
            // Stable: equal evaluations keep the game's order.
            keys.sort_by(|x, y| y.0.total_cmp(&x.0));
            moves.clear();
            moves.extend(keys.iter().map(|&(_, a)| a));
            self.key_pool.push(keys);
        }
        if self.config.transposition_table {
            if let Some(e) = self.table[(state.hash() & ((1 << TT_BITS) - 1)) as usize] {
                if e.key == state.hash() {
                    if let Some(pos) = e.best.and_then(|b| moves.iter().position(|&m| m == b)) {
                        moves[..=pos].rotate_right(1);
                    }
                }
            }
        }
        moves
    }

    /// A decision node of `pov`, who maximises. `known`: a move a Star2 probe searched.
    #[allow(clippy::too_many_arguments)]
    fn decision(
        &mut self,
        state: &G,
        depth: u32,
        mut alpha: f64,
        beta: f64,
        pov: Player,
        known: Known<G::Action>,
    ) -> f64 {
        let ab = self.config.alpha_beta;
        let legal = self.pending.take();
        let slot = (state.hash() & ((1 << TT_BITS) - 1)) as usize;
        if self.config.transposition_table {
            if let Some(e) = self.table[slot] {
                if e.key == state.hash() && e.depth == depth {
                    let usable = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => ab && e.value >= beta,
                        Bound::Upper => ab && e.value <= alpha,
                    };
                    if usable {
                        self.horizon |= e.horizon;
                        if let Some(legal) = legal {
                            self.move_pool.push(legal);
                        }
                        return e.value;
                    }
                }
            }
        }
        let alpha0 = alpha;
        let outer_horizon = std::mem::replace(&mut self.horizon, false);
        let moves = self.ordered_moves(state, depth, pov, legal);
        let mut best = -INF;
        let mut best_move = None;
        let mut skip = None;
        if let Some(Probed {
            mv: a,
            value: v,
            exact,
            ..
        }) = known
        {
            // An exact value stands in for the move's search; an upper bound does when it cannot
            // raise alpha (the window here is never wider below than the probe's was).
            if exact || (ab && v <= alpha) {
                best = v;
                best_move = Some(a);
                alpha = alpha.max(v);
                skip = Some(a);
            }
        }
        if !(ab && alpha >= beta) {
            // One ply from the horizon the children are leaves: scored together.
            let mut leaves = Self::take(&mut self.leaf_pool);
            leaves.clear();
            if depth == 1 {
                // Scored up to the move whose value closes the window, as the loop below stops
                // there (unless the search is abandoned meanwhile, when its value is discarded).
                let mut cut_alpha = alpha;
                self.eval
                    .evaluate_moves_while(state, &moves, pov, &mut leaves, |k, (v, _)| {
                        if !ab || skip == Some(moves[k]) {
                            return true;
                        }
                        cut_alpha = cut_alpha.max(v);
                        cut_alpha < beta
                    });
            }
            for (k, &a) in moves.iter().enumerate() {
                if skip == Some(a) {
                    continue;
                }
                let v = if let Some(&leaf) = leaves.get(k) {
                    self.scored_leaf(leaf)
                } else {
                    let mut child = state.clone();
                    child.play_unchecked(a);
                    if ab {
                        self.negamax(&child, depth - 1, alpha, beta, pov, None)
                    } else {
                        self.negamax(&child, depth - 1, -INF, INF, pov, None)
                    }
                };
                if v > best {
                    best = v;
                    best_move = Some(a);
                }
                if ab {
                    alpha = alpha.max(v);
                    if alpha >= beta {
                        break;
                    }
                }
            }
            self.leaf_pool.push(leaves);
        }
        self.move_pool.push(moves);
        let replace = self.table[slot].is_none_or(|e| {
            e.key == state.hash() || e.generation != self.generation || e.depth <= depth
        });
        if self.config.transposition_table && !self.aborted && replace {
            let bound = if !ab {
                Bound::Exact
            } else if best <= alpha0 {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table[slot] = Some(Entry {
                key: state.hash(),
                depth,
                value: best,
                bound,
                best: best_move,
                horizon: self.horizon || known.is_some_and(|k| k.horizon),
                generation: self.generation,
            });
        }
        self.horizon |= outer_horizon;
        best
    }

    /// A chance node, from `pov`'s view.
    #[allow(clippy::too_many_arguments)]
    fn chance(&mut self, state: &G, depth: u32, alpha: f64, beta: f64, pov: Player) -> f64 {
        let star = self.config.alpha_beta && self.config.chance != ChancePruning::None;
        let bound = value_bound(state);
        let mut outcomes = Self::take(&mut self.outcome_pool);
        state.chance_outcomes(&mut outcomes);
        let mut children = Self::take(&mut self.state_pool);
        children.clear();
        for &(o, _) in &outcomes {
            let mut c = state.clone();
            c.apply_outcome(o);
            children.push(c);
        }
        if self.config.transposition_table {
            self.touch_slots(&children);
        }
        // Per outcome: a lower and an upper bound on its value from pov's view, and a move of
        // its successor already searched exactly by the probe.
        let mut bounds = Self::take(&mut self.bound_pool);
        bounds.clear();
        bounds.resize(outcomes.len(), (-bound, bound, None));
        let mut lists = Self::take(&mut self.list_pool);
        lists.resize_with(outcomes.len(), Vec::new);
        let mut result = None;
        if star && self.config.chance == ChancePruning::Star2 {
            result = self.probe(
                &children,
                &outcomes,
                &mut bounds,
                &mut lists,
                depth,
                alpha,
                beta,
                pov,
            );
        }
        if result.is_none() {
            // Star1 pass (a plain weighted sum without `star`).
            let mut rest_lo: f64 = outcomes.iter().zip(&bounds).map(|(o, b)| o.1 * b.0).sum();
            let mut rest_hi: f64 = outcomes.iter().zip(&bounds).map(|(o, b)| o.1 * b.1).sum();
            let mut sum = 0.0;
            for (i, child) in children.iter().enumerate() {
                let p = outcomes[i].1;
                let (lo, hi, known) = bounds[i];
                rest_lo -= p * lo;
                rest_hi -= p * hi;
                if star {
                    let a = (alpha - sum - rest_hi) / p;
                    let b = (beta - sum - rest_lo) / p;
                    // The probe's moves go to the child's decision node, the first the search
                    // enters (or back to the pool if it enters none).
                    if !lists[i].is_empty() {
                        self.pending = Some(std::mem::take(&mut lists[i]));
                    }
                    let v = self.negamax(child, depth, a.max(lo), b.min(hi), pov, known);
                    if let Some(legal) = self.pending.take() {
                        self.move_pool.push(legal);
                    }
                    sum += p * v;
                    if v >= b {
                        result = Some(sum + rest_lo);
                        break;
                    }
                    if v <= a {
                        result = Some(sum + rest_hi);
                        break;
                    }
                } else {
                    sum += p * self.negamax(child, depth, -INF, INF, pov, None);
                }
            }
            result.get_or_insert(sum);
        }
        for list in lists.drain(..) {
            if list.capacity() > 0 {
                self.move_pool.push(list);
            }
        }
        self.list_pool.push(lists);
        self.outcome_pool.push(outcomes);
        self.state_pool.push(children);
        self.bound_pool.push(bounds);
        result.unwrap_or(0.0)
    }

    /// Star2's probing pass: for each outcome whose successor is a decision node, searches
    /// that node's first move for a bound on the outcome's value (a lower bound where `pov`
    /// moves, an upper one where the opponent does). Returns the chance node's value bound if
    /// the bounds already cut it off.
    #[allow(clippy::too_many_arguments)]
    fn probe(
        &mut self,
        children: &[G],
        outcomes: &[(G::Outcome, f64)],
        bounds: &mut [OutcomeBounds<G::Action>],
        lists: &mut [Vec<G::Action>],
        depth: u32,
        alpha: f64,
        beta: f64,
        pov: Player,
    ) -> Option<f64> {
        let mut all_lo: f64 = outcomes.iter().zip(&*bounds).map(|(o, b)| o.1 * b.0).sum();
        let mut all_hi: f64 = outcomes.iter().zip(&*bounds).map(|(o, b)| o.1 * b.1).sum();
        for (i, child) in children.iter().enumerate() {
            let ToAct::Decision(q) = child.to_act() else {
                continue;
            };
            if self.aborted {
                return None;
            }
            let p = outcomes[i].1;
            let (lo, hi, _) = bounds[i];
            // The window of outcome i given the others' bounds, as in Star1.
            let a = (alpha - (all_hi - p * hi)) / p;
            let b = (beta - (all_lo - p * lo)) / p;
            self.nodes += 1;
            // The legal moves are kept for the outcome's full search.
            let mut legal = Self::take(&mut self.move_pool);
            child.legal_actions(&mut legal);
            let mut moves = Self::take(&mut self.move_pool);
            moves.clear();
            moves.extend_from_slice(&legal);
            lists[i] = legal;
            let moves = self.order(child, depth, q, moves);
            let first = moves[0];
            self.move_pool.push(moves);
            let mut grandchild = child.clone();
            grandchild.play_unchecked(first);
            let outer_horizon = std::mem::replace(&mut self.horizon, false);
            // The probe searches below the decision node `child`, where a chance chain ends.
            let chain = std::mem::replace(&mut self.chain, 0);
            let (w, exact, usable) = if q == pov {
                let w = self.negamax(&grandchild, depth - 1, a, b, pov, None);
                if w > a && w > lo {
                    all_lo += p * (w - lo);
                    bounds[i].0 = w;
                }
                (w, a < w, w < b)
            } else {
                let w = self.negamax(&grandchild, depth - 1, -b, -a, q, None);
                let upper = Viewed::new(q, w).for_player(pov);
                if w > -b && upper < hi {
                    all_hi += p * (upper - hi);
                    bounds[i].1 = upper;
                }
                (w, -b < w, w < -a)
            };
            self.chain = chain;
            if usable {
                bounds[i].2 = Some(Probed {
                    mv: first,
                    value: w,
                    exact,
                    horizon: self.horizon,
                });
            }
            self.horizon |= outer_horizon;
            if all_lo >= beta {
                return Some(all_lo);
            }
            if all_hi <= alpha {
                return Some(all_hi);
            }
        }
        None
    }

    /// Iterative deepening from decision node `state`: the best move of the deepest completed
    /// iteration.
    fn search_root(&mut self, state: &G, legal: &[G::Action]) -> G::Action {
        let ToAct::Decision(me) = state.to_act() else {
            panic!("expectimax chooses at a decision node");
        };
        self.start_search(state, true);
        self.aborted = false;
        let started = Instant::now();
        let first_node = self.nodes;
        self.deadline = None;
        self.node_limit = None;
        let mut order: Vec<G::Action> = legal.to_vec();
        order.shuffle(&mut self.rng);
        if self.config.move_ordering {
            let mut leaves = Vec::new();
            self.eval.evaluate_moves(state, &order, me, &mut leaves);
            let mut keyed: Vec<(f64, G::Action)> = leaves
                .iter()
                .zip(&order)
                .map(|(&(v, _), &a)| (v, a))
                .collect();
            keyed.sort_by(|x, y| y.0.total_cmp(&x.0));
            order = keyed.into_iter().map(|(_, a)| a).collect();
        }
        let mut chosen = order[0];
        self.last_depth = 0;
        for depth in 1..=self.params.depth {
            // Depth 1 always completes; deeper iterations stop at the deadline.
            if depth == 2 {
                self.deadline = self.params.ms.map(|ms| started + Duration::from_millis(ms));
                self.node_limit = Some(first_node.saturating_add(self.params.nodes));
            }
            let mut alpha = -INF;
            let mut best = order[0];
            self.horizon = false;
            for &a in &order {
                let mut child = state.clone();
                child.play_unchecked(a);
                let lower = if self.config.alpha_beta { alpha } else { -INF };
                let v = self.negamax(&child, depth - 1, lower, INF, me, None);
                if self.aborted {
                    break;
                }
                if v > alpha {
                    alpha = v;
                    best = a;
                }
            }
            if self.aborted {
                break;
            }
            chosen = best;
            self.last_depth = depth;
            if let Some(pos) = order.iter().position(|&m| m == best) {
                order[..=pos].rotate_right(1);
            }
            if !self.horizon || self.deadline.is_some_and(|d| Instant::now() >= d) {
                // No position was cut off by the horizon: the search was exact, deeper ones
                // would repeat it.
                break;
            }
        }
        chosen
    }
}

impl<G: Evaluate, E: Evaluator<G>> Agent<G> for Expectimax<G, E> {
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action {
        if legal.len() == 1 {
            return legal[0];
        }
        self.search_root(state, legal)
    }
}
