//! The conformance suite every game passes (STYLE habit 1), for use from each game's tests.
//!
//! [`conformance`] plays uniformly random games and checks the [`Game`] contract at every node.
//! It panics with a message naming the broken property and the position, so it is meant for
//! tests.

use std::collections::HashSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::{sample_outcome, ChanceChain, Game, ToAct};

/// What a conformance run saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConformanceReport {
    /// Games played.
    pub games: u64,
    /// Decision plies played over all games.
    pub plies: u64,
    /// Chance outcomes applied over all games.
    pub chance_nodes: u64,
    /// Games that ended by the ply cap.
    pub truncated: u64,
    /// The most chance nodes seen in a row without a decision between them.
    pub longest_chance_chain: u32,
}

/// Plays `games` uniformly random games under `rules` from the start position, seeded by `seed`,
/// and checks at every node:
/// - decision nodes: legal actions non-empty and distinct, each action's text parses back to it;
/// - chance nodes: outcomes non-empty and distinct, probabilities positive and summing to 1;
/// - every node: the notation reads back to the same notation and hash, a clone has the same
///   notation and hash, the ply counter counts decision plies;
/// - terminal nodes: returns zero-sum and within `±max_points`, the game within its ply cap;
///   non-terminal nodes: returns zero;
/// - chance chains: no more chance nodes in a row than `facts.chance_chain` allows, and chance
///   nodes exactly when `facts.has_chance`;
/// - [`Game::chance_node`]: a chance node's game number never decreases, and a throw of player
///   `p` is followed by another chance node, the end, or a decision of `p`'s.
///
/// A game without a ply cap that does not end within `10_000_000` plies fails the suite.
///
/// The games are drawn from one `ChaCha8Rng::seed_from_u64(seed)` stream as
/// [`Game::random_playout`] draws them, so the first game is the one `random_playout` plays
/// with that seed.
///
/// # Panics
/// On the first violated property, with a message naming it and the position's notation.
///
/// # Examples
///
/// ```
/// use cowrie_engine::testing::conformance;
/// use cowrie_engine::{Baghchal, BaghchalRules, Frangieh, FrangiehRules, RuleSet};
///
/// // Seed 1's game is the one written in tests/playthroughs/baghchal-five-captures.txt: the
/// // tigers win after 54 plies.
/// let report = conformance::<Baghchal>(&BaghchalRules::default(), 1, 1);
/// assert_eq!((report.games, report.plies, report.chance_nodes), (1, 54, 0));
///
/// // Under modern rules every play follows one roll (the opening roll is the first play's),
/// // never two rolls in a row; there is no ply cap, so no game is truncated.
/// let report = conformance::<Frangieh>(&FrangiehRules::variant("modern").unwrap(), 20, 7);
/// assert_eq!(report.games, 20);
/// assert_eq!(report.longest_chance_chain, 1);
/// assert_eq!(report.truncated, 0);
/// assert_eq!(report.chance_nodes, report.plies);
/// ```
pub fn conformance<G: Game>(rules: &G::Rules, games: u64, seed: u64) -> ConformanceReport {
    let facts = G::facts(rules);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut actions = Vec::new();
    let mut outcomes = Vec::new();
    let mut report = ConformanceReport::default();
    let max = f64::from(facts.max_points);
    assert_eq!(
        facts.has_chance,
        facts.chance_chain != ChanceChain::Bounded(0),
        "has_chance disagrees with chance_chain"
    );
    for _ in 0..games {
        let mut state = G::new(rules);
        let mut plies = 0u32;
        let mut chain = 0u32;
        let mut thrower = None;
        let mut game = 1u32;
        loop {
            check_notation(&state, rules);
            assert_eq!(state.plies(), plies, "ply counter at {}", state.notation());
            match state.to_act() {
                ToAct::Terminal(reason) => {
                    let r = state.returns();
                    assert!(
                        (r[0] + r[1]).abs() < 1e-12,
                        "returns {r:?} not zero-sum at {}",
                        state.notation()
                    );
                    assert!(
                        r[0].abs() <= max && r[1].abs() <= max,
                        "returns {r:?} beyond ±{max}"
                    );
                    if let Some(w) = reason.winner() {
                        assert!(r[w.index()] > 0.0, "winner {w} has return {r:?}");
                    }
                    if let Some(cap) = facts.ply_cap {
                        assert!(plies <= cap, "game ran past its cap {cap}: {plies} plies");
                    }
                    if reason == crate::game::EndReason::Truncated {
                        report.truncated += 1;
                    }
                    break;
                }
                ToAct::Chance => {
                    assert_eq!(state.returns(), [0.0; 2], "returns before the end");
                    let node = state.chance_node();
                    assert!(
                        node.game >= game,
                        "chance node of game {} after game {game} at {}",
                        node.game,
                        state.notation()
                    );
                    (game, thrower) = (node.game, node.thrower);
                    state.chance_outcomes(&mut outcomes);
                    assert!(!outcomes.is_empty(), "chance node without outcomes");
                    let distinct: HashSet<_> = outcomes.iter().map(|(o, _)| *o).collect();
                    assert_eq!(distinct.len(), outcomes.len(), "repeated chance outcome");
                    let sum: f64 = outcomes.iter().map(|(_, p)| *p).sum();
                    assert!(
                        outcomes.iter().all(|(_, p)| *p > 0.0),
                        "non-positive probability"
                    );
                    assert!((sum - 1.0).abs() < 1e-9, "probabilities sum to {sum}");
                    let o = sample_outcome(&outcomes, &mut rng);
                    state.apply_outcome(o);
                    report.chance_nodes += 1;
                    chain += 1;
                    report.longest_chance_chain = report.longest_chance_chain.max(chain);
                    if let ChanceChain::Bounded(bound) = facts.chance_chain {
                        assert!(
                            chain <= bound,
                            "{chain} chance nodes in a row, beyond the bound {bound}, at {}",
                            state.notation()
                        );
                    }
                }
                ToAct::Decision(p) => {
                    chain = 0;
                    assert!(
                        thrower.is_none_or(|t| t == p),
                        "{p} decides after {thrower:?}'s throw at {}",
                        state.notation()
                    );
                    thrower = None;
                    assert_eq!(state.returns(), [0.0; 2], "returns before the end");
                    state.legal_actions(&mut actions);
                    assert!(
                        !actions.is_empty(),
                        "no legal action at a decision node: {}",
                        state.notation()
                    );
                    let distinct: HashSet<_> = actions.iter().copied().collect();
                    assert_eq!(
                        distinct.len(),
                        actions.len(),
                        "repeated legal action at {}",
                        state.notation()
                    );
                    for &a in &actions {
                        let text = state.action_to_string(a);
                        assert_eq!(
                            state.parse_action(&text).ok(),
                            Some(a),
                            "action text '{text}' does not read back"
                        );
                    }
                    let a = actions[rng.gen_range(0..actions.len())];
                    state.play_unchecked(a);
                    plies += 1;
                    report.plies += 1;
                    assert!(
                        facts.ply_cap.is_some() || plies < 10_000_000,
                        "uncapped game did not end"
                    );
                }
            }
        }
        report.games += 1;
    }
    report
}

fn check_notation<G: Game>(state: &G, rules: &G::Rules) {
    let text = state.notation();
    let back = G::from_notation(&text, rules)
        .unwrap_or_else(|e| panic!("notation does not read back: {e}"));
    assert_eq!(back.notation(), text, "notation round trip");
    assert_eq!(back.hash(), state.hash(), "hash after round trip of {text}");
    let copy = state.clone();
    assert_eq!(copy.notation(), text, "clone differs");
    assert_eq!(copy.hash(), state.hash(), "clone hash differs");
}
