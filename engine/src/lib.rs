//! cowrie's rules engines: one [`Game`] trait and the games that implement it.
//!
//! - [`game`]: players, [`ToAct`], the [`Game`] trait, its errors;
//! - [`rules`]: named variants and `key=value` options ([`RuleSet`]);
//! - [`games`]: one module per game (Baghchal, Frangieh, Julbahar, Bargese) and the shared tables engine;
//! - [`perft`](mod@perft): move-path counts; [`testing`]: the conformance suite every game passes;
//! - [`zobrist`]: compile-time Zobrist keys.
//!
//! Conventions (seats, plies and turns, truncation, returns) are in `docs/conventions.md`.
//!
//! # Examples
//!
//! A uniformly random game of each game to its end, through the checked API: decision nodes
//! offer their legal actions, chance nodes their outcome distribution, and a terminal state its
//! returns, one per player, zero-sum.
//!
//! ```
//! use cowrie_engine::{sample_outcome, Baghchal, Bargese, Frangieh, Game, Julbahar, RuleSet, ToAct};
//! use rand::{Rng, SeedableRng};
//!
//! fn random_game<G: Game>(seed: u64) -> G {
//!     let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
//!     let mut state = G::new(&G::Rules::default());
//!     let (mut actions, mut outcomes) = (Vec::new(), Vec::new());
//!     loop {
//!         match state.to_act() {
//!             ToAct::Terminal(_) => return state,
//!             ToAct::Chance => {
//!                 state.chance_outcomes(&mut outcomes);
//!                 let outcome = sample_outcome(&outcomes, &mut rng);
//!                 state.try_apply_outcome(outcome).expect("a listed outcome applies");
//!             }
//!             ToAct::Decision(_) => {
//!                 state.legal_actions(&mut actions);
//!                 let action = actions[rng.gen_range(0..actions.len())];
//!                 state.try_play(action).expect("a legal action plays");
//!             }
//!         }
//!     }
//! }
//!
//! let baghchal: Baghchal = random_game(1);
//! let frangieh: Frangieh = random_game(1);
//! let julbahar: Julbahar = random_game(1);
//! let bargese: Bargese = random_game(1);
//! for returns in [baghchal.returns(), frangieh.returns(), julbahar.returns(), bargese.returns()] {
//!     assert_eq!(returns[0] + returns[1], 0.0);
//! }
//! // Frangieh has no draws: someone bore off all fifteen checkers.
//! assert_ne!(frangieh.returns()[0], 0.0);
//! // The position is written in the game's notation and reads back to the same state.
//! let text = frangieh.notation();
//! assert_eq!(Frangieh::from_notation(&text, frangieh.rules()).unwrap().hash(), frangieh.hash());
//! ```

pub mod game;
pub mod games;
pub mod perft;
pub mod quote;
pub mod rules;
pub mod testing;
pub mod zobrist;

pub use game::{
    generic_random_playout, sample_outcome, ChanceChain, ChanceNode, EndReason, Game, GameFacts,
    ParseError, PlayError, Player, ToAct,
};
pub use games::baghchal::{Baghchal, BaghchalAction, BaghchalRules};
pub use games::bargese::{Bargese, BargeseAction, BargeseOutcome, BargeseRules};
pub use games::frangieh::{Frangieh, FrangiehAction, FrangiehOutcome, FrangiehRules};
pub use games::julbahar::{GameRecord, Julbahar, JulbaharAction, JulbaharOutcome, JulbaharRules};
/// Each game's module at the crate root (`cowrie_engine::bargese::KITCHEN`), for what the flat
/// re-exports above leave out: board constants, phases, the tables board and its Position IDs.
pub use games::{baghchal, bargese, frangieh, julbahar, tables};
pub use perft::perft;
pub use quote::{clip, clip_quoted, one_line, quote_input};
pub use rules::{Choice, RuleError, RuleOption, RuleSet, Values, VariantInfo, Word};
