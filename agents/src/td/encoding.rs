//! A game's input encoding for the learned evaluation: its name, inputs and outputs.

/// A game's input encoding for the learned evaluation under some rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// Its name, recorded in the weights (`frangieh-tesauro-1`).
    pub name: &'static str,
    /// Inputs.
    pub inputs: usize,
    /// Outputs: 1 (win) or 5 (win, gammon and backgammon probabilities).
    pub outputs: usize,
}
