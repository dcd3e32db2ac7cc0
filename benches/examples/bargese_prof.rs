//! Plays random Bargese games as the bench does and reports where the turn generator's time
//! goes, by the number of throws in the turn; not a benchmark. Usage: bargese_prof [variant]
//! [games]
use cowrie_engine::games::bargese::{Bargese, BargeseRules};
use cowrie_engine::{sample_outcome, Game, RuleSet, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let variant = args.next().unwrap_or_else(|| "finkel-2002".into());
    let games: u64 = args.next().and_then(|g| g.parse().ok()).unwrap_or(2000);
    let rules = BargeseRules::variant(&variant).expect("variant");
    let mut actions = Vec::new();
    let mut outcomes = Vec::new();
    // per throw count: calls, seconds, actions, max seconds
    let mut calls = [0u64; 64];
    let mut secs = [0f64; 64];
    let mut acts = [0u64; 64];
    let mut worst = [0f64; 64];
    let mut plies = 0u64;
    let t0 = Instant::now();
    let bucket_mode = std::env::var("BUCKET").is_ok();
    for seed in 0..if bucket_mode { 0 } else { games } {
        let mut rng = ChaCha8Rng::seed_from_u64(1_000_000 + seed);
        let mut s = Bargese::new(&rules);
        loop {
            match s.to_act() {
                ToAct::Terminal(_) => break,
                ToAct::Chance => {
                    s.chance_outcomes(&mut outcomes);
                    let o = sample_outcome(&outcomes, &mut rng);
                    s.apply_outcome(o);
                }
                ToAct::Decision(_) => {
                    let n = (s.throws().iter().sum::<u16>() as usize).min(63);
                    let t = Instant::now();
                    s.legal_actions(&mut actions);
                    let e = t.elapsed().as_secs_f64();
                    calls[n] += 1;
                    secs[n] += e;
                    acts[n] += actions.len() as u64;
                    worst[n] = worst[n].max(e);
                    plies += 1;
                    let a = actions[rng.gen_range(0..actions.len())];
                    s.play_unchecked(a);
                }
            }
        }
    }
    let wall = t0.elapsed().as_secs_f64();
    if let Ok(only) = std::env::var("BUCKET") {
        // Replays the decisions of one bucket (throws in the turn) for a per-call figure.
        let only: usize = only.parse().expect("a throw count");
        let mut states = Vec::new();
        for seed in 0..games {
            let mut rng = ChaCha8Rng::seed_from_u64(1_000_000 + seed);
            let mut s = Bargese::new(&rules);
            loop {
                match s.to_act() {
                    ToAct::Terminal(_) => break,
                    ToAct::Chance => {
                        s.chance_outcomes(&mut outcomes);
                        let o = sample_outcome(&outcomes, &mut rng);
                        s.apply_outcome(o);
                    }
                    ToAct::Decision(_) => {
                        if s.throws().iter().sum::<u16>() as usize == only {
                            states.push(s.clone());
                        }
                        s.legal_actions(&mut actions);
                        let a = actions[rng.gen_range(0..actions.len())];
                        s.play_unchecked(a);
                    }
                }
            }
        }
        let repeat: u64 = std::env::var("REPEAT").map_or(1, |r| r.parse().expect("a count"));
        let t = Instant::now();
        let n = replay(&states, repeat, &mut actions);
        let n = n / repeat.max(1);
        let states_len = states.len() as f64 * repeat.max(1) as f64;
        let e = t.elapsed().as_secs_f64();
        println!(
            "bucket {only}: {} calls, {:.2} us/call, {:.1} actions/call",
            states.len(),
            1e6 * e / states_len,
            n as f64 / states.len() as f64
        );
        return;
    }
    let gen: f64 = secs.iter().sum();
    println!(
        "{variant}: {games} games, {plies} plies, wall {wall:.3} s ({:.0} games/s), generator {gen:.3} s",
        games as f64 / wall
    );
    println!("throws  calls  share%  mean_us  max_us  mean_actions");
    for n in 0..64 {
        if calls[n] > 0 {
            println!(
                "{n:>6} {:>6} {:>7.2} {:>8.2} {:>7.0} {:>10.1}",
                calls[n],
                100.0 * secs[n] / gen,
                1e6 * secs[n] / calls[n] as f64,
                1e6 * worst[n],
                acts[n] as f64 / calls[n] as f64
            );
        }
    }
}

/// The timed part of a bucket replay, a function of its own so that a profiler can count only it
/// (`valgrind --tool=callgrind --toggle-collect='*replay*'`).
#[inline(never)]
fn replay(
    states: &[Bargese],
    repeat: u64,
    actions: &mut Vec<cowrie_engine::games::bargese::BargeseAction>,
) -> u64 {
    let mut n = 0u64;
    for _ in 0..repeat {
        for s in states {
            s.legal_actions(actions);
            n += actions.len() as u64;
        }
    }
    n
}
