//! What a manifest says of each file of its run: its length and SHA-256, in the one form
//! every manifest uses ([`FileDigest`], shared with the solver's databases).
//!
//! A run keeps a running hash of each file it appends to ([`HashedFile`]), updated with the
//! bytes as they are written, never by reading the file back, and the manifest records it at
//! every flush. `--resume`, `merge` and `replay` check a file against that record before they
//! trust a row of it, so an edited, truncated or foreign file is refused, naming it.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context};
use sha2::{Digest, Sha256};

pub use cowrie_solver::digest::FileDigest;

/// A file open for appending, with the running hash of everything it holds.
#[derive(Debug)]
pub struct HashedFile {
    file: File,
    hasher: Sha256,
    bytes: u64,
}

impl HashedFile {
    /// Wraps `file`, whose current content is `held` (hashed once here).
    #[must_use]
    pub fn new(file: File, held: &[u8]) -> HashedFile {
        let mut hasher = Sha256::new();
        hasher.update(held);
        HashedFile {
            file,
            hasher,
            bytes: held.len() as u64,
        }
    }

    /// Appends `data` and flushes it to the operating system.
    ///
    /// # Errors
    /// The write's error.
    pub fn append(&mut self, data: &[u8]) -> std::io::Result<()> {
        self.file.write_all(data)?;
        self.file.flush()?;
        self.hasher.update(data);
        self.bytes += data.len() as u64;
        Ok(())
    }

    /// The digest of everything appended so far.
    #[must_use]
    pub fn digest(&self) -> FileDigest {
        FileDigest::finish(self.hasher.clone(), self.bytes)
    }
}

/// Checks that `data`, the content of the file at `path`, begins with the bytes `recorded`
/// describes (`whole`: and holds nothing more), naming the file and what differs.
///
/// # Errors
/// A file shorter (or, when `whole`, longer) than recorded, or whose bytes hash differently.
pub fn check(path: &Path, data: &[u8], recorded: &FileDigest, whole: bool) -> anyhow::Result<()> {
    let len = data.len() as u64;
    if len < recorded.bytes || (whole && len != recorded.bytes) {
        bail!(
            "'{}' holds {len} bytes but its manifest records {}: it was truncated or changed after the run wrote it",
            path.display(),
            recorded.bytes
        );
    }
    let prefix = &data[..usize::try_from(recorded.bytes).context("file too large")?];
    if FileDigest::of(prefix).sha256 != recorded.sha256 {
        bail!(
            "'{}' differs from the SHA-256 its manifest records for its first {} bytes: it was edited, or belongs to another run",
            path.display(),
            recorded.bytes
        );
    }
    Ok(())
}

/// The digest a manifest (as JSON) records for its file `name`, if any.
///
/// # Errors
/// A malformed record, naming the manifest.
pub fn recorded(
    manifest: &serde_json::Value,
    name: &str,
    manifest_path: &Path,
) -> anyhow::Result<Option<FileDigest>> {
    match manifest.get("files").and_then(|f| f.get(name)) {
        None => Ok(None),
        Some(v) => serde_json::from_value(v.clone())
            .map(Some)
            .map_err(crate::args::json_error)
            .with_context(|| {
                format!(
                    "'{}': files.{name} is not a digest (bytes, sha256)",
                    manifest_path.display()
                )
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_running_hash_equals_the_hash_of_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"head\n").unwrap();
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        let mut f = HashedFile::new(file, b"head\n");
        f.append(b"row 1\n").unwrap();
        f.append(b"row 2\n").unwrap();
        let data = std::fs::read(&path).unwrap();
        assert_eq!(f.digest(), FileDigest::of(&data));
        // SHA-256 of the empty string, as published (FIPS 180-2 test vectors).
        assert_eq!(
            FileDigest::of(b"").sha256,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        check(&path, &data, &f.digest(), true).unwrap();
        let mut edited = data.clone();
        edited[7] = b'X';
        let e = check(&path, &edited, &f.digest(), true).unwrap_err();
        assert!(e.to_string().contains("edited"), "{e}");
        let e = check(&path, &data[..8], &f.digest(), false).unwrap_err();
        assert!(e.to_string().contains("truncated"), "{e}");
        // A longer file passes as a prefix (rows written after the last manifest), not whole.
        let mut longer = data.clone();
        longer.extend_from_slice(b"row 3\n");
        check(&path, &longer, &f.digest(), false).unwrap();
        assert!(check(&path, &longer, &f.digest(), true).is_err());
    }
}
