//! The search tree: an arena of nodes, each node's children contiguous and addressed by index,
//! and the re-rooting that keeps a subtree for the next move.

use crate::spec::Widening;

/// No node (a child index of a node not yet expanded).
pub(super) const NONE: u32 = u32::MAX;

/// What leads into a node from its parent.
#[derive(Clone, Copy, Debug)]
pub(super) enum Edge<A, O> {
    Root,
    Action(A),
    Outcome(O, f64),
}

/// A proven value (MCTS-solver): player one's return under best play from the node, and the
/// decision plies to the end of the game along the line that gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Proof {
    pub value: f64,
    pub plies: u32,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Node<A, O> {
    pub edge: Edge<A, O>,
    /// Who acts at the node; set when the node is first reached with its state.
    pub to_act: Option<cowrie_engine::ToAct>,
    pub visits: u32,
    /// Sum of player one's results over the iterations through this node.
    pub total: f64,
    /// First child in the arena, `NONE` until expanded.
    pub first_child: u32,
    pub children: u32,
    /// The evaluation of the node's position from its parent's mover's view, divided by the
    /// game's value bound; scored when the parent is expanded with a progressive bias, 0
    /// otherwise.
    pub prior: f32,
    /// The node's proven value, once the solver has one.
    pub proof: Option<Proof>,
    /// How many of its children are proven.
    pub proven_children: u32,
}

impl<A, O> Node<A, O> {
    pub fn new(edge: Edge<A, O>) -> Self {
        Node {
            edge,
            to_act: None,
            visits: 0,
            total: 0.0,
            first_child: NONE,
            children: 0,
            prior: 0.0,
            proof: None,
            proven_children: 0,
        }
    }

    /// The arena indices of the node's children (empty until expanded).
    pub fn child_range(&self) -> std::ops::Range<usize> {
        if self.first_child == NONE {
            0..0
        } else {
            self.first_child as usize..(self.first_child + self.children) as usize
        }
    }
}

/// How many of a node's `children` selection may choose among after `visits` visits:
/// `ceil(k * visits^exponent)`, at least 1 (Coulom 2007; Chaslot et al. 2008), or all of them
/// without widening.
pub(super) fn width(widening: Option<Widening>, visits: u32, children: u32) -> u32 {
    match widening {
        None => children,
        Some(w) => {
            let n = f64::from(visits.max(1));
            let k = (w.k * n.powf(w.exponent)).ceil();
            if k >= f64::from(children) {
                children
            } else {
                (k as u32).max(1)
            }
        }
    }
}

/// The arena and the scratch space re-rooting uses.
#[derive(Clone, Debug)]
pub(super) struct Tree<A, O> {
    pub nodes: Vec<Node<A, O>>,
    spare: Vec<Node<A, O>>,
    queue: Vec<(u32, u32)>,
}

impl<A: Copy, O: Copy> Tree<A, O> {
    pub fn new() -> Self {
        Tree {
            nodes: Vec::new(),
            spare: Vec::new(),
            queue: Vec::new(),
        }
    }

    /// Keeps only the subtree under node `keep`, which becomes the root (index 0). Its nodes
    /// are copied breadth first, so each node's children stay contiguous; their statistics,
    /// priors and proofs are kept.
    pub fn reroot(&mut self, keep: usize) {
        self.spare.clear();
        self.queue.clear();
        let mut root = self.nodes[keep];
        root.edge = Edge::Root;
        self.spare.push(root);
        self.queue.push((keep as u32, 0));
        let mut next = 0;
        while next < self.queue.len() {
            let (old, new) = self.queue[next];
            next += 1;
            let range = self.nodes[old as usize].child_range();
            if range.is_empty() {
                continue;
            }
            let first = self.spare.len() as u32;
            for (k, c) in range.enumerate() {
                self.spare.push(self.nodes[c]);
                self.queue.push((c as u32, first + k as u32));
            }
            self.spare[new as usize].first_child = first;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widening_opens_the_ceiling_of_k_times_the_visits_to_the_power() {
        let w = Some(Widening {
            k: 2.0,
            exponent: 0.5,
        });
        // 2 * sqrt(1) = 2, 2 * sqrt(10) = 6.32 -> 7, 2 * sqrt(100) = 20.
        assert_eq!(width(w, 0, 50), 2);
        assert_eq!(width(w, 1, 50), 2);
        assert_eq!(width(w, 10, 50), 7);
        assert_eq!(width(w, 100, 50), 20);
        assert_eq!(width(w, 10_000, 50), 50);
        assert_eq!(width(None, 3, 50), 50);
    }

    #[test]
    fn rerooting_keeps_the_subtree_contiguous_and_drops_the_rest() {
        // root(0) -> a(1), b(2); b -> c(3), d(4); d -> e(5)
        let mut t: Tree<u8, u8> = Tree::new();
        let n = |e: u8, visits: u32| {
            let mut x = Node::new(Edge::Action(e));
            x.visits = visits;
            x
        };
        t.nodes = vec![n(0, 9), n(1, 3), n(2, 6), n(3, 2), n(4, 4), n(5, 1)];
        t.nodes[0].edge = Edge::Root;
        (t.nodes[0].first_child, t.nodes[0].children) = (1, 2);
        (t.nodes[2].first_child, t.nodes[2].children) = (3, 2);
        (t.nodes[4].first_child, t.nodes[4].children) = (5, 1);
        t.reroot(2);
        let visits: Vec<u32> = t.nodes.iter().map(|x| x.visits).collect();
        assert_eq!(visits, [6, 2, 4, 1]);
        assert!(matches!(t.nodes[0].edge, Edge::Root));
        assert_eq!((t.nodes[0].first_child, t.nodes[0].children), (1, 2));
        assert_eq!(t.nodes[1].first_child, NONE);
        assert_eq!((t.nodes[2].first_child, t.nodes[2].children), (3, 1));
        assert!(matches!(t.nodes[3].edge, Edge::Action(5)));
    }
}
