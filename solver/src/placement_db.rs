//! The placement phase on disk: one file per half (`placement-PP-goats.bin`,
//! `placement-PP-tigers.bin`, the parts by captures in order), listed in the database's
//! manifest with their counts once written; the solve of every half in order, resumable from the
//! last half written; and a reader that looks up single positions without loading the files.

use std::fs;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use sha2::{Digest, Sha256};

use cowrie_engine::games::baghchal::{Bitboard, TOTAL_GOATS};

use crate::combin;
use crate::db::{self, Database, DbError, HalfRecord, Manifest, PartRecord};
use crate::index::Index;
use crate::layer::Side;
use crate::packed::{self, Code, Packed, Tally};
use crate::placement::{self, captures, Half, Next};
use crate::retrograde::Progress;
use crate::rules::SolveRules;
use crate::solve::SolveError;
use crate::symmetry;

/// The file of a half.
#[must_use]
pub fn half_path(dir: &Path, placed: u32, side: Side) -> PathBuf {
    dir.join(format!("placement-{placed:02}-{}.bin", side.name()))
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> DbError + '_ {
    move |error| DbError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// The bytes of the half (`placed`, `side`) on disk: its parts in order.
#[must_use]
pub fn half_bytes(index: &Index, rules: &SolveRules, placed: u32, side: Side) -> u64 {
    captures(rules, placed, side)
        .map(|c| (packed::stride(placed - c) * index.classes().len()) as u64)
        .sum()
}

/// The memory the placement solve needs at most: two consecutive halves.
#[must_use]
pub fn peak_memory(index: &Index, rules: &SolveRules) -> u64 {
    let h = placement::halves();
    h.windows(2)
        .map(|w| {
            half_bytes(index, rules, w[0].0, w[0].1) + half_bytes(index, rules, w[1].0, w[1].1)
        })
        .max()
        .unwrap_or(0)
}

fn save_half(
    dir: &Path,
    manifest: &mut Manifest,
    half: &Half,
    tallies: &[Tally],
) -> Result<(), DbError> {
    let path = half_path(dir, half.placed, half.side);
    let tmp = path.with_extension("tmp");
    let mut hasher = Sha256::new();
    let mut written = 0u64;
    {
        let f = fs::File::create(&tmp).map_err(io_err(&tmp))?;
        let mut w = std::io::BufWriter::new(f);
        for p in &half.parts {
            std::io::Write::write_all(&mut w, p.bytes()).map_err(io_err(&tmp))?;
            hasher.update(p.bytes());
            written += p.bytes().len() as u64;
        }
        let f = w.into_inner().map_err(|e| io_err(&tmp)(e.into_error()))?;
        f.sync_all().map_err(io_err(&tmp))?;
    }
    fs::rename(&tmp, &path).map_err(io_err(&path))?;
    let parts = captures_of(half).zip(tallies.iter().copied()).collect();
    record_half(
        manifest,
        &path,
        half.placed,
        half.side,
        parts,
        db::FileDigest::finish(hasher, written),
    );
    manifest.write(dir)
}

/// Lists the half (`placed`, `side`) written at `path` in the manifest: its parts' counts
/// (`(captured, tally)` in order) and its file's digest.
pub(crate) fn record_half(
    manifest: &mut Manifest,
    path: &Path,
    placed: u32,
    side: Side,
    parts: Vec<(u32, Tally)>,
    digest: db::FileDigest,
) {
    db::record(manifest, path, digest);
    let side = side.name().to_string();
    manifest
        .placement
        .retain(|r| !(r.placed == placed && r.side == side));
    manifest.placement.push(HalfRecord {
        placed,
        side,
        parts: parts
            .into_iter()
            .map(|(captured, tally)| PartRecord { captured, tally })
            .collect(),
    });
}

fn captures_of(half: &Half) -> impl Iterator<Item = u32> + '_ {
    half.parts.iter().map(move |p| half.placed - p.goats())
}

pub(crate) fn load_half(
    dir: &Path,
    manifest: &Manifest,
    index: &Index,
    rules: &SolveRules,
    placed: u32,
    side: Side,
) -> Result<Half, DbError> {
    let path = half_path(dir, placed, side);
    let want = half_bytes(index, rules, placed, side);
    let bytes = db::read_sized(&path, want)?;
    db::verify_file(manifest, dir, &path, Some(&bytes))?;
    let classes = index.classes().len();
    let mut parts = Vec::new();
    let mut at = 0;
    for c in captures(rules, placed, side) {
        let n = packed::stride(placed - c) * classes;
        parts.push(
            Packed::from_bytes(placed - c, classes, bytes[at..at + n].to_vec())
                .expect("the length checked"),
        );
        at += n;
    }
    Ok(Half {
        placed,
        side,
        parts,
    })
}

/// What happened to one half.
#[derive(Clone, Debug)]
pub struct HalfOutcome {
    /// Goats placed.
    pub placed: u32,
    /// The side to move.
    pub side: Side,
    /// Counts by captures: `(captured, tally)`.
    pub parts: Vec<(u32, Tally)>,
    /// Seconds spent solving it; `None` if it was written before (a resumed solve).
    pub seconds: Option<f64>,
}

/// Follows a placement solve.
pub trait HalfObserver: Progress {
    /// A half starts; `work` is the expected total of `advance`.
    fn start_half(&self, placed: u32, side: Side, work: u64);
    /// A half is done (solved, or found written).
    fn finish_half(&self, outcome: &HalfOutcome);
}

impl HalfObserver for crate::solve::Silent {
    fn start_half(&self, _: u32, _: Side, _: u64) {}
    fn finish_half(&self, _: &HalfOutcome) {}
}

/// Solves the placement phase into `dir`, whose movement phase must be solved, from the last
/// placement back to the halves with `down_to` goats placed (0: the start), skipping the halves
/// already written.
///
/// # Errors
/// A movement layer missing, a half of the wrong size, an I/O error.
pub fn solve_placement(
    dir: &Path,
    rules: &SolveRules,
    down_to: u32,
    observer: &dyn HalfObserver,
) -> Result<Vec<HalfOutcome>, SolveError> {
    let mut manifest = Manifest::read_required(dir)?;
    for g in rules.layers() {
        if !manifest.has_layer(g) {
            return Err(DbError::Missing(dir.to_path_buf(), g).into());
        }
    }
    let index = Index::new();
    let order: Vec<(u32, Side)> = placement::halves()
        .into_iter()
        .filter(|&(p, _)| p >= down_to)
        .collect();
    let recorded = |m: &Manifest, p: u32, s: Side| {
        m.placement
            .iter()
            .find(|r| r.placed == p && r.side == s.name())
            .cloned()
    };
    let mut prev: Option<Half> = None;
    let mut movement: Option<Database> = None;
    let mut outcomes = Vec::new();
    for (i, &(p, side)) in order.iter().enumerate() {
        let work: u64 = captures(rules, p, side)
            .map(|c| index.slots(p - c) as u64)
            .sum();
        observer.start_half(p, side, work);
        if let Some(rec) = recorded(&manifest, p, side) {
            let outcome = HalfOutcome {
                placed: p,
                side,
                parts: rec.parts.iter().map(|r| (r.captured, r.tally)).collect(),
                seconds: None,
            };
            observer.finish_half(&outcome);
            outcomes.push(outcome);
            prev = None;
            continue;
        }
        if prev.is_none() && i > 0 {
            let (pp, ps) = order[i - 1];
            prev = Some(load_half(dir, &manifest, &index, rules, pp, ps)?);
        }
        let start = Instant::now();
        let (half, tallies) = match side {
            Side::Goats if p + 1 == u32::from(TOTAL_GOATS) => {
                if movement.is_none() {
                    movement = Some(Database::open(dir, rules)?);
                }
                let db = movement.as_ref().expect("opened");
                placement::solve_goats(&index, rules, p, Next::Movement(db), observer)
            }
            Side::Goats => {
                let next = prev.as_ref().expect("the tigers' half after it");
                placement::solve_goats(&index, rules, p, Next::Placement(next), observer)
            }
            Side::Tigers => {
                let goats = prev.as_ref().expect("the goats' half");
                placement::solve_tigers(&index, rules, goats, observer)
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        // The movement database is needed only by the first half.
        movement = None;
        save_half(dir, &mut manifest, &half, &tallies)?;
        let outcome = HalfOutcome {
            placed: p,
            side,
            parts: captures(rules, p, side).zip(tallies).collect(),
            seconds: Some(seconds),
        };
        observer.finish_half(&outcome);
        outcomes.push(outcome);
        prev = Some(half);
    }
    Ok(outcomes)
}

/// A written half's open file and the byte offset of each of its parts.
#[derive(Debug)]
struct HalfFile {
    file: fs::File,
    offsets: Vec<u64>,
}

/// The start position's value for the goats, and the goats' value after each first placement
/// (the point, the value).
pub type StartValues = (Code, Vec<(usize, Code)>);

/// Looks up placement-phase positions in the files of a database, a few bytes at a time.
#[derive(Debug)]
pub struct PlacementReader {
    index: Index,
    rules: SolveRules,
    /// `files[p][side]`: the half's file and the byte offset of each part, if written.
    files: Vec<[Option<HalfFile>; 2]>,
}

impl PlacementReader {
    /// Opens the written halves of the database in `dir` (solved for `rules`), each checked
    /// once against its manifest's SHA-256 ([`db::verify_file`]).
    ///
    /// # Errors
    /// Another rule set's database, an unreadable file, one of the wrong size or one whose
    /// SHA-256 differs.
    pub fn open(dir: &Path, rules: &SolveRules) -> Result<Self, DbError> {
        let manifest = Manifest::read_for(dir, rules)?;
        let index = Index::new();
        let mut files: Vec<[Option<HalfFile>; 2]> =
            (0..u32::from(TOTAL_GOATS)).map(|_| [None, None]).collect();
        for rec in &manifest.placement {
            let side = if rec.side == Side::Goats.name() {
                Side::Goats
            } else {
                Side::Tigers
            };
            let path = half_path(dir, rec.placed, side);
            let f = fs::File::open(&path).map_err(io_err(&path))?;
            let len = f.metadata().map_err(io_err(&path))?.len();
            let want = half_bytes(&index, rules, rec.placed, side);
            if len != want {
                return Err(DbError::BadSize(path, len, want));
            }
            db::verify_file(&manifest, dir, &path, None)?;
            let mut offsets = Vec::new();
            let mut at = 0u64;
            for c in captures(rules, rec.placed, side) {
                offsets.push(at);
                at += (packed::stride(rec.placed - c) * index.classes().len()) as u64;
            }
            files[rec.placed as usize][usize::from(side == Side::Tigers)] =
                Some(HalfFile { file: f, offsets });
        }
        Ok(PlacementReader {
            index,
            rules: *rules,
            files,
        })
    }

    /// The fewest goats placed of a written half (`None`: no half is written, the database holds
    /// the movement phase alone). The halves are written from the last placement back, so every
    /// half with more goats placed is written too.
    #[must_use]
    pub fn fewest_placed(&self) -> Option<u32> {
        (0..self.files.len())
            .find(|&p| self.files[p].iter().any(Option::is_some))
            .and_then(|p| u32::try_from(p).ok())
    }

    /// Whether every half down to the start is written.
    #[must_use]
    pub fn complete(&self) -> bool {
        placement::halves()
            .iter()
            .all(|&(p, s)| self.files[p as usize][usize::from(s == Side::Tigers)].is_some())
    }

    /// The rules solved under.
    #[must_use]
    pub fn rules(&self) -> &SolveRules {
        &self.rules
    }

    /// The code (for the side to move) of the board (`tigers`, `goats`) with `placed` goats
    /// placed (fewer than twenty) and `side` to move; `None` if its half is not written or the
    /// board has more captures than the half holds.
    ///
    /// # Errors
    /// A read error.
    pub fn code(
        &self,
        placed: u32,
        side: Side,
        tigers: Bitboard,
        goats: Bitboard,
    ) -> std::io::Result<Option<Code>> {
        let Some(HalfFile { file, offsets }) = self
            .files
            .get(placed as usize)
            .and_then(|h| h[usize::from(side == Side::Tigers)].as_ref())
        else {
            return Ok(None);
        };
        let on_board = goats.count_ones();
        let Some(c) = placed.checked_sub(on_board) else {
            return Ok(None);
        };
        let Some(&offset) = offsets.get(c as usize) else {
            return Ok(None);
        };
        // Any image of the board will do: every slot holds its board's value.
        let (class, s) = self.index.class_of(tigers);
        let target = self.index.classes()[class].tigers;
        let rank = combin::rank(combin::squeeze(symmetry::apply(s, goats), target));
        let stride = packed::stride(on_board) as u64;
        let at = offset + class as u64 * stride + u64::from(rank >> 2);
        let mut byte = [0u8];
        file.read_exact_at(&mut byte, at)?;
        Ok(Some(byte[0] >> ((rank & 3) * 2) & 3))
    }
}

/// The start position's tiger set: the four corners.
pub const START_TIGERS: Bitboard = 1 | 1 << 4 | 1 << 20 | 1 << 24;

/// The start position's value for the goats (to move), and for each point the goats' value
/// after their first goat is placed there (the tigers to move): `None` if the first halves are
/// not written.
///
/// # Errors
/// A read error.
pub fn start_values(reader: &PlacementReader) -> std::io::Result<Option<StartValues>> {
    let Some(start) = reader.code(0, Side::Goats, START_TIGERS, 0)? else {
        return Ok(None);
    };
    let mut after = Vec::new();
    for p in crate::moves::points(crate::moves::ALL & !START_TIGERS) {
        match reader.code(1, Side::Tigers, START_TIGERS, 1 << p)? {
            Some(c) => after.push((p, packed::parent(c))),
            None => return Ok(None),
        }
    }
    Ok(Some((start, after)))
}

/// The code of a game state for its side to move, from the placement halves for a placement
/// position and from `db` for a movement one; a finished game by its result. `None` for a
/// placement position whose half is not written.
///
/// # Errors
/// A read error.
pub fn state_code(
    reader: &PlacementReader,
    db: &Database,
    state: &cowrie_engine::Baghchal,
) -> std::io::Result<Option<Code>> {
    use cowrie_engine::Game;
    if state.is_placement_phase() && matches!(state.to_act(), cowrie_engine::ToAct::Decision(_)) {
        let placed = u32::from(TOTAL_GOATS - state.goats_in_hand());
        return reader.code(
            placed,
            Side::of(state.side_to_move()),
            state.tigers(),
            state.goats(),
        );
    }
    Ok(db.state_value(state).map(crate::placement::code_of))
}
