//! The `td` agent's node budget: with a budget too small for any iteration past the first,
//! `td:ply=2` plays exactly the greedy network's moves (`td:ply=0`), and with the default budget
//! its two-ply search chooses differently somewhere, so the budget is what decides.

use cowrie_agents::{Agent, AgentSpec, AnyAgent};
use cowrie_engine::{Frangieh, FrangiehRules, Game, RuleSet, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn agent(spec: &str) -> AnyAgent<Frangieh> {
    let spec: AgentSpec = spec.parse().unwrap();
    AnyAgent::build(&spec, ChaCha8Rng::seed_from_u64(5))
}

/// Decision positions of random Frangieh `modern` games, with their legal actions.
fn positions(games: u64) -> Vec<(Frangieh, Vec<<Frangieh as Game>::Action>)> {
    let rules = FrangiehRules::variant("modern").unwrap();
    let mut r = ChaCha8Rng::seed_from_u64(11);
    let (mut out, mut outcomes, mut actions) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..games {
        let mut s = Frangieh::new(&rules);
        loop {
            match s.to_act() {
                ToAct::Terminal(_) => break,
                ToAct::Chance => {
                    s.chance_outcomes(&mut outcomes);
                    let o = cowrie_engine::sample_outcome(&outcomes, &mut r);
                    s.apply_outcome(o);
                }
                ToAct::Decision(_) => {
                    s.legal_actions(&mut actions);
                    if actions.len() > 1 {
                        out.push((s, actions.clone()));
                    }
                    s.play_unchecked(actions[r.gen_range(0..actions.len())]);
                }
            }
        }
    }
    out
}

#[test]
fn a_budget_below_the_second_iteration_plays_the_greedy_networks_moves() {
    let sample = positions(2);
    assert!(sample.len() > 40, "{} positions", sample.len());
    let (mut greedy, mut starved) = (agent("td:ply=0"), agent("td:ply=2,nodes=1"));
    for (s, legal) in &sample {
        assert_eq!(greedy.choose(s, legal), starved.choose(s, legal));
    }
    let (mut greedy, mut deep) = (agent("td:ply=0"), agent("td:ply=2"));
    let differ = sample
        .iter()
        .take(25)
        .filter(|(s, legal)| greedy.choose(s, legal) != deep.choose(s, legal))
        .count();
    assert!(differ > 0, "the two-ply search never chose otherwise");
}
