//! Game names to generic calls: the only place a game is picked by name.

use cowrie_agents::Evaluate;
use cowrie_engine::{Baghchal, Bargese, Frangieh, Game, Julbahar};

/// The games cowrie plays, by command-line name.
pub const GAMES: &[&str] = &[
    Baghchal::NAME,
    Frangieh::NAME,
    Julbahar::NAME,
    Bargese::NAME,
];

/// A computation generic over the game, run by [`dispatch`] for the game named on the
/// command line.
pub trait GameTask {
    /// What the task returns.
    type Output;
    /// Runs the task for game `G` (every game has an evaluation, for the agents that need one).
    ///
    /// # Errors
    /// As the task says.
    fn run<G: Game + Evaluate>(self) -> anyhow::Result<Self::Output>;
}

/// Runs `task` for the game called `name`.
///
/// # Errors
/// An unknown game name, naming it and the known ones; otherwise the task's error.
pub fn dispatch<T: GameTask>(name: &str, task: T) -> anyhow::Result<T::Output> {
    match name {
        "baghchal" => task.run::<Baghchal>(),
        "frangieh" => task.run::<Frangieh>(),
        "julbahar" => task.run::<Julbahar>(),
        "bargese" => task.run::<Bargese>(),
        _ => anyhow::bail!("unknown game '{name}' (known: {})", GAMES.join(", ")),
    }
}
