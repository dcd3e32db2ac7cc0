//! Validated run configurations: the clap arguments of [`crate::cli`] turned into typed
//! configs, checked before anything is written (counts, the game, its rules, agent specs,
//! writable paths). The commands that play games (match, tournament, ladder, compare,
//! advantage, study, converge, bench) take these configs; the others (solve, probe, judge,
//! report, merge, replay, show, train, entry) read their own arguments. Every run of games is
//! made of pairings built by [`MatchConfig::part`].

use std::path::PathBuf;

use anyhow::bail;
use cowrie_agents::AgentSpec;

use crate::cli;
use crate::progress::Progress;
use crate::run::schedule::{slot, Schedule, Shard};

/// A game and its rules as given: the game's name, a named variant (`None`: the game's
/// default) and `key=value` overrides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesConfig {
    /// The game's name.
    pub game: String,
    /// A named variant, or the game's default.
    pub variant: Option<String>,
    /// `key=value` overrides, in the order given.
    pub options: Vec<String>,
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
    pub fn of<R: cowrie_engine::RuleSet>(variant: String, rules: &R) -> ResolvedRules {
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
    /// The rules `--game`, `--variant` and `--option` name.
    #[must_use]
    pub fn from_args(a: &cli::GameRulesArgs) -> RulesConfig {
        RulesConfig {
            game: a.game.clone(),
            variant: a.variant.clone(),
            options: a.options.clone(),
        }
    }

    /// Resolves the rules.
    ///
    /// # Errors
    /// An unknown game, variant or option, or a bad value, naming it.
    pub fn resolve(&self) -> anyhow::Result<ResolvedRules> {
        let (variant, options) =
            crate::registry::resolve_rules(&self.game, self.variant.as_deref(), &self.options)?;
        Ok(ResolvedRules { variant, options })
    }

    /// A manifest's `run`: the fields that name the rules — `game`, `variant`,
    /// `option_overrides` (as given) and `options` (every option resolved) — then those of
    /// `rest` (an object).
    #[must_use]
    pub fn manifest_run(
        &self,
        resolved: &ResolvedRules,
        rest: serde_json::Value,
    ) -> serde_json::Value {
        let mut run = self.manifest_fields(resolved);
        if let (Some(run), serde_json::Value::Object(rest)) = (run.as_object_mut(), rest) {
            run.extend(rest);
        }
        run
    }

    /// The fields of a manifest's `run` that name the rules: `game`, `variant`,
    /// `option_overrides` (as given) and `options` (every option resolved).
    #[must_use]
    pub fn manifest_fields(&self, resolved: &ResolvedRules) -> serde_json::Value {
        serde_json::json!({
            "game": self.game,
            "variant": resolved.variant,
            "option_overrides": self.options,
            "options": resolved
                .options
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                .collect::<serde_json::Map<String, serde_json::Value>>(),
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
    pub fn from_args(a: &cli::RunArgs, command_line: Vec<String>) -> RunConfig {
        RunConfig {
            seed: a.seed,
            threads: a.threads,
            progress: Progress::own(!a.quiet),
            command_line,
        }
    }
}

/// A validated match configuration: one pairing of two agents.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game's name.
    pub game: String,
    /// A named variant, or the game's default.
    pub variant: Option<String>,
    /// `key=value` overrides.
    pub options: Vec<String>,
    /// The agents named by `--p1` and `--p2`.
    pub agents: [AgentSpec; 2],
    /// Games in the whole run (all shards).
    pub games: u64,
    /// Seat-swapped pairs.
    pub swap: bool,
    /// Run seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Output directory.
    pub out: PathBuf,
    /// Show a progress bar (only drawn on a terminal).
    pub progress: Progress,
    /// The command line, for the manifest.
    pub command_line: Vec<String>,
    /// The slice of the schedule this process plays.
    pub shard: Shard,
    /// Continue an interrupted run in `out`.
    pub resume: bool,
    /// Write `records.jsonl`.
    pub record: bool,
}

impl MatchConfig {
    /// `cowrie match`'s arguments, validated.
    ///
    /// # Errors
    /// Zero games, an odd number of games with seat swapping, zero threads, a bad shard.
    pub fn from_args(a: &cli::MatchArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        let run = RunConfig::from_args(&a.run, command_line);
        let cfg = MatchConfig {
            shard: a.shard.as_deref().map_or(Ok(Shard::WHOLE), str::parse)?,
            swap: !a.no_swap,
            record: a.record,
            resume: a.resume,
            ..MatchConfig::part(
                &RulesConfig::from_args(&a.rules),
                [a.p1.clone(), a.p2.clone()],
                a.games,
                &run,
                a.out.clone(),
                false,
            )
        };
        cfg.validate()?;
        Ok(cfg)
    }

    /// One pairing of a larger run (a tournament's pairing, a ladder's step, a rule set of a
    /// comparison, a rung of a convergence run, a bench workload), played in `out`: the whole
    /// schedule in seat-swapped pairs, not recorded; it resumes when the larger run does
    /// (`resume_run`) and `out` already holds it.
    #[must_use]
    pub fn part(
        rules: &RulesConfig,
        agents: [AgentSpec; 2],
        games: u64,
        run: &RunConfig,
        out: PathBuf,
        resume_run: bool,
    ) -> MatchConfig {
        MatchConfig {
            game: rules.game.clone(),
            variant: rules.variant.clone(),
            options: rules.options.clone(),
            agents,
            games,
            swap: true,
            seed: run.seed,
            threads: run.threads,
            resume: crate::run::manifest::part_resumes(resume_run, &out),
            out,
            progress: run.progress.clone(),
            command_line: run.command_line.clone(),
            shard: Shard::WHOLE,
            record: false,
        }
    }

    /// The rules the match is played under.
    #[must_use]
    pub fn rules(&self) -> RulesConfig {
        RulesConfig {
            game: self.game.clone(),
            variant: self.variant.clone(),
            options: self.options.clone(),
        }
    }

    /// Checks the counts (games, threads, shard) before anything is written.
    ///
    /// # Errors
    /// A one-line reason naming the bad value.
    pub fn validate(&self) -> anyhow::Result<()> {
        if self.games == 0 {
            bail!("--games 0: a match needs at least one game");
        }
        if self.swap && self.games % 2 == 1 {
            bail!(
                "--games {}: games come in seat-swapped pairs, so the count must be even (or pass --no-swap)",
                self.games
            );
        }
        if self.threads == 0 {
            bail!("--threads 0: at least one worker thread is needed");
        }
        // A set of N shards is refused as a whole when some shard of it would hold no pair
        // (fewer pairs than shards), so every set that runs can be merged into one run.
        let pairs = if self.swap {
            self.games / 2
        } else {
            self.games
        };
        if pairs < self.shard.n {
            let unit = if self.swap {
                "seat-swapped pairs"
            } else {
                "games"
            };
            bail!(
                "--shard {}: --games {} makes {pairs} {unit}, fewer than the {} shards, so some shard would play none (use at most {pairs} shards)",
                self.shard,
                self.games,
                self.shard.n
            );
        }
        Ok(())
    }

    /// The game indices this process plays, in schedule order (computed on demand).
    #[must_use]
    pub fn schedule(&self) -> Schedule {
        Schedule::new(self.games, self.swap, self.shard)
    }

    /// Whether game `i` has the `--p2` agent in seat 1.
    #[must_use]
    pub fn swapped(&self, game_index: u64) -> bool {
        slot(game_index, self.swap).swapped
    }
}

/// Refuses a count of games per pairing that seat-swapped pairs cannot fill.
fn check_pairs(flag: &str, games: u64) -> anyhow::Result<()> {
    if games == 0 || games % 2 == 1 {
        bail!("{flag} {games}: seat-swapped pairs need an even, positive count");
    }
    Ok(())
}

/// Agents that play one another in pairings of seat-swapped pairs (a tournament's round
/// robin, a ladder's steps between adjacent rungs), each pairing a match of its own.
#[derive(Clone, Debug)]
pub struct PairingsConfig {
    /// The rules.
    pub rules: RulesConfig,
    /// The rules resolved.
    pub resolved: ResolvedRules,
    /// The agents (two or more): a tournament's entrants, or a ladder's rungs, weakest first.
    pub agents: Vec<AgentSpec>,
    /// Games per pairing (even, positive).
    pub games_per_pair: u64,
    /// Seed, threads, progress, command line.
    pub run: RunConfig,
    /// Output directory.
    pub out: PathBuf,
    /// Continue an interrupted run in `out`: finished pairings are verified and kept, the
    /// interrupted one resumes, the rest are played.
    pub resume: bool,
}

impl PairingsConfig {
    /// The pairings of `agents` under the rules `rules` names, once the counts are checked.
    ///
    /// # Errors
    /// An unknown game, variant or option.
    fn new(
        rules: &cli::GameRulesArgs,
        agents: &[AgentSpec],
        games_per_pair: u64,
        run: RunConfig,
        out: &std::path::Path,
        resume: bool,
    ) -> anyhow::Result<Self> {
        let rules = RulesConfig::from_args(rules);
        Ok(PairingsConfig {
            resolved: rules.resolve()?,
            rules,
            agents: agents.to_vec(),
            games_per_pair,
            run,
            out: out.to_path_buf(),
            resume,
        })
    }

    /// The match between agents `a` (the match's `--p1`) and `b`, played in `dir`.
    #[must_use]
    pub fn pairing(&self, a: usize, b: usize, dir: PathBuf) -> MatchConfig {
        MatchConfig::part(
            &self.rules,
            [self.agents[a].clone(), self.agents[b].clone()],
            self.games_per_pair,
            &self.run,
            dir,
            self.resume,
        )
    }
}

/// A validated tournament: a round robin.
pub type TournamentConfig = PairingsConfig;

impl PairingsConfig {
    /// `cowrie tournament`'s arguments, validated.
    ///
    /// # Errors
    /// Fewer than two agents, an odd or zero game count, an unknown game, variant or option.
    pub fn tournament(a: &cli::TournamentArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        let k = a.agents.len();
        if k < 2 {
            bail!("a tournament needs two or more --agent specs, got {k}");
        }
        check_pairs("--games-per-pair", a.games_per_pair)?;
        let run = RunConfig::from_args(&a.run, command_line);
        PairingsConfig::new(&a.rules, &a.agents, a.games_per_pair, run, &a.out, a.resume)
    }
}

/// A validated ladder: its steps, and where else its table goes.
#[derive(Clone, Debug)]
pub struct LadderConfig {
    /// The rungs (the pairings' agents, weakest first) and the steps' games.
    pub steps: PairingsConfig,
    /// Also write the ladder table here.
    pub csv: Option<PathBuf>,
}

impl LadderConfig {
    /// `cowrie ladder`'s arguments, validated.
    ///
    /// # Errors
    /// Fewer than two rungs, an odd or zero game count, zero threads, an unwritable `--csv`,
    /// an unknown game, variant or option.
    pub fn from_args(a: &cli::LadderArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        if a.rungs.len() < 2 {
            bail!(
                "a ladder needs two or more --rung specs, got {}",
                a.rungs.len()
            );
        }
        check_pairs("--games-per-pair", a.games_per_pair)?;
        if a.run.threads == 0 {
            bail!("--threads 0: at least one worker thread is needed");
        }
        if let Some(path) = &a.csv {
            check_writable(path)?;
        }
        let run = RunConfig::from_args(&a.run, command_line);
        Ok(LadderConfig {
            steps: PairingsConfig::new(
                &a.rules,
                &a.rungs,
                a.games_per_pair,
                run,
                &a.out,
                a.resume,
            )?,
            csv: a.csv.clone(),
        })
    }
}

/// Whether `path` can be written, checked before any game is played: it is opened for appending
/// (an existing file is left as it is) and removed again if this check created it.
fn check_writable(path: &std::path::Path) -> anyhow::Result<()> {
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

/// One rule set to compare: a variant and option overrides, written `VARIANT+key=value+...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSetSpec {
    /// The variant (None: the game's default).
    pub variant: Option<String>,
    /// `key=value` overrides.
    pub options: Vec<String>,
    /// The text as given.
    pub name: String,
}

impl std::str::FromStr for RuleSetSpec {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> anyhow::Result<Self> {
        let mut parts = s.split('+');
        let variant = parts.next().filter(|v| !v.is_empty()).map(str::to_string);
        let options: Vec<String> = parts.map(str::to_string).collect();
        if let Some(bad) = options.iter().find(|o| !o.contains('=')) {
            bail!(
                "rule set {}: {} is not key=value",
                cli::quote(s),
                cli::quote(bad)
            );
        }
        Ok(RuleSetSpec {
            variant,
            options,
            name: s.to_string(),
        })
    }
}

impl RuleSetSpec {
    /// The rules of this set in game `game`.
    #[must_use]
    pub fn rules(&self, game: &str) -> RulesConfig {
        RulesConfig {
            game: game.to_string(),
            variant: self.variant.clone(),
            options: self.options.clone(),
        }
    }
}

/// A validated comparison (`cowrie advantage`, `cowrie compare`, each game of `cowrie study`):
/// the same agent in both seats under each rule set.
#[derive(Clone, Debug)]
pub struct CompareConfig {
    /// The command, for the manifest: `advantage`, `compare` or `study`.
    pub command: &'static str,
    /// The game.
    pub game: String,
    /// The rule sets (one for `advantage`), each with its rules resolved.
    pub sets: Vec<(RuleSetSpec, ResolvedRules)>,
    /// The agent in both seats.
    pub agent: AgentSpec,
    /// Games per rule set (even).
    pub games: u64,
    /// Seed, threads, progress, command line.
    pub run: RunConfig,
    /// Output directory.
    pub out: PathBuf,
    /// Continue each rule set's interrupted match in its directory (a finished one is verified
    /// and kept).
    pub resume: bool,
}

impl CompareConfig {
    /// A comparison of `sets` in `game`, run by `command` (not resumed): every rule set is
    /// resolved, then the game count and threads are checked, before any game is played or any
    /// file written.
    ///
    /// # Errors
    /// An unknown game, variant or option; a count seat-swapped pairs cannot fill; zero threads.
    pub fn new(
        command: &'static str,
        game: &str,
        sets: Vec<RuleSetSpec>,
        agent: AgentSpec,
        games: u64,
        run: RunConfig,
        out: PathBuf,
    ) -> anyhow::Result<CompareConfig> {
        let sets = sets
            .into_iter()
            .map(|s| {
                let r = s.rules(game).resolve()?;
                Ok((s, r))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let cfg = CompareConfig {
            command,
            game: game.to_string(),
            sets,
            agent,
            games,
            run,
            out,
            resume: false,
        };
        for i in 0..cfg.sets.len() {
            cfg.pairing(i).validate()?;
        }
        Ok(cfg)
    }

    /// `cowrie advantage`'s arguments: one rule set, named after the variant played (the
    /// game's default if none is given) and its overrides.
    ///
    /// # Errors
    /// As [`CompareConfig::new`].
    pub fn advantage(a: &cli::AdvantageArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        let rules = RulesConfig::from_args(&a.rules);
        let resolved = rules.resolve()?;
        let set = RuleSetSpec {
            variant: rules.variant.clone(),
            options: rules.options.clone(),
            name: std::iter::once(resolved.variant)
                .chain(rules.options.iter().cloned())
                .collect::<Vec<_>>()
                .join("+"),
        };
        CompareConfig::new(
            "advantage",
            &rules.game,
            vec![set],
            a.agent.clone(),
            a.games,
            RunConfig::from_args(&a.run, command_line),
            a.out.clone(),
        )
    }

    /// `cowrie compare`'s arguments.
    ///
    /// # Errors
    /// No rule set, a rule set that is not `VARIANT+key=value+...`, and as
    /// [`CompareConfig::new`]. One rule set is measured with no differences, as the study
    /// measures Frangieh's `ludii` on its own.
    pub fn compare(a: &cli::CompareArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        if a.sets.is_empty() {
            bail!("compare needs at least one --set rule set");
        }
        let sets = a
            .sets
            .iter()
            .map(|s| s.parse())
            .collect::<anyhow::Result<Vec<RuleSetSpec>>>()?;
        Ok(CompareConfig {
            resume: a.resume,
            ..CompareConfig::new(
                "compare",
                &a.game,
                sets,
                a.agent.clone(),
                a.games,
                RunConfig::from_args(&a.run, command_line),
                a.out.clone(),
            )?
        })
    }

    /// The directory of rule set `i`'s match.
    #[must_use]
    pub fn set_dir(&self, i: usize) -> PathBuf {
        self.out
            .join(format!("{}-{}", i + 1, sanitize(&self.sets[i].0.name)))
    }

    /// The match of rule set `i`.
    #[must_use]
    pub fn pairing(&self, i: usize) -> MatchConfig {
        MatchConfig::part(
            &self.sets[i].0.rules(&self.game),
            [self.agent.clone(), self.agent.clone()],
            self.games,
            &self.run,
            self.set_dir(i),
            self.resume,
        )
    }
}

/// `name` as a directory name: ASCII letters, digits and `-` kept, anything else `_`.
#[must_use]
pub fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A validated convergence run.
#[derive(Clone, Debug)]
pub struct ConvergeConfig {
    /// The rules.
    pub rules: RulesConfig,
    /// The rungs' agents, weakest first (two or more); each plays itself.
    pub agents: Vec<AgentSpec>,
    /// Games per rung (even, positive: seat-swapped pairs).
    pub games: u64,
    /// Seed, threads, progress, command line; the seed is shared by every rung.
    pub run: RunConfig,
    /// Output directory.
    pub out: PathBuf,
    /// Continue an interrupted run in `out`: finished rungs are verified and kept, the
    /// interrupted one resumes, the rest are played.
    pub resume: bool,
}

impl ConvergeConfig {
    /// `cowrie converge`'s arguments (the rungs' rules, agents and counts are checked by
    /// `cmd::converge::run`, for every rung before any game is played).
    ///
    /// # Errors
    /// Fewer than two agents.
    pub fn from_args(a: &cli::ConvergeArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        if a.agents.len() < 2 {
            bail!(
                "converge needs two or more --agent specs (a ladder, weakest first), got {}",
                a.agents.len()
            );
        }
        Ok(ConvergeConfig {
            rules: RulesConfig::from_args(&a.rules),
            agents: a.agents.clone(),
            games: a.games,
            run: RunConfig::from_args(&a.run, command_line),
            out: a.out.clone(),
            resume: a.resume,
        })
    }
}

/// A validated bench: games per (game, variant).
#[derive(Clone, Copy, Debug)]
pub struct BenchConfig {
    /// Games per (game, variant), at least one.
    pub games: u64,
}

impl BenchConfig {
    /// `cowrie bench`'s arguments.
    ///
    /// # Errors
    /// Zero games.
    pub fn from_args(a: &cli::BenchArgs) -> anyhow::Result<Self> {
        if a.games == 0 {
            bail!("--games 0: the bench needs at least one game per variant");
        }
        Ok(BenchConfig { games: a.games })
    }
}

/// A validated study.
#[derive(Clone, Debug)]
pub struct StudyConfig {
    /// Output directory.
    pub out: PathBuf,
    /// Games per run (even, positive).
    pub games: u64,
    /// Continue an interrupted study in `out`.
    pub resume: bool,
    /// The study's name.
    pub name: String,
    /// The run seed: `--seed`, or the one derived from the name.
    pub seed: u64,
    /// Whether the seed was given (`--seed`) rather than derived from the name.
    pub seed_given: bool,
    /// Worker threads.
    pub threads: usize,
    /// Draw a progress bar.
    pub progress: bool,
    /// The command line, for the manifests.
    pub command_line: Vec<String>,
}

impl StudyConfig {
    /// `cowrie study`'s arguments.
    ///
    /// # Errors
    /// A game count seat-swapped pairs cannot fill.
    pub fn from_args(a: &cli::StudyArgs, command_line: Vec<String>) -> anyhow::Result<Self> {
        if a.games == 0 || a.games % 2 == 1 {
            bail!(
                "--games {}: the study plays seat-swapped pairs, so the count must be even and positive",
                a.games
            );
        }
        Ok(StudyConfig {
            out: a.out.clone(),
            games: a.games,
            resume: a.resume,
            name: a.name.clone(),
            seed: a
                .seed
                .unwrap_or_else(|| crate::run::seeds::study_seed(&a.name)),
            seed_given: a.seed.is_some(),
            threads: a.threads,
            progress: !a.quiet,
            command_line,
        })
    }
}
