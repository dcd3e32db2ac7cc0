//! The learned evaluation and the `td` agent: a small network ([`net`]) trained by TD(lambda)
//! self-play ([`train`]) on a game's input encoding (one file per game, reached through
//! [`Evaluate::td_encoding`] and [`Evaluate::td_inputs`]), played greedily on the network
//! (`ply=0`) or by expectiminimax with the network at the leaves (`ply=1`, `ply=2`).
//!
//! Outputs, from the view of the player to act: with one output the probability of winning;
//! with five (games scored 1, 2 or 3 points, as Frangieh `modern`) the probabilities of
//! winning, winning a gammon or more, winning a backgammon, losing a gammon or more and losing a
//! backgammon, as GNU Backgammon's networks give them. The value (equity) of a position is then
//! `2 win - 1` or `2 win - 1 + win_gammon + win_backgammon - lose_gammon - lose_backgammon`.

pub mod bargese;
pub mod bearoff;
pub(crate) mod encoding;
pub mod filter;
pub mod filtered;
pub mod frangieh;
pub mod incremental;
pub mod julbahar;
pub mod kernel;
pub mod net;
pub(crate) mod tables;
pub mod train;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use cowrie_engine::{Game, Player, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::agent::Agent;
use crate::evaluate::Evaluate;
use crate::expectimax::Evaluator;
use crate::expectimax::Expectimax;
use crate::spec::{ExpectimaxParams, SpecError, TdParams, Weights};
use crate::value::Viewed;
pub use encoding::Encoding;
pub use incremental::Incremental;
pub use net::{Changes, Inputs, Net, NetError, Outputs};

/// The output names recorded in the weights' metadata for `outputs` outputs.
#[must_use]
pub fn output_names(outputs: usize) -> &'static str {
    if outputs == 5 {
        "win,win_gammon,win_backgammon,lose_gammon,lose_backgammon"
    } else {
        "win"
    }
}

/// The equity of outputs `o` (from the viewer's view).
#[inline]
#[must_use]
pub fn equity(o: &Outputs, outputs: usize) -> f64 {
    let o = o.map(f64::from);
    if outputs == 5 {
        2.0 * o[0] - 1.0 + o[1] + o[2] - o[3] - o[4]
    } else {
        2.0 * o[0] - 1.0
    }
}

/// Outputs seen from the other player's view.
#[inline]
#[must_use]
pub fn flip(o: &Outputs, outputs: usize) -> Outputs {
    if outputs == 5 {
        [1.0 - o[0], o[3], o[4], o[1], o[2]]
    } else {
        let mut f = *o;
        f[0] = 1.0 - o[0];
        f
    }
}

/// The outputs a finished game is worth to `viewer` (its returns as probabilities 0 or 1).
#[must_use]
pub fn outcome<G: Game>(state: &G, viewer: Player, outputs: usize) -> Outputs {
    let r = state.returns()[viewer.index()];
    let b = |c: bool| if c { 1.0 } else { 0.0 };
    let mut o = [0.0; net::MAX_OUTPUTS];
    o[0] = b(r > 0.0);
    if outputs == 5 {
        o[1] = b(r >= 2.0);
        o[2] = b(r >= 3.0);
        o[3] = b(r <= -2.0);
        o[4] = b(r <= -3.0);
    }
    if r == 0.0 {
        o[0] = 0.5; // a draw or a truncation: worth nothing to either side
    }
    o
}

/// A network with the encoding it was checked against: evaluates states of `G` through the
/// accumulator and vectors of [`incremental`], one state at a time or a move list at once.
#[derive(Clone, Debug)]
pub struct NetEval {
    net: Arc<Net>,
    fast: Arc<Incremental>,
    outputs: usize,
    /// Bear-off races valued from the bear-off database ([`bearoff`]).
    bearoff: bool,
}

impl NetEval {
    /// The network, as [`Net::forward`] evaluates it (the reference of the fast path).
    #[must_use]
    pub fn net(&self) -> &Net {
        &self.net
    }

    /// The same evaluation, valuing bear-off races from the bear-off database when `on`
    /// ([`bearoff::race_value`]).
    #[must_use]
    pub fn with_bearoff(mut self, on: bool) -> Self {
        self.bearoff = on;
        self
    }

    /// The network laid out for the accumulator.
    #[must_use]
    pub fn incremental(&self) -> &Incremental {
        &self.fast
    }

    /// The network's outputs for non-terminal `state`, from the view of the player it returns.
    #[inline]
    pub fn outputs<G: Evaluate>(&self, state: &G) -> (Outputs, Player) {
        let mut x = Inputs::default();
        let viewer = state
            .td_inputs(&mut x)
            .expect("the encoding was checked when the agent was built");
        (self.fast.forward(&x), viewer)
    }

    /// The network's equity of `state` from `player`'s view (exact returns at the end).
    #[inline]
    pub fn value<G: Evaluate>(&self, state: &G, player: Player) -> f64 {
        if let ToAct::Terminal(_) = state.to_act() {
            return state.returns()[player.index()];
        }
        if self.bearoff {
            if let Some(v) = bearoff::race_value(state, player, self.outputs) {
                return v;
            }
        }
        let (o, viewer) = self.outputs(state);
        Viewed::new(viewer, equity(&o, self.outputs)).for_player(player)
    }
}

impl<G: Evaluate> Evaluator<G> for NetEval {
    #[inline]
    fn evaluate(&self, state: &G, player: Player) -> f64 {
        self.value(state, player)
    }

    fn evaluate_moves_while(
        &self,
        state: &G,
        moves: &[G::Action],
        player: Player,
        out: &mut Vec<(f64, bool)>,
        mut go_on: impl FnMut(usize, (f64, bool)) -> bool,
    ) {
        out.clear();
        // A race the database values is not given to the network.
        let valued_exactly = |child: &G| self.bearoff && child.bearoff_race().is_some();
        self.fast
            .after_moves_while(state, moves, valued_exactly, |child, scored| {
                let leaf = match scored {
                    Some((o, viewer)) => (
                        Viewed::new(viewer, equity(&o, self.outputs)).for_player(player),
                        false,
                    ),
                    None => match child.to_act() {
                        ToAct::Terminal(_) => (child.returns()[player.index()], true),
                        _ => (
                            bearoff::race_value(child, player, self.outputs).expect("a race"),
                            false,
                        ),
                    },
                };
                let k = out.len();
                out.push(leaf);
                go_on(k, leaf)
            });
    }
}

/// Checks that `net` was trained for `G` under `rules`: game, encoding and outputs.
///
/// # Errors
/// A one-line reason naming the file (`path`).
pub fn check<G: Evaluate>(net: &Net, rules: &G::Rules, path: &str) -> Result<Encoding, NetError> {
    let bad = |reason: String| NetError {
        path: path.to_string(),
        reason,
    };
    let enc = G::td_encoding(rules)
        .ok_or_else(|| bad(format!("the game {} has no learned evaluation", G::NAME)))?;
    let meta = |k: &str| net.meta.get(k).map_or("(none)", String::as_str);
    if meta("game") != G::NAME {
        return Err(bad(format!(
            "trained for the game '{}', not {}",
            meta("game"),
            G::NAME
        )));
    }
    if meta("encoding") != enc.name {
        return Err(bad(format!(
            "encoding '{}', but {} under these rules uses '{}'",
            meta("encoding"),
            G::NAME,
            enc.name
        )));
    }
    let (i, _, o) = net.shape();
    if i != enc.inputs || o != enc.outputs || meta("outputs") != output_names(o) {
        return Err(bad(format!(
            "{i} inputs and {o} outputs ({}), but these rules need {} and {} ({})",
            meta("outputs"),
            enc.inputs,
            enc.outputs,
            output_names(enc.outputs)
        )));
    }
    Ok(enc)
}

/// The weights shipped for a game and variant, embedded in the program.
#[must_use]
pub fn shipped(game: &str, variant: &str) -> Option<&'static [u8]> {
    match (game, variant) {
        ("frangieh", "modern") => Some(include_bytes!("../../weights/frangieh-modern.safetensors")),
        ("frangieh", "barakat-1974") => Some(include_bytes!(
            "../../weights/frangieh-barakat-1974.safetensors"
        )),
        ("frangieh", "ludii") => Some(include_bytes!("../../weights/frangieh-ludii.safetensors")),
        ("julbahar", "barakat-1974") => Some(include_bytes!(
            "../../weights/julbahar-barakat-1974.safetensors"
        )),
        ("julbahar", "ludii") => Some(include_bytes!("../../weights/julbahar-ludii.safetensors")),
        ("bargese", "finkel-2002") => Some(include_bytes!(
            "../../weights/bargese-finkel-2002.safetensors"
        )),
        _ => None,
    }
}

/// The file name of the shipped weights for a game and variant, as listed under
/// `agents/weights/`.
#[must_use]
pub fn shipped_name(game: &str, variant: &str) -> String {
    format!("agents/weights/{game}-{variant}.safetensors")
}

/// The shipped weights `weights` names for `G` under `rules`: their path as listed under
/// `agents/weights/` ([`shipped_name`]) and their bytes, `None` when no weights are shipped
/// under that name; `None` altogether for weights read from a file.
#[must_use]
pub fn shipped_for<G: Evaluate>(
    weights: &Weights,
    rules: &G::Rules,
) -> Option<(String, Option<&'static [u8]>)> {
    let variant = match weights {
        Weights::File(_) => return None,
        Weights::ShippedFor(v) => v.as_str(),
        Weights::Shipped => crate::external::variant_name::<G>(rules).unwrap_or("custom"),
    };
    Some((shipped_name(G::NAME, variant), shipped(G::NAME, variant)))
}

/// The shipped weights listed as `path` (as [`shipped_name`] writes it), for any game and
/// variant that has some.
#[must_use]
pub fn shipped_at(path: &str) -> Option<&'static [u8]> {
    let stem = path
        .strip_prefix("agents/weights/")?
        .strip_suffix(".safetensors")?;
    let (game, variant) = stem.split_once('-')?;
    shipped(game, variant).filter(|_| shipped_name(game, variant) == path)
}

fn cache() -> &'static Mutex<HashMap<PathBuf, Arc<Net>>> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Arc<Net>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Loads weights from `path`, once per process.
///
/// # Errors
/// As [`Net::load`].
pub fn load_cached(path: &std::path::Path) -> Result<Arc<Net>, NetError> {
    let mut c = cache()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(n) = c.get(path) {
        return Ok(Arc::clone(n));
    }
    let n = Arc::new(Net::load(path)?);
    c.insert(path.to_path_buf(), Arc::clone(&n));
    Ok(n)
}

/// The weights `weights` names for `G` under `rules`, checked.
///
/// # Errors
/// A missing or unreadable file, no shipped weights for these rules, or weights for another
/// game, encoding or scoring: one line naming the file.
pub fn resolve<G: Evaluate>(weights: &Weights, rules: &G::Rules) -> Result<NetEval, SpecError> {
    let err = |e: NetError| SpecError::Weights(e.to_string());
    let (net, name) = match weights {
        Weights::File(path) => (load_cached(path).map_err(err)?, path.display().to_string()),
        Weights::Shipped | Weights::ShippedFor(_) => {
            let (name, bytes) = shipped_for::<G>(weights, rules).expect("shipped weights");
            let key = PathBuf::from(format!("shipped:{name}"));
            let mut c = cache()
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let net = match c.get(&key) {
                Some(n) => Arc::clone(n),
                None => {
                    let bytes = bytes.ok_or_else(|| {
                        let prefix = format!("agents/weights/{}-", G::NAME);
                        let variant = name
                            .trim_start_matches(&prefix)
                            .trim_end_matches(".safetensors");
                        SpecError::Weights(format!(
                            "no shipped weights for {} '{variant}' (give weights=FILE or shipped:VARIANT)",
                            G::NAME
                        ))
                    })?;
                    let n = Arc::new(Net::from_bytes(bytes, &name).map_err(err)?);
                    c.insert(key, Arc::clone(&n));
                    n
                }
            };
            (net, name)
        }
    };
    let enc = check::<G>(&net, rules, &name).map_err(err)?;
    Ok(NetEval {
        fast: Arc::new(Incremental::new(&net)),
        net,
        outputs: enc.outputs,
        bearoff: false,
    })
}

/// The `td` agent: greedy on the network (`ply=0`), or expectiminimax with the network at the
/// leaves (`ply=1`: every roll of the opponent and its best reply; `ply=2` with `filter=0`: one more
/// turn, the default), or at `ply=2,filter=N` the filtered search of [`filtered`].
#[derive(Clone, Debug)]
pub struct TdAgent<G: Game> {
    params: TdParams,
    rng: ChaCha8Rng,
    /// Built at the first move, from the state's rules.
    search: Option<(NetEval, Box<Expectimax<G, NetEval>>)>,
    /// The candidates' values at `ply=0` (kept to reuse its allocation).
    leaves: Vec<(f64, bool)>,
    /// The filtered search (`ply=2` with the move filter on), built with `search`.
    filtered: Option<Box<filtered::Filtered<G>>>,
}

impl<G: Evaluate> TdAgent<G> {
    /// A `td` agent; the weights are checked against the game when built (see
    /// [`crate::any::AnyAgent::try_build`]) and read at the first move.
    #[must_use]
    pub fn new(params: TdParams, rng: ChaCha8Rng) -> Self {
        TdAgent {
            params,
            rng,
            search: None,
            leaves: Vec::new(),
            filtered: None,
        }
    }

    /// Nodes visited since construction or the last [`TdAgent::reset_nodes`]: the search's
    /// ([`Expectimax::nodes`]) and, at `ply=2` with the move filter on, every candidate the
    /// filter scored at `ply=0`; none at `ply=0`.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.filtered.as_ref().map_or(0, |f| f.nodes())
            + self.search.as_ref().map_or(0, |(_, s)| s.nodes())
    }

    /// Sets the node counter to zero.
    pub fn reset_nodes(&mut self) {
        if let Some(f) = self.filtered.as_mut() {
            f.reset_nodes();
        }
        if let Some((_, s)) = self.search.as_mut() {
            s.reset_nodes();
        }
    }

    /// Whether the move filter applies: at `ply=2` unless `filter=0`.
    fn filters(&self) -> bool {
        self.params.ply >= 2 && self.params.filter > 0
    }

    fn ready(&mut self, state: &G) -> &mut (NetEval, Box<Expectimax<G, NetEval>>) {
        if self.search.is_none() {
            let eval = match resolve::<G>(&self.params.weights, state.rules()) {
                Ok(e) => e.with_bearoff(self.params.bearoff),
                Err(e) => panic!("{e}"),
            };
            let rng = ChaCha8Rng::from_rng(&mut self.rng).expect("ChaCha from ChaCha");
            let search = Expectimax::with_evaluator(
                ExpectimaxParams {
                    depth: self.params.ply + 1,
                    ms: None,
                    nodes: self.params.nodes,
                },
                rng,
                eval.clone(),
            );
            if self.filters() {
                self.filtered = Some(Box::new(filtered::Filtered::new(eval.clone())));
            }
            self.search = Some((eval, Box::new(search)));
        }
        self.search.as_mut().expect("just built")
    }
}

impl<G: Evaluate> Agent<G> for TdAgent<G> {
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let ToAct::Decision(me) = state.to_act() else {
            panic!("td agent asked at a node that is not a decision node");
        };
        let ply = self.params.ply;
        let filters = self.filters();
        let (eval, search) = self.ready(state);
        if ply > 0 && !filters {
            return search.choose(state, legal);
        }
        let eval = eval.clone();
        let mut leaves = std::mem::take(&mut self.leaves);
        Evaluator::<G>::evaluate_moves(&eval, state, legal, me, &mut leaves);
        if filters {
            let mv = self.filtered_search(state, legal, &leaves);
            self.leaves = leaves;
            return mv;
        }
        let mut best = f64::NEG_INFINITY;
        let (mut pick, mut ties) = (0, 0u32);
        for (i, &(v, _)) in leaves.iter().enumerate() {
            if v > best {
                best = v;
                pick = i;
                ties = 1;
            } else if v == best {
                ties += 1;
                if self.rng.gen_range(0..ties) == 0 {
                    pick = i;
                }
            }
        }
        self.leaves = leaves;
        legal[pick]
    }
}

impl<G: Evaluate> TdAgent<G> {
    /// The filtered search of the candidates; `leaves` holds every candidate's `ply=0` value.
    fn filtered_search(
        &mut self,
        state: &G,
        legal: &[G::Action],
        leaves: &[(f64, bool)],
    ) -> G::Action {
        let params = filtered::FilterParams {
            ply: self.params.ply,
            most: usize::try_from(self.params.filter).unwrap_or(usize::MAX),
            threshold: self.params.threshold,
            nodes: self.params.nodes,
        };
        let search = self.filtered.as_mut().expect("built with the search");
        search.choose(state, legal, leaves, params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowrie_engine::{Frangieh, FrangiehRules, RuleSet};

    #[test]
    fn shipped_weights_load_for_their_rules_and_are_refused_for_others() {
        for rules in [
            FrangiehRules::variant("modern").unwrap(),
            FrangiehRules::default(),
        ] {
            let eval = resolve::<Frangieh>(&Weights::Shipped, &rules).unwrap();
            let start = Frangieh::new(&rules);
            // Before the opening roll nobody is ahead: the value is near 0 and antisymmetric.
            let v = eval.value(&start, Player::ONE);
            assert!(v.abs() < 0.3, "{v}");
            assert_eq!(v, -eval.value(&start, Player::TWO));
        }
        let bytes = shipped("frangieh", "modern").unwrap();
        let net = Net::from_bytes(bytes, "m").unwrap();
        let e = check::<Frangieh>(&net, &FrangiehRules::default(), "m.st").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("weights 'm.st': 196 inputs and 5 outputs"),
            "{e}"
        );
        assert_eq!(net.meta["games"], "300000");
    }

    #[test]
    fn shipped_frangieh_weights_record_options_that_resolve_to_their_variant() {
        // The metadata of `frangieh-barakat-1974` spells `opening=roll-again` by its former
        // name, `seed`; it still reads.
        for variant in ["barakat-1974", "modern", "ludii"] {
            let net = Net::from_bytes(shipped("frangieh", variant).unwrap(), variant).unwrap();
            let options: Vec<String> = net.meta["options"].split(';').map(String::from).collect();
            let rules = FrangiehRules::resolve(Some(variant), &options).unwrap();
            assert_eq!(rules, FrangiehRules::variant(variant).unwrap(), "{variant}");
        }
    }

    #[test]
    fn julbahar_and_bargese_ship_weights_for_their_default_variants_and_lend_them_by_name() {
        use cowrie_engine::{Bargese, BargeseRules, Julbahar, JulbaharRules};
        let j = JulbaharRules::default();
        let eval = resolve::<Julbahar>(&Weights::Shipped, &j).unwrap();
        let start = Julbahar::new(&j);
        let v = eval.value(&start, Player::ONE);
        assert_eq!(v, -eval.value(&start, Player::TWO));
        let b = BargeseRules::default();
        resolve::<Bargese>(&Weights::Shipped, &b).unwrap();
        // Julbahar's ludii variant has its own, and lends barakat-1974's by name.
        let ludii = JulbaharRules::variant("ludii").unwrap();
        resolve::<Julbahar>(&Weights::Shipped, &ludii).unwrap();
        resolve::<Julbahar>(&Weights::ShippedFor("barakat-1974".into()), &ludii).unwrap();
        let e = resolve::<Julbahar>(&Weights::ShippedFor("nope".into()), &ludii).unwrap_err();
        assert!(e.to_string().contains("'nope'"), "{e}");
        // Bargese's ludii variant has none of its own: refused by default, lent by name.
        let b_ludii = BargeseRules::variant("ludii").unwrap();
        let e = resolve::<Bargese>(&Weights::Shipped, &b_ludii).unwrap_err();
        assert!(
            e.to_string()
                .contains("no shipped weights for bargese 'ludii'"),
            "{e}"
        );
        resolve::<Bargese>(&Weights::ShippedFor("finkel-2002".into()), &b_ludii).unwrap();
    }
}
