//! `cowrie solve --game baghchal --variant V --out DIR`: the movement phase's databases by
//! retrograde analysis, a layer at a time, each a checkpoint `--resume` continues from; a
//! summary CSV per layer (`DIR/layer-GG.csv`). Each run records its command line and resolved
//! options in the database's manifest (`commands`), as cowrie's other commands do in theirs.
//! Spread over jobs: `--stages` lists the stages left, `--unit K/N` solves a unit of the next
//! placement half and `--join N` joins its units ([`cowrie_solver::units`]).

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::Path;

use anyhow::{bail, Context};
use clap::Args;
use cowrie_engine::BaghchalRules;
use cowrie_solver::placement_db::{self, HalfObserver, HalfOutcome, PlacementReader};
use cowrie_solver::solve::{self, LayerOutcome, Observer};
use cowrie_solver::{
    burnside, search_check, units, verify, CommandRecord, Database, Index, Manifest, Progress,
    Side, SolveRules,
};
use cowrie_solver::{packed, placement_check};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::args::{positive_f64, whole_in, GameRulesArgs, OutArg, ResumeArg, ThreadsArg};
use crate::config::SolverRules;
use crate::output::print_stdout;

/// The memory kept free when `--memory-gb` is not given: a quarter of the machine's, at least
/// one gigabyte.
const MARGIN_FRACTION: f64 = 0.25;

/// The machine's memory in bytes minus the margin, if `/proc/meminfo` says.
fn default_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    let total = kb * 1024;
    let margin = ((total as f64 * MARGIN_FRACTION) as u64).max(1 << 30);
    Some(total.saturating_sub(margin))
}

struct Bar {
    bar: ProgressBar,
    out: std::path::PathBuf,
}

impl Progress for Bar {
    fn advance(&self, n: u64) {
        self.bar.inc(n);
    }
}

impl Observer for Bar {
    fn start_layer(&self, goats: u32, work: u64) {
        self.bar.reset();
        self.bar.set_length(work);
        self.bar.set_message(format!("layer {goats} goats"));
    }

    fn finish_layer(&self, outcome: &LayerOutcome) {
        self.bar.set_position(self.bar.length().unwrap_or(0));
        if let Err(e) = write_summary(&self.out, outcome) {
            self.bar.println(format!("error: {e:#}"));
        }
    }
}

impl HalfObserver for Bar {
    fn start_half(&self, placed: u32, side: Side, work: u64) {
        self.bar.reset();
        self.bar.set_length(work);
        self.bar.set_message(format!(
            "placement: {placed} placed, {} to move",
            side.name()
        ));
    }

    fn finish_half(&self, outcome: &HalfOutcome) {
        self.bar.set_position(self.bar.length().unwrap_or(0));
        if let Err(e) = write_half_summary(&self.out, outcome) {
            self.bar.println(format!("error: {e:#}"));
        }
    }
}

/// One row of a placement half's summary CSV.
#[derive(serde::Serialize)]
struct HalfRow {
    placed: u32,
    captured: u32,
    goats_on_board: u32,
    goats_in_hand: u32,
    side_to_move: &'static str,
    positions: u64,
    wins: u64,
    draws: u64,
    losses: u64,
}

fn half_rows(o: &HalfOutcome) -> impl Iterator<Item = HalfRow> + '_ {
    o.parts.iter().map(|&(c, t)| HalfRow {
        placed: o.placed,
        captured: c,
        goats_on_board: o.placed - c,
        goats_in_hand: 20 - o.placed,
        side_to_move: o.side.name(),
        positions: t.positions,
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
    })
}

/// Writes `DIR/placement-PP-SIDE.csv`: one row per number of captures.
fn write_half_summary(dir: &Path, outcome: &HalfOutcome) -> anyhow::Result<()> {
    let path = dir.join(format!(
        "placement-{:02}-{}.csv",
        outcome.placed,
        outcome.side.name()
    ));
    let mut w = csv::Writer::from_path(&path)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    for row in half_rows(outcome) {
        w.serialize(row)?;
    }
    w.flush()
        .with_context(|| format!("cannot write '{}'", path.display()))
}

/// Writes `DIR/layer-GG.csv`: one row per side to move.
fn write_summary(dir: &Path, outcome: &LayerOutcome) -> anyhow::Result<()> {
    let path = dir.join(format!("layer-{:02}.csv", outcome.goats));
    let mut w = csv::Writer::from_path(&path)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    for row in &outcome.summary {
        w.serialize(row)?;
    }
    w.flush()
        .with_context(|| format!("cannot write '{}'", path.display()))
}

/// What the manifest records of this run: the command line (paths relative to the current
/// directory where they lie under it, [`crate::run::provenance::command_line`]), the binary, and
/// the resolved options (the rules as every run manifest names them, and the solve's own flags).
fn command_record(
    args: &SolveArgs,
    rules: &SolverRules,
    command_line: Vec<String>,
) -> CommandRecord {
    let mut run = rules.config.manifest_fields();
    if let Some(run) = run.as_object_mut() {
        run.extend([
            ("movement_only".to_string(), args.movement_only.into()),
            (
                "down_to_placed".to_string(),
                if args.movement_only {
                    serde_json::Value::Null
                } else {
                    args.down_to_placed.into()
                },
            ),
            ("resume".to_string(), args.resuming.resume.into()),
            ("verify".to_string(), args.verify.into()),
            (
                "unit".to_string(),
                args.unit.map_or(serde_json::Value::Null, |u| {
                    format!("{}/{}", u.k, u.n).into()
                }),
            ),
            ("join".to_string(), args.join.into()),
        ]);
    }
    // A directory that cannot be read leaves every path as given.
    let cwd = std::env::current_dir().unwrap_or_default();
    CommandRecord {
        command_line: crate::run::provenance::command_line(&command_line, &cwd),
        build: crate::run::provenance::build(),
        started: crate::run::manifest::now_rfc3339(),
        threads: args.workers.threads,
        run,
    }
}

/// Runs `cowrie solve` (`command_line`: the arguments it was called with, recorded in the
/// database's manifest); returns the report printed on stdout.
///
/// # Errors
/// Bad rules, too little memory, an existing database without `--resume`, I/O errors.
pub fn run(args: &SolveArgs, command_line: Vec<String>) -> anyhow::Result<String> {
    let all_rules = SolverRules::from_args(&args.rules)?;
    let rules = &all_rules.solver;
    if args.stages {
        return stages(args, rules);
    }
    let index = Index::new();
    let movement = solve::peak_memory(&index, rules);
    let placement = if args.movement_only {
        0
    } else {
        placement_db::peak_memory(&index, rules)
    };
    let split = args.unit.is_some() || args.join.is_some();
    let (needed, peak_at) = if split {
        // A unit holds what it reads and its share of the half; a join copies in pieces.
        let n = args.unit.map_or(1, |u| u.n);
        (
            units::unit_memory(&args.output.out, &index, rules, args.down_to_placed, n),
            "what a unit reads and its share of a half",
        )
    } else if placement > movement {
        (placement, "two consecutive placement halves")
    } else {
        (movement, "the largest movement layer")
    };
    let allowed = match args.memory_gb {
        // The command line has refused all but finite sizes above 0.
        Some(gb) => Some((gb * 1e9) as u64),
        None => default_memory(),
    };
    if let Some(allowed) = allowed {
        if needed > allowed {
            bail!(
                "solving needs about {:.2} GB ({peak_at}), more than the {:.2} GB allowed (--memory-gb)",
                needed as f64 / 1e9,
                allowed as f64 / 1e9
            );
        }
    }
    let target = if !args.quiet && std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(1), target);
    if let Ok(style) =
        ProgressStyle::with_template("{msg} {bar:40} {percent}%  {per_sec}  ETA {eta}")
    {
        bar.set_style(style);
    }
    let observer = Bar {
        bar,
        out: args.output.out.clone(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.workers.threads)
        .build()
        .context("starting worker threads")?;
    let record = command_record(args, &all_rules, command_line);
    if let Some(unit) = args.unit {
        let dir = &args.output.out;
        let o = pool.install(|| {
            units::solve_unit(
                dir,
                rules,
                args.down_to_placed,
                unit.k,
                unit.n,
                Some(&record),
                &observer,
            )
        })?;
        observer.bar.finish_and_clear();
        let done = match o.seconds {
            Some(s) => format!("solved in {s:.1} s"),
            None => "solved before, its file whole".to_string(),
        };
        return Ok(format!(
            "unit {}/{} of {} (tiger classes {} to {}): {done}; {}\n",
            unit.k,
            unit.n,
            o.stage.name(),
            o.classes.start,
            o.classes.end - 1,
            o.manifest.display()
        ));
    }
    if let Some(n) = args.join {
        let dir = &args.output.out;
        let o = units::join(dir, rules, args.down_to_placed, n, Some(&record), &observer)?;
        observer.bar.finish_and_clear();
        let mut text = format!(
            "joined {n} units into {} (their solving seconds summed below)\n",
            placement_db::half_path(dir, o.placed, o.side).display()
        );
        text.push_str(&placement_report(dir, rules, &[o])?);
        return Ok(text);
    }
    let outcomes = pool.install(|| {
        solve::solve_recorded(
            &args.output.out,
            rules,
            args.resuming.resume,
            &observer,
            Some(&record),
        )
    })?;
    let halves = if args.movement_only {
        Vec::new()
    } else {
        pool.install(|| {
            placement_db::solve_placement(&args.output.out, rules, args.down_to_placed, &observer)
        })?
    };
    if let Some(m) = Manifest::read(&args.output.out)? {
        // Units solved for halves this solve has now written are of no further use.
        units::remove_written(&args.output.out, &m);
    }
    observer.bar.finish_and_clear();
    let mut text = report(&outcomes, needed);
    if !halves.is_empty() {
        text.push_str(&placement_report(&args.output.out, rules, &halves)?);
    }
    if args.verify {
        let checks = pool.install(|| verify(args, rules, &all_rules.engine, &outcomes))?;
        text.push_str(&checks);
        if !halves.is_empty() {
            text.push_str(&verify_placement(args, rules, &all_rules.engine)?);
        }
    }
    Ok(text)
}

/// `--stages`: the stages still to solve in the database directory, one a line.
fn stages(args: &SolveArgs, rules: &SolveRules) -> anyhow::Result<String> {
    let dir = &args.output.out;
    let manifest = Manifest::read(dir)?;
    if let Some(m) = &manifest {
        if m.rules != *rules {
            bail!(
                "{}: holds a database for {}, not {rules}",
                dir.display(),
                m.rules
            );
        }
    }
    let mut out = String::new();
    if rules
        .layers()
        .any(|g| !manifest.as_ref().is_some_and(|m| m.has_layer(g)))
    {
        out.push_str("movement\n");
    }
    if !args.movement_only {
        for stage in units::remaining(manifest.as_ref(), args.down_to_placed) {
            out.push_str(&stage.name());
            out.push('\n');
        }
    }
    Ok(out)
}

/// The checks of `--verify`, as report lines.
fn verify(
    args: &SolveArgs,
    rules: &SolveRules,
    engine_rules: &BaghchalRules,
    outcomes: &[LayerOutcome],
) -> anyhow::Result<String> {
    let mut out = String::new();
    for o in outcomes {
        let want = burnside::boards(o.goats);
        for s in &o.summary {
            if s.positions != want {
                bail!(
                    "layer {} ({} to move): {} positions, Burnside's lemma gives {want}",
                    o.goats,
                    s.side_to_move,
                    s.positions
                );
            }
        }
    }
    let total: u64 = outcomes.iter().map(|o| 2 * burnside::boards(o.goats)).sum();
    let _ = writeln!(
        out,
        "verify: position counts equal Burnside's lemma in every layer ({total} in all)"
    );
    let db = Database::open(&args.output.out, rules)?;
    for g in rules.layers() {
        let children = db.children(g).expect("a solved layer");
        let n = verify::check_layer(&children).map_err(|m| anyhow::anyhow!("{m}"))?;
        let _ = writeln!(
            out,
            "verify: layer {g}: all {n} stored values equal the values from their children"
        );
    }
    let undecided = (args.verify_samples / 10).max(1);
    let r = search_check::check_samples(
        &db,
        engine_rules,
        args.verify_samples,
        undecided,
        args.verify_depth,
        1,
    )
    .map_err(|m| anyhow::anyhow!("{m}"))?;
    let _ = writeln!(
        out,
        "verify: minimax within {} plies on the engine agrees on {} sampled positions with a stored distance within it and {} others (seed 1)",
        args.verify_depth, r.decided, r.undecided
    );
    Ok(out)
}

/// The placement halves' table and, once the first placement is solved, the start position's
/// value and the value of each first placement.
fn placement_report(
    dir: &Path,
    rules: &SolveRules,
    halves: &[HalfOutcome],
) -> anyhow::Result<String> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "placed captured side    positions        wins       draws      losses  seconds  positions/s"
    );
    for o in halves {
        let positions: u64 = o.parts.iter().map(|(_, t)| t.positions).sum();
        for (i, row) in half_rows(o).enumerate() {
            let (secs, rate) = match (i, o.seconds) {
                (0, Some(s)) => (format!("{s:.1}"), format!("{:.0}", positions as f64 / s)),
                (0, None) => ("resumed".to_string(), String::new()),
                _ => (String::new(), String::new()),
            };
            let _ = writeln!(
                out,
                "{:>6} {:>8} {:<6} {:>11} {:>11} {:>11} {:>11} {:>8} {:>12}",
                row.placed,
                row.captured,
                row.side_to_move,
                row.positions,
                row.wins,
                row.draws,
                row.losses,
                secs,
                rate
            );
        }
    }
    let reader = PlacementReader::open(dir, rules)?;
    if let Some((start, after)) = placement_db::start_values(&reader)? {
        write_start(dir, start, &after)?;
        let _ = writeln!(
            out,
            "start position (goats to move): {} for the goats",
            packed::name(start)
        );
        let list: Vec<String> = after
            .iter()
            .map(|&(p, c)| {
                format!(
                    "{}={}",
                    cowrie_engine::games::baghchal::point_name(p as u8),
                    packed::name(c)
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "the goats' value after their first placement: {}",
            list.join(" ")
        );
    }
    Ok(out)
}

/// Writes `DIR/start.csv`: the start position's value and the value after each first
/// placement, for the goats.
fn write_start(
    dir: &Path,
    start: packed::Code,
    after: &[(usize, packed::Code)],
) -> anyhow::Result<()> {
    let path = dir.join("start.csv");
    let mut w = csv::Writer::from_path(&path)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    w.write_record(["position", "side_to_move", "value_for_goats"])?;
    w.write_record(["start", "goats", packed::name(start)])?;
    for &(p, c) in after {
        let name = format!(
            "goat on {}",
            cowrie_engine::games::baghchal::point_name(p as u8)
        );
        w.write_record([name.as_str(), "tigers", packed::name(c)])?;
    }
    w.flush()
        .with_context(|| format!("cannot write '{}'", path.display()))
}

/// The placement checks of `--verify`: sampled positions of every written half against their
/// children through the engine, and under five-captures the start position against Lim and
/// Nievergelt's result (a draw).
fn verify_placement(
    args: &SolveArgs,
    rules: &SolveRules,
    engine_rules: &BaghchalRules,
) -> anyhow::Result<String> {
    let db = Database::open(&args.output.out, rules)?;
    let reader = PlacementReader::open(&args.output.out, rules)?;
    let per_half = u32::try_from(args.verify_samples).unwrap_or(u32::MAX);
    let n = placement_check::check_samples(&db, &reader, engine_rules, per_half, 1)
        .map_err(|m| anyhow::anyhow!("placement check: {m}"))?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "verify: {n} sampled placement positions ({per_half} a half) equal the best of their children through the engine's moves (seed 1)"
    );
    let published = SolveRules {
        win_captures: 5,
        goats_pass: false,
    };
    if *rules == published {
        if let Some((start, _)) = placement_db::start_values(&reader)? {
            if start != packed::DRAW {
                bail!(
                    "verify: the five-captures start position is a {} here; Lim and Nievergelt (2009) proved it a draw",
                    packed::name(start)
                );
            }
            let _ = writeln!(
                out,
                "verify: the start position is a draw, as Lim and Nievergelt (2009) proved"
            );
        }
    }
    Ok(out)
}

fn report(outcomes: &[LayerOutcome], needed: u64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "goats side    positions        wins       draws      losses  longest  levels  seconds  positions/s"
    );
    let mut total = 0;
    for o in outcomes {
        let positions: u64 = o.summary.iter().map(|s| s.positions).sum();
        total += positions;
        let (secs, rate) = match o.seconds {
            Some(s) => (format!("{s:.1}"), format!("{:.0}", positions as f64 / s)),
            None => ("resumed".to_string(), String::new()),
        };
        for (i, s) in o.summary.iter().enumerate() {
            let longest = s.longest_win.max(s.longest_loss);
            let (lv, sc, rt) = if i == 0 {
                (o.levels.to_string(), secs.as_str(), rate.as_str())
            } else {
                (String::new(), "", "")
            };
            let _ = writeln!(
                out,
                "{:>5} {:<6} {:>11} {:>11} {:>11} {:>11} {:>8} {:>7} {:>8} {:>12}",
                s.goats_on_board,
                s.side_to_move,
                s.positions,
                s.wins,
                s.draws,
                s.losses,
                longest,
                lv,
                sc,
                rt
            );
        }
    }
    let _ = writeln!(
        out,
        "positions: {total} (inequivalent under the 8 symmetries, both sides to move); memory estimate {:.2} GB",
        needed as f64 / 1e9
    );
    out
}

/// `cowrie solve`.
#[derive(Debug, Args, Clone)]
#[command(mut_arg("out", |a| a.help("The database directory")))]
#[command(mut_arg("threads", |a| a.help("Worker threads")))]
#[command(mut_arg("resume", |a| a.help("Continue the solve in DIR from its last finished layer")))]
pub struct SolveArgs {
    /// The game and rules solved.
    #[command(flatten)]
    pub rules: GameRulesArgs,
    /// `--out`.
    #[command(flatten)]
    pub output: OutArg,
    /// `--threads`.
    #[command(flatten)]
    pub workers: ThreadsArg,
    /// `--resume`.
    #[command(flatten)]
    pub resuming: ResumeArg,
    /// Refuse to start if the solve needs more memory than this, in GB (default: the
    /// machine's memory minus a quarter).
    #[arg(long, value_name = "M", allow_negative_numbers = true, value_parser = positive_f64)]
    pub memory_gb: Option<f64>,
    /// After solving, verify: position counts against Burnside's lemma, every stored value
    /// against its children's, and sampled short distances against a minimax search.
    #[arg(long)]
    pub verify: bool,
    /// Positions with a stored distance of at most --verify-depth the search checks (1 to
    /// 100000; also the placement positions checked per half).
    #[arg(long, default_value_t = 300, value_name = "N", requires = "verify", allow_negative_numbers = true, value_parser = |t: &str| whole_in::<u64>(t, 1, 100_000, "positions"))]
    pub verify_samples: u64,
    /// The search bound of the sample check, in plies (1 to 15).
    #[arg(long, default_value_t = 15, value_name = "PLIES", requires = "verify", allow_negative_numbers = true, value_parser = |t: &str| whole_in::<u32>(t, 1, 15, "plies"))]
    pub verify_depth: u32,
    /// Solve the movement phase only, not the placement phase.
    #[arg(long)]
    pub movement_only: bool,
    /// Solve the placement phase back to the positions with this many goats placed (0: the
    /// start position); a later run with --resume continues further back.
    #[arg(long, default_value_t = 0, value_name = "P", conflicts_with = "movement_only", allow_negative_numbers = true, value_parser = |t: &str| whole_in::<u32>(t, 0, 19, "goats placed"))]
    pub down_to_placed: u32,
    /// Solve unit K of N of the next placement half not yet written, down to --down-to-placed
    /// (the movement phase solved before): a range of its tiger classes, into
    /// DIR/units/; a scheduler runs the N units of a half, then --join N.
    #[arg(long, value_name = "K/N", value_parser = parse_unit, conflicts_with_all = ["movement_only", "verify", "join", "stages", "resume"])]
    pub unit: Option<Unit>,
    /// Join the N units of the next placement half not yet written into its file, each checked
    /// against its unit manifest (SHA-256 and counts), and remove them.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = |t: &str| whole_in::<u32>(t, 1, 1_000_000, "units"), conflicts_with_all = ["movement_only", "verify", "stages", "resume"])]
    pub join: Option<u32>,
    /// Print the stages still to solve in DIR, one a line (`movement`, then each placement half
    /// down to --down-to-placed), and solve nothing.
    #[arg(long, conflicts_with_all = ["verify", "resume"])]
    pub stages: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `--unit K/N`: unit `k` of `n`, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    /// This unit, from 1.
    pub k: u32,
    /// The units of the half.
    pub n: u32,
}

fn parse_unit(text: &str) -> Result<Unit, String> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse::<u32>().ok()?, n.parse::<u32>().ok()?)));
    match parsed {
        Some((k, n)) if n >= 1 && (1..=n).contains(&k) => Ok(Unit { k, n }),
        _ => Err(format!(
            "'{text}': expected K/N, the unit K of N units, with 1 <= K <= N"
        )),
    }
}

/// `cowrie solve`: solves and prints the report.
///
/// # Errors
/// As [`run`].
pub fn command(args: SolveArgs, command_line: Vec<String>) -> anyhow::Result<()> {
    print_stdout(&run(&args, command_line)?)
}
