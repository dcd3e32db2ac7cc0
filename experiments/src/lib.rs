//! Self-play harness for the `cowrie` program.

pub mod legal;
