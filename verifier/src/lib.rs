//! An independent verifier of the Baghchal solver's databases (`docs/solver.md`).
//!
//! It shares no code with the solver or the engine: it reads the files by the layout the docs
//! describe and checks every stored value against its children's with a board of its own (25
//! cells), its own move generation for both phases and its own decoding of the position index.
//!
//! - [`board`]: the points, the lines of the alquerque pattern, the eight symmetries;
//! - [`game`]: positions, moves and the end rules;
//! - [`index`]: the tiger classes and the slot of a board;
//! - [`layout`]: the manifest and the files, the stored words and codes;
//! - [`check`]: one file against its children;
//! - [`mod@run`]: a whole database, checkpointed per file, with a summary CSV.
//!
//! What a passing check proves: a movement value with its distance that equals the best of its
//! children's, for every position, is the game's value (by induction on the distance, see
//! `docs/solver.md`); the placement phase is acyclic, so its codes follow by backward induction.

pub mod board;
pub mod check;
pub mod game;
pub mod index;
pub mod layout;
pub mod run;

pub use check::Mismatch;
pub use game::{Move, Position, Rules, Side, Status};
pub use index::Index;
pub use layout::{Code, Value};
pub use run::{run, Config, Report, Row};
