//! Whole solves: the same values with one thread or two, the files a solve writes, and a
//! resumed solve ending where an uninterrupted one does.

use std::fs;

use cowrie_solver::solve::{self, Silent};
use cowrie_solver::{solve_layer, Database, Index, Manifest, Side, SolveRules, Value};

/// The reduced game of `brute_force.rs`: the tigers win on the second capture.
const RULES: SolveRules = SolveRules {
    win_captures: 2,
    goats_pass: false,
};

fn words_with_threads(threads: usize, goats_pass: bool) -> Vec<Vec<u16>> {
    let rules = SolveRules {
        goats_pass,
        ..RULES
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let index = Index::new();
        let (l19, _) = solve_layer(&index, &rules, 19, None, &Silent);
        let (l20, _) = solve_layer(&index, &rules, 20, Some(&l19), &Silent);
        vec![l19.words().to_vec(), l20.words().to_vec()]
    })
}

#[test]
fn one_thread_and_two_give_the_same_words() {
    for pass in [false, true] {
        assert_eq!(words_with_threads(1, pass), words_with_threads(2, pass));
    }
}

#[test]
fn a_resumed_solve_ends_with_the_same_database() {
    let whole = tempfile::tempdir().unwrap();
    let outcomes = solve::solve(whole.path(), &RULES, false, &Silent).unwrap();
    assert_eq!(outcomes.len(), 2);
    assert!(outcomes.iter().all(|o| o.seconds.is_some()));
    // A second start without resume is refused.
    let e = solve::solve(whole.path(), &RULES, false, &Silent).unwrap_err();
    assert!(e.to_string().contains("--resume"), "{e}");

    // Interrupted after the first layer: the manifest lists only layer 19.
    let part = tempfile::tempdir().unwrap();
    solve::solve(part.path(), &RULES, false, &Silent).unwrap();
    let mut m = Manifest::read(part.path()).unwrap().unwrap();
    m.layers.retain(|l| l.goats == 19);
    m.write(part.path()).unwrap();
    fs::remove_file(part.path().join("layer-20.bin")).unwrap();
    let resumed = solve::solve(part.path(), &RULES, true, &Silent).unwrap();
    assert_eq!(resumed[0].seconds, None);
    assert!(resumed[1].seconds.is_some());
    for name in ["manifest.json", "layer-19.bin", "layer-20.bin"] {
        assert_eq!(
            fs::read(whole.path().join(name)).unwrap(),
            fs::read(part.path().join(name)).unwrap(),
            "{name}"
        );
    }

    // Other rules are refused on resume and on open.
    let other = SolveRules {
        win_captures: 3,
        ..RULES
    };
    assert!(solve::solve(whole.path(), &other, true, &Silent).is_err());
    assert!(Database::open(whole.path(), &other).is_err());

    // The database reads back. 20 goats, the tigers on the corners and b3 empty: no tiger can
    // step or jump (b3 is next to none of them and behind no goat from a corner), so the
    // tigers to move have lost; the stored value agrees with the one from the children.
    let db = Database::open(whole.path(), &RULES).unwrap();
    let tigers = 1 | 1 << 4 | 1 << 20 | 1 << 24;
    let goats = ((1u32 << 25) - 1) & !tigers & !(1 << 11);
    assert_eq!(db.value(Side::Tigers, tigers, goats), Value::Loss(0));
    for side in Side::BOTH {
        let from_children = db.children(20).unwrap().value(side, tigers, goats);
        assert_eq!(db.value(side, tigers, goats), from_children);
    }
}

#[test]
fn short_distances_agree_with_a_minimax_search_on_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    solve::solve(dir.path(), &RULES, false, &Silent).unwrap();
    let db = Database::open(dir.path(), &RULES).unwrap();
    let rules = cowrie_engine::BaghchalRules {
        win_captures: RULES.win_captures,
        ..Default::default()
    };
    let report = cowrie_solver::search_check::check_samples(&db, &rules, 200, 50, 7, 1).unwrap();
    assert_eq!((report.decided, report.undecided), (200, 50));
}
