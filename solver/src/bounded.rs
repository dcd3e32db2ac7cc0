//! Bounded reads of the files cowrie trusts: a JSON document (a manifest) is read whole up to
//! [`DOCUMENT_LIMIT`] bytes, a file of lines (records, plies, CSV tables) up to
//! [`LINE_LIMIT`] bytes a line. Each limit is checked against the file's size first and
//! enforced while reading, since a device such as `/dev/zero` reports size 0 and never ends.
//! A file over its limit is an [`std::io::ErrorKind::InvalidData`] error stating the limit;
//! the caller names the file.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// The most bytes a JSON document (a run's or database's `manifest.json`) may hold: 64 MiB.
pub const DOCUMENT_LIMIT: u64 = 64 << 20;

/// The most bytes one line of a line-based file (`records.jsonl`, a plies file, a CSV table)
/// may hold, its newline excluded: 16 MiB.
pub const LINE_LIMIT: u64 = 16 << 20;

/// `bytes` in words, in MiB when whole.
fn size(bytes: u64) -> String {
    if bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

fn too_long(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

/// The whole file at `path`, which may hold at most `limit` bytes.
///
/// # Errors
/// An unreadable file, or one longer than `limit` (by its size or by what reading it yields).
pub fn read_at_most(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = File::open(path)?;
    let len = file.metadata()?.len();
    let over = || {
        too_long(format!(
            "longer than {}, the limit of its format",
            size(limit)
        ))
    };
    if len > limit {
        return Err(over());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(over());
    }
    Ok(bytes)
}

/// The JSON document (a manifest) at `path`, at most [`DOCUMENT_LIMIT`] bytes.
///
/// # Errors
/// As [`read_at_most`].
pub fn read_document(path: &Path) -> io::Result<Vec<u8>> {
    read_at_most(path, DOCUMENT_LIMIT)
}

/// The file of lines at `path`, no line of which may exceed [`LINE_LIMIT`] bytes.
///
/// # Errors
/// An unreadable file, or a line longer than the limit.
pub fn read_lines(path: &Path) -> io::Result<Vec<u8>> {
    lines_at_most(File::open(path)?, LINE_LIMIT)
}

/// The text file of lines at `path` (a CSV table, a note), bounded as [`read_lines`].
///
/// # Errors
/// As [`read_lines`], or text that is not UTF-8.
pub fn read_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_lines(path)?).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Everything `source` yields, no line of which (newline excluded) may exceed `limit` bytes.
fn lines_at_most(source: impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let mut reader = BufReader::with_capacity(1 << 16, source);
    let mut bytes = Vec::new();
    // Bytes since the last newline.
    let mut run = 0u64;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(bytes);
        }
        // The chunk's first part continues the current line; each newline starts another.
        let mut parts = chunk.split(|&b| b == b'\n').map(|p| p.len() as u64);
        run += parts.next().unwrap_or(0);
        let mut longest = run;
        for part in parts {
            run = part;
            longest = longest.max(part);
        }
        if longest > limit {
            return Err(too_long(format!(
                "a line longer than {}, the limit of a line",
                size(limit)
            )));
        }
        bytes.extend_from_slice(chunk);
        let n = chunk.len();
        reader.consume(n);
    }
}

/// The file at `path` bounded as its format is: a `.json` file as a document
/// ([`read_document`]), any other as lines ([`read_lines`]).
///
/// # Errors
/// As [`read_document`] or [`read_lines`].
pub fn read_run_file(path: &Path) -> io::Result<Vec<u8>> {
    if path.extension().is_some_and(|e| e == "json") {
        read_document(path)
    } else {
        read_lines(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn lines_within_the_limit_are_read_whole() {
        // Lines of 4, 0 and 3 bytes against a limit of 4: all read, across chunk borders.
        let text = b"abcd\n\nxyz\n".repeat(10_000);
        assert_eq!(lines_at_most(&text[..], 4).unwrap(), text);
    }

    #[test]
    fn a_line_over_the_limit_is_refused() {
        for text in [&b"abcde"[..], b"ab\nabcde\nab", b"abcd\nabcd\n\nabcde"] {
            let e = lines_at_most(text, 4).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{text:?}");
            assert_eq!(
                e.to_string(),
                "a line longer than 4 bytes, the limit of a line"
            );
        }
    }

    #[test]
    fn an_endless_line_stops_at_the_limit() {
        // An endless source of zeros, as /dev/zero: refused once the limit is passed.
        let e = lines_at_most(io::repeat(0), 1 << 20).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a line longer than 1 MiB, the limit of a line"
        );
    }

    #[test]
    fn a_document_over_its_limit_is_refused_by_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.json");
        std::fs::File::create(&path)
            .unwrap()
            .write_all(&[b' '; 11])
            .unwrap();
        assert_eq!(read_at_most(&path, 11).unwrap().len(), 11);
        let e = read_at_most(&path, 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "longer than 10 bytes, the limit of its format"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_device_of_size_zero_is_bounded_while_read() {
        let e = read_at_most(Path::new("/dev/zero"), 1000).unwrap_err();
        assert_eq!(
            e.to_string(),
            "longer than 1000 bytes, the limit of its format"
        );
        let e = read_run_file(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a line longer than 16 MiB, the limit of a line"
        );
    }
}
