//! Julbahar, whose unit of play is a match to a target score: the match's scores and games in
//! `games.csv`, and one `subgames.csv` row per game inside the match.

use cowrie_engine::Julbahar;
use serde::{Deserialize, Serialize};

use super::{Report, SubgameOutcome};

/// Julbahar's columns of `games.csv`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JulbaharColumns {
    /// Match scores of seats 1 and 2.
    pub score_p1: u32,
    /// See `score_p1`.
    pub score_p2: u32,
    /// Games begun in the match.
    pub games: u32,
}

/// One game inside a Julbahar match (`subgames.csv`, after the match's `game_index,
/// pair_index, seed`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JulbaharSubgame {
    /// The game's number in the match, from 1.
    pub game_number: u32,
    /// The seat that made the game's first move.
    pub first_mover_seat: u8,
    /// The seat that bore off all fifteen first and so won the game; `None` if the match
    /// ended during the game (a bonus reached the target, or the ply cap).
    pub bore_off_seat: Option<u8>,
    /// Points seats 1 and 2 scored during the game (bonuses included).
    pub points_p1: u32,
    /// See `points_p1`.
    pub points_p2: u32,
    /// Decision plies of the game.
    pub plies: u32,
    /// Turns of the game.
    pub turns: u32,
}

impl Report for Julbahar {
    const SIDES: [&'static str; 2] = ["x", "o"];
    const PLAYS_MATCHES: bool = true;
    type Columns = JulbaharColumns;
    type Subgame = JulbaharSubgame;

    fn columns(&self) -> JulbaharColumns {
        let [score_p1, score_p2] = self.scores();
        JulbaharColumns {
            score_p1,
            score_p2,
            games: self.game_number(),
        }
    }

    fn subgames(&self) -> Vec<JulbaharSubgame> {
        self.game_log()
            .iter()
            .map(|g| JulbaharSubgame {
                game_number: g.game,
                first_mover_seat: g.first.seat(),
                bore_off_seat: super::seat(g.bore_off),
                points_p1: g.points[0],
                points_p2: g.points[1],
                plies: g.plies,
                turns: g.turns,
            })
            .collect()
    }

    fn subgame_outcome(g: &JulbaharSubgame) -> Option<SubgameOutcome> {
        Some(SubgameOutcome {
            first_mover_seat: g.first_mover_seat,
            winner_seat: g.bore_off_seat,
        })
    }
}
