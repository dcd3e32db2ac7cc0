//! Every game's evaluation keeps the `Evaluate` contract on random play: within [-1, 1] before
//! the end, antisymmetric, and exactly the returns at the end.

use cowrie_agents::Evaluate;
use cowrie_engine::{
    sample_outcome, Baghchal, Bargese, Frangieh, Julbahar, Player, RuleSet, ToAct,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn check<G: Evaluate>(rules: &G::Rules, games: u32) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut actions, mut outcomes) = (Vec::new(), Vec::new());
    for _ in 0..games {
        let mut s = G::new(rules);
        loop {
            let (a, b) = (s.evaluate(Player::ONE), s.evaluate(Player::TWO));
            assert!(
                (a + b).abs() < 1e-12,
                "{} not antisymmetric: {a} {b}",
                G::NAME
            );
            match s.to_act() {
                ToAct::Terminal(_) => {
                    assert_eq!([a, b], s.returns(), "{}: exact returns at the end", G::NAME);
                    break;
                }
                ToAct::Chance => {
                    assert!(a.abs() <= 1.0, "{}: {a}", G::NAME);
                    s.chance_outcomes(&mut outcomes);
                    let o = sample_outcome(&outcomes, &mut rng);
                    s.apply_outcome(o);
                }
                ToAct::Decision(_) => {
                    assert!(a.abs() <= 1.0, "{}: {a}", G::NAME);
                    s.legal_actions(&mut actions);
                    s.play_unchecked(actions[rng.gen_range(0..actions.len())]);
                }
            }
        }
    }
}

#[test]
fn evaluations_keep_the_contract() {
    check::<Baghchal>(&Default::default(), 50);
    for v in ["barakat-1974", "modern"] {
        check::<Frangieh>(&cowrie_engine::FrangiehRules::variant(v).unwrap(), 30);
    }
    for v in ["barakat-1974", "ludii"] {
        check::<Julbahar>(&cowrie_engine::JulbaharRules::variant(v).unwrap(), 10);
    }
    check::<Bargese>(&cowrie_engine::BargeseRules::variant("ludii").unwrap(), 20);
}
