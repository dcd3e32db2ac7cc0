//! Monte Carlo tree search (UCT) over any [`Evaluate`] game, with optional enhancements.
//!
//! - **Tree** (`tree.rs`): an arena (`Vec` of nodes, children stored contiguously and addressed
//!   by index); its storage reused from move to move.
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
//!
//! The enhancements, each off unless its spec parameter turns it on (plain UCT is then exactly
//! the search above, draw for draw):
//! - **Progressive bias** (`bias=W`; Chaslot, Winands, van den Herik, Uiterwijk and Bouzy,
//!   "Progressive strategies for Monte-Carlo tree search", 2008): when a decision node is
//!   expanded, each child is scored by the evaluation from the mover's view, `h` in `[-1, 1]`;
//!   its UCT score gains `W * h / (n + 1)`, and unvisited children are tried best first.
//! - **MCTS-solver** (`solver=on`; `solver.rs`): proven wins, losses and draws are backed up, so a
//!   win in one is taken, a loss in one avoided, a shorter win preferred; expansion plays each
//!   child once to find the terminal ones.
//! - **Progressive widening** (`widen=K,widen_exp=A`; Coulom 2007, Chaslot et al. 2008; at chance
//!   nodes Couëtoux et al. 2011): a node visited `N` times selects among its first
//!   `ceil(K * N^A)` children only — decision nodes' children in order of evaluation (shuffled by
//!   the stream, then sorted by `h` when the bias is on), chance nodes' outcomes in order of
//!   probability, sampled in proportion among the open ones.
//! - **A learned evaluation** (`net=shipped` or `net=FILE`): a `td` network scores the bias, the
//!   cutoff and greedy rollouts in place of the game's evaluation.
//! - **Tree reuse** (`reuse=on`): the next search starts from the subtree of the position it is
//!   asked about, found below the move the agent last chose; its statistics and proofs are kept.

mod solver;
mod tree;

use std::time::Instant;

use cowrie_engine::{sample_outcome, Game, Player, ToAct};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::agent::Agent;
use crate::evaluate::{leaf_value, value_bound, Evaluate};
use crate::heuristic::pick_by;
use crate::spec::{Budget, MctsParams, Rollout};
use crate::td::NetEval;
use crate::value::Viewed;
use tree::{width, Edge, Node, Proof, Tree, NONE};

/// A UCT search agent.
#[derive(Clone, Debug)]
pub struct MctsAgent<G: Game> {
    params: MctsParams,
    rng: ChaCha8Rng,
    tree: Tree<G::Action, G::Outcome>,
    path: Vec<u32>,
    actions: Vec<G::Action>,
    outcomes: Vec<(G::Outcome, f64)>,
    values: Vec<f64>,
    iterations: u64,
    /// The game's largest return, set at each search.
    bound: f64,
    /// Under tree reuse: the last searched position and the root child chosen there.
    previous: Option<(G, usize)>,
    /// The network `net=` names, read at the first search from the state's rules.
    net: Option<NetEval>,
}

impl<G: Evaluate> MctsAgent<G> {
    /// An MCTS agent with `params`, drawing from `rng`.
    #[must_use]
    pub fn new(params: MctsParams, rng: ChaCha8Rng) -> Self {
        MctsAgent {
            params,
            rng,
            tree: Tree::new(),
            path: Vec::new(),
            actions: Vec::new(),
            outcomes: Vec::new(),
            values: Vec::new(),
            iterations: 0,
            bound: 1.0,
            previous: None,
            net: None,
        }
    }

    /// The evaluation of `state` from `player`'s view: the network's where `net=` names one,
    /// else the game's; finished games score their returns.
    fn value(net: Option<&NetEval>, state: &G, player: Player) -> f64 {
        match net {
            Some(n) => n.value(state, player),
            None => leaf_value(state, player),
        }
    }

    /// Iterations run by the last [`Agent::choose`] (0 if the move was forced).
    #[must_use]
    pub fn last_iterations(&self) -> u64 {
        self.iterations
    }

    /// Visits of the root after the last search (more than its iterations when a reused tree
    /// brought some).
    #[must_use]
    pub fn root_visits(&self) -> u32 {
        self.tree.nodes.first().map_or(0, |n| n.visits)
    }

    /// Runs the search from `state` (a decision node) and returns the root children's actions
    /// with their visit counts, in `legal` order for plain UCT, in the tree's order (by
    /// evaluation) with the enhancements.
    ///
    /// # Panics
    /// If `state` is not a decision node or `legal` is empty.
    pub fn search(&mut self, state: &G, legal: &[G::Action]) -> Vec<(G::Action, u32)> {
        self.run(state, legal);
        self.tree.nodes[0]
            .child_range()
            .map(|i| match self.tree.nodes[i].edge {
                Edge::Action(a) => (a, self.tree.nodes[i].visits),
                _ => unreachable!("root children are actions"),
            })
            .collect()
    }

    fn run(&mut self, state: &G, legal: &[G::Action]) {
        let ToAct::Decision(me) = state.to_act() else {
            panic!("MCTS searches from a decision node");
        };
        assert!(!legal.is_empty(), "a decision node has legal actions");
        self.bound = value_bound(state);
        self.iterations = 0;
        if let (Some(w), None) = (&self.params.net, &self.net) {
            match crate::td::resolve::<G>(w, state.rules()) {
                Ok(n) => self.net = Some(n),
                // Checked when the agent was built (AnyAgent::check_rules).
                Err(e) => panic!("{e}"),
            }
        }
        let enhanced = self.params.enhanced();
        if !(self.params.reuse && self.reuse(state, legal.len())) {
            let nodes = &mut self.tree.nodes;
            nodes.clear();
            nodes.push(Node::new(Edge::Root));
            nodes[0].to_act = Some(state.to_act());
            if enhanced {
                self.actions.clear();
                self.actions.extend_from_slice(legal);
                self.add_actions(0, state, me);
            } else {
                nodes[0].first_child = 1;
                nodes[0].children = legal.len() as u32;
                nodes.extend(legal.iter().map(|&a| Node::new(Edge::Action(a))));
            }
        }
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
            if enhanced {
                if self.tree.nodes[0].proof.is_some() {
                    break;
                }
                self.iterate_enhanced(state);
            } else {
                self.iterate(state);
            }
            self.iterations += 1;
        }
    }

    /// One iteration of plain UCT: selection and expansion down to a new leaf, a rollout, the
    /// backup.
    fn iterate(&mut self, root: &G) {
        let mut state = root.clone();
        self.path.clear();
        let mut node = 0usize;
        self.path.push(0);
        loop {
            let to_act = *self.tree.nodes[node]
                .to_act
                .get_or_insert_with(|| state.to_act());
            if matches!(to_act, ToAct::Terminal(_)) {
                break;
            }
            // A node reached for the first time is a leaf: roll out from it.
            if node != 0 && self.tree.nodes[node].visits == 0 {
                break;
            }
            if self.tree.nodes[node].first_child == NONE {
                self.expand(node, &state);
            }
            let child = match to_act {
                ToAct::Decision(p) => self.select_uct(node, p),
                ToAct::Chance => self.select_outcome(node),
                ToAct::Terminal(_) => unreachable!(),
            };
            state = self.step(state, child);
            node = child;
        }
        let value = self.rollout(&mut state);
        self.backup(value);
    }

    /// One iteration with the enhancements: as [`Self::iterate`], stopping at proven nodes and
    /// backing proofs up (solver), selecting among the open children (widening) with the bias.
    fn iterate_enhanced(&mut self, root: &G) {
        let solver = self.params.solver;
        let mut state = root.clone();
        self.path.clear();
        let mut node = 0usize;
        self.path.push(0);
        // The path index of a node proven in this iteration, whose proof is to be backed up.
        let mut proven = None;
        let value = loop {
            let to_act = *self.tree.nodes[node]
                .to_act
                .get_or_insert_with(|| state.to_act());
            if matches!(to_act, ToAct::Terminal(_)) {
                let value = state.returns()[0];
                if solver && self.tree.nodes[node].proof.is_none() {
                    self.tree.nodes[node].proof = Some(Proof { value, plies: 0 });
                    proven = Some(self.path.len() - 1);
                }
                break value;
            }
            if let Some(p) = self.tree.nodes[node].proof {
                break p.value;
            }
            if node != 0 && self.tree.nodes[node].visits == 0 {
                break self.rollout(&mut state);
            }
            if self.tree.nodes[node].first_child == NONE {
                self.expand_enhanced(node, &state);
                if let Some(p) = self.tree.nodes[node].proof {
                    proven = Some(self.path.len() - 1);
                    break p.value;
                }
            }
            let child = match to_act {
                ToAct::Decision(p) => self.select_enhanced(node, p),
                ToAct::Chance => self.select_open_outcome(node),
                ToAct::Terminal(_) => unreachable!(),
            };
            state = self.step(state, child);
            node = child;
        };
        self.backup(value);
        if let Some(k) = proven {
            for j in (1..=k).rev() {
                let (parent, child) = (self.path[j - 1] as usize, self.path[j] as usize);
                if !solver::child_proven(&mut self.tree.nodes, parent, child, self.bound) {
                    break;
                }
            }
        }
    }

    /// Moves the iteration to `child`: its edge played on `state`, the child added to the path.
    fn step(&mut self, state: G, child: usize) -> G {
        self.path.push(child as u32);
        self.descend(state, child)
    }

    fn descend(&self, mut state: G, child: usize) -> G {
        match self.tree.nodes[child].edge {
            Edge::Action(a) => state.play_unchecked(a),
            Edge::Outcome(o, _) => state.apply_outcome(o),
            Edge::Root => unreachable!("the root is nobody's child"),
        }
        state
    }

    fn backup(&mut self, value: f64) {
        for &i in &self.path {
            let n = &mut self.tree.nodes[i as usize];
            n.visits += 1;
            n.total += value;
        }
    }

    fn expand(&mut self, node: usize, state: &G) {
        let nodes = &mut self.tree.nodes;
        let first = nodes.len() as u32;
        match state.to_act() {
            ToAct::Decision(_) => {
                state.legal_actions(&mut self.actions);
                nodes.extend(self.actions.iter().map(|&a| Node::new(Edge::Action(a))));
            }
            ToAct::Chance => {
                state.chance_outcomes(&mut self.outcomes);
                nodes.extend(
                    self.outcomes
                        .iter()
                        .map(|&(o, p)| Node::new(Edge::Outcome(o, p))),
                );
            }
            ToAct::Terminal(_) => {}
        }
        let count = nodes.len() as u32 - first;
        let n = &mut nodes[node];
        n.first_child = first;
        n.children = count;
    }

    fn expand_enhanced(&mut self, node: usize, state: &G) {
        match state.to_act() {
            ToAct::Decision(mover) => {
                state.legal_actions(&mut self.actions);
                self.add_actions(node, state, mover);
            }
            ToAct::Chance => {
                state.chance_outcomes(&mut self.outcomes);
                if self.params.widening.is_some() {
                    // Most probable first (stable: equal ones keep the game's order).
                    self.outcomes.sort_by(|a, b| b.1.total_cmp(&a.1));
                }
                let nodes = &mut self.tree.nodes;
                let first = nodes.len() as u32;
                nodes.extend(
                    self.outcomes
                        .iter()
                        .map(|&(o, p)| Node::new(Edge::Outcome(o, p))),
                );
                nodes[node].first_child = first;
                nodes[node].children = self.outcomes.len() as u32;
            }
            ToAct::Terminal(_) => {}
        }
    }

    /// Adds `self.actions` as the children of decision node `node` (position `state`, `mover`
    /// to act): shuffled by the stream, then — with the bias — each scored by the evaluation
    /// and sorted best first; with the solver the terminal ones are proven, and `node` with
    /// them where they settle it.
    fn add_actions(&mut self, node: usize, state: &G, mover: Player) {
        self.actions.shuffle(&mut self.rng);
        let (bias, solver) = (self.params.bias > 0.0, self.params.solver);
        let nodes = &mut self.tree.nodes;
        let first = nodes.len();
        for &a in &self.actions {
            let mut n = Node::new(Edge::Action(a));
            if bias || solver {
                let mut child = state.clone();
                child.play_unchecked(a);
                let to_act = child.to_act();
                if solver && matches!(to_act, ToAct::Terminal(_)) {
                    n.to_act = Some(to_act);
                    n.proof = Some(Proof {
                        value: child.returns()[0],
                        plies: 0,
                    });
                }
                if bias {
                    n.prior = (Self::value(self.net.as_ref(), &child, mover) / self.bound) as f32;
                }
            }
            nodes.push(n);
        }
        if bias {
            nodes[first..].sort_by(|a, b| b.prior.total_cmp(&a.prior));
        }
        nodes[node].first_child = first as u32;
        nodes[node].children = (nodes.len() - first) as u32;
        if solver {
            for i in first..nodes.len() {
                if nodes[i].proof.is_some() && solver::child_proven(nodes, node, i, self.bound) {
                    break;
                }
            }
        }
    }

    /// UCT from the view of `player`, who acts at `node`. Unvisited children come first, one
    /// picked uniformly by the agent's stream.
    fn select_uct(&mut self, node: usize, player: Player) -> usize {
        let nodes = &self.tree.nodes;
        let (first, count) = (
            nodes[node].first_child as usize,
            nodes[node].children as usize,
        );
        let log_n = f64::from(nodes[node].visits.max(1)).ln();
        let mut best = first;
        let mut best_score = f64::NEG_INFINITY;
        let mut unvisited = 0u32;
        for (k, c) in nodes[first..first + count].iter().enumerate() {
            let i = first + k;
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

    /// Selection with the enhancements, from the view of `player` at `node`: among the node's
    /// open children (widening), skipping proven losses (solver), the first unvisited one in
    /// the tree's order, else the best UCT score plus the progressive bias; a proven child
    /// scores its proven value.
    fn select_enhanced(&mut self, node: usize, player: Player) -> usize {
        let nodes = &self.tree.nodes;
        let range = nodes[node].child_range();
        let open = width(
            self.params.widening,
            nodes[node].visits,
            nodes[node].children,
        );
        let log_n = f64::from(nodes[node].visits.max(1)).ln();
        let (mut best, mut best_score) = (range.start, f64::NEG_INFINITY);
        let mut considered = 0;
        for i in range {
            if considered == open {
                break;
            }
            let c = &nodes[i];
            let proven = c
                .proof
                .map(|p| Viewed::player_one(p.value).for_player(player));
            if proven.is_some_and(|v| v <= -self.bound) {
                continue; // a proven loss is never chosen, and does not take an open place
            }
            considered += 1;
            if c.visits == 0 {
                return i;
            }
            let n = f64::from(c.visits);
            let mean = proven.unwrap_or_else(|| Viewed::player_one(c.total).for_player(player) / n);
            let score = mean
                + self.params.c * (log_n / n).sqrt()
                + self.params.bias * f64::from(c.prior) / (n + 1.0);
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    /// Samples a chance child by its probability.
    fn select_outcome(&mut self, node: usize) -> usize {
        let nodes = &self.tree.nodes;
        let first = nodes[node].first_child as usize;
        let count = nodes[node].children as usize;
        let mut u: f64 = self.rng.gen();
        for (k, c) in nodes[first..first + count].iter().enumerate() {
            if let Edge::Outcome(_, p) = c.edge {
                if u < p {
                    return first + k;
                }
                u -= p;
            }
        }
        first + count - 1
    }

    /// Samples a chance child among the open ones (widening: the most probable first), in
    /// proportion to their probabilities.
    fn select_open_outcome(&mut self, node: usize) -> usize {
        if self.params.widening.is_none() {
            return self.select_outcome(node);
        }
        let nodes = &self.tree.nodes;
        let range = nodes[node].child_range();
        let open = width(
            self.params.widening,
            nodes[node].visits,
            nodes[node].children,
        ) as usize;
        let open = range.start..range.start + open;
        let probability = |i: usize| match nodes[i].edge {
            Edge::Outcome(_, p) => p,
            _ => unreachable!("a chance node's children are outcomes"),
        };
        let mass: f64 = open.clone().map(probability).sum();
        let mut u = self.rng.gen::<f64>() * mass;
        for i in open.clone() {
            let p = probability(i);
            if u < p {
                return i;
            }
            u -= p;
        }
        open.end - 1
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
                        return Self::value(self.net.as_ref(), state, Player::ONE);
                    }
                    state.legal_actions(&mut self.actions);
                    let a = match self.params.rollout {
                        Rollout::Random => self.actions[self.rng.gen_range(0..self.actions.len())],
                        Rollout::Heuristic => {
                            let net = self.net.as_ref();
                            pick_by(
                                state,
                                &self.actions,
                                0.0,
                                &mut self.rng,
                                &mut self.values,
                                |s, p| Self::value(net, s, p),
                            )
                        }
                    };
                    state.play_unchecked(a);
                    plies += 1;
                }
            }
        }
    }

    /// Tree reuse: finds, below the root child chosen at the last search, the node of `state`
    /// (the first position of the agent's own to act on each line: through chance nodes and the
    /// opponent's moves), and makes it the root. False, leaving the tree to be rebuilt, where it
    /// is not there or was never expanded.
    fn reuse(&mut self, state: &G, legal: usize) -> bool {
        let Some((old, chosen)) = self.previous.take() else {
            return false;
        };
        let (hash, to_act) = (state.hash(), state.to_act());
        let ToAct::Decision(me) = to_act else {
            return false;
        };
        let mut stack = vec![(chosen, self.descend(old, chosen))];
        let mut found = None;
        while let Some((i, s)) = stack.pop() {
            let here = s.to_act();
            if here == to_act && s.hash() == hash {
                found = Some(i);
                break;
            }
            if here == ToAct::Decision(me) || matches!(here, ToAct::Terminal(_)) {
                continue;
            }
            for c in self.tree.nodes[i].child_range() {
                stack.push((c, self.descend(s.clone(), c)));
            }
        }
        let Some(found) = found else {
            return false;
        };
        let n = &self.tree.nodes[found];
        if n.first_child == NONE || n.children as usize != legal {
            return false;
        }
        self.tree.reroot(found);
        self.tree.nodes[0].to_act = Some(to_act);
        true
    }

    /// The root child to play: the most visited, ties broken by the stream; with the solver, a
    /// proven root plays the child that proves it (the shortest win, the longest loss), and
    /// proven losses are passed over while any child is not proven.
    fn final_choice(&mut self, me: Player) -> usize {
        let nodes = &self.tree.nodes;
        let range = nodes[0].child_range();
        let solver = self.params.solver;
        let mut best = range.start;
        let mut ties = 0u32;
        if solver && nodes[0].proof.is_some() {
            let mut top: Option<Proof> = None;
            for i in range {
                let Some(p) = nodes[i].proof else { continue };
                match top {
                    Some(t) if solver::better(t, p, me) => continue,
                    Some(t) if !solver::better(p, t, me) => {
                        ties += 1;
                        if self.rng.gen_range(0..ties) == 0 {
                            best = i;
                        }
                    }
                    _ => {
                        top = Some(p);
                        best = i;
                        ties = 1;
                    }
                }
            }
            return best;
        }
        let unproven = range.clone().any(|i| nodes[i].proof.is_none());
        let mut best_visits = 0;
        let mut first = true;
        for i in range {
            let c = &nodes[i];
            if solver
                && unproven
                && c.proof
                    .is_some_and(|p| Viewed::player_one(p.value).for_player(me) < 0.0)
            {
                continue;
            }
            if first || c.visits > best_visits {
                (best, best_visits, ties, first) = (i, c.visits, 1, false);
            } else if c.visits == best_visits {
                ties += 1;
                if self.rng.gen_range(0..ties) == 0 {
                    best = i;
                }
            }
        }
        best
    }
}

impl<G: Evaluate> Agent<G> for MctsAgent<G> {
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action {
        if legal.len() == 1 {
            self.iterations = 0;
            self.previous = None;
            return legal[0];
        }
        self.run(state, legal);
        if !self.params.enhanced() {
            // The most visited child; ties broken uniformly by the agent's stream.
            let mut best = 0;
            let mut best_visits = 0;
            let mut ties = 0u32;
            for (k, i) in self.tree.nodes[0].child_range().enumerate() {
                let v = self.tree.nodes[i].visits;
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
            return legal[best];
        }
        let ToAct::Decision(me) = state.to_act() else {
            unreachable!("run checked the state")
        };
        let chosen = self.final_choice(me);
        if self.params.reuse {
            self.previous = Some((state.clone(), chosen));
        }
        match self.tree.nodes[chosen].edge {
            Edge::Action(a) => a,
            _ => unreachable!("root children are actions"),
        }
    }
}
