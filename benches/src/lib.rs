//! Shared workloads for cowrie's criterion benchmarks, so the benches and their tests run the
//! same code.

use cowrie_agents::{
    Agent, AgentSpec, Evaluate, Expectimax, ExpectimaxParams, MctsAgent, RandomAgent,
};
use cowrie_engine::{sample_outcome, Game, RuleSet, ToAct};
use rand::{Rng, SeedableRng};
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

/// `G`'s start position under `rules` played on to its first decision node with two or more
/// legal actions: chance outcomes drawn from a stream seeded by `seed`, forced actions played
/// (the start itself in Baghchal).
///
/// # Panics
/// If the game ends before such a decision.
#[must_use]
pub fn first_decision<G: Game>(rules: &G::Rules, seed: u64) -> G {
    let mut s = G::new(rules);
    let mut chance = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED);
    let (mut actions, mut outcomes) = (Vec::new(), Vec::new());
    loop {
        match s.to_act() {
            ToAct::Decision(_) => {
                s.legal_actions(&mut actions);
                if actions.len() > 1 {
                    return s;
                }
                s.play_unchecked(actions[0]);
            }
            ToAct::Chance => {
                s.chance_outcomes(&mut outcomes);
                let o = sample_outcome(&outcomes, &mut chance);
                s.apply_outcome(o);
            }
            ToAct::Terminal(_) => panic!("{} ended before a decision", G::NAME),
        }
    }
}

/// `count` decision nodes with two or more legal actions met in seeded uniformly random games of
/// `G` under `rules`: game `k` stops after a number of plies drawn uniformly below `max_plies`
/// (games that end first give no position).
#[must_use]
pub fn random_positions<G: Game>(
    rules: &G::Rules,
    count: usize,
    max_plies: u32,
    seed: u64,
) -> Vec<G> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut actions, mut outcomes) = (Vec::new(), Vec::new());
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut s = G::new(rules);
        let stop = rng.gen_range(0..max_plies);
        let mut plies = 0;
        loop {
            match s.to_act() {
                ToAct::Terminal(_) => break,
                ToAct::Chance => {
                    s.chance_outcomes(&mut outcomes);
                    let o = sample_outcome(&outcomes, &mut rng);
                    s.apply_outcome(o);
                }
                ToAct::Decision(_) => {
                    s.legal_actions(&mut actions);
                    if plies == stop {
                        if actions.len() > 1 {
                            out.push(s.clone());
                        }
                        break;
                    }
                    let a = actions[rng.gen_range(0..actions.len())];
                    s.play_unchecked(a);
                    plies += 1;
                }
            }
        }
    }
    out
}

/// One MCTS search from [`first_decision`]`(rules, seed)` with `spec` (an `mcts:iterations=…`
/// spec) and the agent stream seeded by `seed`: the chosen move in the game's notation and the
/// iterations run.
///
/// # Panics
/// If `spec` is not an `mcts` spec.
#[must_use]
pub fn mcts_move<G: Evaluate>(rules: &G::Rules, spec: &str, seed: u64) -> (String, u64) {
    mcts_move_from(&first_decision::<G>(rules, seed), spec, seed)
}

/// One MCTS search from decision node `start` with `spec`, agent stream seeded by `seed`: the
/// chosen move and the iterations run.
///
/// # Panics
/// If `spec` is not an `mcts` spec or `start` is not a decision node.
#[must_use]
pub fn mcts_move_from<G: Evaluate>(start: &G, spec: &str, seed: u64) -> (String, u64) {
    let AgentSpec::Mcts(params) = spec.parse::<AgentSpec>().expect("a valid spec") else {
        panic!("not an mcts spec: {spec}");
    };
    let mut legal = Vec::new();
    start.legal_actions(&mut legal);
    let mut agent = MctsAgent::<G>::new(params, ChaCha8Rng::seed_from_u64(seed));
    let mv = agent.choose(start, &legal);
    (start.action_to_string(mv), agent.last_iterations())
}

/// One expectimax search (iterative deepening to `depth`, every pruning on) from
/// [`first_decision`]`(rules, seed)`, agent stream seeded by `seed`: the chosen move in the
/// game's notation and the nodes visited.
#[must_use]
pub fn expectimax_move<G: Evaluate>(rules: &G::Rules, depth: u32, seed: u64) -> (String, u64) {
    let start = first_decision::<G>(rules, seed);
    let mut legal = Vec::new();
    start.legal_actions(&mut legal);
    let mut agent = Expectimax::<G>::new(
        ExpectimaxParams {
            depth,
            ms: None,
            nodes: cowrie_agents::expectimax::DEFAULT_NODES,
        },
        ChaCha8Rng::seed_from_u64(seed),
    );
    let mv = agent.choose(&start, &legal);
    (start.action_to_string(mv), agent.nodes())
}

/// One expectimax move (depth `depth`, every pruning on, one agent whose stream is seeded by
/// `seed`) at each of `positions`: a checksum of the chosen moves' texts (FNV-1a) and the nodes
/// visited in all.
#[must_use]
pub fn expectimax_moves<G: Evaluate>(positions: &[G], depth: u32, seed: u64) -> (u64, u64) {
    let mut agent = Expectimax::<G>::new(
        ExpectimaxParams {
            depth,
            ms: None,
            nodes: cowrie_agents::expectimax::DEFAULT_NODES,
        },
        ChaCha8Rng::seed_from_u64(seed),
    );
    let mut legal = Vec::new();
    let mut checksum: u64 = 0xcbf2_9ce4_8422_2325;
    for p in positions {
        p.legal_actions(&mut legal);
        let mv = agent.choose(p, &legal);
        for b in p.action_to_string(mv).bytes().chain([b';']) {
            checksum = (checksum ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    (checksum, agent.nodes())
}

/// `n` Frangieh `modern` positions at the roll (after a move), met in seeded random games
/// (one ChaCha8 stream of `seed` for dice and moves).
#[must_use]
pub fn frangieh_positions(n: usize, seed: u64) -> Vec<cowrie_engine::Frangieh> {
    use cowrie_engine::{sample_outcome, Frangieh, FrangiehRules, Game, ToAct};
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut buf, mut outs) = (Vec::new(), Vec::new());
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut s = Frangieh::new(&FrangiehRules::variant("modern").unwrap());
        loop {
            match s.to_act() {
                ToAct::Chance => {
                    if s.plies() > 0 && out.len() < n {
                        out.push(s);
                    }
                    s.chance_outcomes(&mut outs);
                    let o = sample_outcome(&outs, &mut rng);
                    s.apply_outcome(o);
                }
                ToAct::Decision(_) => {
                    s.legal_actions(&mut buf);
                    let a = buf[rng.gen_range(0..buf.len())];
                    s.play_unchecked(a);
                }
                ToAct::Terminal(_) => break,
            }
        }
    }
    out
}

/// The decision nodes with two or more legal actions, with their move lists, of `games` seeded
/// uniformly random games of `G` under `rules` (one stream seeded by `seed` for the moves and
/// the dice): the candidates a one-ply search scores.
#[must_use]
pub fn move_lists<G: Game>(rules: &G::Rules, games: u32, seed: u64) -> Vec<(G, Vec<G::Action>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    for _ in 0..games {
        let mut s = G::new(rules);
        loop {
            match s.to_act() {
                ToAct::Terminal(_) => break,
                ToAct::Chance => {
                    s.chance_outcomes(&mut outcomes);
                    let o = sample_outcome(&outcomes, &mut rng);
                    s.apply_outcome(o);
                }
                ToAct::Decision(_) => {
                    s.legal_actions(&mut moves);
                    if moves.len() > 1 {
                        out.push((s.clone(), moves.clone()));
                    }
                    let a = moves[rng.gen_range(0..moves.len())];
                    s.play_unchecked(a);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowrie_engine::{
        Baghchal, BaghchalRules, Bargese, BargeseRules, Frangieh, FrangiehRules, Julbahar,
        JulbaharRules,
    };

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
        let rules = FrangiehRules::default();
        assert_eq!(
            mcts_move::<Frangieh>(&rules, "mcts:iterations=1000", 1),
            ("13/11 8/3".to_string(), 1000)
        );
        assert_eq!(
            expectimax_move::<Frangieh>(&rules, 2, 1),
            ("13/6".to_string(), 1010)
        );
        let rules = JulbaharRules::default();
        assert_eq!(
            mcts_move::<Julbahar>(&rules, "mcts:iterations=100", 1),
            ("24/13".to_string(), 100)
        );
        assert_eq!(
            expectimax_move::<Julbahar>(&rules, 2, 1),
            ("24/19 24/18".to_string(), 444)
        );
        let rules = BargeseRules::default();
        assert_eq!(
            mcts_move::<Bargese>(&rules, "mcts:iterations=100", 1),
            ("27,32,o,o".to_string(), 100)
        );
        assert_eq!(
            expectimax_move::<Bargese>(&rules, 2, 1),
            ("24,35,o,o".to_string(), 3187)
        );
    }

    #[test]
    fn frangieh_bar_signatures() {
        // The Frangieh bars' workloads, as `benches/agents.rs` asserts them.
        let rules = FrangiehRules::default();
        let start = first_decision::<Frangieh>(&rules, 1);
        assert_eq!(
            mcts_move_from(&start, "mcts:iterations=5000,rollout=random,cutoff=none", 1),
            ("24/22 13/8".to_string(), 5000)
        );
        let positions = random_positions::<Frangieh>(&rules, 100, 80, 7);
        assert_eq!(
            expectimax_moves(&positions, 2, 1),
            (12_433_856_339_413_907_276, 180_066)
        );
    }
}
