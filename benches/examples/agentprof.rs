//! Quick agent timing on Frangieh (not a benchmark).
use cowrie_agents::{Agent, Expectimax, ExpectimaxParams, MctsAgent, AgentSpec};
use cowrie_benches::playout_games;
use cowrie_engine::{Frangieh, FrangiehRules, Game, ToAct, sample_outcome};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let rules = FrangiehRules::MODERN;
    let t = std::time::Instant::now();
    let b = playout_games::<Frangieh>(&rules, 5000, 1);
    let s = t.elapsed().as_secs_f64();
    println!("random games: {:.0}/s", b.games as f64 / s);
    let AgentSpec::Mcts(p) = "mcts:iterations=5000".parse::<AgentSpec>().unwrap() else { panic!() };
    let start = Frangieh::new(&rules);
    let mut st = start.clone();
    let mut outs = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    while let ToAct::Chance = st.to_act() { st.chance_outcomes(&mut outs); let o = sample_outcome(&outs, &mut rng); st.apply_outcome(o); }
    let mut legal = Vec::new();
    st.legal_actions(&mut legal);
    let mut a = MctsAgent::<Frangieh>::new(p, ChaCha8Rng::seed_from_u64(1));
    let t = std::time::Instant::now();
    for _ in 0..4 { a.choose(&st, &legal); }
    let s = t.elapsed().as_secs_f64();
    println!("mcts: {:.0} sims/s (start to_act {:?}, {} legal)", 20000.0 / s, start.to_act(), legal.len());
    // expectimax depth 2 over positions from random play
    let mut positions = Vec::new();
    let mut prng = ChaCha8Rng::seed_from_u64(7);
    while positions.len() < 100 {
        let mut s = Frangieh::new(&rules);
        let stop = prng.gen_range(0..80);
        let mut plies = 0;
        loop {
            match s.to_act() {
                ToAct::Terminal(_) => break,
                ToAct::Chance => { s.chance_outcomes(&mut outs); let o = sample_outcome(&outs, &mut prng); s.apply_outcome(o); }
                ToAct::Decision(_) => {
                    s.legal_actions(&mut legal);
                    if plies == stop { if legal.len() > 1 { positions.push(s.clone()); } break; }
                    let a = legal[prng.gen_range(0..legal.len())]; s.play_unchecked(a); plies += 1;
                }
            }
        }
    }
    let mut e = Expectimax::<Frangieh>::new(ExpectimaxParams { depth: 2, ms: None }, ChaCha8Rng::seed_from_u64(1));
    let t = std::time::Instant::now();
    let mut worst: f64 = 0.0;
    for p in &positions {
        let t1 = std::time::Instant::now();
        p.legal_actions(&mut legal);
        e.choose(p, &legal);
        worst = worst.max(t1.elapsed().as_secs_f64());
    }
    let s = t.elapsed().as_secs_f64();
    println!("expectimax d2: {:.2} ms/move, worst {:.1} ms, {} nodes", s * 1000.0 / positions.len() as f64, worst*1000.0, e.nodes());
}
