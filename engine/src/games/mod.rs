//! The games cowrie implements, one module each.

pub mod baghchal;
pub mod bargese;
