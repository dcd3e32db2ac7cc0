//! The self-play harness behind the `cowrie` program: schedules, seeds, the self-play loop,
//! CSV records, statistics and the subcommands.
//!
//! The CLI is split parse ([`cli`]) → validated config ([`config`]) → run (`cmd::*`); only
//! [`registry`] maps a game's name to a generic call.

pub mod board;
pub mod cli;
pub mod cmd;
pub mod config;
pub mod digest;
pub mod entry;
pub mod equity;
pub mod game_report;
pub mod gamelog;
pub mod interrupt;
pub mod legal;
pub mod manifest;
pub mod metrics;
pub mod multiple;
pub mod output;
pub mod pairstats;
pub mod plots;
pub mod progress;
pub mod ratings;
pub mod record;
pub mod registry;
pub mod replay_page;
pub mod report;
pub mod run_index;
pub mod runfiles;
pub mod schedule;
pub mod seeds;
pub mod selfplay;
pub mod stats;
pub mod summary;
