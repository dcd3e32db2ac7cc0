//! The one-sided bear-off databases against an independent count: a separate, slow
//! enumeration of every play of a bear-off position written from the rules as
//! `docs/rules/frangieh.md` and `docs/rules/julbahar.md` state them (not the engine's
//! generator), and a plain memoised recursion for the expected turns; plus figures counted by
//! hand.

use std::collections::{HashMap, HashSet};

use cowrie_agents::bearoff::{database, index, odds, Database, Home};
use cowrie_engine::{FrangiehRules, JulbaharRules, RuleSet};

/// Which dice bear off (the `bear-off` option).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Off {
    /// Only the exact number.
    Exact,
    /// A die higher than the highest occupied point bears off from it.
    Higher,
    /// A die with no other use bears off the rearmost checker it carries past the end.
    Rearmost,
}

/// The rules of a bear-off, as written.
#[derive(Clone, Copy, Debug)]
struct Written {
    off: Off,
    /// When either die but not both can be played, the larger must be.
    larger_die: bool,
    /// Each die a separate move, no look-ahead (otherwise as many dice as possible).
    each_die: bool,
}

/// Every position one die `d` can lead to.
fn single(h: &Home, d: usize, w: &Written) -> Vec<Home> {
    let highest = (1..=6).rev().find(|&p| h[p - 1] > 0);
    let mut out = Vec::new();
    for p in 1..=6 {
        if h[p - 1] == 0 {
            continue;
        }
        let mut n = *h;
        n[p - 1] -= 1;
        if p > d {
            n[p - 1 - d] += 1;
            out.push(n);
        } else if p == d || (w.off == Off::Higher && Some(p) == highest) {
            out.push(n);
        }
    }
    if w.off == Off::Rearmost && out.is_empty() {
        // No checker moves by the die or bears off exactly: the rearmost checker goes off.
        if let Some(p) = highest {
            let mut n = *h;
            n[p - 1] -= 1;
            out.push(n);
        }
    }
    out
}

/// Ends of the plays taking the dice in `order`: (position, dice played, first die played).
fn in_order(
    h: &Home,
    order: &[usize],
    w: &Written,
    used: usize,
    first: usize,
    out: &mut Vec<(Home, usize, usize)>,
) {
    let Some((&d, rest)) = order.split_first() else {
        out.push((*h, used, first));
        return;
    };
    let moves = single(h, d, w);
    if moves.is_empty() {
        out.push((*h, used, first));
        return;
    }
    for n in moves {
        in_order(
            &n,
            rest,
            w,
            used + 1,
            if used == 0 { d } else { first },
            out,
        );
    }
}

/// Ends under `each_die`: while some remaining die can be played, one is.
fn each(h: &Home, dice: &[usize], w: &Written, out: &mut HashSet<Home>) {
    let mut any = false;
    let mut tried = HashSet::new();
    for (i, &d) in dice.iter().enumerate() {
        if !tried.insert(d) {
            continue;
        }
        let mut rest = dice.to_vec();
        rest.remove(i);
        for n in single(h, d, w) {
            any = true;
            each(&n, &rest, w, out);
        }
    }
    if !any {
        out.insert(*h);
    }
}

/// The distinct positions a roll `(a, b)` leaves.
fn plays(h: &Home, a: usize, b: usize, w: &Written) -> HashSet<Home> {
    let dice: Vec<usize> = if a == b { vec![a; 4] } else { vec![a, b] };
    let mut set = HashSet::new();
    if w.each_die {
        each(h, &dice, w, &mut set);
        return set;
    }
    let mut ends = Vec::new();
    in_order(h, &dice, w, 0, 0, &mut ends);
    if a != b {
        in_order(h, &[b, a], w, 0, 0, &mut ends);
    }
    let most = ends.iter().map(|e| e.1).max().unwrap_or(0);
    let larger = a.max(b);
    let larger_only =
        w.larger_die && a != b && most == 1 && ends.iter().any(|e| e.1 == 1 && e.2 == larger);
    for (n, used, first) in ends {
        if used == most && (!larger_only || first == larger) {
            set.insert(n);
        }
    }
    set
}

/// The 21 rolls with their probabilities.
fn rolls() -> Vec<(usize, usize, f64)> {
    let mut v = Vec::new();
    for a in 1..=6 {
        for b in 1..=a {
            v.push((a, b, if a == b { 1.0 / 36.0 } else { 2.0 / 36.0 }));
        }
    }
    v
}

/// Expected turns to bear off `h`, by memoised recursion.
fn expected(h: &Home, w: &Written, memo: &mut HashMap<Home, f64>) -> f64 {
    if h.iter().all(|&c| c == 0) {
        return 0.0;
    }
    if let Some(&e) = memo.get(h) {
        return e;
    }
    let (mut sum, mut stay) = (0.0, 0.0);
    for (a, b, p) in rolls() {
        let mut best = f64::INFINITY;
        for n in plays(h, a, b, w) {
            if n != *h {
                best = best.min(expected(&n, w, memo));
            }
        }
        if best.is_finite() {
            sum += p * best;
        } else {
            stay += p;
        }
    }
    let e = (1.0 + sum) / (1.0 - stay);
    memo.insert(*h, e);
    e
}

/// Positions of at most `max` checkers.
fn small(max: u8) -> Vec<Home> {
    index::all()
        .into_iter()
        .filter(|h| index::checkers(h) <= max)
        .collect()
}

fn check(db: &Database, w: Written, max: u8) {
    let mut memo = HashMap::new();
    let positions = small(max);
    for h in &positions {
        let e = expected(h, &w, &mut memo);
        let got = db.expected(h);
        assert!(
            (e - got).abs() < 1e-9,
            "{w:?} {h:?}: independent {e}, database {got}"
        );
        // The stored distribution sums to 1 and has (nearly) the same mean.
        let (first, d) = db.turns(h);
        let total: f64 = d.iter().map(|&p| f64::from(p)).sum();
        let mean: f64 = d
            .iter()
            .enumerate()
            .map(|(k, &p)| (first + k) as f64 * f64::from(p))
            .sum();
        assert!((total - 1.0).abs() < 1e-5, "{h:?} sums to {total}");
        assert!(
            (mean - got).abs() < 1e-4 * got.max(1.0),
            "{h:?}: mean {mean}, expected {got}"
        );
    }
}

#[test]
fn every_position_of_up_to_five_checkers_matches_an_independent_count_under_each_group() {
    let frangieh = |v: &str, opts: &[&str]| {
        let opts: Vec<String> = opts.iter().map(|s| s.to_string()).collect();
        FrangiehRules::resolve(Some(v), &opts).unwrap().tables()
    };
    let w = |off, larger_die, each_die| Written {
        off,
        larger_die,
        each_die,
    };
    // Frangieh `modern`: higher, the larger die.
    check(
        &database(&frangieh("modern", &[])),
        w(Off::Higher, true, false),
        5,
    );
    // Julbahar `barakat-1974`: higher, either die.
    let julbahar = JulbaharRules::default().tables();
    check(&database(&julbahar), w(Off::Higher, false, false), 5);
    // Frangieh `barakat-1974`: exact, either die.
    check(
        &database(&frangieh("barakat-1974", &[])),
        w(Off::Exact, false, false),
        5,
    );
    // Exact with the larger die.
    check(
        &database(&frangieh("barakat-1974", &["larger-die=on"])),
        w(Off::Exact, true, false),
        5,
    );
    // Frangieh `ludii`: rearmost, each die a move.
    check(
        &database(&frangieh("ludii", &[])),
        w(Off::Rearmost, false, true),
        5,
    );
    // Exact, each die a move.
    check(
        &database(&frangieh("barakat-1974", &["must-use=each"])),
        w(Off::Exact, false, true),
        5,
    );
}

#[test]
fn figures_counted_by_hand() {
    let modern = database(&FrangiehRules::variant("modern").unwrap().tables());
    // Two checkers on the 1-point: every roll bears both off.
    assert_eq!(modern.expected(&[2, 0, 0, 0, 0, 0]), 1.0);
    // One on the 6-point: all but 1-1, 2-1, 3-1, 4-1, 3-2 (9 of 36) bear it off at once, and
    // any second roll does.
    assert!((modern.expected(&[0, 0, 0, 0, 0, 1]) - 45.0 / 36.0).abs() < 1e-12);
    // Fifteen on the 1-point: a roll bears off two checkers, a double four:
    // E(k) = 1 + 30/36 E(k - 2) + 6/36 E(k - 4).
    let mut e = [0.0f64; 16];
    for k in 1..=15 {
        e[k] = 1.0 + 30.0 / 36.0 * e[k.saturating_sub(2)] + 6.0 / 36.0 * e[k.saturating_sub(4)];
    }
    assert!(
        (modern.expected(&[15, 0, 0, 0, 0, 0]) - e[15]).abs() < 1e-9,
        "{}",
        e[15]
    );
    // Exact bear-off: one checker on the 1-point waits for a 1 (11 rolls of 36).
    let exact = database(&FrangiehRules::default().tables());
    assert!((exact.expected(&[1, 0, 0, 0, 0, 0]) - 36.0 / 11.0).abs() < 1e-12);
}

#[test]
fn race_odds_counted_by_hand() {
    let db = database(&FrangiehRules::variant("modern").unwrap().tables());
    // One checker on the 6-point against one on the 1-point: the roller wins only at once.
    let o = odds(&db, &[0, 0, 0, 0, 0, 1], &[1, 0, 0, 0, 0, 0], true);
    assert!((o.win - 0.75).abs() < 1e-6, "{o:?}");
    // Against fifteen on the 6-point (none off) it always wins, a gammon unless it misses
    // (9/36) and the other's first roll bears a checker off (17/36, below):
    // 27/36 + 9/36 × 19/36.
    let o = odds(&db, &[0, 0, 0, 0, 0, 1], &[0, 0, 0, 0, 0, 15], true);
    let gammon = 27.0 / 36.0 + 9.0 / 36.0 * 19.0 / 36.0;
    assert!(
        (o.win - 1.0).abs() < 1e-6 && (o.win_gammon - gammon).abs() < 1e-6,
        "{o:?}"
    );
    // Fifteen on the 6-point to roll against the lone checker: the roller needs at least four
    // turns, the other at most two, so it never wins. It is gammoned when the other finishes
    // before its first checker is off: a first roll bears one off with any 6 (11 of 36), 5-1,
    // 4-2 (6/1 1/off, 6/2 2/off), 3-3 or 2-2: 17 of 36. The lone checker finishes in the
    // first turn with 27/36 and otherwise in the second, so
    // 27/36 × 19/36 <= P(lose gammon) <= 19/36.
    let o = odds(&db, &[0, 0, 0, 0, 0, 15], &[0, 0, 0, 0, 0, 1], true);
    assert!(o.win.abs() < 1e-6, "{o:?}");
    let first = db.turns_to_first_off(&[0, 0, 0, 0, 0, 15]).unwrap();
    assert_eq!(first.0, 1);
    assert!(
        (f64::from(first.1[0]) - 17.0 / 36.0).abs() < 1e-6,
        "{first:?}"
    );
    let low = 27.0 / 36.0 * 19.0 / 36.0;
    assert!(
        o.lose_gammon >= low - 1e-6 && o.lose_gammon <= 19.0 / 36.0 + 1e-6,
        "{o:?}"
    );
    // Without gammons scored, no gammon figures.
    let o = odds(&db, &[0, 0, 0, 0, 0, 15], &[0, 0, 0, 0, 0, 1], false);
    assert_eq!((o.win_gammon, o.lose_gammon), (0.0, 0.0));
}
