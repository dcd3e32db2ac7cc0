//! Perft: the number of decision-ply sequences of a given length, the standard move-generator
//! check.
//!
//! Depth counts decision plies only. Chance nodes are expanded (every outcome, unweighted) without
//! using depth, so a perft through dice counts each (roll, play) line once. A game that ends
//! before the depth is reached contributes nothing.

use crate::game::{Game, ToAct};

/// Counts the leaves `depth` decision plies below `state`.
///
/// # Examples
///
/// The counts of `tests/data/baghchal.perft` and `tests/data/frangieh.perft` (the latter
/// GNU Backgammon's):
///
/// ```
/// use cowrie_engine::{perft, Baghchal, BaghchalRules, Frangieh, FrangiehRules, Game, RuleSet};
///
/// let baghchal = Baghchal::new(&BaghchalRules::default());
/// let counts: Vec<u64> = (1..=3).map(|d| perft(&baghchal, d)).collect();
/// assert_eq!(counts, [21, 252, 5052]);
///
/// // Through chance nodes: the 30 opening rolls of modern backgammon (no doubles), each with
/// // its distinct plays, make 380 lines of one decision ply.
/// let frangieh = Frangieh::new(&FrangiehRules::variant("modern").unwrap());
/// assert_eq!(perft(&frangieh, 1), 380);
/// assert_eq!(perft(&frangieh, 0), 1);
/// ```
#[must_use]
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    match state.to_act() {
        ToAct::Terminal(_) => 0,
        ToAct::Chance => {
            let mut outcomes = Vec::new();
            state.chance_outcomes(&mut outcomes);
            outcomes
                .iter()
                .map(|&(o, _)| {
                    let mut next = state.clone();
                    next.apply_outcome(o);
                    perft(&next, depth)
                })
                .sum()
        }
        ToAct::Decision(_) => {
            let mut actions = Vec::new();
            state.legal_actions(&mut actions);
            if depth == 1 {
                return actions.len() as u64;
            }
            actions
                .iter()
                .map(|&a| {
                    let mut next = state.clone();
                    next.play_unchecked(a);
                    perft(&next, depth - 1)
                })
                .sum()
        }
    }
}
