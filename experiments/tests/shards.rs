//! `cowrie compare --shard K/N` and `cowrie study --shard K/N`, joined by `cowrie merge`: the
//! merged directory holds the bytes of the unsharded run, its manifests equal but for the fields
//! docs/conventions.md lists; and the refusals (a shard count that leaves a shard empty, shards
//! of other arguments, a missing, repeated or edited shard).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{cowrie, refused};

fn ok(o: &std::process::Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `cowrie compare` of Baghchal's two first rule sets, random agents, `games` games, seed `seed`,
/// into `out`, with `extra` arguments.
fn compare(games: &str, seed: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "compare",
        "--game",
        "baghchal",
        "--set",
        "five-captures",
        "--set",
        "averbakh-1995+win-captures=7",
        "--agent",
        "random",
        "--games",
        games,
        "--seed",
        seed,
        "--quiet",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    cowrie(&args)
}

fn merge(out: &Path, shards: &[&Path]) -> std::process::Output {
    let mut args = vec!["merge", "--out", s(out)];
    args.extend(shards.iter().map(|p| s(p)));
    cowrie(&args)
}

/// Every file under `dir`, by its path relative to `dir`, with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

/// The fields a merged manifest may hold otherwise than the unsharded run's.
use cowrie_experiments::run::manifest::MERGED_MAY_DIFFER as PROVENANCE;

fn without_provenance(bytes: &[u8]) -> serde_json::Value {
    let mut m: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    for k in PROVENANCE {
        m.as_object_mut().unwrap().remove(k);
    }
    m
}

/// Asserts that `merged` holds what `whole` holds: the same files, every one byte-identical but
/// the manifests (equal without [`PROVENANCE`]) and each rule set's own `index.html` (whose
/// title counts distinct games only in the unsharded run).
fn same_run(whole: &Path, merged: &Path) {
    let (a, b) = (files(whole), files(merged));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files"
    );
    let mut csvs = 0;
    for (name, bytes) in &a {
        let depth = name.components().count();
        let file = name.file_name().unwrap().to_str().unwrap();
        if file == "manifest.json" {
            assert_eq!(
                without_provenance(bytes),
                without_provenance(&b[name]),
                "{}",
                name.display()
            );
        } else if file == "index.html" && a.contains_key(&name.with_file_name("games.csv")) {
            let text = String::from_utf8_lossy(&b[name]);
            assert!(text.contains("cowrie match: "), "{}", name.display());
            assert!(depth >= 2);
        } else {
            csvs += usize::from(file.ends_with(".csv"));
            assert!(*bytes == b[name], "{} differs", name.display());
        }
    }
    assert!(csvs >= 3, "{csvs} CSV files compared");
}

/// The `game_index` column of `path`'s rows.
fn indices(path: &Path) -> Vec<u64> {
    let (_, rows) = common::read_rows(path);
    rows.iter().map(|r| r[0].parse().unwrap()).collect()
}

#[test]
fn a_comparison_merged_from_two_or_three_shards_is_the_unsharded_comparison() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    ok(&compare("7", "11", &whole, &[]));
    for n in [2u64, 3] {
        let shards: Vec<PathBuf> = (1..=n)
            .map(|k| dir.path().join(format!("shard-{k}-of-{n}")))
            .collect();
        for (k, d) in (1..=n).zip(&shards) {
            // Threads do not change a shard's games.
            let threads = if k == 1 { "2" } else { "1" };
            let shard = format!("{k}/{n}");
            ok(&compare(
                "7",
                "11",
                d,
                &["--shard", &shard, "--threads", threads],
            ));
            assert!(
                !d.join("compare.csv").exists(),
                "a shard writes no compare.csv"
            );
            let m: serde_json::Value =
                serde_json::from_slice(&std::fs::read(d.join("manifest.json")).unwrap()).unwrap();
            assert_eq!(m["run"]["shard"], shard.as_str());
            assert_eq!(m["status"], "complete");
            // Self-play: every game is its own pair; shard k plays the games k-1, k-1+n, ...
            let mine: Vec<u64> = (0..7).filter(|g| g % n == k - 1).collect();
            for set in ["1-five-captures", "2-averbakh-1995_win-captures_7"] {
                assert_eq!(indices(&d.join(set).join("games.csv")), mine, "{shard}");
            }
        }
        let merged = dir.path().join(format!("merged-{n}"));
        // Any order of the shards.
        let mut given: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
        given.reverse();
        let printed = ok(&merge(&merged, &given));
        assert!(printed.contains("rows in"), "{printed}");
        same_run(&whole, &merged);
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(merged.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(m["command_line"][1], "merge");
        assert_eq!(m["run"]["shard"], "1/1");
    }
}

#[test]
fn a_study_merged_from_two_shards_is_the_unsharded_study() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let study = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "study", "--name", "sharded", "--games", "3", "--quiet", "--out",
        ];
        args.push(s(out));
        args.extend_from_slice(extra);
        cowrie(&args)
    };
    // README.md names the study's directory: the unsharded study is moved aside and the merge
    // writes where it was.
    let out = dir.path().join("out");
    let printed = ok(&study(&out, &[]));
    std::fs::rename(&out, &whole).unwrap();
    let shards: Vec<PathBuf> = (1..=2)
        .map(|k| dir.path().join(format!("shard-{k}")))
        .collect();
    for (k, d) in (1..=2u64).zip(&shards) {
        ok(&study(d, &["--shard", &format!("{k}/2")]));
        assert!(!d.join("summary.csv").exists());
        // Shard 1 of 2 plays games 0 and 2 of every run, shard 2 game 1.
        let mine: Vec<u64> = (0..3).filter(|g| g % 2 == k - 1).collect();
        assert_eq!(
            indices(&d.join("bargese/1-finkel-2002/games.csv")),
            mine,
            "shard {k}"
        );
    }
    // Shard 2 as if stopped before Bargese, the study's last run: it resumes as that shard.
    std::fs::remove_dir_all(shards[1].join("bargese")).unwrap();
    let path = shards[1].join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    m["status"] = "running".into();
    std::fs::write(&path, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    refused(
        &study(&shards[1], &["--shard", "1/2", "--resume"]),
        "run.shard",
    );
    ok(&study(&shards[1], &["--shard", "2/2", "--resume"]));
    let merged = out;
    let merged_printed = ok(&merge(&merged, &[&shards[0], &shards[1]]));
    same_run(&whole, &merged);
    assert_eq!(
        std::fs::read(whole.join("README.md")).unwrap(),
        std::fs::read(merged.join("README.md")).unwrap()
    );
    assert_eq!(
        std::fs::read(whole.join("index.html")).unwrap(),
        std::fs::read(merged.join("index.html")).unwrap()
    );
    assert_eq!(printed, merged_printed);
}

#[test]
fn a_shard_count_that_leaves_a_shard_empty_is_refused_for_every_shard_of_it() {
    let dir = tempfile::tempdir().unwrap();
    for k in ["1", "5"] {
        let out = dir.path().join(format!("c{k}"));
        let o = compare("4", "1", &out, &["--shard", &format!("{k}/5")]);
        refused(&o, &format!("--shard {k}/5: --games 4 makes 4 games"));
        assert!(!out.exists(), "a refused run writes nothing");
        let out = dir.path().join(format!("s{k}"));
        let o = cowrie(&[
            "study",
            "--games",
            "4",
            "--shard",
            &format!("{k}/5"),
            "--quiet",
            "--out",
            s(&out),
        ]);
        refused(&o, &format!("--shard {k}/5: --games 4 makes 4 games"));
        assert!(!out.exists());
    }
    // Four shards of four games: each plays one.
    let out = dir.path().join("four");
    ok(&compare("4", "1", &out, &["--shard", "4/4"]));
    assert_eq!(indices(&out.join("1-five-captures/games.csv")), [3]);
}

#[test]
fn an_interrupted_shard_resumes_and_merges_into_the_unsharded_comparison() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    ok(&compare("6", "5", &whole, &[]));
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    ok(&compare("6", "5", &one, &["--shard", "1/2"]));
    ok(&compare("6", "5", &two, &["--shard", "2/2"]));
    // Shard 1 as if stopped before its second rule set: that run never began, the
    // comparison's manifest still says running.
    std::fs::remove_dir_all(one.join("2-averbakh-1995_win-captures_7")).unwrap();
    let path = one.join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    m["status"] = "running".into();
    std::fs::write(&path, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    // Merging it now is refused: it is not complete.
    let merged = dir.path().join("merged");
    refused(&merge(&merged, &[&one, &two]), "is not complete");
    // Resuming it as another shard is refused, naming the field.
    refused(
        &compare("6", "5", &one, &["--shard", "2/2", "--resume"]),
        "run.shard",
    );
    ok(&compare("6", "5", &one, &["--shard", "1/2", "--resume"]));
    ok(&merge(&merged, &[&one, &two]));
    same_run(&whole, &merged);
}

#[test]
fn merge_refuses_shards_of_other_arguments_missing_repeated_or_edited() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name);
    ok(&compare("4", "3", &d("a1"), &["--shard", "1/2"]));
    ok(&compare("4", "3", &d("a2"), &["--shard", "2/2"]));
    ok(&compare("4", "4", &d("b2"), &["--shard", "2/2"]));
    ok(&compare("6", "3", &d("c2"), &["--shard", "2/2"]));
    let out = d("merged");
    refused(
        &merge(&out, &[&d("a1"), &d("b2")]),
        "run.seed is '3' there, '4' here",
    );
    refused(
        &merge(&out, &[&d("a1"), &d("c2")]),
        "run.games is '4' there, '6' here",
    );
    refused(&merge(&out, &[&d("a1")]), "shard 2/2 is missing");
    // A copy of a shard is the same shard twice.
    let copy = d("a1-copy");
    std::fs::create_dir(&copy).unwrap();
    for (name, bytes) in files(&d("a1")) {
        std::fs::create_dir_all(copy.join(&name).parent().unwrap()).unwrap();
        std::fs::write(copy.join(&name), bytes).unwrap();
    }
    refused(
        &merge(&out, &[&d("a1"), &copy, &d("a2")]),
        "shard 1/2 appears twice",
    );
    // A games.csv edited after its shard wrote it: one digit of a row changed.
    let csv = copy.join("2-averbakh-1995_win-captures_7/games.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let edited = match text.rfind(",1,") {
        Some(i) => format!("{},2,{}", &text[..i], &text[i + 3..]),
        None => text.replacen(",0,", ",9,", 1),
    };
    assert_ne!(edited, text);
    std::fs::write(&csv, edited).unwrap();
    refused(&merge(&out, &[&copy, &d("a2")]), "SHA-256");
    assert!(!out.exists(), "no refusal writes anything");
    // A match shard and a comparison shard are not one run.
    ok(&cowrie(&[
        "match",
        "--game",
        "baghchal",
        "--p1",
        "random",
        "--p2",
        "random",
        "--games",
        "4",
        "--seed",
        "3",
        "--shard",
        "2/2",
        "--quiet",
        "--out",
        s(&d("m2")),
    ]));
    refused(
        &merge(&out, &[&d("a1"), &d("m2")]),
        "belongs to another run",
    );
    assert!(!out.exists());
}

/// `cowrie ladder` of Baghchal's rungs random, heuristic, random (two steps), 4 games a step,
/// seed 7, into `out`, with `extra` arguments.
fn ladder(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "ladder",
        "--game",
        "baghchal",
        "--rung",
        "random",
        "--rung",
        "heuristic",
        "--rung",
        "random",
        "--games-per-pair",
        "4",
        "--seed",
        "7",
        "--quiet",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    cowrie(&args)
}

/// `cowrie tournament` of Baghchal's random, heuristic and random agents (three pairings, the
/// second random against itself, so without seat swap), 4 games a pairing, seed 9, into `out`,
/// with `extra` arguments.
fn tournament(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "tournament",
        "--game",
        "baghchal",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--agent",
        "random",
        "--games-per-pair",
        "4",
        "--seed",
        "9",
        "--quiet",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    cowrie(&args)
}

/// Plays shards 1/3, 2/3 and 3/3 of `run` into `dir/<name>-<k>`, checks that each holds the
/// games `expected[k-1]` lists (per pairing directory, the game indices) and no table of the
/// whole, and returns the shards' directories.
fn three_shards(
    dir: &Path,
    name: &str,
    run: impl Fn(&Path, &[&str]) -> std::process::Output,
    expected: [&[(&str, &[u64])]; 3],
    tables: &[&str],
) -> Vec<PathBuf> {
    let shards: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("{name}-{k}"))).collect();
    for (k, d) in shards.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        let threads = if k == 0 { "2" } else { "1" };
        let printed = ok(&run(d, &["--shard", &shard, "--threads", threads]));
        assert!(printed.contains("cowrie merge"), "{printed}");
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(d.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(m["run"]["shard"], shard.as_str());
        assert_eq!(m["status"], "complete");
        for (pairing, games) in expected[k] {
            assert_eq!(
                indices(&d.join(pairing).join("games.csv")),
                *games,
                "{shard} {pairing}"
            );
        }
        let played: usize = expected[k].iter().map(|(_, g)| g.len()).sum();
        assert_eq!(m["games_written"], played as u64, "{shard}");
        for t in tables {
            assert!(!d.join(t).exists(), "a shard writes no {t}");
        }
    }
    shards
}

/// Merges `shards` into `dir/merged` and checks that it holds the run in `whole` (which
/// printed `printed`) and prints the same; returns the merged directory.
fn merged_as_whole(dir: &Path, whole: &Path, printed: &str, shards: &[&Path]) -> PathBuf {
    let merged = dir.join("merged");
    let merged_printed = ok(&merge(&merged, shards));
    same_run(whole, &merged);
    assert_eq!(
        printed.replace(s(whole), "DIR"),
        merged_printed.replace(s(&merged), "DIR")
    );
    merged
}

#[test]
fn a_ladder_merged_from_three_shards_is_the_unsharded_ladder() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let printed = ok(&ladder(&whole, &[]));
    // Two steps of two seat-swapped pairs: the ladder's pairs 0..4, step after step, dealt
    // round three shards: shard 1 the pairs 0 and 3 (step 1's first, step 2's second), shard
    // 2 pair 1 (step 1's second), shard 3 pair 2 (step 2's first). Each shard's slice of a step
    // it has no pair of is a run of no game.
    let (one, two) = ("steps/1-1-v-0", "steps/2-2-v-1");
    let shards = three_shards(
        dir.path(),
        "ladder",
        ladder,
        [
            &[(one, &[0, 1]), (two, &[2, 3])],
            &[(one, &[2, 3]), (two, &[])],
            &[(one, &[]), (two, &[0, 1])],
        ],
        &["ladder.csv", "games.csv"],
    );
    let mut given: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    given.reverse();
    let merged = merged_as_whole(dir.path(), &whole, &printed, &given);
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(merged.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(
        (m["command"].as_str(), m["run"]["shard"].as_str()),
        (Some("ladder"), Some("1/1"))
    );
    // A shard writes no ladder table, so --csv is refused with one.
    refused(
        &ladder(
            &dir.path().join("csv"),
            &["--shard", "1/3", "--csv", "x.csv"],
        ),
        "--csv 'x.csv' with --shard 1/3",
    );
}

#[test]
fn a_tournament_merged_from_three_shards_is_the_unsharded_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let printed = ok(&tournament(&whole, &[]));
    // The run's pairs, pairing after pairing: pairing 1 its two seat-swapped pairs (the run's
    // pairs 0, 1), pairing 2 (random against itself, no seat swap) its four games (2..6),
    // pairing 3 its two pairs (6, 7). Dealt round three shards: shard 1 the pairs 0, 3, 6,
    // shard 2 the pairs 1, 4, 7, shard 3 the pairs 2 and 5, both in pairing 2.
    let (p1, p2, p3) = ("pairings/1-0-v-1", "pairings/2-0-v-2", "pairings/3-1-v-2");
    let shards = three_shards(
        dir.path(),
        "tournament",
        tournament,
        [
            &[(p1, &[0, 1]), (p2, &[1]), (p3, &[0, 1])],
            &[(p1, &[2, 3]), (p2, &[2]), (p3, &[2, 3])],
            &[(p1, &[]), (p2, &[0, 3]), (p3, &[])],
        ],
        &["summary.csv", "games.csv", "ratings.csv", "ratings.svg"],
    );
    let given: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    merged_as_whole(dir.path(), &whole, &printed, &given);
    // Shards of a ladder and of a tournament are not one run.
    let other = dir.path().join("ladder-2");
    ok(&ladder(&other, &["--shard", "2/3"]));
    refused(
        &merge(&dir.path().join("mixed"), &[&shards[0], &other, &shards[2]]),
        "belongs to another run",
    );
}

#[test]
fn a_ladder_or_tournament_shard_count_that_leaves_a_shard_empty_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for k in ["1", "5"] {
        let out = dir.path().join(format!("l{k}"));
        refused(
            &ladder(&out, &["--shard", &format!("{k}/5")]),
            &format!("--shard {k}/5: 2 steps of 4 games make 4 pairs, fewer than the 5 shards"),
        );
        assert!(!out.exists(), "a refused run writes nothing");
        let out = dir.path().join(format!("t{k}"));
        refused(
            &tournament(&out, &["--shard", &format!("{k}/9")]),
            &format!("--shard {k}/9: 3 pairings of 4 games make 8 pairs"),
        );
        assert!(!out.exists());
    }
    // As many shards as pairs: each plays one pair.
    let out = dir.path().join("four");
    ok(&ladder(&out, &["--shard", "4/4"]));
    assert_eq!(indices(&out.join("steps/2-2-v-1/games.csv")), [2, 3]);
}

/// Marks the run in `dir` as stopped mid-way: its manifest says running.
fn stopped(dir: &Path) {
    let path = dir.join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    m["status"] = "running".into();
    std::fs::write(&path, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
}

#[test]
fn interrupted_ladder_and_tournament_shards_resume_and_merge_into_the_unsharded_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name);
    ok(&ladder(&d("ladder"), &[]));
    ok(&tournament(&d("tournament"), &[]));
    let shards = |name: &str, run: &dyn Fn(&Path, &[&str]) -> std::process::Output| {
        (1..=3)
            .map(|k| {
                let out = d(&format!("{name}-{k}"));
                ok(&run(&out, &["--shard", &format!("{k}/3")]));
                out
            })
            .collect::<Vec<_>>()
    };
    let l = shards("l", &ladder);
    let t = shards("t", &tournament);
    // Ladder shard 1 as if stopped before its second step; tournament shard 2 as if stopped
    // before its third pairing, its first still marked running (it resumes, keeping the rows
    // its manifest vouches for).
    std::fs::remove_dir_all(l[0].join("steps/2-2-v-1")).unwrap();
    stopped(&l[0]);
    let pairing = t[1].join("pairings/1-0-v-1");
    stopped(&pairing);
    std::fs::remove_dir_all(t[1].join("pairings/3-1-v-2")).unwrap();
    stopped(&t[1]);
    refused(&merge(&d("lm"), &[&l[0], &l[1], &l[2]]), "is not complete");
    refused(&ladder(&l[0], &["--shard", "2/3", "--resume"]), "run.shard");
    ok(&ladder(&l[0], &["--shard", "1/3", "--resume"]));
    ok(&tournament(&t[1], &["--shard", "2/3", "--resume"]));
    ok(&merge(&d("lm"), &[&l[0], &l[1], &l[2]]));
    same_run(&d("ladder"), &d("lm"));
    ok(&merge(&d("tm"), &[&t[0], &t[1], &t[2]]));
    same_run(&d("tournament"), &d("tm"));
    // A step file edited after its shard wrote it is refused by its digest.
    let csv = l[1].join("steps/1-1-v-0/games.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(&csv, text.replacen(",7,", ",8,", 1)).unwrap();
    refused(&merge(&d("lm2"), &[&l[0], &l[1], &l[2]]), "SHA-256");
    assert!(!d("lm2").exists());
}

/// The `shard units games` rows `cowrie plan` prints.
fn plan_rows(printed: &str) -> Vec<(String, u64, u64)> {
    printed
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f[..] {
                [s, u, g] if s.contains('/') => {
                    Some((s.to_string(), u.parse().ok()?, g.parse().ok()?))
                }
                _ => None,
            }
        })
        .collect()
}

#[test]
fn plan_gives_the_largest_shard_count_and_each_shards_units_and_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let tournament_args = [
        "tournament",
        "--game",
        "baghchal",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--agent",
        "random",
        "--games-per-pair",
        "4",
        "--out",
        s(&out),
    ];
    let plan = |shards: &str, run: &[&str]| {
        let mut args = vec!["plan", "--shards", shards];
        args.extend_from_slice(run);
        cowrie(&args)
    };
    // The tournament of a_tournament_merged_from_three_shards_is_the_unsharded_tournament:
    // units 2 + 4 + 2 = 8 (pairing 2 is random against itself, each game a unit); three
    // shards hold the units {0, 3, 6}, {1, 4, 7} and {2, 5}: 2 + 1 + 2 = 5 games, 5 games,
    // and 2 games, as that test's shards played.
    let printed = ok(&plan("3", &tournament_args));
    assert!(
        printed.contains("largest shard count with no empty shard: 8"),
        "{printed}"
    );
    assert_eq!(
        plan_rows(&printed),
        [
            ("1/3".to_string(), 3, 5),
            ("2/3".to_string(), 3, 5),
            ("3/3".to_string(), 2, 2)
        ]
    );
    refused(
        &plan("9", &tournament_args),
        "--shards 9: the run has 8 units",
    );
    // A match of 10 games between different agents: 5 seat-swapped pairs; 4 shards take the
    // pairs {0, 4}, {1}, {2}, {3}. Its own --shard gives N when --shards is not given.
    let printed = ok(&cowrie(&[
        "plan",
        "match",
        "--game",
        "baghchal",
        "--p1",
        "random",
        "--p2",
        "heuristic",
        "--games",
        "10",
        "--shard",
        "2/4",
        "--out",
        s(&out),
    ]));
    assert!(
        printed.contains("largest shard count with no empty shard: 5"),
        "{printed}"
    );
    assert_eq!(
        plan_rows(&printed)
            .iter()
            .map(|r| (r.1, r.2))
            .collect::<Vec<_>>(),
        [(2, 4), (1, 2), (1, 2), (1, 2)]
    );
    assert!(!out.exists(), "plan plays nothing and writes nothing");
}

/// `cowrie converge` of Baghchal's rungs random and heuristic, 3 games a rung and a strength
/// match of 4 games, seed 5, into `out`, with `extra` arguments.
fn converge(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "converge",
        "--game",
        "baghchal",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--games",
        "3",
        "--strength-games",
        "4",
        "--seed",
        "5",
        "--quiet",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    cowrie(&args)
}

/// The files only a whole convergence run writes.
const CONVERGE_TABLES: [&str; 5] = [
    "converge.csv",
    "strength.csv",
    "verdict.csv",
    "converge.txt",
    "converge.svg",
];

#[test]
fn a_convergence_run_merged_from_three_shards_is_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let printed = ok(&converge(&whole, &[]));
    // The run's units in order: rung 1's three self-play games (units 0, 1, 2), rung 2's
    // (3, 4, 5), then the strength match's two seat-swapped pairs (6, 7). Dealt round three
    // shards: shard 1 the units 0, 3, 6 (game 0 of each rung, the strength match's first
    // pair), shard 2 the units 1, 4, 7, shard 3 the units 2 and 5 and no strength pair.
    let (r1, r2, st) = ("1-random", "2-heuristic_temperature_0", "strength-2-v-1");
    let shards = three_shards(
        dir.path(),
        "converge",
        converge,
        [
            &[(r1, &[0]), (r2, &[0]), (st, &[0, 1])],
            &[(r1, &[1]), (r2, &[1]), (st, &[2, 3])],
            &[(r1, &[2]), (r2, &[2]), (st, &[])],
        ],
        &CONVERGE_TABLES,
    );
    let mut given: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    given.rotate_left(1);
    let merged = merged_as_whole(dir.path(), &whole, &printed, &given);
    for t in CONVERGE_TABLES {
        assert!(merged.join(t).exists(), "{t}");
    }
    // Nine shards for eight units: every shard of the set is refused, nothing written.
    for k in ["1", "9"] {
        let out = dir.path().join(format!("c{k}"));
        refused(
            &converge(&out, &["--shard", &format!("{k}/9")]),
            &format!("--shard {k}/9: 2 rungs of 3 games and a strength match of 2 seat-swapped pairs make 8 units"),
        );
        assert!(!out.exists(), "a refused run writes nothing");
    }
    // A shard stopped before its strength match resumes and merges into the same run.
    std::fs::remove_dir_all(shards[1].join(st)).unwrap();
    stopped(&shards[1]);
    refused(&merge(&dir.path().join("m2"), &given), "is not complete");
    refused(
        &converge(&shards[1], &["--shard", "1/3", "--resume"]),
        "run.shard",
    );
    ok(&converge(&shards[1], &["--shard", "2/3", "--resume"]));
    ok(&merge(&dir.path().join("m2"), &given));
    same_run(&whole, &dir.path().join("m2"));
}

#[test]
fn plan_deals_a_convergence_runs_units_and_estimates_each_shards_time() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let args = [
        "plan",
        "--shards",
        "3",
        "--calibrate",
        "2",
        "converge",
        "--game",
        "baghchal",
        "--agent",
        "random",
        "--agent",
        "heuristic",
        "--games",
        "3",
        "--strength-games",
        "4",
        "--seed",
        "5",
        "--out",
        s(&out),
    ];
    let printed = ok(&cowrie(&args));
    // As a_convergence_run_merged_from_three_shards_is_the_unsharded_run's shards played: 3 + 3
    // self-play games and 2 seat-swapped pairs make 8 units; the shards' units {0, 3, 6},
    // {1, 4, 7}, {2, 5} are 4, 4 and 2 games.
    assert!(
        printed.contains("largest shard count with no empty shard: 8"),
        "{printed}"
    );
    let rows: Vec<(String, u64, u64, f64)> = printed
        .lines()
        .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
            [k, u, g, t] if k.contains('/') => Some((
                k.to_string(),
                u.parse().ok()?,
                g.parse().ok()?,
                t.parse().ok()?,
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        rows.iter()
            .map(|r| (r.0.as_str(), r.1, r.2))
            .collect::<Vec<_>>(),
        [("1/3", 3, 4), ("2/3", 3, 4), ("3/3", 2, 2)]
    );
    assert!(rows.iter().all(|r| r.3 >= 0.0), "{printed}");
    // Two units from the start of each of the three matches: 2 + 2 self-play games and two
    // seat-swapped pairs, 8 games, timed on one thread.
    assert!(
        printed.contains("of each of the run's 3 matches (8 games,"),
        "{printed}"
    );
    assert!(
        printed.contains("per game, measured by playing"),
        "{printed}"
    );
    assert!(
        !out.exists(),
        "plan plays nothing of the run and writes nothing there"
    );
    refused(
        &cowrie(&[&args[..4], &["0"], &args[5..]].concat()),
        "--calibrate 0",
    );
}

#[test]
fn plan_refuses_agents_that_cannot_play_as_the_command_does() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    std::fs::create_dir(&db).unwrap();
    let perfect = format!("perfect:db={}", s(&db));
    let out = dir.path().join("never");
    // Frangieh has no solver, so `perfect` cannot play it; Baghchal has no shipped network.
    let runs: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "match", "--game", "frangieh", "--p1", &perfect, "--p2", "random", "--games", "2",
            ],
            "frangieh has no solver",
        ),
        (
            vec![
                "tournament",
                "--game",
                "frangieh",
                "--agent",
                "random",
                "--agent",
                &perfect,
                "--games-per-pair",
                "2",
            ],
            "frangieh has no solver",
        ),
        (
            vec![
                "ladder",
                "--game",
                "baghchal",
                "--rung",
                "random",
                "--rung",
                "td",
                "--games-per-pair",
                "2",
            ],
            "no shipped weights for baghchal",
        ),
        (
            vec![
                "compare",
                "--game",
                "baghchal",
                "--set",
                "five-captures",
                "--set",
                "parlett-1976",
                "--agent",
                "td",
                "--games",
                "2",
            ],
            "no shipped weights for baghchal",
        ),
    ];
    for (run, needle) in runs {
        let mut args = run.clone();
        args.extend(["--out", s(&out)]);
        let command = cowrie(&args);
        refused(&command, needle);
        let mut planned = vec!["plan"];
        planned.extend(&args);
        let plan = cowrie(&planned);
        refused(&plan, needle);
        assert_eq!(plan.stderr, command.stderr, "{}", run[0]);
        assert!(!out.exists(), "{}", run[0]);
    }
}

#[test]
fn a_finished_study_shard_resumed_is_left_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shard");
    let args = [
        "study",
        "--name",
        "resumed",
        "--games",
        "2",
        "--shard",
        "1/2",
        "--quiet",
        "--out",
        s(&out),
    ];
    ok(&cowrie(&args));
    let before = files(&out);
    // Past the manifests' one-second resolution, so that a rewritten time would differ.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let mut resume = args.to_vec();
    resume.push("--resume");
    let printed = ok(&cowrie(&resume));
    assert!(printed.contains("is complete"), "{printed}");
    let after = files(&out);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &before {
        assert!(bytes == &after[path], "{} changed", path.display());
    }
}

#[test]
fn the_fields_docs_say_a_merge_may_change_are_the_ones_tests_allow() {
    // docs/conventions.md: "Each manifest equals the unsharded one but for `a`, `b` (...) and `c`
    // (...);": the names in backticks outside the parentheses.
    let docs = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/conventions.md"),
    )
    .unwrap();
    let docs = docs.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = "Each manifest equals the unsharded one but for";
    let at = docs
        .find(start)
        .expect("the sentence is in docs/conventions.md");
    let text = &docs[at + start.len()..];
    let (mut depth, mut outside) = (0, String::new());
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ';' if depth == 0 => break,
            _ if depth == 0 => outside.push(c),
            _ => {}
        }
    }
    let mut listed: Vec<&str> = outside.split('`').skip(1).step_by(2).collect();
    let mut allowed = PROVENANCE.to_vec();
    listed.sort_unstable();
    allowed.sort_unstable();
    assert_eq!(listed, allowed, "{outside}");
}
