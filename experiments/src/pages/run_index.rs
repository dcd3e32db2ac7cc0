//! `index.html` in a run's directory: a page linking what the run wrote — its plots shown
//! inline, its summaries, rows, manifest and records, and the runs in its subdirectories — so
//! a run can be browsed from a file manager without knowing its layout. Written after the
//! run's other files; not one of the files the manifest vouches for.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;

use crate::pages::replay_page::escape;

/// What a file of a run is, by its name, for the page's list.
fn describe(name: &str) -> &'static str {
    match name {
        "summary.csv" => "summary: win rates with 95% intervals",
        "games.csv" => "one row per game",
        "subgames.csv" => "one row per game inside each match",
        "compare.csv" => "the rule sets side by side",
        "manifest.json" => "the command line, rules, commit, status and file digests",
        "records.jsonl" => "every game's chance outcomes and plies (cowrie replay)",
        "ratings.csv" => "ratings",
        _ => "",
    }
}

/// Writes `dir/index.html`, titled `title`: the `.svg` plots inline, then links to the other
/// files and to the subdirectories (their own `index.html` where they have one), in name order.
///
/// # Errors
/// An unreadable directory or an unwritable page, naming it.
pub fn write(dir: &Path, title: &str) -> anyhow::Result<()> {
    let mut names: Vec<(String, bool)> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read '{}'", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                e.path().is_dir(),
            )
        })
        .filter(|(n, _)| n != "index.html" && !n.starts_with('.'))
        .collect();
    names.sort();
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{t}</title>\n<style>body{{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;margin:1.5em;color:#222}}img{{max-width:100%;border:1px solid #ccc}}figure{{margin:1em 0}}</style>\n</head>\n<body>\n<h1>{t}</h1>\n",
        t = escape(title)
    );
    let subdirs: Vec<&String> = names.iter().filter(|(_, d)| *d).map(|(n, _)| n).collect();
    if !subdirs.is_empty() {
        html.push_str("<h2>Runs</h2>\n<ul>\n");
        for n in subdirs {
            let target = if dir.join(n).join("index.html").exists() {
                format!("{n}/index.html")
            } else {
                format!("{n}/")
            };
            let _ = writeln!(
                html,
                "<li><a href=\"{}\">{}</a></li>",
                escape(&target),
                escape(n)
            );
        }
        html.push_str("</ul>\n");
    }
    let files: Vec<&String> = names.iter().filter(|(_, d)| !*d).map(|(n, _)| n).collect();
    let plots: Vec<&&String> = files.iter().filter(|n| n.ends_with(".svg")).collect();
    if !plots.is_empty() {
        html.push_str("<h2>Plots</h2>\n");
        for n in plots {
            let _ = writeln!(
                html,
                "<figure><img src=\"{0}\" alt=\"{0}\"><figcaption><a href=\"{0}\">{0}</a></figcaption></figure>",
                escape(n)
            );
        }
    }
    let others: Vec<&&String> = files.iter().filter(|n| !n.ends_with(".svg")).collect();
    if !others.is_empty() {
        html.push_str("<h2>Files</h2>\n<ul>\n");
        for n in others {
            let what = describe(n);
            let _ = writeln!(
                html,
                "<li><a href=\"{0}\">{0}</a>{1}</li>",
                escape(n),
                if what.is_empty() {
                    String::new()
                } else {
                    format!(": {what}")
                }
            );
        }
        html.push_str("</ul>\n");
    }
    html.push_str("</body>\n</html>\n");
    let path = dir.join("index.html");
    std::fs::write(&path, html).with_context(|| format!("cannot write '{}'", path.display()))
}
