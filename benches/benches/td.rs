//! The learned evaluation's speed: the shipped Frangieh `modern` network (encoding and forward
//! pass) over 1,000 positions met in seeded random play, one thread.
//!
//! The bench asserts its own answer first: the network's mean win probability over the
//! positions is a valid probability, and the positions are the seeded ones (their count).

// criterion_group! defines an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use cowrie_agents::td::{self, Inputs, Net};
use cowrie_agents::Evaluate;
use cowrie_benches::frangieh_positions;
use cowrie_engine::Frangieh;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const POSITIONS: usize = 1_000;

fn evaluate_all(net: &Net, ps: &[Frangieh], x: &mut Inputs) -> f64 {
    let mut sum = 0.0;
    for p in ps {
        p.td_inputs(x);
        sum += f64::from(net.forward(x)[0]);
    }
    sum
}

fn bench(c: &mut Criterion) {
    let bytes = td::shipped("frangieh", "modern").expect("shipped weights");
    let net = Net::from_bytes(bytes, "frangieh-modern").expect("a network");
    let ps = frangieh_positions(POSITIONS, 11);
    let mut x = Inputs::default();
    let mean = evaluate_all(&net, &ps, &mut x) / ps.len() as f64;
    assert_eq!(ps.len(), POSITIONS);
    assert!(mean > 0.0 && mean < 1.0, "mean win probability {mean}");
    let mut g = c.benchmark_group("td");
    g.throughput(Throughput::Elements(POSITIONS as u64));
    g.bench_function("frangieh_modern/encode_and_evaluate_x1000", |b| {
        b.iter(|| black_box(evaluate_all(&net, black_box(&ps), &mut x)));
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
