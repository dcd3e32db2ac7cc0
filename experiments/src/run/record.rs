//! `games.csv` and `subgames.csv`: the rows as serde structs, written with
//! [`csv::Writer::serialize`] and read back by deserialising into the same structs.
//!
//! A `games.csv` row is the contract's columns ([`GameRow`]: `game_index, pair_index, seed,
//! game, variant, options, agent_p1, agent_p2, first_mover_seat, winner_seat, winner_side,
//! points_p1, points_p2, end_reason, plies, turns, choices, branching_sum`, docs/conventions.md)
//! then the game's own ([`Report::Columns`]). Points are the game's returns per seat (win
//! +points, loss -points, draw or truncation 0). A game an external agent forfeits ends where
//! it stopped, with `end_reason` `forfeit-crash`, `forfeit-timeout` or `forfeit-illegal`, the
//! opponent as the winner and one point won and lost. No wall-clock time appears, so the file
//! is a pure function of the command's arguments (and of the external programs, if any).
//!
//! A `subgames.csv` row (games whose unit of play is a match of games) is the match's
//! [`SubgameKey`] then the game's [`Report::Subgame`].

use std::fs::File;
use std::io::Write as _;
use std::path::Path;

use anyhow::Context;
use cowrie_agents::ForfeitReason;
use cowrie_engine::EndReason;
use serde::{Deserialize, Serialize, Serializer};

use crate::games::{seat, Report, RowPart};
use crate::run::schedule::Slot;
use crate::run::selfplay::PlayStats;

/// How a row's game ended: the `end_reason` column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// Won by the rules.
    Win,
    /// A draw by the rules.
    Draw,
    /// Truncated by the ply cap.
    Truncated,
    /// The agent of the losing seat (an external program) crashed.
    ForfeitCrash,
    /// The agent of the losing seat ran out of time.
    ForfeitTimeout,
    /// The agent of the losing seat answered an illegal action.
    ForfeitIllegal,
    /// The game did not end (a row written before its end; never by a run).
    #[default]
    Unfinished,
}

impl End {
    /// The end of a game the rules ended (or did not).
    #[must_use]
    pub fn of(reason: Option<EndReason>) -> End {
        match reason {
            Some(EndReason::Win(_)) => End::Win,
            Some(EndReason::Draw) => End::Draw,
            Some(EndReason::Truncated) => End::Truncated,
            None => End::Unfinished,
        }
    }

    /// The end of a forfeited game.
    #[must_use]
    pub fn forfeit(reason: ForfeitReason) -> End {
        match reason {
            ForfeitReason::Crash => End::ForfeitCrash,
            ForfeitReason::Timeout => End::ForfeitTimeout,
            ForfeitReason::Illegal => End::ForfeitIllegal,
        }
    }

    /// Whether the game was decided, so that its `winner_seat` won: by the rules or by the other
    /// agent's forfeit.
    #[must_use]
    pub fn decided(self) -> bool {
        matches!(
            self,
            End::Win | End::ForfeitCrash | End::ForfeitTimeout | End::ForfeitIllegal
        )
    }

    /// The column's text (`win`, `forfeit-crash`, ...).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            End::Win => "win",
            End::Draw => "draw",
            End::Truncated => "truncated",
            End::ForfeitCrash => ForfeitReason::Crash.as_str(),
            End::ForfeitTimeout => ForfeitReason::Timeout.as_str(),
            End::ForfeitIllegal => ForfeitReason::Illegal.as_str(),
            End::Unfinished => "unfinished",
        }
    }
}

/// How a game ended, as its row records it: one answer to "did seat s win".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Decided: the seat (1 or 2) won, by the rules or by the other agent's forfeit.
    Won(u8),
    /// A draw.
    Draw,
    /// No result: truncated by the ply cap, or unfinished.
    Unresolved,
}

/// Points as the CSV writes them: the shortest text of the number (`1`, `-3`, `0`).
fn shortest<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(x)
}

/// The contract's columns of a `games.csv` row, in order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's index in the run's schedule.
    pub game_index: u64,
    /// Its seat-swapped pair.
    pub pair_index: u64,
    /// The run seed.
    pub seed: u64,
    /// The game's name.
    pub game: String,
    /// The variant name.
    pub variant: String,
    /// The `--option` overrides, `;`-separated, as given.
    pub options: String,
    /// The spec of the agent in seat 1 in this game.
    pub agent_p1: String,
    /// The spec of the agent in seat 2 in this game.
    pub agent_p2: String,
    /// The seat that moved first (the game's first decision, or the rules' starter).
    pub first_mover_seat: Option<u8>,
    /// The winning seat, if any.
    pub winner_seat: Option<u8>,
    /// The winning side's name, if any.
    pub winner_side: Option<String>,
    /// Seat 1's returns.
    #[serde(serialize_with = "shortest")]
    pub points_p1: f64,
    /// Seat 2's returns.
    #[serde(serialize_with = "shortest")]
    pub points_p2: f64,
    /// How the game ended.
    pub end_reason: End,
    /// Decision plies.
    pub plies: u32,
    /// Turns.
    pub turns: u32,
    /// Decision nodes with more than one legal action.
    pub choices: u64,
    /// Legal actions summed over all decision nodes.
    pub branching_sum: u64,
}

impl GameRow {
    /// How the game ended: a draw; a decided game ([`End::decided`]) with its `winner_seat`;
    /// anything else has no result.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        match (self.end_reason, self.winner_seat) {
            (End::Draw, _) => Outcome::Draw,
            (e, Some(w)) if e.decided() => Outcome::Won(w),
            _ => Outcome::Unresolved,
        }
    }

    /// Seat `seat`'s (1 or 2) result in the game.
    #[must_use]
    pub fn result_of(&self, seat: u8) -> crate::stats::intervals::SeatResult {
        self.row_result().result_of(seat)
    }

    /// What a run's summary and length plot read of this row.
    #[must_use]
    pub fn row_result(&self) -> RowResult {
        RowResult {
            game_index: self.game_index,
            outcome: self.outcome(),
            plies: self.plies,
            turns: self.turns,
        }
    }
}

/// What a run's summary and length plot need of one row of `games.csv`: a few bytes a game,
/// kept while a run plays instead of reading the whole file back at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowResult {
    /// The game's index in the run's schedule.
    pub game_index: u64,
    /// How it ended.
    pub outcome: Outcome,
    /// Decision plies.
    pub plies: u32,
    /// Turns.
    pub turns: u32,
}

impl RowResult {
    /// Seat `seat`'s (1 or 2) result, as [`GameRow::result_of`].
    #[must_use]
    pub fn result_of(&self, seat: u8) -> crate::stats::intervals::SeatResult {
        use crate::stats::intervals::SeatResult;
        match self.outcome {
            Outcome::Won(w) if w == seat => SeatResult::Win,
            Outcome::Won(_) => SeatResult::Loss,
            Outcome::Draw => SeatResult::Draw,
            Outcome::Unresolved => SeatResult::Unresolved,
        }
    }
}

/// The header line of a CSV whose rows are `T`, as the csv writer writes it: the field names
/// of `T`'s structs, in order.
///
/// # Panics
/// Never for the row types here (structs of named scalar fields).
#[must_use]
pub fn header_of<T: Serialize + Default>() -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(T::default())
        .expect("a row type serialises with its header");
    let bytes = w
        .into_inner()
        .unwrap_or_else(|_| unreachable!("writing CSV to memory cannot fail"));
    let end = bytes.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
    bytes[..end].to_vec()
}

/// A CSV writer at `path` (created or replaced) whose header, written already, is that of rows
/// of type `T`; rows follow with [`csv::Writer::serialize`].
///
/// # Errors
/// An unwritable file, naming it.
pub fn writer_for<T: Serialize + Default>(path: &Path) -> anyhow::Result<csv::Writer<File>> {
    let mut file =
        File::create(path).with_context(|| format!("cannot write '{}'", path.display()))?;
    file.write_all(&header_of::<T>())
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    Ok(csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(file))
}

/// A full `games.csv` row of game `G`.
pub type FullRow<G> = (GameRow, <G as Report>::Columns);

/// A full `subgames.csv` row of game `G`.
pub type SubgameRow<G> = (SubgameKey, <G as Report>::Subgame);

/// The header line of `games.csv` for game `G`.
#[must_use]
pub fn header<G: Report>() -> Vec<u8> {
    header_of::<FullRow<G>>()
}

/// The header line of `subgames.csv` for game `G`.
#[must_use]
pub fn subgame_header<G: Report>() -> Vec<u8> {
    header_of::<SubgameRow<G>>()
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

/// The match's columns at the start of each `subgames.csv` row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubgameKey {
    /// The match's `game_index`.
    pub game_index: u64,
    /// The match's `pair_index`.
    pub pair_index: u64,
    /// The run seed.
    pub seed: u64,
}

/// One finished game: its `games.csv` row and its `subgames.csv` rows.
#[derive(Debug)]
pub struct GameResult<G: Report> {
    /// The contract's columns.
    pub row: GameRow,
    /// The game's own columns.
    pub columns: G::Columns,
    /// The games inside the match (empty unless [`Report::PLAYS_MATCHES`]).
    pub subgames: Vec<G::Subgame>,
}

impl<G: Report> GameResult<G> {
    /// The `games.csv` line, with its newline.
    #[must_use]
    pub fn csv_line(&self) -> Vec<u8> {
        lines(std::iter::once((&self.row, &self.columns)))
    }

    /// The `subgames.csv` lines, each with its newline.
    #[must_use]
    pub fn subgame_lines(&self) -> Vec<u8> {
        let key = SubgameKey {
            game_index: self.row.game_index,
            pair_index: self.row.pair_index,
            seed: self.row.seed,
        };
        lines(self.subgames.iter().map(|g| (key, g)))
    }
}

/// `rows` as CSV lines without a header.
fn lines<T: Serialize>(rows: impl Iterator<Item = T>) -> Vec<u8> {
    // A game's line is short: the writer's own buffer is sized for it, not the default 8 KiB,
    // since a writer is made per finished game.
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .buffer_capacity(256)
        .from_writer(Vec::with_capacity(256));
    for r in rows {
        w.serialize(r).expect("writing CSV to memory cannot fail");
    }
    w.into_inner()
        .unwrap_or_else(|_| unreachable!("writing CSV to memory cannot fail"))
}

/// Builds the rows of a finished game.
#[must_use]
pub fn result<G: Report>(
    slot: Slot,
    labels: &MatchLabels,
    state: &G,
    stats: &PlayStats,
) -> GameResult<G> {
    let reason = state.end_reason();
    let (winner, returns, end) = match &stats.forfeit {
        Some((loser, f)) => {
            let mut r = [1.0; 2];
            r[loser.index()] = -1.0;
            (Some(loser.opponent()), r, End::forfeit(f.reason))
        }
        None => (
            reason.and_then(EndReason::winner),
            state.returns(),
            End::of(reason),
        ),
    };
    let (a1, a2) = if slot.swapped {
        (&labels.agents[1], &labels.agents[0])
    } else {
        (&labels.agents[0], &labels.agents[1])
    };
    let row = GameRow {
        game_index: slot.game_index,
        pair_index: slot.pair_index,
        seed: labels.seed,
        game: G::NAME.to_string(),
        variant: labels.variant.clone(),
        options: labels.options.clone(),
        agent_p1: a1.clone(),
        agent_p2: a2.clone(),
        first_mover_seat: seat(state.first_mover(stats.first_mover)),
        winner_seat: seat(winner),
        winner_side: winner.map(|p| G::side_name(p).to_string()),
        points_p1: returns[0],
        points_p2: returns[1],
        end_reason: end,
        plies: state.plies(),
        turns: stats.turns,
        choices: u64::from(stats.choices),
        branching_sum: stats.branching_sum,
    };
    GameResult {
        row,
        columns: state.columns(),
        subgames: state.subgames(),
    }
}

/// Reads every row of the CSV at `path` as `T`, after checking that its header is `T`'s.
fn read_exact<T: RowPart>(path: &Path, header: &[u8]) -> anyhow::Result<Vec<T>> {
    let mut r = csv::Reader::from_path(path)
        .with_context(|| format!("cannot read '{}'", path.display()))?;
    let found = r
        .byte_headers()
        .with_context(|| format!("cannot read '{}'", path.display()))?
        .clone();
    let want = csv::Reader::from_reader(header).byte_headers()?.clone();
    if found != want {
        // The fields joined by commas, as the file's first line writes them (a record's
        // `as_slice` holds the fields without their delimiters).
        let line = |h: &csv::ByteRecord| {
            h.iter()
                .map(String::from_utf8_lossy)
                .collect::<Vec<_>>()
                .join(",")
        };
        anyhow::bail!(
            "'{}' has the header {}, not '{}'",
            path.display(),
            crate::args::quote(&line(&found)),
            line(&want)
        );
    }
    let mut rows = Vec::new();
    for (i, rec) in r.byte_records().enumerate() {
        let rec = rec.with_context(|| format!("'{}' row {}", path.display(), i + 1))?;
        rows.push(
            rec.deserialize(None)
                .with_context(|| format!("'{}' row {}", path.display(), i + 1))?,
        );
    }
    Ok(rows)
}

/// Reads the rows of game `G`'s `games.csv`, its own columns typed.
///
/// # Errors
/// An unreadable file, another game's header, or a field of the wrong type, naming the file.
pub fn read_games<G: Report>(path: &Path) -> anyhow::Result<Vec<FullRow<G>>> {
    read_exact(path, &header::<G>())
}

/// Reads the rows of game `G`'s `subgames.csv`.
///
/// # Errors
/// An unreadable file, another header, or a field of the wrong type, naming the file.
pub fn read_subgames<G: Report>(path: &Path) -> anyhow::Result<Vec<SubgameRow<G>>> {
    read_exact(path, &subgame_header::<G>())
}

/// Reads the contract's columns of every row of a `games.csv` of any game, by their names
/// (the game's own columns, and any before or after them, are skipped).
///
/// # Errors
/// An unreadable file, a missing contract column or a field of the wrong type, naming the file.
pub fn read_rows(path: &Path) -> anyhow::Result<Vec<GameRow>> {
    read_named(path)
}

/// Reads every row of the CSV at `path` as `T`, each field by its column's name (columns `T`
/// does not name are skipped).
///
/// # Errors
/// An unreadable file, a missing column or a field of the wrong type, naming the file.
pub fn read_named<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<Vec<T>> {
    let mut r = csv::Reader::from_path(path)
        .with_context(|| format!("cannot read '{}'", path.display()))?;
    let mut rows = Vec::new();
    for (i, rec) in r.deserialize().enumerate() {
        rows.push(rec.with_context(|| format!("'{}' row {}", path.display(), i + 1))?);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use cowrie_engine::{Baghchal, Bargese, Frangieh, Julbahar};

    use super::*;

    const CONTRACT: &str = "game_index,pair_index,seed,game,variant,options,agent_p1,agent_p2,\
        first_mover_seat,winner_seat,winner_side,points_p1,points_p2,end_reason,plies,turns,\
        choices,branching_sum";

    fn text(bytes: &[u8]) -> &str {
        std::str::from_utf8(bytes).unwrap()
    }

    #[test]
    fn headers_are_the_contract_then_the_games_own_columns() {
        let h = |own: &str| format!("{CONTRACT},{own}\n");
        assert_eq!(
            text(&header::<Baghchal>()),
            h("goats_captured,goats_in_hand")
        );
        assert_eq!(
            text(&header::<Frangieh>()),
            h("points,win_type,opening_winner_seat,opening_dice,pips_p1,pips_p2,off_p1,off_p2,bar_p1,bar_p2")
        );
        assert_eq!(text(&header::<Julbahar>()), h("score_p1,score_p2,games"));
        assert_eq!(
            text(&header::<Bargese>()),
            h("shells_winner,first_entered,kitchen_p1,kitchen_p2,hammerings_p1,hammerings_p2")
        );
        assert_eq!(
            text(&subgame_header::<Julbahar>()),
            "game_index,pair_index,seed,game_number,first_mover_seat,bore_off_seat,points_p1,\
             points_p2,plies,turns\n"
        );
    }

    #[test]
    fn end_reasons_are_written_as_their_names() {
        for e in [
            End::Win,
            End::Draw,
            End::Truncated,
            End::ForfeitCrash,
            End::ForfeitTimeout,
            End::ForfeitIllegal,
            End::Unfinished,
        ] {
            let line = lines(std::iter::once((e,)));
            assert_eq!(text(&line), format!("{}\n", e.as_str()));
        }
        assert_eq!(End::ForfeitTimeout.as_str(), "forfeit-timeout");
    }

    #[test]
    fn a_row_reads_back_as_written_and_answers_who_won() {
        let row = GameRow {
            game_index: 3,
            pair_index: 1,
            seed: 9,
            game: "bargese".into(),
            variant: "finkel-2002".into(),
            options: "timing=after-each;p=0.4".into(),
            agent_p1: "mcts:iterations=5,c=1.4".into(),
            agent_p2: "random".into(),
            first_mover_seat: Some(2),
            winner_seat: Some(2),
            winner_side: Some("north".into()),
            points_p1: -1.0,
            points_p2: 1.0,
            end_reason: End::ForfeitCrash,
            plies: 17,
            turns: 9,
            choices: 4,
            branching_sum: 30,
        };
        let columns = crate::games::BargeseColumns {
            shells_winner: None,
            first_entered: Some(1),
            kitchen_p1: 0,
            kitchen_p2: 2,
            hammerings_p1: 1,
            hammerings_p2: 0,
        };
        let line = lines(std::iter::once((&row, &columns)));
        assert_eq!(
            text(&line),
            "3,1,9,bargese,finkel-2002,timing=after-each;p=0.4,\"mcts:iterations=5,c=1.4\",random,\
             2,2,north,-1,1,forfeit-crash,17,9,4,30,,1,0,2,1,0\n"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        let mut bytes = header::<Bargese>();
        bytes.extend_from_slice(&line);
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(
            read_games::<Bargese>(&path).unwrap(),
            vec![(row.clone(), columns)]
        );
        assert_eq!(read_rows(&path).unwrap(), vec![row.clone()]);
        // A forfeit is decided: the other seat won.
        assert_eq!(row.outcome(), Outcome::Won(2));
        assert_eq!(row.result_of(1), crate::stats::intervals::SeatResult::Loss);
        // Another game's rows are refused, naming the file.
        let err = read_games::<Baghchal>(&path).unwrap_err().to_string();
        assert!(err.contains("games.csv") && err.contains("header"), "{err}");
        let truncated = GameRow {
            end_reason: End::Truncated,
            winner_seat: None,
            ..row
        };
        assert_eq!(truncated.outcome(), Outcome::Unresolved);
    }
}
