//! A game's static evaluation ([`Evaluate`]), the one trait every agent reads a game through
//! beyond the game API: the evaluation itself, and the hooks of the learned evaluation
//! ([`crate::td`]) and of perfect play ([`crate::perfect`]). Each game's implementation lives
//! in its own file under [`crate::heuristic`].

use std::sync::Arc;

use cowrie_engine::{Game, Player, ToAct};

use crate::perfect::oracle::Oracle;
use crate::td::encoding::Encoding;
use crate::td::net::{Changes, Inputs};

/// A game with a static evaluation: what the heuristic agent, heuristic rollouts, MCTS cutoffs
/// and expectimax leaves score positions with.
pub trait Evaluate: Game {
    /// The value of this state from `player`'s view.
    ///
    /// Contract: in `[-1, 1]` at non-terminal states (decision or chance nodes), antisymmetric
    /// (`evaluate(p) == -evaluate(p.opponent())`), and at terminal states exactly
    /// `returns()[player.index()]` (which may reach `±facts.max_points`). Expectimax's Star1 and
    /// Star2 pruning rely on these bounds.
    fn evaluate(&self, player: Player) -> f64;

    /// The dice or throw to be played at this decision node, in the game's outcome notation
    /// (`6-1`), for the external-agent protocol; `None` where the game has none to tell.
    fn roll_text(&self) -> Option<String> {
        None
    }

    /// The learned evaluation's input encoding under `rules`, if the game has one (`td`
    /// agents and `cowrie train` refuse the others).
    fn td_encoding(rules: &Self::Rules) -> Option<Encoding> {
        let _ = rules;
        None
    }

    /// Encodes this non-terminal state for the learned evaluation, from the view of the
    /// player it returns (the player to act); `None` where [`Evaluate::td_encoding`] is.
    fn td_inputs(&self, inputs: &mut Inputs) -> Option<Player> {
        let _ = inputs;
        None
    }

    /// Pushes onto `changes` the inputs where this non-terminal state's encoding
    /// ([`Evaluate::td_inputs`]) differs from non-terminal `reference`'s, in increasing input
    /// order, each with this state's value minus the reference's, and returns the player to
    /// act, the view both take; `None` (nothing pushed) where the game does not compute them
    /// (the default) or the two take different views: the caller then compares the encodings.
    fn td_changes(&self, reference: &Self, changes: &mut Changes) -> Option<Player> {
        let _ = (reference, changes);
        None
    }

    /// The bear-off race this state is, for an exact evaluation from the one-sided bear-off
    /// database ([`crate::bearoff`]): `Some` where the side to move is about to roll, both sides
    /// are wholly in their home boards and the value at stake is this game's result; `None`
    /// elsewhere and in games without one (the default).
    fn bearoff_race(&self) -> Option<crate::bearoff::Race> {
        None
    }

    /// The tables rules a one-sided bear-off database ([`crate::bearoff::Database`]) of this
    /// game under `rules` is built with; `None` for games without one (the default).
    fn bearoff_rules(rules: &Self::Rules) -> Option<cowrie_engine::games::tables::TablesParams> {
        let _ = rules;
        None
    }

    /// The solved database in `dir` for the `perfect` agent. Games without a solver refuse
    /// (the default).
    ///
    /// # Errors
    /// The reason in words: no solver for the game, no database in `dir`.
    fn perfect_oracle(dir: &std::path::Path) -> Result<Arc<dyn Oracle<Self>>, String> {
        let _ = dir;
        Err(format!(
            "{} has no solver; perfect play is offered for baghchal",
            Self::NAME
        ))
    }
}

/// The value of `state` for `player`: the exact returns at a terminal state (0 for a draw or a
/// truncation), otherwise the evaluation.
#[inline]
pub fn leaf_value<G: Evaluate>(state: &G, player: Player) -> f64 {
    match state.to_act() {
        ToAct::Terminal(_) => state.returns()[player.index()],
        _ => state.evaluate(player),
    }
}

/// The largest absolute value [`leaf_value`] can take in `state`'s game: the bound Star1 and
/// Star2 pruning use.
#[must_use]
pub fn value_bound<G: Game>(state: &G) -> f64 {
    f64::from(G::facts(state.rules()).max_points.max(1))
}
