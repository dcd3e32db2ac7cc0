//! `cowrie report` on a small results tree copied from the committed one (the study's files from a
//! fixed copy in tests/data/report/): the figures it shows
//! (checked by hand against the CSVs), byte-identical output, `--check` passing on an unchanged
//! tree and failing with exit code 1 after an edit, and bad input refused with exit code 2.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{cowrie, refused};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn copy(rel: &str, to: &Path) {
    copy_from(&repo().join("results"), rel, to);
}

fn copy_from(from: &Path, rel: &str, to: &Path) {
    let dst = to.join(rel);
    fs::create_dir_all(dst.parent().unwrap()).unwrap();
    fs::copy(from.join(rel), dst).unwrap();
}

/// A tree with one study game, one ladder, one convergence run, a solved variant with its
/// placement phase and start, and one with only its movement layers.
fn tree() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    // The study's files and a convergence run made before the strength match are a fixed copy
    // (a re-run changes the committed ones).
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/report");
    for f in [
        "default-study/frangieh/compare.csv",
        "default-study/frangieh/1-barakat-1974/manifest.json",
        "default-study/frangieh/2-modern/manifest.json",
        "converge/baghchal/converge.csv",
        "converge/baghchal/converge.txt",
        "converge/baghchal/manifest.json",
    ] {
        copy_from(&fixture, f, r);
    }
    for f in [
        "ladder/julbahar/ladder.csv",
        "ladder/julbahar/manifest.json",
        "converge/frangieh-barakat-1974/converge.csv",
        "converge/frangieh-barakat-1974/converge.txt",
        "converge/frangieh-barakat-1974/strength.csv",
        "converge/frangieh-barakat-1974/verdict.csv",
        "converge/frangieh-barakat-1974/manifest.json",
        "converge/baghchal-perfect/converge.csv",
        "converge/baghchal-perfect/converge.txt",
        "converge/baghchal-perfect/manifest.json",
        "solve/five-captures-goats-pass/manifest.json",
        "solve/five-captures/start.csv",
        "solve/five-captures/placement-00-goats.csv",
        "solve/five-captures/placement-01-goats.csv",
        "solve/five-captures/placement-01-tigers.csv",
        "solve/five-captures/placement-02-goats.csv",
        "solve/five-captures/placement-02-tigers.csv",
    ] {
        copy(f, r);
    }
    for g in 16..=20 {
        copy(&format!("solve/five-captures/layer-{g}.csv"), r);
        copy(&format!("solve/five-captures-goats-pass/layer-{g}.csv"), r);
    }
    t
}

fn report(dir: &Path, check: bool) -> std::process::Output {
    let d = dir.to_str().unwrap();
    if check {
        cowrie(&["report", "--check", d])
    } else {
        cowrie(&["report", d])
    }
}

#[test]
fn the_report_shows_the_csv_figures_and_is_byte_identical() {
    let t = tree();
    let o = report(t.path(), false);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let first = fs::read_to_string(t.path().join("README.md")).unwrap();
    let svg = fs::read(t.path().join("default-study/frangieh/effects.svg")).unwrap();
    // Hand-checked against the copied CSVs:
    // compare.csv, frangieh modern: advantage_p1 0.501500 [0.479605, 0.523389],
    // first_mover_win_rate 0.515500 [0.493589, 0.537352], duration_plies 50.9...
    assert!(
        first.contains("| frangieh | modern | expectimax:depth=2 | 2000 | 0.501 [0.480, 0.523] | 0.515 [0.494, 0.537] |"),
        "{first}"
    );
    // ... and its differences from barakat-1974: first mover +0.017 [-0.014, +0.048].
    assert!(first.contains(
        "| frangieh | modern | barakat-1974 | first mover wins | +0.017 [-0.014, +0.048] |"
    ));
    // ladder.csv, julbahar step 1 over both seats: 210 of 400, 0.525 [0.476057, 0.573467].
    assert!(first.contains(
        "| 1 | `mcts:iterations=25,c=1.4,rollout=random,cutoff=none` v `random` | 400 |"
    ));
    assert!(first.contains("Not significant: step 1, `mcts:iterations=25,c=1.4,rollout=random,cutoff=none` v `random`, 0.525 [0.476, 0.573]"));
    // converge.csv, baghchal rung 2: 0.510 [0.441, 0.579], step +0.495 [+0.425, +0.565], yes.
    assert!(first.contains("| 0.510 [0.441, 0.579] | +0.495 [+0.425, +0.565] * |"));
    // The five-capture layers sum to Lim and Nievergelt's 88,260,972; the 20-goat layer.
    assert!(first.contains("Total: 88,260,972 positions."));
    assert!(first.contains("This is Lim and Nievergelt's count"));
    assert!(first.contains("the goats to move win 30,609 of 33,481 boards and lose 60"));
    // placement-02-goats.csv has 73 wins in 368,322 positions; start.csv a draw.
    assert!(first.contains("| 2 | goats | 368,322 | 73 | 368,249 | 0 |"));
    assert!(first.contains("| `five-captures` | **draw** | draw (21 of 21 points) |"));
    // A variant with movement layers only.
    assert!(first.contains(
        "The placement phase is not in the results yet (no `placement-*.csv` in `solve/five-captures-goats-pass/`)."
    ));
    // converge.csv, baghchal-perfect rung 5: the solved cells, the draw share still measured.
    assert!(first.contains(
        "| 5 | `perfect:db=dbs/five-captures,depth=4` | 200 | 0.000 (solved) | -0.295 [-0.354, -0.236] * | 0.000 (solved) |"
    ));
    assert!(first.contains("| 0.970 [0.937, 0.986] |"));
    // A convergence run with its strength match: strength.csv gives 0.542500 [0.494602,
    // 0.590398], p 0.082019, not significant; verdict.csv the first mover's last step 0.017500
    // [-0.044339, 0.079339], not within ±0.02, and the draw share's [0, 0], within.
    assert!(first.contains(
        "against rung 5 `td:weights=shipped,ply=0`, 400 games, 200 pairs: pair score 0.542 [0.495, 0.590], p = 0.0820; shown stronger: no."
    ), "{first}");
    assert!(first.contains("| first mover wins | no | no | +0.018 [-0.044, +0.079] | no |"));
    assert!(first.contains("| draws | no | no | +0.000 [+0.000, +0.000] | yes |"));
    // A run made before the strength match is said to be one, not settled by the rule.
    assert!(first.contains("This run was made before the strength match"));
    // The command a solve's manifest records, and none where no manifest is committed.
    assert!(first.contains(
        "Made by `cowrie solve --game baghchal --variant five-captures --option 'goats-blocked=pass' --threads 2 --out dbs/five-captures-goats-pass`"
    ));
    assert!(first.contains("No command is recorded with these files"));
    // The command each manifest records.
    assert!(first.contains("cowrie ladder --game julbahar --option 'unit=game' --rung random"));
    // Again: the same bytes.
    let o = report(t.path(), false);
    assert!(o.status.success());
    assert_eq!(
        fs::read_to_string(t.path().join("README.md")).unwrap(),
        first
    );
    assert_eq!(
        fs::read(t.path().join("default-study/frangieh/effects.svg")).unwrap(),
        svg
    );
}

#[test]
fn check_passes_on_an_unchanged_tree_and_fails_after_an_edit() {
    let t = tree();
    assert!(report(t.path(), false).status.success());
    let o = report(t.path(), true);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    // One CSV value changed: the report no longer matches, and the line is named.
    let csv = t.path().join("ladder/julbahar/ladder.csv");
    let text = fs::read_to_string(&csv).unwrap();
    // Step 1's win rate over both seats.
    let edited = text.replacen("0.525000,0.476057", "0.535000,0.476057", 1);
    assert_ne!(edited, text);
    fs::write(&csv, edited).unwrap();
    let o = report(t.path(), true);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("README.md' differs") && err.contains("at line "),
        "{err}"
    );
    assert!(err.contains("0.535 [0.476, 0.573]"), "{err}");
    fs::write(&csv, text).unwrap();
    assert!(report(t.path(), true).status.success());

    // The README edited by hand: the first differing line is named.
    let readme = t.path().join("README.md");
    let text = fs::read_to_string(&readme).unwrap();
    let lines: Vec<&str> = text.split('\n').collect();
    let mut edited = lines.clone();
    edited[4] = "an edit";
    fs::write(&readme, edited.join("\n")).unwrap();
    let o = report(t.path(), true);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("at line 5: written \"an edit\""), "{err}");
}

#[test]
fn bad_input_is_refused_naming_the_file() {
    let t = tree();
    refused(&report(&t.path().join("nowhere"), false), "nowhere");
    let csv = t.path().join("converge/baghchal/converge.csv");
    fs::write(&csv, "game,variant,rung\nbaghchal,five-captures\n").unwrap();
    refused(&report(t.path(), false), "converge.csv");
    // A malformed CSV no manifest records (ladder manifests record no files).
    copy_from(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/report"),
        "converge/baghchal/converge.csv",
        t.path(),
    );
    let csv = t.path().join("ladder/julbahar/ladder.csv");
    fs::write(&csv, "step,upper\n1\n").unwrap();
    refused(&report(t.path(), false), "malformed CSV");
}

#[test]
fn a_csv_edited_after_its_run_wrote_it_is_refused_naming_it() {
    // A study game whose manifest records its compare.csv: reported as it is, refused once a
    // figure in it is changed by hand (the same length, so only the SHA-256 tells).
    let t = tempfile::tempdir().unwrap();
    for f in ["baghchal/compare.csv", "baghchal/manifest.json"] {
        copy_from(
            &repo().join("results/default-study"),
            f,
            &t.path().join("study"),
        );
    }
    let o = report(t.path(), false);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = t.path().join("study/baghchal/compare.csv");
    let text = fs::read_to_string(&csv).unwrap();
    let (at, digit) = text
        .char_indices()
        .find(|(i, c)| c.is_ascii_digit() && *i > text.find('\n').unwrap())
        .unwrap();
    let mut edited = text.clone();
    edited.replace_range(at..=at, if digit == '9' { "8" } else { "9" });
    fs::write(&csv, &edited).unwrap();
    let o = report(t.path(), true);
    refused(
        &o,
        "compare.csv' differs from the SHA-256 its manifest records",
    );
    // A line added: the length differs from the record.
    fs::write(&csv, format!("{text}extra\n")).unwrap();
    refused(&report(t.path(), false), "compare.csv' holds");
}

#[test]
fn a_directory_holding_no_run_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let o = report(t.path(), false);
    refused(&o, "holds no run to report");
    assert!(!t.path().join("README.md").exists());
    // One match's own directory (its manifest at the top): the directory above it is meant.
    let run = t.path().join("m");
    for f in ["manifest.json", "summary.csv", "games.csv"] {
        copy_from(&repo().join("results/td-frangieh/td0-ex2"), f, &run);
    }
    refused(&report(&run, false), "one run's directory");
    assert!(!run.join("README.md").exists());
    // A directory whose only subdirectories hold no run.
    fs::create_dir_all(t.path().join("empty/inner")).unwrap();
    fs::remove_dir_all(&run).unwrap();
    refused(&report(t.path(), false), "holds no run to report");
}

/// The report of a tree holding `files` copied from results/: the tree and the README.
fn report_of(files: &[&str]) -> (tempfile::TempDir, String) {
    let t = tempfile::tempdir().unwrap();
    for f in files {
        copy(f, t.path());
    }
    let o = report(t.path(), false);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = fs::read_to_string(t.path().join("README.md")).unwrap();
    (t, text)
}

/// The first section's first-mover rate and points per game, counted here from `games.csv`.
#[test]
fn what_the_games_show_holds_the_first_mover_rate_counted_from_the_games() {
    let (t, text) = report_of(&[
        "large-study/frangieh-td1/compare.csv",
        "large-study/frangieh-td1/manifest.json",
        "large-study/frangieh-td1/1-barakat-1974/manifest.json",
        "large-study/frangieh-td1/2-modern/manifest.json",
        "large-study/frangieh-td1/2-modern/games.csv",
    ]);
    let games =
        fs::read_to_string(t.path().join("large-study/frangieh-td1/2-modern/games.csv")).unwrap();
    let mut lines = games.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let (mut n, mut won, mut points) = (0u32, 0u32, 0i64);
    for line in lines {
        // The agent columns are quoted and hold commas: split off the columns after them.
        let tail: Vec<&str> = line.rsplitn(header.len() - col("agent_p2"), ',').collect();
        let cell = |name: &str| tail[header.len() - 1 - col(name)];
        n += 1;
        let first = cell("first_mover_seat");
        if cell("winner_seat") == first {
            won += 1;
        }
        let p: i64 = cell(if first == "1" {
            "points_p1"
        } else {
            "points_p2"
        })
        .parse()
        .unwrap();
        points += p;
    }
    let section = text
        .split("## What the games show")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    let rate = format!("{:.1}%", 100.0 * f64::from(won) / f64::from(n));
    let row = section
        .lines()
        .find(|l| l.starts_with("| frangieh | modern |"))
        .unwrap_or_else(|| panic!("{section}"));
    assert!(row.contains(&format!("| {rate} [")), "{rate}: {row}");
    assert!(row.contains("one agent measured"), "{row}");
    let mean = format!("{:+.4}", points as f64 / f64::from(n));
    assert!(
        section
            .lines()
            .any(|l| l.contains("first mover's points per game") && l.contains(&mean)),
        "{mean}: {section}"
    );
}

/// A declared difference of the first mover's rate is tabled where the variant's first mover is
/// seat 1 (Julbahar `ludii`), and so is the per-game first mover's test.
#[test]
fn every_declared_hypothesis_is_tabled_whatever_the_first_movers_seat() {
    let (_t, text) = report_of(&[
        "large-study/julbahar/compare.csv",
        "large-study/julbahar/1-barakat-1974/manifest.json",
        "large-study/julbahar/2-ludii/manifest.json",
    ]);
    // compare.csv: ludii's first mover is seat 1 (advantage_p1 = first_mover_win_rate =
    // 0.505850), its first-mover difference +0.026200 [+0.016275, +0.036125], p 0.000000,
    // diff_p_holm 0.000001.
    assert!(
        text.contains("| julbahar | ludii | `heuristic:temperature=0` | first mover wins: `ludii` = `barakat-1974` | +0.026 [+0.016, +0.036] | 0.000000 | 0.000001 |"),
        "{text}"
    );
    // subgame_first_mover_win_rate under barakat-1974: 0.354290, p 0.
    assert!(text.contains(
        "| julbahar | barakat-1974 | `heuristic:temperature=0` | per game: first mover wins: equal wins | 0.354 | 0.000000 | 0.000000 |"
    ));
    // ... and the difference is rejected in the findings.
    assert!(text.contains("`ludii` first mover wins +0.026 [+0.016, +0.036] (Holm p"));
}

#[test]
fn the_readmes_gnu_backgammon_figure_is_the_largest_committed_runs() {
    // README: "`td:ply=1` wins P% [L%, H%] of N games (...; `results/<run>/`)", recounted here
    // from that run's games.csv: td's points per seat-swapped pair, the pentanomial interval.
    let readme = fs::read_to_string(repo().join("README.md")).unwrap();
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = "against GNU Backgammon 0-ply `td:ply=1` wins ";
    let at = readme
        .find(start)
        .expect("README quotes td:ply=1 against GNU Backgammon")
        + start.len();
    let words: Vec<&str> = readme[at..].split(' ').take(5).collect();
    let pct = |w: &str| -> f64 { w.trim_matches(|c| "[],%".contains(c)).parse().unwrap() };
    let (rate, low, high) = (pct(words[0]), pct(words[1]), pct(words[2]));
    assert_eq!(words[3], "of");
    let games: usize = words[4].replace(',', "").parse().unwrap();
    let run = readme[at..].split('`').nth(1).unwrap();
    assert!(run.starts_with("results/td-frangieh/"), "{run}");
    // The largest committed run of td:ply=1 against GNU Backgammon.
    let largest = fs::read_dir(repo().join("results/td-frangieh"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("td1-gnubg")
        })
        .max_by_key(|p| {
            fs::read_to_string(p.join("games.csv"))
                .unwrap()
                .lines()
                .count()
        })
        .unwrap();
    assert_eq!(repo().join(run.trim_end_matches('/')), largest);
    let mut rdr = csv::Reader::from_path(largest.join("games.csv")).unwrap();
    let h = rdr.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let mut pairs: std::collections::BTreeMap<u64, f64> = std::collections::BTreeMap::new();
    let mut n = 0;
    for r in rdr.records() {
        let r = r.unwrap();
        let winner = format!("agent_p{}", &r[col("winner_seat")]);
        let td_won = r[col(&winner)].starts_with("td:");
        *pairs
            .entry(r[col("pair_index")].parse().unwrap())
            .or_default() += if td_won { 0.5 } else { 0.0 };
        n += 1;
    }
    assert_eq!(n, games);
    let k = pairs.len() as f64;
    let s = pairs.values().sum::<f64>() / k;
    let sd = (pairs.values().map(|x| (x - s).powi(2)).sum::<f64>() / k / k).sqrt();
    let round = |x: f64| (x * 1000.0).round() / 10.0;
    assert_eq!(
        (rate, low, high),
        (round(s), round(s - 1.959964 * sd), round(s + 1.959964 * sd))
    );
}
