//! A comparison of rule sets: the same self-play under each, side by side, with Ludii's metric
//! names (`cowrie advantage` for one rule set, `cowrie compare` for several, `cowrie study` for
//! every game and variant).
//!
//! Both run an ordinary seat-swapped match (same agent spec in both seats) per rule set into
//! `OUT/<n>-<name>/` and compute every metric from that run's `games.csv`. Metrics
//! (`docs/metrics.md` gives the formulas):
//! - `advantage_p1`: seat 1's win rate (Baghchal: the goats); `first_mover_win_rate`: the win rate
//!   of the first mover, `first_mover_seat` (the player who made the first decision, or the
//!   rules' starter: Bargese's three-shell throw winner; differs from seat 1 where an opening
//!   roll or throw decides who starts);
//! - `balance` = 1 − |seat 1 win rate − seat 2 win rate|; `completion`: share of games with a
//!   winner; `drawishness`: share of draws; `timeouts`: share truncated by the ply cap;
//! - `duration_plies`, `duration_turns`: mean game length; `branching_factor` = Σ legal actions
//!   over all decision nodes / Σ plies; `decision_moves` = decision nodes with more than one
//!   legal action / plies;
//! - where the game's pieces enter the board (Bargese, [`crate::games::Report::first_entry`]):
//!   `first_enterer_win_rate`, the win rate of the player who first entered a piece, a second
//!   definition of first mover;
//! - where the game plays matches of games (Julbahar, whose unit is a match; its `subgames.csv`): `subgames`
//!   (games begun inside the matches), and over those games `subgame_seat1_win_rate`,
//!   `subgame_first_mover_win_rate` (won by the player who made that game's first decision) and
//!   `subgame_unfinished` (abandoned when a bonus or the ply cap ended the match mid-game), and
//!   `subgame_first_mover_win_rate_finished` (the same win rate among the finished games only).
//!
//! Proportions carry 95% Wilson intervals; differences from the first rule set carry Newcombe's
//! hybrid score interval; mean lengths a normal (Welch) interval: all of them treat games as
//! independent. Beside them ([`crate::stats::metrics`]): the interval clustered by seat-swapped pair
//! (by pair of matches for the games inside Julbahar matches) with its design effect, the
//! paired difference from the first rule set on common random numbers (the same seeds game by
//! game), and the p-values of the declared hypotheses with their Holm and Benjamini-Hochberg
//! adjustments over the run's family. The first rule set's difference from itself is exactly 0
//! with the interval [0, 0].

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::bail;
use anyhow::Context;
use cowrie_agents::AgentSpec;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::args;
use crate::config::RulesConfig;
use crate::config::RunConfig;
use crate::registry::{dispatch, GameTask};
use crate::run::digest::FileDigest;
use crate::run::manifest::{now_rfc3339, Manifest};
use crate::run::record::writer_for;
use crate::run::runner;
use crate::run::runner::MatchConfig;
use crate::run::schedule::Shard;
use crate::stats::metrics::{adjust_family, metrics, run_stats, Metric, RuleSetStats};

/// A number of `compare.csv`: six decimals, empty for NaN (an undefined estimate, or no
/// hypothesis).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fixed6(pub f64);

impl Serialize for Fixed6 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_nan() {
            s.serialize_str("")
        } else {
            s.collect_str(&format_args!("{:.6}", self.0))
        }
    }
}

impl<'de> Deserialize<'de> for Fixed6 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        if text.is_empty() {
            return Ok(Fixed6(f64::NAN));
        }
        text.parse()
            .map(Fixed6)
            .map_err(|_| serde::de::Error::custom(format!("'{text}' is not a number")))
    }
}

/// Runs one match per rule set and writes `OUT/compare.csv` (long format: one row per rule set
/// and metric); returns the table printed on stdout.
///
/// # Errors
/// As `cowrie match`.
pub fn run(cfg: &CompareConfig) -> anyhow::Result<String> {
    // Every rule set, the game count and threads were checked when the config was made, so a
    // refused run leaves no directory behind.
    if cfg.resume && !cfg.set_dir(0).join("manifest.json").exists() {
        anyhow::bail!(
            "--resume: '{}' holds no run (no manifest.json); leave out --resume to start one",
            cfg.set_dir(0).display()
        );
    }
    if cfg.resume {
        // Each rule set's run checks its own arguments; the shard is checked first, so that
        // resuming one shard as another leaves its directory as it was.
        let path = cfg.out.join("manifest.json");
        if let Ok(text) = cowrie_solver::bounded::read_document(&path) {
            let old: serde_json::Value = serde_json::from_slice(&text).unwrap_or_default();
            // A comparison recorded before shards had none: it is whole.
            let was = old["run"]["shard"].as_str().unwrap_or("1/1").to_string();
            if was != cfg.shard.to_string() {
                bail!(
                    "--resume: '{}' is another run (run.shard was '{was}', now '{}')",
                    path.display(),
                    cfg.shard
                );
            }
        }
    }
    // The agent is checked under every rule set before any is played (a network missing for
    // one variant refuses the comparison, not its second half).
    for (_, rules) in &cfg.sets {
        runner::check_agents(rules, std::slice::from_ref(&cfg.agent), cfg.run.seed)?;
    }
    let matches: Vec<MatchConfig> = (0..cfg.sets.len()).map(|i| cfg.pairing(i)).collect();
    crate::output::create_dir(&cfg.out)?;
    let started = std::time::Instant::now();
    let mut manifest = Manifest::start(
        cfg.command,
        cfg.run.command_line.clone(),
        cfg.manifest_run(),
        cfg.run.threads,
        cfg.agent.is_reproducible(),
        cfg.inputs()?,
    );
    manifest.write(&cfg.out)?;
    let mut distinct = Vec::new();
    let mut games_written = 0;
    for ((set, _), m) in cfg.sets.iter().zip(&matches) {
        cfg.run.progress.say(format!("{} {}", cfg.game, set.name));
        let played = runner::run(m);
        let played = manifest.unless_interrupted(&cfg.out, played)?;
        games_written += played.summary.games;
        distinct.push(played.distinct_games);
    }
    if cfg.shard != Shard::WHOLE {
        // A shard's rule sets hold part of their games each: compare.csv is written by
        // `cowrie merge` once every shard is in; none from an earlier run may stay beside it.
        crate::run::outputs::remove_stale(&cfg.out, &["compare.csv", "compare.svg", "index.html"])?;
        manifest.status = "complete";
        manifest.finished = now_rfc3339();
        manifest.elapsed_seconds = started.elapsed().as_secs_f64();
        manifest.games_written = games_written;
        manifest.write(&cfg.out)?;
        return Ok(format!(
            "{}: shard {} of {} games per rule set ({} rule sets, {games_written} games played) in {}; join the shards with cowrie merge\n",
            cfg.game,
            cfg.shard,
            cfg.games,
            cfg.sets.len(),
            cfg.out.display()
        ));
    }
    finish(cfg, manifest, started, &distinct)
}

/// Writes `compare.csv`, `compare.svg`, the finished manifest (from `manifest`, begun at
/// `started`) and `index.html` of the comparison `cfg` from its rule sets' finished runs, and
/// returns the table printed on stdout (with each rule set's count of distinct games where
/// `distinct` has it: a run that played every game itself). `cowrie compare` calls it
/// after playing, `cowrie merge` after joining the shards' runs.
///
/// # Errors
/// An unreadable run or an unwritable file, naming it.
pub fn finish(
    cfg: &CompareConfig,
    mut manifest: Manifest,
    started: std::time::Instant,
    distinct: &[Option<u64>],
) -> anyhow::Result<String> {
    let mut all = Vec::new();
    let mut lengths_text = String::new();
    for (i, (set, _)) in cfg.sets.iter().enumerate() {
        let dir = cfg.set_dir(i);
        let s = dispatch(
            &cfg.game,
            Stats {
                name: &set.name,
                dir: &dir,
            },
        )?;
        if let Some(d) = distinct.get(i).copied().flatten() {
            let _ = writeln!(lengths_text, "{:<36} distinct games: {d}", set.name);
        }
        let _ = writeln!(
            lengths_text,
            "{:<36} plies: mean {:.2} sd {:.2} quartiles {}/{}/{} max {}; turns: mean {:.2} sd {:.2} quartiles {}/{}/{} max {}",
            set.name, s.plies.mean, s.plies.sd, s.plies.q1, s.plies.median, s.plies.q3, s.plies.max,
            s.turns.mean, s.turns.sd, s.turns.q1, s.turns.median, s.turns.q3, s.turns.max
        );
        all.push(s);
    }
    let swap = cfg.pairing(0).swap;
    let mut table: Vec<Vec<Metric>> = all.iter().map(|s| metrics(s, &all[0])).collect();
    adjust_family(&mut table);
    let path = cfg.out.join("compare.csv");
    let mut w = writer_for::<CompareRow>(&path)?;
    let mut text = format!(
        "{}: {} in both seats, {} games per rule set ({}), seed {}\n",
        cfg.game,
        cfg.agent,
        cfg.games,
        if swap {
            "seat-swapped pairs"
        } else {
            "self-play: no seat swap, dice of its own for each game, game i on the same dice under every rule set"
        },
        cfg.run.seed
    );
    let _ = writeln!(
        text,
        "{:<36} {:<22} {:>9}  {:<20} {:>9}  {:<20} {:>8} {:>8}",
        "rule set",
        "metric",
        "value",
        "95% (pairs)",
        "vs first",
        "95% (paired)",
        "p Holm",
        "diff Holm"
    );
    for (s, ms) in all.iter().zip(&table) {
        for m in ms {
            w.serialize(CompareRow::of(
                &cfg.game,
                &s.name,
                &cfg.agent.to_string(),
                s.games,
                m,
            ))?;
            let interval = |(lo, hi): (f64, f64), signed: bool| {
                if lo.is_nan() {
                    String::new()
                } else if signed {
                    format!("[{lo:+.4}, {hi:+.4}]")
                } else {
                    format!("[{lo:.4}, {hi:.4}]")
                }
            };
            let p = |x: f64| {
                if x.is_nan() {
                    String::new()
                } else {
                    format!("{x:.4}")
                }
            };
            let _ = writeln!(
                text,
                "{:<36} {:<22} {:>9.4}  {:<20} {:>+9.4}  {:<20} {:>8} {:>8}",
                s.name,
                m.name,
                m.value,
                interval(m.clustered, false),
                m.diff.0,
                interval(m.paired, true),
                p(m.p_holm),
                p(m.diff_p_holm)
            );
        }
    }
    w.flush()
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    drop(w);
    let bytes =
        std::fs::read(&path).with_context(|| format!("cannot read '{}'", path.display()))?;
    manifest
        .files
        .insert("compare.csv".to_string(), FileDigest::of(&bytes));
    let shown = [
        ("advantage_p1", "seat 1"),
        ("first_mover_win_rate", "first mover"),
        ("first_enterer_win_rate", "first to enter"),
        ("subgame_first_mover_win_rate", "per game: first mover"),
    ];
    let facts = crate::registry::facts(&cfg.game)?;
    let bars: Vec<crate::pages::plots::Interval> = all
        .iter()
        .zip(&table)
        .flat_map(|(s, ms)| {
            shown.iter().filter_map(move |(metric, what)| {
                // Where the first mover is fixed it is seat 1: one bar, not two.
                if facts.fixed_first_mover.is_some() && *metric == "first_mover_win_rate" {
                    return None;
                }
                ms.iter()
                    .find(|m| m.name == *metric)
                    .map(|m| crate::pages::plots::Interval {
                        label: format!("{} {what}", s.name),
                        value: m.value,
                        low: m.clustered.0,
                        high: m.clustered.1,
                    })
            })
        })
        .collect();
    crate::pages::plots::intervals(
        &cfg.out.join("compare.svg"),
        &format!(
            "{}: win rates with 95% intervals clustered by pair ({})",
            cfg.game, cfg.agent
        ),
        "win rate (fraction of games)",
        &bars,
    )?;
    text += &lengths_text;
    if let Some(note) = facts.comparison_note {
        let _ = writeln!(text, "{note}");
    }
    let _ = writeln!(
        text,
        "95% (pairs): clustered by pair (a seat-swapped pair's two games; in self-play each game \
         alone; games inside matches: by their match); \
         95% (paired): the paired difference on the same seeds; p Holm, diff Holm: Holm-adjusted \
         p-values of the declared hypotheses (docs/metrics.md); Wilson and Newcombe intervals, \
         design effects and Benjamini-Hochberg adjustments in the CSV"
    );
    let _ = writeln!(text, "rows in {}", path.display());
    manifest.status = "complete";
    manifest.finished = now_rfc3339();
    manifest.elapsed_seconds = started.elapsed().as_secs_f64();
    manifest.games_written = all.iter().map(|s| s.games).sum();
    manifest.write(&cfg.out)?;
    crate::pages::run_index::write(
        &cfg.out,
        &format!("cowrie compare: {} ({})", cfg.game, cfg.agent),
    )?;
    Ok(text)
}

/// The statistics of one rule set's run, read as its game's rows.
struct Stats<'a> {
    name: &'a str,
    dir: &'a std::path::Path,
}

impl GameTask for Stats<'_> {
    type Output = RuleSetStats;
    fn run<G: crate::games::Report>(self) -> anyhow::Result<RuleSetStats> {
        run_stats::<G>(self.name, self.dir)
    }
}

/// One row of `compare.csv` (one rule set and metric): the columns of the unclustered analysis
/// first, then the pair-level ones (docs/metrics.md).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompareRow {
    /// The game.
    pub game: String,
    /// The rule set's name.
    pub rule_set: String,
    /// The agent in both seats.
    pub agent: String,
    /// Games of the rule set.
    pub games: u64,
    /// The metric's name.
    pub metric: String,
    /// Its value.
    pub value: Fixed6,
    /// The 95% interval treating games as independent.
    pub ci95_low: Fixed6,
    /// See `ci95_low`.
    pub ci95_high: Fixed6,
    /// The difference from the first rule set.
    pub diff_vs_first: Fixed6,
    /// Its 95% interval (Newcombe's or Welch's).
    pub diff_ci95_low: Fixed6,
    /// See `diff_ci95_low`.
    pub diff_ci95_high: Fixed6,
    /// What the clustered interval clusters by.
    pub cluster: String,
    /// The 95% interval clustered by `cluster`.
    pub clustered_ci95_low: Fixed6,
    /// See `clustered_ci95_low`.
    pub clustered_ci95_high: Fixed6,
    /// The design effect.
    pub design_effect: Fixed6,
    /// The 95% interval of the paired difference from the first rule set.
    pub paired_diff_ci95_low: Fixed6,
    /// See `paired_diff_ci95_low`.
    pub paired_diff_ci95_high: Fixed6,
    /// The p-value of the declared hypothesis on the metric.
    pub p_value: Fixed6,
    /// Its Holm adjustment over the run's family.
    pub p_holm: Fixed6,
    /// Its Benjamini-Hochberg adjustment.
    pub p_bh: Fixed6,
    /// The p-value of "no paired difference from the first rule set".
    pub diff_p_value: Fixed6,
    /// Its Holm adjustment over the run's family.
    pub diff_p_holm: Fixed6,
    /// Its Benjamini-Hochberg adjustment.
    pub diff_p_bh: Fixed6,
    /// The correlation of the paired outcomes (per cluster) with the first rule set's; empty
    /// in files written before it was measured.
    #[serde(default)]
    pub pair_correlation: Fixed6,
    /// The paired difference's standard error over the unpaired one's; empty likewise.
    #[serde(default)]
    pub paired_se_ratio: Fixed6,
}

impl Default for Fixed6 {
    fn default() -> Self {
        Fixed6(f64::NAN)
    }
}

impl CompareRow {
    /// The row of metric `m` of rule set `set`.
    fn of(game: &str, set: &str, agent: &str, games: u64, m: &Metric) -> CompareRow {
        let f = Fixed6;
        CompareRow {
            game: game.to_string(),
            rule_set: set.to_string(),
            agent: agent.to_string(),
            games,
            metric: m.name.to_string(),
            value: f(m.value),
            ci95_low: f(m.ci.0),
            ci95_high: f(m.ci.1),
            diff_vs_first: f(m.diff.0),
            diff_ci95_low: f(m.diff.1),
            diff_ci95_high: f(m.diff.2),
            cluster: m.cluster.to_string(),
            clustered_ci95_low: f(m.clustered.0),
            clustered_ci95_high: f(m.clustered.1),
            design_effect: f(m.design_effect),
            paired_diff_ci95_low: f(m.paired.0),
            paired_diff_ci95_high: f(m.paired.1),
            p_value: f(m.p_value),
            p_holm: f(m.p_holm),
            p_bh: f(m.p_bh),
            diff_p_value: f(m.diff_p_value),
            diff_p_holm: f(m.diff_p_holm),
            diff_p_bh: f(m.diff_p_bh),
            pair_correlation: f(m.pairing.0),
            paired_se_ratio: f(m.pairing.1),
        }
    }
}

/// Reads the rows of a `compare.csv`.
///
/// # Errors
/// An unreadable file or a row that is not a `compare.csv` row, naming the file.
pub fn read_compare(path: &std::path::Path) -> anyhow::Result<Vec<CompareRow>> {
    crate::run::record::read_named(path)
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
                args::quote(s),
                args::quote(bad)
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
    /// The rules of this set in game `game`, resolved.
    ///
    /// # Errors
    /// An unknown game, variant or option, or a bad value, naming it.
    pub fn rules(&self, game: &str) -> anyhow::Result<RulesConfig> {
        RulesConfig::new(game, self.variant.as_deref(), &self.options)
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
    pub sets: Vec<(RuleSetSpec, RulesConfig)>,
    /// The agent in both seats.
    pub agent: AgentSpec,
    /// Games per rule set (self-play: no seat swap).
    pub games: u64,
    /// Seed, threads, progress, command line.
    pub run: RunConfig,
    /// Output directory.
    pub out: PathBuf,
    /// Continue each rule set's interrupted match in its directory (a finished one is verified
    /// and kept).
    pub resume: bool,
    /// The slice of every rule set's run this process plays (`1/1`: all of it, then
    /// `compare.csv`).
    pub shard: Shard,
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
                let r = s.rules(game)?;
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
            shard: Shard::WHOLE,
        };
        for i in 0..cfg.sets.len() {
            cfg.pairing(i).validate()?;
        }
        Ok(cfg)
    }

    /// The comparison's `run` in its manifest: what defines its output (a shard's says which).
    #[must_use]
    pub fn manifest_run(&self) -> serde_json::Value {
        serde_json::json!({
            "game": self.game,
            "sets": self
                .sets
                .iter()
                .map(|(set, rules)| {
                    let mut run = rules.manifest_fields();
                    run["name"] = serde_json::Value::String(set.name.clone());
                    run
                })
                .collect::<Vec<_>>(),
            "agent": self.agent.to_string(),
            "games": self.games,
            "seat_swap": self.pairing(0).swap,
            "seed": self.run.seed,
            "shard": self.shard.to_string(),
        })
    }

    /// The files the agent reads under each rule set (shipped weights differ by variant).
    ///
    /// # Errors
    /// An input that cannot be read, naming it.
    pub fn inputs(&self) -> anyhow::Result<crate::run::provenance::Inputs> {
        let mut inputs = crate::run::provenance::Inputs::new();
        for (_, rules) in &self.sets {
            for (spec, files) in
                crate::run::provenance::inputs(rules, std::slice::from_ref(&self.agent))?
            {
                inputs.entry(spec).or_default().extend(files);
            }
        }
        Ok(inputs)
    }

    /// This comparison sliced to `shard`: each rule set's run plays the pairs `cowrie match
    /// --shard` takes.
    ///
    /// # Errors
    /// A shard some of whose siblings would play no game (fewer pairs than shards), naming it.
    pub fn sharded(self, shard: Shard) -> anyhow::Result<CompareConfig> {
        let cfg = CompareConfig { shard, ..self };
        for i in 0..cfg.sets.len() {
            cfg.pairing(i).validate()?;
        }
        Ok(cfg)
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
        MatchConfig {
            shard: self.shard,
            ..MatchConfig::part(
                &self.sets[i].1,
                [self.agent.clone(), self.agent.clone()],
                self.games,
                &self.run,
                self.set_dir(i),
                self.resume,
            )
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::record::header_of;

    #[test]
    fn rows_have_the_documented_columns_and_read_back() {
        assert_eq!(
            String::from_utf8(header_of::<CompareRow>()).unwrap(),
            "game,rule_set,agent,games,metric,value,ci95_low,ci95_high,diff_vs_first,\
             diff_ci95_low,diff_ci95_high,cluster,clustered_ci95_low,clustered_ci95_high,\
             design_effect,paired_diff_ci95_low,paired_diff_ci95_high,p_value,p_holm,p_bh,\
             diff_p_value,diff_p_holm,diff_p_bh,pair_correlation,paired_se_ratio\n"
        );
        let row = CompareRow {
            game: "bargese".into(),
            metric: "advantage_p1".into(),
            games: 20,
            value: Fixed6(0.55),
            diff_vs_first: Fixed6(-0.0),
            ..CompareRow::default()
        };
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(header_of::<CompareRow>());
        w.serialize(&row).unwrap();
        let bytes = w.into_inner().unwrap();
        assert!(String::from_utf8_lossy(&bytes)
            .ends_with("\nbargese,,,20,advantage_p1,0.550000,,,-0.000000,,,,,,,,,,,,,,,,\n"));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("compare.csv");
        std::fs::write(&path, &bytes).unwrap();
        let back = read_compare(&path).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!((back[0].value, back[0].games), (Fixed6(0.55), 20));
        assert!(back[0].p_value.0.is_nan());
        // A file written before the pairing columns existed reads with them empty.
        let old = String::from_utf8_lossy(&bytes)
            .replace(",pair_correlation,paired_se_ratio\n", "\n")
            .replace(",,\n", "\n")
            .replacen("advantage_p1,0.550000", "advantage_p1,0.250000", 1);
        std::fs::write(&path, old).unwrap();
        let back = read_compare(&path).unwrap();
        assert_eq!(back[0].value, Fixed6(0.25));
        assert!(back[0].pair_correlation.0.is_nan() && back[0].paired_se_ratio.0.is_nan());
    }
}
