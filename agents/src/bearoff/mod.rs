//! One-sided bear-off databases for the tables games (Frangieh, Julbahar) and the bear-off race
//! evaluation built on them.
//!
//! [`index`] numbers the positions (a side's 0 to 15 checkers on its six home points),
//! [`db`] builds, from the engine's own plays, each position's distribution of the turns needed
//! to bear off, and [`race`] turns two of them into the odds of the side to roll. [`database`]
//! builds a rule set's database once per process and shares it.

pub mod db;
pub mod index;
pub mod race;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use cowrie_engine::games::tables::{Board, TablesParams};
use cowrie_engine::Player;

pub use db::Database;
pub use index::Home;
pub use race::{odds, RaceOdds};

/// A bear-off race as a game state presents it to an evaluation: both sides wholly in their
/// home boards (nothing on the bar, so no contact), the side to roll about to roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Race {
    /// The rules the plays follow (the database is built for them).
    pub params: TablesParams,
    /// The side about to roll.
    pub roller: Player,
    /// Its checkers on its home points 1 to 6.
    pub roller_home: Home,
    /// The other side's, in its own numbering.
    pub other_home: Home,
    /// Whether the game scores gammons.
    pub gammons: bool,
}

impl Race {
    /// The race on `board` with `roller` to roll, if both sides are wholly in their home
    /// boards with checkers left; `None` otherwise.
    #[must_use]
    pub fn on_board(
        board: &Board,
        roller: Player,
        params: &TablesParams,
        gammons: bool,
    ) -> Option<Race> {
        let (r, o) = (roller.index(), roller.opponent().index());
        if !(board.all_home(r) && board.all_home(o)) || board.off(r) == 15 || board.off(o) == 15 {
            return None;
        }
        let home = |side: usize| {
            let mut h = [0u8; 6];
            h.copy_from_slice(&board.counts()[side][1..=6]);
            h
        };
        Some(Race {
            params: *params,
            roller,
            roller_home: home(r),
            other_home: home(o),
            gammons,
        })
    }

    /// The odds of the side to roll.
    #[must_use]
    pub fn odds(&self) -> RaceOdds {
        race::odds(
            &database(&self.params),
            &self.roller_home,
            &self.other_home,
            self.gammons,
        )
    }
}

/// The database of the rules `params`, built at its first use in the process and shared.
#[must_use]
pub fn database(params: &TablesParams) -> Arc<Database> {
    static CACHE: OnceLock<Mutex<HashMap<TablesParams, Arc<Database>>>> = OnceLock::new();
    let mut c = CACHE
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Arc::clone(
        c.entry(*params)
            .or_insert_with(|| Arc::new(Database::build(params))),
    )
}
