//! What the `perfect` agent reads: a solved database of one game, behind one trait.

use std::fmt;

use cowrie_engine::{Game, Player};

/// A solved database of one game, as the agent reads it.
pub trait Oracle<G: Game>: Send + Sync + fmt::Debug {
    /// Whether the database was solved under `rules` (a one-line reason if not).
    ///
    /// # Errors
    /// The reason the rules differ.
    fn check_rules(&self, rules: &G::Rules) -> Result<(), String>;

    /// The exact score of `state` for `player` if the database covers it (or the game is over):
    /// [`cowrie_solver::Value::preference`] of its value, from `player`'s view.
    fn score(&self, state: &G, player: Player) -> Option<i32>;

    /// The phases of the game the database holds, as a run's manifest records them (Baghchal:
    /// `movement`, `movement+placement`, or `movement+placement from P placed` for a placement
    /// phase solved back to the positions with `P` goats placed only).
    fn phases(&self) -> String;

    /// Whether the database holds every position from the start on, so that the agent never
    /// searches.
    fn is_complete(&self) -> bool;
}
