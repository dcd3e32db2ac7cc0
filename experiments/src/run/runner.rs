//! The pairing runner: one pairing of two agents played as a run — games in parallel, rows in
//! schedule order, checkpointed, resumable (`--resume`), shardable (`--shard K/N`, combined by
//! `cowrie merge`), recordable (`--record`). Every command that plays games (match, tournament,
//! ladder, compare, advantage, study, converge, bench) plays its pairings through [`run_match`].

use std::path::Path;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::bail;
use anyhow::Context;
use cowrie_agents::{external, AgentSpec, AnyAgent, Evaluate};
use cowrie_engine::{Game, Player};
use rayon::prelude::*;

use crate::config::RulesConfig;
use crate::config::RunConfig;
use crate::games::Report;
use crate::pages::plots::write_lengths;
use crate::progress::Progress;
use crate::registry::{dispatch, GameTask};
use crate::run::digest::{self, FileDigest, HashedFile};
use crate::run::gamelog::GameRecord;
use crate::run::manifest::{now_rfc3339, Manifest};
use crate::run::record::{self, MatchLabels};
use crate::run::runfiles;
use crate::run::schedule::Schedule;
use crate::run::schedule::{slot, Shard};
use crate::run::seeds::{agent_stream, Dice};
use crate::run::selfplay::{play, Buffers};
use crate::run::summary::{self, MatchSummary, SummaryLabels};

/// The most games played between two writes of `games.csv` (rows are flushed, and the manifest
/// rewritten, after each batch): large enough that games of a few microseconds do not pay a
/// manifest rewrite every few hundred games, small enough that a batch's rows stay a few
/// megabytes.
const BATCH: usize = 1 << 14;

/// The next batch size: finished games reach the disk (and the manifest's `games_written`) at
/// least about once a second, and at most every [`BATCH`] games. Batches only decide when rows
/// are written, never what they hold, so the files do not depend on them.
fn next_batch_size(size: usize, took: std::time::Duration, threads: usize) -> usize {
    if took < std::time::Duration::from_millis(250) {
        (size * 2).min(BATCH)
    } else if took > std::time::Duration::from_millis(700) {
        (size / 2).max(threads.clamp(1, BATCH))
    } else {
        size
    }
}

/// Refuses shard `shard` of a run of `games` games (seat-swapped pairs when `swap`) when some
/// shard of its set would hold no pair (fewer pairs than shards): a set of N shards is refused
/// as a whole, so every set that runs can be merged into one run.
///
/// # Errors
/// Fewer pairs than shards, naming the shard and the pair count.
pub fn check_shard(shard: Shard, games: u64, swap: bool) -> anyhow::Result<()> {
    let pairs = if swap { games / 2 } else { games };
    if pairs < shard.n {
        let unit = if swap { "seat-swapped pairs" } else { "games" };
        bail!(
            "--shard {shard}: --games {games} makes {pairs} {unit}, fewer than the {} shards, so some shard would play none (use at most {pairs} shards)",
            shard.n
        );
    }
    Ok(())
}

/// The title of a run's summary table and `index.html`: game `name` under `variant` and the
/// option overrides `options`, `games` games (seat-swapped pairs when `swap`), the shard, the
/// count of distinct games where the run has it, and the seed.
#[allow(clippy::too_many_arguments)]
#[must_use]
pub fn title(
    name: &str,
    variant: &str,
    options: &[String],
    games: u64,
    swap: bool,
    shard: Shard,
    distinct: Option<u64>,
    seed: u64,
) -> String {
    let options = if options.is_empty() {
        String::new()
    } else {
        format!("; {}", options.join(", "))
    };
    let pairing = if swap {
        "seat-swapped pairs"
    } else {
        "no seat swap"
    };
    let shard = if shard == Shard::WHOLE {
        String::new()
    } else {
        format!(", shard {shard} of the schedule")
    };
    let distinct = distinct.map_or(String::new(), |d| format!(", {d} distinct"));
    format!("{name} ({variant}{options}): {games} games ({pairing}{shard}{distinct}), seed {seed}")
}

/// A finished match: its tallies and the text printed on stdout.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Tallies, computed from `games.csv`.
    pub summary: MatchSummary,
    /// The summary table.
    pub text: String,
    /// Distinct games among those played (None after `--resume`: only a whole run is counted).
    pub distinct_games: Option<u64>,
}

struct MatchTask<'a>(&'a MatchConfig);

impl GameTask for MatchTask<'_> {
    type Output = MatchReport;
    fn run<G: Evaluate + Report>(self) -> anyhow::Result<MatchReport> {
        run_match::<G>(self.0)
    }
}

/// Plays the pairing `cfg` describes, for the game it names.
///
/// # Errors
/// Unknown game, variant, option; unwritable output; a resumed directory holding another run.
pub fn run(cfg: &MatchConfig) -> anyhow::Result<MatchReport> {
    cfg.validate()?;
    dispatch(&cfg.rules.game, MatchTask(cfg))
}

/// Plays the pairing `cfg` describes as one part of a sharded run whose shards are counted over
/// all its parts (a tournament's pairing): its own slice may hold no pair, and is then a run of
/// no game.
///
/// # Errors
/// As [`run`], but for the shard's count.
pub fn run_part(cfg: &MatchConfig) -> anyhow::Result<MatchReport> {
    cfg.check_counts()?;
    dispatch(&cfg.rules.game, MatchTask(cfg))
}

/// The engine's rules of a run of game `G`, once every agent is checked: each can be built and
/// plays under them, before anything is written.
///
/// # Errors
/// An unknown variant or option, an agent that cannot be built or refuses the rules.
pub fn check_run<G: Game + Evaluate>(
    rules: &RulesConfig,
    agents: &[AgentSpec],
    seed: u64,
) -> anyhow::Result<G::Rules> {
    let rules = rules.typed::<G>()?;
    for spec in agents {
        AnyAgent::<G>::try_build(spec, agent_stream(seed, 0, Player::ONE))?;
        AnyAgent::<G>::check_rules(spec, &rules)?;
    }
    Ok(rules)
}

/// Checks that every one of `agents` can be built and plays under `rules`, as a run of them
/// does first ([`check_run`]); `cowrie plan` refuses what the planned command would.
///
/// # Errors
/// As [`check_run`].
pub fn check_agents(rules: &RulesConfig, agents: &[AgentSpec], seed: u64) -> anyhow::Result<()> {
    dispatch(
        &rules.game,
        AgentCheck {
            rules,
            agents,
            seed,
        },
    )
}

/// The check of agents under one rule set ([`check_run`]).
struct AgentCheck<'a> {
    rules: &'a RulesConfig,
    agents: &'a [AgentSpec],
    seed: u64,
}

impl GameTask for AgentCheck<'_> {
    type Output = ();
    fn run<G: Report + Evaluate>(self) -> anyhow::Result<()> {
        check_run::<G>(self.rules, self.agents, self.seed).map(|_| ())
    }
}

/// Runs a match of game `G`.
///
/// # Errors
/// Unknown variant or option; unwritable output; a resumed directory holding another run.
pub fn run_match<G: Evaluate + Report>(cfg: &MatchConfig) -> anyhow::Result<MatchReport> {
    let rules = check_run::<G>(&cfg.rules, &cfg.agents, cfg.seed)?;
    let resolved_rules = &cfg.rules.resolved;
    let variant = resolved_rules.variant.clone();
    let labels = MatchLabels {
        seed: cfg.seed,
        variant: variant.clone(),
        options: cfg.rules.options.join(";"),
        agents: [cfg.agents[0].to_string(), cfg.agents[1].to_string()],
    };
    let mut manifest = Manifest::start(
        "match",
        cfg.command_line.clone(),
        cfg.rules.manifest_run(serde_json::json!({
            "agents": labels.agents,
            "games": cfg.games,
            "seat_swap": cfg.swap,
            "seed": cfg.seed,
            "shard": cfg.shard.to_string(),
            "record": cfg.record,
        })),
        cfg.threads,
        cfg.agents.iter().all(AgentSpec::is_reproducible),
        crate::run::provenance::inputs_of::<G>(&rules, &cfg.agents)?,
    );

    crate::output::create_dir(&cfg.out)?;
    let old = if cfg.resume {
        Some(manifest.check_resumable(&cfg.out)?)
    } else {
        None
    };
    let manifest_path = cfg.out.join("manifest.json");
    let recorded = |name: &str| -> anyhow::Result<Option<FileDigest>> {
        match &old {
            Some(m) => digest::recorded(m, name, &manifest_path),
            None => Ok(None),
        }
    };
    if !cfg.resume {
        // A fresh run replaces the directory's run files; files this run does not write must not
        // survive from an earlier run beside the new ones.
        crate::run::outputs::remove_stale(
            &cfg.out,
            &[
                "records.jsonl",
                "subgames.csv",
                "summary.csv",
                "lengths.svg",
            ],
        )?;
        let logs = cfg.out.join("external");
        if logs.is_dir() {
            std::fs::remove_dir_all(&logs)
                .with_context(|| format!("cannot replace '{}'", logs.display()))?;
        }
    }
    let schedule = cfg.schedule();
    let csv_path = cfg.out.join("games.csv");
    let (mut csv_file, done) = runfiles::open_csv(
        &csv_path,
        &record::header::<G>(),
        cfg.resume,
        recorded("games.csv")?.as_ref(),
        schedule,
    )?;
    let records_path = cfg.out.join("records.jsonl");
    let mut records = if cfg.record {
        Some(runfiles::open_lines(
            &records_path,
            cfg.resume,
            recorded("records.jsonl")?.as_ref(),
            done,
        )?)
    } else {
        None
    };
    let sub_path = cfg.out.join("subgames.csv");
    let mut subgames = if G::PLAYS_MATCHES {
        let upto = schedule.get(done).unwrap_or(u64::MAX);
        Some(runfiles::open_csv_before(
            &sub_path,
            &record::subgame_header::<G>(),
            cfg.resume,
            recorded("subgames.csv")?.as_ref(),
            upto,
        )?)
    } else {
        None
    };
    checkpoint(
        &mut manifest,
        done,
        [Some(&csv_file), records.as_ref(), subgames.as_ref()],
        &cfg.out,
    )?;
    // The run starts: a `perfect` agent whose database does not hold the whole game says so,
    // once per process (a run of several pairings says it at its first).
    crate::run::provenance::note_partial_databases::<G>(&cfg.agents)?;
    let started = Instant::now();
    // Worker threads start only once the output has been checked and opened.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .context("starting worker threads")?;

    // A game whose rows hold the games played inside them is played as matches.
    let unit = if G::PLAYS_MATCHES { "matches" } else { "games" };
    let bar = cfg.progress.bar(schedule.len(), unit);
    bar.inc(done);
    let ctx = Ctx {
        cfg,
        rules: &rules,
        labels: &labels,
        resolved: &resolved_rules.options,
    };
    let mut pending = schedule.from(done);
    let mut batch = Vec::with_capacity(BATCH);
    let mut size = cfg.threads.min(BATCH);
    let mut written = done;
    // The course of every game this process plays, to count the distinct ones.
    let mut courses = std::collections::HashSet::new();
    // What the summary needs of each row this process plays (a few bytes a game): a fresh run
    // does not read `games.csv` back at its end; a resumed one does, since it holds them all.
    let mut results = Vec::new();
    loop {
        batch.clear();
        batch.extend(pending.by_ref().take(size));
        if batch.is_empty() {
            break;
        }
        let batch_started = Instant::now();
        let out: Vec<Played> = pool.install(|| {
            batch
                .par_iter()
                .map_init(Buffers::<G>::default, |buf, &i| play_one::<G>(i, &ctx, buf))
                .collect::<anyhow::Result<_>>()
        })?;
        courses.extend(out.iter().map(|p| p.fingerprint));
        if done == 0 {
            results.extend(out.iter().map(|p| p.result));
        }
        if let Some(f) = records.as_mut() {
            write_all(
                f,
                out.iter()
                    .filter_map(|p| p.record.as_deref())
                    .map(str::as_bytes),
                &records_path,
            )?;
        }
        if let Some(f) = subgames.as_mut() {
            write_all(f, out.iter().map(|p| p.subgames.as_slice()), &sub_path)?;
        }
        write_all(
            &mut csv_file,
            out.iter().map(|p| p.row.as_slice()),
            &csv_path,
        )?;
        written += batch.len() as u64;
        checkpoint(
            &mut manifest,
            written,
            [Some(&csv_file), records.as_ref(), subgames.as_ref()],
            &cfg.out,
        )?;
        bar.inc(batch.len() as u64);
        size = next_batch_size(size, batch_started.elapsed(), cfg.threads);
        if crate::interrupt::requested() {
            bar.abandon();
            manifest.status = "interrupted";
            manifest.write(&cfg.out)?;
            return Err(crate::interrupt::Interrupted {
                message: format!(
                    "interrupted: {written} of {} games are in '{}'; run the same command with --resume to continue",
                    schedule.len(),
                    cfg.out.display()
                ),
                written,
            }
            .into());
        }
    }
    cfg.progress.finish(&bar);
    drop(csv_file);

    let rows = if done == 0 {
        results
    } else {
        record::read_rows(&csv_path)?
            .iter()
            .map(record::GameRow::row_result)
            .collect()
    };
    let s = summary::summarise(&rows, |i| cfg.swapped(i));
    let sum_labels = SummaryLabels {
        sides: G::SIDES,
        agents: labels.agents.clone(),
    };
    let summary_digest = summary::write_csv(&cfg.out, &s, &sum_labels)?;
    manifest
        .files
        .insert("summary.csv".to_string(), summary_digest);
    write_lengths(&cfg.out, G::NAME, &variant, &rows)?;
    manifest.status = "complete";
    manifest.finished = now_rfc3339();
    manifest.elapsed_seconds = started.elapsed().as_secs_f64();
    manifest.games_written = rows.len() as u64;
    manifest.distinct_games = (done == 0).then_some(courses.len() as u64);
    // A finished run resumed plays nothing: it keeps the record of the process that played it.
    if let Some(o) = old
        .as_ref()
        .filter(|o| o["status"] == "complete" && done == manifest.games_written)
    {
        if let (Some(s), Some(f), Some(e)) = (
            o["started"].as_str(),
            o["finished"].as_str(),
            o["elapsed_seconds"].as_f64(),
        ) {
            manifest.started = s.to_string();
            manifest.finished = f.to_string();
            manifest.elapsed_seconds = e;
        }
        manifest.distinct_games = o["distinct_games"].as_u64();
    }
    manifest.write(&cfg.out)?;

    let title = title(
        G::NAME,
        &variant,
        &cfg.rules.options,
        s.games,
        cfg.swap,
        cfg.shard,
        manifest.distinct_games,
        cfg.seed,
    );
    crate::pages::run_index::write(&cfg.out, &format!("cowrie match: {title}"))?;
    let mut text = summary::table(&s, &sum_labels, &title);
    text += &format!("rows in {}\n", csv_path.display());
    Ok(MatchReport {
        summary: s,
        text,
        distinct_games: manifest.distinct_games,
    })
}

/// What every game of a match shares.
pub struct Ctx<'a, G: Evaluate + Report> {
    pub(crate) cfg: &'a MatchConfig,
    pub(crate) rules: &'a G::Rules,
    pub(crate) labels: &'a MatchLabels,
    pub(crate) resolved: &'a [(String, String)],
}

/// One played game, ready to write.
pub struct Played {
    /// The CSV row, with its newline.
    pub(crate) row: Vec<u8>,
    /// The JSON record line, when recording.
    pub(crate) record: Option<String>,
    /// Plies played.
    pub(crate) plies: u32,
    /// The game's `subgames.csv` rows (empty for games that are not matches of games).
    pub(crate) subgames: Vec<u8>,
    /// The game's course ([`crate::run::selfplay::PlayStats::fingerprint`]).
    pub(crate) fingerprint: u64,
    /// What the run's summary reads of the row.
    pub(crate) result: record::RowResult,
}

/// Plays game `game_index`. An external agent's standard error goes to the run directory's
/// `external/game-<index>-seat<seat>.stderr` (removed when empty).
///
/// # Errors
/// An agent that cannot be built (an external program that has gone); a Python policy that
/// failed (raised an exception or answered an illegal action), naming it and the bad value.
pub fn play_one<G: Evaluate + Report>(
    game_index: u64,
    ctx: &Ctx<'_, G>,
    buf: &mut Buffers<G>,
) -> anyhow::Result<Played> {
    let cfg = ctx.cfg;
    let s = slot(game_index, cfg.swap);
    let (spec1, spec2) = if s.swapped {
        (&cfg.agents[1], &cfg.agents[0])
    } else {
        (&cfg.agents[0], &cfg.agents[1])
    };
    let build = |spec: &AgentSpec, p: Player| {
        let stream = agent_stream(cfg.seed, game_index, p);
        // Only an external agent has a standard error to keep: no other spec is copied per game.
        if matches!(spec, AgentSpec::External(_)) {
            let spec = spec.with_stderr(external::stderr_path(&cfg.out, game_index, p.seat()));
            AnyAgent::<G>::try_build(&spec, stream)
        } else {
            AnyAgent::<G>::try_build(spec, stream)
        }
    };
    let mut agents = [build(spec1, Player::ONE)?, build(spec2, Player::TWO)?];
    let mut chance = Dice::new(cfg.seed, s.pair_index);
    let mut log = cfg.record.then(Vec::new);
    let (state, stats) = play::<G, _>(ctx.rules, &mut agents, &mut chance, buf, log.as_mut());
    // A Python policy that failed ended the game by forfeit: the run stops with its error, and
    // the batch holding the game is not written.
    if let Some(failure) = agents.iter().find_map(AnyAgent::failure) {
        anyhow::bail!("game {game_index}: {failure}");
    }
    let result = record::result(s, ctx.labels, &state, &stats);
    let line = log.map(|events| {
        let rec = GameRecord {
            game_index,
            game: G::NAME.to_string(),
            variant: ctx.labels.variant.clone(),
            options: ctx.resolved.to_vec(),
            agents: [spec1.to_string(), spec2.to_string()],
            start: G::new(ctx.rules).notation(),
            events,
            end_reason: result.row.end_reason.as_str().to_string(),
            winner_seat: result.row.winner_seat,
            plies: result.row.plies,
            end: state.notation(),
        };
        serde_json::to_string(&rec).expect("a record serialises") + "\n"
    });
    Ok(Played {
        row: result.csv_line(),
        record: line,
        plies: result.row.plies,
        subgames: result.subgame_lines(),
        fingerprint: stats.fingerprint,
        result: result.row.row_result(),
    })
}

/// The header line of the `games.csv` at `path` and each of its rows with `label,` in front,
/// newlines kept: the rows of one part of a larger run, as the run's own `games.csv` holds them.
///
/// # Errors
/// An unreadable file, naming it.
pub fn labelled_rows(path: &Path, label: &str) -> anyhow::Result<(Vec<u8>, Vec<Vec<u8>>)> {
    let bytes = cowrie_solver::bounded::read_lines(path)
        .with_context(|| format!("cannot read '{}'", path.display()))?;
    let mut lines = bytes.split_inclusive(|&c| c == b'\n');
    let head = lines.next().unwrap_or_default().to_vec();
    let rows = lines
        .map(|line| {
            let mut row = format!("{label},").into_bytes();
            row.extend_from_slice(line);
            row
        })
        .collect();
    Ok((head, rows))
}

/// Rewrites the manifest with `games_written` and what each file of the run (`games.csv`,
/// `records.jsonl`, `subgames.csv`, in that order, those the run has) holds now.
fn checkpoint(
    manifest: &mut Manifest,
    games_written: u64,
    files: [Option<&HashedFile>; 3],
    out: &Path,
) -> anyhow::Result<()> {
    manifest.games_written = games_written;
    for (name, file) in ["games.csv", "records.jsonl", "subgames.csv"]
        .into_iter()
        .zip(files)
    {
        if let Some(f) = file {
            manifest.files.insert(name.to_string(), f.digest());
        }
    }
    manifest.write(out)
}

fn write_all<'a>(
    file: &mut HashedFile,
    chunks: impl Iterator<Item = &'a [u8]>,
    path: &std::path::Path,
) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    for c in chunks {
        buf.extend_from_slice(c);
    }
    file.append(&buf)
        .with_context(|| format!("cannot write '{}'", path.display()))
}

/// A validated match configuration: one pairing of two agents.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game and its rules, resolved.
    pub rules: RulesConfig,
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
    /// One pairing of a larger run (a tournament's pairing, a ladder's step, a rule set of a
    /// comparison, a rung of a convergence run, a bench workload), played in `out`: the whole
    /// schedule in seat-swapped pairs between different agents and without seat swap in
    /// self-play (the same spec in both seats, where the swapped game on the same dice would
    /// replay a deterministic agent's game), not recorded; it resumes when the larger run does
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
            rules: rules.clone(),
            swap: agents[0] != agents[1],
            agents,
            games,
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

    /// Checks the counts (games, threads, shard) before anything is written.
    ///
    /// # Errors
    /// A one-line reason naming the bad value.
    pub fn validate(&self) -> anyhow::Result<()> {
        self.check_counts()?;
        check_shard(self.shard, self.games, self.swap)
    }

    /// Checks the counts of games and threads, not the shard's.
    ///
    /// # Errors
    /// A one-line reason naming the bad value.
    pub fn check_counts(&self) -> anyhow::Result<()> {
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
