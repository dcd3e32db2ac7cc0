//! A game as the play page reads it (`GET /api/state`): the position in notation, as text and
//! as the diagram `cowrie show` draws, the legal moves with the agent's analysis, the chance
//! outcomes and plies so far, and the result.

use cowrie_agents::Evaluate;
use serde::Serialize;

use crate::games::Report;
use crate::pages::board::Draw;
use crate::play::session::{Session, Setup};
use crate::run::selfplay::Event;

/// The agent's analysis of the legal moves.
#[derive(Debug, Serialize)]
pub struct AnalysisView {
    /// What the values are: `equity`, `solved value`, `visits`.
    pub label: &'static str,
    /// One value per legal move, in `legal`'s order, as text.
    pub values: Vec<String>,
    /// The values as numbers where they are (equities, visits), to rank by.
    pub numbers: Vec<Option<f64>>,
}

/// One chance outcome or ply.
#[derive(Debug, Serialize)]
pub struct EventView {
    /// `chance` or `ply`.
    pub kind: &'static str,
    /// The seat that played (0 for chance).
    pub seat: u8,
    /// `you`, the agent's spec, or `chance`.
    pub who: String,
    /// The outcome or the move, in the game's notation.
    pub text: String,
}

/// A game as the page reads it.
#[derive(Debug, Serialize)]
pub struct StateView {
    /// The game's id (its index among the games begun, and its record's `game_index`).
    pub game: u64,
    /// Changes made so far; a request naming an older version is refused as stale.
    pub version: u64,
    /// The game's name.
    pub game_name: &'static str,
    /// The variant.
    pub variant: String,
    /// The agent's spec.
    pub agent: String,
    /// The seed every game of this server draws from.
    pub seed: u64,
    /// The person's seat and side.
    pub human_seat: u8,
    /// The person's side's name.
    pub human_side: &'static str,
    /// The position in the game's notation (`cowrie show --position`).
    pub position: String,
    /// The position as text.
    pub text: String,
    /// The diagram `cowrie show --position` draws of the position.
    pub svg: String,
    /// Decision plies played.
    pub plies: u32,
    /// Whether the person is to act.
    pub your_turn: bool,
    /// The side to act, when someone is.
    pub side_to_act: &'static str,
    /// The legal moves in notation, in the game's order (when the person is to act).
    pub legal: Vec<String>,
    /// The agent's analysis of them, where it has one.
    pub analysis: Option<AnalysisView>,
    /// Every chance outcome and ply so far.
    pub events: Vec<EventView>,
    /// The chance outcomes since the last ply (the roll or throws to play now).
    pub rolled: Vec<String>,
    /// Whether undo has a decision to go back to.
    pub can_undo: bool,
    /// `win`, `draw`, `truncated`, a forfeit, or null while the game goes on.
    pub end_reason: Option<&'static str>,
    /// The winning seat.
    pub winner_seat: Option<u8>,
    /// The result in words.
    pub result: Option<String>,
}

impl StateView {
    /// The view of game `s`.
    ///
    /// # Errors
    /// An analysis that cannot be made (weights or a database gone).
    pub fn of<G: Evaluate + Report + Draw>(
        s: &Session<G>,
        setup: &Setup<G>,
    ) -> anyhow::Result<StateView> {
        let agent = setup.spec.to_string();
        let events: Vec<EventView> = s
            .events()
            .iter()
            .map(|e| match e {
                Event::Chance { chance } => EventView {
                    kind: "chance",
                    seat: 0,
                    who: "chance".to_string(),
                    text: chance.clone(),
                },
                Event::Ply { seat, action } => EventView {
                    kind: "ply",
                    seat: *seat,
                    who: if *seat == s.human.seat() {
                        "you".to_string()
                    } else {
                        agent.clone()
                    },
                    text: action.clone(),
                },
            })
            .collect();
        let since = events
            .iter()
            .rposition(|e| e.kind == "ply")
            .map_or(0, |i| i + 1);
        let rolled = events[since..]
            .iter()
            .filter(|e| e.kind == "chance")
            .map(|e| e.text.clone())
            .collect();
        let analysis = s.analysis(setup)?.map(|a| AnalysisView {
            label: a.label(),
            values: a.texts(),
            numbers: match &a {
                cowrie_agents::Analysis::Equity(v) => v.iter().map(|&x| Some(x)).collect(),
                cowrie_agents::Analysis::Visits(v) => {
                    v.iter().map(|&x| Some(f64::from(x))).collect()
                }
                cowrie_agents::Analysis::Solved(v) => vec![None; v.len()],
            },
        });
        let result = s.result();
        let position = s.state().notation();
        // The diagram of the position as its notation gives it, so that the page shows exactly
        // what `cowrie show --position` draws (a live state may remember more, such as the
        // opening throw, which the page lists with the other chance outcomes).
        let svg = G::from_notation(&position, s.state().rules())
            .map_or_else(|_| s.state().diagram(), |p| p.diagram());
        Ok(StateView {
            game: s.index,
            version: s.version,
            game_name: G::NAME,
            variant: setup.resolved.variant.clone(),
            agent,
            seed: setup.seed,
            human_seat: s.human.seat(),
            human_side: G::side_name(s.human),
            position,
            text: s.state().to_string(),
            svg,
            plies: s.state().plies(),
            your_turn: s.human_to_act(),
            side_to_act: s.side_to_act(),
            legal: s.legal(),
            analysis,
            events,
            rolled,
            can_undo: s.can_undo(),
            end_reason: result.map(|r| r.0),
            winner_seat: result.and_then(|r| r.1),
            result: s.result_text(setup),
        })
    }
}
