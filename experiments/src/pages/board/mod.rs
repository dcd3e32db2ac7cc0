//! Board diagrams: a position of any game drawn as a standalone SVG document, labelled in
//! words so that it reads without the notation (`cowrie show`, the replay page of
//! `cowrie replay --html`). One file per game; [`draw`] holds the shapes they share,
//! [`tables`] the 24-point board Frangieh and Julbahar share, and [`png`] rasterises a diagram.

pub mod baghchal;
pub mod bargese;
pub mod draw;
pub mod frangieh;
pub mod julbahar;
pub mod png;
pub mod tables;

use cowrie_engine::{EndReason, Game, Player};

/// A game whose positions can be drawn.
pub trait Draw: Game {
    /// The position as a standalone SVG document (UTF-8 text): the board with every piece,
    /// what is off the board or in hand, the dice or throws to play, whose turn it is, and the
    /// result once the game is over, each in words.
    fn diagram(&self) -> String;
}

/// How a finished game ended, in words: `"won by the tigers"`, `"a draw"`, `"truncated at the ply
/// cap"`, with `side` naming each player.
#[must_use]
pub fn ending(reason: EndReason, side: impl Fn(Player) -> String) -> String {
    match reason {
        EndReason::Win(p) => format!("won by {}", side(p)),
        EndReason::Draw => "a draw".to_string(),
        EndReason::Truncated => "truncated at the ply cap (no result)".to_string(),
    }
}
