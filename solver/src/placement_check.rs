//! A check of the placement halves that shares none of their solve's machinery: on positions
//! sampled uniformly from each written half, the stored value must equal the best of its
//! children's, the children found by the engine's own `legal_actions` and `play` (its end rules
//! included) and read back through [`PlacementReader`]'s lookup (the tiger class by a table,
//! the goats by a symmetry) rather than the solve's per-move mapping tables.

use cowrie_engine::games::baghchal::{Repetition, TOTAL_GOATS};
use cowrie_engine::{Baghchal, BaghchalRules, Game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::db::Database;
use crate::moves::{points, ALL};
use crate::packed::{self, LOSS, WIN};
use crate::placement::{self, captures};
use crate::placement_db::{state_code, PlacementReader};
use crate::rules::SolveRules;

/// Checks `per_half` sampled positions of every written half, from `seed`. Returns the number
/// checked.
///
/// # Errors
/// The first position whose stored value its children contradict, or a read error.
pub fn check_samples(
    db: &Database,
    reader: &PlacementReader,
    rules: &BaghchalRules,
    per_half: u32,
    seed: u64,
) -> Result<u64, String> {
    let solve_rules: SolveRules = *db.rules();
    let mut rules = *rules;
    rules.ply_cap = None;
    rules.repetition = Repetition::None;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut checked = 0;
    let mut legal = Vec::new();
    for (placed, side) in placement::halves() {
        let cs: Vec<u32> = captures(&solve_rules, placed, side).collect();
        let mut n = 0;
        while n < per_half {
            let c = cs[rng.gen_range(0..cs.len())];
            let tigers = random_set(&mut rng, ALL, 4);
            let goats = random_set(&mut rng, ALL & !tigers, placed - c);
            let Some(stored) = reader
                .code(placed, side, tigers, goats)
                .map_err(|e| e.to_string())?
            else {
                // The half is not written.
                break;
            };
            let state = Baghchal::from_parts(
                rules,
                goats,
                tigers,
                TOTAL_GOATS - placed as u8,
                c as u8,
                side.player(),
                0,
            )?;
            state.legal_actions(&mut legal);
            let mut best = LOSS;
            for &a in &legal {
                let mut child = state.clone();
                child.play_unchecked(a);
                let v = state_code(reader, db, &child)
                    .map_err(|e| e.to_string())?
                    .ok_or_else(|| format!("{}: a child outside the database", state.notation()))?;
                best = best.max(packed::parent(v));
                if best == WIN {
                    break;
                }
            }
            if best != stored {
                return Err(format!(
                    "{}: stored {}, its children give {}",
                    state.notation(),
                    packed::name(stored),
                    packed::name(best)
                ));
            }
            n += 1;
            checked += 1;
        }
    }
    Ok(checked)
}

fn random_set(rng: &mut ChaCha8Rng, from: u32, k: u32) -> u32 {
    let pts: Vec<usize> = points(from).collect();
    let mut set = 0u32;
    while set.count_ones() < k {
        set |= 1 << pts[rng.gen_range(0..pts.len())];
    }
    set
}
