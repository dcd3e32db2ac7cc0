//! The agents on each game's start position, one thread: MCTS iterations/s and expectimax
//! nodes/s (criterion's elements/s). Each bench first asserts a seeded outcome — the move chosen
//! with agent stream seed 1, and for expectimax the node count, a bench signature that changes
//! only with a functional change — so a fast but wrong search cannot pass. A new game is one
//! line in `bench`.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use cowrie_agents::Evaluate;
use cowrie_benches::{expectimax_move, mcts_move};
use cowrie_engine::{Baghchal, BaghchalRules};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const MCTS_SPEC: &str = "mcts:iterations=1000";
const EXPECTIMAX_DEPTH: u32 = 5;
const SEED: u64 = 1;

/// Benches MCTS and expectimax on `G`'s start position under `rules`, after checking the
/// seeded signature: MCTS's move, expectimax's move and node count.
fn bench_game<G: Evaluate>(
    c: &mut Criterion,
    rules: &G::Rules,
    mcts_signature: &str,
    expectimax_signature: (&str, u64),
) {
    let (mv, iterations) = mcts_move::<G>(rules, MCTS_SPEC, SEED);
    assert_eq!(mv, mcts_signature, "{}: MCTS's seeded move", G::NAME);
    let (mv, nodes) = expectimax_move::<G>(rules, EXPECTIMAX_DEPTH, SEED);
    assert_eq!(
        (mv.as_str(), nodes),
        expectimax_signature,
        "{}: expectimax's seeded move and nodes",
        G::NAME
    );
    let mut group = c.benchmark_group(format!("{}_agents", G::NAME));
    group.throughput(Throughput::Elements(iterations));
    group.bench_function(format!("mcts/{MCTS_SPEC}"), |b| {
        b.iter(|| mcts_move::<G>(rules, MCTS_SPEC, SEED));
    });
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("expectimax/depth={EXPECTIMAX_DEPTH}"), |b| {
        b.iter(|| expectimax_move::<G>(rules, EXPECTIMAX_DEPTH, SEED));
    });
    group.finish();
}

fn bench(c: &mut Criterion) {
    bench_game::<Baghchal>(c, &BaghchalRules::default(), "c5", ("c5", 13_381));
}

criterion_group!(benches, bench);
criterion_main!(benches);
