//! One game between a person and an agent: the position, the chance outcomes drawn from the
//! game's seeded stream, the agent's replies, undo back to the person's previous decision, and
//! the game's record as `cowrie match --record` writes it.

use std::cell::RefCell;

use anyhow::bail;
use cowrie_agents::{analyse, Agent, AgentSpec, Analysis, AnyAgent, Evaluate};
use cowrie_engine::{sample_outcome, Game, Player, ToAct};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::config::ResolvedRules;
use crate::games::Report;
use crate::run::gamelog::GameRecord;
use crate::run::seeds::{agent_stream, Dice};
use crate::run::selfplay::Event;

/// The agent spec a record names for the person's seat.
pub const HUMAN: &str = "human";

/// What every game of one `cowrie play` shares: the rules, the agent and the seed.
#[derive(Clone, Debug)]
pub struct Setup<G: Game> {
    /// The rules played.
    pub rules: G::Rules,
    /// The variant's name and every option's resolved value, for records.
    pub resolved: ResolvedRules,
    /// The agent the person plays against.
    pub spec: AgentSpec,
    /// The seed: game `i` draws its chance outcomes from pair `i`'s chance stream and the agent
    /// from game `i`'s stream for its seat (`docs/conventions.md`).
    pub seed: u64,
}

/// The position and its history before one of the person's decisions, kept for undo.
#[derive(Clone, Debug)]
struct Snapshot<G: Evaluate> {
    state: G,
    dice: Dice,
    events: usize,
    agent: AnyAgent<G>,
}

/// One game of a person against an agent.
#[derive(Clone, Debug)]
pub struct Session<G: Evaluate> {
    /// The game's index among the games this setup has begun (its record's `game_index`).
    pub index: u64,
    /// The person's seat.
    pub human: Player,
    state: G,
    dice: Dice,
    events: Vec<Event>,
    agent: AnyAgent<G>,
    /// One snapshot per decision of the person's played so far, latest last.
    history: Vec<Snapshot<G>>,
    /// Changes made to the game (moves and undos): a request naming an older version is stale.
    pub version: u64,
    /// The agent's forfeit (an external program that failed), which ends the game.
    forfeit: Option<(Player, cowrie_agents::Forfeit)>,
    /// The analysis of the version it was made at, so a searching agent's is made once.
    analysed: RefCell<Option<(u64, Option<Analysis>)>>,
}

impl<G: Evaluate + Report> Session<G> {
    /// Game `index` of `setup`, the person in seat `human`, played up to the person's first
    /// decision (or the end).
    ///
    /// # Errors
    /// An agent that cannot be built.
    pub fn new(setup: &Setup<G>, index: u64, human: Player) -> anyhow::Result<Session<G>> {
        let agent = AnyAgent::<G>::try_build(
            &setup.spec,
            agent_stream(setup.seed, index, human.opponent()),
        )?;
        let mut s = Session {
            index,
            human,
            state: G::new(&setup.rules),
            dice: Dice::new(setup.seed, index),
            events: Vec::new(),
            agent,
            history: Vec::new(),
            version: 0,
            forfeit: None,
            analysed: RefCell::new(None),
        };
        s.advance();
        Ok(s)
    }

    /// The position now.
    #[must_use]
    pub fn state(&self) -> &G {
        &self.state
    }

    /// The chance outcomes and plies so far.
    #[must_use]
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Whether the person is to act.
    #[must_use]
    pub fn human_to_act(&self) -> bool {
        self.forfeit.is_none() && self.state.to_act() == ToAct::Decision(self.human)
    }

    /// Whether there is a decision of the person's to go back to.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        !self.history.is_empty()
    }

    /// The legal actions, in the game's notation and order, when the person is to act (none
    /// otherwise).
    #[must_use]
    pub fn legal(&self) -> Vec<String> {
        if !self.human_to_act() {
            return Vec::new();
        }
        let mut legal = Vec::new();
        self.state.legal_actions(&mut legal);
        legal
            .into_iter()
            .map(|a| self.state.action_to_string(a))
            .collect()
    }

    /// The agent's analysis of the person's legal actions, in [`Session::legal`]'s order
    /// (`None` where the agent has none or the person is not to act). A searching agent
    /// (`mcts`) draws from a stream of the game's own, apart from the agent's and the dice.
    ///
    /// # Errors
    /// As [`analyse`].
    pub fn analysis(&self, setup: &Setup<G>) -> anyhow::Result<Option<Analysis>> {
        if !self.human_to_act() {
            return Ok(None);
        }
        if let Some((version, a)) = &*self.analysed.borrow() {
            if *version == self.version {
                return Ok(a.clone());
            }
        }
        let mut legal = Vec::new();
        self.state.legal_actions(&mut legal);
        // Stream 4i + 3 of the run seed: the one stream of game i no player or die uses.
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        rng.set_stream(self.index.wrapping_mul(4) + 3);
        rng.set_word_pos(u128::from(self.version) << 20);
        let a = analyse(&setup.spec, &self.state, &legal, rng)?;
        *self.analysed.borrow_mut() = Some((self.version, a.clone()));
        Ok(a)
    }

    /// Plays the person's move `text` (in the game's notation), then the chance outcomes and the
    /// agent's plies up to the person's next decision or the end.
    ///
    /// # Errors
    /// Not the person's turn, or a move that does not parse or is not legal here; the game is
    /// left as it was.
    pub fn play(&mut self, text: &str) -> anyhow::Result<()> {
        if !self.human_to_act() {
            bail!("it is not your turn: the game is over");
        }
        // A legal action written as the list writes it is that action; other text is parsed
        // (a move may be written in more than one way).
        let mut legal = Vec::new();
        self.state.legal_actions(&mut legal);
        let listed = legal
            .into_iter()
            .find(|&a| self.state.action_to_string(a) == text);
        let action = match listed {
            Some(a) => a,
            None => self
                .state
                .parse_action(text)
                .map_err(|e| anyhow::anyhow!("move {}: {e}", crate::args::quote(text)))?,
        };
        let mut after = self.state.clone();
        after
            .try_play(action)
            .map_err(|e| anyhow::anyhow!("move {}: {e}", crate::args::quote(text)))?;
        self.history.push(Snapshot {
            state: self.state.clone(),
            dice: self.dice.clone(),
            events: self.events.len(),
            agent: self.agent.clone(),
        });
        self.events.push(Event::Ply {
            seat: self.human.seat(),
            action: self.state.action_to_string(action),
        });
        self.state = after;
        self.version += 1;
        self.advance();
        Ok(())
    }

    /// Goes back to the person's previous decision: the position, dice and agent as they were
    /// there, so the same move draws the same chance outcomes and the same reply.
    ///
    /// # Errors
    /// No decision of the person's has been played yet.
    pub fn undo(&mut self) -> anyhow::Result<()> {
        let Some(snap) = self.history.pop() else {
            bail!("nothing to undo: no move of yours has been played in this game");
        };
        self.state = snap.state;
        self.dice = snap.dice;
        self.events.truncate(snap.events);
        self.agent = snap.agent;
        self.forfeit = None;
        self.version += 1;
        Ok(())
    }

    /// Draws chance outcomes and plays the agent up to the person's decision or the end.
    fn advance(&mut self) {
        let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
        loop {
            match self.state.to_act() {
                ToAct::Terminal(_) => return,
                ToAct::Chance => {
                    self.state.chance_outcomes(&mut outcomes);
                    let node = self.state.chance_node();
                    let o = sample_outcome(&outcomes, &mut self.dice.at(node));
                    self.events.push(Event::Chance {
                        chance: self.state.outcome_to_string(o),
                    });
                    self.state.apply_outcome(o);
                }
                ToAct::Decision(p) => {
                    self.dice.decision(p);
                    if p == self.human {
                        return;
                    }
                    self.state.legal_actions(&mut legal);
                    match self.agent.try_choose(&self.state, &legal) {
                        Ok(a) => {
                            self.events.push(Event::Ply {
                                seat: p.seat(),
                                action: self.state.action_to_string(a),
                            });
                            self.state.play_unchecked(a);
                        }
                        Err(f) => {
                            self.forfeit = Some((p, f));
                            return;
                        }
                    }
                }
            }
        }
    }

    /// How the game ended (`win`, `draw`, `truncated`, a forfeit) and the winning seat, or
    /// `None` while it goes on.
    #[must_use]
    pub fn result(&self) -> Option<(&'static str, Option<u8>)> {
        if let Some((p, f)) = &self.forfeit {
            return Some((f.reason.as_str(), Some(p.opponent().seat())));
        }
        self.state
            .end_reason()
            .map(|r| (r.as_str(), r.winner().map(Player::seat)))
    }

    /// The game's record, as one line of `records.jsonl` in `cowrie match --record`'s format
    /// (`human` names the person's seat; a game still under way ends `unfinished`, as `cowrie
    /// replay` reads a game stopped before its end).
    #[must_use]
    pub fn record(&self, setup: &Setup<G>) -> String {
        let agent = setup.spec.to_string();
        let agents = if self.human == Player::ONE {
            [HUMAN.to_string(), agent]
        } else {
            [agent, HUMAN.to_string()]
        };
        let (end_reason, winner_seat) = self.result().unwrap_or(("unfinished", None));
        let rec = GameRecord {
            game_index: self.index,
            game: G::NAME.to_string(),
            variant: setup.resolved.variant.clone(),
            options: setup.resolved.options.clone(),
            agents,
            start: G::new(&setup.rules).notation(),
            events: self.events.clone(),
            end_reason: end_reason.to_string(),
            winner_seat,
            plies: self.state.plies(),
            end: self.state.notation(),
        };
        serde_json::to_string(&rec).expect("a record serialises") + "\n"
    }

    /// The result in words: `you win`, `random wins`, `a draw`, `truncated at the ply cap`.
    #[must_use]
    pub fn result_text(&self, setup: &Setup<G>) -> Option<String> {
        let (reason, winner) = self.result()?;
        Some(match winner {
            Some(s) if s == self.human.seat() => format!("you win ({reason})"),
            Some(_) => format!("{} wins ({reason})", setup.spec),
            None if reason == "truncated" => "truncated at the ply cap".to_string(),
            None => format!("a {reason}"),
        })
    }

    /// The side to act in words (`goats`, `seat 1`), or empty at a chance node or the end.
    #[must_use]
    pub fn side_to_act(&self) -> &'static str {
        match self.state.to_act() {
            ToAct::Decision(p) => G::side_name(p),
            _ => "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowrie_engine::{Frangieh, FrangiehRules, RuleSet};

    fn setup(spec: &str) -> Setup<Frangieh> {
        let rules = FrangiehRules::default();
        Setup {
            resolved: ResolvedRules::of("barakat-1974".to_string(), &rules),
            rules,
            spec: spec.parse().unwrap(),
            seed: 5,
        }
    }

    #[test]
    fn undo_restores_the_decision_and_the_same_move_draws_the_same_reply() {
        let setup = setup("heuristic:temperature=1");
        let mut s = Session::new(&setup, 0, Player::ONE).unwrap();
        assert!(s.human_to_act());
        let before = (s.state().notation(), s.events().to_vec());
        let first = s.legal()[0].clone();
        s.play(&first).unwrap();
        let after = (s.state().notation(), s.events().to_vec(), s.version);
        s.undo().unwrap();
        assert_eq!((s.state().notation(), s.events().to_vec()), before);
        s.play(&first).unwrap();
        assert_eq!(
            (s.state().notation(), s.events().to_vec()),
            (after.0, after.1)
        );
        assert_eq!(s.version, 3);
        // An illegal move changes nothing.
        let v = s.version;
        assert!(s.play("24/1").is_err());
        assert_eq!(s.version, v);
    }

    /// The person's side of a self-play game: always the first legal action.
    struct FirstOr(Option<AnyAgent<Frangieh>>);

    impl Agent<Frangieh> for FirstOr {
        fn choose(
            &mut self,
            state: &Frangieh,
            legal: &[<Frangieh as Game>::Action],
        ) -> <Frangieh as Game>::Action {
            match &mut self.0 {
                Some(a) => a.choose(state, legal),
                None => legal[0],
            }
        }
    }

    #[test]
    fn a_whole_game_is_the_self_play_game_of_the_same_seed_and_choices() {
        // The runner's self-play loop, with the person's choices played by an agent, draws the
        // same dice and the same agent replies from game 3's streams.
        let setup = setup("heuristic:temperature=1");
        let mut agents = [
            FirstOr(None),
            FirstOr(Some(AnyAgent::build(
                &setup.spec,
                agent_stream(5, 3, Player::TWO),
            ))),
        ];
        let mut log = Vec::new();
        let (end, _) = crate::run::selfplay::play(
            &setup.rules,
            &mut agents,
            &mut Dice::new(5, 3),
            &mut crate::run::selfplay::Buffers::default(),
            Some(&mut log),
        );
        let mut s = Session::new(&setup, 3, Player::ONE).unwrap();
        while s.human_to_act() {
            let first = s.legal()[0].clone();
            s.play(&first).unwrap();
        }
        assert_eq!(s.events(), &log[..]);
        assert_eq!(s.state().notation(), end.notation());
        assert!(s
            .record(&setup)
            .contains(r#""agents":["human","heuristic:temperature=1"]"#));
        assert_eq!(FrangiehRules::variants()[0].name, setup.resolved.variant);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// Any text offered as a move is played only if it is a legal move; otherwise the game
        /// is left as it was.
        #[test]
        fn any_text_is_a_legal_move_or_changes_nothing(text in "\\PC{0,24}") {
            let setup = setup("random");
            let mut s = Session::new(&setup, 1, Player::ONE).unwrap();
            let (before, legal) = (s.state().notation(), s.legal());
            match s.play(&text) {
                Ok(()) => {
                    let legal_after = |m: &String| {
                        let mut t = Session::new(&setup, 1, Player::ONE).unwrap();
                        t.play(m).is_ok() && t.state().notation() == s.state().notation()
                    };
                    proptest::prop_assert!(legal.iter().any(legal_after));
                }
                Err(_) => {
                    proptest::prop_assert_eq!(s.state().notation(), before);
                    proptest::prop_assert_eq!(s.version, 0);
                }
            }
        }
    }
}
