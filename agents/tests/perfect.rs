//! The `perfect` agent on a solved reduced game (`win-captures=2`, the 20- and 19-goat layers):
//! every movement-phase move it plays keeps the position's value and shortens a win or
//! lengthens a loss by exactly one ply; it refuses games without a solver and other rules.

use cowrie_agents::{Agent, AgentSpec, AnyAgent};
use cowrie_engine::{Baghchal, BaghchalRules, Frangieh, Game, RuleSet, ToAct};
use cowrie_solver::packed;
use cowrie_solver::placement_db::{self, PlacementReader};
use cowrie_solver::solve::{self, Silent};
use cowrie_solver::{Database, SolveRules, Value};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn rules() -> BaghchalRules {
    let mut r = BaghchalRules::default();
    r.set_option("win-captures", "2").unwrap();
    r.set_option("ply-cap", "none").unwrap();
    r
}

#[test]
fn perfect_play_keeps_the_value_and_counts_down() {
    let dir = tempfile::tempdir().unwrap();
    let solve_rules = SolveRules::from_rules(&rules()).unwrap();
    solve::solve(dir.path(), &solve_rules, false, &Silent).unwrap();
    let db = Database::open(dir.path(), &solve_rules).unwrap();
    let spec: AgentSpec = format!("perfect:db={}", dir.path().display())
        .parse()
        .unwrap();
    let mut agent = AnyAgent::<Baghchal>::try_build(&spec, ChaCha8Rng::seed_from_u64(3)).unwrap();
    AnyAgent::<Baghchal>::check_rules(&spec, &rules()).unwrap();

    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let points: Vec<u32> = (0..25).collect();
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    let mut legal = Vec::new();
    for trial in 0..3000 {
        let mut pts = points.clone();
        pts.shuffle(&mut rng);
        let tigers = pts[..4].iter().fold(0u32, |b, &p| b | 1 << p);
        let n = 19 + trial % 2;
        let goats = pts[4..4 + n].iter().fold(0u32, |b, &p| b | 1 << p);
        let side = cowrie_engine::Player::from_index(trial % 2);
        let state = Baghchal::from_parts(rules(), goats, tigers, 0, 20 - n as u8, side, 0).unwrap();
        if !matches!(state.to_act(), ToAct::Decision(_)) {
            continue;
        }
        let value = db.state_value(&state).unwrap();
        state.legal_actions(&mut legal);
        let mv = agent.choose(&state, &legal);
        let mut child = state.clone();
        child.play_unchecked(mv);
        let after = db.state_value(&child).unwrap().parent();
        assert_eq!(after, value, "{} then {mv:?}", state.notation());
        match value {
            Value::Win(_) => wins += 1,
            Value::Loss(_) => losses += 1,
            Value::Draw => draws += 1,
        }
    }
    assert!(
        wins > 100 && losses > 100 && draws > 100,
        "{wins} {losses} {draws}"
    );

    // A win played out by the agent on both sides ends in exactly its distance.
    let start = (0..25u32)
        .map(|_| {
            let mut pts = points.clone();
            pts.shuffle(&mut rng);
            let tigers = pts[..4].iter().fold(0u32, |b, &p| b | 1 << p);
            let goats = pts[4..24].iter().fold(0u32, |b, &p| b | 1 << p);
            Baghchal::from_parts(rules(), goats, tigers, 0, 0, cowrie_engine::Player::ONE, 0)
                .unwrap()
        })
        .find(|s| matches!(db.state_value(s), Some(Value::Win(d)) if d > 9))
        .expect("a long win among 25 random boards");
    let Some(Value::Win(d)) = db.state_value(&start) else {
        unreachable!()
    };
    let mut s = start;
    while let ToAct::Decision(_) = s.to_act() {
        s.legal_actions(&mut legal);
        let mv = agent.choose(&s, &legal);
        s.play_unchecked(mv);
    }
    assert_eq!(s.plies(), u32::from(d));
}

#[test]
fn perfect_refuses_what_it_cannot_play() {
    let spec: AgentSpec = "perfect:db=/nonexistent/db".parse().unwrap();
    let e = AnyAgent::<Baghchal>::try_build(&spec, ChaCha8Rng::seed_from_u64(1)).unwrap_err();
    assert!(e.to_string().contains("/nonexistent/db"), "{e}");
    let e = AnyAgent::<Frangieh>::try_build(&spec, ChaCha8Rng::seed_from_u64(1)).unwrap_err();
    assert!(e.to_string().contains("frangieh has no solver"), "{e}");

    let dir = tempfile::tempdir().unwrap();
    let solve_rules = SolveRules::from_rules(&rules()).unwrap();
    solve::solve(dir.path(), &solve_rules, false, &Silent).unwrap();
    let spec: AgentSpec = format!("perfect:db={}", dir.path().display())
        .parse()
        .unwrap();
    AnyAgent::<Baghchal>::try_build(&spec, ChaCha8Rng::seed_from_u64(1)).unwrap();
    let e = AnyAgent::<Baghchal>::check_rules(&spec, &BaghchalRules::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("solved for"), "{e}");
}

#[test]
fn the_last_placement_is_played_from_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let solve_rules = SolveRules::from_rules(&rules()).unwrap();
    solve::solve(dir.path(), &solve_rules, false, &Silent).unwrap();
    let db = Database::open(dir.path(), &solve_rules).unwrap();
    let spec: AgentSpec = format!("perfect:db={},depth=1", dir.path().display())
        .parse()
        .unwrap();
    let mut agent = AnyAgent::<Baghchal>::try_build(&spec, ChaCha8Rng::seed_from_u64(5)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let points: Vec<u32> = (0..25).collect();
    let mut legal = Vec::new();
    for _ in 0..200 {
        // 19 goats placed, one in hand, the goats to place it: every placement enters the
        // movement phase, so the database scores every move exactly.
        let mut pts = points.clone();
        pts.shuffle(&mut rng);
        let tigers = pts[..4].iter().fold(0u32, |b, &p| b | 1 << p);
        let goats = pts[4..23].iter().fold(0u32, |b, &p| b | 1 << p);
        let state =
            Baghchal::from_parts(rules(), goats, tigers, 1, 0, cowrie_engine::Player::ONE, 0)
                .unwrap();
        state.legal_actions(&mut legal);
        let value_of = |a| {
            let mut c = state.clone();
            c.play_unchecked(a);
            db.state_value(&c).unwrap().parent()
        };
        let best = legal
            .iter()
            .map(|&a| value_of(a).preference())
            .max()
            .unwrap();
        let mv = agent.choose(&state, &legal);
        assert_eq!(value_of(mv).preference(), best, "{}", state.notation());
    }
}

#[test]
fn placement_moves_keep_the_value_where_the_placement_halves_reach() {
    let dir = tempfile::tempdir().unwrap();
    let solve_rules = SolveRules::from_rules(&rules()).unwrap();
    solve::solve(dir.path(), &solve_rules, false, &Silent).unwrap();
    placement_db::solve_placement(dir.path(), &solve_rules, 18, &Silent).unwrap();
    let db = Database::open(dir.path(), &solve_rules).unwrap();
    let reader = PlacementReader::open(dir.path(), &solve_rules).unwrap();
    let spec: AgentSpec = format!("perfect:db={},depth=1", dir.path().display())
        .parse()
        .unwrap();
    let mut agent = AnyAgent::<Baghchal>::try_build(&spec, ChaCha8Rng::seed_from_u64(5)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let points: Vec<u32> = (0..25).collect();
    let mut legal = Vec::new();
    let mut kept = [0u32; 3];
    for i in 0..300 {
        // 18 goats placed, none captured, either side to move: two or three plies before the
        // movement phase, beyond the depth-1 search, within the placement halves.
        let mut pts = points.clone();
        pts.shuffle(&mut rng);
        let tigers = pts[..4].iter().fold(0u32, |b, &p| b | 1 << p);
        let goats = pts[4..22].iter().fold(0u32, |b, &p| b | 1 << p);
        let mover = if i % 2 == 0 {
            cowrie_engine::Player::ONE
        } else {
            cowrie_engine::Player::TWO
        };
        let state = Baghchal::from_parts(rules(), goats, tigers, 2, 0, mover, 0).unwrap();
        if !matches!(state.to_act(), cowrie_engine::ToAct::Decision(_)) {
            continue;
        }
        let code = |s: &Baghchal| placement_db::state_code(&reader, &db, s).unwrap().unwrap();
        let value = code(&state);
        state.legal_actions(&mut legal);
        let mv = agent.choose(&state, &legal);
        let mut child = state.clone();
        child.play_unchecked(mv);
        assert_eq!(packed::parent(code(&child)), value, "{}", state.notation());
        kept[value as usize] += 1;
    }
    // Wins, draws and losses all met, so a value-losing move would have been seen.
    assert!(kept.iter().all(|&n| n > 10), "{kept:?}");
}
