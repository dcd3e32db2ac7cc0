//! The [`Agent`] trait every agent implements, and the [`Forfeit`] an agent that can no longer
//! play returns instead of a move.

use cowrie_engine::Game;

/// An agent: chooses an action at a decision node.
pub trait Agent<G: Game>: Send {
    /// Chooses one of `legal` (the state's legal actions in the game's order, never empty).
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action;

    /// Chooses as [`Agent::choose`] does, or forfeits the game (an external program that
    /// crashed, timed out or answered an illegal action). The runner calls this; every agent
    /// but the external one always returns `Ok`.
    ///
    /// # Errors
    /// The [`Forfeit`], once the agent can no longer play this game.
    fn try_choose(&mut self, state: &G, legal: &[G::Action]) -> Result<G::Action, Forfeit> {
        Ok(self.choose(state, legal))
    }
}

/// Why an agent forfeited a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForfeitReason {
    /// The program could not be started, exited, or closed its output.
    Crash,
    /// No answer within the per-move timeout.
    Timeout,
    /// An answer that is not one of the legal actions (or not a well-formed answer line).
    Illegal,
}

impl ForfeitReason {
    /// The `end_reason` written to `games.csv`: `forfeit-crash`, `forfeit-timeout` or
    /// `forfeit-illegal`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ForfeitReason::Crash => "forfeit-crash",
            ForfeitReason::Timeout => "forfeit-timeout",
            ForfeitReason::Illegal => "forfeit-illegal",
        }
    }
}

/// A forfeited game: why, and a one-line account of what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The kind of failure.
    pub reason: ForfeitReason,
    /// What happened, in one line.
    pub detail: String,
}
