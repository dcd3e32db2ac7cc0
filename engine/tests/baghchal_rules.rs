//! Baghchal rules checked on hand-made positions (Parlett 1976 and Averbakh 1995 (DLP.Evidence.755 and 1453; docs/sources.md)), random-play
//! invariants, and a statistical check against Ludii 1.3.12.

use cowrie_engine::games::baghchal::{parse_point, GOATS, TIGERS};
use cowrie_engine::testing::conformance;
use cowrie_engine::{
    Baghchal, BaghchalAction, BaghchalRules, EndReason, Game, PlayError, RuleSet, ToAct,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn pos(text: &str) -> Baghchal {
    Baghchal::from_notation(text, &BaghchalRules::default()).unwrap()
}

fn legal(s: &Baghchal) -> Vec<String> {
    let mut buf = Vec::new();
    s.legal_actions(&mut buf);
    buf.iter().map(|&a| s.action_to_string(a)).collect()
}

fn pt(name: &str) -> u8 {
    parse_point(name).unwrap()
}

#[test]
fn a_tiger_off_the_diagonals_cannot_jump_diagonally() {
    // Tiger on row 0 col 1 (b1), goat on row 1 col 2 (c2), row 2 col 3 (d3) empty. b1 has
    // row + col odd, so no diagonal runs through it: no jump.
    let s = pos("T...T/...../...../..G../.T..T t 19 0 1");
    let moves = legal(&s);
    assert!(!moves.contains(&"b1xd3".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("b1x")), "{moves:?}");
    // b1 steps to a1? occupied? a1 is empty here; b1's lines: a1, c1, b2.
    let from_b1: Vec<_> = moves.iter().filter(|m| m.starts_with("b1")).collect();
    // Ascending destination index: a1 (0), c1 (2), b2 (6).
    assert_eq!(from_b1, ["b1-a1", "b1-c1", "b1-b2"]);
    let mut t = s.clone();
    assert_eq!(
        t.try_play(BaghchalAction::Jump {
            from: pt("b1"),
            to: pt("d3")
        }),
        Err(PlayError::IllegalAction("b1xd3".into()))
    );
}

#[test]
fn a_tiger_on_the_diagonals_jumps_diagonally() {
    // Tiger on row 1 col 1 (b2), goat on row 2 col 2 (c3), row 3 col 3 (d4) empty.
    let s = pos("T...T/...../..G../.T.../....T t 19 0 1");
    assert!(legal(&s).contains(&"b2xd4".to_string()));
    let mut t = s.clone();
    t.try_play(BaghchalAction::Jump {
        from: pt("b2"),
        to: pt("d4"),
    })
    .unwrap();
    assert_eq!(t.captured(), 1);
    assert_eq!(t.goats(), 0);
    assert_eq!(t.notation(), "T...T/...T./...../...../....T g 19 1 2");
}

#[test]
fn no_jump_over_two_goats_in_a_row() {
    // Tiger a1, goats b1 and c1, d1 empty: the tiger can neither jump to c1 (occupied) nor to
    // d1 (two goats between).
    let s = pos("T...T/...../...../...../TGG.T t 18 0 3");
    let moves = legal(&s);
    assert!(!moves.iter().any(|m| m.starts_with("a1x")), "{moves:?}");
    // e1's tiger may not jump the two goats either way; it steps to d1.
    assert!(moves.contains(&"e1-d1".to_string()));
    assert!(!moves.iter().any(|m| m.starts_with("e1x")), "{moves:?}");
}

#[test]
fn only_one_jump_per_turn() {
    // Tiger a1 can jump b2 to c3, after which the goat on c4 with c5 empty would allow a second
    // jump; the turn passes to the goats after the first.
    let s = pos("T...T/..G../...../.G.../T...T t 18 0 3");
    let mut t = s.clone();
    t.try_play(BaghchalAction::Jump {
        from: pt("a1"),
        to: pt("c3"),
    })
    .unwrap();
    assert_eq!(t.to_act(), ToAct::Decision(GOATS));
    assert_eq!(t.captured(), 1);
}

#[test]
fn tigers_blocked_during_placement_lose_at_once() {
    // Tigers on the four corners; 17 goats on every point a corner tiger could step to
    // (a2 b1 b2, d1 e2 d2, a4 b5 b4, e4 d5 d4) or jump to (a3 c1 c3 e3 c5); 3 goats in hand;
    // tigers to move.
    let s = pos("TGGGT/GG.GG/G.G.G/GG.GG/TGGGT t 3 0 34");
    assert_eq!(s.goats().count_ones(), 17, "{s}");
    assert_eq!(s.to_act(), ToAct::Terminal(EndReason::Win(GOATS)));
    assert_eq!(s.returns(), [1.0, -1.0]);
}

#[test]
fn goats_with_no_move_lose_or_pass() {
    // Goats everywhere but a1, whose neighbours a2, b1, b2 hold tigers; all goats placed.
    let text = "GGGGT/GGGGG/GGGGG/TTGGG/.TGGG g 0 0 40";
    let s = pos(text);
    assert_eq!(s.to_act(), ToAct::Terminal(EndReason::Win(TIGERS)));
    let mut rules = BaghchalRules::default();
    rules.set_option("goats-blocked", "pass").unwrap();
    let mut s = Baghchal::from_notation(text, &rules).unwrap();
    assert_eq!(s.to_act(), ToAct::Decision(GOATS));
    assert_eq!(legal(&s), ["pass"]);
    s.try_play(BaghchalAction::Pass).unwrap();
    assert_eq!(s.to_act(), ToAct::Decision(TIGERS));
}

#[test]
fn a_goat_placement_never_captures() {
    // Placing a goat between two tigers on a line (b1 between a1 and c1) captures nothing.
    assert!(Baghchal::from_notation(
        "T...T/...../...../...../T.T.T g 20 0 0",
        &BaghchalRules::default()
    )
    .is_err());
    let mut s = pos("T...T/...../...../...../T.T.. g 20 0 0");
    s.try_play(BaghchalAction::Place(pt("b1"))).unwrap();
    assert_eq!(s.goats().count_ones(), 1);
    assert_eq!(s.captured(), 0);
    assert_eq!(s.goats_in_hand(), 19);
}

#[test]
fn the_variants_win_on_their_capture() {
    // A tiger on c3 can jump the goat on c4 to c5; captures before the jump: one short of the
    // variant's number.
    for (variant, before) in [
        ("five-captures", 4),
        ("averbakh-1995", 5),
        ("parlett-1976", 19),
    ] {
        let rules = BaghchalRules::variant(variant).unwrap();
        let goats_on_board = 20 - before;
        let text = goat_board(goats_on_board, before);
        let mut s = Baghchal::from_notation(&text, &rules).unwrap();
        assert_eq!(s.to_act(), ToAct::Decision(TIGERS), "{variant}: {s}");
        s.try_play(BaghchalAction::Jump {
            from: pt("c3"),
            to: pt("c5"),
        })
        .unwrap();
        assert_eq!(
            s.to_act(),
            ToAct::Terminal(EndReason::Win(TIGERS)),
            "{variant}"
        );
    }
}

/// A movement-phase board with tigers on c3, a5, e5, e1, a goat on c4 (c5 empty, so c3xc5 is a
/// jump), `n - 1` more goats on the lowest free points, `captured` goats captured, tigers to move.
fn goat_board(n: u8, captured: u8) -> String {
    let mut cells = ['.'; 25];
    for (name, c) in [
        ("c3", 'T'),
        ("a5", 'T'),
        ("e5", 'T'),
        ("e1", 'T'),
        ("c4", 'G'),
    ] {
        cells[pt(name) as usize] = c;
    }
    let mut left = n - 1;
    for (p, cell) in cells.iter_mut().enumerate() {
        if left > 0 && *cell == '.' && p != pt("c5") as usize {
            *cell = 'G';
            left -= 1;
        }
    }
    let ranks: Vec<String> = (0..5)
        .rev()
        .map(|rank| cells[rank * 5..rank * 5 + 5].iter().collect())
        .collect();
    format!("{} t 0 {captured} 100", ranks.join("/"))
}

#[test]
fn conformance_under_every_variant_and_option() {
    for variant in ["five-captures", "averbakh-1995", "parlett-1976"] {
        for extra in [
            None,
            Some("repetition=threefold-draw"),
            Some("repetition=no-recreate"),
            Some("goats-blocked=pass"),
        ] {
            let options: Vec<String> = extra.into_iter().map(String::from).collect();
            let rules = BaghchalRules::resolve(Some(variant), &options).unwrap();
            let r = conformance::<Baghchal>(&rules, 300, 7);
            assert_eq!(r.games, 300);
        }
    }
}

#[test]
fn invariants_hold_over_a_million_random_plies() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut buf = Vec::new();
    let mut plies = 0u64;
    let mut games = 0;
    let rule_sets: Vec<BaghchalRules> = ["five-captures", "parlett-1976"]
        .iter()
        .flat_map(|v| {
            [
                "repetition=none",
                "repetition=no-recreate",
                "repetition=threefold-draw",
            ]
            .iter()
            .map(move |o| BaghchalRules::resolve(Some(v), &[o.to_string()]).unwrap())
        })
        .collect();
    while plies < 1_000_000 {
        let rules = &rule_sets[games % rule_sets.len()];
        let mut s = Baghchal::new(rules);
        games += 1;
        while let ToAct::Decision(_) = s.to_act() {
            s.legal_actions(&mut buf);
            let a = buf[rng.gen_range(0..buf.len())];
            let before_goats = s.goats().count_ones();
            s.play_unchecked(a);
            plies += 1;
            assert_eq!(s.goats() & s.tigers(), 0, "two pieces on one point");
            assert_eq!(s.tigers().count_ones(), 4);
            assert_eq!(
                s.goats().count_ones() + u32::from(s.captured()) + u32::from(s.goats_in_hand()),
                20
            );
            assert_eq!(s.hash(), s.hash_from_scratch());
            if let BaghchalAction::Place(_) = a {
                assert_eq!(
                    s.goats().count_ones(),
                    before_goats + 1,
                    "placement captured"
                );
            }
        }
    }
    assert!(games > 1000);
}

/// Ludii 1.3.12, uniformly random play under the five-captures rule, no repetition rule, no
/// cap reached: tigers won 220,514 of 224,054 games (98.42%), mean 50.6 plies (sd ~14.7)
/// (measured with Ludii 1.3.12 on this project's machine kind).
#[test]
fn random_play_agrees_with_ludii() {
    let rules = BaghchalRules::resolve(
        Some("five-captures"),
        &["repetition=none".into(), "ply-cap=none".into()],
    )
    .unwrap();
    let games = 100_000u32;
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut buf = Vec::new();
    let (mut tiger_wins, mut total_plies) = (0u32, 0u64);
    for _ in 0..games {
        let mut s = Baghchal::new(&rules);
        while let ToAct::Decision(_) = s.to_act() {
            s.legal_actions(&mut buf);
            s.play_unchecked(buf[rng.gen_range(0..buf.len())]);
        }
        if s.to_act() == ToAct::Terminal(EndReason::Win(TIGERS)) {
            tiger_wins += 1;
        }
        total_plies += u64::from(s.plies());
    }
    let share = f64::from(tiger_wins) / f64::from(games);
    let mean = total_plies as f64 / f64::from(games);
    let ludii_share = 220_514.0 / 224_054.0;
    assert!(
        (share - ludii_share).abs() < 0.002,
        "tiger share {share} vs Ludii {ludii_share}"
    );
    assert!((mean - 50.6).abs() < 0.2, "mean plies {mean} vs Ludii 50.6");
    eprintln!("tiger share {share:.5}, mean plies {mean:.3}");
}

#[test]
fn fast_playout_plays_the_same_games_as_the_generic_loop() {
    use cowrie_engine::generic_random_playout;
    for options in [
        vec![],
        vec!["goats-blocked=pass".to_string()],
        vec!["repetition=threefold-draw".to_string()],
    ] {
        for variant in ["five-captures", "parlett-1976"] {
            let rules = BaghchalRules::resolve(Some(variant), &options).unwrap();
            for seed in 0..3000 {
                let mut a = Baghchal::new(&rules);
                let mut b = a.clone();
                let mut ra = ChaCha8Rng::seed_from_u64(seed);
                let mut rb = ChaCha8Rng::seed_from_u64(seed);
                a.random_playout(&mut ra);
                generic_random_playout(&mut b, &mut rb);
                assert_eq!(a, b, "{variant} {options:?} seed {seed}");
                assert_eq!(ra.gen::<u64>(), rb.gen::<u64>(), "same number of draws");
                assert!(a.end_reason().is_some());
            }
        }
    }
}
