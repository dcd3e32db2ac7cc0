//! The `cowrie` command-line program.
fn main() {}
