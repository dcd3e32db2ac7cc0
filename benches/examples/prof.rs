//! Plays random Baghchal games for profiling (`valgrind --tool=callgrind`); not a benchmark.
//! Usage: prof [variant] [api|playout]
use cowrie_benches::{playout_games, random_games};
use cowrie_engine::{Baghchal, BaghchalRules, RuleSet};

fn main() {
    let variant = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "five-captures".into());
    let path = std::env::args().nth(2).unwrap_or_else(|| "api".into());
    let rules = BaghchalRules::variant(&variant).expect("variant");
    let b = if path == "playout" {
        playout_games::<Baghchal>(&rules, 2000, 1)
    } else {
        random_games::<Baghchal>(&rules, 2000, 1)
    };
    println!("{b:?}");
}
