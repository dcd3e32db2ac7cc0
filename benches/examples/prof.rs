//! Plays random Baghchal games for profiling (`valgrind --tool=callgrind`, `perf`, or CPU time
//! with `/usr/bin/time`); not a benchmark. Usage: prof [variant] [api|playout] [games]
use cowrie_benches::{playout_games, random_games};
use cowrie_engine::{Baghchal, BaghchalRules, RuleSet};

fn main() {
    let mut args = std::env::args().skip(1);
    let variant = args.next().unwrap_or_else(|| "five-captures".into());
    let path = args.next().unwrap_or_else(|| "api".into());
    let games: u64 = args.next().and_then(|g| g.parse().ok()).unwrap_or(2000);
    let rules = BaghchalRules::variant(&variant).expect("variant");
    let t = std::time::Instant::now();
    let b = if path == "playout" {
        playout_games::<Baghchal>(&rules, games, 1)
    } else {
        random_games::<Baghchal>(&rules, games, 1)
    };
    let s = t.elapsed().as_secs_f64();
    println!(
        "{variant} {path}: {b:?}; wall {s:.3} s, {:.0} games/s, {:.0} plies/s",
        b.games as f64 / s,
        b.plies as f64 / s
    );
}
