//! Random Baghchal games, one thread: games/s (criterion's elements/s) per win rule, through
//! the public game API (`api`: legal actions into a buffer, a random agent picks one) and
//! through the fast playout (`playout`: `Game::random_playout`, which makes the same draws and
//! plays the same games). Each bench first asserts a perft count and a seeded outcome, so a fast
//! but wrong engine cannot pass.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use cowrie_benches::{playout_games, random_games};
use cowrie_engine::{perft, Baghchal, BaghchalRules, Game, RuleSet};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const GAMES: u64 = 1000;

fn bench(c: &mut Criterion) {
    let start = Baghchal::new(&BaghchalRules::default());
    // perft(4) as counted outside cowrie (engine/tests/data/baghchal.perft).
    assert_eq!(perft(&start, 4), 68_204);
    let mut group = c.benchmark_group("baghchal_random_games");
    group.throughput(Throughput::Elements(GAMES));
    // Seeded outcomes of 1000 games, seed 1 (total plies, goat wins): a regression signature.
    for (variant, plies, goat_wins) in
        [("five-captures", 50_810, 14), ("parlett-1976", 317_405, 19)]
    {
        let rules = BaghchalRules::variant(variant).expect("known variant");
        let api = random_games::<Baghchal>(&rules, GAMES, 1);
        let fast = playout_games::<Baghchal>(&rules, GAMES, 1);
        eprintln!(
            "{variant}: {} games, {} plies ({:.1} a game), {} goat wins",
            api.games,
            api.plies,
            api.plies as f64 / api.games as f64,
            api.p1_wins
        );
        assert_eq!(
            (api.plies, api.p1_wins),
            (plies, goat_wins),
            "{variant} seeded outcome"
        );
        assert_eq!(
            api, fast,
            "{variant}: the fast playout plays the same games"
        );
        group.bench_function(format!("{variant}/api"), |bench| {
            bench.iter(|| random_games::<Baghchal>(&rules, GAMES, 1));
        });
        group.bench_function(format!("{variant}/playout"), |bench| {
            bench.iter(|| playout_games::<Baghchal>(&rules, GAMES, 1));
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
