//! Baghchal's evaluation: a weighted sum of five terms, from the goats' view, negated for the
//! tigers. Every term is scaled to `[0, 1]` and the weights sum to 1, so the value stays in
//! `[-1, 1]`; a terminal position gets its exact returns.
//!
//! | term | scaled as | weight (goats' view) |
//! | --- | --- | --- |
//! | goats captured | `captured / win_captures` (progress to the tigers' win) | −0.45 |
//! | trapped tigers | tigers with no step and no jump, `/ 4` | +0.20 |
//! | tiger mobility | tiger steps + jumps available, `min(·, 24) / 24` | −0.15 |
//! | goats that can be jumped next move | distinct goats some tiger could jump now, `min(·, 4) / 4` | −0.15 |
//! | placement progress | goats placed so far `/ 20` | +0.05 |
//!
//! Captures dominate because they are irreversible and decide the game under every win rule;
//! trapped tigers are the goats' road to a win (all four trapped is a goat win); mobility and
//! exposed goats are the short-term threats; placement progress gently rewards reaching the
//! movement phase with a full board. The weights are hand-set, not tuned.

use cowrie_engine::games::baghchal::{Baghchal, GOATS, JUMPS, STEPS, TOTAL_GOATS};
use cowrie_engine::{Game, Player, ToAct};

use std::sync::Arc;

use crate::evaluate::Evaluate;
use crate::perfect::baghchal::BaghchalOracle;
use crate::perfect::oracle::Oracle;
use crate::value::Viewed;

const W_CAPTURED: f64 = 0.45;
const W_TRAPPED: f64 = 0.20;
const W_MOBILITY: f64 = 0.15;
const W_EXPOSED: f64 = 0.15;
const W_PLACED: f64 = 0.05;
/// Tiger moves at which the mobility term saturates.
const MOBILITY_SCALE: u32 = 24;
/// Exposed goats at which that term saturates.
const EXPOSED_SCALE: u32 = 4;
const BOARD: u32 = (1 << 25) - 1;

impl Evaluate for Baghchal {
    fn perfect_oracle(dir: &std::path::Path) -> Result<Arc<dyn Oracle<Self>>, String> {
        Ok(BaghchalOracle::open(dir)?)
    }

    fn evaluate(&self, player: Player) -> f64 {
        if let ToAct::Terminal(_) = self.to_act() {
            return self.returns()[player.index()];
        }
        let goats = self.goats();
        let tigers = self.tigers();
        let empty = BOARD & !(goats | tigers);
        let mut mobility = 0u32;
        let mut trapped = 0u32;
        let mut exposed: u32 = 0;
        let mut t = tigers;
        while t != 0 {
            let from = t.trailing_zeros() as usize;
            t &= t - 1;
            let steps = (STEPS[from] & empty).count_ones();
            let mut jumps = 0;
            for j in &JUMPS.jumps[from][..usize::from(JUMPS.len[from])] {
                if goats & (1 << j.over) != 0 && empty & (1 << j.to) != 0 {
                    jumps += 1;
                    exposed |= 1 << j.over;
                }
            }
            mobility += steps + jumps;
            if steps + jumps == 0 {
                trapped += 1;
            }
        }
        let win = f64::from(self.rules().win_captures.max(1));
        let placed = f64::from(TOTAL_GOATS - self.goats_in_hand()) / f64::from(TOTAL_GOATS);
        let goats_view = -W_CAPTURED * (f64::from(self.captured()) / win).min(1.0)
            + W_TRAPPED * f64::from(trapped) / 4.0
            - W_MOBILITY * f64::from(mobility.min(MOBILITY_SCALE)) / f64::from(MOBILITY_SCALE)
            - W_EXPOSED * f64::from(exposed.count_ones().min(EXPOSED_SCALE))
                / f64::from(EXPOSED_SCALE)
            + W_PLACED * placed;
        Viewed::new(GOATS, goats_view).for_player(player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowrie_engine::BaghchalRules;

    #[test]
    fn start_position_terms() {
        // Start: no captures, no trapped tiger, each corner tiger has 3 steps (12 moves),
        // no goat placed: -0.15 * 12/24 = -0.075 for the goats.
        let s = Baghchal::new(&BaghchalRules::default());
        assert!((s.evaluate(GOATS) + 0.075).abs() < 1e-12);
        assert!((s.evaluate(GOATS.opponent()) - 0.075).abs() < 1e-12);
    }

    #[test]
    fn bounded_and_antisymmetric_on_random_games() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut buf = Vec::new();
        for _ in 0..50 {
            let mut s = Baghchal::new(&BaghchalRules::default());
            while let ToAct::Decision(_) = s.to_act() {
                let v = s.evaluate(GOATS);
                assert!((-1.0..=1.0).contains(&v), "{v}");
                assert_eq!(v, -s.evaluate(GOATS.opponent()));
                s.legal_actions(&mut buf);
                s.play_unchecked(buf[rng.gen_range(0..buf.len())]);
            }
            assert_eq!(s.evaluate(GOATS), s.returns()[0]);
        }
    }
}
