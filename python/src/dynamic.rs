//! The games behind one object-safe interface: [`DynGame`] (a game under its rules) and
//! [`DynState`] (a state of it), implemented once for every [`PyGame`], so the Python classes
//! hold a `Box<dyn ...>` and never name a game.
//!
//! Every method checks its input and answers with an error message (the engine's or the CLI's
//! words) rather than reaching an engine call that may panic.

use std::any::Any;
use std::sync::Arc;

use cowrie_agents::{Agent, AgentSpec, AnyAgent};
use cowrie_engine::{
    sample_outcome, Baghchal, Bargese, ChanceNode, Frangieh, Julbahar, PlayError, Player, RuleSet,
    ToAct,
};
use rand_chacha::ChaCha8Rng;

use crate::games::PyGame;

/// A game under a resolved rule set.
pub trait DynGame: Send + Sync {
    /// The game's name (`baghchal`).
    fn name(&self) -> &'static str;
    /// The variant the rules started from.
    fn variant(&self) -> &str;
    /// The `key=value` overrides applied after the variant.
    fn overrides(&self) -> &[String];
    /// Every option's resolved value.
    fn options(&self) -> Vec<(String, String)>;
    /// The named variants, the default first.
    fn variants(&self) -> Vec<String>;
    /// The variants and options in words with their sources (`cowrie rules`).
    fn describe(&self) -> String;
    /// The start position.
    fn new_initial_state(&self) -> Box<dyn DynState>;
    /// A position read from the game's notation.
    fn state_from_notation(&self, text: &str) -> Result<Box<dyn DynState>, String>;
    /// Whether action ids are a fixed encoding (else indices into the legal list).
    fn action_ids_fixed(&self) -> bool;
    /// The number of distinct action ids.
    fn num_distinct_actions(&self) -> usize;
    /// The ply cap of the rules, if any.
    fn max_game_length(&self) -> Option<u32>;
    /// The largest score of one game.
    fn max_utility(&self) -> u32;
    /// Whether the game has chance nodes.
    fn has_chance(&self) -> bool;
    /// The observation tensor's shape.
    fn observation_shape(&self) -> Vec<usize>;
    /// The side names of the two players.
    fn side_names(&self) -> [&'static str; 2];
}

/// A state of a game.
pub trait DynState: Send + Sync {
    /// The game it belongs to.
    fn game(&self) -> Arc<dyn DynGame>;
    /// A copy.
    fn clone_box(&self) -> Box<dyn DynState>;
    /// Who acts.
    fn to_act(&self) -> ToAct;
    /// The legal action ids in the game's order; at a chance node, the outcome ids (as
    /// OpenSpiel's chance actions).
    fn legal_ids(&self) -> Vec<usize>;
    /// The action `id` in the game's notation (at a chance node, the outcome `id`'s text).
    fn action_to_string(&self, id: usize) -> Result<String, String>;
    /// The id of the legal action written `text` (at a chance node, of the outcome).
    fn string_to_action(&self, text: &str) -> Result<usize, String>;
    /// Plays the action `id` (at a chance node, applies the outcome `id`).
    fn apply_action(&mut self, id: usize) -> Result<(), String>;
    /// The chance outcomes' ids and probabilities.
    fn chance_outcomes(&self) -> Vec<(usize, f64)>;
    /// The chance outcome `id` as text.
    fn outcome_to_string(&self, id: usize) -> Result<String, String>;
    /// Applies the chance outcome `id`.
    fn apply_outcome(&mut self, id: usize) -> Result<(), String>;
    /// Draws a chance outcome as the CLI's runner does (`sample_outcome`), if a chance node.
    fn sample_outcome(&self, rng: &mut ChaCha8Rng) -> Option<usize>;
    /// What the chance node is (whose throw, in which game of the unit), if a chance node.
    fn chance_node(&self) -> Option<ChanceNode>;
    /// Returns per player.
    fn returns(&self) -> [f64; 2];
    /// Plies played.
    fn plies(&self) -> u32;
    /// The position's notation.
    fn notation(&self) -> String;
    /// The Zobrist hash.
    fn hash(&self) -> u64;
    /// The observation tensor, flattened.
    fn observation(&self) -> Vec<f32>;
    /// Whose view the observation takes.
    fn viewer(&self) -> Player;
    /// The index in the legal actions (in the game's order) of the legal action `id`, or why
    /// `id` is not one here, naming it.
    fn index_of(&self, id: usize) -> Result<usize, String>;
    /// Builds the agent `spec` for this game, checked against this state's rules.
    fn build_agent(&self, spec: &AgentSpec, rng: ChaCha8Rng) -> Result<Box<dyn DynAgent>, String>;
    /// The concrete state, for agents of the same game.
    fn as_any(&self) -> &dyn Any;
}

/// A built agent for one game.
pub trait DynAgent: Send {
    /// Chooses an action id at `state`, a decision node of its game.
    fn choose(&mut self, state: &dyn DynState) -> Result<usize, String>;
}

/// A game `G` under its rules.
pub struct GameOf<G: PyGame> {
    rules: G::Rules,
    variant: String,
    overrides: Vec<String>,
}

impl<G: PyGame> GameOf<G> {
    /// The game under `variant` (its default when `None`) and the `key=value` `overrides`.
    ///
    /// # Errors
    /// An unknown variant or option, or a bad value, in the engine's words.
    pub fn resolve(variant: Option<&str>, overrides: &[String]) -> Result<Arc<Self>, String> {
        let rules = G::Rules::resolve(variant, overrides).map_err(|e| e.to_string())?;
        let variant =
            variant.map_or_else(|| G::Rules::variants()[0].name.to_string(), str::to_string);
        Ok(Arc::new(GameOf {
            rules,
            variant,
            overrides: overrides.to_vec(),
        }))
    }
}

impl<G: PyGame> GameOf<G> {
    /// The game under `rules`, as the runner plays it: named by the first variant whose
    /// options all agree with them, else by the default variant with every option as an
    /// override.
    fn of_rules(rules: &G::Rules) -> Arc<Self> {
        let resolved = rules.resolved();
        let named = G::Rules::variants()
            .iter()
            .find(|v| G::Rules::variant(v.name).is_ok_and(|r| r.resolved() == resolved));
        let (variant, overrides) = match named {
            Some(v) => (v.name.to_string(), Vec::new()),
            None => (
                G::Rules::variants()[0].name.to_string(),
                resolved.iter().map(|(k, v)| format!("{k}={v}")).collect(),
            ),
        };
        Arc::new(GameOf {
            rules: rules.clone(),
            variant,
            overrides,
        })
    }
}

/// The state `state` of one of the package's games (a runner's `&G` as `&dyn Any`) with its
/// game; `None` for another type.
pub fn state_of_any(state: &dyn Any) -> Option<Box<dyn DynState>> {
    fn of<G: PyGame>(state: &dyn Any) -> Option<Box<dyn DynState>> {
        let s = state.downcast_ref::<G>()?;
        Some(Box::new(StateOf {
            state: s.clone(),
            game: GameOf::<G>::of_rules(s.rules()),
        }))
    }
    of::<Baghchal>(state)
        .or_else(|| of::<Frangieh>(state))
        .or_else(|| of::<Julbahar>(state))
        .or_else(|| of::<Bargese>(state))
}

/// The shared game of a state (an `Arc` clone, so states are cheap to copy).
struct Shared<G: PyGame>(Arc<GameOf<G>>);

impl<G: PyGame> DynGame for Shared<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn variant(&self) -> &str {
        &self.0.variant
    }
    fn overrides(&self) -> &[String] {
        &self.0.overrides
    }
    fn options(&self) -> Vec<(String, String)> {
        self.0
            .rules
            .resolved()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    }
    fn variants(&self) -> Vec<String> {
        G::Rules::variants()
            .iter()
            .map(|v| v.name.to_string())
            .collect()
    }
    fn describe(&self) -> String {
        G::Rules::describe()
    }
    fn new_initial_state(&self) -> Box<dyn DynState> {
        Box::new(StateOf {
            state: G::new(&self.0.rules),
            game: self.0.clone(),
        })
    }
    fn state_from_notation(&self, text: &str) -> Result<Box<dyn DynState>, String> {
        let state = G::from_notation(text, &self.0.rules).map_err(|e| e.to_string())?;
        Ok(Box::new(StateOf {
            state,
            game: self.0.clone(),
        }))
    }
    fn action_ids_fixed(&self) -> bool {
        G::ACTION_IDS_FIXED
    }
    fn num_distinct_actions(&self) -> usize {
        G::NUM_DISTINCT_ACTIONS
    }
    fn max_game_length(&self) -> Option<u32> {
        G::facts(&self.0.rules).ply_cap
    }
    fn max_utility(&self) -> u32 {
        G::facts(&self.0.rules).max_points
    }
    fn has_chance(&self) -> bool {
        G::facts(&self.0.rules).has_chance
    }
    fn observation_shape(&self) -> Vec<usize> {
        G::observation_shape()
    }
    fn side_names(&self) -> [&'static str; 2] {
        G::SIDES
    }
}

/// Wraps a resolved game for Python.
#[must_use]
pub fn shared<G: PyGame>(game: Arc<GameOf<G>>) -> Arc<dyn DynGame> {
    Arc::new(Shared(game))
}

/// A state of `G` with its game.
struct StateOf<G: PyGame> {
    state: G,
    game: Arc<GameOf<G>>,
}

impl<G: PyGame> StateOf<G> {
    fn legal(&self) -> Vec<G::Action> {
        let mut buf = Vec::new();
        self.state.legal_actions(&mut buf);
        buf
    }

    fn outcomes(&self) -> Vec<(G::Outcome, f64)> {
        let mut buf = Vec::new();
        self.state.chance_outcomes(&mut buf);
        buf
    }

    fn id_of(&self, legal: &[G::Action], index: usize) -> usize {
        if G::ACTION_IDS_FIXED {
            G::fixed_id(legal[index])
        } else {
            index
        }
    }

    /// The legal action `id`, or why it is not one, naming it.
    fn action(&self, id: usize) -> Result<G::Action, String> {
        if !matches!(self.state.to_act(), ToAct::Decision(_)) {
            return Err(format!("action {id}: {}", PlayError::NotDecision));
        }
        let legal = self.legal();
        if G::ACTION_IDS_FIXED {
            let Some(a) = G::from_fixed_id(id) else {
                return Err(format!(
                    "illegal action {id}: not an action id of {} (0 to {})",
                    G::NAME,
                    G::NUM_DISTINCT_ACTIONS - 1
                ));
            };
            if legal.contains(&a) {
                Ok(a)
            } else {
                Err(format!(
                    "{} (action {id})",
                    PlayError::IllegalAction(self.state.action_to_string(a))
                ))
            }
        } else {
            legal.get(id).copied().ok_or_else(|| {
                format!(
                    "illegal action {id}: the state has {} legal actions (ids 0 to {})",
                    legal.len(),
                    legal.len() - 1
                )
            })
        }
    }

    fn outcome(&self, id: usize) -> Result<G::Outcome, String> {
        let outcomes = self.outcomes();
        if outcomes.is_empty() {
            return Err(format!("invalid chance outcome {id}: not a chance node"));
        }
        outcomes.get(id).map(|&(o, _)| o).ok_or_else(|| {
            format!(
                "invalid chance outcome {id}: the state has {} outcomes (ids 0 to {})",
                outcomes.len(),
                outcomes.len() - 1
            )
        })
    }
}

impl<G: PyGame> DynState for StateOf<G> {
    fn game(&self) -> Arc<dyn DynGame> {
        shared(self.game.clone())
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(StateOf {
            state: self.state.clone(),
            game: self.game.clone(),
        })
    }
    fn to_act(&self) -> ToAct {
        self.state.to_act()
    }
    fn legal_ids(&self) -> Vec<usize> {
        if matches!(self.state.to_act(), ToAct::Chance) {
            return (0..self.outcomes().len()).collect();
        }
        let legal = self.legal();
        (0..legal.len()).map(|i| self.id_of(&legal, i)).collect()
    }
    fn action_to_string(&self, id: usize) -> Result<String, String> {
        if matches!(self.state.to_act(), ToAct::Chance) {
            return self.outcome_to_string(id);
        }
        if G::ACTION_IDS_FIXED {
            // Any encoded action can be written, legal here or not.
            if let Some(a) = G::from_fixed_id(id) {
                return Ok(self.state.action_to_string(a));
            }
        }
        self.action(id).map(|a| self.state.action_to_string(a))
    }
    fn string_to_action(&self, text: &str) -> Result<usize, String> {
        if matches!(self.state.to_act(), ToAct::Chance) {
            return self
                .outcomes()
                .iter()
                .position(|&(o, _)| self.state.outcome_to_string(o) == text)
                .ok_or_else(|| {
                    format!(
                        "invalid chance outcome {}: not an outcome of this chance node",
                        cowrie_engine::quote_input(text)
                    )
                });
        }
        let a = self.state.parse_action(text).map_err(|e| e.to_string())?;
        let legal = self.legal();
        match legal.iter().position(|&b| b == a) {
            Some(i) => Ok(self.id_of(&legal, i)),
            None if G::ACTION_IDS_FIXED => Ok(G::fixed_id(a)),
            None => Err(PlayError::IllegalAction(text.to_string()).to_string()),
        }
    }
    fn apply_action(&mut self, id: usize) -> Result<(), String> {
        if matches!(self.state.to_act(), ToAct::Chance) {
            return self.apply_outcome(id);
        }
        let a = self.action(id)?;
        self.state.try_play(a).map_err(|e| e.to_string())
    }
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        self.outcomes()
            .into_iter()
            .enumerate()
            .map(|(i, (_, p))| (i, p))
            .collect()
    }
    fn outcome_to_string(&self, id: usize) -> Result<String, String> {
        self.outcome(id).map(|o| self.state.outcome_to_string(o))
    }
    fn apply_outcome(&mut self, id: usize) -> Result<(), String> {
        let o = self.outcome(id)?;
        self.state.try_apply_outcome(o).map_err(|e| e.to_string())
    }
    fn chance_node(&self) -> Option<ChanceNode> {
        matches!(self.state.to_act(), ToAct::Chance).then(|| self.state.chance_node())
    }
    fn sample_outcome(&self, rng: &mut ChaCha8Rng) -> Option<usize> {
        let outcomes = self.outcomes();
        if outcomes.is_empty() {
            return None;
        }
        let o = sample_outcome(&outcomes, rng);
        outcomes.iter().position(|&(p, _)| p == o)
    }
    fn returns(&self) -> [f64; 2] {
        self.state.returns()
    }
    fn plies(&self) -> u32 {
        self.state.plies()
    }
    fn notation(&self) -> String {
        self.state.notation()
    }
    fn hash(&self) -> u64 {
        self.state.hash()
    }
    fn observation(&self) -> Vec<f32> {
        self.state.observation()
    }
    fn viewer(&self) -> Player {
        self.state.viewer()
    }
    fn index_of(&self, id: usize) -> Result<usize, String> {
        let a = self.action(id)?;
        self.legal()
            .iter()
            .position(|&b| b == a)
            .ok_or_else(|| format!("illegal action {id}"))
    }
    fn build_agent(&self, spec: &AgentSpec, rng: ChaCha8Rng) -> Result<Box<dyn DynAgent>, String> {
        AnyAgent::<G>::check_rules(spec, &self.game.rules).map_err(|e| e.to_string())?;
        let agent = AnyAgent::<G>::try_build(spec, rng).map_err(|e| e.to_string())?;
        Ok(Box::new(AgentOf::<G> {
            agent,
            spec: spec.clone(),
            rules: self.game.rules.clone(),
        }))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A built agent of game `G`, with the rules it was checked against.
struct AgentOf<G: PyGame> {
    agent: AnyAgent<G>,
    spec: AgentSpec,
    rules: G::Rules,
}

impl<G: PyGame> DynAgent for AgentOf<G> {
    fn choose(&mut self, state: &dyn DynState) -> Result<usize, String> {
        let Some(s) = state.as_any().downcast_ref::<StateOf<G>>() else {
            return Err(format!(
                "this agent plays {}, not {}",
                G::NAME,
                state.game().name()
            ));
        };
        if s.game.rules != self.rules {
            // Another rule set of the same game: the agent plays it if its kind can (a `td`
            // network or a `perfect` database is tied to the rules it was made for).
            AnyAgent::<G>::check_rules(&self.spec, &s.game.rules).map_err(|e| e.to_string())?;
            self.rules = s.game.rules.clone();
        }
        if !matches!(s.state.to_act(), ToAct::Decision(_)) {
            return Err(PlayError::NotDecision.to_string());
        }
        let legal = s.legal();
        let a = self
            .agent
            .try_choose(&s.state, &legal)
            .map_err(|f| format!("the agent forfeits: {}", f.detail))?;
        let i = legal
            .iter()
            .position(|&b| b == a)
            .ok_or_else(|| "the agent chose an illegal action".to_string())?;
        Ok(s.id_of(&legal, i))
    }
}
