//! The whole-play generator against a deliberately simple one written here from the rules
//! (every order of every die, every checker, no pruning, positions compared at the end), under
//! all four combinations of `larger-die` and `bear-off` (the fast generator), and under
//! `hit-in-passing=off`, `must-use=each`, `bear-off=rearmost` and the `ludii` variant (the
//! plain enumeration), on positions from random play. This is the independent check for the
//! options GNU Backgammon does not play.

use std::collections::BTreeSet;

use cowrie_engine::games::frangieh::{MustUse, Phase};
use cowrie_engine::games::tables::{BearOff, Board, Roll};
use cowrie_engine::{sample_outcome, Frangieh, FrangiehRules, Game, RuleSet, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Mover's and opponent's counts, each in its own numbering (0 off, 25 bar).
type Pos = ([u8; 26], [u8; 26]);

/// The rules the slow generator reads, written out for it.
#[derive(Clone, Copy)]
struct Slow {
    larger: bool,
    /// `None`: exact only; `Some(false)`: a higher die from the highest point; `Some(true)`:
    /// a higher die from the rearmost checker below it, when the die has no other use.
    higher: Option<bool>,
    /// A lone opposing checker is hit where a checker lands, or only where one ends the play.
    in_passing: bool,
    /// Every maximal sequence of single-die moves, or only those using the most dice.
    each: bool,
}

/// One die's move along the track (or the bar entry, or an exact bear-off) from `from`, if
/// legal: the position after it.
fn plain_step(p: &Pos, from: usize, d: usize, r: Slow) -> Option<Pos> {
    let (mut me, mut op) = *p;
    if me[from] == 0 || (me[25] > 0 && from != 25) {
        return None;
    }
    let to = from as i32 - d as i32;
    if to >= 1 {
        let to = to as usize;
        let q = 25 - to; // the opponent's number for the mover's point `to`
        if op[q] >= 2 {
            return None;
        }
        me[from] -= 1;
        if op[q] == 1 && r.in_passing {
            op[q] = 0;
            op[25] += 1;
        }
        me[to] += 1;
        return Some((me, op));
    }
    if to < 0 || me[7..26].iter().any(|&c| c > 0) {
        return None;
    }
    me[from] -= 1;
    me[0] += 1;
    Some((me, op))
}

/// One die's move from `from`, if legal, a higher die's bear-off included.
fn step(p: &Pos, from: usize, d: usize, r: Slow) -> Option<Pos> {
    if let Some(n) = plain_step(p, from, d, r) {
        return Some(n);
    }
    let (mut me, op) = *p;
    let rearmost = r.higher?;
    if me[from] == 0 || from >= d || me[7..26].iter().any(|&c| c > 0) {
        return None;
    }
    let ok = if rearmost {
        // No other use of the die, and no checker between `from` and the die's point.
        (1..26).all(|f| plain_step(p, f, d, r).is_none()) && me[from + 1..d].iter().all(|&c| c == 0)
    } else {
        me[from + 1..7].iter().all(|&c| c == 0)
    };
    if !ok {
        return None;
    }
    me[from] -= 1;
    me[0] += 1;
    Some((me, op))
}

/// Without hits in passing, the lone opposing checkers on points where the mover stands at the
/// end go to the bar.
fn finish(p: &Pos, r: Slow) -> Pos {
    let (me, mut op) = *p;
    if !r.in_passing {
        for to in 1..25 {
            if me[to] > 0 && op[25 - to] == 1 {
                op[25 - to] = 0;
                op[25] += 1;
            }
        }
    }
    (me, op)
}

/// Every maximal sequence as (dice used, first die used, position after it).
fn all_plays(
    p: &Pos,
    dice: &[usize],
    r: Slow,
    first: usize,
    out: &mut Vec<(usize, usize, Pos)>,
    used: usize,
) {
    let mut moved = false;
    for i in 0..dice.len() {
        let mut rest = dice.to_vec();
        let d = rest.remove(i);
        for from in 1..26 {
            if let Some(n) = step(p, from, d, r) {
                moved = true;
                let f = if used == 0 { d } else { first };
                all_plays(&n, &rest, r, f, out, used + 1);
            }
        }
    }
    if !moved {
        out.push((used, first, finish(p, r)));
    }
}

fn slow_results(p: &Pos, roll: Roll, r: Slow) -> BTreeSet<Pos> {
    let (a, b) = (roll.0 as usize, roll.1 as usize);
    let dice = if a == b { vec![a; 4] } else { vec![a, b] };
    let mut plays = Vec::new();
    all_plays(p, &dice, r, 0, &mut plays, 0);
    let max = plays.iter().map(|x| x.0).max().unwrap();
    let mut keep: Vec<&(usize, usize, Pos)> =
        plays.iter().filter(|x| r.each || x.0 == max).collect();
    if r.larger && max == 1 && a != b && keep.iter().any(|x| x.1 == a) {
        keep.retain(|x| x.1 == a);
    }
    keep.iter().map(|x| x.2).collect()
}

fn pos_of(board: &Board, side: usize) -> Pos {
    (board.counts()[side], board.counts()[1 - side])
}

/// Random games under `rules`, checking the generator against the slow one at every decision
/// (with the roll rolled and with another random roll); returns the number of checks.
fn check_against_slow(rules: FrangiehRules, r: Slow, checks: u64, seed: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut buf, mut outs) = (Vec::new(), Vec::new());
    let mut n = 0;
    while n < checks {
        let mut s = Frangieh::new(&rules);
        while s.end_reason().is_none() {
            match s.to_act() {
                ToAct::Chance => {
                    s.chance_outcomes(&mut outs);
                    let o = sample_outcome(&outs, &mut rng);
                    s.apply_outcome(o);
                }
                ToAct::Decision(p) => {
                    // Check this position with a random roll too, not only the one rolled.
                    let other = Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6));
                    let Phase::Play(rolled) = s.phase() else {
                        unreachable!()
                    };
                    for roll in [rolled, other] {
                        let t = Frangieh::from_parts(rules, *s.board(), p, Phase::Play(roll), 0)
                            .unwrap();
                        t.legal_actions(&mut buf);
                        let fast: BTreeSet<Pos> = buf
                            .iter()
                            .map(|&a| {
                                let mut u = t;
                                u.play_unchecked(a);
                                pos_of(u.board(), p.index())
                            })
                            .collect();
                        assert_eq!(fast.len(), buf.len(), "duplicate results");
                        let slow = slow_results(&pos_of(s.board(), p.index()), roll, r);
                        assert!(
                            fast == slow,
                            "{} with {roll:?}: only fast {:?}, only slow {:?}",
                            t.notation(),
                            fast.difference(&slow).collect::<Vec<_>>(),
                            slow.difference(&fast).collect::<Vec<_>>()
                        );
                        // Each play written and read back is the same play.
                        for &a in &buf {
                            let text = t.action_to_string(a);
                            assert_eq!(t.parse_action(&text).unwrap(), a, "{text}");
                        }
                        n += 1;
                    }
                    s.legal_actions(&mut buf);
                    let a = buf[rng.gen_range(0..buf.len())];
                    s.play_unchecked(a);
                }
                ToAct::Terminal(_) => {}
            }
        }
    }
    n
}

#[test]
fn fast_generator_equals_the_slow_one_under_every_option() {
    let mut checked = 0u64;
    for (larger, bear_off) in [
        (false, BearOff::Exact),
        (true, BearOff::Exact),
        (false, BearOff::Higher),
        (true, BearOff::Higher),
    ] {
        let rules = FrangiehRules {
            larger_die: larger,
            bear_off,
            ..FrangiehRules::variant("modern").unwrap()
        };
        let higher = (bear_off == BearOff::Higher).then_some(false);
        let r = Slow {
            larger,
            higher,
            in_passing: true,
            each: false,
        };
        checked += check_against_slow(rules, r, 2500, 99);
    }
    assert!(checked >= 10_000);
}

/// The options generated by plain enumeration: hits only where a checker ends the play, each
/// die a separate move, the rearmost bear-off, alone and together (the `ludii` variant), with
/// the larger-die rule on and off.
#[test]
fn enumerated_plays_equal_the_slow_ones_under_every_option() {
    let mut checked = 0u64;
    for (i, settings) in [
        &["hit-in-passing=off"][..],
        &["hit-in-passing=off", "larger-die=on", "bear-off=higher"][..],
        &["must-use=each"][..],
        &["must-use=each", "larger-die=on", "bear-off=exact"][..],
        &["bear-off=rearmost"][..],
        &["bear-off=rearmost", "larger-die=on", "hit-in-passing=off"][..],
    ]
    .into_iter()
    .enumerate()
    {
        let mut rules = FrangiehRules::default();
        for o in settings {
            rules.apply_option_text(o).unwrap();
        }
        let r = Slow {
            larger: rules.larger_die,
            higher: match rules.bear_off {
                BearOff::Exact => None,
                BearOff::Higher => Some(false),
                BearOff::Rearmost => Some(true),
            },
            in_passing: rules.hit_in_passing,
            each: rules.must_use == MustUse::Each,
        };
        checked += check_against_slow(rules, r, 800, 7 + i as u64);
    }
    let ludii = FrangiehRules::variant("ludii").unwrap();
    let r = Slow {
        larger: false,
        higher: Some(true),
        in_passing: true,
        each: true,
    };
    checked += check_against_slow(ludii, r, 1500, 5);
    assert!(checked >= 6_000);
}
