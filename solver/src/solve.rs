//! A whole solve: the layers of a rule set in order, each saved as a checkpoint before the next
//! begins, resumable from the last one saved.

use std::path::Path;
use std::time::Instant;

use crate::db::{self, CommandRecord, DbError, Manifest};
use crate::index::Index;
use crate::layer::Layer;
use crate::retrograde::{solve_layer, Progress};
use crate::rules::SolveRules;
use crate::summary::{summarise, SideSummary};

/// Bytes per slot of the layer being solved: a distance word and a move count per slot (4),
/// the finished words while the working ones are released (2), and the lists of positions
/// by distance (3, an allowance; they hold a fraction of the slots).
const BYTES_PER_SLOT: u64 = 9;
/// Bytes per slot of the layer below (its words).
const BYTES_PER_SLOT_BELOW: u64 = 2;
/// Bytes besides the layers (the index, the program).
const BASE_BYTES: u64 = 64 << 20;

/// The memory a layer's solve needs, in bytes (an upper estimate).
#[must_use]
pub fn memory_needed(index: &Index, rules: &SolveRules, goats: u32) -> u64 {
    let below = if rules.captures_won(goats - 1) {
        0
    } else {
        2 * index.slots(goats - 1) as u64
    };
    BASE_BYTES + BYTES_PER_SLOT * 2 * index.slots(goats) as u64 + BYTES_PER_SLOT_BELOW * below
}

/// The most memory any layer's solve under `rules` needs, in bytes.
#[must_use]
pub fn peak_memory(index: &Index, rules: &SolveRules) -> u64 {
    rules
        .layers()
        .map(|g| memory_needed(index, rules, g))
        .max()
        .unwrap_or(0)
}

/// What happened to one layer.
#[derive(Clone, Debug)]
pub struct LayerOutcome {
    /// Goats on the board.
    pub goats: u32,
    /// The summary rows (goats to move, tigers to move).
    pub summary: [SideSummary; 2],
    /// Seconds spent solving it; `None` if it was read from a checkpoint.
    pub seconds: Option<f64>,
    /// Levels processed.
    pub levels: u32,
}

/// Follows a solve.
pub trait Observer: Progress {
    /// A layer with `slots` slots per side starts; `work` is the expected total of `advance`.
    fn start_layer(&self, goats: u32, work: u64);
    /// A layer is done (solved or read back).
    fn finish_layer(&self, outcome: &LayerOutcome);
}

/// An observer that ignores everything (for tests and library use).
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {
    fn advance(&self, _: u64) {}
}

impl Observer for Silent {
    fn start_layer(&self, _: u32, _: u64) {}
    fn finish_layer(&self, _: &LayerOutcome) {}
}

/// Why a solve could not start or finish.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The directory already holds a database and `--resume` was not given.
    #[error(
        "{0}: already holds a database (pass --resume to continue it, or choose another directory)"
    )]
    Exists(std::path::PathBuf),
    /// `--resume` was given and the directory holds no database.
    #[error(
        "--resume: '{0}' holds no database (no manifest.json); leave out --resume to start one"
    )]
    NothingToResume(std::path::PathBuf),
    /// A database error.
    #[error(transparent)]
    Db(#[from] DbError),
}

/// Solves every layer of `rules` into `dir`, continuing from its checkpoints if `resume`.
///
/// # Errors
/// An existing database without `resume`, one for other rules, or an I/O error.
pub fn solve(
    dir: &Path,
    rules: &SolveRules,
    resume: bool,
    observer: &dyn Observer,
) -> Result<Vec<LayerOutcome>, SolveError> {
    solve_recorded(dir, rules, resume, observer, None)
}

/// [`solve`], recording `command` in the manifest's `commands` (once the directory is known to
/// hold no database, or one of these rules to resume, and before any layer is solved).
///
/// # Errors
/// As [`solve`].
pub fn solve_recorded(
    dir: &Path,
    rules: &SolveRules,
    resume: bool,
    observer: &dyn Observer,
    command: Option<&CommandRecord>,
) -> Result<Vec<LayerOutcome>, SolveError> {
    let mut manifest = match Manifest::read(dir)? {
        Some(_) if !resume => return Err(SolveError::Exists(dir.to_path_buf())),
        Some(m) if m.rules != *rules => {
            return Err(DbError::OtherRules {
                dir: dir.to_path_buf(),
                found: m.rules.to_string(),
                wanted: rules.to_string(),
            }
            .into())
        }
        Some(m) => m,
        None if resume => return Err(SolveError::NothingToResume(dir.to_path_buf())),
        None => {
            std::fs::create_dir_all(dir).map_err(|error| DbError::Io {
                path: dir.to_path_buf(),
                error,
            })?;
            let m = Manifest::new(*rules);
            m.write(dir)?;
            m
        }
    };
    if let Some(c) = command {
        manifest.commands.push(c.clone());
        manifest.write(dir)?;
    }
    let index = Index::new();
    let mut below: Option<Layer> = None;
    let mut outcomes = Vec::new();
    let layers: Vec<u32> = rules.layers().collect();
    for (i, &g) in layers.iter().enumerate() {
        let slots = index.slots(g);
        observer.start_layer(g, 4 * slots as u64);
        let done = manifest.layers.iter().find(|l| l.goats == g).cloned();
        let (layer, outcome) = if let Some(rec) = done {
            // A checkpoint: read it only if the next layer still needs solving.
            let needed = layers[i + 1..].iter().any(|&h| !manifest.has_layer(h));
            let layer = db::load_layer(dir, &manifest, g, slots)?;
            let outcome = LayerOutcome {
                goats: g,
                summary: summarise(&layer),
                seconds: None,
                levels: rec.levels,
            };
            (needed.then_some(layer), outcome)
        } else {
            let start = Instant::now();
            let (layer, report) = solve_layer(&index, rules, g, below.as_ref(), observer);
            let seconds = start.elapsed().as_secs_f64();
            db::save_layer(dir, &mut manifest, &layer, report.levels)?;
            let outcome = LayerOutcome {
                goats: g,
                summary: summarise(&layer),
                seconds: Some(seconds),
                levels: report.levels,
            };
            (Some(layer), outcome)
        };
        observer.finish_layer(&outcome);
        outcomes.push(outcome);
        below = layer;
    }
    Ok(outcomes)
}
