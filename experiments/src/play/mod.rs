//! Playing a game against an agent: one game's course ([`session`]: the position, the seeded
//! chance, the agent's replies, undo, the record), what is shown of it ([`view`],
//! [`rules_table`]), and the two ways to play it — a local web page served by [`server`]
//! (the page itself is `page.html`) and the plain line mode of [`mod@line`]. `docs/play.md`
//! describes both and the page's JSON API.

pub mod line;
pub mod rules_table;
pub mod server;
pub mod session;
pub mod view;
