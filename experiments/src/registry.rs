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
    /// Runs the task for game `G` (every game has an evaluation, for the agents that need one,
    /// a diagram, and what the harness reports of it).
    ///
    /// # Errors
    /// As the task says.
    fn run<G: Game + Evaluate + crate::pages::board::Draw + crate::games::Report>(
        self,
    ) -> anyhow::Result<Self::Output>;
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
        _ => anyhow::bail!(
            "unknown game {} (known: {})",
            crate::args::quote(name),
            GAMES.join(", ")
        ),
    }
}

struct ResolveRules<'a> {
    variant: Option<&'a str>,
    options: &'a [String],
}

impl GameTask for ResolveRules<'_> {
    type Output = (String, Vec<(String, String)>);
    fn run<G: Game + Evaluate>(self) -> anyhow::Result<Self::Output> {
        use cowrie_engine::RuleSet;
        let rules = G::Rules::resolve(self.variant, self.options)?;
        let variant = self
            .variant
            .map_or_else(|| G::Rules::variants()[0].name.to_string(), str::to_string);
        let resolved = rules
            .resolved()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        Ok((variant, resolved))
    }
}

/// The variant name (the game's default when `variant` is `None`) and every rule option's
/// resolved `(key, value)` for game `game`, `variant` and the `key=value` overrides `options`.
///
/// # Errors
/// An unknown game, variant or option, or a bad value, naming it.
pub fn resolve_rules(
    game: &str,
    variant: Option<&str>,
    options: &[String],
) -> anyhow::Result<(String, Vec<(String, String)>)> {
    dispatch(game, ResolveRules { variant, options })
}

struct FactsOf;

impl GameTask for FactsOf {
    type Output = crate::games::Facts;
    fn run<G: Game + crate::games::Report>(self) -> anyhow::Result<Self::Output> {
        Ok(crate::games::Facts::of::<G>())
    }
}

/// The facts of the game called `name` (whether its first mover is fixed, the note its
/// comparisons print).
///
/// # Errors
/// An unknown game name.
pub fn facts(name: &str) -> anyhow::Result<crate::games::Facts> {
    dispatch(name, FactsOf)
}
