//! Prints the agent benches' seeded signatures and a quick timing of the Frangieh bars (not a
//! benchmark; `cargo bench --bench agents` is). Usage: agentprof
use cowrie_agents::Evaluate;
use cowrie_benches::{
    expectimax_move, expectimax_moves, first_decision, mcts_move, mcts_move_from, playout_games,
    random_positions,
};
use cowrie_engine::{Baghchal, Bargese, Frangieh, FrangiehRules, Game, Julbahar};
use std::time::Instant;

fn signature<G: Evaluate>(mcts: &str, depth: u32) {
    let rules = G::Rules::default();
    println!(
        "{}: {mcts} {:?}; expectimax depth {depth} {:?}",
        G::NAME,
        mcts_move::<G>(&rules, mcts, 1),
        expectimax_move::<G>(&rules, depth, 1)
    );
}

fn main() {
    signature::<Baghchal>("mcts:iterations=1000", 5);
    signature::<Frangieh>("mcts:iterations=1000", 2);
    signature::<Julbahar>("mcts:iterations=100", 2);
    signature::<Bargese>("mcts:iterations=100", 2);
    let rules = FrangiehRules::default();
    let t = Instant::now();
    let b = playout_games::<Frangieh>(&rules, 2000, 1);
    let games = b.games as f64 / t.elapsed().as_secs_f64();
    let start = first_decision::<Frangieh>(&rules, 1);
    let spec = "mcts:iterations=5000,rollout=random,cutoff=none";
    let t = Instant::now();
    let sig = mcts_move_from(&start, spec, 1);
    let sims = 5000.0 / t.elapsed().as_secs_f64();
    let positions = random_positions::<Frangieh>(&rules, 100, 80, 7);
    let t = Instant::now();
    let e = expectimax_moves(&positions, 2, 1);
    let ms = t.elapsed().as_secs_f64() * 1000.0 / positions.len() as f64;
    println!("frangieh bars: mcts {sig:?}, expectimax {e:?}");
    println!(
        "frangieh: {games:.0} random games/s, MCTS {sims:.0} simulations/s, expectimax depth 2 {ms:.2} ms/move (start: {})",
        start.notation()
    );
}
