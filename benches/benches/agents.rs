//! The agents, one thread.
//!
//! - `<game>_agents`: on each game's first decision node (the start position, after the opening
//!   throw drawn from a seeded stream where the game opens with one), MCTS iterations/s and
//!   expectimax nodes/s (criterion's elements/s).
//! - `frangieh_bars`: the speed targets on Frangieh (`barakat-1974`, the default), with
//!   the engine's own random-game rate measured in the same run for comparison: MCTS with random
//!   rollouts played to the end from the start (elements/s = simulations/s; target 5,000/s), and
//!   expectimax at depth 2 — the player's play, every roll of the opponent and its reply, then
//!   the evaluation — one move at each of 100 positions from seeded random play (elements/s =
//!   moves/s; the target is under 10 ms a move, i.e. over 100 moves/s).
//!
//! Each bench first asserts a seeded outcome — the move chosen with agent stream seed 1, and for
//! expectimax the node count (a checksum of the moves over a sample), a signature that changes
//! only with a functional change — so a fast but wrong search cannot pass. A new game is one
//! line in `bench`.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use std::hint::black_box;

use cowrie_agents::Evaluate;
use cowrie_benches::{
    expectimax_move, expectimax_moves, first_decision, mcts_move, mcts_move_from, playout_games,
    random_positions,
};
use cowrie_engine::{
    Baghchal, BaghchalRules, Bargese, BargeseRules, Frangieh, FrangiehRules, Julbahar,
    JulbaharRules,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const SEED: u64 = 1;

/// What a game's agent benches run, and the seeded outcome they must reproduce.
struct Workload {
    /// An `mcts:iterations=N` spec.
    mcts: &'static str,
    /// MCTS's seeded move.
    mcts_move: &'static str,
    /// Expectimax's depth.
    depth: u32,
    /// Expectimax's seeded move and node count.
    expectimax: (&'static str, u64),
}

/// Benches MCTS and expectimax on `G`'s first decision node under `rules`, after checking the
/// seeded signature.
fn bench_game<G: Evaluate>(c: &mut Criterion, rules: &G::Rules, w: &Workload) {
    let (mv, iterations) = mcts_move::<G>(rules, w.mcts, SEED);
    assert_eq!(mv, w.mcts_move, "{}: MCTS's seeded move", G::NAME);
    let (mv, nodes) = expectimax_move::<G>(rules, w.depth, SEED);
    assert_eq!(
        (mv.as_str(), nodes),
        w.expectimax,
        "{}: expectimax's seeded move and nodes",
        G::NAME
    );
    let mut group = c.benchmark_group(format!("{}_agents", G::NAME));
    group.sample_size(10);
    group.throughput(Throughput::Elements(iterations));
    group.bench_function(format!("mcts/{}", w.mcts), |b| {
        b.iter(|| mcts_move::<G>(rules, w.mcts, SEED));
    });
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("expectimax/depth={}", w.depth), |b| {
        b.iter(|| expectimax_move::<G>(rules, w.depth, SEED));
    });
    group.finish();
}

/// MCTS simulations per Frangieh bar: random rollouts to the end.
const BAR_MCTS: &str = "mcts:iterations=5000,rollout=random,cutoff=none";
/// Positions in the expectimax bar's sample.
const BAR_POSITIONS: usize = 100;
/// Random games per iteration of the engine's reference rate.
const BAR_GAMES: u64 = 100;

fn frangieh_bars(c: &mut Criterion) {
    let rules = FrangiehRules::default();
    let start = first_decision::<Frangieh>(&rules, SEED);
    assert_eq!(
        mcts_move_from(&start, BAR_MCTS, SEED),
        (FRANGIEH_BAR_MCTS_MOVE.to_string(), 5000),
        "the MCTS bar's seeded move"
    );
    let positions = random_positions::<Frangieh>(&rules, BAR_POSITIONS, 80, 7);
    assert_eq!(
        expectimax_moves(&positions, 2, SEED),
        FRANGIEH_BAR_EXPECTIMAX,
        "the expectimax bar's seeded moves and nodes"
    );
    let mut g = c.benchmark_group("frangieh_bars");
    g.sample_size(10);
    g.throughput(Throughput::Elements(BAR_GAMES));
    let mut next = 0u64;
    g.bench_function("engine/random_games_x100", |b| {
        b.iter(|| {
            next += 1;
            black_box(playout_games::<Frangieh>(&rules, BAR_GAMES, next))
        });
    });
    g.throughput(Throughput::Elements(5000));
    g.bench_function("mcts/simulations=5000", |b| {
        b.iter(|| mcts_move_from(&start, BAR_MCTS, SEED));
    });
    g.throughput(Throughput::Elements(BAR_POSITIONS as u64));
    g.bench_function("expectimax/depth=2/moves=100", |b| {
        b.iter(|| expectimax_moves(&positions, 2, SEED));
    });
    g.finish();
}

/// The MCTS bar's seeded move.
const FRANGIEH_BAR_MCTS_MOVE: &str = "24/22 13/8";
/// The expectimax bar's seeded moves checksum and nodes.
const FRANGIEH_BAR_EXPECTIMAX: (u64, u64) = (12_433_856_339_413_907_276, 180_066);

fn bench(c: &mut Criterion) {
    frangieh_bars(c);
    bench_game::<Baghchal>(
        c,
        &BaghchalRules::default(),
        &Workload {
            mcts: "mcts:iterations=1000",
            mcts_move: "c5",
            depth: 5,
            expectimax: ("c5", 13_381),
        },
    );
    bench_game::<Frangieh>(
        c,
        &FrangiehRules::default(),
        &Workload {
            mcts: "mcts:iterations=1000",
            mcts_move: "13/11 8/3",
            depth: 2,
            expectimax: ("13/6", 1010),
        },
    );
    bench_game::<Julbahar>(
        c,
        &JulbaharRules::default(),
        &Workload {
            mcts: "mcts:iterations=100",
            mcts_move: "24/13",
            depth: 2,
            expectimax: ("24/19 24/18", 444),
        },
    );
    bench_game::<Bargese>(
        c,
        &BargeseRules::default(),
        &Workload {
            mcts: "mcts:iterations=100",
            mcts_move: "12,47,o,o",
            depth: 2,
            expectimax: ("24,35,o,o", 3191),
        },
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
