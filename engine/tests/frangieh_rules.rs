//! Frangieh rules on hand-built positions (each expected answer derived by hand from the rules
//! in the comment), the conformance suite for both variants, and invariants over more than a
//! million random plies.

use cowrie_engine::games::frangieh::{FrangiehOutcome, Phase};
use cowrie_engine::games::tables::{Board, Roll, BAR, OFF};
use cowrie_engine::testing::conformance;
use cowrie_engine::{
    sample_outcome, ChanceChain, EndReason, Frangieh, FrangiehRules, Game, Player, RuleSet, ToAct,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A position with player one to play `roll`: player one's and player two's checkers as
/// (slot in its own numbering, count) lists; what is not listed is borne off.
fn pos(rules: FrangiehRules, p1: &[(usize, u8)], p2: &[(usize, u8)], roll: Roll) -> Frangieh {
    let mut n = [[0u8; 26]; 2];
    for (side, list) in [p1, p2].iter().enumerate() {
        for &(slot, c) in *list {
            n[side][slot] = c;
        }
        let on: u8 = n[side].iter().sum();
        n[side][OFF] += 15 - on;
    }
    Frangieh::from_parts(
        rules,
        Board::from_counts(n),
        Player::ONE,
        Phase::Play(roll),
        0,
    )
    .unwrap()
}

fn plays(s: &Frangieh) -> Vec<String> {
    let mut buf = Vec::new();
    s.legal_actions(&mut buf);
    let mut v: Vec<String> = buf.iter().map(|&a| s.action_to_string(a)).collect();
    v.sort();
    v
}

/// The default rules, `barakat-1974`.
fn barakat() -> FrangiehRules {
    FrangiehRules::default()
}

fn modern() -> FrangiehRules {
    FrangiehRules::variant("modern").unwrap()
}

#[test]
fn blocked_entry_is_a_pass() {
    // Player two holds its points 1 to 6, which are player one's entry points 24 to 19 (a
    // checker entering with d lands on 25 - d). Player one has a checker on the bar: no roll
    // enters, and no other checker may move while one is on the bar.
    for rules in [barakat(), modern()] {
        for roll in [Roll(6, 5), Roll(1, 1), Roll(4, 2)] {
            let s = pos(
                rules,
                &[(BAR, 1), (13, 14)],
                &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 5)],
                roll,
            );
            assert_eq!(plays(&s), ["pass"], "{roll:?}");
            let mut buf = Vec::new();
            s.legal_actions(&mut buf);
            let mut next = s;
            next.play_unchecked(buf[0]);
            assert_eq!(next.board(), s.board(), "a pass changes nothing");
            assert_eq!(next.to_act(), ToAct::Chance);
            assert_eq!(next.side_to_move(), Player::TWO);
        }
    }
}

#[test]
fn the_bar_is_entered_first() {
    // Player two's 15 checkers on its 1-point = player one's 24-point: entering with the 1 is
    // blocked, with the 2 lands on 23. Then the 1 is played by any checker: 23/22 (written
    // bar/22) or 6/5. Nothing else: 6/5 6/4 would leave the bar checker out.
    for rules in [barakat(), modern()] {
        let s = pos(rules, &[(BAR, 1), (6, 14)], &[(1, 15)], Roll(2, 1));
        assert_eq!(plays(&s), ["bar/22", "bar/23 6/5"]);
    }
    // Two on the bar, the 6 blocked (player two's 6-point = player one's 19): one enters with
    // the 5; the other cannot, so the 6 is lost and no other checker moves.
    for rules in [barakat(), modern()] {
        let s = pos(rules, &[(BAR, 2), (6, 13)], &[(6, 15)], Roll(6, 5));
        assert_eq!(plays(&s), ["bar/20"]);
    }
}

#[test]
fn exact_only_against_higher_die_bear_off() {
    // Two checkers on the 3-point, 13 off. 6-5: no exact number; the source's rule ("a 6 from the
    // 6th point, and so on down to 1") leaves nothing to play; the modern rule bears both off.
    let s = pos(barakat(), &[(3, 2)], &[(20, 15)], Roll(6, 5));
    assert_eq!(plays(&s), ["pass"]);
    let s = pos(modern(), &[(3, 2)], &[(20, 15)], Roll(6, 5));
    assert_eq!(plays(&s), ["3/off(2)"]);
    // 6-1: exact only, the 1 moves 3/2 and the 6 is lost; higher, 3/2 and the 6 bears off
    // from the 3, the highest point.
    let s = pos(barakat(), &[(3, 2)], &[(20, 15)], Roll(6, 1));
    assert_eq!(plays(&s), ["3/2"]);
    let s = pos(modern(), &[(3, 2)], &[(20, 15)], Roll(6, 1));
    assert_eq!(plays(&s), ["3/2 3/off"]);
    // A 3-3 exact from the 3-point works under both.
    for rules in [barakat(), modern()] {
        let s = pos(rules, &[(3, 2)], &[(20, 15)], Roll(3, 3));
        assert_eq!(plays(&s), ["3/off(2)"]);
    }
    // No bearing off while a checker is outside: 8 and two on the 3, roll 5-3. The 3 first
    // cannot bear off (8 is outside). 5 then 3: 8/3 then 3/off; 3 then 5: 8/5 then 5/off. Both
    // leave two on the 3 and 14 off: one result, written 8/off.
    for rules in [barakat(), modern()] {
        let s = pos(rules, &[(8, 1), (3, 2)], &[(20, 15)], Roll(5, 3));
        assert_eq!(plays(&s), ["8/off"]);
    }
    // 24 cannot move with a 1 (player two holds player one's 23, its 2), and the checkers on the
    // 1-point cannot bear off while 24 is outside: 1-1 is a pass.
    for rules in [barakat(), modern()] {
        let s = pos(rules, &[(24, 1), (1, 14)], &[(2, 15)], Roll(1, 1));
        assert_eq!(plays(&s), ["pass"]);
    }
}

#[test]
fn larger_die_rule() {
    // One checker on 24, the rest on the 1-point (cannot bear off: 24 is outside). Player two
    // has made player one's points 18 and 17 (its 7 and 8) and 14 and 13. 6-5: 24/18 blocked,
    // 24/19 open; from 19, 6 -> 13 blocked; 24/19 only uses the 5. 6 first impossible. Only
    // the 5 can be played: both variants give 24/19.
    let blocks = [(7, 2), (8, 2), (11, 2), (12, 9)];
    for rules in [barakat(), modern()] {
        let s = pos(rules, &[(24, 1), (1, 14)], &blocks, Roll(6, 5));
        assert_eq!(plays(&s), ["24/19"]);
    }
    // Player two on player one's 19 and 13 instead: 24/18 (6) then 18/13 blocked; 24/19
    // blocked. Only the 6: 24/18 under both.
    let blocks = [(6, 2), (12, 13)];
    for rules in [barakat(), modern()] {
        let s = pos(rules, &[(24, 1), (1, 14)], &blocks, Roll(6, 5));
        assert_eq!(plays(&s), ["24/18"]);
    }
    // Both single moves possible but not both dice: blocks on player one's 13 only (its 12),
    // checker on 24: 24/18 then 18/13 blocked; 24/19 then 19/13 blocked. Seed: either die;
    // modern: the larger, 24/18.
    let blocks = [(12, 15)];
    let s = pos(barakat(), &[(24, 1), (1, 14)], &blocks, Roll(6, 5));
    assert_eq!(plays(&s), ["24/18", "24/19"]);
    let s = pos(modern(), &[(24, 1), (1, 14)], &blocks, Roll(6, 5));
    assert_eq!(plays(&s), ["24/18"]);
}

#[test]
fn doubles_are_played_four_times_or_as_far_as_possible() {
    // A lone runner on 24, the rest stuck on the 1-point (no bear-off with 24 outside): 2-2
    // moves it four times, 24/16.
    for rules in [barakat(), modern()] {
        let s = pos(rules, &[(24, 1), (1, 14)], &[(12, 15)], Roll(2, 2));
        assert_eq!(plays(&s), ["24/16"]);
        // Player two on player one's 18 (its 7): two steps only, 24/20.
        let s = pos(rules, &[(24, 1), (1, 14)], &[(7, 15)], Roll(2, 2));
        assert_eq!(plays(&s), ["24/20"]);
    }
    // Two runners on 24, 3-3, player two far away: positions reachable with four 3s from
    // {24, 24}: (a, b) with a + b = 4 steps split: 24/12, 24/15 24/21, 24/18(2); the checkers
    // on the 1-point cannot move. 3 distinct results.
    let s = pos(modern(), &[(24, 2), (1, 13)], &[(2, 15)], Roll(3, 3));
    assert_eq!(plays(&s), ["24/12", "24/15 24/21", "24/18(2)"]);
}

#[test]
fn hitting_sends_a_blot_to_the_bar() {
    // Player two has a blot on player one's 10-point (its 15). 13/10* hits it.
    let s = pos(modern(), &[(13, 15)], &[(15, 1), (24, 14)], Roll(3, 1));
    // 3-1 from a stack on 13 with that blot: 13/10* 13/12, 13/10*/9, or 13/12/9 (no hit).
    assert_eq!(plays(&s), ["13/10*/9", "13/12 13/10*", "13/9"]);
    let a = s.parse_action("13/10* 13/12").unwrap();
    let mut next = s;
    next.try_play(a).unwrap();
    assert_eq!(next.board().bar(1), 1);
    assert_eq!(next.board().count(1, 15), 0);
    // The same play written with every step or without the mark is the same action.
    assert_eq!(s.parse_action("13/12 13/10").unwrap(), a);
    // 13/9 passing 10 hits only if it lands there: 13/12/9 and 13/10*/9 differ.
    let via_hit = s.parse_action("13/10*/9").unwrap();
    let via_12 = s.parse_action("13/12/9").unwrap();
    assert_ne!(via_hit, via_12);
}

#[test]
fn hits_in_passing_or_only_where_a_checker_ends_the_play() {
    // The position 13:15/15:1,24:14 1 3-1: player two's blot on its 15 is player one's 10.
    // Barakat 1974 [1769.6]: a player who "ends the turn" on a point with one opposing piece
    // sends it to the bar. hit-in-passing=on (each die's move a move): 13/10*/9 hits on the way,
    // so it differs from 13/12/9. off: only a checker that stays on 10 hits (13/12 13/10*); a
    // checker going on to 9 leaves the blot, and 13/10/9 and 13/12/9 are one play, 13/9.
    let on = barakat();
    let mut off = barakat();
    off.set_option("hit-in-passing", "off").unwrap();
    let text = "13:15/15:1,24:14 1 3-1 0";
    let s = Frangieh::from_notation(text, &on).unwrap();
    assert_eq!(plays(&s), ["13/10*/9", "13/12 13/10*", "13/9"]);
    let s = Frangieh::from_notation(text, &off).unwrap();
    assert_eq!(plays(&s), ["13/12 13/10*", "13/9"]);
    let mut past = s;
    past.try_play(s.parse_action("13/10/9").unwrap()).unwrap();
    assert_eq!(past.board().count(1, 15), 1, "the blot passed stays");
    assert_eq!(past.board().bar(1), 0);
    let mut stay = s;
    stay.try_play(s.parse_action("13/12 13/10").unwrap())
        .unwrap();
    assert_eq!((stay.board().count(1, 15), stay.board().bar(1)), (0, 1));
    // Entering from the bar: player two's blot on its 3 is player one's 22. With 3-1 the
    // entering checker may stop on 22 and hit (bar/22* and the 1 elsewhere) or go on to 21;
    // under off, bar/22/21 passes the blot, so it is the same play as bar/24/21.
    let text = "bar:1,13:14/3:1,24:14 1 3-1 0";
    let s = Frangieh::from_notation(text, &off).unwrap();
    assert_eq!(plays(&s), ["bar/21", "bar/22* 13/12", "bar/24 13/10"]);
    let s = Frangieh::from_notation(text, &on).unwrap();
    assert_eq!(
        plays(&s),
        ["bar/21", "bar/22* 13/12", "bar/22*/21", "bar/24 13/10"]
    );
}

#[test]
fn each_die_a_separate_move_or_as_many_dice_as_possible() {
    // Player one: 13:1, 6:14; player two holds player one's 7 (its 18) with two and sits on
    // player one's 12 (its 13). 6-5: the 6 cannot be played first (13/7 is blocked; bearing
    // off from 6 waits until all are home). With the 5 first, 13/8 lets the 6 follow (8/2),
    // 6/1 does not. Barakat 1974 [1769.9] "must use all available moves" (must-use=max): only
    // 13/2. must-use=each (Ludii 1.3.12): 6/1 too, after which the 6 has no move.
    let text = "13:1,6:14/18:2,13:13 1 6-5 0";
    let s = Frangieh::from_notation(text, &barakat()).unwrap();
    assert_eq!(plays(&s), ["13/2"]);
    let mut each = barakat();
    each.set_option("must-use", "each").unwrap();
    let s = Frangieh::from_notation(text, &each).unwrap();
    assert_eq!(plays(&s), ["13/2", "6/1"]);
    let ludii = FrangiehRules::variant("ludii").unwrap();
    let s = Frangieh::from_notation(text, &ludii).unwrap();
    assert_eq!(plays(&s), ["13/2", "6/1"]);
}

#[test]
fn rearmost_bear_off_by_a_die_with_no_other_use() {
    // Player one: 6:1, 2:1, all home; player two holds player one's 1 (its 24) with two. 5-5:
    // 6/1 is blocked and no checker is on 5. higher (GNU Backgammon): a 5 bears off only from
    // the highest occupied point, 6, which it cannot reach: pass. rearmost (Ludii 1.3.12): the
    // 5 has no other use, so it bears off the rearmost checker it carries past the end, the one
    // on 2; then the next 5 again has no use (6/1 blocked) and no checker below it: 2/off.
    let text = "6:1,2:1,off:13/24:2,13:13 1 5-5 0";
    let mut higher = barakat();
    higher.set_option("bear-off", "higher").unwrap();
    let s = Frangieh::from_notation(text, &higher).unwrap();
    assert_eq!(plays(&s), ["pass"]);
    let mut rearmost = barakat();
    rearmost.set_option("bear-off", "rearmost").unwrap();
    let s = Frangieh::from_notation(text, &rearmost).unwrap();
    assert_eq!(plays(&s), ["2/off"]);
    // With player one's 1 open, 6/1 is a use of the 5: the first 5 moves 6/1, after which the
    // 2 is the rearmost checker and a 5 has no other use: 6/1 2/off 1/off, all borne off
    // (written as one path per checker: 6/off 2/off).
    let s = Frangieh::from_notation("6:1,2:1,off:13/13:15 1 5-5 0", &rearmost).unwrap();
    assert_eq!(plays(&s), ["6/off 2/off"]);
}

#[test]
fn the_ludii_variant_starts_with_player_one_rolling() {
    // Ludii 1.3.12's Frangieh.lud has no opening roll: player one rolls and plays first.
    let rules = FrangiehRules::variant("ludii").unwrap();
    let mut s = Frangieh::new(&rules);
    assert_eq!((s.to_act(), s.phase()), (ToAct::Chance, Phase::Roll));
    let mut buf = Vec::new();
    s.chance_outcomes(&mut buf);
    assert_eq!(buf.len(), 21);
    s.apply_outcome(FrangiehOutcome::Roll(Roll(3, 1)));
    assert_eq!(s.to_act(), ToAct::Decision(Player::ONE));
    assert_eq!(Frangieh::facts(&rules).max_points, 1);
}

#[test]
fn openings() {
    let mut s = Frangieh::new(&barakat());
    s.apply_outcome(FrangiehOutcome::Opening { p1: 2, p2: 5 });
    // Seed: the higher (player two) starts and rolls again.
    assert_eq!(s.to_act(), ToAct::Chance);
    assert_eq!(s.side_to_move(), Player::TWO);
    let mut m = Frangieh::new(&modern());
    m.apply_outcome(FrangiehOutcome::Opening { p1: 3, p2: 1 });
    // Modern: player one plays the opening 3-1 (16 distinct results, as in the cases file).
    assert_eq!(m.to_act(), ToAct::Decision(Player::ONE));
    assert_eq!(m.phase(), Phase::Play(Roll(3, 1)));
    assert_eq!(plays(&m).len(), 16);
    let mut buf = Vec::new();
    Frangieh::new(&modern()).chance_outcomes(&mut buf);
    assert_eq!(buf.len(), 30);
}

#[test]
fn the_checked_api_refuses_illegal_plays() {
    let mut m = Frangieh::new(&modern());
    m.apply_outcome(FrangiehOutcome::Opening { p1: 3, p2: 1 });
    // 24/18 needs a 6; 8/5 8/4 uses a 4; 6/5(2) uses the 1 twice.
    for bad in ["24/18", "8/5 8/4", "6/5(2)", "13/10"] {
        let a = m.parse_action(bad).unwrap();
        assert!(m.try_play(a).is_err(), "{bad}");
    }
    assert!(m.parse_action("5/8").is_err(), "backwards");
    assert!(
        m.parse_action("13/10 13/10 13/10 13/10 13/10").is_err(),
        "five moves"
    );
    assert!(m.parse_action("25/20").is_err(), "25 is written bar");
    // GNU Backgammon's own forms of legal plays are accepted.
    for good in ["8/5 6/5", "24/20", "13/9", "24/23 13/10"] {
        let mut n = m;
        n.try_play(n.parse_action(good).unwrap()).unwrap();
    }
}

#[test]
fn scoring_single_gammon_backgammon() {
    // Player one bears off its last checker with a 1.
    let finish = |rules, p2: &[(usize, u8)]| {
        let mut s = pos(rules, &[(1, 1)], p2, Roll(1, 1));
        let a = s.parse_action("1/off").unwrap();
        s.try_play(a).unwrap();
        assert_eq!(s.to_act(), ToAct::Terminal(EndReason::Win(Player::ONE)));
        s.returns()
    };
    // Player two still has a checker on the bar: backgammon (3) when gammons count.
    assert_eq!(finish(modern(), &[(BAR, 1), (1, 14)]), [3.0, -3.0]);
    // A checker in player one's home (player two's 19 to 24): backgammon too.
    assert_eq!(finish(modern(), &[(20, 1), (1, 14)]), [3.0, -3.0]);
    // None borne off, none in player one's home: gammon.
    assert_eq!(finish(modern(), &[(18, 1), (1, 14)]), [2.0, -2.0]);
    // One borne off: single.
    assert_eq!(finish(modern(), &[(20, 1), (1, 13)]), [1.0, -1.0]);
    // The source: always single.
    assert_eq!(finish(barakat(), &[(BAR, 1), (1, 14)]), [1.0, -1.0]);
    assert_eq!(Frangieh::facts(&modern()).max_points, 3);
    assert_eq!(Frangieh::facts(&barakat()).max_points, 1);
}

#[test]
fn ply_cap_truncates() {
    let mut rules = FrangiehRules::variant("modern").unwrap();
    rules.set_option("ply-cap", "6").unwrap();
    let mut s = Frangieh::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut buf, mut out) = (Vec::new(), Vec::new());
    while s.end_reason().is_none() {
        random_step(&mut s, &mut rng, &mut buf, &mut out);
    }
    assert_eq!(s.end_reason(), Some(EndReason::Truncated));
    assert_eq!(s.plies(), 6);
    assert_eq!(s.returns(), [0.0, 0.0]);
    let back = Frangieh::from_notation(&s.notation(), &rules).unwrap();
    assert_eq!(back.end_reason(), Some(EndReason::Truncated));
}

#[test]
fn notation_round_trips_and_start() {
    let s = Frangieh::new(&barakat());
    assert_eq!(
        s.notation(),
        "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 1 opening 0"
    );
    for bad in [
        "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:4 1 opening 0",
        "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 3 opening 0",
        "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 1 2-5 0",
        "24:2,13:5,8:3,6:5/1:2,13:5,8:3,6:5 1 roll 0",
        "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 1 over 0",
    ] {
        assert!(Frangieh::from_notation(bad, &barakat()).is_err(), "{bad}");
    }
    let text = s.to_string();
    assert!(text.contains("pips X 167 O 167"), "{text}");
}

fn random_step(
    s: &mut Frangieh,
    rng: &mut ChaCha8Rng,
    buf: &mut Vec<cowrie_engine::FrangiehAction>,
    outs: &mut Vec<(FrangiehOutcome, f64)>,
) {
    match s.to_act() {
        ToAct::Chance => {
            s.chance_outcomes(outs);
            let o = sample_outcome(outs, rng);
            s.apply_outcome(o);
        }
        ToAct::Decision(_) => {
            s.legal_actions(buf);
            let a = buf[rng.gen_range(0..buf.len())];
            s.play_unchecked(a);
        }
        ToAct::Terminal(_) => {}
    }
}

#[test]
fn conformance_both_variants() {
    // The longest chain of chance nodes: the opening roll and, under the source's opening ("and
    // then rolls again to begin play"), a fresh roll; the modern opening plays the opening dice.
    for (name, games, chain) in [
        ("barakat-1974", 150, 2),
        ("modern", 150, 1),
        ("ludii", 150, 1),
    ] {
        let rules = FrangiehRules::variant(name).unwrap();
        let r = conformance::<Frangieh>(&rules, games, 2024);
        assert_eq!(r.games, games);
        assert_eq!(r.truncated, 0);
        assert!(r.plies > games * 50, "{name}: {r:?}");
        assert_eq!(r.longest_chance_chain, chain, "{name}");
        assert_eq!(
            Frangieh::facts(&rules).chance_chain,
            ChanceChain::Bounded(chain)
        );
    }
}

#[test]
fn invariants_over_a_million_random_plies() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut buf, mut outs) = (Vec::new(), Vec::new());
    let mut plies = 0u64;
    let mut games = 0u64;
    let variants = [barakat(), modern()];
    while plies < 1_000_000 {
        let rules = variants[(games % 2) as usize];
        let mut s = Frangieh::new(&rules);
        let mut n = 0u32;
        while s.end_reason().is_none() {
            if let ToAct::Decision(_) = s.to_act() {
                plies += 1;
                n += 1;
            }
            random_step(&mut s, &mut rng, &mut buf, &mut outs);
            let b = s.board();
            for side in 0..2 {
                let total: u32 = b.counts()[side].iter().map(|&c| u32::from(c)).sum();
                assert_eq!(total, 15);
            }
            for p in 1..25 {
                assert!(
                    b.count(0, p) == 0 || b.count(1, 25 - p) == 0,
                    "point {p} held by both: {}",
                    s.notation()
                );
            }
            assert_eq!(s.hash(), s.hash_from_scratch(), "{}", s.notation());
            assert!(n < 100_000, "game did not end");
        }
        assert!(matches!(s.end_reason(), Some(EndReason::Win(_))));
        games += 1;
    }
    assert!(games > 1000);
}
