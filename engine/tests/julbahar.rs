//! Julbahar: hand-checked positions from the source's rules (Barakat 1974, DLP.Evidence.1773), the match
//! to 31, the opening throw, conformance for each variant and random-play invariants.
//!
//! Positions are written in the notation of `cowrie_engine::games::julbahar` (tables numbering:
//! a side's track point `t` is its tables point `25 - t`; the opponent's tables point `q` is the
//! mover's `25 - q`). Each expected value is derived by hand in the comment above it.

use cowrie_engine::games::julbahar::{Bonus, JulbaharOutcome, Phase};
use cowrie_engine::games::tables::Roll;
use cowrie_engine::testing::conformance;
use cowrie_engine::{
    sample_outcome, EndReason, Game, Julbahar, JulbaharRules, Player, RuleSet, ToAct,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn pos(text: &str, rules: &JulbaharRules) -> Julbahar {
    Julbahar::from_notation(text, rules).unwrap_or_else(|e| panic!("{e}"))
}

fn texts(s: &Julbahar) -> Vec<String> {
    let mut buf = Vec::new();
    s.legal_actions(&mut buf);
    let mut v: Vec<String> = buf.iter().map(|&a| s.action_to_string(a)).collect();
    v.sort();
    v
}

fn play(s: &mut Julbahar, text: &str) {
    let a = s.parse_action(text).unwrap();
    s.try_play(a).unwrap_or_else(|e| panic!("{text}: {e}"));
}

#[test]
fn blocked_intermediate_landings_leave_one_play() {
    // Track numbering: the mover has 14 on 1 and one on 5; the opponent single checkers on the
    // mover's 9 and 11, its other 13 on its own first point. Tables numbering: mover 24:14,
    // 20:1; the opponent's points are 25 - 9 = 16 -> its 9, 25 - 11 = 14 -> its 11, and its
    // 24 (= the mover's tables 1). Roll 6-4: from 5, 5+6 = 11 and 5+4 = 9 are blocked; from 1,
    // 1+4 = 5 and 1+6 = 7 are open but continuing 5+6 = 11 or 7+4 = 11 is blocked. So the only
    // play using both dice is 1->5 and 1->7: tables 24/20 24/18.
    let s = pos(
        "24:14,20:1/24:13,11:1,9:1 1 6-4 0 0-0 1 1 0-0 0 0 0",
        &JulbaharRules::default(),
    );
    assert_eq!(texts(&s), ["24/20 24/18"]);
    let mut buf = Vec::new();
    s.legal_actions(&mut buf);
    let mut moves = buf[0].moves().to_vec();
    moves.sort_unstable();
    assert_eq!(moves, [[24, 18], [24, 20]]);
}

#[test]
fn early_exact_bear_off_but_not_higher() {
    // Mover: one checker on its last point (tables 1), fourteen on tables 13 (track 12, outside
    // the last quadrant); the opponent's fifteen on its 5 (the mover's 20), out of the way.
    // 3-1: the 1 bears off exactly (Barakat 1974 [1773]: "by throwing exactly one more than the number of
    // remaining points"); plays: 13/10 1/off, 13/12 13/10, 13/9.
    let r = JulbaharRules::default();
    let s = pos("13:14,1:1/5:15 1 3-1 0 0-0 1 1 0-0 0 0 0", &r);
    assert_eq!(texts(&s), ["13/10 1/off", "13/12 13/10", "13/9"]);
    // 3-2: no die is exactly 1, and a higher number does not bear off while checkers are
    // outside: only 13/11 13/10 and 13/8.
    let s = pos("13:14,1:1/5:15 1 3-2 0 0-0 1 1 0-0 0 0 0", &r);
    assert_eq!(texts(&s), ["13/11 13/10", "13/8"]);
    // Once all are in the last quadrant (fourteen on tables 2, one on 1), a 6 bears off from
    // the highest occupied point under bear-off=higher (the default), not under exact.
    let s = pos("off:13,2:1,1:1/5:15 1 6-6 0 0-0 1 1 0-0 0 0 0", &r);
    assert_eq!(texts(&s), ["2/off 1/off"]);
    let mut exact = r;
    exact.set_option("bear-off", "exact").unwrap();
    let s = pos("off:13,2:1,1:1/5:15 1 6-6 0 0-0 1 1 0-0 0 0 0", &exact);
    assert_eq!(texts(&s), ["pass"]);
}

/// The mover (player one) has fifteen on its first point (tables 24); the opponent holds the
/// mover's tables 23 to 18 (its 2 to 7), so every die is blocked: 3-1 is a complete pass. The
/// opponent can move (its 7 with a 1 goes to its own 6; its 2 bears off exactly with a 2).
const FULL_BLOCK: &str = "24:15/7:2,6:2,5:2,4:3,3:3,2:3 1 3-1 0 0-SCORE 1 1 0-0 0 0 0";
/// As above but the mover's 18 is open and its 17 held (the opponent's 8 instead of 7): with
/// 6-1 only the 6 can be played (24/18), the 1 is blocked before and after.
const ONE_DIE: &str = "24:15/8:2,6:2,5:2,4:3,3:3,2:3 1 6-1 0 0-0 1 1 0-0 0 0 0";

fn with_bonus(b: &str) -> JulbaharRules {
    let mut r = JulbaharRules::default();
    r.set_option("bonus", b).unwrap();
    r
}

#[test]
fn five_points_for_a_blocked_roll_by_reading() {
    // (reading, opponent's total after a complete pass, after a one-die play): Barakat 1974 [1773] "the
    // opponent gains five points" on a complete pass under `pass` and `die`; only `die` (Ludii)
    // also after a play that leaves a die unplayed; never under `off`.
    for (reading, after_pass, after_one_die) in [("pass", 5, 0), ("die", 5, 5), ("off", 0, 0)] {
        let r = with_bonus(reading);
        let mut s = pos(&FULL_BLOCK.replace("SCORE", "0"), &r);
        assert_eq!(texts(&s), ["pass"]);
        play(&mut s, "pass");
        assert_eq!(s.scores(), [0, after_pass], "{reading}");
        assert_eq!(s.to_act(), ToAct::Chance);
        assert_eq!(s.side_to_move(), Player::TWO);

        let mut s = pos(ONE_DIE, &r);
        assert_eq!(texts(&s), ["24/18"]);
        play(&mut s, "24/18");
        assert_eq!(s.scores(), [0, after_one_die], "{reading}");
    }
    // A roll played in full gives nothing under any reading: 6-6 from ONE_DIE goes 24/18/12/6
    // or splits, always four moves.
    let r = with_bonus("die");
    let mut s = pos(&ONE_DIE.replace("6-1", "6-6"), &r);
    let mut buf = Vec::new();
    s.legal_actions(&mut buf);
    assert!(buf.iter().all(|a| a.moves().len() == 4));
    s.play_unchecked(buf[0]);
    assert_eq!(s.scores(), [0, 0]);
    assert_eq!(JulbaharRules::variant("ludii").unwrap().bonus, Bonus::Die);
}

/// Barakat 1974 [1773.9], "whenever a player is unable to move and the opponent is able to, the
/// opponent gains five points", under each reading of `bonus`, on three positions derived by
/// hand (player one to play; the opponent's tables point `q` is player one's `25 - q`):
///
/// - `24:15/7:2,6:13`, 6-5: player one's 6 and 5 land on its 18 and 19, the opponent's 7 and
///   6: a complete pass; its 1 to 4 land on its 23 to 20, empty, so it is not completely
///   blocked. The opponent can move (its 6 bears off exactly with a 6, its 7 goes to 2 with a
///   5), with this 6-5 too.
/// - `24:15/7:15`, 6-6: player one's 6 lands on the opponent's 7: a pass; its 1 to 5 are open.
///   The opponent's 7 with a 6 lands on its 1, player one's 24, held; no checker on its 6 bears
///   off exactly, and not all are home for a higher die: it cannot play 6-6, but a 1 moves it
///   (7 to 6, player one's 19, empty).
/// - `FULL_BLOCK`, 3-1: player one completely blocked (its 23 to 18 held); the opponent plays
///   3-1 (its 7 to 6 with the 1, its 3 bears off with the 3).
#[test]
fn the_bonus_under_each_reading_on_hand_derived_positions() {
    let cases = [
        "24:15/7:2,6:13 1 6-5 0 0-0 1 1 0-0 0 0 0".to_string(),
        "24:15/7:15 1 6-6 0 0-0 1 1 0-0 0 0 0".to_string(),
        FULL_BLOCK.replace("SCORE", "0"),
    ];
    // (reading, the opponent's points after the pass in each case)
    for (reading, want) in [
        ("pass", [5, 5, 5]),
        ("blocked", [0, 0, 5]),
        ("same-roll", [5, 0, 5]),
        ("die", [5, 5, 5]),
        ("off", [0, 0, 0]),
    ] {
        let r = with_bonus(reading);
        for (text, want) in cases.iter().zip(want) {
            let mut s = pos(text, &r);
            assert_eq!(texts(&s), ["pass"], "{text}");
            play(&mut s, "pass");
            assert_eq!(s.scores(), [0, want], "{reading}: {text}");
        }
    }
}

#[test]
fn early_bear_off_exact_or_only_once_all_are_home() {
    // As in early_exact_bear_off_but_not_higher: fourteen on tables 13, one on 1, 3-1. Barakat
    // 1974 [1773.7] (early-bear-off=exact): the 1 bears off the checker on 1 while others are
    // outside. off (the usual tables rule): no bearing off until all are in the last quadrant,
    // so the 1 moves 13/12: 13/12 13/10 or 13/9.
    let text = "13:14,1:1/5:15 1 3-1 0 0-0 1 1 0-0 0 0 0";
    let s = pos(text, &JulbaharRules::default());
    assert_eq!(texts(&s), ["13/10 1/off", "13/12 13/10", "13/9"]);
    let mut off = JulbaharRules::default();
    off.set_option("early-bear-off", "off").unwrap();
    let s = pos(text, &off);
    assert_eq!(texts(&s), ["13/12 13/10", "13/9"]);
    // Once all are home the two agree: fourteen on 2, one on 1, 2-1: 2/off 1/off among them.
    let text = "2:14,1:1/5:15 1 2-1 0 0-0 1 1 0-0 0 0 0";
    let home = pos(text, &JulbaharRules::default());
    assert_eq!(texts(&home), texts(&pos(text, &off)));
    assert!(texts(&home).contains(&"2/off 1/off".to_string()));
}

#[test]
fn rearmost_bear_off_by_a_die_with_no_other_use() {
    // All home: one checker on tables 6, one on 2; the opponent's fifteen on its first point,
    // the mover's tables 1. 5-5: 6/1 lands on the opponent, no checker is on 5. bear-off=higher:
    // a 5 bears off only from the highest point, 6: pass. rearmost (Ludii 1.3.12's reading in
    // Frangieh.lud): the 5 has no other use, so it bears off the rearmost checker it carries
    // past the end, the one on 2; the next 5 has no use and no checker below it.
    let text = "6:1,2:1,off:13/24:15 1 5-5 0 0-0 1 1 0-0 0 0 0";
    let s = pos(text, &JulbaharRules::default());
    assert_eq!(texts(&s), ["pass"]);
    let mut r = JulbaharRules::default();
    r.set_option("bear-off", "rearmost").unwrap();
    assert_eq!(texts(&pos(text, &r)), ["2/off"]);
}

#[test]
fn the_match_ends_as_soon_as_a_total_reaches_31() {
    let r = JulbaharRules::default();
    // Opponent at 25: the bonus takes it to 30, the match goes on.
    let mut s = pos(&FULL_BLOCK.replace("SCORE", "25"), &r);
    play(&mut s, "pass");
    assert_eq!(s.scores(), [0, 30]);
    assert_eq!(s.to_act(), ToAct::Chance);
    // Opponent at 26: 31, the match ends mid-game; player two wins the match (+1 / -1).
    let mut s = pos(&FULL_BLOCK.replace("SCORE", "26"), &r);
    play(&mut s, "pass");
    assert_eq!(s.scores(), [0, 31]);
    assert_eq!(s.to_act(), ToAct::Terminal(EndReason::Win(Player::TWO)));
    assert_eq!(s.returns(), [-1.0, 1.0]);
    let log = s.game_log();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].bore_off, None);
    assert_eq!(log[0].points, [0, 5]);
    assert_eq!((log[0].plies, log[0].turns), (1, 1));

    // Bearing off the last checker scores the opponent's checkers left on the board: fifteen
    // here (the opponent has borne off none). From 16 that is 31: the match is won.
    let last = "1:1,off:14/5:15 1 2-1 0 16-0 1 1 0-0 0 0 0";
    let mut s = pos(last, &r);
    assert_eq!(texts(&s), ["1/off"]);
    play(&mut s, "1/off");
    assert_eq!(s.scores(), [31, 0]);
    assert_eq!(s.returns(), [1.0, -1.0]);
    // From 15 it is 30: a second game begins with a new opening throw.
    let mut s = pos(&last.replace("16-0", "15-0"), &r);
    play(&mut s, "1/off");
    assert_eq!(s.scores(), [30, 0]);
    assert_eq!(s.game_number(), 2);
    assert_eq!(s.phase(), Phase::Opening);
    assert_eq!(s.board(), &Julbahar::new(&r).board().clone());
    let g = s.game_log()[0];
    assert_eq!(
        (g.game, g.first, g.bore_off, g.points),
        (1, Player::ONE, Some(Player::ONE), [15, 0])
    );
    // Under unit=game the same bear-off ends the unit whatever the totals.
    let mut one = r;
    one.set_option("unit", "game").unwrap();
    let mut s = pos(&last.replace("16-0", "0-0"), &one);
    play(&mut s, "1/off");
    assert_eq!(s.to_act(), ToAct::Terminal(EndReason::Win(Player::ONE)));
    // Three checkers of the opponent borne off: 12 points.
    let mut s = pos("1:1,off:14/5:12,off:3 1 2-1 0 0-0 1 1 0-0 0 0 0", &r);
    play(&mut s, "1/off");
    assert_eq!(s.scores(), [12, 0]);
}

#[test]
fn opening_throw_probabilities_and_move() {
    // P(a given player wins the opening with 6-6) = P(6-6) * P(the other throw is lower) /
    // (1 - P(tie)) = (1/36)(35/36) / (1 - 122/1296) = 35/1174. Ties: the 9 non-double totals
    // 3..11 have 2, 2, 4, 4, 6, 4, 4, 2, 2 ordered throws, plus six doubles of 1 each, so
    // P(tie) = (4+4+16+16+36+16+16+4+4 + 6)/1296 = 122/1296.
    let r = JulbaharRules::default();
    let s = Julbahar::new(&r);
    let mut outs = Vec::new();
    s.chance_outcomes(&mut outs);
    let p = |winner, roll| {
        outs.iter()
            .find(|(o, _)| *o == JulbaharOutcome::Opening { winner, roll })
            .map_or(0.0, |(_, p)| *p)
    };
    assert!((p(Player::ONE, Roll(6, 6)) - 35.0 / 1174.0).abs() < 1e-12);
    // 2-1 (total 3, no double) can never win: it is not listed.
    assert_eq!(p(Player::TWO, Roll(2, 1)), 0.0);
    // 6-5 (total 11) beats every non-double lower: P(lower) = (36 - 6 doubles - 2 elevens) / 36
    // = 28/36; P = (2/36)(28/36) / (1174/1296) = 56/1174.
    assert!((p(Player::TWO, Roll(6, 5)) - 56.0 / 1174.0).abs() < 1e-12);

    // The winner (player two) moves player one's checkers by its throw: from tables 24 only,
    // 24/13 or 24/18 24/19. Then player one rolls (after-opening=opponent).
    let mut s = Julbahar::new(&r);
    s.apply_outcome(JulbaharOutcome::Opening {
        winner: Player::TWO,
        roll: Roll(6, 5),
    });
    assert_eq!(s.to_act(), ToAct::Decision(Player::TWO));
    assert_eq!(texts(&s), ["24/13", "24/19 24/18"]);
    play(&mut s, "24/13");
    assert_eq!(s.board().count(0, 13), 1);
    assert_eq!(s.board().count(1, 24), 15);
    assert_eq!(s.to_act(), ToAct::Chance);
    assert_eq!(s.side_to_move(), Player::ONE);
    let mut w = r;
    w.set_option("after-opening", "winner").unwrap();
    let mut s = Julbahar::new(&w);
    s.apply_outcome(JulbaharOutcome::Opening {
        winner: Player::TWO,
        roll: Roll(6, 5),
    });
    play(&mut s, "24/13");
    assert_eq!(s.side_to_move(), Player::TWO);
    // No opening throw (ludii): player one simply rolls.
    let s = Julbahar::new(&JulbaharRules::variant("ludii").unwrap());
    assert_eq!((s.to_act(), s.side_to_move()), (ToAct::Chance, Player::ONE));
    assert_eq!(s.phase(), Phase::Roll);
}

fn rule_sets() -> Vec<(&'static str, JulbaharRules)> {
    let mut out = Vec::new();
    for v in JulbaharRules::variants() {
        out.push((v.name, JulbaharRules::variant(v.name).unwrap()));
    }
    for opts in [
        &[("unit", "game"), ("bonus", "die")][..],
        &[
            ("next-game", "loser"),
            ("after-opening", "winner"),
            ("bear-off", "exact"),
        ],
        &[
            ("next-game", "alternate"),
            ("larger-die", "on"),
            ("target", "11"),
        ],
        &[("bonus", "blocked"), ("early-bear-off", "off")],
        &[("bonus", "same-roll"), ("bear-off", "rearmost")],
    ] {
        let mut r = JulbaharRules::default();
        for (k, v) in opts {
            r.set_option(k, v).unwrap();
        }
        out.push(("options", r));
    }
    out
}

#[test]
fn conformance_for_each_variant() {
    for (name, r) in rule_sets() {
        let games = if r.unit == cowrie_engine::games::julbahar::Unit::Game {
            20
        } else {
            3
        };
        let rep = conformance::<Julbahar>(&r, games, 11);
        assert_eq!(rep.games, games, "{name}");
        assert_eq!(rep.truncated, 0, "{name}");
        // Every throw, the opening throw included, is followed by a move or a pass.
        assert_eq!(rep.longest_chance_chain, 1, "{name}");
    }
}

#[test]
fn random_matches_keep_the_invariants_and_end() {
    let mut total_games = 0;
    for (name, r) in rule_sets() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (mut acts, mut outs) = (Vec::new(), Vec::new());
        for _ in 0..20 {
            let mut s = Julbahar::new(&r);
            loop {
                s.board().validate(s.params().direction).unwrap();
                for side in 0..2 {
                    let total: u32 = (0..26).map(|k| u32::from(s.board().count(side, k))).sum();
                    assert_eq!(total, 15);
                    assert_eq!(s.board().bar(side), 0);
                }
                assert_eq!(s.hash(), s.hash_from_scratch(), "{name}");
                match s.to_act() {
                    ToAct::Terminal(reason) => {
                        let w = reason.winner().expect("a random match ends with a winner");
                        if r.unit == cowrie_engine::games::julbahar::Unit::Match {
                            assert!(s.scores()[w.index()] >= r.target);
                            assert!(s.scores()[w.opponent().index()] < r.target);
                        }
                        let log = s.game_log();
                        assert_eq!(log.len() as u32, s.game_number());
                        assert_eq!(log.iter().map(|g| g.plies).sum::<u32>(), s.plies());
                        for p in 0..2 {
                            let pts: u32 = log.iter().map(|g| g.points[p]).sum();
                            assert_eq!(pts, s.scores()[p]);
                        }
                        total_games += log.len();
                        break;
                    }
                    ToAct::Chance => {
                        s.chance_outcomes(&mut outs);
                        let o = sample_outcome(&outs, &mut rng);
                        s.apply_outcome(o);
                    }
                    ToAct::Decision(_) => {
                        s.legal_actions(&mut acts);
                        let a = acts[rng.gen_range(0..acts.len())];
                        s.play_unchecked(a);
                    }
                }
            }
        }
    }
    assert!(total_games > 100);
}

#[test]
fn next_game_options_choose_the_starter() {
    // Player one (who started game 1, starter field 1) bears off its last checker at 0-0 and
    // scores 15; game 2 begins with: a new opening throw (`opening`), the loser rolling
    // (`loser`: player two), or the player who did not start game 1 rolling (`alternate`:
    // player two; with player two as game 1's starter, player one).
    let last = "1:1,off:14/5:15 1 2-1 0 0-0 1 1 0-0 0 0 0";
    for (opt, starter_field, want) in [
        ("opening", "1", None),
        ("loser", "1", Some(Player::TWO)),
        ("alternate", "1", Some(Player::TWO)),
        ("alternate", "2", Some(Player::ONE)),
    ] {
        let mut r = JulbaharRules::default();
        r.set_option("next-game", opt).unwrap();
        let text = last.replace(" 1 1 0-0 ", &format!(" 1 {starter_field} 0-0 "));
        let mut s = pos(&text, &r);
        play(&mut s, "1/off");
        assert_eq!(s.game_number(), 2, "{opt}");
        match want {
            None => assert_eq!(s.phase(), Phase::Opening),
            Some(p) => {
                assert_eq!((s.phase(), s.side_to_move()), (Phase::Roll, p), "{opt}");
                assert!(s.notation().contains(&format!(" 2 {} 0-0 0 0 0", p.seat())));
            }
        }
    }
    // Under after-opening=winner the opening move and the winner's next play are one turn.
    let mut r = JulbaharRules::default();
    r.set_option("after-opening", "winner").unwrap();
    let mut s = Julbahar::new(&r);
    s.apply_outcome(JulbaharOutcome::Opening {
        winner: Player::ONE,
        roll: Roll(3, 1),
    });
    play(&mut s, "24/20");
    s.apply_outcome(JulbaharOutcome::Roll(Roll(2, 1)));
    play(&mut s, "24/21");
    assert!(s.notation().ends_with(" 1 1 0-0 2 1 1"), "{}", s.notation());
}
