//! The learned evaluations' input encodings on hand-derived positions, and their ranges over
//! random play (every index below the declared input count, every value in range).

use cowrie_agents::td::net::Inputs;
use cowrie_agents::Evaluate;
use cowrie_engine::{
    sample_outcome, Bargese, BargeseRules, Frangieh, Game, Julbahar, JulbaharRules, Player,
    RuleSet, ToAct,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The non-zero inputs of `state`, sorted by index.
fn nonzero<G: Evaluate>(state: &G) -> (Player, Vec<(usize, f32)>) {
    let mut x = Inputs::default();
    let viewer = state.td_inputs(&mut x).expect("an encoding");
    let mut v: Vec<(usize, f32)> = x.nonzero[..x.len]
        .iter()
        .map(|&i| (usize::from(i), x.x[usize::from(i)]))
        .collect();
    v.sort_by_key(|&(i, _)| i);
    (viewer, v)
}

#[test]
fn julbahar_start_is_fifteen_checkers_on_each_first_point_before_the_opening_throw() {
    // Barakat 1974 §1773: all fifteen on the first point, which in a side's own numbering
    // (counting down to its home, as in backgammon) is its point 24; the sides move in
    // opposite directions, so the opponent's point 24 is the viewer's point 1. Fifteen
    // checkers: three units and (15 - 3) / 2 = 6.
    let s = Julbahar::new(&JulbaharRules::default());
    let (viewer, v) = nonzero(&s);
    assert_eq!(viewer, s.side_to_move());
    assert_eq!(
        v,
        [
            (4 * 23, 1.0),
            (4 * 23 + 1, 1.0),
            (4 * 23 + 2, 1.0),
            (4 * 23 + 3, 6.0),
            (96, 1.0),
            (97, 1.0),
            (98, 1.0),
            (99, 6.0),
            (196, 1.0),
        ]
    );
}

#[test]
fn bargese_start_has_every_piece_off_the_board_before_the_shells() {
    let s = Bargese::new(&BargeseRules::default());
    let (viewer, v) = nonzero(&s);
    assert_eq!(viewer, Player::ONE);
    // Four pieces off the board each (168, 169: 4 / 4), the game not started (177), both pip
    // counts 4 x 84 / 336 (260, 261); a piece off the board cannot be hammered: no shots.
    assert_eq!(
        v,
        [(168, 1.0), (169, 1.0), (177, 1.0), (260, 1.0), (261, 1.0)]
    );
}

#[test]
fn bargese_shots_count_the_opposing_pieces_behind_a_piece_along_their_track() {
    use cowrie_engine::games::bargese::{Stage, KITCHEN, OFF};
    // Player one to move with a doi in hand: one piece on its square 20 (the east arm's inner
    // row, not an X), three off the board; player two: one piece on its square 50, three in the
    // kitchen. On the ring player two's index is player one's + 34 (mod 68, over indices
    // 8..=75): player one's 20 is player two's 54, four squares ahead of its piece on 50 (a
    // shot at distance 4 on the viewer: input 180 + 3, one pair ÷ 2). Player two's 50 is
    // player one's 16, which each of the three pieces off the board (one square before the
    // entry square) reaches in 17: input 220 + 16, three pairs ÷ 2. Pip counts: 63 + 3 x 84 =
    // 315 and 33, ÷ 336.
    let mut throws = [0u16; 7];
    throws[2] = 1;
    let s = Bargese::from_parts(
        BargeseRules::default(),
        [[20, OFF, OFF, OFF], [50, KITCHEN, KITCHEN, KITCHEN]],
        Stage::Moving(Player::ONE),
        throws,
        30,
        Some(Player::ONE),
        Some(Player::ONE),
        [0, 0],
    )
    .unwrap();
    let (viewer, v) = nonzero(&s);
    assert_eq!(viewer, Player::ONE);
    assert_eq!(
        v,
        [
            (20, 1.0),
            (83 + 50, 1.0),
            (167, 0.75),
            (168, 0.75),
            (172, 0.5),
            (179, 1.0),
            (183, 0.5),
            (236, 1.5),
            (260, 315.0 / 336.0),
            (261, 33.0 / 336.0),
        ]
    );
}

fn ranges<G: Evaluate>(rules: &G::Rules, games: u32, max: f32) {
    let inputs = G::td_encoding(rules).expect("an encoding").inputs;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (mut actions, mut outcomes) = (Vec::new(), Vec::new());
    let mut seen = 0u64;
    for _ in 0..games {
        let mut s = G::new(rules);
        loop {
            match s.to_act() {
                ToAct::Terminal(_) => break,
                to_act => {
                    let (viewer, v) = nonzero(&s);
                    if let ToAct::Decision(p) = to_act {
                        assert_eq!(viewer, p, "{}: the viewer is the player to act", G::NAME);
                    }
                    for (i, x) in v {
                        assert!(i < inputs && x > 0.0 && x <= max, "{}: {i} = {x}", G::NAME);
                    }
                    seen += 1;
                }
            }
            match s.to_act() {
                ToAct::Chance => {
                    s.chance_outcomes(&mut outcomes);
                    s.apply_outcome(sample_outcome(&outcomes, &mut rng));
                }
                _ => {
                    s.legal_actions(&mut actions);
                    s.play_unchecked(actions[rng.gen_range(0..actions.len())]);
                }
            }
        }
    }
    assert!(seen > 1000, "{}: {seen}", G::NAME);
}

#[test]
fn every_input_is_in_range_over_random_games() {
    // Point units reach (15 - 3) / 2 = 6 and Frangieh's bar inputs 15 / 2; a Bargese square
    // holds at most four pieces, and one distance at most 4 x 4 shots (÷ 2); a Julbahar total
    // can pass the target by at most 15.
    ranges::<Frangieh>(&Default::default(), 40, 7.5);
    ranges::<Julbahar>(&JulbaharRules::default(), 4, 6.0);
    ranges::<Bargese>(&BargeseRules::default(), 40, 8.0);
    ranges::<Bargese>(&BargeseRules::variant("ludii").unwrap(), 40, 8.0);
}
