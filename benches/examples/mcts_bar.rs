//! The Frangieh MCTS bar's workload once (`mcts:iterations=5000`, random rollouts, from the
//! first decision of seed 1), for instruction counts: `valgrind --tool=callgrind mcts_bar`.
use cowrie_benches::{first_decision, mcts_move_from};
use cowrie_engine::{Frangieh, FrangiehRules};

fn main() {
    let rules = FrangiehRules::default();
    let start = first_decision::<Frangieh>(&rules, 1);
    let spec = "mcts:iterations=5000,rollout=random,cutoff=none";
    println!("{:?}", mcts_move_from(&start, spec, 1));
}
