//! Frangieh perft through chance nodes under `modern`, against the counts in
//! `data/frangieh.perft` (computed with GNU Backgammon's move generator via gnubg-nn by
//! `tools/crosscheck_gnubg.py --perft`).
//!
//! `roll d`: from the standard start with player one to roll (every one of the 21 rolls,
//! unweighted), `d` decision plies deep. `opening d`: from the start under the modern opening
//! (30 ordered pairs of different dice, the higher plays them), `d` plies deep.

use cowrie_engine::{perft, Frangieh, FrangiehRules, Game, RuleSet};

fn pinned() -> Vec<(String, u32, u64)> {
    include_str!("data/frangieh.perft")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

fn check(max_count: u64) {
    // Rows above `max_count` are skipped (kept for quick local runs).
    let rules = FrangiehRules::variant("modern").unwrap();
    let roll =
        Frangieh::from_notation("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 1 roll 0", &rules).unwrap();
    let opening = Frangieh::new(&rules);
    let rows = pinned();
    assert_eq!(rows.len(), 5);
    for (start, depth, n) in rows {
        if n > max_count {
            continue;
        }
        let s = if start == "roll" { &roll } else { &opening };
        assert_eq!(perft(s, depth), n, "{start} {depth}");
    }
}

#[test]
fn perft_matches_gnubg_counts() {
    // All rows, `roll 3` included (116 million lines: a few seconds at the test profile).
    check(u64::MAX);
}
