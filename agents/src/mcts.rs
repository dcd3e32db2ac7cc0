//! UCT Monte Carlo tree search over any [`Evaluate`] game.
//!
//! - **Tree**: an arena (`Vec` of nodes, children stored contiguously and addressed by index);
//!   rebuilt for every move, its storage reused.
//! - **Chance**: chance nodes are tree nodes whose children are the outcomes; selection samples
//!   an outcome by its probability from the agent's stream (closed loop). A decision node thus
//!   always stands for one concrete position, so its children are exactly that position's legal
//!   actions — in dice games the legal moves depend on the roll, which an open-loop tree (one
//!   node per action sequence, dice re-sampled each iteration) would mix up.
//! - **Values**: every iteration's result is the return of player one (zero-sum, so one number
//!   per node suffices); a decision node scores its children from the view of *its* player,
//!   read from its state's [`ToAct::Decision`]. Depth parity is never used, so extra throws,
//!   doubles and passes need no special case. Truncated games are worth 0.
//! - **Rollouts**: uniformly random ([`Game::random_playout`], the fast path, when there is no
//!   cutoff) or greedy on the evaluation; with `cutoff = N`, after `N` decision plies the
//!   position is scored by the evaluation.
//! - **Final move**: the most visited root child, ties broken by the agent's stream.

use std::time::Instant;

use cowrie_engine::{sample_outcome, Game, Player, ToAct};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::heuristic::{leaf_value, pick_by_evaluation, Evaluate};
use crate::spec::{Budget, MctsParams, Rollout};
use crate::value::Viewed;
use crate::Agent;

const NONE: u32 = u32::MAX;

/// What leads into a node from its parent.
#[derive(Clone, Copy, Debug)]
enum Edge<A, O> {
    Root,
    Action(A),
    Outcome(O, f64),
}

#[derive(Clone, Debug)]
struct Node<A, O> {
    edge: Edge<A, O>,
    /// Who acts at the node; set when the node is first reached with its state.
    to_act: Option<ToAct>,
    visits: u32,
    /// Sum of player one's results over the iterations through this node.
    total: f64,
    /// First child in the arena, `NONE` until expanded.
    first_child: u32,
    children: u32,
}

impl<A, O> Node<A, O> {
    fn new(edge: Edge<A, O>) -> Self {
        Node {
            edge,
            to_act: None,
            visits: 0,
            total: 0.0,
            first_child: NONE,
            children: 0,
        }
    }
}

/// A UCT search agent.
#[derive(Clone, Debug)]
pub struct MctsAgent<G: Game> {
    params: MctsParams,
    rng: ChaCha8Rng,
    nodes: Vec<Node<G::Action, G::Outcome>>,
    path: Vec<u32>,
    actions: Vec<G::Action>,
    outcomes: Vec<(G::Outcome, f64)>,
    values: Vec<f64>,
    iterations: u64,
}

impl<G: Evaluate> MctsAgent<G> {
    /// An MCTS agent with `params`, drawing from `rng`.
    #[must_use]
    pub fn new(params: MctsParams, rng: ChaCha8Rng) -> Self {
        MctsAgent {
            params,
            rng,
            nodes: Vec::new(),
            path: Vec::new(),
            actions: Vec::new(),
            outcomes: Vec::new(),
            values: Vec::new(),
            iterations: 0,
        }
    }

    /// Iterations run by the last [`Agent::choose`] (0 if the move was forced).
    #[must_use]
    pub fn last_iterations(&self) -> u64 {
        self.iterations
    }

    /// Runs the search from `state` (a decision node) and returns the root children's actions
    /// with their visit counts, in `legal` order.
    ///
    /// # Panics
    /// If `state` is not a decision node or `legal` is empty.
    pub fn search(&mut self, state: &G, legal: &[G::Action]) -> Vec<(G::Action, u32)> {
        self.run(state, legal);
        self.root_children()
            .map(|i| match self.nodes[i].edge {
                Edge::Action(a) => (a, self.nodes[i].visits),
                _ => unreachable!("root children are actions"),
            })
            .collect()
    }

    fn root_children(&self) -> std::ops::Range<usize> {
        let r = &self.nodes[0];
        r.first_child as usize..(r.first_child + r.children) as usize
    }

    fn run(&mut self, state: &G, legal: &[G::Action]) {
        assert!(
            matches!(state.to_act(), ToAct::Decision(_)),
            "MCTS searches from a decision node"
        );
        assert!(!legal.is_empty(), "a decision node has legal actions");
        self.nodes.clear();
        self.nodes.push(Node::new(Edge::Root));
        self.nodes[0].to_act = Some(state.to_act());
        self.nodes[0].first_child = 1;
        self.nodes[0].children = legal.len() as u32;
        self.nodes
            .extend(legal.iter().map(|&a| Node::new(Edge::Action(a))));
        self.iterations = 0;
        let started = Instant::now();
        loop {
            match self.params.budget {
                Budget::Iterations(n) => {
                    if self.iterations >= u64::from(n) {
                        break;
                    }
                }
                Budget::Millis(ms) => {
                    if self.iterations > 0 && started.elapsed().as_millis() >= u128::from(ms) {
                        break;
                    }
                }
            }
            self.iterate(state);
            self.iterations += 1;
        }
    }

    /// One iteration: selection and expansion down to a new leaf, a rollout, the backup.
    fn iterate(&mut self, root: &G) {
        let mut state = root.clone();
        self.path.clear();
        let mut node = 0usize;
        self.path.push(0);
        loop {
            let to_act = *self.nodes[node]
                .to_act
                .get_or_insert_with(|| state.to_act());
            if matches!(to_act, ToAct::Terminal(_)) {
                break;
            }
            // A node reached for the first time is a leaf: roll out from it.
            if node != 0 && self.nodes[node].visits == 0 {
                break;
            }
            if self.nodes[node].first_child == NONE {
                self.expand(node, &state);
            }
            let child = match to_act {
                ToAct::Decision(p) => self.select_uct(node, p),
                ToAct::Chance => self.select_outcome(node),
                ToAct::Terminal(_) => unreachable!(),
            };
            match self.nodes[child].edge {
                Edge::Action(a) => state.play_unchecked(a),
                Edge::Outcome(o, _) => state.apply_outcome(o),
                Edge::Root => unreachable!("the root is nobody's child"),
            }
            node = child;
            self.path.push(child as u32);
        }
        let value = self.rollout(&mut state);
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.total += value;
        }
    }

    fn expand(&mut self, node: usize, state: &G) {
        let first = self.nodes.len() as u32;
        match state.to_act() {
            ToAct::Decision(_) => {
                state.legal_actions(&mut self.actions);
                self.nodes
                    .extend(self.actions.iter().map(|&a| Node::new(Edge::Action(a))));
            }
            ToAct::Chance => {
                state.chance_outcomes(&mut self.outcomes);
                self.nodes.extend(
                    self.outcomes
                        .iter()
                        .map(|&(o, p)| Node::new(Edge::Outcome(o, p))),
                );
            }
            ToAct::Terminal(_) => {}
        }
        let count = self.nodes.len() as u32 - first;
        let n = &mut self.nodes[node];
        n.first_child = first;
        n.children = count;
    }

    /// UCT from the view of `player`, who acts at `node`. Unvisited children come first, one
    /// picked uniformly by the agent's stream.
    fn select_uct(&mut self, node: usize, player: Player) -> usize {
        let (first, count) = (
            self.nodes[node].first_child as usize,
            self.nodes[node].children as usize,
        );
        let log_n = f64::from(self.nodes[node].visits.max(1)).ln();
        let mut best = first;
        let mut best_score = f64::NEG_INFINITY;
        let mut unvisited = 0u32;
        for i in first..first + count {
            let c = &self.nodes[i];
            if c.visits == 0 {
                unvisited += 1;
                if unvisited == 1 || self.rng.gen_range(0..unvisited) == 0 {
                    best = i;
                }
                continue;
            }
            if unvisited > 0 {
                continue;
            }
            let n = f64::from(c.visits);
            let mean = Viewed::player_one(c.total).for_player(player) / n;
            let score = mean + self.params.c * (log_n / n).sqrt();
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    /// Samples a chance child by its probability.
    fn select_outcome(&mut self, node: usize) -> usize {
        let first = self.nodes[node].first_child as usize;
        let count = self.nodes[node].children as usize;
        let mut u: f64 = self.rng.gen();
        for i in first..first + count {
            if let Edge::Outcome(_, p) = self.nodes[i].edge {
                if u < p {
                    return i;
                }
                u -= p;
            }
        }
        first + count - 1
    }

    /// Plays `state` on by the rollout policy and returns player one's result.
    fn rollout(&mut self, state: &mut G) -> f64 {
        if self.params.rollout == Rollout::Random && self.params.cutoff.is_none() {
            state.random_playout(&mut self.rng);
            return state.returns()[0];
        }
        let mut plies = 0u32;
        loop {
            match state.to_act() {
                ToAct::Terminal(_) => return state.returns()[0],
                ToAct::Chance => {
                    state.chance_outcomes(&mut self.outcomes);
                    let o = sample_outcome(&self.outcomes, &mut self.rng);
                    state.apply_outcome(o);
                }
                ToAct::Decision(_) => {
                    if self.params.cutoff.is_some_and(|c| plies >= c) {
                        return leaf_value(state, Player::ONE);
                    }
                    state.legal_actions(&mut self.actions);
                    let a = match self.params.rollout {
                        Rollout::Random => self.actions[self.rng.gen_range(0..self.actions.len())],
                        Rollout::Heuristic => pick_by_evaluation(
                            state,
                            &self.actions,
                            0.0,
                            &mut self.rng,
                            &mut self.values,
                        ),
                    };
                    state.play_unchecked(a);
                    plies += 1;
                }
            }
        }
    }
}

impl<G: Evaluate> Agent<G> for MctsAgent<G> {
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action {
        if legal.len() == 1 {
            self.iterations = 0;
            return legal[0];
        }
        self.run(state, legal);
        // The most visited child; ties broken uniformly by the agent's stream.
        let mut best = 0;
        let mut best_visits = 0;
        let mut ties = 0u32;
        for (k, i) in self.root_children().enumerate() {
            let v = self.nodes[i].visits;
            if v > best_visits {
                best_visits = v;
                best = k;
                ties = 1;
            } else if v == best_visits {
                ties += 1;
                if self.rng.gen_range(0..ties) == 0 {
                    best = k;
                }
            }
        }
        legal[best]
    }
}
