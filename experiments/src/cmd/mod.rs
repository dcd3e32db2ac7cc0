//! One module per subcommand.

pub mod bearoff;
pub mod bench;
pub mod compare;
pub mod converge;
pub mod entry;
pub mod equity;
pub mod judge;
pub mod ladder;
pub mod legal;
pub mod match_cmd;
pub mod merge;
pub mod plan;
pub mod play;
pub mod probe;
pub mod replay;
pub mod report;
pub mod rules_cmd;
pub mod show;
pub mod solve;
pub mod study;
pub mod tournament;
pub mod train;
pub mod train_eval;
