//! A database on disk: a directory with `manifest.json` (the rules, and the layers solved so
//! far) and one file per layer, `layer-GG.bin`, its words as little-endian `u16`: the slots with
//! the goats to move, then those with the tigers to move.
//!
//! A layer's file is written under a temporary name and renamed, then the manifest is rewritten
//! the same way, so an interrupted solve leaves every listed layer whole: the layers are the
//! checkpoints a resumed solve continues from.
//!
//! The manifest's `files` records the length and SHA-256 of every file written, in the form
//! every cowrie manifest uses ([`FileDigest`]); a reader checks each file against it the first
//! time the process reads the file ([`verify_file`]), unless checking is turned off
//! ([`set_verify`]). A manifest written before checksums were recorded is read with a warning on
//! stderr; one that recorded the SHA-256 alone (a string) is read as that SHA-256 of the file's
//! length on disk.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use cowrie_engine::games::baghchal::Bitboard;
use cowrie_engine::{Baghchal, EndReason, Game, ToAct};
use serde::{Deserialize, Serialize};

pub use crate::digest::FileDigest;

use crate::children::Children;
use crate::index::Index;
use crate::layer::{Layer, Side};
use crate::packed::Tally;
use crate::rules::SolveRules;
use crate::value::Value;

/// The `format` field of a manifest.
pub const FORMAT: &str = "cowrie-baghchal-movement-phase";
/// The layout version.
pub const VERSION: u32 = 1;
const MANIFEST: &str = "manifest.json";

/// Why a database could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// A file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error (named so that it is printed once: it is part of this message, not a
        /// source the error chain repeats).
        error: io::Error,
    },
    /// The manifest is not a database's.
    #[error("{0}: not a cowrie Baghchal database manifest ({1})")]
    NotADatabase(PathBuf, String),
    /// The directory holds a database for other rules.
    #[error("{dir}: holds a database for {found}, not {wanted}")]
    OtherRules {
        /// The directory.
        dir: PathBuf,
        /// Its rules.
        found: String,
        /// The rules asked for.
        wanted: String,
    },
    /// A layer the rules need is not solved.
    #[error("{0}: the layer with {1} goats is not solved (run cowrie solve with --resume)")]
    Missing(PathBuf, u32),
    /// A layer file has the wrong size.
    #[error("{0}: {1} bytes, expected {2}")]
    BadSize(PathBuf, u64, u64),
    /// A file's SHA-256 is not the one its manifest records.
    #[error("{0}: its SHA-256 is not the one manifest.json records (the file is damaged or was changed; solve it again)")]
    Checksum(PathBuf),
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> DbError + '_ {
    move |error| DbError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// The file at `path`, which must hold `want` bytes: its size is checked first and the read
/// stops at `want` bytes, so a file that grows or a device reads no further.
///
/// # Errors
/// An unreadable file, or one of another size.
pub(crate) fn read_sized(path: &Path, want: u64) -> Result<Vec<u8>, DbError> {
    let f = fs::File::open(path).map_err(io_err(path))?;
    let len = f.metadata().map_err(io_err(path))?.len();
    if len != want {
        return Err(DbError::BadSize(path.to_path_buf(), len, want));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(want).unwrap_or(0));
    f.take(want).read_to_end(&mut bytes).map_err(io_err(path))?;
    if bytes.len() as u64 != want {
        return Err(DbError::BadSize(
            path.to_path_buf(),
            bytes.len() as u64,
            want,
        ));
    }
    Ok(bytes)
}

/// A solved layer as the manifest lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerRecord {
    /// Goats on the board.
    pub goats: u32,
    /// Slots per side to move.
    pub slots_per_side: u64,
    /// Levels (distances) the retrograde analysis processed.
    pub levels: u32,
}

/// One part (a number of captures) of a written placement half, as the manifest lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartRecord {
    /// Goats captured.
    pub captured: u32,
    /// Its counts.
    pub tally: Tally,
}

/// A written placement half (`crate::placement`), as the manifest lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HalfRecord {
    /// Goats placed.
    pub placed: u32,
    /// `goats` or `tigers`: the side to move.
    pub side: String,
    /// Its parts, by captures.
    pub parts: Vec<PartRecord>,
}

/// One command that wrote to a database (the first solve, and each `--resume`), as the
/// manifests of cowrie's other commands record theirs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandRecord {
    /// The command line, paths relative to the directory it ran in where they lie under it
    /// (the program by its file name).
    pub command_line: Vec<String>,
    /// The binary: cowrie's version, git commit, whether the tree was dirty, build profile.
    #[serde(flatten)]
    pub build: crate::Build,
    /// Start time, RFC 3339 UTC.
    pub started: String,
    /// Worker threads.
    pub threads: usize,
    /// The command's resolved options: the game, variant, option overrides and every rule
    /// option resolved, and the solve's own flags.
    pub run: serde_json::Value,
}

/// The manifest of a database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The rules solved under.
    pub rules: SolveRules,
    /// The layers solved so far, in solving order.
    pub layers: Vec<LayerRecord>,
    /// The placement halves written so far, in solving order (none in a database of the
    /// movement phase alone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placement: Vec<HalfRecord>,
    /// The commands that wrote the database, oldest first (none in a database written before
    /// commands were recorded, or by the library without one; such a manifest still reads and
    /// resumes, and the field is added by the next command that records itself).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<CommandRecord>,
    /// The length and SHA-256 of each file written, by file name (none in a database written
    /// before checksums were recorded: its files are read unchecked, with a warning).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub files: BTreeMap<String, FileDigest>,
}

impl Manifest {
    /// An empty manifest for `rules`.
    #[must_use]
    pub fn new(rules: SolveRules) -> Self {
        Manifest {
            format: FORMAT.to_string(),
            version: VERSION,
            rules,
            layers: Vec::new(),
            placement: Vec::new(),
            commands: Vec::new(),
            files: BTreeMap::new(),
        }
    }

    /// Whether the layer with `goats` goats is solved.
    #[must_use]
    pub fn has_layer(&self, goats: u32) -> bool {
        self.layers.iter().any(|l| l.goats == goats)
    }

    /// Reads `dir/manifest.json`; `None` if there is none.
    ///
    /// # Errors
    /// An unreadable or foreign manifest.
    pub fn read(dir: &Path) -> Result<Option<Self>, DbError> {
        let path = dir.join(MANIFEST);
        let text = match crate::bounded::read_document(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_err(&path)(e)),
        };
        let not_a_db = |e: serde_json::Error| DbError::NotADatabase(path.clone(), e.to_string());
        let mut value: serde_json::Value = serde_json::from_slice(&text).map_err(not_a_db)?;
        upgrade_digests(dir, &mut value);
        let m: Manifest = serde_json::from_value(value).map_err(not_a_db)?;
        if m.format != FORMAT || m.version != VERSION {
            return Err(DbError::NotADatabase(
                path,
                format!("format {} version {}", m.format, m.version),
            ));
        }
        Ok(Some(m))
    }

    /// Reads `dir/manifest.json`, which must exist.
    ///
    /// # Errors
    /// No manifest, an unreadable or a foreign one.
    pub fn read_required(dir: &Path) -> Result<Self, DbError> {
        Self::read(dir)?.ok_or_else(|| DbError::Io {
            path: dir.join(MANIFEST),
            error: io::Error::new(io::ErrorKind::NotFound, "no database here"),
        })
    }

    /// Reads `dir/manifest.json`, which must exist and name `rules`.
    ///
    /// # Errors
    /// No manifest, an unreadable or a foreign one, or one of other rules.
    pub fn read_for(dir: &Path, rules: &SolveRules) -> Result<Self, DbError> {
        let manifest = Self::read_required(dir)?;
        if manifest.rules != *rules {
            return Err(DbError::OtherRules {
                dir: dir.to_path_buf(),
                found: manifest.rules.to_string(),
                wanted: rules.to_string(),
            });
        }
        Ok(manifest)
    }

    /// Writes `dir/manifest.json` atomically (a temporary file renamed).
    ///
    /// # Errors
    /// An I/O error.
    pub fn write(&self, dir: &Path) -> Result<(), DbError> {
        let text = serde_json::to_string_pretty(self).expect("a manifest serialises");
        write_atomic(&dir.join(MANIFEST), (text + "\n").as_bytes())
    }
}

/// Rewrites each `files` entry recorded as a SHA-256 string alone (the form before lengths were
/// recorded) as a [`FileDigest`] with the file's length on disk: the SHA-256 still decides
/// whether the file is the one written.
fn upgrade_digests(dir: &Path, manifest: &mut serde_json::Value) {
    let Some(files) = manifest
        .get_mut("files")
        .and_then(serde_json::Value::as_object_mut)
    else {
        return;
    };
    for (name, v) in files.iter_mut() {
        if let Some(sha256) = v.as_str() {
            let bytes = fs::metadata(dir.join(name)).map_or(0, |m| m.len());
            *v = serde_json::json!({ "bytes": bytes, "sha256": sha256 });
        }
    }
}

pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), DbError> {
    let tmp = path.with_extension("tmp");
    let mut f = fs::File::create(&tmp).map_err(io_err(&tmp))?;
    f.write_all(bytes).map_err(io_err(&tmp))?;
    f.sync_all().map_err(io_err(&tmp))?;
    fs::rename(&tmp, path).map_err(io_err(path))
}

/// Whether readers check files against their manifest's checksums (the default).
static VERIFY: AtomicBool = AtomicBool::new(true);
/// The files this process has checked, and the directories it has warned about.
static CHECKED: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

/// Turns the checksum check of files read off (`false`) or on, for the whole process: a
/// command's `--no-verify`, where reading a large database whole once is too slow.
pub fn set_verify(on: bool) {
    VERIFY.store(on, Ordering::Relaxed);
}

/// Whether files read are checked against their checksums ([`set_verify`]).
#[must_use]
pub fn verifying() -> bool {
    VERIFY.load(Ordering::Relaxed)
}

/// Records `digest`, the length and SHA-256 of the file `path`, in the manifest.
pub(crate) fn record(manifest: &mut Manifest, path: &Path, digest: FileDigest) {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    manifest.files.insert(name.into_owned(), digest);
}

/// Checks the file `path` of the database `dir` against the SHA-256 `manifest` records, the
/// first time this process reads it; `held` is its whole content if already read (otherwise
/// the file is read once here, for a file read in pieces later). A manifest without checksums is warned of once on stderr, and its
/// files are read unchecked; so is every file when checking is off ([`set_verify`]).
///
/// # Errors
/// A file whose SHA-256 differs, or a read error.
pub fn verify_file(
    manifest: &Manifest,
    dir: &Path,
    path: &Path,
    held: Option<&[u8]>,
) -> Result<(), DbError> {
    if !verifying() {
        return Ok(());
    }
    let mut checked = CHECKED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if checked.contains(path) {
        return Ok(());
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let Some(want) = manifest.files.get(name.as_ref()) else {
        if checked.insert(dir.join(MANIFEST)) {
            eprintln!(
                "warning: {}: records no checksum of {name} (written before checksums were recorded); read unchecked",
                dir.join(MANIFEST).display()
            );
        }
        return Ok(());
    };
    let got = match held {
        Some(bytes) => FileDigest::of(bytes),
        None => FileDigest::of_file(path).map_err(io_err(path))?,
    };
    if got.sha256 != want.sha256 || got.bytes != want.bytes {
        return Err(DbError::Checksum(path.to_path_buf()));
    }
    checked.insert(path.to_path_buf());
    Ok(())
}

/// The file of the layer with `goats` goats.
#[must_use]
pub fn layer_path(dir: &Path, goats: u32) -> PathBuf {
    dir.join(format!("layer-{goats:02}.bin"))
}

/// Writes a solved layer's file and lists it in the manifest (both atomically).
///
/// # Errors
/// An I/O error.
pub fn save_layer(
    dir: &Path,
    manifest: &mut Manifest,
    layer: &Layer,
    levels: u32,
) -> Result<(), DbError> {
    let bytes: Vec<u8> = layer.words().iter().flat_map(|w| w.to_le_bytes()).collect();
    let path = layer_path(dir, layer.goats());
    write_atomic(&path, &bytes)?;
    record(manifest, &path, FileDigest::of(&bytes));
    manifest.layers.retain(|l| l.goats != layer.goats());
    manifest.layers.push(LayerRecord {
        goats: layer.goats(),
        slots_per_side: layer.slots() as u64,
        levels,
    });
    manifest.write(dir)
}

/// Reads the layer with `goats` goats, expecting `slots` slots per side, checked against the
/// SHA-256 `manifest` records ([`verify_file`]).
///
/// # Errors
/// An I/O error, a file of the wrong size, or one whose SHA-256 differs.
pub fn load_layer(
    dir: &Path,
    manifest: &Manifest,
    goats: u32,
    slots: usize,
) -> Result<Layer, DbError> {
    let path = layer_path(dir, goats);
    let bytes = read_sized(&path, 4 * slots as u64)?;
    verify_file(manifest, dir, &path, Some(&bytes))?;
    let words = bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    Ok(Layer::new(goats, words))
}

/// A whole database in memory: every layer of its rules.
#[derive(Debug)]
pub struct Database {
    rules: SolveRules,
    index: Index,
    /// `layers[g]`: the layer with `g` goats, for the layers the rules have.
    layers: Vec<Option<Layer>>,
}

impl Database {
    /// Loads the database in `dir`, which must be solved for `rules`.
    ///
    /// # Errors
    /// No database, another rule set's, or a layer missing.
    pub fn open(dir: &Path, rules: &SolveRules) -> Result<Self, DbError> {
        let manifest = Manifest::read_for(dir, rules)?;
        let index = Index::new();
        let mut layers: Vec<Option<Layer>> = (0..=20).map(|_| None).collect();
        for g in rules.layers() {
            if !manifest.has_layer(g) {
                return Err(DbError::Missing(dir.to_path_buf(), g));
            }
            layers[g as usize] = Some(load_layer(dir, &manifest, g, index.slots(g))?);
        }
        Ok(Database {
            rules: *rules,
            index,
            layers,
        })
    }

    /// Loads the database in `dir` under the rules its manifest names.
    ///
    /// # Errors
    /// As [`Database::open`].
    pub fn open_any(dir: &Path) -> Result<Self, DbError> {
        Self::open(dir, &Manifest::read_required(dir)?.rules)
    }

    /// The rules solved under.
    #[must_use]
    pub fn rules(&self) -> &SolveRules {
        &self.rules
    }

    /// The layer with `goats` goats, if the rules have one.
    #[must_use]
    pub fn layer(&self, goats: u32) -> Option<&Layer> {
        self.layers.get(goats as usize).and_then(Option::as_ref)
    }

    /// The value of the board with `side` to move (every goat placed), for the side to move.
    /// A board won by captures is lost for the goats (`Loss(0)` with the goats to move).
    #[must_use]
    #[inline]
    pub fn value(&self, side: Side, tigers: Bitboard, goats: Bitboard) -> Value {
        let g = goats.count_ones();
        match self.layer(g) {
            None => {
                debug_assert!(self.rules.captures_won(g));
                if side == Side::Goats {
                    Value::Loss(0)
                } else {
                    Value::Win(0)
                }
            }
            Some(l) => l
                .value(side, self.index.canonical(tigers, goats).slot)
                .expect("a canonical slot"),
        }
    }

    /// The value of a movement-phase game state for its side to move (`None` in the placement
    /// phase); at a finished game, a loss or win in 0 by its result.
    #[must_use]
    pub fn state_value(&self, state: &Baghchal) -> Option<Value> {
        if let ToAct::Terminal(end) = state.to_act() {
            return Some(match end {
                EndReason::Win(p) if p == state.side_to_move() => Value::Win(0),
                EndReason::Win(_) => Value::Loss(0),
                EndReason::Draw | EndReason::Truncated => Value::Draw,
            });
        }
        if state.is_placement_phase() {
            return None;
        }
        Some(self.value(
            Side::of(state.side_to_move()),
            state.tigers(),
            state.goats(),
        ))
    }

    /// The index the layers are stored by.
    #[must_use]
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The reader of the children of boards with `goats` goats.
    #[must_use]
    pub fn children(&self, goats: u32) -> Option<Children<'_>> {
        Some(Children {
            index: &self.index,
            rules: &self.rules,
            this: self.layer(goats)?,
            below: goats.checked_sub(1).and_then(|g| self.layer(g)),
        })
    }
}

#[cfg(test)]
mod manifest_tests {
    use super::*;

    /// A manifest as `cowrie solve` wrote it before it recorded commands (the shape of a
    /// five-captures database with its last placement half).
    const OLD: &str = r#"{
  "format": "cowrie-baghchal-movement-phase",
  "version": 1,
  "rules": {
    "win_captures": 5,
    "goats_pass": false
  },
  "layers": [
    {
      "goats": 16,
      "slots_per_side": 33901434,
      "levels": 78
    }
  ],
  "placement": [
    {
      "placed": 19,
      "side": "goats",
      "parts": [
        {
          "captured": 0,
          "tally": {
            "positions": 333175,
            "wins": 300230,
            "draws": 32879,
            "losses": 66
          }
        }
      ]
    }
  ]
}
"#;

    #[test]
    fn a_manifest_written_before_commands_were_recorded_reads_and_writes_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(MANIFEST), OLD).unwrap();
        let m = Manifest::read(dir.path()).unwrap().unwrap();
        assert!(m.commands.is_empty());
        assert_eq!(m.layers[0].levels, 78);
        assert_eq!(m.placement[0].parts[0].tally.losses, 66);
        // Written back without commands, it is the same text.
        m.write(dir.path()).unwrap();
        assert_eq!(fs::read_to_string(dir.path().join(MANIFEST)).unwrap(), OLD);
    }

    #[test]
    fn a_manifest_that_recorded_the_sha256_alone_reads_in_the_one_form() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("layer-16.bin"), b"abc").unwrap();
        // SHA-256 of "abc", as published (FIPS 180-2, appendix B.1).
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let old = OLD.trim_end().trim_end_matches('}').to_string()
            + &format!(",\n  \"files\": {{\"layer-16.bin\": \"{abc}\"}}\n}}\n");
        fs::write(dir.path().join(MANIFEST), old).unwrap();
        let m = Manifest::read(dir.path()).unwrap().unwrap();
        assert_eq!(
            m.files["layer-16.bin"],
            FileDigest {
                bytes: 3,
                sha256: abc.to_string()
            }
        );
        // Checked in that form: a changed byte is refused, the file as written passes.
        let path = dir.path().join("layer-16.bin");
        fs::write(&path, b"abd").unwrap();
        assert!(matches!(
            verify_file(&m, dir.path(), &path, None),
            Err(DbError::Checksum(_))
        ));
        fs::write(&path, b"abc").unwrap();
        verify_file(&m, dir.path(), &path, None).unwrap();
    }
}
