//! Random streams of a run, derived as `docs/conventions.md` says.
//!
//! Every stream is a `ChaCha8Rng` keyed by the run seed (`ChaCha8Rng::seed_from_u64(seed)`),
//! told apart by its 64-bit ChaCha stream number:
//! - the chance stream of pair `k` (dice, cowries, opening throws): stream `4k`;
//! - the agent in seat `s` (0 or 1) of game `i`: stream `4i + 1 + s`.
//!
//! Both games of a seat-swapped pair (games `2k` and `2k + 1`) therefore see the same chance
//! stream, and an agent that draws more numbers never changes the dice. Without seat swapping,
//! each game is its own pair (`k = i`).
//!
//! A study's run seed is derived from its name ([`study_seed`]), so two studies share games
//! only when one is given the other's seed.

use cowrie_engine::Player;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The chance stream of pair `pair_index`.
#[must_use]
pub fn chance_stream(run_seed: u64, pair_index: u64) -> ChaCha8Rng {
    stream(run_seed, pair_index.wrapping_mul(4))
}

/// The stream of the agent in `seat` of game `game_index`.
#[must_use]
pub fn agent_stream(run_seed: u64, game_index: u64, seat: Player) -> ChaCha8Rng {
    stream(
        run_seed,
        game_index.wrapping_mul(4) + 1 + seat.index() as u64,
    )
}

/// The run seed of the study named `name`: the first eight bytes, little-endian, of the
/// SHA-256 digest of the text `cowrie study ` followed by the name.
#[must_use]
pub fn study_seed(name: &str) -> u64 {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("cowrie study {name}").as_bytes());
    u64::from_le_bytes(
        digest[..8]
            .try_into()
            .expect("a SHA-256 digest has 32 bytes"),
    )
}

fn stream(run_seed: u64, id: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(run_seed);
    rng.set_stream(id);
    rng
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn streams_differ_and_repeat() {
        let a: u64 = chance_stream(1, 0).gen();
        let b: u64 = chance_stream(1, 1).gen();
        let c: u64 = agent_stream(1, 0, Player::ONE).gen();
        let d: u64 = agent_stream(1, 0, Player::TWO).gen();
        let e: u64 = chance_stream(2, 0).gen();
        let all = [a, b, c, d, e];
        for i in 0..all.len() {
            for j in 0..i {
                assert_ne!(all[i], all[j]);
            }
        }
        assert_eq!(a, chance_stream(1, 0).gen::<u64>());
    }

    #[test]
    fn study_seeds_come_from_the_name() {
        // Python: int.from_bytes(hashlib.sha256(b"cowrie study default-study").digest()[:8],
        // "little").
        assert_eq!(study_seed("default-study"), 2_011_764_854_615_095_277);
        assert_eq!(study_seed("large-study"), 14_958_960_951_282_968_101);
    }
}
