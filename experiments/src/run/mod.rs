//! The runner's wing: how games are scheduled, seeded, played and written to disk.
//!
//! A run is a pure function of its arguments and seed. [`schedule`] orders its games (in
//! seat-swapped pairs), [`seeds`] derives each game's chance and agent streams, [`selfplay`]
//! plays one game, [`runner`] plays a whole run in parallel with checkpoints and `--resume`,
//! and the rest are its files: [`record`] (`games.csv`, `subgames.csv`), [`gamelog`]
//! (`records.jsonl`), [`summary`] (`summary.csv`), [`manifest`] and [`digest`] (what the
//! manifest vouches for), [`provenance`] (the build and the files the agents read), [`runfiles`] (starting or resuming them), and [`outputs`] (the check
//! that no output overwrites an input or another run).

pub mod comparison;
pub mod digest;
pub mod gamelog;
pub mod manifest;
pub mod outputs;
pub mod pairings;
pub mod provenance;
pub mod record;
pub mod runfiles;
pub mod runner;
pub mod schedule;
pub mod seeds;
pub mod selfplay;
pub mod summary;
