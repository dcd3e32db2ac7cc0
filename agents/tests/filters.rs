//! The `td` agent's move filter and filtered two-ply search (`td::filtered`): node counts
//! against counts derived from the tree, and the filtered search against the unfiltered one
//! (every candidate kept) on every decision of seeded games.

use cowrie_agents::td::{self, filter, NetEval, TdAgent};
use cowrie_agents::{Agent, AgentSpec, Evaluate, Evaluator, TdParams, Weights};
use cowrie_engine::{sample_outcome, Frangieh, FrangiehRules, Game, RuleSet, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn params(spec: &str) -> TdParams {
    match spec.parse::<AgentSpec>().unwrap() {
        AgentSpec::Td(p) => p,
        other => panic!("not a td spec: {other}"),
    }
}

fn legal<G: Game>(s: &G) -> Vec<G::Action> {
    let mut v = Vec::new();
    s.legal_actions(&mut v);
    v
}

fn modern() -> FrangiehRules {
    FrangiehRules::variant("modern").unwrap()
}

/// The `ply=0` values of every child of decision node `s`, from the mover's view.
fn scores<G: Evaluate>(eval: &NetEval, s: &G, moves: &[G::Action]) -> Vec<f64> {
    let ToAct::Decision(me) = s.to_act() else {
        panic!("a decision node")
    };
    let mut out = Vec::new();
    Evaluator::<G>::evaluate_moves(eval, s, moves, me, &mut out);
    out.iter().map(|&(v, _)| v).collect()
}

/// The nodes of the tree the filtered search walks below a kept candidate, counted from the
/// tree itself: a finished game or a leaf is one node; a chance node one plus its outcomes'; a
/// decision node one plus each of its moves, plus, `depth` plies deep with `depth >= 2`, the
/// nodes below the move the network prefers (unless it ends the game).
fn tree_nodes<G: Evaluate>(eval: &NetEval, s: &G, depth: u32) -> u64 {
    match s.to_act() {
        ToAct::Terminal(_) => 1,
        _ if depth == 0 => 1,
        ToAct::Chance => {
            let mut outcomes = Vec::new();
            s.chance_outcomes(&mut outcomes);
            1 + outcomes
                .iter()
                .map(|&(o, _)| {
                    let mut c = s.clone();
                    c.apply_outcome(o);
                    tree_nodes(eval, &c, depth)
                })
                .sum::<u64>()
        }
        ToAct::Decision(_) => {
            let moves = legal(s);
            let values = scores(eval, s, &moves);
            let best = (0..moves.len()).fold(0, |b, k| if values[k] > values[b] { k } else { b });
            let mut child = s.clone();
            child.play_unchecked(moves[best]);
            let below = if depth >= 2 && !matches!(child.to_act(), ToAct::Terminal(_)) {
                tree_nodes(eval, &child, depth - 1)
            } else {
                0
            };
            1 + moves.len() as u64 + below
        }
    }
}

#[test]
fn a_filtered_search_visits_the_nodes_counted_by_hand_on_a_last_roll_position() {
    // Player one, to play 2-1, has two checkers on its 6-point (13 off): two plays, 6/4 6/5 and
    // 6/3. Player two has one checker on its 1-point (14 off): whatever it rolls, its one play
    // bears it off. Each kept candidate: its roll (1 node) and 21 rolls, each a decision node
    // (1) with one move (1) that ends the game: 1 + 21 x 2 = 43. Both kept: 2 + 2 x 43 = 88.
    let s = Frangieh::from_notation("6:2,off:13/1:1,off:14 1 2-1 40", &modern()).unwrap();
    let moves = legal(&s);
    assert_eq!(moves.len(), 2);
    let mut rolls = Vec::new();
    let mut after = s;
    after.play_unchecked(moves[0]);
    after.chance_outcomes(&mut rolls);
    assert_eq!(rolls.len(), 21);
    for &(roll, _) in &rolls {
        let mut r = after;
        r.apply_outcome(roll);
        assert_eq!(legal(&r).len(), 1);
    }
    let mut agent = TdAgent::<Frangieh>::new(params("td:ply=2,filter=2,threshold=10"), rng(1));
    agent.choose(&s, &moves);
    assert_eq!(agent.nodes(), 88);
    // Keeping one candidate searches nothing: the filter's best is played.
    let mut one = TdAgent::<Frangieh>::new(params("td:ply=2,filter=1"), rng(1));
    one.choose(&s, &moves);
    assert_eq!(one.nodes(), 2);
}

/// Decision nodes with two moves or more from seeded games of `td:ply=0` against itself.
fn sample(games: u64, seed: u64) -> Vec<Frangieh> {
    let mut r = rng(seed);
    let mut out = Vec::new();
    let mut outcomes = Vec::new();
    for g in 0..games {
        let mut s = Frangieh::new(&modern());
        let mut agent = TdAgent::<Frangieh>::new(params("td:ply=0"), rng(seed + g));
        loop {
            match s.to_act() {
                ToAct::Terminal(_) => break,
                ToAct::Chance => {
                    s.chance_outcomes(&mut outcomes);
                    let o = sample_outcome(&outcomes, &mut r);
                    s.apply_outcome(o);
                }
                ToAct::Decision(_) => {
                    let moves = legal(&s);
                    if moves.len() > 1 {
                        out.push(s);
                    }
                    // Now and then a random move, so that the sample is not one line of play.
                    let mv = if r.gen_bool(0.2) {
                        moves[r.gen_range(0..moves.len())]
                    } else {
                        agent.choose(&s, &moves)
                    };
                    s.play_unchecked(mv);
                }
            }
        }
    }
    out
}

#[test]
fn filtered_node_counts_are_the_root_plus_the_trees_of_the_kept_candidates() {
    let eval = td::resolve::<Frangieh>(&Weights::Shipped, &modern()).unwrap();
    let positions = sample(1, 21);
    let mut checked = 0;
    for s in positions.iter().step_by(6) {
        let moves = legal(s);
        let values = scores(&eval, s, &moves);
        let mut kept = Vec::new();
        filter::keep(&values, 3, 0.16, &mut kept);
        let mut want = moves.len() as u64;
        if kept.len() > 1 {
            for &i in &kept {
                let mut child = *s;
                child.play_unchecked(moves[i]);
                if !matches!(child.to_act(), ToAct::Terminal(_)) {
                    want += tree_nodes(&eval, &child, 2);
                }
            }
        }
        let mut agent = TdAgent::<Frangieh>::new(params("td:ply=2,filter=3"), rng(3));
        agent.choose(s, &moves);
        assert_eq!(agent.nodes(), want, "{}", s.notation());
        checked += 1;
    }
    assert!(checked >= 5, "{checked} positions");
}

/// The filter setting docs/agents.md measures (*Move filter*).
const FILTERED: &str = "td:ply=2,filter=2,threshold=0.16";

#[test]
fn the_filtered_search_chooses_the_unfiltered_move_whenever_it_keeps_it() {
    let eval = td::resolve::<Frangieh>(&Weights::Shipped, &modern()).unwrap();
    let positions = sample(2, 33);
    let mut filtered = TdAgent::<Frangieh>::new(params(FILTERED), rng(4));
    let mut everything =
        TdAgent::<Frangieh>::new(params("td:ply=2,filter=1000,threshold=1000"), rng(4));
    let (mut kept_best, mut agree) = (0, 0);
    for s in &positions {
        let moves = legal(s);
        let full = everything.choose(s, &moves);
        let chosen = filtered.choose(s, &moves);
        let values = scores(&eval, s, &moves);
        let mut kept = Vec::new();
        let p = params(FILTERED);
        filter::keep(&values, p.filter as usize, p.threshold, &mut kept);
        if kept.iter().any(|&i| moves[i] == full) {
            kept_best += 1;
            assert_eq!(chosen, full, "{}", s.notation());
        }
        agree += usize::from(chosen == full);
    }
    eprintln!(
        "{} positions: the filter kept the unfiltered search's move in {kept_best}, the moves agree in {agree}",
        positions.len()
    );
    assert!(positions.len() > 60, "{} positions", positions.len());
    // A filter that kept nothing worth keeping would not be one.
    assert!(kept_best * 2 > positions.len(), "{kept_best}");
}

#[test]
fn the_default_filter_is_declared_and_off_at_zero() {
    let p = params("td:ply=2");
    assert_eq!(
        p.filter, 0,
        "td:ply=2 is the exact search unless a filter is asked for"
    );
    assert_eq!(
        (p.filter, p.threshold),
        (
            cowrie_agents::DEFAULT_FILTER,
            cowrie_agents::DEFAULT_THRESHOLD
        )
    );
    // Quiet parameters: the spec texts recorded before the filter existed keep their text.
    assert_eq!(AgentSpec::Td(p).to_string(), "td:weights=shipped,ply=2");
    let on = params("td:ply=2,filter=2,threshold=0.5");
    assert_eq!(
        AgentSpec::Td(on).to_string(),
        "td:weights=shipped,ply=2,filter=2,threshold=0.5"
    );
    // `filter=0` is the expectiminimax of `ply=1` one turn deeper: on the last-roll position of
    // the hand-counted test it searches (iterative deepening, every candidate) more than the
    // two root candidates.
    let s = Frangieh::from_notation("6:2,off:13/1:1,off:14 1 2-1 40", &modern()).unwrap();
    let moves = legal(&s);
    let mut full = TdAgent::<Frangieh>::new(params("td:ply=2,filter=0"), rng(1));
    full.choose(&s, &moves);
    assert!(full.nodes() > 2, "{}", full.nodes());
}
