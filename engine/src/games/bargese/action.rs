//! A Bargese decision: the whole turn's result.

/// One decision: the mover's pieces after playing the turn's throws, and which opposing pieces
/// were hammered on the way. Equal actions are equal resulting positions.
///
/// Written as the four position codes (`o` off the board, `k` in the kitchen, else the track
/// index) in ascending order, then ` x` and the opponent's track indices of the hammered pieces
/// (`26,2,o,o` is written `2,26,o,o`; `2,40,o,o x57`); `pass` when nothing changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BargeseAction {
    /// The mover's pieces afterwards, ascending position codes: track index `0..=82`, then
    /// [`KITCHEN`](super::KITCHEN), then [`OFF`](super::OFF).
    pub pieces: [u8; 4],
    /// Bit `j` set: the opponent's piece `j` (in its ascending order before the action) was
    /// hammered.
    pub hammered: u8,
}
