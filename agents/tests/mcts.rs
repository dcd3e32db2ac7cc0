//! MCTS's enhancements on positions whose right move is known by construction: progressive
//! bias, the MCTS-solver, progressive widening and tree reuse.

mod toys;

use cowrie_agents::{Agent, AgentSpec, Evaluate, MctsAgent};
use cowrie_engine::{Baghchal, BaghchalRules, Game, Player, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use toys::TicTacToe;

/// The enhancements together, as docs/agents.md suggests them.
const ENHANCED: &str = "mcts:iterations=1000,bias=1,solver=on,widen=2,reuse=on";

fn mcts<G: Evaluate>(spec: &str, seed: u64) -> MctsAgent<G> {
    match spec.parse::<AgentSpec>().unwrap() {
        AgentSpec::Mcts(p) => MctsAgent::new(p, ChaCha8Rng::seed_from_u64(seed)),
        other => panic!("not an mcts spec: {other}"),
    }
}

fn legal<G: Game>(s: &G) -> Vec<G::Action> {
    let mut v = Vec::new();
    s.legal_actions(&mut v);
    v
}

/// Whether the player to act in `s` can end the game with a win on this move.
fn wins_at_once<G: Game>(s: &G) -> bool {
    let ToAct::Decision(p) = s.to_act() else {
        return false;
    };
    legal(s).into_iter().any(|a| {
        let mut t = s.clone();
        t.play_unchecked(a);
        matches!(t.to_act(), ToAct::Terminal(_)) && t.returns()[p.index()] > 0.0
    })
}

#[test]
fn the_solver_takes_a_win_in_one_without_searching_and_blocks_a_loss_in_one() {
    for seed in 0..4 {
        for spec in [
            "mcts:iterations=200,solver=on",
            "mcts:iterations=200,bias=1,solver=on,widen=1",
            ENHANCED,
        ] {
            // X to move wins at once (O threatens too): the root is proven at expansion.
            let s = TicTacToe::from_cells("XX.OO....");
            let mut agent = mcts::<TicTacToe>(spec, seed);
            assert_eq!(agent.choose(&s, &legal(&s)), 2, "{spec}, seed {seed}");
            assert_eq!(agent.last_iterations(), 0, "{spec}");
            // O to move must block X.
            let s = TicTacToe::from_cells("XX..O....");
            let mut agent = mcts::<TicTacToe>(spec, seed);
            assert_eq!(agent.choose(&s, &legal(&s)), 2, "{spec}, seed {seed}");
        }
    }
}

#[test]
fn a_proven_tictactoe_ending_plays_its_shortest_win() {
    // X to move, "X.X/O.O/..." style: X has an immediate win (cell 1) and every other move
    // lets O win at once or wins later; the solver proves the root and plays the win in one.
    let s = TicTacToe::from_cells("X.XO.O...");
    for seed in 0..8 {
        let mut agent = mcts::<TicTacToe>("mcts:iterations=5000,solver=on", seed);
        assert_eq!(agent.choose(&s, &legal(&s)), 1, "seed {seed}");
    }
}

/// Goat-to-move positions of five-captures Baghchal from random games in which some goat move
/// lets the tigers win on their reply and some other does not.
fn goat_traps(count: usize, seed: u64) -> Vec<Baghchal> {
    let start = Baghchal::new(&BaghchalRules::default());
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut s = start.clone();
        while let ToAct::Decision(p) = s.to_act() {
            if p == Player::ONE {
                let replies: Vec<bool> = legal(&s)
                    .into_iter()
                    .map(|a| {
                        let mut t = s.clone();
                        t.play_unchecked(a);
                        wins_at_once(&t)
                    })
                    .collect();
                if replies.iter().any(|&l| l) && replies.iter().any(|&l| !l) {
                    out.push(s.clone());
                    break;
                }
            }
            let moves = legal(&s);
            s.play_unchecked(moves[r.gen_range(0..moves.len())]);
        }
    }
    out
}

#[test]
fn baghchal_goats_avoid_a_loss_in_one_and_tigers_take_a_win_in_one() {
    let traps = goat_traps(60, 11);
    let mut avoided = [0usize; 2];
    for (k, s) in traps.iter().enumerate() {
        for (j, spec) in ["mcts:iterations=1000", ENHANCED].into_iter().enumerate() {
            let mut agent = mcts::<Baghchal>(spec, k as u64);
            let mut t = s.clone();
            t.play_unchecked(agent.choose(s, &legal(s)));
            if !wins_at_once(&t) {
                avoided[j] += 1;
            } else if j == 1 {
                panic!("{spec} lets the tigers win at once in {s}");
            }
            // As tigers after a goat move that allows it, the agent takes the win.
            if j == 1 {
                let trap = legal(s)
                    .into_iter()
                    .find(|&a| {
                        let mut u = s.clone();
                        u.play_unchecked(a);
                        wins_at_once(&u)
                    })
                    .unwrap();
                let mut u = s.clone();
                u.play_unchecked(trap);
                let mut tiger = mcts::<Baghchal>(spec, k as u64);
                u.play_unchecked(tiger.choose(&u, &legal(&u)));
                assert!(
                    matches!(u.to_act(), ToAct::Terminal(_)) && u.returns()[1] > 0.0,
                    "{spec} misses the tigers' win in {s}"
                );
            }
        }
    }
    assert_eq!(avoided[1], traps.len());
    // Plain UCT with random rollouts is no better than chance here; the figure is what the
    // solver adds (reported, not a bound on plain UCT).
    eprintln!(
        "loss in one avoided: plain {} of {}, enhanced {} of {}",
        avoided[0],
        traps.len(),
        avoided[1],
        traps.len()
    );
}

#[test]
fn widening_opens_about_k_times_the_square_root_of_the_visits() {
    // Baghchal's first placement has 21 moves; 100 iterations with widen=1 open at most
    // ceil(sqrt(99)) = 10 of them.
    let s = Baghchal::new(&BaghchalRules::default());
    let moves = legal(&s);
    assert_eq!(moves.len(), 21);
    let mut agent = mcts::<Baghchal>("mcts:iterations=100,widen=1", 3);
    let visited = agent
        .search(&s, &moves)
        .iter()
        .filter(|(_, v)| *v > 0)
        .count();
    assert_eq!(visited, 10);
    let mut plain = mcts::<Baghchal>("mcts:iterations=100", 3);
    let all = plain
        .search(&s, &moves)
        .iter()
        .filter(|(_, v)| *v > 0)
        .count();
    assert_eq!(all, 21);
}

#[test]
fn a_reused_tree_starts_the_next_move_with_the_visits_it_had() {
    let mut s = Baghchal::new(&BaghchalRules::default());
    let mut goats = mcts::<Baghchal>("mcts:iterations=500,reuse=on", 5);
    let mut tigers = mcts::<Baghchal>("mcts:iterations=500", 6);
    let first = goats.choose(&s, &legal(&s));
    assert_eq!(goats.root_visits(), 500);
    s.play_unchecked(first);
    let reply = tigers.choose(&s, &legal(&s));
    s.play_unchecked(reply);
    goats.choose(&s, &legal(&s));
    // The subtree below the goats' move and the tigers' reply had visits of its own.
    assert!(goats.root_visits() > 500, "{}", goats.root_visits());
    assert_eq!(goats.last_iterations(), 500);
    // Without reuse the root holds exactly the iterations.
    let mut fresh = mcts::<Baghchal>("mcts:iterations=500", 5);
    fresh.choose(&s, &legal(&s));
    assert_eq!(fresh.root_visits(), 500);
}

#[test]
fn the_enhanced_search_is_a_function_of_its_spec_and_stream() {
    let play = |seed: u64| {
        let mut s = Baghchal::new(&BaghchalRules::default());
        let mut agents = [
            mcts::<Baghchal>(
                "mcts:iterations=200,bias=1,solver=on,widen=2,reuse=on",
                seed,
            ),
            mcts::<Baghchal>("mcts:iterations=200,bias=0.5,solver=on,reuse=on", seed + 1),
        ];
        let mut moves = Vec::new();
        for _ in 0..30 {
            let ToAct::Decision(p) = s.to_act() else {
                break;
            };
            let a = agents[p.index()].choose(&s, &legal(&s));
            moves.push(s.action_to_string(a));
            s.play_unchecked(a);
        }
        moves
    };
    assert_eq!(play(1), play(1));
    assert_ne!(play(1), play(2));
}

#[test]
fn the_network_scores_the_cutoff_where_net_names_one_and_a_game_without_one_is_refused() {
    use cowrie_agents::AnyAgent;
    use cowrie_engine::{Frangieh, FrangiehRules, RuleSet};
    let rules = FrangiehRules::variant("modern").unwrap();
    let spec: AgentSpec = "mcts:iterations=64,cutoff=0,bias=1,net=shipped"
        .parse()
        .unwrap();
    AnyAgent::<Frangieh>::check_rules(&spec, &rules).unwrap();
    let err = AnyAgent::<Baghchal>::check_rules(&spec, &BaghchalRules::default()).unwrap_err();
    assert!(
        err.to_string().contains("no shipped weights for baghchal"),
        "{err}"
    );
    // From the same decision, the network and the heuristic at the leaves search different
    // trees (their values differ), and each plays a legal move.
    let mut s = Frangieh::new(&rules);
    let mut r = ChaCha8Rng::seed_from_u64(2);
    let mut outcomes = Vec::new();
    while matches!(s.to_act(), ToAct::Chance) {
        s.chance_outcomes(&mut outcomes);
        s.apply_outcome(cowrie_engine::sample_outcome(&outcomes, &mut r));
    }
    let moves = legal(&s);
    assert!(moves.len() > 1);
    let visits = |spec: &str| {
        let mut a = mcts::<Frangieh>(spec, 1);
        let v = a.search(&s, &moves);
        assert!(v.iter().all(|(m, _)| moves.contains(m)));
        v
    };
    assert_ne!(
        visits("mcts:iterations=64,cutoff=0,bias=1,net=shipped"),
        visits("mcts:iterations=64,cutoff=0,bias=1")
    );
}
