//! Shared workloads for cowrie's criterion benchmarks, so the benches and their tests run the
//! same code.

use cowrie_agents::{
    Agent, AgentSpec, Evaluate, Expectimax, ExpectimaxParams, MctsAgent, RandomAgent,
};
use cowrie_engine::{sample_outcome, Game, ToAct};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// What a batch of random games produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    /// Games played.
    pub games: u64,
    /// Decision plies over all games.
    pub plies: u64,
    /// Games won by player one.
    pub p1_wins: u64,
}

/// Plays `games` uniformly random games of `G` under `rules` through the public game API, one
/// thread, with one random agent stream and one chance stream seeded by `seed`.
#[must_use]
pub fn random_games<G: Game>(rules: &G::Rules, games: u64, seed: u64) -> Batch {
    let mut agent = RandomAgent::new(ChaCha8Rng::seed_from_u64(seed));
    let mut chance = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED);
    let mut actions = Vec::with_capacity(64);
    let mut outcomes = Vec::with_capacity(64);
    let mut out = Batch::default();
    for _ in 0..games {
        let mut s = G::new(rules);
        loop {
            match s.to_act() {
                ToAct::Decision(_) => {
                    s.legal_actions(&mut actions);
                    let a = agent.choose(&s, &actions);
                    s.play_unchecked(a);
                }
                ToAct::Chance => {
                    s.chance_outcomes(&mut outcomes);
                    let o = sample_outcome(&outcomes, &mut chance);
                    s.apply_outcome(o);
                }
                ToAct::Terminal(r) => {
                    if r.winner() == Some(cowrie_engine::Player::ONE) {
                        out.p1_wins += 1;
                    }
                    break;
                }
            }
        }
        out.games += 1;
        out.plies += u64::from(s.plies());
    }
    out
}

/// Plays `games` uniformly random games of `G` with [`Game::random_playout`] (a game's fast
/// path where it has one), one stream seeded by `seed`. For a game without chance this makes
/// the same draws as [`random_games`] and plays the same games.
#[must_use]
pub fn playout_games<G: Game>(rules: &G::Rules, games: u64, seed: u64) -> Batch {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Batch::default();
    for _ in 0..games {
        let mut s = G::new(rules);
        s.random_playout(&mut rng);
        if s.end_reason().and_then(|r| r.winner()) == Some(cowrie_engine::Player::ONE) {
            out.p1_wins += 1;
        }
        out.games += 1;
        out.plies += u64::from(s.plies());
    }
    out
}

/// One MCTS search from `G`'s start position under `rules` with `spec` (an `mcts:iterations=…`
/// spec) and the agent stream seeded by `seed`: the chosen move in the game's notation and the
/// iterations run.
///
/// # Panics
/// If `spec` is not an `mcts` spec or the start position is not a decision node.
#[must_use]
pub fn mcts_move<G: Evaluate>(rules: &G::Rules, spec: &str, seed: u64) -> (String, u64) {
    let AgentSpec::Mcts(params) = spec.parse::<AgentSpec>().expect("a valid spec") else {
        panic!("not an mcts spec: {spec}");
    };
    let start = G::new(rules);
    let mut legal = Vec::new();
    start.legal_actions(&mut legal);
    let mut agent = MctsAgent::<G>::new(params, ChaCha8Rng::seed_from_u64(seed));
    let mv = agent.choose(&start, &legal);
    (start.action_to_string(mv), agent.last_iterations())
}

/// One expectimax search (iterative deepening to `depth`, every pruning on) from `G`'s start
/// position under `rules`, agent stream seeded by `seed`: the chosen move in the game's
/// notation and the nodes visited.
#[must_use]
pub fn expectimax_move<G: Evaluate>(rules: &G::Rules, depth: u32, seed: u64) -> (String, u64) {
    let start = G::new(rules);
    let mut legal = Vec::new();
    start.legal_actions(&mut legal);
    let mut agent = Expectimax::<G>::new(
        ExpectimaxParams { depth, ms: None },
        ChaCha8Rng::seed_from_u64(seed),
    );
    let mv = agent.choose(&start, &legal);
    (start.action_to_string(mv), agent.nodes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowrie_engine::{Baghchal, BaghchalRules};

    #[test]
    fn agent_signatures() {
        // The same signatures `benches/agents.rs` asserts (agent stream seed 1).
        let rules = BaghchalRules::default();
        assert_eq!(
            mcts_move::<Baghchal>(&rules, "mcts:iterations=1000", 1),
            ("c5".to_string(), 1000)
        );
        assert_eq!(
            expectimax_move::<Baghchal>(&rules, 5, 1),
            ("c5".to_string(), 13_381)
        );
    }
}
