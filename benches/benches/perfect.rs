//! The `perfect` agent's movement-phase move: one `choose` on each of 1,000 random
//! movement-phase positions (elements/s = moves/s). The database is the one named by the
//! environment variable `COWRIE_PERFECT_DB` (with its rules, e.g. a five-captures database written
//! by `cowrie solve`), else the reduced game `win-captures=2` solved into the system's temporary
//! directory on first use. Before timing, the bench asserts that every chosen move keeps the
//! position's stored value, so a fast but wrong agent cannot pass.

// criterion_group! and criterion_main! generate undocumented items.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::PathBuf;

use cowrie_agents::{Agent, AgentSpec, AnyAgent};
use cowrie_engine::{Baghchal, BaghchalRules, Game, Player, ToAct};
use cowrie_solver::solve::{self, Silent};
use cowrie_solver::{Database, Manifest, SolveRules};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn database() -> PathBuf {
    if let Some(dir) = std::env::var_os("COWRIE_PERFECT_DB") {
        return PathBuf::from(dir);
    }
    let dir = std::env::temp_dir().join("cowrie-bench-perfect-win-captures-2");
    let rules = SolveRules {
        win_captures: 2,
        goats_pass: false,
    };
    solve::solve(&dir, &rules, true, &Silent).expect("solving the reduced game");
    dir
}

fn bench(c: &mut Criterion) {
    let dir = database();
    let solved = Manifest::read_required(&dir).expect("a database").rules;
    let db = Database::open(&dir, &solved).expect("a database");
    let rules = BaghchalRules {
        win_captures: solved.win_captures,
        ..BaghchalRules::default()
    };
    let lowest = solved.lowest_layer() as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let points: Vec<u32> = (0..25).collect();
    let mut positions = Vec::new();
    while positions.len() < 1000 {
        let mut pts = points.clone();
        pts.shuffle(&mut rng);
        let n = lowest + positions.len() % (21 - lowest);
        let tigers = pts[..4].iter().fold(0u32, |b, &p| b | 1 << p);
        let goats = pts[4..4 + n].iter().fold(0u32, |b, &p| b | 1 << p);
        let side = Player::from_index(positions.len() % 2);
        let s = Baghchal::from_parts(rules, goats, tigers, 0, 20 - n as u8, side, 0).unwrap();
        if matches!(s.to_act(), ToAct::Decision(_)) {
            let mut legal = Vec::new();
            s.legal_actions(&mut legal);
            positions.push((s, legal));
        }
    }
    let spec: AgentSpec = format!("perfect:db={}", dir.display()).parse().unwrap();
    let mut agent = AnyAgent::<Baghchal>::try_build(&spec, ChaCha8Rng::seed_from_u64(1)).unwrap();
    for (s, legal) in &positions {
        let mv = agent.choose(s, legal);
        let mut child = s.clone();
        child.play_unchecked(mv);
        assert_eq!(
            db.state_value(&child).unwrap().parent(),
            db.state_value(s).unwrap(),
            "{}",
            s.notation()
        );
    }
    let mut g = c.benchmark_group("perfect");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("movement_phase_moves", |b| {
        b.iter(|| {
            for (s, legal) in &positions {
                black_box(agent.choose(s, legal));
            }
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
