//! Random `modern` Frangieh games through the public `Game` API, one thread, as in
//! `benches/benches/frangieh.rs`: `frangieh_speed [games]` prints one JSON line with the games,
//! plies, wall seconds and games per second. Used by `tools/openspiel_ratio.py`.

use std::time::Instant;

use cowrie_engine::{sample_outcome, Frangieh, FrangiehRules, Game, RuleSet, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() -> anyhow::Result<()> {
    let games: u64 = match std::env::args().nth(1) {
        Some(n) => n.parse()?,
        None => 20_000,
    };
    let rules = FrangiehRules::variant("modern").expect("a named variant");
    let (mut buf, mut outs) = (Vec::new(), Vec::new());
    let start = Instant::now();
    let mut plies = 0u64;
    for index in 0..games {
        let mut dice = ChaCha8Rng::seed_from_u64(2 * index);
        let mut choice = ChaCha8Rng::seed_from_u64(2 * index + 1);
        let mut s = Frangieh::new(&rules);
        loop {
            match s.to_act() {
                ToAct::Chance => {
                    s.chance_outcomes(&mut outs);
                    let o = sample_outcome(&outs, &mut dice);
                    s.apply_outcome(o);
                }
                ToAct::Decision(_) => {
                    s.legal_actions(&mut buf);
                    let a = buf[choice.gen_range(0..buf.len())];
                    s.play_unchecked(a);
                }
                ToAct::Terminal(_) => break,
            }
        }
        plies += u64::from(s.plies());
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{{\"games\":{games},\"plies\":{plies},\"seconds\":{secs:.3},\"games_per_second\":{:.1}}}",
        games as f64 / secs
    );
    Ok(())
}
