//! Shared helpers for cowrie benchmarks.
