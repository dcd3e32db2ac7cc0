//! The pages wing: what cowrie draws for people to read — SVG plots ([`plots`]), board
//! diagrams ([`board`]), a recorded game's replay page ([`replay_page`]), a run directory's
//! `index.html` ([`run_index`]) and the results report, `results/README.md`
//! ([`results_report`]). Pages read rows and estimates; they never play a game.

pub mod board;
pub mod plots;
pub mod replay_page;
pub mod results_report;
pub mod run_index;
