//! The statistics wing: every estimate cowrie prints or writes, computed from a run's rows.
//!
//! [`intervals`] (proportions with Wilson intervals, game lengths), [`clustered`] (rates and
//! differences clustered by seat-swapped pair or match), [`multiple`] (Holm and
//! Benjamini-Hochberg adjustments), [`ratings`] (Elo and pentanomial scores), [`metrics`] (the
//! metrics of a self-play run and the hypotheses a comparison declares), [`match_equity`]
//! (Julbahar's match-equity model) and [`entry_effect`] (Bargese's effect of entering first).
//! Nothing here reads the command line or writes a file. docs/metrics.md gives the formulas.

pub mod clustered;
pub mod entry_effect;
pub mod intervals;
pub mod match_equity;
pub mod metrics;
pub mod multiple;
pub mod ratings;
