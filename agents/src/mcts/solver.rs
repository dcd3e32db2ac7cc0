//! The MCTS-solver backup (Winands, Björnsson and Saito, "Monte-Carlo Tree Search Solver",
//! Computers and Games 2008), for games scored in points: a terminal node is proven with its
//! return; a decision node is proven as soon as one child gives its player the game's largest
//! return, or once every child is proven (the best of them for its player); a chance node once
//! every outcome is proven (their expectation). Each proof carries the decision plies to the end
//! along its line, so a player prefers the shorter of two wins and the longer of two losses.

use cowrie_engine::{Player, ToAct};

use super::tree::{Node, Proof};
use crate::value::Viewed;

/// Whether proof `a` is better than proof `b` for `mover`: a higher value; at equal values a
/// win in fewer plies, a loss in more (draws are equal).
pub(super) fn better(a: Proof, b: Proof, mover: Player) -> bool {
    let va = Viewed::player_one(a.value).for_player(mover);
    let vb = Viewed::player_one(b.value).for_player(mover);
    if va != vb {
        return va > vb;
    }
    if va > 0.0 {
        a.plies < b.plies
    } else if va < 0.0 {
        a.plies > b.plies
    } else {
        false
    }
}

/// Records that `child`, a child of `parent`, has just been proven, and proves `parent` if it
/// now can (`bound`: the game's largest return). Returns whether `parent` became proven. Call it
/// once per child proven.
pub(super) fn child_proven<A, O>(
    nodes: &mut [Node<A, O>],
    parent: usize,
    child: usize,
    bound: f64,
) -> bool {
    let proof = nodes[child].proof.expect("the child is proven");
    if nodes[parent].proof.is_some() {
        return false;
    }
    nodes[parent].proven_children += 1;
    let all = nodes[parent].proven_children == nodes[parent].children;
    let range = nodes[parent].child_range();
    let settled = match nodes[parent]
        .to_act
        .expect("an expanded node has been reached")
    {
        ToAct::Decision(mover) => {
            if Viewed::player_one(proof.value).for_player(mover) >= bound {
                Some(Proof {
                    value: proof.value,
                    plies: proof.plies + 1,
                })
            } else if all {
                let best = range
                    .map(|i| nodes[i].proof.expect("every child is proven"))
                    .reduce(|a, b| if better(b, a, mover) { b } else { a })
                    .expect("an expanded decision node has children");
                Some(Proof {
                    value: best.value,
                    plies: best.plies + 1,
                })
            } else {
                None
            }
        }
        ToAct::Chance if all => {
            let (mut value, mut plies) = (0.0, 0);
            for i in range {
                let p = nodes[i].proof.expect("every outcome is proven");
                let super::tree::Edge::Outcome(_, prob) = nodes[i].edge else {
                    unreachable!("a chance node's children are outcomes")
                };
                value += prob * p.value;
                plies = plies.max(p.plies);
            }
            Some(Proof { value, plies })
        }
        ToAct::Chance => None,
        ToAct::Terminal(_) => unreachable!("a terminal node has no children"),
    };
    nodes[parent].proof = settled;
    settled.is_some()
}

#[cfg(test)]
mod tests {
    use super::super::tree::{Edge, Node};
    use super::*;

    fn proof(value: f64, plies: u32) -> Proof {
        Proof { value, plies }
    }

    #[test]
    fn a_win_sooner_and_a_loss_later_are_better() {
        let one = Player::ONE;
        assert!(better(proof(1.0, 1), proof(1.0, 3), one));
        assert!(better(proof(-1.0, 5), proof(-1.0, 2), one));
        assert!(better(proof(0.0, 1), proof(-1.0, 9), one));
        // Player two sees the values negated.
        assert!(better(proof(-1.0, 1), proof(-1.0, 3), Player::TWO));
        assert!(!better(proof(0.0, 1), proof(0.0, 3), one));
    }

    fn tree(parent: ToAct, children: &[(Option<Proof>, f64)]) -> Vec<Node<u8, u8>> {
        let mut nodes = vec![Node::new(Edge::Root)];
        nodes[0].to_act = Some(parent);
        nodes[0].first_child = 1;
        nodes[0].children = children.len() as u32;
        for (k, &(p, prob)) in children.iter().enumerate() {
            let mut n = Node::new(if matches!(parent, ToAct::Chance) {
                Edge::Outcome(k as u8, prob)
            } else {
                Edge::Action(k as u8)
            });
            n.proof = p;
            nodes.push(n);
        }
        nodes
    }

    #[test]
    fn one_winning_child_proves_a_decision_node_at_once() {
        let mut n = tree(
            ToAct::Decision(Player::TWO),
            &[(None, 0.0), (Some(proof(-1.0, 0)), 0.0)],
        );
        assert!(child_proven(&mut n, 0, 2, 1.0));
        assert_eq!(n[0].proof, Some(proof(-1.0, 1)));
    }

    #[test]
    fn a_losing_child_proves_nothing_until_every_child_is_proven() {
        let mut n = tree(
            ToAct::Decision(Player::ONE),
            &[(Some(proof(-1.0, 4)), 0.0), (None, 0.0), (None, 0.0)],
        );
        assert!(!child_proven(&mut n, 0, 1, 1.0));
        n[2].proof = Some(proof(0.0, 2));
        assert!(!child_proven(&mut n, 0, 2, 1.0));
        n[3].proof = Some(proof(-1.0, 7));
        assert!(child_proven(&mut n, 0, 3, 1.0));
        // The draw is the best of the three.
        assert_eq!(n[0].proof, Some(proof(0.0, 3)));
    }

    #[test]
    fn a_single_game_win_does_not_prove_a_node_where_gammons_are_possible() {
        let mut n = tree(
            ToAct::Decision(Player::ONE),
            &[(Some(proof(1.0, 0)), 0.0), (None, 0.0)],
        );
        assert!(!child_proven(&mut n, 0, 1, 3.0));
        n[2].proof = Some(proof(2.0, 6));
        assert!(child_proven(&mut n, 0, 2, 3.0));
        assert_eq!(n[0].proof, Some(proof(2.0, 7)));
    }

    #[test]
    fn a_chance_node_is_proven_with_the_expectation_of_its_outcomes() {
        let mut n = tree(
            ToAct::Chance,
            &[(Some(proof(1.0, 2)), 0.25), (Some(proof(-1.0, 5)), 0.75)],
        );
        assert!(!child_proven(&mut n, 0, 1, 1.0));
        assert!(child_proven(&mut n, 0, 2, 1.0));
        assert_eq!(n[0].proof, Some(proof(-0.5, 5)));
    }
}
