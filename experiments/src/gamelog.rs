//! Game records (`--record`): `records.jsonl`, one JSON object per game in schedule order, with
//! every chance outcome and ply, so `cowrie replay` can re-play and verify a game.

use serde::{Deserialize, Serialize};

use crate::selfplay::Event;

/// One recorded game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's index in its run.
    pub game_index: u64,
    /// The game's name.
    pub game: String,
    /// The variant name.
    pub variant: String,
    /// The fully resolved rule options, `(key, value)` in the rule set's order.
    pub options: Vec<(String, String)>,
    /// The agent specs in seats 1 and 2.
    pub agents: [String; 2],
    /// The start position's notation.
    pub start: String,
    /// Chance outcomes and plies, in order.
    pub events: Vec<Event>,
    /// `win`, `draw`, `truncated` or a forfeit (`forfeit-crash`, `forfeit-timeout`,
    /// `forfeit-illegal`).
    pub end_reason: String,
    /// The winning seat, if any.
    pub winner_seat: Option<u8>,
    /// Plies played.
    pub plies: u32,
    /// The final position's notation.
    pub end: String,
}
