//! "What the games show": the report's first section, built from the studies and solves that
//! [`super::sections`] found. Per game and variant the first-mover edge under the strongest agent
//! measured, with the second agent's where one was run (robust or agent-dependent); the variant
//! effects that survive the study-wide Holm adjustment; the solved values where a solve holds the
//! variant; and the published figures beside ours. Every number is read from a committed CSV, or
//! computed here from one (the first mover's points per game, from `games.csv`).

use std::path::Path;

use serde_json::{json, Map, Value};

use crate::stats::clustered::{self, Clusters, Estimate};

/// A figure published by others that the report sets beside its own: the game, the variant, what
/// is compared (a metric of `compare.csv`; `first_mover_points`, the first mover's points per game
/// computed from `games.csv`; or `solved`, the start position's value in a solve), the published
/// value and who published it.
#[derive(Clone, Copy, Debug)]
pub struct Anchor {
    /// Game name.
    pub game: &'static str,
    /// Variant name.
    pub variant: &'static str,
    /// What is compared.
    pub metric: &'static str,
    /// The published value: a number, or a solved value (`draw`).
    pub value: &'static str,
    /// Who published it (docs/sources.md).
    pub source: &'static str,
}

/// The published figures the report compares with (docs/sources.md): backgammon's first-move
/// edge under the `modern` rules, and the solved five-capture Baghchal.
pub const ANCHORS: [Anchor; 3] = [
    Anchor {
        game: "frangieh",
        variant: "modern",
        metric: "first_mover_win_rate",
        value: "0.512",
        source: "Jellyfish rollouts of the opening rolls (Bower 1998)",
    },
    Anchor {
        game: "frangieh",
        variant: "modern",
        metric: "first_mover_points",
        value: "0.039",
        source: "GNU Backgammon's cubeless rollouts of the opening rolls",
    },
    Anchor {
        game: "baghchal",
        variant: "five-captures",
        metric: "solved",
        value: "draw",
        source: "Lim and Nievergelt, \"Tigers and Goats is a draw\", Games of No Chance 3, 2009",
    },
];

/// How strong an agent spec is, by the order the ladders of results/ladder measured (a learned
/// evaluation above expectimax at depth 2 in Frangieh and Julbahar, expectimax above MCTS and the
/// heuristic; a search on top of the network above the network alone); perfect play above all.
#[must_use]
pub fn strength(agent: &str) -> u32 {
    let param = |key: &str| -> u32 {
        agent
            .split([':', ','])
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('=')?.parse().ok())
            .unwrap_or(0)
    };
    match agent.split(':').next().unwrap_or("") {
        "perfect" => 1000,
        "td" => 500 + param("ply"),
        "expectimax" => 400 + param("depth"),
        "mcts" => 300,
        "heuristic" => 200,
        _ => 0,
    }
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

fn num(v: &Value) -> Option<f64> {
    s(v).trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// A rate's value with its interval (clustered where the CSV has it) as numbers.
fn rate(r: &Value) -> Option<(f64, f64, f64)> {
    let lo = num(&r["clustered_ci95_low"]).or_else(|| num(&r["ci95_low"]))?;
    let hi = num(&r["clustered_ci95_high"]).or_else(|| num(&r["ci95_high"]))?;
    Some((num(&r["value"])?, lo, hi))
}

/// The first mover's points per game in a run's `games.csv`, clustered by pair: mean, 95%
/// interval, games. None where the file is missing or has no games.
///
/// # Errors
/// A malformed `games.csv`, or one that differs from its manifest's record.
pub fn first_mover_points(games: &Path) -> anyhow::Result<Option<(f64, f64, f64, u64)>> {
    if !games.is_file() {
        return Ok(None);
    }
    super::files::verified(games)?;
    let mut clusters = Clusters::new();
    for row in crate::run::record::read_rows(games)? {
        let points = match row.first_mover_seat {
            Some(1) => row.points_p1,
            Some(2) => row.points_p2,
            _ => continue,
        };
        clustered::add(&mut clusters, row.pair_index, points);
    }
    if clusters.is_empty() {
        return Ok(None);
    }
    let e = Estimate::of(&clusters);
    let (lo, hi) = e.normal_interval();
    Ok(Some((e.value, lo, hi, e.games as u64)))
}

/// One measurement of a first-mover rate: the study, the run, the agent and the rate.
struct Measured {
    study: String,
    path: String,
    dir: String,
    agent: String,
    games: String,
    record: Value,
    p_holm: String,
    fm_is_seat1: bool,
    /// The variant whose network the agent borrowed, where it plays with another variant's.
    borrowed: Option<String>,
}

impl Measured {
    fn to_value(&self) -> Value {
        json!({
            "study": self.study,
            "path": self.path,
            "agent": self.agent,
            "games": self.games,
            "r": self.record,
            "p_holm": self.p_holm,
            "first_mover_is_seat1": self.fm_is_seat1,
            "borrowed": self.borrowed,
        })
    }
}

/// `agent` with its shipped network named by the variant it plays under `rule_set`
/// (`weights=shipped` as `weights=shipped:RULE_SET`, `net=shipped` likewise), so that two specs of
/// one agent compare equal.
fn same_agent(agent: &str, rule_set: &str) -> String {
    let Some((kind, params)) = agent.split_once(':') else {
        return agent.to_string();
    };
    let params: Vec<String> = params
        .split(',')
        .map(|p| match p {
            "weights=shipped" | "net=shipped" => format!("{p}:{rule_set}"),
            _ => p.to_string(),
        })
        .collect();
    format!("{kind}:{}", params.join(","))
}

/// The variant whose network `agent` borrowed in the run `dir` of rule set `rule_set`: what the
/// run's manifest records (`inputs`, `borrowed` and `trained_under`), or, in a manifest that
/// records neither, the variant a `weights=shipped:VARIANT` spec names when it is not the rule
/// set's own.
fn borrowed(dir: &Path, agent: &str, rule_set: &str) -> Option<String> {
    let manifest = super::files::manifest(&dir.join("manifest.json")).ok();
    let recorded = manifest.as_ref().and_then(|m| {
        let files = m["inputs"][agent].as_object()?;
        let known: Vec<&Value> = files
            .values()
            .filter(|r| r["borrowed"].is_boolean())
            .collect();
        if known.is_empty() {
            return None;
        }
        Some(
            known
                .iter()
                .find(|r| r["borrowed"] == true)
                .map(|r| s(&r["trained_under"]).to_string()),
        )
    });
    recorded.unwrap_or_else(|| {
        agent
            .split([':', ','])
            .zip(agent.split([':', ',']).skip(1))
            .find(|(k, _)| k.ends_with("weights=shipped"))
            .map(|(_, v)| v.to_string())
            .filter(|v| !v.contains('=') && v != rule_set)
    })
}

/// The section's data: `rows` per game and variant, `effects` surviving the study-wide
/// adjustment, `anchors` beside ours. `root` is the results tree, `studies` and `solves` as
/// [`super::sections::context`] builds them.
///
/// # Errors
/// A `games.csv` that cannot be read or verified (for the points per game).
pub fn answers(root: &Path, studies: &[Value], solves: &[Value]) -> anyhow::Result<Value> {
    // Every first-mover measurement, in the order of the studies.
    let mut measured: Vec<(String, String, Measured)> = Vec::new();
    let mut effects = Vec::new();
    for st in studies {
        for g in st["games"].as_array().into_iter().flatten() {
            let game = s(&g["game_of"]).to_string();
            let agent = s(&g["agent"]).to_string();
            let sets = g["rule_sets"].as_array().cloned().unwrap_or_default();
            for rs in &sets {
                let r = &rs["metrics"]["first_mover_win_rate"];
                if r.is_null() {
                    continue;
                }
                let fm_is_seat1 = rs["first_mover_is_seat1"].as_bool().unwrap_or(false);
                // Where the first mover's row repeats seat 1's, the hypothesis is seat 1's.
                let tested = if num(&r["p_value"]).is_none() && fm_is_seat1 {
                    &rs["metrics"]["advantage_p1"]
                } else {
                    r
                };
                measured.push((
                    game.clone(),
                    s(&rs["name"]).to_string(),
                    Measured {
                        study: s(&st["name"]).to_string(),
                        path: s(&g["path"]).to_string(),
                        dir: s(&rs["dir"]).to_string(),
                        agent: agent.clone(),
                        games: s(&rs["games"]).to_string(),
                        record: r.clone(),
                        p_holm: s(&tested["study_p_holm"]).to_string(),
                        fm_is_seat1,
                        borrowed: borrowed(&root.join(s(&rs["dir"])), &agent, s(&rs["name"])),
                    },
                ));
            }
            for d in st["declared"].as_array().into_iter().flatten() {
                if d["path"] == g["path"]
                    && d["kind"] == "difference"
                    && num(&d["study_p_holm"]).is_some_and(|p| p < 0.05)
                {
                    let mut e = d.clone();
                    e["study"] = st["name"].clone();
                    e["game_of"] = json!(game);
                    effects.push(e);
                }
            }
        }
    }
    // The same effect under two agents: robust or agent-dependent.
    for i in 0..effects.len() {
        let same: Vec<Value> = effects
            .iter()
            .enumerate()
            .filter(|(j, e)| {
                *j != i
                    && e["game_of"] == effects[i]["game_of"]
                    && e["rule_set"] == effects[i]["rule_set"]
                    && e["reference"] == effects[i]["reference"]
                    && e["metric"] == effects[i]["metric"]
                    && e["agent"] != effects[i]["agent"]
            })
            .map(|(_, e)| e.clone())
            .collect();
        effects[i]["others"] = Value::Array(same);
    }
    let solved = solved_values(solves);
    let solved_of = |game: &str, variant: &str| -> Value {
        find_solved(&solved, game, variant).map_or(Value::Null, |(_, _, value, _)| json!(value))
    };
    for e in &mut effects {
        let game = s(&e["game_of"]).to_string();
        e["solved"] = solved_of(&game, s(&e["rule_set"]));
        e["solved_reference"] = solved_of(&game, s(&e["reference"]));
    }
    let mut keys: Vec<(String, String)> = Vec::new();
    for (g, v, _) in &measured {
        if !keys.contains(&(g.clone(), v.clone())) {
            keys.push((g.clone(), v.clone()));
        }
    }
    let mut rows = Vec::new();
    for (game, variant) in &keys {
        let mut ms: Vec<&Measured> = measured
            .iter()
            .filter(|(g, v, _)| g == game && v == variant)
            .map(|(_, _, m)| m)
            .collect();
        // Strongest first, a network of the variant's own before one borrowed from another; of
        // one agent, the most games first.
        ms.sort_by(|a, b| {
            strength(&b.agent)
                .cmp(&strength(&a.agent))
                .then_with(|| a.borrowed.is_some().cmp(&b.borrowed.is_some()))
                .then_with(|| {
                    num(&Value::String(b.games.clone()))
                        .partial_cmp(&num(&Value::String(a.games.clone())))
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
        });
        let best = ms[0];
        let second = ms
            .iter()
            .find(|m| same_agent(&m.agent, variant) != same_agent(&best.agent, variant))
            .copied();
        let mut row = Map::new();
        row.insert("game".into(), json!(game));
        row.insert("variant".into(), json!(variant));
        let facts = crate::registry::facts(game).ok();
        row.insert(
            "fixed_side".into(),
            json!(facts.and_then(|f| f.fixed_first_mover.map(|p| f.sides[p.index()]))),
        );
        row.insert("best".into(), best.to_value());
        row.insert(
            "measured".into(),
            Value::Array(ms.iter().map(|m| m.to_value()).collect()),
        );
        let solved_here = find_solved(&solved, game, variant).map_or(
            Value::Null,
            |(_, _, value, path)| json!({"value": value, "path": path}),
        );
        row.insert("solved".into(), solved_here);
        match second {
            Some(o) => {
                row.insert("second".into(), o.to_value());
                if let (Some(a), Some(b)) = (rate(&best.record), rate(&o.record)) {
                    // The two runs' difference, its half-width from the two intervals as if
                    // independent (different agents play different games).
                    let half = (((a.2 - a.1) / 2.0).powi(2) + ((b.2 - b.1) / 2.0).powi(2)).sqrt();
                    let d = a.0 - b.0;
                    row.insert(
                        "agent_diff".into(),
                        json!({"value": format!("{d:.6}"), "low": format!("{:.6}", d - half), "high": format!("{:.6}", d + half)}),
                    );
                    row.insert(
                        "verdict".into(),
                        json!(if d.abs() > half {
                            "agent-dependent"
                        } else {
                            "robust"
                        }),
                    );
                }
            }
            None => {
                row.insert("verdict".into(), json!("one agent measured"));
            }
        }
        rows.push(Value::Object(row));
    }
    let mut anchors = Vec::new();
    for a in ANCHORS {
        let ours: Vec<&Measured> = measured
            .iter()
            .filter(|(g, v, _)| g == a.game && v == a.variant)
            .map(|(_, _, m)| m)
            .collect();
        let mut found = Vec::new();
        if a.metric == "solved" {
            if let Some((_, _, value, path)) = find_solved(&solved, a.game, a.variant) {
                found.push(json!({"path": path, "value": value, "agrees": value == a.value}));
            }
        }
        let published: f64 = a.value.parse().unwrap_or(f64::NAN);
        for m in ours {
            let figure = if a.metric == "first_mover_points" {
                first_mover_points(&root.join(&m.dir).join("games.csv"))?
                    .map(|(v, lo, hi, _)| (v, lo, hi))
            } else if a.metric == "first_mover_win_rate" {
                rate(&m.record)
            } else {
                None
            };
            if let Some((v, lo, hi)) = figure {
                found.push(json!({
                    "study": m.study,
                    "path": m.path,
                    "agent": m.agent,
                    "games": m.games,
                    "value": format!("{v:.6}"),
                    "low": format!("{lo:.6}"),
                    "high": format!("{hi:.6}"),
                    "agrees": lo <= published && published <= hi,
                }));
            }
        }
        anchors.push(json!({
            "game": a.game,
            "variant": a.variant,
            "metric": a.metric,
            "value": a.value,
            "source": a.source,
            "ours": found,
        }));
    }
    Ok(json!({"rows": rows, "effects": effects, "anchors": anchors}))
}

/// The solve that holds `game`'s `variant`: one whose start values are for `game`'s seat-1 side.
fn find_solved<'a>(
    solved: &'a [(String, String, String, String)],
    game: &str,
    variant: &str,
) -> Option<&'a (String, String, String, String)> {
    solved
        .iter()
        .find(|(side, name, _, _)| name == variant && first_side(game).is_some_and(|s| s == *side))
}

/// The name of seat 1's side of `game` (`goats`), where the game is known.
fn first_side(game: &str) -> Option<&'static str> {
    crate::registry::facts(game).ok().map(|f| f.sides[0])
}

/// The start values the solves hold: the side they are valued for (from `start.csv`'s
/// `value_for_SIDE` column), the variant, the value and the file.
fn solved_values(solves: &[Value]) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    for sv in solves {
        for v in sv["variants"].as_array().into_iter().flatten() {
            let st = &v["start"];
            if st.is_null() {
                continue;
            }
            out.push((
                s(&st["valued_for"]).to_string(),
                s(&v["name"]).to_string(),
                s(&st["value"]).to_string(),
                s(&st["path"]).to_string(),
            ));
        }
    }
    out
}

/// Every hypothesis a study declares, as the rows of its `compare.csv` files (with the study's
/// `summary.csv` columns merged into them) hold them: the test of equal wins of a rate
/// (`p_value`) and each difference from the reference rule set (`diff_p_value`), with the
/// comparison's and the study's Holm-adjusted p-values. `games` as [`super::sections`] builds
/// them.
#[must_use]
pub fn declared(games: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for g in games {
        let reference = s(&g["reference"]).to_string();
        for rs in g["rule_sets"].as_array().into_iter().flatten() {
            let Some(metrics) = rs["metrics"].as_object() else {
                continue;
            };
            for (metric, r) in metrics {
                let common = |kind: &str| {
                    json!({
                        "path": g["path"],
                        "game": g["game"],
                        "agent": g["agent"],
                        "rule_set": rs["name"],
                        "reference": reference,
                        "metric": metric,
                        "kind": kind,
                        "first_mover_is_seat1": rs["first_mover_is_seat1"],
                    })
                };
                if num(&r["p_value"]).is_some() {
                    let mut d = common("equal wins");
                    d["estimate"] = r["value"].clone();
                    d["p"] = r["p_value"].clone();
                    d["p_holm"] = r["p_holm"].clone();
                    d["study_p_holm"] = r["study_p_holm"].clone();
                    out.push(d);
                }
                if num(&r["diff_p_value"]).is_some() {
                    let mut d = common("difference");
                    d["estimate"] = r["diff_vs_first"].clone();
                    d["low"] = if num(&r["paired_diff_ci95_low"]).is_some() {
                        r["paired_diff_ci95_low"].clone()
                    } else {
                        r["diff_ci95_low"].clone()
                    };
                    d["high"] = if num(&r["paired_diff_ci95_high"]).is_some() {
                        r["paired_diff_ci95_high"].clone()
                    } else {
                        r["diff_ci95_high"].clone()
                    };
                    d["p"] = r["diff_p_value"].clone();
                    d["p_holm"] = r["diff_p_holm"].clone();
                    d["study_p_holm"] = r["study_diff_p_holm"].clone();
                    out.push(d);
                }
            }
        }
    }
    out
}

/// Where a study wrote no `summary.csv`, its study-wide Holm adjustment computed here over every
/// hypothesis its `compare.csv` rows declare (`p_value` and `diff_p_value`, as they are written,
/// to six decimals), set as the `study_p_holm` and `study_diff_p_holm` a summary would hold.
pub fn adjust_study(games: &mut [Value]) {
    const COLS: [(&str, &str); 2] = [
        ("p_value", "study_p_holm"),
        ("diff_p_value", "study_diff_p_holm"),
    ];
    let mut ps = Vec::new();
    for g in games.iter() {
        for rs in g["rule_sets"].as_array().into_iter().flatten() {
            for r in rs["metrics"]
                .as_object()
                .into_iter()
                .flat_map(|m| m.values())
            {
                for (col, _) in COLS {
                    ps.push(num(&r[col]).unwrap_or(f64::NAN));
                }
            }
        }
    }
    let holm = crate::stats::multiple::holm(&ps);
    let mut i = 0;
    for g in games.iter_mut() {
        for rs in g["rule_sets"].as_array_mut().into_iter().flatten() {
            for r in rs["metrics"]
                .as_object_mut()
                .into_iter()
                .flat_map(|m| m.values_mut())
            {
                for (_, out) in COLS {
                    if !holm[i].is_nan() {
                        r[out] = json!(format!("{:.6}", holm[i]));
                    }
                    i += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_specs_of_one_network_are_one_agent() {
        assert_eq!(
            same_agent("td:weights=shipped,ply=0", "barakat-1974"),
            same_agent("td:weights=shipped:barakat-1974,ply=0", "barakat-1974")
        );
        assert_ne!(
            same_agent("td:weights=shipped,ply=0", "ludii"),
            same_agent("td:weights=shipped:barakat-1974,ply=0", "ludii")
        );
        assert_eq!(same_agent("heuristic", "ludii"), "heuristic");
    }

    #[test]
    fn agents_rank_as_the_ladders_measured() {
        assert!(strength("td:weights=shipped,ply=1") > strength("td:weights=shipped,ply=0"));
        assert!(strength("td:ply=0") > strength("expectimax:depth=2"));
        assert!(strength("expectimax:depth=2") > strength("expectimax:depth=1"));
        assert!(strength("expectimax:depth=1") > strength("mcts:iterations=1000"));
        assert!(strength("heuristic:temperature=0") > strength("random"));
        assert!(strength("perfect:db=x,depth=4") > strength("td:ply=1"));
    }

    #[test]
    fn a_study_without_a_summary_is_adjusted_over_all_its_hypotheses() {
        // Three declared p-values 0.01, 0.04, 0.03: Holm gives 0.03, 0.06, 0.06.
        let mut games = vec![json!({"rule_sets": [
            {"metrics": {"a": {"p_value": "0.010000", "diff_p_value": ""}}},
            {"metrics": {"a": {"p_value": "0.040000", "diff_p_value": "0.030000"}}},
        ]})];
        adjust_study(&mut games);
        let m = |i: usize| &games[0]["rule_sets"][i]["metrics"]["a"];
        assert_eq!(m(0)["study_p_holm"], "0.030000");
        assert!(m(0)["study_diff_p_holm"].is_null());
        assert_eq!(m(1)["study_p_holm"], "0.060000");
        assert_eq!(m(1)["study_diff_p_holm"], "0.060000");
    }
}
