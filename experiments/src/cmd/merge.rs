//! `cowrie merge --out DIR SHARD_DIR...`: joins the outputs of `cowrie match --shard K/N` into
//! the output of one run. `games.csv`, `records.jsonl`, `summary.csv` and `lengths.svg` come out
//! byte-identical to what the unsharded run writes; the manifest says `merge` and lists the shards.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::Args;

use crate::args::{ForceArg, OutArg};
use crate::games::Report;
use crate::registry::{dispatch, GameTask};
use crate::run::digest::{self, FileDigest};
use crate::run::manifest::{now_rfc3339, Manifest};
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
type Read<'a> = &'a dyn Fn(&Path) -> std::io::Result<Vec<u8>>;

fn read_manifest(dir: &Path, read: Read) -> anyhow::Result<serde_json::Value> {
    let path = dir.join("manifest.json");
    let text = read(&path).with_context(|| format!("cannot read '{}'", path.display()))?;
    serde_json::from_slice(&text)
        .map_err(crate::args::json_error)
        .with_context(|| format!("'{}' is not a manifest", path.display()))
}

/// The lines of shard file `dir/name`, each with its trailing newline, after checking the file
/// against the digest the shard's manifest records for it.
fn lines(
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
    crate::run::outputs::check_dir(&args.output.out, &shards, false, args.forcing.force)?;
    let merged = read_shards(&args.shards, &cowrie_solver::bounded::read_run_file)?;
    write(&args.output.out, merged, command_line)
}

/// Reads the shard directories `shards` with `read` (which reports an absent file as not
/// found) and checks them: each shard's manifest, that they are the shards of one run, each
/// once, and every file against the digest its manifest records.
///
/// # Errors
/// As [`run`], writing nothing.
pub fn read_shards(shards: &[PathBuf], read: Read) -> anyhow::Result<Merged> {
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
    // Shards whose agents read other files (weights retrained between shards) are not one run.
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
    let inputs: crate::run::provenance::Inputs = match inputs {
        Some((dir, v)) if !v.is_null() => serde_json::from_value(v.clone())
            .map_err(crate::args::json_error)
            .with_context(|| format!("'{}': inputs", dir.join("manifest.json").display()))?,
        _ => crate::run::provenance::Inputs::new(),
    };
    let n = n_shards.unwrap_or(1);
    if let Some(missing) = (1..=n).find(|k| !seen.contains_key(k)) {
        bail!("shard {missing}/{n} is missing");
    }
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

/// Writes the merged run `m` in `out`: its files, summary, plot and manifest.
///
/// # Errors
/// An unwritable file, naming it.
fn write(out: &Path, m: Merged, command_line: Vec<String>) -> anyhow::Result<()> {
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
    let table_rows = crate::run::record::read_rows(&csv_path)?;
    let s = summary::summarise(&table_rows, |i| slot(i, swap).swapped);
    let labels = SummaryLabels { sides, agents };
    files.insert(
        "summary.csv".to_string(),
        summary::write_csv(out, &s, &labels)?,
    );
    let variant = run["variant"].as_str().unwrap_or_default();
    crate::pages::plots::write_lengths(out, name, variant, &table_rows)?;
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
    let text = summary::table(
        &s,
        &labels,
        &format!("{game}: {games} games merged from {n} shards"),
    );
    crate::output::print_stdout(&text)
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
    /// The shards' output directories (every shard of one run, in any order).
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
