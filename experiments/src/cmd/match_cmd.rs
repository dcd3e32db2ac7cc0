//! `cowrie match`: self-play between two agents (the pairing runner, [`crate::run::runner`],
//! on the command's arguments).
