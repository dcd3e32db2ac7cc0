//! The fast whole-play generator against a deliberately simple one written here from the rules
//! (every order of every die, every checker, no pruning, positions compared at the end), under
//! all four combinations of `larger-die` and `bear-off`, on positions from random play. This is
//! the independent check for the source's options, which GNU Backgammon does not play.

use std::collections::BTreeSet;

use cowrie_engine::games::frangieh::Phase;
use cowrie_engine::games::tables::{BearOff, Board, Roll};
use cowrie_engine::{sample_outcome, Frangieh, FrangiehRules, Game, RuleSet, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Mover's and opponent's counts, each in its own numbering (0 off, 25 bar).
type Pos = ([u8; 26], [u8; 26]);

/// One die's move from `from`, if legal: the position after it.
fn step(p: &Pos, from: usize, d: usize, higher: bool) -> Option<Pos> {
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
        if op[q] == 1 {
            op[q] = 0;
            op[25] += 1;
        }
        me[to] += 1;
    } else {
        if me[7..26].iter().any(|&c| c > 0) {
            return None;
        }
        if to < 0 && !(higher && me[from + 1..7].iter().all(|&c| c == 0)) {
            return None;
        }
        me[from] -= 1;
        me[0] += 1;
    }
    Some((me, op))
}

/// Every play as (dice used, first die used, position), partial plays included.
fn all_plays(
    p: &Pos,
    dice: &[usize],
    higher: bool,
    first: usize,
    out: &mut Vec<(usize, usize, Pos)>,
    used: usize,
) {
    out.push((used, first, *p));
    for i in 0..dice.len() {
        let mut rest = dice.to_vec();
        let d = rest.remove(i);
        for from in 1..26 {
            if let Some(n) = step(p, from, d, higher) {
                let f = if used == 0 { d } else { first };
                all_plays(&n, &rest, higher, f, out, used + 1);
            }
        }
    }
}

fn slow_results(p: &Pos, roll: Roll, larger: bool, higher: bool) -> BTreeSet<Pos> {
    let (a, b) = (roll.0 as usize, roll.1 as usize);
    let dice = if a == b { vec![a; 4] } else { vec![a, b] };
    let mut plays = Vec::new();
    all_plays(p, &dice, higher, 0, &mut plays, 0);
    let max = plays.iter().map(|x| x.0).max().unwrap();
    let mut keep: Vec<&(usize, usize, Pos)> = plays.iter().filter(|x| x.0 == max).collect();
    if larger && max == 1 && a != b && keep.iter().any(|x| x.1 == a) {
        keep.retain(|x| x.1 == a);
    }
    keep.iter().map(|x| x.2).collect()
}

fn pos_of(board: &Board, side: usize) -> Pos {
    (board.counts()[side], board.counts()[1 - side])
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
        let higher = bear_off == BearOff::Higher;
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        let (mut buf, mut outs) = (Vec::new(), Vec::new());
        let mut n = 0;
        while n < 2500 {
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
                            let t =
                                Frangieh::from_parts(rules, *s.board(), p, Phase::Play(roll), 0)
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
                            let slow =
                                slow_results(&pos_of(s.board(), p.index()), roll, larger, higher);
                            assert_eq!(fast, slow, "{} with {roll:?}", t.notation());
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
        checked += n;
    }
    assert!(checked >= 10_000);
}
