//! The games cowrie implements, one module each, and the engines they share.

pub mod baghchal;
pub mod bargese;
pub mod frangieh;
pub mod julbahar;
pub mod tables;
