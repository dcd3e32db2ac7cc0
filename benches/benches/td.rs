//! The learned evaluation's speed, one thread, on the shipped Frangieh `modern` network
//! (196-80-5):
//!
//! - `td`: the encoding and forward pass over 1,000 positions met in seeded random play;
//! - `td_ply1`: the workload of `td:ply=1`'s leaves: every candidate of each move list (the
//!   decision nodes with two or more legal moves) of 200 seeded random games, each child played
//!   and scored by the plain evaluation (`Net::forward` on its encoding, one position at a time)
//!   and by the batch of `td::incremental` (the accumulator of the first candidate, updated by
//!   the inputs that differ, found from the points whose counts differ without encoding the
//!   child; the rest vectorised for the processor found at run time) in the same run.
//!   Elements/s are candidates/s.
//!
//! Each bench asserts its own answer first: the mean win probability is a valid probability;
//! the batch's equities equal the plain evaluation's within 1e-4 each (1e-5 on each output),
//! and so their sums within 1e-4 per candidate.

// criterion_group! defines an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use cowrie_agents::td::{self, equity, Inputs, Net, NetEval};
use cowrie_agents::{Evaluate, Evaluator, Viewed, Weights};
use cowrie_benches::{frangieh_positions, move_lists};
use cowrie_engine::{Frangieh, FrangiehRules, Game, Player, RuleSet, ToAct};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const POSITIONS: usize = 1_000;
/// Games whose move lists make `td_ply1`'s workload.
const GAMES: u32 = 200;

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

type Lists = [(Frangieh, Vec<<Frangieh as Game>::Action>)];

/// The equity of the child after `a`, from the mover's view: exact at the end, else the plain
/// evaluation (what `td` computed for each candidate before the batch).
fn plain_value(eval: &NetEval, s: &Frangieh, a: <Frangieh as Game>::Action, me: Player) -> f64 {
    let mut child = *s;
    child.play_unchecked(a);
    if let ToAct::Terminal(_) = child.to_act() {
        return child.returns()[me.index()];
    }
    let mut x = Inputs::default();
    let viewer = child.td_inputs(&mut x).expect("an encoding");
    let (_, _, outputs) = eval.net().shape();
    Viewed::new(viewer, equity(&eval.net().forward(&x), outputs)).for_player(me)
}

fn mover(s: &Frangieh) -> Player {
    match s.to_act() {
        ToAct::Decision(p) => p,
        _ => unreachable!("a decision node"),
    }
}

/// Every candidate's equity by the plain evaluation, in order.
fn plain_all(eval: &NetEval, lists: &Lists, out: &mut Vec<f64>) {
    out.clear();
    for (s, moves) in lists {
        let me = mover(s);
        out.extend(moves.iter().map(|&a| plain_value(eval, s, a, me)));
    }
}

/// Every candidate's equity by the batch, in order.
fn batch_all(eval: &NetEval, lists: &Lists, out: &mut Vec<f64>, leaves: &mut Vec<(f64, bool)>) {
    out.clear();
    for (s, moves) in lists {
        Evaluator::<Frangieh>::evaluate_moves(eval, s, moves, mover(s), leaves);
        out.extend(leaves.iter().map(|&(v, _)| v));
    }
}

fn ply1(c: &mut Criterion) {
    let rules = FrangiehRules::variant("modern").expect("a variant");
    let eval = td::resolve::<Frangieh>(&Weights::Shipped, &rules).expect("shipped weights");
    assert_eq!(eval.net().shape(), (196, 80, 5));
    let lists = move_lists::<Frangieh>(&rules, GAMES, 1);
    let candidates: usize = lists.iter().map(|(_, m)| m.len()).sum();
    let (mut plain, mut batch, mut leaves) = (Vec::new(), Vec::new(), Vec::new());
    plain_all(&eval, &lists, &mut plain);
    batch_all(&eval, &lists, &mut batch, &mut leaves);
    assert_eq!((plain.len(), batch.len()), (candidates, candidates));
    let worst = plain
        .iter()
        .zip(&batch)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(worst < 1e-4, "largest difference {worst}");
    let (sp, sb): (f64, f64) = (plain.iter().sum(), batch.iter().sum());
    assert!(
        (sp - sb).abs() < 1e-4 * candidates as f64,
        "sums {sp} and {sb}"
    );
    println!(
        "td_ply1: {} move lists, {candidates} candidates, sum of equities {sp:.4} (plain) and {sb:.4} (batch)",
        lists.len()
    );
    let mut g = c.benchmark_group("td_ply1");
    g.sample_size(10);
    g.throughput(Throughput::Elements(candidates as u64));
    g.bench_function("frangieh_modern/plain", |b| {
        b.iter(|| plain_all(&eval, black_box(&lists), &mut plain));
    });
    g.bench_function("frangieh_modern/batch", |b| {
        b.iter(|| batch_all(&eval, black_box(&lists), &mut batch, &mut leaves));
    });
    g.finish();
}

criterion_group!(benches, bench, ply1);
criterion_main!(benches);
