//! The pieces of a validated config that every command shares: a game's rules resolved once
//! ([`RulesConfig`], carrying the manifest's strings), what every run of games shares
//! ([`RunConfig`]), and the typed rules of the Baghchal solver ([`SolverRules`]). Each command's
//! own config lives beside its arguments and its run in `cmd/<name>.rs`; the runner's pairing
//! config is [`crate::run::runner::MatchConfig`].

use anyhow::bail;
use cowrie_engine::{Baghchal, BaghchalRules, Game, RuleSet};
use cowrie_solver::SolveRules;

use crate::args;
use crate::progress::Progress;

/// A game and its rules: as given (the game's name, a named variant or `None` for the game's
/// default, `key=value` overrides in the order given) and as resolved, once, when the config is
/// made ([`RulesConfig::new`]); the manifests' strings come from [`RulesConfig::resolved`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesConfig {
    /// The game's name.
    pub game: String,
    /// A named variant, or the game's default.
    pub variant: Option<String>,
    /// `key=value` overrides, in the order given.
    pub options: Vec<String>,
    /// The rules resolved.
    pub resolved: ResolvedRules,
}

/// A rule set resolved: the variant's name (the game's default where none was given) and every
/// rule option's resolved `(key, value)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedRules {
    /// The variant played.
    pub variant: String,
    /// Every option's resolved value, in the game's order.
    pub options: Vec<(String, String)>,
}

impl ResolvedRules {
    /// The resolved options of `rules`, a rule set of the variant called `variant`.
    #[must_use]
    pub fn of<R: RuleSet>(variant: String, rules: &R) -> ResolvedRules {
        ResolvedRules {
            variant,
            options: rules
                .resolved()
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        }
    }
}

impl RulesConfig {
    /// The rules of game `game`, variant `variant` (the game's default where `None`) with the
    /// overrides `options`, resolved.
    ///
    /// # Errors
    /// An unknown game, variant or option, or a bad value, naming it.
    pub fn new(game: &str, variant: Option<&str>, options: &[String]) -> anyhow::Result<Self> {
        let (name, resolved) = crate::registry::resolve_rules(game, variant, options)?;
        Ok(RulesConfig {
            game: game.to_string(),
            variant: variant.map(str::to_string),
            options: options.to_vec(),
            resolved: ResolvedRules {
                variant: name,
                options: resolved,
            },
        })
    }

    /// The rules `--game`, `--variant` and `--option` name, resolved.
    ///
    /// # Errors
    /// As [`RulesConfig::new`].
    pub fn from_args(a: &args::GameRulesArgs) -> anyhow::Result<Self> {
        RulesConfig::new(a.game(), a.variant.variant.as_deref(), &a.variant.options)
    }

    /// The engine's rules of game `G` (whose name this config holds).
    ///
    /// # Errors
    /// Another game's config; otherwise none, the rules having resolved once already.
    pub fn typed<G: Game>(&self) -> anyhow::Result<G::Rules> {
        if self.game != G::NAME {
            bail!("rules of {} given where {} is played", self.game, G::NAME);
        }
        Ok(G::Rules::resolve(self.variant.as_deref(), &self.options)?)
    }

    /// A manifest's `run`: the fields that name the rules — `game`, `variant`,
    /// `option_overrides` (as given) and `options` (every option resolved) — then those of
    /// `rest` (an object).
    #[must_use]
    pub fn manifest_run(&self, rest: serde_json::Value) -> serde_json::Value {
        let mut run = self.manifest_fields();
        if let (Some(run), serde_json::Value::Object(rest)) = (run.as_object_mut(), rest) {
            run.extend(rest);
        }
        run
    }

    /// The fields of a manifest's `run` that name the rules: `game`, `variant`,
    /// `option_overrides` (as given) and `options` (every option resolved).
    #[must_use]
    pub fn manifest_fields(&self) -> serde_json::Value {
        serde_json::json!({
            "game": self.game,
            "variant": self.resolved.variant,
            "option_overrides": self.options,
            "options": self.resolved
                .options
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                .collect::<serde_json::Map<String, serde_json::Value>>(),
        })
    }
}

/// The rules of a Baghchal solve, resolved once: the engine's, the solver's, and the config
/// they came from (for the manifests).
#[derive(Clone, Debug)]
pub struct SolverRules {
    /// The rules as given and resolved.
    pub config: RulesConfig,
    /// The engine's rules.
    pub engine: BaghchalRules,
    /// The solver's rules.
    pub solver: SolveRules,
}

impl SolverRules {
    /// The rules of a `--game baghchal --variant V --option ...` command line, as the engine and
    /// the solver take them.
    ///
    /// # Errors
    /// Another game, an unknown variant or option, or an option the solver cannot take.
    pub fn from_args(a: &args::GameRulesArgs) -> anyhow::Result<Self> {
        if a.game() != Baghchal::NAME {
            bail!("the solver covers baghchal only, not '{}'", a.game());
        }
        let config = RulesConfig::from_args(a)?;
        let engine = config.typed::<Baghchal>()?;
        let solver = SolveRules::from_rules(&engine)?;
        Ok(SolverRules {
            config,
            engine,
            solver,
        })
    }
}

/// What every run of games shares: its seed, worker threads, progress bar and command line.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Run seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// The progress bar.
    pub progress: Progress,
    /// The command line, for the manifests.
    pub command_line: Vec<String>,
}

impl RunConfig {
    /// `--seed`, `--threads` and `--quiet`.
    #[must_use]
    pub fn from_args(a: &args::RunArgs, command_line: Vec<String>) -> RunConfig {
        RunConfig {
            seed: a.seeding.or_default(),
            threads: a.workers.threads,
            progress: Progress::own(!a.quiet),
            command_line,
        }
    }
}

/// Refuses a count of games per pairing that seat-swapped pairs cannot fill.
pub(crate) fn check_pairs(flag: &str, games: u64) -> anyhow::Result<()> {
    if games == 0 || games % 2 == 1 {
        bail!("{flag} {games}: seat-swapped pairs need an even, positive count");
    }
    Ok(())
}

/// Whether `path` can be written, checked before any game is played: it is opened for appending
/// (an existing file is left as it is) and removed again if this check created it.
pub(crate) fn check_writable(path: &std::path::Path) -> anyhow::Result<()> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| anyhow::anyhow!("--csv '{}': cannot write there ({e})", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}
