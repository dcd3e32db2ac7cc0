//! Random streams of a run, derived as `docs/conventions.md` says.
//!
//! Every stream is a `ChaCha8Rng` keyed by the run seed (`ChaCha8Rng::seed_from_u64(seed)`),
//! told apart by its 64-bit ChaCha stream number:
//! - the chance stream of pair `k` (dice, cowries, opening throws): stream `4k`;
//! - the agent in seat `s` (0 or 1) of game `i`: stream `4i + 1 + s`.
//!
//! Within its pair's stream each chance outcome has a place of its own, keyed by what it is
//! ([`Dice`]): the game within the match, whose throw it is (or an opening throw), that
//! player's turn and the throw's index within the turn. A rule that changes the opening or
//! adds throws therefore leaves every other throw where it was.
//!
//! Both games of a seat-swapped pair (games `2k` and `2k + 1`) therefore see the same chance
//! stream, and an agent that draws more numbers never changes the dice. Without seat swapping,
//! each game is its own pair (`k = i`).
//!
//! A study's run seed is derived from its name ([`study_seed`]), so two studies share games
//! only when one is given the other's seed.

use cowrie_engine::{ChanceNode, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The dice of one game: each chance outcome drawn from its own place in the pair's chance
/// stream, keyed by the [`ChanceNode`] the engine describes and the turns counted so far
/// (`docs/conventions.md`, "Seeds and random streams").
///
/// The key of a throw of player `p`: the game within the match, `p`, `p`'s turn number (from
/// 1; a player's turn begins when control passes to it, at its throw or its decision) and the
/// throw's index within that turn (from 0). The key of an opening throw: the game within the
/// match and the opening throw's index within that game. The key picks a ChaCha block
/// (`game` in bits 44 to 63, the role in bits 42 and 43: 0 for an opening throw, 1 + the
/// player's index otherwise, the turn in bits 20 to 41, the index in bits 0 to 19; a field
/// wider than its bits wraps, far beyond any ply cap), and the outcome is drawn from that
/// block's first numbers. Nothing allocates.
#[derive(Clone, Debug)]
pub struct Dice {
    stream: ChaCha8Rng,
    game: u32,
    /// Turns begun per player in this game.
    turns: [u32; 2],
    /// The player in control: the last to throw or decide.
    control: Option<Player>,
    /// Throws of the player in control in its current turn.
    throws: u32,
    /// Opening throws in this game.
    openings: u32,
}

impl Dice {
    /// The dice of pair `pair_index` of the run with seed `run_seed`.
    #[must_use]
    pub fn new(run_seed: u64, pair_index: u64) -> Dice {
        Dice::from_stream(chance_stream(run_seed, pair_index))
    }

    fn take_control(&mut self, p: Player) {
        if self.control != Some(p) {
            self.control = Some(p);
            self.turns[p.index()] += 1;
            self.throws = 0;
        }
    }

    /// Notes a decision of player `p` (a turn of `p`'s begins if another player was in
    /// control).
    pub fn decision(&mut self, p: Player) {
        self.take_control(p);
    }

    /// The generator positioned at the place of the chance node `node`; the node is counted.
    pub fn at(&mut self, node: ChanceNode) -> ChaCha8Rng {
        if node.game != self.game {
            *self = Dice {
                game: node.game,
                ..Dice::from_stream(self.stream.clone())
            };
        }
        let (role, turn, index) = match node.thrower {
            None => {
                self.openings += 1;
                (0, 0, self.openings - 1)
            }
            Some(p) => {
                self.take_control(p);
                self.throws += 1;
                (1 + p.index() as u64, self.turns[p.index()], self.throws - 1)
            }
        };
        let block = (u64::from(node.game) & 0xF_FFFF) << 44
            | role << 42
            | (u64::from(turn) & 0x3F_FFFF) << 20
            | u64::from(index) & 0xF_FFFF;
        let mut rng = self.stream.clone();
        rng.set_word_pos(u128::from(block) * 16);
        rng
    }

    /// The dice drawn from `stream` (a pair's chance stream, [`chance_stream`]), as
    /// [`Dice::new`] draws them from its pair's.
    #[must_use]
    pub fn from_stream(stream: ChaCha8Rng) -> Dice {
        Dice {
            stream,
            game: 1,
            turns: [0; 2],
            control: None,
            throws: 0,
            openings: 0,
        }
    }
}

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
