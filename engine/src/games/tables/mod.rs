//! The shared engine of the tables family (backgammon-like race games on a 24-point board):
//! the board, the dice, whole-play generation and the play notation. Frangieh and Julbahar use it; the rules in which the two differ are the fields of [`TablesParams`].
//!
//! # Point numbering
//! Each side counts the 24 points along its own track: it enters on its 24-point side (a checker
//! on the bar entering with die `d` lands on its point `25 - d`), moves towards its 1-point and
//! bears off below it. Its home board is points 1 to 6. This is GNU Backgammon's numbering. In a
//! [`Board`] each side's counts are kept in that side's numbering, with slot 0 for borne-off
//! checkers and slot 25 ([`BAR`]) for the bar; [`Direction`] maps a point of one side to the
//! other side's number for the same point.
//!
//! # Plays
//! A [`Play`] is everything a player does with one roll: up to four single-die moves (segments).
//! Two plays that leave the same position are the same action: [`generate_plays`] lists each
//! distinct resulting position once, and [`Play`] compares by its resulting-position key.
//!
//! Sources: R. Barakat, *Tawula: A Study in Arabic Folklore* (1974), pp. 12-16 for Frangieh
//! (DLP.Evidence.1769) and p. 21 for Julbahar (DLP.Evidence.1773), both as the Digital Ludeme
//! Project records them; clause ids in docs/sources.md.

mod board;
mod dedupe;
mod dice;
mod movegen;
mod moving;
mod notation;
mod options;
mod params;
mod play;
mod position_id;
mod sequences;

pub use board::{Board, BAR, OFF, STANDARD_START};
pub use dice::{roll_index, Roll, ROLLS};
pub use movegen::{generate_plays, playable_dice};
pub use notation::{format_play, format_side, parse_play, parse_side};
pub use options::{BearOff, BEAR_OFF, LARGER_DIE};
pub use params::{BearOffParams, Direction, Landing, TablesParams};
pub use play::Play;
pub use position_id::{decode_position_id, encode_position_id};
