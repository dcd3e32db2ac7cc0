//! Baghchal: goats and tigers, and the goats captured and still in hand at the end.

use cowrie_engine::baghchal::GOATS;
use cowrie_engine::{Baghchal, Player};
use serde::{Deserialize, Serialize};

use super::{NoSubgames, Report};

/// Baghchal's columns of `games.csv`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaghchalColumns {
    /// Goats the tigers captured.
    pub goats_captured: u8,
    /// Goats never placed.
    pub goats_in_hand: u8,
}

impl Report for Baghchal {
    // Player one is the goats (cowrie_engine::baghchal::GOATS), who place first.
    const SIDES: [&'static str; 2] = ["goats", "tigers"];
    // The goats place first under every rule set (docs/rules/baghchal.md, *Placement phase*).
    const FIXED_FIRST_MOVER: Option<Player> = Some(GOATS);
    const COMPARISON_NOTE: Option<&'static str> = Some(
        "baghchal: every rate above is a property of the agent that played, not of the game: \
         under perfect play the five-captures, averbakh-1995 and parlett-1976 starts are all \
         draws (results/solve); the goats always move first, so first_mover_win_rate is the \
         goats' win rate (= advantage_p1): side and move order are one factor",
    );
    type Columns = BaghchalColumns;
    type Subgame = NoSubgames;

    fn columns(&self) -> BaghchalColumns {
        BaghchalColumns {
            goats_captured: self.captured(),
            goats_in_hand: self.goats_in_hand(),
        }
    }
}

#[cfg(test)]
mod tests {
    use cowrie_engine::baghchal::GOATS;
    use cowrie_engine::Player;

    use super::*;

    #[test]
    fn player_one_is_the_goats() {
        assert_eq!(GOATS, Player::ONE);
        assert_eq!(Baghchal::side_name(GOATS), "goats");
        assert_eq!(Baghchal::side_name(GOATS.opponent()), "tigers");
    }
}
