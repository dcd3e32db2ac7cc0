//! The workload of the `td_ply1` bench group (every candidate of each move list of 200 seeded
//! random Frangieh `modern` games, played and scored) run `loops` times by one path,
//! for CPU time with `/usr/bin/time` (candidates per CPU-second: the candidates printed over
//! the user time, less that of `loops` 0, the set-up); not a benchmark.
//! Prints the candidates, the sum of their equities and a hash of every equity's bits (FNV-1a
//! over the `f64` bit patterns, in order), which tells two builds' results apart to the bit.
//! Usage: td_ply1_speed plain|batch [loops]
use cowrie_agents::td::{self, equity, Inputs};
use cowrie_agents::{Evaluate, Evaluator, Viewed, Weights};
use cowrie_benches::move_lists;
use cowrie_engine::{Frangieh, FrangiehRules, Game, RuleSet, ToAct};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "batch".into());
    let loops: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let rules = FrangiehRules::variant("modern").expect("a variant");
    let eval = td::resolve::<Frangieh>(&Weights::Shipped, &rules).expect("shipped weights");
    let (_, _, outputs) = eval.net().shape();
    let lists = move_lists::<Frangieh>(&rules, 200, 1);
    let (mut sum, mut candidates) = (0.0f64, 0usize);
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut record = |v: f64| {
        hash = (hash ^ v.to_bits()).wrapping_mul(0x0000_0100_0000_01b3);
        v
    };
    let mut leaves = Vec::new();
    for _ in 0..loops {
        for (s, moves) in &lists {
            let ToAct::Decision(me) = s.to_act() else {
                unreachable!("a decision node")
            };
            candidates += moves.len();
            if path == "plain" {
                for &a in moves {
                    let mut child = *s;
                    child.play_unchecked(a);
                    sum += record(if let ToAct::Terminal(_) = child.to_act() {
                        child.returns()[me.index()]
                    } else {
                        let mut x = Inputs::default();
                        let viewer = child.td_inputs(&mut x).expect("an encoding");
                        let o = eval.net().forward(&x);
                        Viewed::new(viewer, equity(&o, outputs)).for_player(me)
                    });
                }
            } else {
                Evaluator::<Frangieh>::evaluate_moves(&eval, s, moves, me, &mut leaves);
                sum += leaves.iter().map(|&(v, _)| record(v)).sum::<f64>();
            }
        }
    }
    println!("{path}: {candidates} candidates, sum of equities {sum:.4}, bits hash {hash:016x}");
}
