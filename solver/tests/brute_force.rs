//! An independent slow solver against the databases, and the consistency check, on the 20- and
//! 19-goat layers.
//!
//! The reduced game is Baghchal's movement phase under `win-captures=2`: the tigers win on the
//! second capture, so the layers with 20 and 19 goats are the whole game and nothing comes from
//! outside them. The brute force is written without the solver's machinery: every board of the
//! two layers without symmetry reduction, found by binary search in one sorted array of keys;
//! moves from the engine's own `legal_actions`; values by synchronous value iteration (sweep `k`
//! decides exactly the positions at distance `k`); whatever is never decided is a draw.

use cowrie_engine::games::baghchal::{GOATS, TIGERS};
use cowrie_engine::{Baghchal, BaghchalRules, EndReason, Game, Player, RuleSet, ToAct};
use cowrie_solver::children::Children;
use cowrie_solver::{solve_layer, verify, Index, Layer, Side, SolveRules, Value};
use rayon::prelude::*;

const UNDECIDED: i32 = i32::MIN;
/// A child that ends the game: the mover of the child (the goats) has lost, in 0 plies.
const ENDED: u32 = u32::MAX;

fn key(side: Player, tigers: u32, goats: u32) -> u64 {
    (side.index() as u64) << 50 | u64::from(tigers) << 25 | u64::from(goats)
}

/// Every position with four tigers and 20 or 19 goats, both sides to move.
fn all_positions() -> Vec<u64> {
    let mut keys = Vec::new();
    for a in 0..25 {
        for b in a + 1..25 {
            for c in b + 1..25 {
                for d in c + 1..25 {
                    let tigers: u32 = 1 << a | 1 << b | 1 << c | 1 << d;
                    let free = ((1u32 << 25) - 1) & !tigers;
                    let free_points: Vec<u32> = (0..25).filter(|p| free >> p & 1 == 1).collect();
                    for (i, &e) in free_points.iter().enumerate() {
                        for side in [GOATS, TIGERS] {
                            keys.push(key(side, tigers, free & !(1 << e)));
                        }
                        for &f in &free_points[i + 1..] {
                            for side in [GOATS, TIGERS] {
                                keys.push(key(side, tigers, free & !(1 << e) & !(1 << f)));
                            }
                        }
                    }
                }
            }
        }
    }
    keys.sort_unstable();
    keys
}

/// Values by value iteration: `d` for a win in `d`, `-d - 1` for a loss in `d`, UNDECIDED.
fn brute_force(rules: &BaghchalRules) -> (Vec<u64>, Vec<i32>) {
    let keys = all_positions();
    assert_eq!(keys.len(), 2 * 12650 * (21 + 210));
    // The children of every position, as indexes (ENDED for a game-ending capture).
    let children: Vec<Vec<u32>> = keys
        .par_iter()
        .map(|&k| {
            let side = Player::from_index((k >> 50) as usize);
            let tigers = (k >> 25) as u32 & 0x1FF_FFFF;
            let goats = k as u32 & 0x1FF_FFFF;
            let captured = 20 - goats.count_ones() as u8;
            let s = Baghchal::from_parts(*rules, goats, tigers, 0, captured, side, 0).unwrap();
            let mut out = Vec::new();
            if let ToAct::Terminal(end) = s.to_act() {
                // Only losses for the side to move end a movement-phase game.
                assert_eq!(end, EndReason::Win(side.opponent()));
                return out;
            }
            let mut legal = Vec::new();
            s.legal_actions(&mut legal);
            for a in legal {
                let mut c = s.clone();
                c.play_unchecked(a);
                if let ToAct::Terminal(_) = c.to_act() {
                    if c.captured() == 2 {
                        out.push(ENDED);
                        continue;
                    }
                }
                let ck = key(c.side_to_move(), c.tigers(), c.goats());
                out.push(keys.binary_search(&ck).expect("a child in the layers") as u32);
            }
            out
        })
        .collect();
    let mut value = vec![UNDECIDED; keys.len()];
    loop {
        let next: Vec<i32> = children
            .par_iter()
            .map(|ch| {
                let mut best_win: Option<i32> = None;
                let mut longest_loss: Option<i32> = None;
                let mut all_won = true;
                for &c in ch {
                    let v = if c == ENDED { -1 } else { value[c as usize] };
                    if v == UNDECIDED {
                        all_won = false;
                    } else if v < 0 {
                        // The child's mover loses in -v - 1: we win in -v.
                        best_win = Some(best_win.map_or(-v, |b| b.min(-v)));
                    } else {
                        longest_loss = Some(longest_loss.map_or(v + 1, |b| b.max(v + 1)));
                    }
                }
                match (best_win, all_won) {
                    (Some(w), _) => w,
                    (None, true) => -longest_loss.unwrap_or(0) - 1,
                    (None, false) => UNDECIDED,
                }
            })
            .collect();
        if next == value {
            break;
        }
        value = next;
    }
    (keys, value)
}

fn check(goats_blocked: &str) {
    let mut rules = BaghchalRules::default();
    rules.set_option("win-captures", "2").unwrap();
    rules.set_option("goats-blocked", goats_blocked).unwrap();
    rules.set_option("ply-cap", "none").unwrap();
    let solve = SolveRules::from_rules(&rules).unwrap();
    let index = Index::new();
    let (l19, _) = solve_layer(&index, &solve, 19, None, &|_: u64| {});
    let (l20, _) = solve_layer(&index, &solve, 20, Some(&l19), &|_: u64| {});

    // The consistency check on both layers.
    let children = |this, below| Children {
        index: &index,
        rules: &solve,
        this,
        below,
    };
    let n19 = verify::check_layer(&children(&l19, None)).unwrap();
    let n20 = verify::check_layer(&children(&l20, Some(&l19))).unwrap();
    // Burnside counts (inequivalent boards times two sides to move).
    assert_eq!((n19, n20), (2 * 333_175, 2 * 33_481));

    let (keys, value) = brute_force(&rules);
    let layer = |g: u32| -> &Layer {
        if g == 19 {
            &l19
        } else {
            &l20
        }
    };
    let mismatches = keys
        .par_iter()
        .zip(&value)
        .filter(|(&k, &v)| {
            let side = Side::of(Player::from_index((k >> 50) as usize));
            let tigers = (k >> 25) as u32 & 0x1FF_FFFF;
            let goats = k as u32 & 0x1FF_FFFF;
            let want = match v {
                UNDECIDED => Value::Draw,
                v if v >= 0 => Value::Win(v as u16),
                v => Value::Loss((-v - 1) as u16),
            };
            let slot = index.canonical(tigers, goats).slot;
            layer(goats.count_ones()).value(side, slot) != Some(want)
        })
        .count();
    assert_eq!(mismatches, 0, "goats-blocked={goats_blocked}");
    // The reduced game is not trivial: every value occurs, and long wins.
    assert!(value.contains(&UNDECIDED));
    assert!(value.iter().any(|&v| v > 30));
    assert!(value.iter().any(|&v| v < -30));
}

#[test]
fn brute_force_agrees_when_blocked_goats_lose() {
    check("lose");
}

#[test]
fn brute_force_agrees_when_blocked_goats_pass() {
    check("pass");
}
