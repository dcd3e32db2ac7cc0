//! `cowrie merge --out DIR SHARD_DIR...`: joins the outputs of `cowrie match --shard K/N` into
//! the output of one run. `games.csv`, `records.jsonl`, `summary.csv` and `lengths.svg` come out
//! byte-identical to what the unsharded run writes; the manifest says `merge` and lists the shards.
//! The shards of `cowrie compare --shard K/N` and `cowrie study --shard K/N` (told apart by their
//! manifests) are joined rule set by rule set the same way, then `compare.csv`, `summary.csv`,
//! `README.md` and the rest are written by the functions the unsharded commands write them with.
//! The shards of `cowrie ladder --shard K/N` and `cowrie tournament --shard K/N` (their
//! manifests' `command`) are joined step by step or pairing by pairing, then `ladder.csv`, or
//! the tournament's `summary.csv` and `ratings.csv`, and their `games.csv` are written the same
//! way. The shards of `cowrie converge --shard K/N` are joined rung by rung and the strength
//! match, then `converge.csv`, `strength.csv`, `verdict.csv`, `converge.txt` and `converge.svg`
//! are written by the functions the unsharded command writes them with. The shards of
//! `cowrie train-eval --shard K/N` are joined snapshot by snapshot into the learning curve
//! `cowrie train` writes when it evaluates in-process (`curve.csv`, `curve.svg`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::Args;

use crate::args::{ForceArg, OutArg};
use crate::cmd::converge::ConvergeConfig;
use crate::cmd::ladder::LadderConfig;
use crate::cmd::study::StudyConfig;
use crate::config::RunConfig;
use crate::games::Report;
use crate::registry::{dispatch, GameTask};
use crate::run::comparison::{self, CompareConfig, RuleSetSpec};
use crate::run::digest::{self, FileDigest};
use crate::run::manifest::{now_rfc3339, Manifest};
use crate::run::pairings::PairingsConfig;
use crate::run::schedule::{slot, Shard};
use crate::run::summary::{self, SummaryLabels};

struct Sides;

impl GameTask for Sides {
    type Output = ([&'static str; 2], &'static str);
    fn run<G: Report>(self) -> anyhow::Result<Self::Output> {
        Ok((G::SIDES, G::NAME))
    }
}

/// Reads a file: `std::fs::read`, or, when checking files held in memory, their bytes.
pub(crate) type Read<'a> = &'a dyn Fn(&Path) -> std::io::Result<Vec<u8>>;

fn read_manifest(dir: &Path, read: Read) -> anyhow::Result<serde_json::Value> {
    let path = dir.join("manifest.json");
    let text = read(&path).with_context(|| format!("cannot read '{}'", path.display()))?;
    serde_json::from_slice(&text)
        .map_err(crate::args::json_error)
        .with_context(|| format!("'{}' is not a manifest", path.display()))
}

/// The lines of shard file `dir/name`, each with its trailing newline, after checking the file
/// against the digest the shard's manifest records for it.
pub(crate) fn lines(
    dir: &Path,
    name: &str,
    manifest: &serde_json::Value,
    read: Read,
) -> anyhow::Result<Vec<Vec<u8>>> {
    let path = dir.join(name);
    let bytes = read(&path).with_context(|| format!("cannot read '{}'", path.display()))?;
    let recorded =
        digest::recorded(manifest, name, &dir.join("manifest.json"))?.with_context(|| {
            format!(
                "'{}': its manifest records no digest of it (no files.{name}), so it cannot be merged",
                path.display()
            )
        })?;
    digest::check(&path, &bytes, &recorded, true)?;
    Ok(bytes
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect())
}

/// The first field of `run` (a manifest's `run` object) whose value differs in `other`.
fn first_difference(run: &serde_json::Value, other: &serde_json::Value) -> String {
    let keys = run
        .as_object()
        .into_iter()
        .flat_map(|m| m.keys())
        .chain(other.as_object().into_iter().flat_map(|m| m.keys()));
    for k in keys {
        if run.get(k) != other.get(k) {
            let show = |v: Option<&serde_json::Value>| {
                crate::args::quote(&v.map_or_else(|| "nothing".to_string(), ToString::to_string))
            };
            return format!(
                "run.{} is {} there, {} here",
                crate::args::quote(k).trim_matches('\''),
                show(run.get(k)),
                show(other.get(k))
            );
        }
    }
    "the runs differ".to_string()
}

/// The shards of a run, read and checked, as the files of the one run they make.
#[derive(Debug)]
pub struct Merged {
    /// The run's description, shard `1/1`.
    run: serde_json::Value,
    /// How many shards.
    n: u64,
    /// Games in the run.
    games: u64,
    /// Whether seats swap in pairs.
    swap: bool,
    /// `games.csv`.
    csv: Vec<u8>,
    /// `subgames.csv`, for games whose rows are matches of games.
    subgames: Option<Vec<u8>>,
    /// `records.jsonl`, for a recorded run.
    records: Option<Vec<u8>>,
    /// The files the agents read, as every shard records them.
    inputs: crate::run::provenance::Inputs,
    /// The seats' agents.
    agents: [String; 2],
    /// The sides' names and the game's.
    sides: ([&'static str; 2], &'static str),
}

/// Merges the shards.
///
/// # Errors
/// Shards of different runs, a missing, repeated or unfinished shard, unreadable or
/// unwritable files; each names the directory.
pub fn run(args: &MergeArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    let out_real = std::fs::canonicalize(&args.output.out).ok();
    for dir in &args.shards {
        if out_real.is_some() && std::fs::canonicalize(dir).ok() == out_real {
            bail!(
                "--out '{}' is one of the shards being merged; write the merged run elsewhere",
                args.output.out.display()
            );
        }
    }
    let shards: Vec<&Path> = args.shards.iter().map(PathBuf::as_path).collect();
    crate::run::outputs::check_new_dir(&args.output.out, &shards, args.forcing.force)?;
    let read: Read = &cowrie_solver::bounded::read_run_file;
    let first = read_manifest(&args.shards[0], read)?;
    let out = &args.output.out;
    if first["command"].as_str() == Some("train-eval") {
        let text = crate::cmd::train_eval::merge(&args.shards, out, command_line, read)?;
        crate::output::print_stdout(&text)
    } else if first["command"].as_str() == Some("converge") {
        let converge = read_converge(&args.shards, out, &command_line, read)?;
        crate::output::print_stdout(&write_converge(converge, &command_line)?)
    } else if matches!(first["command"].as_str(), Some("ladder" | "tournament")) {
        let pairings = read_pairings(&args.shards, out, &command_line, read)?;
        crate::output::print_stdout(&write_pairings(pairings, &command_line)?)
    } else if first["run"]["runs"].is_array() {
        let study = read_study(&args.shards, out, &command_line, read)?;
        write_study(study, &command_line)
    } else if first["run"]["sets"].is_array() {
        let compare = read_compare(&args.shards, out, &command_line, read)?;
        crate::output::print_stdout(&write_compare(compare, &command_line)?)
    } else {
        let merged = read_shards(&args.shards, read)?;
        crate::output::print_stdout(&write(out, merged, command_line)?)
    }
}

/// The shards of a comparison (`cowrie compare --shard`, or one game of `cowrie study
/// --shard`), read and checked, as the comparison they make.
pub struct MergedCompare {
    /// The comparison, as the unsharded command would run it into the merge's `--out`.
    cfg: CompareConfig,
    /// Each rule set's run, merged from its shards' runs.
    runs: Vec<Merged>,
    /// The files the agent reads, as every shard records them.
    inputs: crate::run::provenance::Inputs,
}

/// The inputs every shard of `seen` records, after checking that they agree.
pub(crate) fn shared_inputs(
    seen: &BTreeMap<u64, (PathBuf, serde_json::Value)>,
) -> anyhow::Result<crate::run::provenance::Inputs> {
    let mut inputs: Option<(&PathBuf, &serde_json::Value)> = None;
    for (dir, m) in seen.values() {
        let here = &m["inputs"];
        match inputs {
            None => inputs = Some((dir, here)),
            Some((first, there)) if there != here => bail!(
                "shard '{}' played with other agent inputs than '{}' (inputs: {})",
                dir.join("manifest.json").display(),
                first.join("manifest.json").display(),
                first_difference(there, here)
            ),
            Some(_) => {}
        }
    }
    match inputs {
        Some((dir, v)) if !v.is_null() => serde_json::from_value(v.clone())
            .map_err(crate::args::json_error)
            .with_context(|| format!("'{}': inputs", dir.join("manifest.json").display())),
        _ => Ok(crate::run::provenance::Inputs::new()),
    }
}

/// The command a comparison's manifest names, as the comparison records it.
fn compare_command(m: &serde_json::Value, dir: &Path) -> anyhow::Result<&'static str> {
    match m["command"].as_str() {
        Some("compare") => Ok("compare"),
        Some("study") => Ok("study"),
        other => bail!(
            "'{}': command {} is not a comparison that shards (compare, study)",
            dir.join("manifest.json").display(),
            crate::args::quote(other.unwrap_or("nothing"))
        ),
    }
}

/// Reads and checks the shards `shards` of one comparison, to be merged into `out`: the
/// shards' manifests, then each rule set's runs as [`read_shards`] does.
///
/// # Errors
/// As [`read_shards`], and a comparison this cowrie cannot rebuild from its manifest.
pub fn read_compare(
    shards: &[PathBuf],
    out: &Path,
    command_line: &[String],
    read: Read,
) -> anyhow::Result<MergedCompare> {
    let set = shard_set(shards, read)?;
    let (dir, first) = &set.seen[&1];
    let at = dir.join("manifest.json");
    let run = &set.run;
    let field = |k: &str| {
        run[k]
            .as_str()
            .map(str::to_string)
            .or_else(|| run[k].as_u64().map(|v| v.to_string()))
            .with_context(|| format!("'{}': no run.{k}", at.display()))
    };
    let sets = run["sets"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            s["name"]
                .as_str()
                .with_context(|| format!("'{}': a rule set without a name", at.display()))?
                .parse::<RuleSetSpec>()
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let threads = first["threads"].as_u64().unwrap_or(1);
    let cfg = CompareConfig::new(
        compare_command(first, dir)?,
        &field("game")?,
        sets,
        field("agent")?.parse()?,
        field("games")?.parse()?,
        RunConfig {
            seed: field("seed")?.parse()?,
            threads: usize::try_from(threads).unwrap_or(1),
            progress: crate::progress::Progress::Hidden,
            command_line: command_line.to_vec(),
        },
        out.to_path_buf(),
    )
    .with_context(|| format!("'{}': run", at.display()))?;
    let mut rebuilt = cfg.manifest_run();
    rebuilt["shard"] = serde_json::Value::Null;
    if rebuilt != *run {
        bail!(
            "'{}': this cowrie would run another comparison from its arguments ({})",
            at.display(),
            first_difference(run, &rebuilt)
        );
    }
    let inputs = shared_inputs(&set.seen)?;
    let runs = (0..cfg.sets.len())
        .map(|i| {
            let name = cfg.set_dir(i);
            let name = name.file_name().unwrap_or_default();
            let dirs: Vec<PathBuf> = set.seen.values().map(|(d, _)| d.join(name)).collect();
            read_shards(&dirs, read)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(MergedCompare { cfg, runs, inputs })
}

/// Writes the merged comparison `m`: each rule set's run, then `compare.csv` and the rest as
/// the unsharded comparison writes them ([`comparison::finish`]); returns its table.
///
/// # Errors
/// An unwritable file, naming it.
pub fn write_compare(m: MergedCompare, command_line: &[String]) -> anyhow::Result<String> {
    let MergedCompare { cfg, runs, inputs } = m;
    crate::output::create_dir(&cfg.out)?;
    for (i, merged) in runs.into_iter().enumerate() {
        write(&cfg.set_dir(i), merged, command_line.to_vec())?;
    }
    let manifest = Manifest::start(
        cfg.command,
        command_line.to_vec(),
        cfg.manifest_run(),
        cfg.run.threads,
        cfg.agent.is_reproducible(),
        inputs,
    );
    comparison::finish(&cfg, manifest, std::time::Instant::now(), &[])
}

/// A ladder or a tournament, rebuilt from its shards' manifests as the unsharded command would
/// run it into the merge's `--out`.
enum PairingsRun {
    /// `cowrie ladder`.
    Ladder(LadderConfig),
    /// `cowrie tournament`.
    Tournament(PairingsConfig),
}

impl PairingsRun {
    fn pairings(&self) -> &PairingsConfig {
        match self {
            PairingsRun::Ladder(l) => &l.steps,
            PairingsRun::Tournament(t) => t,
        }
    }
}

/// The shards of a ladder or a tournament, read and checked: the run, and each of its
/// pairings (a ladder's steps) merged, with the directory it goes to.
pub struct MergedPairings {
    run: PairingsRun,
    pairings: Vec<(PathBuf, Merged)>,
    inputs: crate::run::provenance::Inputs,
}

/// Reads and checks the shards `shards` of one ladder or tournament, to be merged into `out`:
/// the shards' manifests, then each pairing's runs as [`read_shards`] does.
///
/// # Errors
/// As [`read_shards`], and a run this cowrie cannot rebuild from its manifest.
pub fn read_pairings(
    shards: &[PathBuf],
    out: &Path,
    command_line: &[String],
    read: Read,
) -> anyhow::Result<MergedPairings> {
    let set = shard_set(shards, read)?;
    let (dir, first) = &set.seen[&1];
    let at = dir.join("manifest.json");
    let (run, mut rebuilt) = match first["command"].as_str() {
        Some("ladder") => {
            let cfg = LadderConfig::from_manifest(first, out, command_line)
                .with_context(|| format!("'{}': run", at.display()))?;
            let rebuilt = cfg.manifest_run();
            (PairingsRun::Ladder(cfg), rebuilt)
        }
        _ => {
            let cfg = PairingsConfig::from_manifest(first, "agents", out, command_line)
                .with_context(|| format!("'{}': run", at.display()))?;
            let rebuilt = crate::cmd::tournament::manifest_run(&cfg);
            (PairingsRun::Tournament(cfg), rebuilt)
        }
    };
    rebuilt["shard"] = serde_json::Value::Null;
    if rebuilt != set.run {
        bail!(
            "'{}': this cowrie would run another {} from its arguments ({})",
            at.display(),
            first["command"].as_str().unwrap_or_default(),
            first_difference(&set.run, &rebuilt)
        );
    }
    let inputs = shared_inputs(&set.seen)?;
    let cfg = run.pairings();
    let list = match &run {
        PairingsRun::Ladder(_) => cfg.steps(),
        PairingsRun::Tournament(_) => cfg.round_robin(),
    };
    let pairings = list
        .into_iter()
        .map(|p| {
            let within = p.dir.strip_prefix(out).unwrap_or(&p.dir);
            let dirs: Vec<PathBuf> = set.seen.values().map(|(d, _)| d.join(within)).collect();
            Ok((p.dir.clone(), read_shards(&dirs, read)?))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(MergedPairings {
        run,
        pairings,
        inputs,
    })
}

/// Writes the merged ladder or tournament `m`: each pairing's run, then its tables as the
/// unsharded command writes them; returns the table it prints.
///
/// # Errors
/// An unwritable file, naming it.
pub fn write_pairings(m: MergedPairings, command_line: &[String]) -> anyhow::Result<String> {
    let MergedPairings {
        run,
        pairings,
        inputs,
    } = m;
    crate::output::create_dir(&run.pairings().out)?;
    for (dir, merged) in pairings {
        write(&dir, merged, command_line.to_vec())?;
    }
    match &run {
        PairingsRun::Ladder(cfg) => crate::cmd::ladder::finish_merged(cfg, inputs),
        PairingsRun::Tournament(cfg) => crate::cmd::tournament::finish(
            cfg,
            crate::cmd::tournament::start(cfg, inputs),
            std::time::Instant::now(),
        ),
    }
}

/// The shards of a convergence run, read and checked: the run, and each of its matches (the
/// rungs, the strength match) merged, with the directory it goes to.
pub struct MergedConverge {
    cfg: ConvergeConfig,
    parts: Vec<(PathBuf, Merged)>,
    inputs: crate::run::provenance::Inputs,
}

/// Reads and checks the shards `shards` of one convergence run, to be merged into `out`: the
/// shards' manifests, then each rung's and the strength match's runs as [`read_shards`] does.
///
/// # Errors
/// As [`read_shards`], and a run this cowrie cannot rebuild from its manifest.
pub fn read_converge(
    shards: &[PathBuf],
    out: &Path,
    command_line: &[String],
    read: Read,
) -> anyhow::Result<MergedConverge> {
    let set = shard_set(shards, read)?;
    let (dir, first) = &set.seen[&1];
    let at = dir.join("manifest.json");
    let cfg = ConvergeConfig::from_manifest(first, out, command_line)
        .with_context(|| format!("'{}': run", at.display()))?;
    let mut rebuilt = cfg.manifest_run();
    rebuilt["shard"] = serde_json::Value::Null;
    if rebuilt != set.run {
        bail!(
            "'{}': this cowrie would run another convergence run from its arguments ({})",
            at.display(),
            first_difference(&set.run, &rebuilt)
        );
    }
    let inputs = shared_inputs(&set.seen)?;
    let parts = crate::cmd::converge::parts(&cfg)?
        .matches()
        .map(|m| {
            let within = m.out.strip_prefix(out).unwrap_or(&m.out);
            let dirs: Vec<PathBuf> = set.seen.values().map(|(d, _)| d.join(within)).collect();
            Ok((m.out.clone(), read_shards(&dirs, read)?))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(MergedConverge { cfg, parts, inputs })
}

/// Writes the merged convergence run `m`: each match's run, then its tables, plot and verdict
/// as the unsharded command writes them; returns the text it prints.
///
/// # Errors
/// An unwritable file, naming it; a solved rung whose games its value does not admit.
pub fn write_converge(m: MergedConverge, command_line: &[String]) -> anyhow::Result<String> {
    let MergedConverge { cfg, parts, inputs } = m;
    crate::output::create_dir(&cfg.out)?;
    for (dir, merged) in parts {
        write(&dir, merged, command_line.to_vec())?;
    }
    crate::cmd::converge::finish_merged(&cfg, inputs)
}

/// The shards of a study, read and checked: the study, and each of its comparisons merged.
pub struct MergedStudy {
    /// The study, as the unsharded command would run it into the merge's `--out`.
    cfg: StudyConfig,
    /// Its comparisons, in the study's order.
    compares: Vec<MergedCompare>,
}

/// Reads and checks the shards `shards` of one study, to be merged into `out`.
///
/// # Errors
/// As [`read_compare`], for the study's manifests and each comparison.
pub fn read_study(
    shards: &[PathBuf],
    out: &Path,
    command_line: &[String],
    read: Read,
) -> anyhow::Result<MergedStudy> {
    let set = shard_set(shards, read)?;
    let (dir, first) = &set.seen[&1];
    let cfg = StudyConfig::from_manifest(first, out, command_line)
        .with_context(|| format!("'{}': run", dir.join("manifest.json").display()))?;
    let mut rebuilt = cfg.manifest_run();
    rebuilt["shard"] = serde_json::Value::Null;
    if rebuilt != set.run {
        bail!(
            "'{}': this cowrie would run another study from its arguments ({})",
            dir.join("manifest.json").display(),
            first_difference(&set.run, &rebuilt)
        );
    }
    let compares = crate::cmd::study::runs(cfg.db_dir.as_deref())
        .iter()
        .map(|r| {
            let dirs: Vec<PathBuf> = set.seen.values().map(|(d, _)| d.join(&r.dir)).collect();
            read_compare(&dirs, &out.join(&r.dir), command_line, read)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(MergedStudy { cfg, compares })
}

/// Writes the merged study `m`: each comparison as [`write_compare`] does, then `summary.csv`,
/// `README.md` and the rest as the unsharded study writes them ([`crate::cmd::study::finish`]).
///
/// # Errors
/// An unwritable file, naming it.
pub fn write_study(m: MergedStudy, command_line: &[String]) -> anyhow::Result<()> {
    crate::output::create_dir(&m.cfg.out)?;
    for c in m.compares {
        write_compare(c, command_line)?;
    }
    let manifest = Manifest::start(
        "study",
        command_line.to_vec(),
        m.cfg.manifest_run(),
        m.cfg.threads,
        true,
        crate::run::provenance::Inputs::new(),
    );
    crate::cmd::study::finish(&m.cfg, manifest, std::time::Instant::now())
}

/// The shards of one run, read and checked: each complete, all of one run (the `run` of their
/// manifests equal but for `shard`), all of one count N, each K once and none missing.
pub(crate) struct ShardSet {
    /// The shards' `run`, `shard` set to null.
    pub(crate) run: serde_json::Value,
    /// How many shards.
    pub(crate) n: u64,
    /// Each shard's directory and manifest, by K.
    pub(crate) seen: BTreeMap<u64, (PathBuf, serde_json::Value)>,
}

/// Reads the manifests of the shard directories `shards` with `read` and checks that they are
/// the shards of one run, each once.
///
/// # Errors
/// An unreadable or unfinished shard, shards of different runs or counts, a repeated or a
/// missing shard; each names the manifest and the field.
pub(crate) fn shard_set(shards: &[PathBuf], read: Read) -> anyhow::Result<ShardSet> {
    let mut run: Option<serde_json::Value> = None;
    let mut seen: BTreeMap<u64, (PathBuf, serde_json::Value)> = BTreeMap::new();
    let mut n_shards = None;
    for dir in shards {
        let m = read_manifest(dir, read)?;
        if m["status"] != "complete" {
            bail!(
                "shard '{}' is not complete (status {})",
                dir.join("manifest.json").display(),
                crate::args::quote(&m["status"].to_string())
            );
        }
        let mut r = crate::run::manifest::current_spelling(&m["run"]);
        let shard: Shard = r["shard"]
            .as_str()
            .unwrap_or_default()
            .parse()
            .with_context(|| format!("'{}': run.shard", dir.join("manifest.json").display()))?;
        r["shard"] = serde_json::Value::Null;
        match &run {
            None => run = Some(r),
            Some(first) if *first != r => {
                bail!(
                    "shard '{}' belongs to another run than '{}' ({})",
                    dir.join("manifest.json").display(),
                    shards[0].join("manifest.json").display(),
                    first_difference(first, &r)
                )
            }
            Some(_) => {}
        }
        if *n_shards.get_or_insert(shard.n) != shard.n {
            bail!(
                "shard '{}' splits the run {} ways, not {} (run.shard)",
                dir.join("manifest.json").display(),
                shard.n,
                n_shards.unwrap_or(0)
            );
        }
        if let Some((other, _)) = seen.insert(shard.k, (dir.clone(), m)) {
            bail!(
                "shard {shard} appears twice: '{}' and '{}' (run.shard)",
                other.join("manifest.json").display(),
                dir.join("manifest.json").display()
            );
        }
    }
    let run = run.context("no shard directories given")?;
    let n = n_shards.unwrap_or(1);
    if let Some(missing) = (1..=n).find(|k| !seen.contains_key(k)) {
        bail!("shard {missing}/{n} is missing");
    }
    Ok(ShardSet { run, n, seen })
}

/// Reads the shard directories `shards` with `read` (which reports an absent file as not
/// found) and checks them: each shard's manifest, that they are the shards of one run, each
/// once, and every file against the digest its manifest records.
///
/// # Errors
/// As [`run`], writing nothing.
pub fn read_shards(shards: &[PathBuf], read: Read) -> anyhow::Result<Merged> {
    let ShardSet { run, n, seen } = shard_set(shards, read)?;
    // Shards whose agents read other files (weights retrained between shards) are not one run.
    let inputs = shared_inputs(&seen)?;
    let games = run["games"].as_u64().context("manifest without games")?;
    let swap = run["seat_swap"].as_bool().unwrap_or(true);
    let record = run["record"].as_bool().unwrap_or(false);

    // subgames.csv (games that are matches of games): rows by game_index, stable.
    let mut sub_header: Option<Vec<u8>> = None;
    let mut sub_rows: Vec<(u64, Vec<u8>)> = Vec::new();
    for (dir, m) in seen.values() {
        let p = dir.join("subgames.csv");
        let all = match lines(dir, "subgames.csv", m, read) {
            Err(e)
                if e.downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::NotFound) =>
            {
                continue
            }
            r => r?,
        };
        if let Some((head, body)) = all.split_first() {
            sub_header.get_or_insert_with(|| head.clone());
            for l in body {
                let first = l.split(|&b| b == b',').next().unwrap_or_default();
                let index = std::str::from_utf8(first)
                    .ok()
                    .and_then(|s| s.parse::<u64>().ok())
                    .with_context(|| format!("'{}': a row without game_index", p.display()))?;
                sub_rows.push((index, l.clone()));
            }
        }
    }
    sub_rows.sort_by_key(|(i, _)| *i);
    let mut header: Option<Vec<u8>> = None;
    let mut rows: BTreeMap<u64, (Vec<u8>, Option<Vec<u8>>)> = BTreeMap::new();
    for (dir, m) in seen.values() {
        let csv_lines = lines(dir, "games.csv", m, read)?;
        let (head, body) = csv_lines
            .split_first()
            .with_context(|| format!("'{}' has an empty games.csv", dir.display()))?;
        if *header.get_or_insert_with(|| head.clone()) != *head {
            bail!("'{}' has another games.csv header", dir.display());
        }
        let recs = if record {
            Some(lines(dir, "records.jsonl", m, read)?)
        } else {
            None
        };
        for (i, line) in body.iter().enumerate() {
            let first = line.split(|&b| b == b',').next().unwrap_or_default();
            let index = std::str::from_utf8(first)
                .ok()
                .and_then(|s| s.parse::<u64>().ok())
                .with_context(|| format!("'{}' row {}: no game_index", dir.display(), i + 1))?;
            let rec =
                match &recs {
                    Some(r) => Some(r.get(i).cloned().with_context(|| {
                        format!("'{}' has fewer records than rows", dir.display())
                    })?),
                    None => None,
                };
            if rows.insert(index, (line.clone(), rec)).is_some() {
                bail!("game {index} appears in two shards");
            }
        }
    }
    if rows.len() as u64 != games || rows.keys().copied().ne(0..games) {
        bail!("the shards hold {} of the run's {games} games", rows.len());
    }

    let mut csv = header.unwrap_or_default();
    let mut rec_bytes = Vec::new();
    for (line, rec) in rows.values() {
        csv.extend_from_slice(line);
        if let Some(r) = rec {
            rec_bytes.extend_from_slice(r);
        }
    }
    let subgames = sub_header.map(|head| {
        let mut bytes = head;
        for (_, l) in &sub_rows {
            bytes.extend_from_slice(l);
        }
        bytes
    });
    let agents: [String; 2] = serde_json::from_value(run["agents"].clone())
        .map_err(crate::args::json_error)
        .context("manifest without agents")?;
    let sides = dispatch(run["game"].as_str().unwrap_or_default(), Sides)?;
    Ok(Merged {
        run,
        inputs,
        n,
        games,
        swap,
        csv,
        subgames,
        records: record.then_some(rec_bytes),
        agents,
        sides,
    })
}

/// Writes the merged run `m` in `out`: its files, summary, plot and manifest; returns its
/// summary table.
///
/// # Errors
/// An unwritable file, naming it.
fn write(out: &Path, m: Merged, command_line: Vec<String>) -> anyhow::Result<String> {
    let Merged {
        mut run,
        inputs,
        n,
        games,
        swap,
        csv,
        subgames,
        records,
        agents,
        sides: (sides, name),
    } = m;
    crate::output::create_dir(out)?;
    let csv_path = out.join("games.csv");
    let mut files = BTreeMap::new();
    let mut write = |name: &str, bytes: Option<Vec<u8>>| -> anyhow::Result<()> {
        let p = out.join(name);
        match bytes {
            Some(b) => {
                std::fs::write(&p, &b)
                    .with_context(|| format!("cannot write '{}'", p.display()))?;
                files.insert(name.to_string(), FileDigest::of(&b));
            }
            // A file the merged run does not have must not survive from an earlier run.
            None if p.exists() => std::fs::remove_file(&p)
                .with_context(|| format!("cannot replace '{}'", p.display()))?,
            None => {}
        }
        Ok(())
    };
    write("games.csv", Some(csv))?;
    write("subgames.csv", subgames)?;
    write("records.jsonl", records)?;
    let game = run["game"].as_str().unwrap_or_default().to_string();
    let table_rows: Vec<_> = crate::run::record::read_rows(&csv_path)?
        .iter()
        .map(crate::run::record::GameRow::row_result)
        .collect();
    let s = summary::summarise(&table_rows, |i| slot(i, swap).swapped);
    let labels = SummaryLabels { sides, agents };
    files.insert(
        "summary.csv".to_string(),
        summary::write_csv(out, &s, &labels)?,
    );
    let variant = run["variant"].as_str().unwrap_or_default();
    crate::pages::plots::write_lengths(out, name, variant, &table_rows)?;
    // The page of the run a match writes; the shards' counts of distinct games do not add up
    // to the run's (a game of one shard may repeat another's), so its title has none.
    let overrides: Vec<String> =
        serde_json::from_value(run["option_overrides"].clone()).unwrap_or_default();
    let title = crate::run::runner::title(
        name,
        variant,
        &overrides,
        games,
        swap,
        Shard::WHOLE,
        None,
        run["seed"].as_u64().unwrap_or_default(),
    );
    run["shard"] = serde_json::Value::String(Shard::WHOLE.to_string());
    let now = now_rfc3339();
    Manifest {
        status: "complete",
        command: "merge",
        command_line,
        build: crate::run::provenance::build(),
        run,
        threads: 1,
        reproducible: true,
        started: now.clone(),
        finished: now,
        elapsed_seconds: 0.0,
        games_written: games,
        // Shards count their own games; a game of one shard may repeat one of another's.
        distinct_games: None,
        inputs,
        files,
    }
    .write(out)?;
    crate::pages::run_index::write(out, &format!("cowrie match: {title}"))?;
    Ok(summary::table(
        &s,
        &labels,
        &format!("{game}: {games} games merged from {n} shards"),
    ))
}

/// `cowrie merge`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("Output directory for the merged run (created if missing; a directory already holding a finished run or a database is refused unless --force)")))]
#[command(mut_arg("force", |a| a.help("Replace the run DIR already holds")))]
pub struct MergeArgs {
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
    /// `--force`.
    #[command(flatten)]
    pub forcing: ForceArg,
    /// The shards' output directories (every shard of one match, comparison, study, ladder,
    /// tournament, convergence run or training run's evaluation, in any order).
    #[arg(required = true, value_name = "SHARD_DIR")]
    pub shards: Vec<PathBuf>,
}

/// `cowrie merge`.
///
/// # Errors
/// As [`run`].
pub fn command(args: MergeArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    run(&args, command_line)
}
