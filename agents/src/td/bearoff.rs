//! The `td` agent's exact bear-off: where a state is a bear-off race
//! ([`crate::evaluate::Evaluate::bearoff_race`]), its value from the one-sided bear-off database
//! ([`crate::bearoff`]) in place of the network's (`bearoff=on`).
//!
//! The odds become the network's outputs (win; with five outputs also the gammons, backgammons
//! 0) and so the same equity: `2 win - 1`, plus `win_gammon - lose_gammon` where gammons score.

use cowrie_engine::Player;

use super::equity;
use super::net::{Outputs, MAX_OUTPUTS};
use crate::evaluate::Evaluate;
use crate::value::Viewed;

/// The exact value of `state` from `player`'s view, with `outputs` network outputs, if it is a
/// bear-off race; `None` otherwise.
#[inline]
pub fn race_value<G: Evaluate>(state: &G, player: Player, outputs: usize) -> Option<f64> {
    let race = state.bearoff_race()?;
    let odds = race.odds();
    let mut o: Outputs = [0.0; MAX_OUTPUTS];
    o[0] = odds.win as f32;
    if outputs == 5 {
        o[1] = odds.win_gammon as f32;
        o[3] = odds.lose_gammon as f32;
    }
    Some(Viewed::new(race.roller, equity(&o, outputs)).for_player(player))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expectimax::Evaluator;
    use crate::spec::Weights;
    use crate::td::resolve;
    use cowrie_engine::games::frangieh::Phase;
    use cowrie_engine::games::tables::{Board, Roll};
    use cowrie_engine::{Frangieh, FrangiehRules, Game, RuleSet};

    /// Player one with `one` on its home points, player two with `two`, the rest borne off.
    fn race(one: [u8; 6], two: [u8; 6], to_move: Player, phase: Phase) -> Frangieh {
        let mut n = [[0u8; 26]; 2];
        for (side, home) in [one, two].iter().enumerate() {
            n[side][1..=6].copy_from_slice(home);
            n[side][0] = 15 - home.iter().sum::<u8>();
        }
        let rules = FrangiehRules::variant("modern").unwrap();
        Frangieh::from_parts(rules, Board::from_counts(n), to_move, phase, 0).unwrap()
    }

    #[test]
    fn a_race_is_valued_from_the_database_and_other_states_by_the_network() {
        let rules = FrangiehRules::variant("modern").unwrap();
        let net = resolve::<Frangieh>(&Weights::Shipped, &rules).unwrap();
        let exact = net.clone().with_bearoff(true);
        // Player two to roll with one checker on its 6-point against one on player one's
        // 1-point: it wins only by bearing off at once, 27 rolls of 36; nobody can be gammoned.
        let s = race(
            [1, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 1],
            Player::TWO,
            Phase::Roll,
        );
        let v = exact.value(&s, Player::TWO);
        assert!((v - (2.0 * 0.75 - 1.0)).abs() < 1e-6, "{v}");
        assert_eq!(exact.value(&s, Player::ONE), -v);
        // At a decision node (the roll known) and away from the race: the network.
        let d = race(
            [1, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 1],
            Player::TWO,
            Phase::Play(Roll(2, 1)),
        );
        assert_eq!(exact.value(&d, Player::TWO), net.value(&d, Player::TWO));
        let start = Frangieh::new(&rules);
        assert_eq!(
            exact.value(&start, Player::ONE),
            net.value(&start, Player::ONE)
        );
        // Scoring the plays of a roll gives each resulting race its database value.
        let mut legal = Vec::new();
        d.legal_actions(&mut legal);
        let mut scored = Vec::new();
        exact.evaluate_moves(&d, &legal, Player::TWO, &mut scored);
        for (a, (v, _)) in legal.iter().zip(&scored) {
            let mut child = d;
            child.play_unchecked(*a);
            assert_eq!(*v, exact.value(&child, Player::TWO));
            assert_eq!(Some(*v), race_value(&child, Player::TWO, 5));
        }
        // Those races are never given to the network: the batch passes each without outputs.
        let mut races = 0;
        exact.incremental().after_moves_except(
            &d,
            &legal,
            |c: &Frangieh| c.bearoff_race().is_some(),
            |c, scored| {
                assert!(c.bearoff_race().is_some() && scored.is_none());
                races += 1;
            },
        );
        assert_eq!(races, legal.len());
    }

    #[test]
    fn scoring_the_plays_with_the_database_gives_each_childs_own_value() {
        use rand::{Rng, SeedableRng};
        let rules = FrangiehRules::variant("modern").unwrap();
        let exact = resolve::<Frangieh>(&Weights::Shipped, &rules)
            .unwrap()
            .with_bearoff(true);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (mut legal, mut outcomes, mut scored) = (Vec::new(), Vec::new(), Vec::new());
        let mut races = 0;
        for _ in 0..4 {
            let mut s = Frangieh::new(&rules);
            while !matches!(s.to_act(), cowrie_engine::ToAct::Terminal(_)) {
                if let cowrie_engine::ToAct::Decision(p) = s.to_act() {
                    s.legal_actions(&mut legal);
                    exact.evaluate_moves(&s, &legal, p, &mut scored);
                    for (a, (v, _)) in legal.iter().zip(&scored) {
                        let mut child = s;
                        child.play_unchecked(*a);
                        let want = exact.value(&child, p);
                        if child.bearoff_race().is_some() {
                            races += 1;
                            assert_eq!(*v, want);
                        } else {
                            // The accumulator and the plain forward pass round alike to 1e-5.
                            assert!((v - want).abs() < 1e-5, "{v} {want}");
                        }
                    }
                    s.play_unchecked(legal[rng.gen_range(0..legal.len())]);
                } else {
                    s.chance_outcomes(&mut outcomes);
                    s.apply_outcome(cowrie_engine::sample_outcome(&outcomes, &mut rng));
                }
            }
        }
        assert!(races > 0, "the games reached no race");
    }
}
