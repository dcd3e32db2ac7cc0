//! Baghchal solved: databases of the movement phase's perfect-play values by retrograde
//! analysis, one layer per number of goats on the board, and of the placement phase's by
//! backward induction, one half per number of goats placed and side to move.
//!
//! - [`symmetry`]: the board's eight symmetries; [`combin`]: ranks of point sets;
//! - [`index`]: the perfect hash of a layer's boards under the symmetries;
//! - [`moves`]: movement-phase moves and predecessors on bitboards;
//! - [`retrograde`]: the solve of one layer; [`layer`]: a solved layer;
//! - [`value`]: win, loss or draw with the distance, as stored;
//! - [`rules`]: the options a database is solved under;
//! - [`children`]: a position's value from its children's; [`verify`]: the consistency check;
//!   [`burnside`]: position counts by Burnside's lemma; [`search_check`]: a minimax proof of
//!   short wins and losses on the engine's game;
//! - [`summary`]: per-layer counts; [`db`]: databases on disk, checkpointed per layer;
//!   [`digest`]: the length and SHA-256 every manifest records of a file;
//! - [`solve`]: a whole solve, layer by layer, resumable;
//! - [`packed`]: two-bit values; [`placement`]: the placement phase's halves by backward
//!   induction; [`placement_db`]: its files, its resumable solve and a reader;
//!   [`placement_check`]: sampled positions against their children through the engine;
//! - [`units`]: a placement half solved in independent units and joined, for a scheduler.
//!
//! `docs/solver.md` describes the method, the layout and the verification.

pub mod bounded;
pub mod build;
pub mod burnside;
pub mod children;
pub mod combin;
pub mod db;
pub mod digest;
pub mod index;
pub mod layer;
pub mod moves;
pub mod packed;
pub mod placement;
pub mod placement_check;
pub mod placement_db;
pub mod retrograde;
pub mod rules;
pub mod search_check;
pub mod solve;
pub mod summary;
pub mod symmetry;
pub mod units;
pub mod value;
pub mod verify;

pub use build::Build;
pub use db::{CommandRecord, Database, DbError, Manifest};
pub use digest::FileDigest;
pub use index::{Canonical, Index};
pub use layer::{Layer, Side};
pub use retrograde::{solve_layer, Progress, SolveReport};
pub use rules::{RulesError, SolveRules};
pub use value::Value;
