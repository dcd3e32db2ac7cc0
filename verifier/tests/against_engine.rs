//! The verifier's move generation and end rules against the engine's, on random positions of
//! both phases under random win rules and both `goats-blocked` options: the same standing
//! (which side has won, or that the side to move has a move) and the same moves to the same
//! positions.

use cowrie_engine::games::baghchal::{GOATS, TIGERS};
use cowrie_engine::{Baghchal, BaghchalAction, BaghchalRules, EndReason, Game, RuleSet, ToAct};
use cowrie_verifier::board::{Cell, Lines, POINTS};
use cowrie_verifier::{Move, Position, Rules, Side, Status};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A position in the verifier's terms: the board, side, in hand and captured, as the engine
/// would write it (goats' and tigers' point sets).
type Key = (u32, u32, u8, u8, bool);

fn key_of_state(s: &Baghchal) -> Key {
    (
        s.goats(),
        s.tigers(),
        s.goats_in_hand(),
        s.captured(),
        s.side_to_move() == TIGERS,
    )
}

fn key_of_position(p: &Position) -> Key {
    let set = |kind: Cell| {
        (0..POINTS)
            .filter(|&q| p.cells[q] == kind)
            .fold(0u32, |b, q| b | 1 << q)
    };
    (
        set(Cell::Goat),
        set(Cell::Tiger),
        p.in_hand,
        p.captured,
        p.side == Side::Tigers,
    )
}

fn engine_move(a: BaghchalAction) -> Move {
    match a {
        BaghchalAction::Place(p) => Move::Place(usize::from(p)),
        BaghchalAction::Step { from, to } => Move::Step(usize::from(from), usize::from(to)),
        BaghchalAction::Jump { from, to } => Move::Jump(usize::from(from), usize::from(to)),
        BaghchalAction::Pass => Move::Pass,
    }
}

#[test]
fn moves_and_ends_equal_the_engines_on_random_positions_of_both_phases() {
    let mut rng = ChaCha8Rng::seed_from_u64(2009);
    let lines = Lines::new();
    let mut points: Vec<usize> = (0..POINTS).collect();
    let mut buf = Vec::new();
    // How often each standing and kind of move was met: the sample must meet them all.
    let mut seen = [0u32; 7];
    for trial in 0..30_000u32 {
        let win_captures = rng.gen_range(1..=20u8);
        let goats_pass = rng.gen_bool(0.5);
        let mut engine_rules = BaghchalRules::default();
        engine_rules
            .set_option("win-captures", &win_captures.to_string())
            .unwrap();
        engine_rules
            .set_option("goats-blocked", if goats_pass { "pass" } else { "lose" })
            .unwrap();
        engine_rules.set_option("ply-cap", "none").unwrap();
        let rules = Rules {
            win_captures,
            goats_pass,
        };
        // Half the trials in the placement phase; captures up to the winning number, so that
        // won positions occur; crowded boards often, so that blocked sides occur.
        let in_hand: u8 = if trial % 2 == 0 {
            0
        } else {
            rng.gen_range(1..=20)
        };
        let captured: u8 = rng.gen_range(0..=(20 - in_hand).min(win_captures));
        let on_board = usize::from(20 - in_hand - captured);
        points.shuffle(&mut rng);
        let mut pos = Position {
            cells: [Cell::Empty; POINTS],
            side: if rng.gen_bool(0.5) {
                Side::Goats
            } else {
                Side::Tigers
            },
            in_hand,
            captured,
        };
        if trial % 10 == 9 {
            // Goats hemmed in: twenty goats, the one empty point ringed by tigers (it has at
            // most four neighbours), where a pass is their only move.
            pos.in_hand = 0;
            pos.captured = 0;
            let empty = *points
                .iter()
                .find(|&&p| lines.next[p].len() <= 4)
                .expect("a corner or an edge point");
            pos.cells = [Cell::Goat; POINTS];
            pos.cells[empty] = Cell::Empty;
            let mut tigers: Vec<usize> = lines.next[empty].clone();
            let others: Vec<usize> = points
                .iter()
                .copied()
                .filter(|&p| p != empty && !tigers.contains(&p))
                .take(4 - tigers.len())
                .collect();
            tigers.extend(others);
            for &t in &tigers[..4] {
                pos.cells[t] = Cell::Tiger;
            }
        } else {
            for &p in &points[..4] {
                pos.cells[p] = Cell::Tiger;
            }
            for &p in &points[4..4 + on_board] {
                pos.cells[p] = Cell::Goat;
            }
        }
        let (in_hand, captured) = (pos.in_hand, pos.captured);
        let (goats, tigers, ..) = key_of_position(&pos);
        let player = if pos.side == Side::Goats {
            GOATS
        } else {
            TIGERS
        };
        let state = Baghchal::from_parts(engine_rules, goats, tigers, in_hand, captured, player, 0)
            .unwrap();
        let status = pos.status(&rules, &lines);
        let engine_status = match state.to_act() {
            ToAct::Terminal(EndReason::Win(p)) if p == GOATS => Status::Won(Side::Goats),
            ToAct::Terminal(EndReason::Win(_)) => Status::Won(Side::Tigers),
            ToAct::Terminal(other) => panic!("{}: ends as {other:?}", state.notation()),
            _ => Status::Moves,
        };
        assert_eq!(status, engine_status, "{}", state.notation());
        let mut ours: Vec<(Move, Key)> = Vec::new();
        pos.for_each_child(&rules, &lines, |mv, child| {
            ours.push((mv, key_of_position(child)));
        });
        let mut theirs: Vec<(Move, Key)> = Vec::new();
        if status == Status::Moves {
            state.legal_actions(&mut buf);
            for &a in &buf {
                let mut child = state.clone();
                child.play_unchecked(a);
                theirs.push((engine_move(a), key_of_state(&child)));
            }
        } else {
            // A position won by captures has no moves; one lost by a blocked side has none.
            assert!(ours.is_empty(), "{}", state.notation());
        }
        ours.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(ours, theirs, "{}", state.notation());
        seen[match status {
            Status::Won(Side::Goats) => 0,
            Status::Won(Side::Tigers) => 1,
            Status::Moves => 2,
        }] += 1;
        for (mv, _) in &ours {
            seen[match mv {
                Move::Place(_) => 3,
                Move::Step(..) => 4,
                Move::Jump(..) => 5,
                Move::Pass => 6,
            }] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "every case met: {seen:?}");
}
