//! The solver's bitboard move generator against the engine's legal actions, on random
//! movement-phase positions under both `goats-blocked` options.

use cowrie_engine::games::baghchal::{GOATS, TIGERS};
use cowrie_engine::{Baghchal, BaghchalAction, BaghchalRules, Game, RuleSet, ToAct};
use cowrie_solver::moves;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn children_equal_the_engines() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let points: Vec<u32> = (0..25).collect();
    let mut rules = BaghchalRules::default();
    rules.set_option("ply-cap", "none").unwrap();
    let mut buf = Vec::new();
    let mut checked = 0;
    for trial in 0..20_000 {
        let goats_on_board = 15 + trial % 6;
        let mut pts = points.clone();
        pts.shuffle(&mut rng);
        let tigers = pts[..4].iter().fold(0u32, |b, &p| b | 1 << p);
        let goats = pts[4..4 + goats_on_board]
            .iter()
            .fold(0u32, |b, &p| b | 1 << p);
        let side = if trial % 2 == 0 { GOATS } else { TIGERS };
        let captured = 20 - goats_on_board as u8;
        rules.win_captures = 6;
        let state = Baghchal::from_parts(rules, goats, tigers, 0, captured, side, 0).unwrap();
        let mut engine: Vec<(u32, u32)> = Vec::new();
        if matches!(state.to_act(), ToAct::Decision(_)) {
            state.legal_actions(&mut buf);
            for &a in &buf {
                if a == BaghchalAction::Pass {
                    continue;
                }
                let mut c = state.clone();
                c.play_unchecked(a);
                engine.push((c.tigers(), c.goats()));
            }
        }
        let mut ours: Vec<(u32, u32)> = Vec::new();
        if side == GOATS {
            moves::goat_steps(tigers, goats, |g| ours.push((tigers, g)));
            assert_eq!(moves::goat_step_count(tigers, goats) as usize, ours.len());
        } else {
            moves::tiger_steps(tigers, goats, |t| ours.push((t, goats)));
            assert_eq!(moves::tiger_step_count(tigers, goats) as usize, ours.len());
            moves::tiger_jumps(tigers, goats, |t, g| ours.push((t, g)));
        }
        engine.sort_unstable();
        ours.sort_unstable();
        assert_eq!(ours, engine, "{}", state.notation());
        checked += 1;
    }
    assert_eq!(checked, 20_000);
}
