//! The evaluator built for search (`td::incremental`) against the plain evaluation
//! (`Net::forward`, the reference): on every position of a few hundred seeded random games of
//! every game with shipped weights, the evaluation from scratch (the same bits as through a
//! stored accumulator) and the batch over each move list give every output within 1e-5 of the
//! reference; and the `td` search on the batch
//! path chooses the moves, and visits the nodes, that it does on the plain evaluation; and a
//! game's own differences between two positions' encodings (`Evaluate::td_changes`) are those
//! found by encoding both and comparing them.

use cowrie_agents::td::{self, equity, Changes, Inputs, NetEval};
use cowrie_agents::{Agent, Evaluate, Evaluator, Expectimax, ExpectimaxParams, Viewed, Weights};
use cowrie_engine::{
    sample_outcome, Bargese, BargeseRules, Frangieh, FrangiehRules, Game, Julbahar, JulbaharRules,
    Player, RuleSet, ToAct,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const TOLERANCE: f32 = 1e-5;

/// The plain evaluation's outputs of non-terminal `state` and their viewer.
fn plain<G: Evaluate>(eval: &NetEval, state: &G) -> (td::Outputs, Player) {
    let mut x = Inputs::default();
    let viewer = state.td_inputs(&mut x).unwrap();
    (eval.net().forward(&x), viewer)
}

fn assert_close(got: &td::Outputs, want: &td::Outputs, what: &dyn Fn() -> String) -> f32 {
    let worst = got
        .iter()
        .zip(want)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    assert!(worst < TOLERANCE, "{}: {got:?} against {want:?}", what());
    worst
}

/// Plays `games` seeded random games of `G` under `rules`, checking every non-terminal
/// position from scratch and every decision node's move list as a batch; returns the candidates
/// checked.
fn check_game<G: Evaluate>(rules: &G::Rules, games: u32, seed: u64) -> usize {
    let eval = td::resolve::<G>(&Weights::Shipped, rules).unwrap();
    let fast = eval.incremental();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    let (mut candidates, mut worst) = (0, 0.0f32);
    for game in 0..games {
        let mut s = G::new(rules);
        loop {
            if let ToAct::Terminal(_) = s.to_act() {
                break;
            }
            let mut x = Inputs::default();
            s.td_inputs(&mut x).unwrap();
            let at = || format!("{} game {game} ply {}", G::NAME, s.plies());
            let scratch = fast.forward(&x);
            worst = worst.max(assert_close(&scratch, &plain(&eval, &s).0, &at));
            // From scratch in one pass, and through a stored accumulator: the same bits.
            let mut acc = td::incremental::Accumulator::default();
            fast.refresh(&x, &mut acc);
            assert_eq!(
                scratch.map(f32::to_bits),
                fast.outputs(&acc).map(f32::to_bits),
                "{}",
                at()
            );
            if let ToAct::Decision(_) = s.to_act() {
                s.legal_actions(&mut moves);
                let mut k = 0;
                fast.after_moves(&s, &moves, |child, scored| {
                    let mut reference = s.clone();
                    reference.play_unchecked(moves[k]);
                    assert_eq!(child.hash(), reference.hash());
                    let what = || format!("{} candidate {k}", at());
                    match scored {
                        None => assert!(matches!(reference.to_act(), ToAct::Terminal(_))),
                        Some((o, viewer)) => {
                            let (want, v) = plain(&eval, &reference);
                            assert_eq!(viewer, v, "{}", what());
                            worst = worst.max(assert_close(&o, &want, &what));
                        }
                    }
                    k += 1;
                });
                assert_eq!(k, moves.len());
                candidates += k;
                // Stopped at a random candidate (as a search's cut-off), the batch gives the
                // candidates before it the values of the whole list and scores none after it.
                let p = Player::ONE;
                let (mut whole, mut part) = (Vec::new(), Vec::new());
                eval.evaluate_moves(&s, &moves, p, &mut whole);
                let stop = rng.gen_range(0..moves.len());
                let mut seen = 0;
                eval.evaluate_moves_while(&s, &moves, p, &mut part, |i, leaf| {
                    assert_eq!((i, leaf), (seen, whole[i]), "{}", at());
                    seen += 1;
                    i < stop
                });
                assert_eq!(part[..], whole[..=stop], "{}", at());
                let a = moves[rng.gen_range(0..moves.len())];
                s.play_unchecked(a);
            } else {
                s.chance_outcomes(&mut outcomes);
                s.apply_outcome(sample_outcome(&outcomes, &mut rng));
            }
        }
    }
    eprintln!(
        "{}: {candidates} candidates, largest difference {worst:e}",
        G::NAME
    );
    candidates
}

#[test]
fn the_batch_matches_the_plain_evaluation_on_frangieh_barakat_1974() {
    let n = check_game::<Frangieh>(&FrangiehRules::default(), 200, 1);
    assert!(n > 100_000, "{n} candidates");
}

#[test]
fn the_batch_matches_the_plain_evaluation_on_frangieh_modern() {
    let n = check_game::<Frangieh>(&FrangiehRules::variant("modern").unwrap(), 200, 2);
    assert!(n > 100_000, "{n} candidates");
}

#[test]
fn the_batch_matches_the_plain_evaluation_on_julbahar() {
    let n = check_game::<Julbahar>(&JulbaharRules::default(), 200, 3);
    assert!(n > 10_000, "{n} candidates");
}

#[test]
fn the_batch_matches_the_plain_evaluation_on_bargese() {
    let n = check_game::<Bargese>(&BargeseRules::default(), 200, 4);
    assert!(n > 10_000, "{n} candidates");
}

/// Plays a random game of `G` under `rules` with `rng` (chance by its probabilities, each move
/// uniformly), calling `visit` at each decision node with its legal moves before the move is
/// chosen, until `visit` returns `false` or the game ends.
fn random_game<G: Game>(
    rules: &G::Rules,
    rng: &mut ChaCha8Rng,
    mut visit: impl FnMut(&G, &[G::Action]) -> bool,
) {
    let (mut moves, mut outcomes) = (Vec::new(), Vec::new());
    let mut s = G::new(rules);
    loop {
        match s.to_act() {
            ToAct::Terminal(_) => return,
            ToAct::Chance => {
                s.chance_outcomes(&mut outcomes);
                s.apply_outcome(sample_outcome(&outcomes, rng));
            }
            ToAct::Decision(_) => {
                s.legal_actions(&mut moves);
                if !visit(&s, &moves) {
                    return;
                }
                s.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
    }
}

/// The encoding of `state` as a dense vector of `inputs` values, and its viewer.
fn dense<G: Evaluate>(state: &G, inputs: usize) -> (Vec<f32>, Player) {
    let mut x = Inputs::default();
    let viewer = state.td_inputs(&mut x).unwrap();
    let mut d = vec![0.0; inputs];
    for &i in &x.nonzero[..x.len] {
        d[usize::from(i)] = x.x[usize::from(i)];
    }
    (d, viewer)
}

#[test]
fn frangieh_computes_the_changes_between_encodings_that_comparing_them_finds() {
    // Every pair (first candidate, other candidate) of every move list of 100 seeded random
    // games under both scorings, and pairs with different players to act (refused).
    for (variant, seed) in [("modern", 5), ("barakat-1974", 6)] {
        let rules = FrangiehRules::variant(variant).unwrap();
        let inputs = Frangieh::td_encoding(&rules).unwrap().inputs;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut changes = Changes::default();
        let (mut pairs, mut changed, mut refused) = (0, 0, 0);
        for _ in 0..100 {
            random_game::<Frangieh>(&rules, &mut rng, |s, moves| {
                let children: Vec<Frangieh> = moves
                    .iter()
                    .map(|&a| {
                        let mut c = *s;
                        c.play_unchecked(a);
                        c
                    })
                    .filter(|c| !matches!(c.to_act(), ToAct::Terminal(_)))
                    .collect();
                let Some(first) = children.first() else {
                    return true;
                };
                let (r, first_viewer) = dense(first, inputs);
                for c in &children {
                    let (d, viewer) = dense(c, inputs);
                    let want: Vec<(u16, f32)> = (0..inputs)
                        .filter(|&i| d[i] != r[i])
                        .map(|i| (i as u16, d[i] - r[i]))
                        .collect();
                    changes.clear();
                    let got = c.td_changes(first, &mut changes);
                    if viewer != first_viewer {
                        assert_eq!((got, changes.len), (None, 0));
                        continue;
                    }
                    assert_eq!(got, Some(viewer));
                    assert_eq!(changes.as_slice(), &want[..]);
                    pairs += 1;
                    changed += want.len();
                }
                // The position before the move: the player to play the roll (the viewer) is
                // not the one to roll next.
                if s.td_inputs(&mut Inputs::default()) != Some(first_viewer) {
                    changes.clear();
                    assert_eq!(s.td_changes(first, &mut changes), None);
                    assert_eq!(changes.len, 0);
                    refused += 1;
                }
                true
            });
        }
        assert!(
            pairs > 20_000 && changed > 50_000 && refused > 1_000,
            "{pairs} pairs, {changed} changes, {refused} refused"
        );
    }
}

/// The network through the plain evaluation only: the search scores each leaf by itself.
#[derive(Clone, Debug)]
struct Plain(NetEval);

impl<G: Evaluate> Evaluator<G> for Plain {
    fn evaluate(&self, state: &G, player: Player) -> f64 {
        let (o, viewer) = plain(&self.0, state);
        let (_, _, outputs) = self.0.net().shape();
        Viewed::new(viewer, equity(&o, outputs)).for_player(player)
    }
}

#[test]
fn td_search_chooses_as_on_the_plain_evaluation() {
    // `td:ply=1` and `td:ply=2` are expectimax at depth 2 and 3 on the network.
    let rules = FrangiehRules::variant("modern").unwrap();
    let eval = td::resolve::<Frangieh>(&Weights::Shipped, &rules).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut positions = Vec::new();
    while positions.len() < 60 {
        let stop = rng.gen_range(0..60);
        random_game::<Frangieh>(&rules, &mut rng, |s, moves| {
            if s.plies() >= stop && moves.len() > 1 {
                positions.push((*s, moves.to_vec()));
                return false;
            }
            true
        });
    }
    for depth in [2, 3] {
        let params = ExpectimaxParams {
            depth,
            ms: None,
            nodes: if depth == 3 { 20_000 } else { u64::MAX },
        };
        let seeded = || ChaCha8Rng::seed_from_u64(u64::from(depth));
        let mut fast = Expectimax::with_evaluator(params, seeded(), eval.clone());
        let mut slow = Expectimax::with_evaluator(params, seeded(), Plain(eval.clone()));
        let positions = if depth == 3 {
            &positions[..12]
        } else {
            &positions[..]
        };
        for (i, (s, legal)) in positions.iter().enumerate() {
            let a = fast.choose(s, legal);
            let b = slow.choose(s, legal);
            assert_eq!(
                (s.action_to_string(a), fast.nodes()),
                (s.action_to_string(b), slow.nodes()),
                "depth {depth} position {i}"
            );
        }
    }
}
