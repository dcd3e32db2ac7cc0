//! Plays one game between two agents: the self-play loop, generic over the game.

use cowrie_agents::{Agent, Forfeit};
use cowrie_engine::{sample_outcome, Game, Player, ToAct};

use crate::run::seeds::Dice;

/// Counts gathered while a game is played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayStats {
    /// The player at the first decision node.
    pub first_mover: Option<Player>,
    /// Turns: maximal stretches of consecutive decision plies by one player.
    pub turns: u32,
    /// Decision nodes with more than one legal action.
    pub choices: u32,
    /// Legal actions summed over all decision nodes.
    pub branching_sum: u64,
    /// The player who forfeited the game (an external agent that crashed, timed out or
    /// answered an illegal action) and why; the game stops at that decision.
    pub forfeit: Option<(Player, Forfeit)>,
    /// A 64-bit digest of the game's course (each chance outcome's and each action's place in
    /// the listed outcomes or legal actions): two games with the same course have the same
    /// fingerprint, so a run counts its distinct games by it.
    pub fingerprint: u64,
}

/// The fingerprint after one more event: `kind` 0 for a chance outcome, 1 for an action, and
/// its place in the list.
fn fold(fingerprint: u64, kind: u64, place: usize) -> u64 {
    cowrie_engine::zobrist::splitmix64(fingerprint ^ (kind << 32 | place as u64)).1
}

/// Reusable buffers for [`play`], one set per worker thread.
#[derive(Debug)]
pub struct Buffers<G: Game> {
    actions: Vec<G::Action>,
    outcomes: Vec<(G::Outcome, f64)>,
}

impl<G: Game> Default for Buffers<G> {
    fn default() -> Self {
        Buffers {
            actions: Vec::with_capacity(64),
            outcomes: Vec::with_capacity(64),
        }
    }
}

/// One event of a game, as a game record keeps it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum Event {
    /// A chance outcome, in the game's outcome text.
    Chance {
        /// The outcome's text (`Game::outcome_to_string`).
        chance: String,
    },
    /// A ply: the seat that acted and the action in the game's notation.
    Ply {
        /// Seat 1 or 2.
        seat: u8,
        /// The action's text (`Game::action_to_string`).
        action: String,
    },
}

/// Plays a game from the start position under `rules` to its end (a win, a draw, or the
/// rules' ply cap), or to a forfeit (see [`PlayStats::forfeit`]). `agents[i]` plays player `i`;
/// chance outcomes come from `chance`, each from the place its [`cowrie_engine::ChanceNode`]
/// keys. With
/// `log`, every chance outcome and ply is appended to it (the only allocation per ply, and only
/// when recording).
///
/// # Examples
///
/// A heuristic against a random player in Frangieh, dice and agents each on their own stream
/// (the streams a run derives from its seed, game index and seat: `docs/conventions.md`):
///
/// ```
/// use cowrie_agents::{AgentSpec, AnyAgent};
/// use cowrie_engine::{Frangieh, FrangiehRules, Game};
/// use cowrie_experiments::run::seeds::Dice;
/// use cowrie_experiments::run::selfplay::{play, Buffers};
/// use rand::SeedableRng;
/// use rand_chacha::ChaCha8Rng;
///
/// let spec = |s: &str| s.parse::<AgentSpec>().unwrap();
/// let mut agents = [
///     AnyAgent::<Frangieh>::build(&spec("heuristic"), ChaCha8Rng::seed_from_u64(1)),
///     AnyAgent::build(&spec("random"), ChaCha8Rng::seed_from_u64(2)),
/// ];
/// let mut dice = Dice::new(3, 0);
/// let (end, stats) = play(&FrangiehRules::default(), &mut agents, &mut dice, &mut Buffers::default(), None);
/// assert!(end.end_reason().is_some());
/// assert!(stats.turns > 0 && stats.turns <= end.plies());
/// let r = end.returns();
/// assert_eq!(r[0], -r[1]);
/// ```
pub fn play<G: Game, A: Agent<G>>(
    rules: &G::Rules,
    agents: &mut [A; 2],
    chance: &mut Dice,
    buf: &mut Buffers<G>,
    mut log: Option<&mut Vec<Event>>,
) -> (G, PlayStats) {
    let mut state = G::new(rules);
    let mut stats = PlayStats::default();
    let mut last: Option<Player> = None;
    loop {
        match state.to_act() {
            ToAct::Terminal(_) => return (state, stats),
            ToAct::Chance => {
                state.chance_outcomes(&mut buf.outcomes);
                let o = sample_outcome(&buf.outcomes, &mut chance.at(state.chance_node()));
                let place = buf.outcomes.iter().position(|(x, _)| *x == o).unwrap_or(0);
                stats.fingerprint = fold(stats.fingerprint, 0, place);
                if let Some(log) = log.as_deref_mut() {
                    log.push(Event::Chance {
                        chance: state.outcome_to_string(o),
                    });
                }
                state.apply_outcome(o);
            }
            ToAct::Decision(p) => {
                state.legal_actions(&mut buf.actions);
                stats.first_mover.get_or_insert(p);
                chance.decision(p);
                if last != Some(p) {
                    stats.turns += 1;
                    last = Some(p);
                }
                if buf.actions.len() > 1 {
                    stats.choices += 1;
                }
                stats.branching_sum += buf.actions.len() as u64;
                let a = match agents[p.index()].try_choose(&state, &buf.actions) {
                    Ok(a) => a,
                    Err(f) => {
                        stats.forfeit = Some((p, f));
                        return (state, stats);
                    }
                };
                let place = buf.actions.iter().position(|x| *x == a);
                debug_assert!(place.is_some(), "agent chose an illegal action");
                stats.fingerprint = fold(stats.fingerprint, 1, place.unwrap_or(0));
                if let Some(log) = log.as_deref_mut() {
                    log.push(Event::Ply {
                        seat: p.seat(),
                        action: state.action_to_string(a),
                    });
                }
                state.play_unchecked(a);
            }
        }
    }
}
