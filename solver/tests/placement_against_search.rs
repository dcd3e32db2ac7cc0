//! The placement solve against a plain minimax on the engine's own game, on the reduced game
//! `win-captures=2`: the last placements (18 and 19 goats placed) solved by backward induction
//! with the solver's table machinery, then checked position by position by a full-width search
//! that uses nothing of it — the engine's `legal_actions`, `play` and end rules — down to the
//! movement phase, where the movement database (checked against its own brute force in
//! `brute_force.rs`) gives the value.

use cowrie_engine::games::baghchal::{GOATS, TIGERS};
use cowrie_engine::{Baghchal, BaghchalRules, EndReason, Game, RuleSet, ToAct};
use cowrie_solver::packed::{self, Code, DRAW, LOSS, WIN};
use cowrie_solver::placement_db::{self, PlacementReader};
use cowrie_solver::solve::{self, Silent};
use cowrie_solver::{Database, Side, SolveRules, Value};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn reduced() -> BaghchalRules {
    let mut r = BaghchalRules::default();
    r.set_option("win-captures", "2").unwrap();
    r.ply_cap = None;
    r
}

/// The value of `state` for its side to move by minimax over the engine's moves.
fn minimax(db: &Database, state: &Baghchal) -> Code {
    if let ToAct::Terminal(end) = state.to_act() {
        return match end {
            EndReason::Win(p) if p == state.side_to_move() => WIN,
            EndReason::Win(_) => LOSS,
            _ => DRAW,
        };
    }
    if !state.is_placement_phase() {
        return match db.state_value(state).expect("a movement position") {
            Value::Win(_) => WIN,
            Value::Draw => DRAW,
            Value::Loss(_) => LOSS,
        };
    }
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let mut best = LOSS;
    for a in legal {
        let mut child = state.clone();
        child.try_play(a).expect("a legal action");
        // After a tigers' win the child is terminal with the goats to move.
        best = best.max(WIN - minimax(db, &child));
        if best == WIN {
            break;
        }
    }
    best
}

fn random_points(rng: &mut ChaCha8Rng, from: u32, k: u32) -> u32 {
    let mut set = 0u32;
    while set.count_ones() < k {
        let p = rng.gen_range(0..25);
        if from >> p & 1 == 1 {
            set |= 1 << p;
        }
    }
    set
}

#[test]
fn the_last_placements_agree_with_minimax_on_the_engine() {
    let rules = reduced();
    let solve_rules = SolveRules::from_rules(&rules).unwrap();
    let dir = tempfile::tempdir().unwrap();
    solve::solve(dir.path(), &solve_rules, false, &Silent).unwrap();
    let halves = placement_db::solve_placement(dir.path(), &solve_rules, 18, &Silent).unwrap();
    assert_eq!(halves.len(), 4, "goats and tigers with 19, then 18 placed");
    let db = Database::open(dir.path(), &solve_rules).unwrap();
    let reader = PlacementReader::open(dir.path(), &solve_rules).unwrap();
    assert!(!reader.complete());
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut seen = [0u32; 3];
    for _ in 0..600 {
        let placed = rng.gen_range(18..20u32);
        let side = if rng.gen_bool(0.5) {
            Side::Goats
        } else {
            Side::Tigers
        };
        // One capture at most (the second wins).
        let captured = rng.gen_range(0..2u32);
        let tigers = random_points(&mut rng, (1 << 25) - 1, 4);
        let goats = random_points(&mut rng, ((1 << 25) - 1) & !tigers, placed - captured);
        let player = if side == Side::Goats { GOATS } else { TIGERS };
        let state = Baghchal::from_parts(
            rules,
            goats,
            tigers,
            (20 - placed) as u8,
            captured as u8,
            player,
            0,
        )
        .unwrap();
        let stored = reader
            .code(placed, side, tigers, goats)
            .unwrap()
            .expect("a solved half");
        let searched = minimax(&db, &state);
        assert_eq!(
            stored,
            searched,
            "{}: stored {}, minimax {}",
            state.notation(),
            packed::name(stored),
            packed::name(searched)
        );
        seen[stored as usize] += 1;
    }
    // The sample meets every value, so the check can fail in each direction.
    assert!(seen.iter().all(|&n| n > 20), "{seen:?}");
}

#[test]
fn one_thread_and_two_write_the_same_bytes_and_a_resume_continues() {
    let rules = SolveRules::from_rules(&reduced()).unwrap();
    let run = |threads: usize, split: bool| {
        let dir = tempfile::tempdir().unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            solve::solve(dir.path(), &rules, false, &Silent).unwrap();
            if split {
                // An interrupted solve: the first halves, then a resume further back.
                placement_db::solve_placement(dir.path(), &rules, 19, &Silent).unwrap();
            }
            let o = placement_db::solve_placement(dir.path(), &rules, 18, &Silent).unwrap();
            assert_eq!(
                o.iter().filter(|h| h.seconds.is_none()).count(),
                if split { 2 } else { 0 }
            );
        });
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains("placement-"))
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        files.sort();
        files
    };
    let one = run(1, false);
    assert_eq!(one.len(), 4);
    assert_eq!(one, run(2, false));
    assert_eq!(one, run(2, true));
}
