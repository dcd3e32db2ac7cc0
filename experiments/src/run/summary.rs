//! Match summaries computed from `games.csv` itself, so every number printed or written to
//! `summary.csv` can be recomputed from the rows.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;

use crate::run::record::RowResult;
use crate::stats::intervals::{Lengths, Tally};

pub use crate::stats::intervals::SeatResult;

/// Tallies of a match.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    /// Per seat (index 0 = seat 1).
    pub seats: [Tally; 2],
    /// Per agent spec, in order of first appearance in seat 1 of game 0 (the `--p1` agent)
    /// then seat 2; when both agents have the same spec they are told apart by the schedule.
    pub agents: [Tally; 2],
    /// Plies per game.
    pub plies: Lengths,
    /// Turns per game.
    pub turns: Lengths,
    /// Games.
    pub games: u64,
}

/// Tallies `rows`. `swapped(game_index)` says whether the `--p2` agent sat in seat 1.
#[must_use]
pub fn summarise(rows: &[RowResult], swapped: impl Fn(u64) -> bool) -> MatchSummary {
    let mut s = MatchSummary::default();
    for r in rows {
        for seat in 0..2u8 {
            let agent = usize::from(seat) ^ usize::from(swapped(r.game_index));
            for t in [&mut s.seats[usize::from(seat)], &mut s.agents[agent]] {
                t.add(r.result_of(seat + 1));
            }
        }
    }
    let plies: Vec<u32> = rows.iter().map(|r| r.plies).collect();
    let turns: Vec<u32> = rows.iter().map(|r| r.turns).collect();
    s.plies = Lengths::of(&plies);
    s.turns = Lengths::of(&turns);
    s.games = rows.len() as u64;
    s
}

/// Labels for a summary's rows.
#[derive(Clone, Debug)]
pub struct SummaryLabels {
    /// Side names of seats 1 and 2.
    pub sides: [&'static str; 2],
    /// Agent specs of `--p1` and `--p2`.
    pub agents: [String; 2],
}

/// The summary table printed on stdout.
#[must_use]
pub fn table(s: &MatchSummary, labels: &SummaryLabels, title: &str) -> String {
    let mut text = String::new();
    let _ = writeln!(text, "{title}");
    let _ = writeln!(
        text,
        "{:<30} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9}  95% Wilson interval",
        "", "games", "wins", "draws", "losses", "trunc.", "win rate"
    );
    for (label, t) in rows(s, labels) {
        let (lo, hi) = t.win_interval();
        let _ = writeln!(
            text,
            "{label:<30} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9.4}  [{lo:.4}, {hi:.4}]",
            t.n,
            t.wins,
            t.draws,
            t.losses,
            t.truncated,
            t.win_rate()
        );
    }
    let _ = writeln!(
        text,
        "plies per game: mean {:.2} (sd {:.2}), median {}, max {}; turns per game: mean {:.2}, median {}, max {}",
        s.plies.mean, s.plies.sd, s.plies.median, s.plies.max, s.turns.mean, s.turns.median, s.turns.max
    );
    let _ = writeln!(
        text,
        "win rates are fractions of all games (draws and truncations count in the denominator)"
    );
    text
}

fn rows(s: &MatchSummary, labels: &SummaryLabels) -> [(String, Tally); 4] {
    [
        (format!("seat 1 ({})", labels.sides[0]), s.seats[0]),
        (format!("seat 2 ({})", labels.sides[1]), s.seats[1]),
        (format!("--p1 {}", labels.agents[0]), s.agents[0]),
        (format!("--p2 {}", labels.agents[1]), s.agents[1]),
    ]
}

/// Writes `dir/summary.csv`: one row per seat and per agent.
///
/// # Errors
/// If the file cannot be written, naming it.
pub fn write_csv(
    dir: &Path,
    s: &MatchSummary,
    labels: &SummaryLabels,
) -> anyhow::Result<crate::run::digest::FileDigest> {
    let path = dir.join("summary.csv");
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["group", "label"];
    header.extend(Tally::CSV_COLUMNS);
    w.write_record(&header)?;
    let groups = [
        ("seat", "1".to_string()),
        ("seat", "2".to_string()),
        ("agent", format!("p1:{}", labels.agents[0])),
        ("agent", format!("p2:{}", labels.agents[1])),
    ];
    for ((group, label), (_, t)) in groups.into_iter().zip(rows(s, labels)) {
        let mut fields = vec![group.to_string(), label];
        fields.extend(t.csv_fields());
        w.write_record(&fields)?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    std::fs::write(&path, &bytes).with_context(|| format!("cannot write '{}'", path.display()))?;
    Ok(crate::run::digest::FileDigest::of(&bytes))
}
