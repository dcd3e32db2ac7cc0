//! One module per subcommand.

pub mod match_cmd;
pub mod rules_cmd;
pub mod study;
