//! Evaluates the shipped Frangieh `modern` network on 1,000 seeded positions `loops` times, for
//! CPU time with `/usr/bin/time` (positions per CPU-second: `loops × 1000 / user time`); not a
//! benchmark. Usage: td_speed [loops]
use cowrie_agents::td::{self, Inputs, Net};
use cowrie_agents::Evaluate;
use cowrie_benches::frangieh_positions;

fn main() {
    let loops: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let net = Net::from_bytes(
        td::shipped("frangieh", "modern").expect("shipped"),
        "modern",
    )
    .expect("a network");
    let ps = frangieh_positions(1000, 11);
    let mut x = Inputs::default();
    let mut sum = 0.0f64;
    for _ in 0..loops {
        for p in &ps {
            p.td_inputs(&mut x);
            sum += f64::from(net.forward(&x)[0]);
        }
    }
    println!(
        "{} evaluations, mean win probability {:.6}",
        loops * ps.len(),
        sum / (loops * ps.len()) as f64
    );
}
