//! The self-play harness behind the `cowrie` program, in three wings and the commands that use
//! them:
//!
//! - [`run`]: the runner — schedules, seeds, the self-play loop, the pairing runner with its
//!   checkpoints, and a run's files (rows, records, summaries, manifests);
//! - [`stats`]: the statistics — intervals, pair-clustered estimators, multiple testing,
//!   ratings, a run's metrics, Julbahar's match equity, Bargese's effect of entering first;
//! - [`pages`]: what is drawn for people — plots, board diagrams, replay pages, run indexes,
//!   the results report;
//! - [`play`]: a person against an agent, on a local web page or line by line.
//!
//! [`games`] holds what the harness knows of each game beyond its rules (its sides, its own
//! columns of `games.csv`, its facts). The command line is parsed by [`cli`] (the top-level
//! parser and the argument groups every command shares), each command's own arguments, config
//! and run live in `cmd/<name>.rs`, and only [`registry`] maps a game's name to a generic call.
//! Commands import the wings and never each other; no wing imports a command.

pub mod args;
pub mod cli;
pub mod cmd;
pub mod config;
pub mod games;
pub mod interrupt;
pub mod output;
pub mod pages;
pub mod play;
pub mod progress;
pub mod registry;
pub mod run;
pub mod stats;
