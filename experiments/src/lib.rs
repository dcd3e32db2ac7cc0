//! Self-play harness for the `cowrie` program.
