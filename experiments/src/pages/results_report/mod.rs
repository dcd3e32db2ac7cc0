//! The results report: `results/README.md` regenerated from the committed CSVs and manifests
//! (found by [`sections`], read by [`files`], their weights checked by [`provenance`]), its prose in templates filled by [`render`], and
//! forest plots of variant effects drawn with [`crate::pages::plots`].

pub mod answers;
pub mod files;
pub mod provenance;
pub mod render;
pub mod sections;

use std::path::{Path, PathBuf};

use anyhow::Context;

/// The generated files: the report's text and the plots' bytes, each with its path.
#[derive(Debug)]
pub struct Report {
    /// `DIR/README.md`.
    pub readme_path: PathBuf,
    /// Its text.
    pub readme: String,
    /// Every generated SVG, with its path.
    pub svgs: Vec<(PathBuf, Vec<u8>)>,
}

/// Builds the report of the results tree `root`, in memory.
///
/// # Errors
/// A directory that cannot be read, a malformed CSV or manifest (naming the file), or a plot
/// that cannot be drawn.
pub fn build(root: &Path) -> anyhow::Result<Report> {
    let (ctx, plots) = sections::context(root)?;
    let readme = render::render(&ctx)?;
    let scratch = std::env::temp_dir().join(format!("cowrie-report-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .with_context(|| format!("cannot create '{}'", scratch.display()))?;
    let mut svgs = Vec::new();
    let drawn = (|| -> anyhow::Result<()> {
        for (i, p) in plots.iter().enumerate() {
            let tmp = scratch.join(format!("{i}.svg"));
            crate::pages::plots::intervals(
                &tmp,
                &p.title,
                "difference (fraction of games)",
                &p.items,
            )?;
            let bytes =
                std::fs::read(&tmp).with_context(|| format!("cannot read '{}'", tmp.display()))?;
            svgs.push((p.path.clone(), bytes));
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&scratch);
    drawn?;
    Ok(Report {
        readme_path: root.join("README.md"),
        readme,
        svgs,
    })
}

/// The first line where `committed` and `generated` differ: its number (from 1) and both
/// versions of it (empty past the end), or None when they are equal.
pub fn first_difference(committed: &str, generated: &str) -> Option<(usize, String, String)> {
    if committed == generated {
        return None;
    }
    let (mut a, mut b) = (committed.split('\n'), generated.split('\n'));
    let mut n = 0;
    loop {
        n += 1;
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => return Some((n, String::new(), String::new())),
            (x, y) => return Some((n, x.unwrap_or("").to_string(), y.unwrap_or("").to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_differing_line_is_named() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            first_difference("a\nb\nc\n", "a\nB\nc\n"),
            Some((2, "b".into(), "B".into()))
        );
        assert_eq!(
            first_difference("a\n", "a\nb\n"),
            Some((2, String::new(), "b".into()))
        );
    }
}
