//! What an agent can say about each legal action at a decision node, where that is cheap to get:
//! the learned evaluation's equity of each candidate (`td`), each candidate's solved value
//! (`perfect`), or the visit counts of one search (`mcts`). The play page and the line mode show
//! it beside the moves (`docs/play.md`).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use cowrie_engine::ToAct;

use crate::any::AnyAgent;
use crate::evaluate::Evaluate;
use crate::expectimax::Evaluator;
use crate::mcts::MctsAgent;
use crate::spec::{AgentSpec, SpecError};
use crate::td;

/// A solved value from the mover's view, as `cowrie probe` prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    /// A win for the mover, this many plies after the move.
    Win(u32),
    /// A draw.
    Draw,
    /// A loss for the mover, this many plies after the move.
    Loss(u32),
}

impl Solved {
    /// The value an oracle's score ([`crate::Oracle::score`]: the solver's preference order)
    /// stands for.
    fn from_score(score: i32) -> Solved {
        match score {
            s if s > 50_000 => Solved::Win(100_000u32.saturating_sub(s.unsigned_abs())),
            s if s < -50_000 => Solved::Loss(100_000u32.saturating_sub(s.unsigned_abs())),
            _ => Solved::Draw,
        }
    }
}

impl std::fmt::Display for Solved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Solved::Win(d) => write!(f, "win in {d}"),
            Solved::Draw => write!(f, "draw"),
            Solved::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}

/// One value per legal action, in the order of the actions analysed.
#[derive(Clone, Debug, PartialEq)]
pub enum Analysis {
    /// `td`: the network's equity of the position after each action, for the mover (at ply 0,
    /// whatever the agent's search depth; exact returns where the action ends the game).
    Equity(Vec<f64>),
    /// `perfect`: each action's solved value for the mover, where the database covers the
    /// position after it (`None` elsewhere).
    Solved(Vec<Option<Solved>>),
    /// `mcts`: the visits of each action at the root after one search of the agent's budget.
    Visits(Vec<u32>),
}

impl Analysis {
    /// What the values are, in a word or two: `equity`, `solved value`, `visits`.
    #[must_use]
    pub fn label(&self) -> &'static str {
        match self {
            Analysis::Equity(_) => "equity",
            Analysis::Solved(_) => "solved value",
            Analysis::Visits(_) => "visits",
        }
    }

    /// Each action's value as text (`+0.412`, `win in 7`, `1234`; empty where unknown).
    #[must_use]
    pub fn texts(&self) -> Vec<String> {
        match self {
            Analysis::Equity(v) => v.iter().map(|e| format!("{e:+.3}")).collect(),
            Analysis::Solved(v) => v
                .iter()
                .map(|s| s.map_or(String::new(), |s| s.to_string()))
                .collect(),
            Analysis::Visits(v) => v.iter().map(u32::to_string).collect(),
        }
    }
}

/// The analysis the agent `spec` gives of every action in `legal` (the legal actions of
/// `state`, a decision node): `Some` for `td`, `perfect` and `mcts`, `None` for the other kinds.
/// An `mcts` search draws from `rng`; the others draw nothing.
///
/// # Errors
/// As [`AnyAgent::try_build`]: weights or a database that cannot be read.
///
/// # Panics
/// If `state` is not a decision node.
pub fn analyse<G: Evaluate>(
    spec: &AgentSpec,
    state: &G,
    legal: &[G::Action],
    rng: ChaCha8Rng,
) -> Result<Option<Analysis>, SpecError> {
    let ToAct::Decision(me) = state.to_act() else {
        panic!("analysis asked at a node that is not a decision node");
    };
    Ok(match spec {
        AgentSpec::Td(p) => {
            let eval = td::resolve::<G>(&p.weights, state.rules())?;
            let mut out = Vec::with_capacity(legal.len());
            Evaluator::<G>::evaluate_moves(&eval, state, legal, me, &mut out);
            Some(Analysis::Equity(out.into_iter().map(|(v, _)| v).collect()))
        }
        AgentSpec::Perfect(_) => {
            let oracle = AnyAgent::<G>::oracle(spec)?.expect("a perfect agent has a database");
            Some(Analysis::Solved(
                legal
                    .iter()
                    .map(|&a| {
                        let mut child = state.clone();
                        child.play_unchecked(a);
                        oracle.score(&child, me).map(Solved::from_score)
                    })
                    .collect(),
            ))
        }
        AgentSpec::Mcts(p) => {
            let mut agent = MctsAgent::<G>::new(p.clone(), rng);
            let visits = agent.search(state, legal);
            Some(Analysis::Visits(
                legal
                    .iter()
                    .map(|a| visits.iter().find(|(b, _)| b == a).map_or(0, |&(_, v)| v))
                    .collect(),
            ))
        }
        _ => None,
    })
}

/// A fixed stream for analyses that search (`mcts`), apart from every agent's.
#[must_use]
pub fn analysis_stream(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::Agent;
    use cowrie_engine::{Frangieh, FrangiehRules, Game};

    /// Plays seeded random plies until a decision with several legal actions.
    fn decision_with_choices(seed: u64) -> Frangieh {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = Frangieh::new(&FrangiehRules::default());
        let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
        loop {
            match state.to_act() {
                ToAct::Chance => {
                    state.chance_outcomes(&mut outcomes);
                    state.apply_outcome(cowrie_engine::sample_outcome(&outcomes, &mut rng));
                }
                ToAct::Decision(_) => {
                    state.legal_actions(&mut legal);
                    if legal.len() > 3 {
                        return state;
                    }
                    let a = legal[rand::Rng::gen_range(&mut rng, 0..legal.len())];
                    state.play_unchecked(a);
                }
                ToAct::Terminal(_) => panic!("the game ended before a choice"),
            }
        }
    }

    #[test]
    fn td_equities_are_the_networks_values_and_its_greedy_choice_is_their_best() {
        let spec: AgentSpec = "td".parse().unwrap();
        let AgentSpec::Td(p) = &spec else {
            unreachable!()
        };
        for seed in 1..6 {
            let state = decision_with_choices(seed);
            let ToAct::Decision(me) = state.to_act() else {
                unreachable!()
            };
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            let Some(Analysis::Equity(eq)) =
                analyse(&spec, &state, &legal, analysis_stream(0)).unwrap()
            else {
                panic!("td gives equities");
            };
            // Each equity is the network's value of the child, asked one position at a time.
            let eval = td::resolve::<Frangieh>(&p.weights, state.rules()).unwrap();
            for (&a, &e) in legal.iter().zip(&eq) {
                let mut child = state;
                child.play_unchecked(a);
                assert!((eval.value(&child, me) - e).abs() < 1e-4, "{e}");
            }
            // The greedy agent plays a candidate of the highest equity.
            let mut agent = AnyAgent::<Frangieh>::build(&spec, analysis_stream(1));
            let pick = agent.choose(&state, &legal);
            let best = eq.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let i = legal.iter().position(|&a| a == pick).unwrap();
            assert_eq!(eq[i], best);
        }
    }

    #[test]
    fn mcts_visits_sum_to_the_root_children_visits_and_random_has_none() {
        let state = decision_with_choices(9);
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let spec: AgentSpec = "mcts:iterations=300".parse().unwrap();
        let Some(Analysis::Visits(v)) = analyse(&spec, &state, &legal, analysis_stream(0)).unwrap()
        else {
            panic!("mcts gives visits");
        };
        assert_eq!(v.len(), legal.len());
        // Every iteration but the root's own first visit goes down one root child.
        let total: u32 = v.iter().sum();
        assert!((299..=300).contains(&total), "{total}");
        let random: AgentSpec = "random".parse().unwrap();
        assert_eq!(
            analyse(&random, &state, &legal, analysis_stream(0)).unwrap(),
            None
        );
    }

    #[test]
    fn solved_scores_read_as_the_solvers_values() {
        assert_eq!(Solved::from_score(100_000 - 7), Solved::Win(7));
        assert_eq!(Solved::from_score(-100_000 + 12), Solved::Loss(12));
        assert_eq!(Solved::from_score(0), Solved::Draw);
        assert_eq!(Solved::Win(7).to_string(), "win in 7");
    }
}
