//! The whole-turn generator against the brute force of [`super::brute`]: the same set of
//! results on random positions and throw chains of up to six throws, and at every decision of
//! random games, under the rule sets of the named variants, under each option changing a turn
//! away from the default, and under a random sample of every option's values together; and
//! every internal path of the generator against the others.

use std::collections::BTreeSet;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::board::{DODO, KITCHEN, OFF};
use super::rules::{
    BangeSquare, BargeseRules, BesideSafe, EntryOnto, Hal, Leftover, MustUse, OuterEnd, Remainder,
};
use super::{brute, movegen, Bargese, BargeseAction};
use crate::game::{Game, Player, ToAct};
use crate::rules::{RuleSet, Values};
use crate::sample_outcome;

/// The rule sets whose turns differ: the default and each option that changes a turn's moves.
fn rule_sets() -> Vec<(&'static str, BargeseRules)> {
    let d = BargeseRules::default();
    vec![
        ("default", d),
        (
            "must-use=free",
            BargeseRules {
                must_use: MustUse::Free,
                ..d
            },
        ),
        (
            "entry-onto=blocked",
            BargeseRules {
                entry_onto: EntryOnto::Blocked,
                ..d
            },
        ),
        (
            "hal=strict",
            BargeseRules {
                hal: Hal::Strict,
                ..d
            },
        ),
        (
            "hal=step",
            BargeseRules {
                hal: Hal::Step,
                ..d
            },
        ),
        (
            "leftover=optional",
            BargeseRules {
                leftover: Leftover::Optional,
                ..d
            },
        ),
        (
            "bange-square=inner hal=step leftover=optional",
            BargeseRules {
                bange_square: BangeSquare::Inner,
                hal: Hal::Step,
                leftover: Leftover::Optional,
                ..d
            },
        ),
        (
            "bange-entry=off",
            BargeseRules {
                bange_entry: false,
                ..d
            },
        ),
        (
            "beside-safe=share outer-end=open",
            BargeseRules {
                beside_safe: BesideSafe::Share,
                outer_end: OuterEnd::Open,
                ..d
            },
        ),
        (
            "entry-onto=blocked must-use=free hal=strict",
            BargeseRules {
                entry_onto: EntryOnto::Blocked,
                must_use: MustUse::Free,
                hal: Hal::Strict,
                ..d
            },
        ),
    ]
}

/// A random position code, biased towards the squares where rules bite (entry, the X squares,
/// the home stretch, off the board).
fn code(rng: &mut ChaCha8Rng) -> u8 {
    match rng.gen_range(0..10) {
        0..=2 => OFF,
        3 => KITCHEN,
        4 => rng.gen_range(70..=DODO),
        5 => [0, 10, 16, 21, 23, 27, 38, 44, 55, 61, 72, 75, 81][rng.gen_range(0..13)],
        _ => rng.gen_range(0..=DODO),
    }
}

fn side(rng: &mut ChaCha8Rng) -> [u8; 4] {
    let mut p = [0u8; 4];
    for x in &mut p {
        *x = code(rng);
    }
    p.sort_unstable();
    p
}

/// A chain of `n` throws: the first `n - 1` drawn from the throws granting another (dust and
/// bange most often), the last from any throw.
fn chain(rng: &mut ChaCha8Rng, n: usize) -> [u16; 7] {
    let mut t = [0u16; 7];
    for _ in 1..n {
        t[[0, 1, 1, 1, 5, 5, 5, 6][rng.gen_range(0..8)]] += 1;
    }
    t[rng.gen_range(0..7)] += 1;
    t
}

/// A random mover, both sides' pieces and a chain of `n` throws.
fn turn(rng: &mut ChaCha8Rng, n: usize) -> (Player, [u8; 4], [u8; 4], [u16; 7]) {
    let me = if rng.gen_bool(0.5) {
        Player::ONE
    } else {
        Player::TWO
    };
    let (mine, theirs) = (side(rng), side(rng));
    (me, mine, theirs, chain(rng, n))
}

/// Every option set to a random one of its values (`p` a random number in its range), `ply-cap`
/// kept.
fn random_rules(rng: &mut ChaCha8Rng) -> (String, BargeseRules) {
    let mut r = BargeseRules::default();
    let mut name = Vec::new();
    for o in BargeseRules::OPTIONS {
        let value = match o.values {
            Values::Words(_) | Values::Switch { .. } => {
                let words = o.values.words();
                words
                    .choose(rng)
                    .expect("an option has values")
                    .word
                    .to_string()
            }
            Values::Text(_) if o.key == "p" => format!("{:.2}", rng.gen_range(0.35..=0.8)),
            Values::Text(_) => continue,
        };
        r.set_option(o.key, &value).expect("a listed value");
        name.push(format!("{}={value}", o.key));
    }
    (name.join(" "), r)
}

/// The rule sets the brute force checks: the named variants, each option changing a turn away
/// from the default (with both readings of `remainder` that order uses), and `samples` random
/// combinations of every option.
fn checked_rules(samples: usize) -> Vec<(String, BargeseRules)> {
    let mut out: Vec<(String, BargeseRules)> = BargeseRules::VARIANTS
        .iter()
        .map(|v| {
            (
                v.name.to_string(),
                BargeseRules::variant(v.name).expect("a variant"),
            )
        })
        .collect();
    out.extend(rule_sets().into_iter().map(|(n, r)| (n.to_string(), r)));
    let d = BargeseRules::default();
    for (n, remainder) in [
        ("remainder=with-hal", Remainder::WithHal),
        ("remainder=other-piece", Remainder::OtherPiece),
    ] {
        out.push((n.to_string(), BargeseRules { remainder, ..d }));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    out.extend((0..samples).map(|_| random_rules(&mut rng)));
    out
}

/// The fast generator's actions (distinct, ascending) are exactly the brute force's results.
fn agree(
    me: Player,
    mine: [u8; 4],
    theirs: [u8; 4],
    throws: &[u16; 7],
    (name, r): (&str, &BargeseRules),
    out: &mut Vec<BargeseAction>,
) {
    movegen::generate(me, mine, theirs, throws, r, out);
    assert!(out.windows(2).all(|w| w[0] < w[1]), "ascending, distinct");
    let fast: BTreeSet<([u8; 4], u8)> = out.iter().map(|a| (a.pieces, a.hammered)).collect();
    let slow = brute::turn(me, mine, theirs, throws, r);
    assert_eq!(
        fast, slow,
        "{name}: {me:?} mine {mine:?} theirs {theirs:?} throws {throws:?}"
    );
}

#[test]
fn same_results_as_the_brute_force_on_random_positions_and_chains() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut out = Vec::new();
    let mut big = 0;
    for (name, r) in checked_rules(48) {
        // Chains of one to six throws, the longer ones less often.
        for case in 0..20 {
            let n = [1, 2, 3, 4, 5, 2, 3, 4, 5, 6][case % 10];
            let (me, mine, theirs, throws) = turn(&mut rng, n);
            agree(me, mine, theirs, &throws, (&name, &r), &mut out);
            if out.len() > 100 {
                big += 1;
            }
        }
    }
    assert!(big > 30, "only {big} turns with over 100 results");
}

#[test]
fn same_results_as_the_brute_force_in_random_games() {
    let mut out = Vec::new();
    let mut outcomes = Vec::new();
    let mut multi = 0;
    for (name, r) in checked_rules(48) {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let mut checked = 0;
        for _ in 0..2 {
            let mut s = Bargese::new(&r);
            loop {
                match s.to_act() {
                    ToAct::Terminal(_) => break,
                    ToAct::Chance => {
                        s.chance_outcomes(&mut outcomes);
                        let o = sample_outcome(&outcomes, &mut rng);
                        s.apply_outcome(o);
                    }
                    ToAct::Decision(me) => {
                        let (mine, theirs) = (s.pieces(me), s.pieces(me.opponent()));
                        let throws = s.throws();
                        let n: u16 = throws.iter().sum();
                        if n <= 6 && checked < 100 {
                            agree(me, mine, theirs, &throws, (&name, &r), &mut out);
                            checked += 1;
                            multi += usize::from(n > 1);
                        }
                        s.legal_actions(&mut out);
                        s.play_unchecked(out[rng.gen_range(0..out.len())]);
                    }
                }
            }
        }
    }
    assert!(multi > 700, "only {multi} multi-throw turns");
}

/// Every join of [`movegen`] (direct, lattice, general) and both ways of finding a piece's states
/// (the throws' pattern, the search) give the same actions, in the same order, on random
/// positions and chains of 1 to 8 throws, long ones with several dusts and banges included.
#[test]
fn every_join_gives_the_same_actions() {
    use movegen::Join;
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut out: [Vec<BargeseAction>; 4] = Default::default();
    let mut big = 0;
    for (name, r) in rule_sets() {
        for case in 0..200 {
            let n = 1 + case % 8;
            let (me, mine, theirs, throws) = turn(&mut rng, n);
            let hows = [Join::General, Join::Lattice, Join::Fastest, Join::Direct];
            for (o, how) in out.iter_mut().zip(hows) {
                // The direct join of every combination is slow on long chains.
                if how != Join::Direct || n <= 5 {
                    movegen::generate_by(me, mine, theirs, &throws, &r, o, how);
                }
            }
            let ctx = format!("{name}: {me:?} mine {mine:?} theirs {theirs:?} throws {throws:?}");
            assert_eq!(out[0], out[1], "lattice, {ctx}");
            assert_eq!(out[0], out[2], "fastest, {ctx}");
            if n <= 5 {
                assert_eq!(out[0], out[3], "direct, {ctx}");
            }
            if out[0].len() > 1000 {
                big += 1;
            }
        }
    }
    assert!(big > 10, "only {big} turns with over 1,000 actions");
}

/// The use-by-use search of [`super::ordered`] under `remainder=any-order` gives the same
/// actions as the per-piece generator: it is the search the other `remainder` readings use.
#[test]
fn the_use_by_use_search_agrees() {
    use movegen::Join;
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut multi = 0;
    for (name, r) in rule_sets() {
        for case in 0..120 {
            let n = 1 + case % 4;
            let (me, mine, theirs, throws) = turn(&mut rng, n);
            movegen::generate_by(me, mine, theirs, &throws, &r, &mut a, Join::Fastest);
            movegen::generate_by(me, mine, theirs, &throws, &r, &mut b, Join::Ordered);
            assert_eq!(
                a, b,
                "{name}: {me:?} mine {mine:?} theirs {theirs:?} throws {throws:?}"
            );
            if n > 1 && a.len() > 1 {
                multi += 1;
            }
        }
    }
    assert!(multi > 300, "only {multi} multi-throw turns with a choice");
}
