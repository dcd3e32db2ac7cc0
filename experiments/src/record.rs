//! `games.csv`: one row per finished game, the contract's columns then the game's own.
//!
//! Contract columns (docs/conventions.md): `game_index, pair_index, seed, game, variant,
//! options, agent_p1, agent_p2, first_mover_seat, winner_seat, winner_side, points_p1,
//! points_p2, end_reason, plies, turns, choices, branching_sum`. Points are the game's returns
//! per seat (win +points, loss -points, draw or truncation 0). A game an external agent forfeits
//! ends where it stopped, with `end_reason` `forfeit-crash`, `forfeit-timeout` or
//! `forfeit-illegal`, the opponent as the winner and one point won and lost. No wall-clock time
//! appears, so the file is a pure function of the command's arguments (and of the external
//! programs, if any).

use cowrie_engine::{Game, Player};

use crate::schedule::Slot;
use crate::selfplay::PlayStats;

/// The contract's columns, in order.
pub const BASE_COLUMNS: &[&str] = &[
    "game_index",
    "pair_index",
    "seed",
    "game",
    "variant",
    "options",
    "agent_p1",
    "agent_p2",
    "first_mover_seat",
    "winner_seat",
    "winner_side",
    "points_p1",
    "points_p2",
    "end_reason",
    "plies",
    "turns",
    "choices",
    "branching_sum",
];

/// The full header for game `G`.
#[must_use]
pub fn header<G: Game>() -> Vec<&'static str> {
    let mut h = BASE_COLUMNS.to_vec();
    h.extend_from_slice(G::extra_columns());
    h
}

/// What identifies a match's rows: the same for every game of the run.
#[derive(Clone, Debug)]
pub struct MatchLabels {
    /// The run seed.
    pub seed: u64,
    /// The variant name.
    pub variant: String,
    /// The `--option` overrides, `;`-separated, as given.
    pub options: String,
    /// The agent specs named by `--p1` and `--p2`, in that order.
    pub agents: [String; 2],
}

/// One finished game, as summarised on stdout (every field is in `games.csv`).
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The schedule slot.
    pub slot: Slot,
    /// Winning seat (1 or 2), if any.
    pub winner_seat: Option<u8>,
    /// Winning side's name, if any.
    pub winner_side: Option<&'static str>,
    /// `win`, `draw`, `truncated` or a forfeit (`forfeit-crash`, `forfeit-timeout`,
    /// `forfeit-illegal`).
    pub end_reason: &'static str,
    /// Decision plies.
    pub plies: u32,
    /// Turns.
    pub turns: u32,
    /// The CSV row.
    pub fields: Vec<String>,
}

/// Builds the result and CSV row of a finished game.
#[must_use]
pub fn result<G: Game>(
    slot: Slot,
    labels: &MatchLabels,
    state: &G,
    stats: &PlayStats,
) -> GameResult {
    let reason = state.end_reason();
    let (winner, returns, end_reason) = match &stats.forfeit {
        Some((loser, f)) => {
            let mut r = [1.0; 2];
            r[loser.index()] = -1.0;
            (Some(loser.opponent()), r, f.reason.as_str())
        }
        None => (
            reason.and_then(|r| r.winner()),
            state.returns(),
            reason.map_or("unfinished", |r| r.as_str()),
        ),
    };
    let (a1, a2) = if slot.swapped {
        (&labels.agents[1], &labels.agents[0])
    } else {
        (&labels.agents[0], &labels.agents[1])
    };
    let mut fields = vec![
        slot.game_index.to_string(),
        slot.pair_index.to_string(),
        labels.seed.to_string(),
        G::NAME.to_string(),
        labels.variant.clone(),
        labels.options.clone(),
        a1.clone(),
        a2.clone(),
        state
            .first_mover()
            .or(stats.first_mover)
            .map_or(String::new(), |p| p.seat().to_string()),
        winner.map_or(String::new(), |p| p.seat().to_string()),
        winner.map_or(String::new(), |p| G::side_name(p).to_string()),
        returns[0].to_string(),
        returns[1].to_string(),
        end_reason.to_string(),
        state.plies().to_string(),
        stats.turns.to_string(),
        stats.choices.to_string(),
        stats.branching_sum.to_string(),
    ];
    state.extra_values(&mut fields);
    GameResult {
        slot,
        winner_seat: winner.map(Player::seat),
        winner_side: winner.map(G::side_name),
        end_reason,
        plies: state.plies(),
        turns: stats.turns,
        fields,
    }
}
