//! The soak run: uniformly random play of every game and variant with the conformance suite's
//! invariants checked at every node (legal actions distinct and non-empty, chance distributions
//! proper, the notation reading back to the same position and hash — which checks that every
//! piece is on a legal square and none was lost or made — the hash recomputed from scratch,
//! returns zero-sum and in range, chance chains and ply caps within the game's facts).
//!
//! CI plays 10^6 plies over all games (`soak_short`); the long run, 10^8 plies per game, is
//! `cargo test --release -p cowrie-engine --test soak -- --ignored soak_long --nocapture` (one test
//! per game; `SOAK_PLIES=N` changes the count).

use cowrie_engine::testing::conformance;
use cowrie_engine::{Baghchal, Bargese, Frangieh, Game, Julbahar, RuleSet};

/// Plays conformance games of `G` under each named variant until `plies` decision plies in all,
/// spread evenly over the variants; returns (games, plies).
fn soak<G: Game>(plies: u64, seed: u64) -> (u64, u64) {
    let variants = G::Rules::variants();
    let per_variant = plies.div_ceil(variants.len() as u64);
    let (mut games, mut played) = (0, 0);
    for (v, info) in variants.iter().enumerate() {
        let rules = G::Rules::variant(info.name).unwrap();
        let mut here = 0;
        let mut chunk = 0u64;
        while here < per_variant {
            let r = conformance::<G>(&rules, 20, seed ^ ((v as u64) << 40) ^ chunk);
            here += r.plies;
            games += r.games;
            chunk += 1;
        }
        played += here;
    }
    (games, played)
}

fn report(name: &str, (games, plies): (u64, u64)) {
    eprintln!("{name}: {plies} plies in {games} games, every invariant held");
}

#[test]
fn soak_short() {
    // 10^6 plies over the four games, weighted toward the cheap ones.
    report("baghchal", soak::<Baghchal>(400_000, 1));
    report("frangieh", soak::<Frangieh>(250_000, 2));
    report("julbahar", soak::<Julbahar>(250_000, 3));
    report("bargese", soak::<Bargese>(100_000, 4));
}

/// The long run's count per game: `SOAK_PLIES`, 10^8 unless set.
fn long_plies() -> u64 {
    std::env::var("SOAK_PLIES")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(100_000_000)
}

/// One game's long run, with its wall-clock time (printed, never asserted).
fn soak_long_game<G: Game>(name: &str, seed: u64) {
    let start = std::time::Instant::now();
    let counts = soak::<G>(long_plies(), seed);
    report(name, counts);
    eprintln!("{name}: {:.0} s", start.elapsed().as_secs_f64());
}

#[test]
#[ignore = "long: 10^8 plies; run in release with SOAK_PLIES"]
fn soak_long_baghchal() {
    soak_long_game::<Baghchal>("baghchal", 11);
}

#[test]
#[ignore = "long: 10^8 plies; run in release with SOAK_PLIES"]
fn soak_long_frangieh() {
    soak_long_game::<Frangieh>("frangieh", 12);
}

#[test]
#[ignore = "long: 10^8 plies; run in release with SOAK_PLIES"]
fn soak_long_julbahar() {
    soak_long_game::<Julbahar>("julbahar", 13);
}

#[test]
#[ignore = "long: 10^8 plies; run in release with SOAK_PLIES"]
fn soak_long_bargese() {
    soak_long_game::<Bargese>("bargese", 14);
}
