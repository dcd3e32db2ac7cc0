//! The one form in which every cowrie manifest records a file: its length in bytes and the
//! SHA-256 of those bytes, in lower-case hex, kept in a map keyed by the file's path relative
//! to a base the map's field states (a run's or database's `files`: the manifest's directory;
//! a run's `inputs`: see `docs/conventions.md`).
//!
//! It lives here, in the lowest crate that writes manifests, so that solver databases and the
//! runs of `cowrie` (which depend on this crate) share it.

use std::io::{self, Read};
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A file's length in bytes and the SHA-256 of those bytes, in lower-case hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDigest {
    /// Length in bytes.
    pub bytes: u64,
    /// SHA-256 of the first `bytes` bytes, hex.
    pub sha256: String,
}

impl FileDigest {
    /// The digest of `data`.
    #[must_use]
    pub fn of(data: &[u8]) -> FileDigest {
        FileDigest {
            bytes: data.len() as u64,
            sha256: hex(&Sha256::digest(data)),
        }
    }

    /// The digest of everything `reader` yields, read in pieces (a file of any size is hashed
    /// without being held in memory).
    ///
    /// # Errors
    /// The reader's error.
    pub fn of_reader(mut reader: impl Read) -> io::Result<FileDigest> {
        let mut hasher = Sha256::new();
        let bytes = io::copy(&mut reader, &mut hasher)?;
        Ok(FileDigest {
            bytes,
            sha256: hex(&hasher.finalize()),
        })
    }

    /// The digest of the file at `path`, read in pieces.
    ///
    /// # Errors
    /// The file cannot be opened or read.
    pub fn of_file(path: &Path) -> io::Result<FileDigest> {
        FileDigest::of_reader(std::fs::File::open(path)?)
    }

    /// The digest a hasher that was given `bytes` bytes has computed.
    #[must_use]
    pub fn finish(hasher: Sha256, bytes: u64) -> FileDigest {
        FileDigest {
            bytes,
            sha256: hex(&hasher.finalize()),
        }
    }
}

/// `digest` in lower-case hex.
#[must_use]
pub fn hex(digest: &[u8]) -> String {
    use std::fmt::Write as _;
    digest.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_hashed_in_pieces_has_the_digest_of_its_bytes() {
        // SHA-256 of "abc", as published (FIPS 180-2, appendix B.1).
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(FileDigest::of(b"abc").sha256, abc);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"abc").unwrap();
        let d = FileDigest::of_file(&path).unwrap();
        assert_eq!((d.bytes, d.sha256.as_str()), (3, abc));
    }
}
