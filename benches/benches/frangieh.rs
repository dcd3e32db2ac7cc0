//! Random Frangieh games under `modern` through the public `Game` API: uniform over the
//! distinct legal plays, dice drawn from the listed chance distribution with a seeded ChaCha8
//! stream (separate from the choice stream), one thread.
//!
//! The bench asserts its own answer first: the total plies of the first 100 seeded games.

// criterion_group! defines an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use cowrie_engine::{sample_outcome, Frangieh, FrangiehRules, Game, RuleSet, ToAct};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Total plies of games 0..100 with `play_game(i)`; changes only with a functional change.
const PLIES_OF_FIRST_100: u64 = 10_272;

/// Plays game `index` to the end; returns its plies.
fn play_game(
    rules: &FrangiehRules,
    index: u64,
    buf: &mut Vec<cowrie_engine::FrangiehAction>,
    outs: &mut Vec<(cowrie_engine::FrangiehOutcome, f64)>,
) -> u64 {
    let mut dice = ChaCha8Rng::seed_from_u64(2 * index);
    let mut choice = ChaCha8Rng::seed_from_u64(2 * index + 1);
    let mut s = Frangieh::new(rules);
    loop {
        match s.to_act() {
            ToAct::Chance => {
                s.chance_outcomes(outs);
                let o = sample_outcome(outs, &mut dice);
                s.apply_outcome(o);
            }
            ToAct::Decision(_) => {
                s.legal_actions(buf);
                let a = buf[choice.gen_range(0..buf.len())];
                s.play_unchecked(a);
            }
            ToAct::Terminal(_) => return u64::from(s.plies()),
        }
    }
}

fn bench(c: &mut Criterion) {
    let rules = FrangiehRules::variant("modern").expect("a named variant");
    let (mut buf, mut outs) = (Vec::new(), Vec::new());
    let total: u64 = (0..100)
        .map(|i| play_game(&rules, i, &mut buf, &mut outs))
        .sum();
    assert_eq!(total, PLIES_OF_FIRST_100, "seeded outcome changed");
    let mut g = c.benchmark_group("frangieh");
    g.throughput(Throughput::Elements(100));
    let mut next = 0u64;
    g.bench_function("random_modern_games_x100", |b| {
        b.iter(|| {
            let mut plies = 0;
            for _ in 0..100 {
                plies += play_game(&rules, next, &mut buf, &mut outs);
                next += 1;
            }
            black_box(plies)
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
