//! Julbahar perft with chance nodes expanded, two decision plies deep, against an independent
//! slow generator written here from Barakat's (1974) Julbahar rules; and the generator's sets of resulting
//! positions against the slow one on positions from random matches.
//!
//! The slow generator works in track numbering (1 = a side's first point, 25 = borne off; the
//! opponent's track point `u` is the mover's `25 - u`), tries every die order and every checker
//! without pruning, keeps the plays using the most dice (and under `larger-die=on`, when only
//! one die can be used, those using the larger if any), and returns the set of resulting
//! boards. The engine works in the tables numbering (`25 - t`): the conversion is the reversal
//! of a side's 26 slots.

use std::collections::BTreeSet;

use cowrie_engine::games::julbahar::{Bonus, EarlyBearOff, Phase};
use cowrie_engine::games::tables::{BearOff, Play, Roll, ROLLS};
use cowrie_engine::{perft, sample_outcome, Game, Julbahar, JulbaharRules, RuleSet, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Checkers per track point of both sides: `[side][t]`, `t` 1 to 24 on the board, 25 off.
type Track = [[u8; 26]; 2];

fn to_track(counts: &[[u8; 26]; 2]) -> Track {
    let mut t = [[0u8; 26]; 2];
    for s in 0..2 {
        for i in 0..26 {
            t[s][i] = counts[s][25 - i];
        }
    }
    t
}

/// The bear-off rules the slow generator reads: a higher die's use (none, from the rearmost
/// checker when all are home, or from the rearmost checker below the die when the die has no
/// other use), and whether exact throws bear off before all are home.
#[derive(Clone, Copy)]
struct Off {
    higher: Option<bool>,
    early: bool,
}

fn off_rules(r: &JulbaharRules) -> Off {
    Off {
        higher: match r.bear_off {
            BearOff::Exact => None,
            BearOff::Higher => Some(false),
            BearOff::Rearmost => Some(true),
        },
        early: r.early_bear_off == EarlyBearOff::Exact,
    }
}

/// Whether side `m` may move a checker from track point `t` by `d` along the track or bear it
/// off exactly (Barakat's (1974) Julbahar rules).
fn can_move_plain(b: &Track, m: usize, t: usize, d: usize, o: Off) -> bool {
    if b[m][t] == 0 || t > 24 {
        return false;
    }
    let dest = t + d;
    if dest <= 24 {
        // "A piece cannot land on a space occupied by one of the opponent's pieces."
        return b[1 - m][25 - dest] == 0;
    }
    // Exact bear-off from the last six points: at any time (early), or with all home.
    dest == 25 && (o.early || (1..19).all(|x| b[m][x] == 0))
}

/// Whether side `m` may move a checker from track point `t` by `d`, a higher die included.
fn can_move(b: &Track, m: usize, t: usize, d: usize, o: Off) -> bool {
    if can_move_plain(b, m, t, d, o) {
        return true;
    }
    let Some(rearmost) = o.higher else {
        return false;
    };
    // A higher die: all checkers on the board in the last quadrant (19-24), and none behind
    // `t`; or, under rearmost, none behind `t` short of the die's point, with no other use.
    if b[m][t] == 0 || t > 24 || t + d <= 25 || (1..19).any(|x| b[m][x] > 0) {
        return false;
    }
    if rearmost {
        (1..25).all(|x| !can_move_plain(b, m, x, d, o)) && (25 - d + 1..t).all(|x| b[m][x] == 0)
    } else {
        (19..t).all(|x| b[m][x] == 0)
    }
}

fn walk(
    b: &Track,
    m: usize,
    dice: &[usize],
    used: &mut Vec<usize>,
    o: Off,
    out: &mut Vec<(Track, Vec<usize>)>,
) {
    let mut moved = false;
    if let Some((&d, rest)) = dice.split_first() {
        for t in 1..25 {
            if can_move(b, m, t, d, o) {
                moved = true;
                let mut nb = *b;
                nb[m][t] -= 1;
                nb[m][(t + d).min(25)] += 1;
                used.push(d);
                walk(&nb, m, rest, used, o, out);
                used.pop();
            }
        }
    }
    if !moved {
        out.push((*b, used.clone()));
    }
}

fn slow_plays(b: &Track, m: usize, roll: Roll, r: &JulbaharRules) -> BTreeSet<Track> {
    let (a, c) = (roll.0 as usize, roll.1 as usize);
    let orders: Vec<Vec<usize>> = if a == c {
        vec![vec![a; 4]]
    } else {
        vec![vec![a, c], vec![c, a]]
    };
    let mut all = Vec::new();
    for ord in &orders {
        walk(b, m, ord, &mut Vec::new(), off_rules(r), &mut all);
    }
    let most = all.iter().map(|(_, u)| u.len()).max().unwrap_or(0);
    all.retain(|(_, u)| u.len() == most);
    if r.larger_die && a != c && most == 1 && all.iter().any(|(_, u)| u[0] == a) {
        all.retain(|(_, u)| u[0] == a);
    }
    all.into_iter().map(|(t, _)| t).collect()
}

/// Slow perft, two plies, from a position where `m` is to roll and no game can end within two
/// plies: every roll, every resulting board, every reply roll, counting the replies.
fn slow_perft2(b: &Track, m: usize, r: &JulbaharRules) -> u64 {
    let mut n = 0;
    for &r1 in &ROLLS {
        for b1 in slow_plays(b, m, r1, r) {
            for &r2 in &ROLLS {
                n += slow_plays(&b1, 1 - m, r2, r).len() as u64;
            }
        }
    }
    n
}

/// Two fixed mid-game positions from a seeded random match (plies 40 and 60), with early exact
/// bear-offs and blocked landings, and a bear-off race written by hand (where `bear-off` and
/// `larger-die` matter). Each side has at least five checkers on the board, so no game ends
/// within two plies.
const POSITIONS: [&str; 3] = [
    "24:1,18:4,13:2,12:2,11:1,10:1,9:2,off:2/24:3,22:1,18:3,11:2,3:3,2:2,off:1 2 roll 40 0-0 1 2 0-0 40 40 1",
    "13:5,11:3,7:1,3:1,2:1,1:1,off:3/21:2,17:1,16:1,9:1,5:2,4:1,2:5,1:1,off:1 2 roll 60 0-0 1 2 0-0 60 60 1",
    "4:3,3:2,2:2,1:2,off:6/4:2,3:2,2:2,1:3,off:6 1 roll 90 0-0 1 1 0-0 90 90 2",
];

/// Engine perft (2 plies) of `POSITIONS` under `barakat-1974` and under `bear-off=exact`,
/// `larger-die=on`, as first computed by the slow generator (pinned so a change shows).
///
/// The two rule sets give the same counts on these positions (different plays, same numbers);
/// `the_race_position_separates_the_bear_off_rules` shows the positions themselves differ.
const PINNED: [[u64; 3]; 2] = [[262_844, 226_337, 8_096], [262_844, 226_337, 8_096]];

fn rule_sets() -> [JulbaharRules; 2] {
    let mut other = JulbaharRules::default();
    other.set_option("bear-off", "exact").unwrap();
    other.set_option("larger-die", "on").unwrap();
    [JulbaharRules::default(), other]
}

/// The rule sets of the random-position check: the two above, and the bear-off options the
/// perft positions do not separate.
fn random_rule_sets() -> Vec<JulbaharRules> {
    let mut out = rule_sets().to_vec();
    for opts in [
        &["early-bear-off=off"][..],
        &["early-bear-off=off", "bear-off=exact"][..],
        &["bear-off=rearmost"][..],
        &["bear-off=rearmost", "early-bear-off=off", "larger-die=on"][..],
    ] {
        let mut r = JulbaharRules::default();
        for o in opts {
            r.apply_option_text(o).unwrap();
        }
        out.push(r);
    }
    out
}

#[test]
fn perft_two_plies_matches_the_slow_generator() {
    let mut got = [[0u64; 3]; 2];
    for (ri, r) in rule_sets().iter().enumerate() {
        for (pi, text) in POSITIONS.iter().enumerate() {
            let s = Julbahar::from_notation(text, r).unwrap();
            for side in 0..2 {
                assert!(
                    s.board().off(side) <= 10,
                    "a game could end within two plies"
                );
            }
            let m = s.side_to_move().index();
            let slow = slow_perft2(&to_track(s.board().counts()), m, r);
            let fast = perft(&s, 2);
            assert_eq!(fast, slow, "rules {ri} position {pi}");
            got[ri][pi] = fast;
        }
    }
    assert_eq!(got, PINNED);
}

#[test]
fn perft_from_the_opening_throw_matches_the_slow_generator() {
    // The opening chance node: each winner with each throw that can win (every throw but 2-1,
    // the lowest non-double total), then the winner moves the opponent's checkers; then the
    // opponent rolls and plays its own (after-opening=opponent).
    let r = JulbaharRules::default();
    let s = Julbahar::new(&r);
    let b = to_track(s.board().counts());
    let mut slow = 0u64;
    for w in 0..2 {
        for &r1 in ROLLS.iter().filter(|&&x| x != Roll(2, 1)) {
            for b1 in slow_plays(&b, 1 - w, r1, &r) {
                for &r2 in &ROLLS {
                    slow += slow_plays(&b1, 1 - w, r2, &r).len() as u64;
                }
            }
        }
    }
    assert_eq!(perft(&s, 2), slow);
    // One ply by hand: from fifteen on the first point nothing is blocked early, so each of the
    // 14 winning non-doubles gives 2 plays (one checker a+b, or two checkers a and b) and each
    // double 5 (four moves shared as 4, 3+1, 2+2, 2+1+1, 1+1+1+1; 6-6 takes one checker from
    // 1 via 7, 13, 19 exactly off): (14 * 2 + 6 * 5) * 2 winners = 116.
    assert_eq!(perft(&s, 1), 116);
}

/// Plays `matches` uniformly random matches under `r` from `seed`; at every decision calls
/// `visit` with the position, its legal actions and the action chosen, then plays it.
fn random_decisions(
    r: &JulbaharRules,
    seed: u64,
    matches: usize,
    mut visit: impl FnMut(&Julbahar, &[Play], Play),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut acts, mut outs) = (Vec::new(), Vec::new());
    for _ in 0..matches {
        let mut s = Julbahar::new(r);
        loop {
            match s.to_act() {
                ToAct::Terminal(_) => break,
                ToAct::Chance => {
                    s.chance_outcomes(&mut outs);
                    let o = sample_outcome(&outs, &mut rng);
                    s.apply_outcome(o);
                }
                ToAct::Decision(_) => {
                    s.legal_actions(&mut acts);
                    let a = acts[rng.gen_range(0..acts.len())];
                    visit(&s, &acts, a);
                    s.play_unchecked(a);
                }
            }
        }
    }
}

#[test]
fn generated_plays_match_the_slow_generator_on_random_positions() {
    let mut checked = 0;
    for (ri, r) in random_rule_sets().iter().enumerate() {
        random_decisions(r, 21 + ri as u64, 4, |s, acts, _| {
            let roll = match s.phase() {
                Phase::Play(x) | Phase::OpeningPlay(x) => x,
                p => panic!("decision in {p:?}"),
            };
            let side = s.moving_side();
            let fast: BTreeSet<_> = acts
                .iter()
                .map(|&a| {
                    let mut n = s.clone();
                    n.play_unchecked(a);
                    to_track(n.board().counts())
                })
                .collect();
            assert_eq!(fast.len(), acts.len(), "{}", s.notation());
            let slow = slow_plays(&to_track(s.board().counts()), side, roll, r);
            // A play that ends a game resets the board: compare only other plays.
            let ends = acts.len() == 1 && s.board().off(side) + 4 >= 15;
            if !ends && s.board().off(side) < 11 {
                assert_eq!(fast, slow, "{}", s.notation());
                checked += 1;
            }
        });
    }
    assert!(checked > 6000, "{checked}");
}

/// Whether side `m` has a checker that die `d` moves (slow rules).
fn die_moves(b: &Track, m: usize, d: usize, r: &JulbaharRules) -> bool {
    (1..25).any(|t| can_move(b, m, t, d, off_rules(r)))
}

/// The five-point bonus against the slow rules: in random matches under each reading, at every
/// decision after the opening move, whether the opponent's total grows by five is recomputed
/// from the definitions (docs/rules/julbahar.md) with the slow generator. Also checks that the
/// opponent can always move when the player leaves some of its roll unplayed, which makes the
/// test of the opponent in `pass` and `die` always pass.
#[test]
fn the_bonus_matches_its_definition_under_every_reading() {
    let mut bonuses = [0u32; 5];
    for (ri, reading) in [
        Bonus::Pass,
        Bonus::Blocked,
        Bonus::SameRoll,
        Bonus::Die,
        Bonus::Off,
    ]
    .into_iter()
    .enumerate()
    {
        let r = JulbaharRules {
            bonus: reading,
            ..JulbaharRules::default()
        };
        random_decisions(&r, 40 + ri as u64, 6, |s, _, a| {
            let Phase::Play(roll) = s.phase() else {
                return;
            };
            let (me, op) = (s.side_to_move().index(), 1 - s.side_to_move().index());
            let dice = if roll.is_double() { 4 } else { 2 };
            let mut after = s.clone();
            after.play_unchecked(a);
            if after.game_number() != s.game_number() || after.board().off(me) == 15 {
                return;
            }
            let b = to_track(after.board().counts());
            let short = a.moves().len() < dice;
            let opp_any = (1..=6).any(|d| die_moves(&b, op, d, &r));
            let me_any = (1..=6).any(|d| die_moves(&b, me, d, &r));
            let opp_roll = [roll.0, roll.1]
                .iter()
                .any(|&d| die_moves(&b, op, d as usize, &r));
            if short {
                assert!(opp_any, "{}", s.notation());
            }
            let want = match reading {
                Bonus::Pass => a.is_pass() && opp_any,
                Bonus::Blocked => a.is_pass() && !me_any && opp_any,
                Bonus::SameRoll => a.is_pass() && opp_roll,
                Bonus::Die => short && opp_any,
                Bonus::Off => false,
            };
            let gained = after.scores()[op] - s.scores()[op];
            assert_eq!(gained, if want { 5 } else { 0 }, "{}", s.notation());
            bonuses[ri] += u32::from(want);
        });
    }
    // Bonuses under pass, same-roll and die occur in these matches, none under off (a complete
    // block is rare in random play: the hand-derived positions of tests/julbahar.rs show it).
    assert!(
        bonuses[4] == 0 && [0, 2, 3].iter().all(|&i| bonuses[i] > 0),
        "{bonuses:?}"
    );
}

#[test]
fn the_race_position_separates_the_bear_off_rules() {
    // The race position with 6-5 to play, highest checker on tables 4: under bear-off=higher
    // both dice bear off from 4 (4/off 4/off); under exact neither die can be played (pass).
    let [higher, exact] = rule_sets();
    let text = POSITIONS[2].replace(" roll ", " 6-5 ");
    for (r, want) in [(higher, "4/off(2)"), (exact, "pass")] {
        let s = Julbahar::from_notation(&text, &r).unwrap();
        let mut acts = Vec::new();
        s.legal_actions(&mut acts);
        let texts: Vec<String> = acts.iter().map(|&a| s.action_to_string(a)).collect();
        assert_eq!(texts, [want]);
        let slow = slow_plays(&to_track(s.board().counts()), 0, Roll(6, 5), &r);
        assert_eq!(slow.len(), 1);
    }
}
