//! What the report shows, found in a results tree by the shape of its files (never by a list of
//! names): a study is a directory whose subdirectories hold `compare.csv`; a ladder, `ladder.csv`;
//! a convergence run, `converge.csv`; a solve, `layer-*.csv` (and `placement-*.csv`, `start.csv`),
//! with judged agents (`self-*.csv`, `perfect-v-*.csv`) beside it; any other directory with a
//! `manifest.json` is listed as another run. Each is turned into plain data for the templates.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::{json, Value};

use super::files::{list, manifest, name, rel, Table};
use crate::run::record::End;

/// The number of movement-phase positions with five captures possible that Lim and Nievergelt
/// count ("Tigers and Goats is a draw", Games of No Chance 3, 2009), counted as docs/solver.md says.
pub const LIM_NIEVERGELT_POSITIONS: u64 = 88_260_972;

/// A forest plot of variant effects the report draws: where, its title and its bars.
#[derive(Clone, Debug)]
pub struct EffectsPlot {
    /// The SVG file, inside the results tree.
    pub path: PathBuf,
    /// The plot's title.
    pub title: String,
    /// The bars: label, difference, interval.
    pub items: Vec<crate::pages::plots::Interval>,
}

/// The metrics the effects plot shows, with their labels.
const EFFECT_METRICS: [(&str, &str); 4] = [
    ("advantage_p1", "seat 1"),
    ("first_mover_win_rate", "first mover"),
    ("first_enterer_win_rate", "first to enter"),
    (
        "subgame_first_mover_win_rate_finished",
        "per finished game: first mover",
    ),
];

/// Everything the templates see, and the plots to draw.
///
/// # Errors
/// A directory that cannot be read, holding no run, or one run's own directory; a malformed CSV
/// or manifest, or a CSV that differs from its manifest's record; each naming the file.
pub fn context(root: &Path) -> anyhow::Result<(Value, Vec<EffectsPlot>)> {
    if root.exists() && !root.is_dir() {
        anyhow::bail!("'{}' is a file, not a results directory", root.display());
    }
    if !root.is_dir() {
        anyhow::bail!("'{}': no such results directory", root.display());
    }
    let mut studies = Vec::new();
    let mut ladders = Vec::new();
    let mut converges = Vec::new();
    let mut solves = Vec::new();
    let mut others = Vec::new();
    let mut plots = Vec::new();
    for top in list(root, true)? {
        if name(&top) == "templates" {
            continue;
        }
        let subs = list(&top, true)?;
        let with = |f: &str| subs.iter().filter(|d| d.join(f).is_file()).count() > 0;
        let has_glob = |prefix: &str| -> anyhow::Result<bool> {
            for d in &subs {
                if list(d, false)?
                    .iter()
                    .any(|f| name(f).starts_with(prefix) && name(f).ends_with(".csv"))
                {
                    return Ok(true);
                }
            }
            Ok(false)
        };
        if with("compare.csv") {
            studies.push(study(root, &top, &subs, &mut plots)?);
        } else if with("ladder.csv") {
            ladders.push(ladder_root(root, &top, &subs)?);
        } else if with("converge.csv") {
            converges.push(converge_root(root, &top, &subs)?);
        } else if has_glob("layer-")? || has_glob("self-")? {
            solves.push(solve_root(root, &top, &subs)?);
        } else {
            let mut runs = Vec::new();
            other_runs(root, &top, &mut runs)?;
            if !runs.is_empty() {
                others.push(json!({"name": name(&top), "path": rel(root, &top), "runs": runs}));
            }
        }
    }
    if studies.is_empty()
        && ladders.is_empty()
        && converges.is_empty()
        && solves.is_empty()
        && others.is_empty()
    {
        if root.join("manifest.json").is_file() {
            anyhow::bail!(
                "'{}' is one run's directory (it holds manifest.json): give the results directory that holds runs, one directory down or deeper",
                root.display()
            );
        }
        anyhow::bail!(
            "'{}' holds no run to report (a study, ladder, convergence run, solve, or a directory with a manifest.json, below a directory of its own)",
            root.display()
        );
    }
    let answers = super::answers::answers(root, &studies, &solves)?;
    let ctx = json!({
        "answers": answers,
        "studies": studies,
        "ladders": ladders,
        "converges": converges,
        "solves": solves,
        "others": others,
        "provenance": super::provenance::provenance(root)?,
        "published": {"lim_nievergelt_positions": LIM_NIEVERGELT_POSITIONS},
    });
    Ok((ctx, plots))
}

/// The command line a manifest records, as `cowrie ARGS` quoted for a POSIX shell, or null
/// where it records no arguments.
fn command(m: &Value) -> Value {
    let argv: Vec<&str> = m["command_line"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if argv.len() < 2 {
        return Value::Null;
    }
    let quoted: Vec<String> = argv[1..]
        .iter()
        .map(|a| {
            shlex::try_quote(a)
                .map(|q| q.into_owned())
                .unwrap_or_else(|_| (*a).to_string())
        })
        .collect();
    Value::String(format!("cowrie {}", quoted.join(" ")))
}

/// A manifest with its command line rendered and its commit shortened.
fn run_info(root: &Path, dir: &Path) -> anyhow::Result<Value> {
    let m = manifest(&dir.join("manifest.json"))?;
    let commit = m["git_commit"].as_str().unwrap_or("");
    Ok(json!({
        "path": rel(root, dir),
        "name": name(dir),
        "command": command(&m),
        "commit": commit.chars().take(7).collect::<String>(),
        "status": m["status"],
        "reproducible": m["reproducible"],
        "run": m["run"],
        "lengths_svg": file_if(root, dir.join("lengths.svg")),
    }))
}

/// The distinct non-null commands of `runs`, in order.
fn distinct_commands(runs: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for r in runs {
        if !r["command"].is_null() && !out.contains(&r["command"]) {
            out.push(r["command"].clone());
        }
    }
    out
}

fn file_if(root: &Path, p: PathBuf) -> Value {
    if p.is_file() {
        Value::String(rel(root, &p))
    } else {
        Value::Null
    }
}

fn num(s: Option<&str>) -> Option<f64> {
    s.and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|x| x.is_finite())
}

/// The columns that name one row of a study's metrics in both `compare.csv` and `summary.csv`.
const STUDY_KEY: [&str; 4] = ["game", "rule_set", "agent", "metric"];

/// The study-wide adjusted p-values of `summary.csv` (if the study wrote one), by the row's
/// [`STUDY_KEY`] cells joined: the columns whose name starts with `study_`.
fn study_adjusted(path: &Path) -> anyhow::Result<BTreeMap<String, serde_json::Map<String, Value>>> {
    let mut out = BTreeMap::new();
    if !path.is_file() {
        return Ok(out);
    }
    let t = Table::read(path)?;
    for row in &t.rows {
        let key: Vec<&str> = STUDY_KEY
            .iter()
            .map(|c| t.get(row, c).unwrap_or(""))
            .collect();
        let extra: serde_json::Map<String, Value> = t
            .columns
            .iter()
            .zip(row)
            .filter(|(c, _)| c.starts_with("study_"))
            .map(|(c, v)| (c.clone(), Value::String(v.clone())))
            .collect();
        out.insert(key.join("\u{1f}"), extra);
    }
    Ok(out)
}

/// A study: one `compare.csv` per game.
fn study(
    root: &Path,
    top: &Path,
    subs: &[PathBuf],
    plots: &mut Vec<EffectsPlot>,
) -> anyhow::Result<Value> {
    let adjusted = study_adjusted(&top.join("summary.csv"))?;
    let mut games = Vec::new();
    for g in subs.iter().filter(|d| d.join("compare.csv").is_file()) {
        let path = g.join("compare.csv");
        let t = Table::read(&path)?;
        for col in ["rule_set", "metric", "value"] {
            if !t.columns.iter().any(|c| c == col) {
                anyhow::bail!("malformed CSV '{}': no column '{col}'", path.display());
            }
        }
        let mut order: Vec<String> = Vec::new();
        let mut metrics: BTreeMap<String, serde_json::Map<String, Value>> = BTreeMap::new();
        let mut agent = String::new();
        let mut game_of = String::new();
        for row in &t.rows {
            if game_of.is_empty() {
                game_of = t.get(row, "game").unwrap_or("").to_string();
            }
            let rs = t.get(row, "rule_set").unwrap_or("").to_string();
            if !order.contains(&rs) {
                order.push(rs.clone());
            }
            if agent.is_empty() {
                agent = t.get(row, "agent").unwrap_or("").to_string();
            }
            let metric = t.get(row, "metric").unwrap_or("").to_string();
            let mut record = t.record(row);
            let key: Vec<&str> = STUDY_KEY
                .iter()
                .map(|c| t.get(row, c).unwrap_or(""))
                .collect();
            if let (Some(extra), Value::Object(r)) =
                (adjusted.get(&key.join("\u{1f}")), &mut record)
            {
                r.extend(extra.clone());
            }
            metrics.entry(rs).or_default().insert(metric, record);
        }
        let has = |c: &str| t.columns.iter().any(|x| x == c);
        let rule_sets: Vec<Value> = order
            .iter()
            .enumerate()
            .map(|(i, rs)| {
                let m = &metrics[rs];
                let dir = g.join(format!(
                    "{}-{}",
                    i + 1,
                    crate::run::comparison::sanitize(rs)
                ));
                json!({
                    "name": rs,
                    "dir": rel(root, &dir),
                    "games": m.values().next().map(|r| r["games"].clone()),
                    "metrics": m,
                    "first_mover_is_seat1": rule_sets_same(m),
                })
            })
            .collect();
        let mut runs = Vec::new();
        for d in list(g, true)? {
            if d.join("manifest.json").is_file() {
                runs.push(run_info(root, &d)?);
            }
        }
        let effects = g.join("effects.svg");
        let paired = has("paired_diff_ci95_low");
        if order.len() >= 2 {
            let mut items = Vec::new();
            for rs in &order[1..] {
                let m = &metrics[rs];
                for (metric, what) in EFFECT_METRICS {
                    if metric == "first_mover_win_rate" && rule_sets_same(m) {
                        continue;
                    }
                    let Some(r) = m.get(metric) else { continue };
                    let f = |k: &str| num(r.get(k).and_then(Value::as_str));
                    let (lo, hi) = if paired && f("paired_diff_ci95_low").is_some() {
                        (f("paired_diff_ci95_low"), f("paired_diff_ci95_high"))
                    } else {
                        (f("diff_ci95_low"), f("diff_ci95_high"))
                    };
                    if let (Some(value), Some(low), Some(high)) = (f("diff_vs_first"), lo, hi) {
                        items.push(crate::pages::plots::Interval {
                            label: format!("{rs}: {what}"),
                            value,
                            low,
                            high,
                        });
                    }
                }
            }
            if !items.is_empty() {
                plots.push(EffectsPlot {
                    path: effects.clone(),
                    title: format!(
                        "{}: difference from {} with 95% intervals ({}; {agent})",
                        name(g),
                        order[0],
                        if paired {
                            "paired on the same seeds"
                        } else {
                            "Newcombe"
                        }
                    ),
                    items,
                });
            }
        }
        let plotted = plots.last().is_some_and(|p| p.path == effects);
        games.push(json!({
            "game": name(g),
            "game_of": game_of,
            "path": rel(root, g),
            "agent": agent,
            "reference": order.first(),
            "rule_sets": rule_sets,
            "svg": file_if(root, g.join("compare.svg")),
            "effects_svg": if plotted { Value::String(rel(root, &effects)) } else { Value::Null },
            "clustered": has("clustered_ci95_low"),
            "paired": paired,
            "holm": has("p_holm"),
            "runs": runs,
            "commands": distinct_commands(&runs),
            "has_first_enterer": metrics.values().any(|m| m.contains_key("first_enterer_win_rate")),
            "has_subgames": metrics.values().any(|m| m.contains_key("subgames")),
        }));
    }
    if adjusted.is_empty() {
        super::answers::adjust_study(&mut games);
    }
    let declared = super::answers::declared(&games);
    let summary = top.join("summary.csv");
    let summary_cols = if summary.is_file() {
        Table::read(&summary)?.columns
    } else {
        Vec::new()
    };
    Ok(json!({
        "name": name(top),
        "path": rel(root, top),
        "games": games,
        "study_wide": true,
        "study_wide_computed": adjusted.is_empty(),
        "declared": declared,
        "summary": file_if(root, summary),
        "summary_columns": summary_cols,
    }))
}

/// Whether a rule set's first-mover rows repeat its seat-1 rows.
fn rule_sets_same(m: &serde_json::Map<String, Value>) -> bool {
    match (m.get("first_mover_win_rate"), m.get("advantage_p1")) {
        (Some(x), Some(y)) => ["value", "ci95_low", "ci95_high"]
            .iter()
            .all(|k| x[*k] == y[*k]),
        _ => false,
    }
}

/// Ladders: one `ladder.csv` per game.
fn ladder_root(root: &Path, top: &Path, subs: &[PathBuf]) -> anyhow::Result<Value> {
    let mut games = Vec::new();
    for g in subs.iter().filter(|d| d.join("ladder.csv").is_file()) {
        let t = Table::read(&g.join("ladder.csv"))?;
        let mut steps: Vec<Value> = Vec::new();
        let mut by_step: BTreeMap<u64, serde_json::Map<String, Value>> = BTreeMap::new();
        for row in &t.rows {
            let step = count(&t, row, "step", &g.join("ladder.csv"))?;
            let seat = match t.get(row, "upper_seat").unwrap_or("") {
                "1" => "seat1",
                "2" => "seat2",
                _ => "both",
            };
            let e = by_step.entry(step).or_default();
            e.insert("step".into(), json!(step));
            e.insert("upper".into(), json!(t.get(row, "upper")));
            e.insert("lower".into(), json!(t.get(row, "lower")));
            e.insert(seat.into(), t.record(row));
        }
        steps.extend(by_step.into_values().map(Value::Object));
        let info = if g.join("manifest.json").is_file() {
            run_info(root, g)?
        } else {
            Value::Null
        };
        let copy = top.join(format!("{}.csv", name(g)));
        games.push(json!({
            "game": name(g),
            "path": rel(root, g),
            "run": info,
            "csv_copy": file_if(root, copy),
            "steps": steps,
            "pair_level": t.columns.iter().any(|c| c == "pair_score"),
        }));
    }
    Ok(json!({"name": name(top), "path": rel(root, top), "games": games}))
}

/// Convergence runs: one `converge.csv` per game, with its `strength.csv` and `verdict.csv`
/// where the run has them.
fn converge_root(root: &Path, top: &Path, subs: &[PathBuf]) -> anyhow::Result<Value> {
    let mut games = Vec::new();
    for g in subs.iter().filter(|d| d.join("converge.csv").is_file()) {
        let t = Table::read(&g.join("converge.csv"))?;
        let mut metrics: Vec<String> = Vec::new();
        let mut rungs: BTreeMap<u64, serde_json::Map<String, Value>> = BTreeMap::new();
        let mut variant = String::new();
        let mut game = String::new();
        for row in &t.rows {
            let rung = count(&t, row, "rung", &g.join("converge.csv"))?;
            if game.is_empty() {
                game = t.get(row, "game").unwrap_or("").to_string();
            }
            let metric = t.get(row, "metric").unwrap_or("").to_string();
            if !metrics.contains(&metric) {
                metrics.push(metric.clone());
            }
            if variant.is_empty() {
                variant = t.get(row, "variant").unwrap_or("").to_string();
            }
            let e = rungs.entry(rung).or_default();
            e.insert("rung".into(), json!(rung));
            e.insert("agent".into(), json!(t.get(row, "agent")));
            e.insert("games".into(), json!(t.get(row, "games")));
            let m = e
                .entry("m")
                .or_insert_with(|| Value::Object(serde_json::Map::new()));
            if let Value::Object(m) = m {
                m.insert(metric, t.record(row));
            }
        }
        let verdict = g.join("converge.txt");
        let verdict = if verdict.is_file() {
            Value::String(
                cowrie_solver::bounded::read_text(&verdict)
                    .with_context(|| format!("cannot read '{}'", verdict.display()))?
                    .trim()
                    .to_string(),
            )
        } else {
            Value::Null
        };
        let info = if g.join("manifest.json").is_file() {
            run_info(root, g)?
        } else {
            Value::Null
        };
        // The strength match and the verdict by answer, where the run has them.
        let rows_of = |file: &str| -> anyhow::Result<Value> {
            let path = g.join(file);
            Ok(if path.is_file() {
                Value::Array(Table::read(&path)?.records())
            } else {
                Value::Null
            })
        };
        let strength = match rows_of("strength.csv")? {
            Value::Array(mut rows) if !rows.is_empty() => rows.swap_remove(0),
            _ => Value::Null,
        };
        games.push(json!({
            "strength": strength,
            "answers": rows_of("verdict.csv")?,
            "game": name(g),
            "game_of": game,
            "path": rel(root, g),
            "variant": variant,
            "run": info,
            "metrics": metrics,
            "rungs": rungs.into_values().collect::<Vec<_>>(),
            "verdict": verdict,
            "svg": file_if(root, g.join("converge.svg")),
        }));
    }
    Ok(json!({"name": name(top), "path": rel(root, top), "games": games}))
}

fn count(t: &Table, row: &[String], col: &str, path: &Path) -> anyhow::Result<u64> {
    t.get(row, col)
        .and_then(|s| s.parse::<u64>().ok())
        .with_context(|| {
            format!(
                "malformed CSV '{}': column '{col}' is not a count",
                path.display()
            )
        })
}

/// A solve: per variant directory its layers, placement halves and start values; judged agents.
fn solve_root(root: &Path, top: &Path, subs: &[PathBuf]) -> anyhow::Result<Value> {
    let mut variants = Vec::new();
    let mut judges = Vec::new();
    for v in subs {
        let files = list(v, false)?;
        let named = |prefix: &str| -> Vec<&PathBuf> {
            files
                .iter()
                .filter(|f| name(f).starts_with(prefix) && name(f).ends_with(".csv"))
                .collect()
        };
        let layer_files = named("layer-");
        let self_files = named("self-");
        if !layer_files.is_empty() {
            variants.push(solve_variant(root, v, &layer_files, &named("placement-"))?);
        } else if !self_files.is_empty() {
            judges.push(judged(root, v, &self_files, &named("perfect-v-"))?);
        }
    }
    Ok(json!({
        "name": name(top),
        "path": rel(root, top),
        "variants": variants,
        "judges": judges,
    }))
}

fn solve_variant(
    root: &Path,
    v: &Path,
    layer_files: &[&PathBuf],
    placement_files: &[&PathBuf],
) -> anyhow::Result<Value> {
    let mut layers = Vec::new();
    let mut layer_total = 0u64;
    let mut layer_columns: Vec<String> = Vec::new();
    let mut layer_rows: Vec<Vec<String>> = Vec::new();
    for f in layer_files.iter().rev() {
        let t = Table::read(f)?;
        if layer_columns.is_empty() {
            layer_columns.clone_from(&t.columns);
        } else if layer_columns != t.columns {
            anyhow::bail!(
                "malformed CSV '{}': its header differs from the other layers'",
                f.display()
            );
        }
        for row in &t.rows {
            layer_total += count(&t, row, "positions", f)?;
            layer_rows.push(row.clone());
        }
        layers.push(
            json!({"file": name(f), "columns": t.columns, "rows": t.rows, "records": t.records()}),
        );
    }
    let mut halves = Vec::new();
    let mut placement_total = 0u64;
    for f in placement_files {
        let t = Table::read(f)?;
        let mut sums = [0u64; 4];
        for row in &t.rows {
            for (s, col) in sums
                .iter_mut()
                .zip(["positions", "wins", "draws", "losses"])
            {
                *s += count(&t, row, col, f)?;
            }
        }
        let first = t.rows.first();
        let placed = first
            .map(|r| count(&t, r, "placed", f))
            .transpose()?
            .unwrap_or(0);
        let side = first
            .and_then(|r| t.get(r, "side_to_move"))
            .unwrap_or("")
            .to_string();
        placement_total += sums[0];
        halves.push((placed, side, sums));
    }
    // Decided boards first appear at: per side to move, the fewest goats placed with a win or
    // a loss.
    let mut first_decided = serde_json::Map::new();
    let mut ascending = halves.clone();
    ascending.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    for (placed, side, s) in &ascending {
        if (s[1] > 0 || s[3] > 0) && !first_decided.contains_key(side) {
            first_decided.insert(
                side.clone(),
                json!({"placed": placed, "wins": s[1], "losses": s[3]}),
            );
        }
    }
    halves.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let placement: Vec<Value> = halves
        .iter()
        .map(|(placed, side, s)| {
            json!({"placed": placed, "side": side, "positions": s[0], "wins": s[1], "draws": s[2], "losses": s[3]})
        })
        .collect();
    let start_path = v.join("start.csv");
    let start = if start_path.is_file() {
        let t = Table::read(&start_path)?;
        let valued_for = t
            .columns
            .iter()
            .find_map(|c| c.strip_prefix("value_for_"))
            .unwrap_or("")
            .to_string();
        let value_col = format!("value_for_{valued_for}");
        let mut after: BTreeMap<String, u64> = BTreeMap::new();
        for row in t.rows.iter().skip(1) {
            *after
                .entry(t.get(row, &value_col).unwrap_or("").to_string())
                .or_default() += 1;
        }
        json!({
            "path": rel(root, &start_path),
            "valued_for": valued_for,
            "value": t.rows.first().and_then(|r| t.get(r, &value_col)),
            "side_to_move": t.rows.first().and_then(|r| t.get(r, "side_to_move")),
            "after_first": after,
            "after_first_count": t.rows.len().saturating_sub(1),
        })
    } else {
        Value::Null
    };
    Ok(json!({
        "name": name(v),
        "path": rel(root, v),
        "commands": solve_commands(v)?,
        "layers": layers,
        "layer_columns": layer_columns,
        "layer_rows": layer_rows,
        "layer_total": layer_total,
        "placement": placement,
        "placement_total": placement_total,
        "first_decided": first_decided,
        "start": start,
    }))
}

/// The commands a solve's `manifest.json` (the database's, copied beside its CSVs) records, as
/// `cowrie ARGS`, oldest first: each with its commit; empty where no manifest is there or it
/// records none (a database solved before `cowrie solve` recorded its command line).
fn solve_commands(v: &Path) -> anyhow::Result<Vec<Value>> {
    let path = v.join("manifest.json");
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let m = manifest(&path)?;
    if m["format"].as_str() != Some(cowrie_solver::db::FORMAT) {
        anyhow::bail!(
            "'{}': not a cowrie solve's manifest (format {})",
            path.display(),
            m["format"]
        );
    }
    Ok(m["commands"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|c| {
                    let commit = c["git_commit"].as_str().unwrap_or("");
                    json!({
                        "command": command(c),
                        "commit": commit.chars().take(7).collect::<String>(),
                    })
                })
                .filter(|c| !c["command"].is_null())
                .collect()
        })
        .unwrap_or_default())
}

/// Won, drawn, truncated and lost games of the perfect agent in one seat.
#[derive(Default, Clone, Copy)]
struct Record4 {
    won: u64,
    drawn: u64,
    truncated: u64,
    lost: u64,
}

fn judged(
    root: &Path,
    dir: &Path,
    self_files: &[&PathBuf],
    perfect_files: &[&PathBuf],
) -> anyhow::Result<Value> {
    let mut selves = Vec::new();
    for f in self_files {
        let t = Table::read(f)?;
        selves.push(json!({"file": rel(root, f), "records": t.records()}));
    }
    let mut versus = Vec::new();
    for f in perfect_files {
        let n = name(f);
        if n.ends_with("-games.csv") || n.ends_with("-summary.csv") {
            continue;
        }
        let judge = Table::read(f)?;
        let (mut moves, mut thrown) = (0u64, 0u64);
        for row in &judge.rows {
            if judge
                .get(row, "agent")
                .unwrap_or("")
                .starts_with("perfect:")
            {
                moves += count(&judge, row, "moves", f)?;
                for c in ["win_to_draw", "win_to_loss", "draw_to_loss"] {
                    thrown += count(&judge, row, c, f)?;
                }
            }
        }
        let games_path = dir.join(n.replace(".csv", "-games.csv"));
        let mut opponent = String::new();
        let mut seats = [Record4::default(); 2];
        let mut games = 0u64;
        if games_path.is_file() {
            super::files::verified(&games_path)?;
            for row in crate::run::record::read_rows(&games_path)? {
                let (p1, p2) = (&row.agent_p1, &row.agent_p2);
                let perfect_seat: u8 = if p1.starts_with("perfect:") { 1 } else { 2 };
                if opponent.is_empty() {
                    opponent = if perfect_seat == 1 { p2 } else { p1 }.clone();
                }
                let s = &mut seats[usize::from(perfect_seat - 1)];
                games += 1;
                match (row.end_reason, row.winner_seat) {
                    (End::Truncated, _) => s.truncated += 1,
                    (_, None) => s.drawn += 1,
                    (_, Some(w)) if w == perfect_seat => s.won += 1,
                    _ => s.lost += 1,
                }
            }
        }
        let rec = |r: Record4| json!({"won": r.won, "drawn": r.drawn, "truncated": r.truncated, "lost": r.lost});
        versus.push(json!({
            "file": rel(root, f),
            "games_file": file_if(root, games_path),
            "opponent": opponent,
            "games": games,
            "seat1": rec(seats[0]),
            "seat2": rec(seats[1]),
            "perfect_moves": moves,
            "thrown": thrown,
        }));
    }
    let script = dir.join("run.sh");
    let (script_path, comment) = if script.is_file() {
        let text = cowrie_solver::bounded::read_text(&script)
            .with_context(|| format!("cannot read '{}'", script.display()))?;
        let comment: Vec<String> = text
            .lines()
            .skip_while(|l| l.starts_with("#!"))
            .take_while(|l| l.starts_with('#'))
            .map(|l| l.trim_start_matches('#').trim().to_string())
            .collect();
        (Value::String(rel(root, &script)), comment.join(" "))
    } else {
        (Value::Null, String::new())
    };
    Ok(json!({
        "name": name(dir),
        "path": rel(root, dir),
        "script": script_path,
        "script_comment": comment,
        "self": selves,
        "versus": versus,
    }))
}

/// Every directory under `dir` with a `manifest.json`, depth first in sorted order.
/// The pair-level score of a match between two different agents (seat-swapped pairs, the
/// pentanomial model), from the view of game 0's first seat; null for a self-play run.
fn pairs_of(games: &Path) -> anyhow::Result<Value> {
    super::files::verified(games)?;
    let rows = crate::run::record::read_rows(games)?;
    let Some(first) = rows.first() else {
        return Ok(Value::Null);
    };
    if first.agent_p1 == first.agent_p2 {
        return Ok(Value::Null);
    }
    let p = crate::stats::ratings::Pentanomial::of_rows(&rows, &first.agent_p1);
    let l = p.pair_level();
    // Where every pair has the same outcome the normal interval is undefined: the Wilson
    // interval over the pairs instead (Pentanomial::score).
    let (low, high, wilson) = if l.low.is_nan() {
        let (_, lo, hi) = p.score();
        (lo, hi, true)
    } else {
        (l.low, l.high, false)
    };
    Ok(json!({
        "agent": first.agent_p1,
        "pairs": p.pairs(),
        "truncated": p.truncated,
        "counts": p.counts,
        "score": format!("{:.3}", l.score),
        "low": format!("{low:.3}"),
        "high": format!("{high:.3}"),
        "wilson": wilson,
        "elo": format!("{:+.0}", l.elo),
        // A p-value below the smallest double is printed as such, not as 0.
        "p": if l.p_value > 0.0 { format!("= {:.2e}", l.p_value) } else { "below 1e-300".to_string() },
    }))
}

fn other_runs(root: &Path, dir: &Path, out: &mut Vec<Value>) -> anyhow::Result<()> {
    if dir.join("manifest.json").is_file() {
        let mut info = run_info(root, dir)?;
        let summary = dir.join("summary.csv");
        if summary.is_file() {
            info["summary"] = Table::read(&summary)?.to_value();
        }
        let games = dir.join("games.csv");
        if games.is_file() {
            info["pairs"] = pairs_of(&games)?;
        }
        out.push(info);
        return Ok(());
    }
    for d in list(dir, true)? {
        other_runs(root, &d, out)?;
    }
    Ok(())
}
