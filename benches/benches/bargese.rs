//! Random Bargese games through the public `Game` API: uniform over legal actions, chance drawn
//! with `sample_outcome` from a seeded ChaCha8 stream, one thread.
//!
//! Before timing, the bench plays the first 100 seeded games of each variant and asserts their
//! total plies (a bench signature: it changes only with a functional change), and prints mean
//! plies, turns (a turn = one player's consecutive stretch of decisions) and branching.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::hint::black_box;

use cowrie_engine::games::bargese::{Bargese, BargeseAction, BargeseOutcome, BargeseRules};
use cowrie_engine::{sample_outcome, Game, RuleSet, ToAct};
use criterion::{criterion_group, criterion_main, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What one game saw.
#[derive(Default)]
struct Tally {
    plies: u64,
    turns: u64,
    branching_sum: u64,
    branching_max: u64,
}

/// Plays one random game seeded by `seed`; returns its plies and adds to `tally`.
fn play(
    rules: &BargeseRules,
    seed: u64,
    actions: &mut Vec<BargeseAction>,
    outcomes: &mut Vec<(BargeseOutcome, f64)>,
    tally: &mut Tally,
) -> u32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = Bargese::new(rules);
    let mut last = None;
    loop {
        match s.to_act() {
            ToAct::Terminal(_) => return s.plies(),
            ToAct::Chance => {
                s.chance_outcomes(outcomes);
                let o = sample_outcome(outcomes, &mut rng);
                s.apply_outcome(o);
            }
            ToAct::Decision(p) => {
                s.legal_actions(actions);
                let n = actions.len() as u64;
                tally.plies += 1;
                tally.branching_sum += n;
                tally.branching_max = tally.branching_max.max(n);
                if last != Some(p) {
                    tally.turns += 1;
                    last = Some(p);
                }
                let a = actions[rng.gen_range(0..actions.len())];
                s.play_unchecked(a);
            }
        }
    }
}

/// The pinned total plies of seeds 0..100 per variant.
const SIGNATURES: [(&str, u64); 4] = [
    ("finkel-2002", 11_332),
    ("dlp-1604", 11_427),
    ("summary", 11_705),
    ("ludii", 15_223),
];

fn bench(c: &mut Criterion) {
    let mut actions = Vec::new();
    let mut outcomes = Vec::new();
    let mut changed = Vec::new();
    for (variant, want) in SIGNATURES {
        let rules = BargeseRules::variant(variant).unwrap();
        let mut tally = Tally::default();
        let total: u64 = (0..100)
            .map(|seed| u64::from(play(&rules, seed, &mut actions, &mut outcomes, &mut tally)))
            .sum();
        eprintln!(
            "bargese {variant}: 100 games, {total} plies; per game {:.1} plies, {:.1} turns; \
             branching mean {:.2}, max {}",
            total as f64 / 100.0,
            tally.turns as f64 / 100.0,
            tally.branching_sum as f64 / tally.plies as f64,
            tally.branching_max
        );
        if total != want {
            changed.push(format!("{variant}: {total} plies, pinned {want}"));
        }
    }
    assert!(changed.is_empty(), "bench signature changed: {changed:?}");
    for variant in ["finkel-2002", "ludii"] {
        let rules = BargeseRules::variant(variant).unwrap();
        let mut seed = 1_000_000u64;
        let mut tally = Tally::default();
        c.bench_function(&format!("bargese/random-game/{variant}"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(play(&rules, seed, &mut actions, &mut outcomes, &mut tally))
            });
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
