//! cowrie's rules engines: one [`Game`] trait and the games that implement it.
//!
//! - [`game`]: players, [`ToAct`], the [`Game`] trait, its errors;
//! - [`rules`]: named variants and `key=value` options ([`RuleSet`]);
//! - [`games`]: one module per game (Baghchal, Frangieh, Julbahar, Bargese) and the shared tables engine;
//! - [`perft`](mod@perft): move-path counts; [`testing`]: the conformance suite every game passes;
//! - [`zobrist`]: compile-time Zobrist keys.
//!
//! Conventions (seats, plies and turns, truncation, returns) are in `docs/conventions.md`.

pub mod game;
pub mod games;
pub mod perft;
pub mod rules;
pub mod testing;
pub mod zobrist;

pub use game::{
    generic_random_playout, sample_outcome, ChanceChain, EndReason, Game, GameFacts, ParseError,
    PlayError, Player, ToAct,
};
pub use games::baghchal::{Baghchal, BaghchalAction, BaghchalRules};
pub use games::bargese::{Bargese, BargeseAction, BargeseRules};
pub use games::frangieh::{Frangieh, FrangiehAction, FrangiehOutcome, FrangiehRules};
pub use games::julbahar::{GameRecord, Julbahar, JulbaharAction, JulbaharOutcome, JulbaharRules};
pub use perft::perft;
pub use rules::{Choice, RuleError, RuleOption, RuleSet, Values, VariantInfo, Word};
