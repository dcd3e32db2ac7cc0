// criterion macros generate undocumented items
#![allow(missing_docs)]
//! Random Julbahar matches to 31 under `barakat-1974`: uniform over the distinct legal plays,
//! dice from the listed chance distribution, one thread. Two workloads: through the public API
//! with separate agent and chance streams (`random_games`), and `Game::random_playout`
//! (`playout_games`, the trait's default path for Julbahar).
//!
//! Under `barakat-1974` every turn is one decision (the opening winner's move of the opponent's
//! checkers is its turn; the opponent then plays), so turns = plies; the bench checks this on
//! the seeded matches through the per-game log.
//!
//! The bench asserts its own answer first: the plies and player-one wins of the first 100
//! seeded matches of each workload.

use std::hint::black_box;

use cowrie_benches::{playout_games, random_games};
use cowrie_engine::{Game, Julbahar, JulbaharRules};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// (matches, plies, player-one wins) of `random_games(rules, 100, 1)`.
const RANDOM_100: (u64, u64, u64) = (100, 64_456, 35);
/// The same for `playout_games(rules, 100, 1)`.
const PLAYOUT_100: (u64, u64, u64) = (100, 63_082, 51);

fn check_turns(rules: &JulbaharRules) -> (u64, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let (mut games, mut plies) = (0u64, 0u64);
    for _ in 0..100 {
        let mut s = Julbahar::new(rules);
        s.random_playout(&mut rng);
        let turns: u32 = s.game_log().iter().map(|g| g.turns).sum();
        assert_eq!(turns, s.plies(), "turns = plies under barakat-1974");
        games += s.game_log().len() as u64;
        plies += u64::from(s.plies());
    }
    (games, plies)
}

fn bench(c: &mut Criterion) {
    let rules = JulbaharRules::default();
    let r = random_games::<Julbahar>(&rules, 100, 1);
    let p = playout_games::<Julbahar>(&rules, 100, 1);
    let (games, plies) = check_turns(&rules);
    eprintln!(
        "julbahar: random_games {r:?}; playout_games {p:?}; {:.2} games and {:.1} plies per match",
        games as f64 / 100.0,
        plies as f64 / 100.0
    );
    assert_eq!(
        (r.games, r.plies, r.p1_wins),
        RANDOM_100,
        "seeded outcome changed"
    );
    assert_eq!(
        (p.games, p.plies, p.p1_wins),
        PLAYOUT_100,
        "seeded outcome changed"
    );

    let mut g = c.benchmark_group("julbahar");
    g.sample_size(10);
    g.throughput(Throughput::Elements(10));
    let mut seed = 100u64;
    g.bench_function("random_matches_x10", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_games::<Julbahar>(&rules, 10, seed))
        });
    });
    g.bench_function("playout_matches_x10", |b| {
        b.iter(|| {
            seed += 1;
            black_box(playout_games::<Julbahar>(&rules, 10, seed))
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
