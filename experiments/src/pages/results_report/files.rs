//! Reading a results tree: sorted directory listings, CSV files as tables of strings (each
//! checked against the SHA-256 its run's manifest records), manifests as JSON. Every error names
//! the file.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::{Map, Value};

/// A CSV file: its header and its rows, every cell as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The header.
    pub columns: Vec<String>,
    /// The rows, each as long as the header.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Reads `path`, checked as [`verified`] checks it.
    ///
    /// # Errors
    /// If the file cannot be read, differs from its manifest's record, or is not CSV with a
    /// header and rows of the header's length.
    pub fn read(path: &Path) -> anyhow::Result<Self> {
        let bad = || format!("malformed CSV '{}'", path.display());
        let data = verified(path)?;
        let mut r = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(data.as_slice());
        let columns: Vec<String> = r
            .headers()
            .with_context(bad)?
            .iter()
            .map(str::to_string)
            .collect();
        if columns.is_empty() || columns.iter().all(String::is_empty) {
            anyhow::bail!("{}: no header", bad());
        }
        let mut rows = Vec::new();
        for rec in r.records() {
            let rec = rec.with_context(bad)?;
            rows.push(rec.iter().map(str::to_string).collect());
        }
        Ok(Table { columns, rows })
    }

    /// The value of column `name` in `row`, if the column exists.
    pub fn get<'a>(&self, row: &'a [String], name: &str) -> Option<&'a str> {
        let i = self.columns.iter().position(|c| c == name)?;
        row.get(i).map(String::as_str)
    }

    /// Every row as a map from column name to cell.
    pub fn records(&self) -> Vec<Value> {
        self.rows.iter().map(|row| self.record(row)).collect()
    }

    /// One row as a map from column name to cell.
    pub fn record(&self, row: &[String]) -> Value {
        let mut m = Map::new();
        for (c, v) in self.columns.iter().zip(row) {
            m.insert(c.clone(), Value::String(v.clone()));
        }
        Value::Object(m)
    }

    /// The table for a template: `columns`, `rows` (lists of cells) and `records` (maps).
    pub fn to_value(&self) -> Value {
        serde_json::json!({
            "columns": self.columns,
            "rows": self.rows,
            "records": self.records(),
        })
    }
}

/// The bytes of the file at `path`, checked against the length and SHA-256 that the
/// `manifest.json` beside it records for it, where it records one (a run's manifest records
/// the files it wrote; a complete run's must hold exactly those bytes, an unfinished run's at
/// least them). A file no manifest records is read as it is.
///
/// # Errors
/// If the file or its manifest cannot be read, or the file differs from the record (edited by
/// hand, truncated, or copied from another run), naming it.
pub fn verified(path: &Path) -> anyhow::Result<Vec<u8>> {
    let data = cowrie_solver::bounded::read_run_file(path)
        .with_context(|| format!("cannot read '{}'", path.display()))?;
    let manifest_path = path.with_file_name("manifest.json");
    if manifest_path.is_file() {
        let m = manifest(&manifest_path)?;
        if let Some(d) = crate::run::digest::recorded(&m, &name(path), &manifest_path)? {
            let whole = m["status"].as_str() == Some("complete");
            crate::run::digest::check(path, &data, &d, whole)?;
        }
    }
    Ok(data)
}

/// Reads a `manifest.json`.
///
/// # Errors
/// If it cannot be read or is not JSON.
pub fn manifest(path: &Path) -> anyhow::Result<Value> {
    let text = cowrie_solver::bounded::read_document(path)
        .with_context(|| format!("cannot read '{}'", path.display()))?;
    serde_json::from_slice(&text).with_context(|| format!("malformed JSON '{}'", path.display()))
}

/// The entries of directory `dir` (directories when `dirs`, else files), sorted by
/// [`natural_cmp`] on their names, so the order never depends on the file system.
///
/// # Errors
/// If the directory cannot be read.
pub fn list(dir: &Path, dirs: bool) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).with_context(|| format!("cannot read '{}'", dir.display()))? {
        let e = e.with_context(|| format!("cannot read '{}'", dir.display()))?;
        let p = e.path();
        if p.is_dir() == dirs {
            out.push(p);
        }
    }
    out.sort_by(|a, b| natural_cmp(&name(a), &name(b)));
    Ok(out)
}

/// The last component of `p`, as text.
pub fn name(p: &Path) -> String {
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Compares names with runs of digits taken as numbers (`2-x` before `10-x`,
/// `mcts-200` before `mcts-1000`); ties broken byte-wise.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = s.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[start].is_ascii_digit() {
                out.push((bytes[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let (ca, cb) = (chunks(a), chunks(b));
    for ((da, sa), (db, sb)) in ca.iter().zip(&cb) {
        let o = if *da && *db {
            let (ta, tb) = (sa.trim_start_matches('0'), sb.trim_start_matches('0'));
            ta.len().cmp(&tb.len()).then_with(|| ta.cmp(tb))
        } else {
            sa.cmp(sb)
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    ca.len().cmp(&cb.len()).then_with(|| a.cmp(b))
}

/// `path` relative to `root`, with `/` separators (for links in the report).
pub fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_takes_digit_runs_as_numbers() {
        let mut v = vec![
            "10-b",
            "2-a",
            "self-mcts-iterations-1000.csv",
            "self-mcts-iterations-200.csv",
            "1-z",
        ];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            [
                "1-z",
                "2-a",
                "10-b",
                "self-mcts-iterations-200.csv",
                "self-mcts-iterations-1000.csv"
            ]
        );
    }
}
