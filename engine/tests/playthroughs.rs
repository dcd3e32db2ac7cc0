//! Golden playthroughs: one seeded, uniformly random game of every game under every named
//! variant, written as text in `tests/playthroughs/<game>-<variant>.txt` (each node's kind, the
//! player to act and the legal actions or the outcome distribution, what was played or drawn,
//! the position after it, and the returns). The test plays each game again and compares it with
//! the committed file byte for byte, so any change of behaviour shows in review as a diff.
//!
//! `COWRIE_BLESS_PLAYTHROUGHS=1 cargo test -p cowrie-engine --test playthroughs` writes the files
//! again, on purpose (then read the diff).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cowrie_engine::{sample_outcome, Baghchal, Bargese, Frangieh, Game, Julbahar, RuleSet, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The seed of every playthrough.
const SEED: u64 = 1;

/// The most legal actions of a decision written out; the rest are counted.
const LISTED: usize = 24;

/// The environment variable that makes the test write the files instead of comparing.
const BLESS: &str = "COWRIE_BLESS_PLAYTHROUGHS";

/// The command that writes the files again.
const BLESS_COMMAND: &str =
    "COWRIE_BLESS_PLAYTHROUGHS=1 cargo test -p cowrie-engine --test playthroughs";

/// How a playthrough is made and read: its header after the first line.
fn header() -> String {
    format!(
        "\
# Made by engine/tests/playthroughs.rs, which plays it again and compares it with this file;
# to write it again on purpose: {BLESS_COMMAND}
# Draws: one ChaCha8Rng::seed_from_u64(seed) stream, drawn as Game::random_playout draws it: at a
#   decision the action legal[rng.gen_range(0..legal.len())] of Game::legal_actions (a uniformly
#   random policy), at a chance node the engine's sample_outcome(&outcomes, &mut rng).
# Lines: `N decision PLAYER (COUNT): ACTION | ACTION | ...` lists the legal actions in the game's
#   order (at most {LISTED}, then how many more), `  play ACTION` the one played; `N chance (COUNT):
#   OUTCOME PROBABILITY | ...` the outcome distribution (or `as at M`: the distribution written in
#   full at step M), `  draw OUTCOME` the one drawn; `  = POSITION` the position after each step in
#   the game's notation; at the end `terminal: REASON [WINNER] after P plies` and `returns R1 R2`.
"
    )
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/playthroughs")
}

/// A probability as a fraction with a denominator of at most 10,000 when it is one (to within
/// 1e-12), else as the shortest decimal that reads back to it.
fn probability(p: f64) -> String {
    for d in 1..=10_000u32 {
        let n = (p * f64::from(d)).round();
        if (n / f64::from(d) - p).abs() < 1e-12 {
            return format!("{n}/{d}");
        }
    }
    format!("{p}")
}

/// The playthrough of `G` under the variant `variant` with `options` over it (each with the
/// reason it is there, written in the header), seeded by [`SEED`].
fn playthrough<G: Game>(variant: &str, options: &[(&str, &str)]) -> String {
    let mut rules = G::Rules::variant(variant).expect("a named variant");
    for (option, _) in options {
        rules.apply_option_text(option).expect("a valid option");
    }
    let facts = G::facts(&rules);
    let mut out = format!(
        "# cowrie playthrough: {}, variant {variant}\n{}",
        G::NAME,
        header()
    );
    let w = &mut out;
    let _ = writeln!(w, "# Seed: {SEED}");
    for (option, why) in options {
        let _ = writeln!(w, "# Over the variant: {option} ({why})");
    }
    let resolved: Vec<String> = rules
        .resolved()
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let _ = writeln!(w, "# Rules: {}", resolved.join(" "));
    let _ = writeln!(
        w,
        "# Facts: chance={} chance_chain={:?} ply_cap={} max_points={}",
        facts.has_chance,
        facts.chance_chain,
        facts.ply_cap.map_or("none".to_string(), |c| c.to_string()),
        facts.max_points
    );

    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut state = G::new(&rules);
    let (mut actions, mut outcomes) = (Vec::new(), Vec::new());
    // Each distribution's text and the step where it was first written.
    let mut seen: HashMap<String, u32> = HashMap::new();
    let _ = writeln!(w, "start {}", state.notation());
    for step in 1.. {
        match state.to_act() {
            ToAct::Terminal(reason) => {
                let winner = reason.winner().map_or(String::new(), |p| format!(" {p}"));
                let r = state.returns();
                let _ = writeln!(
                    w,
                    "terminal: {}{winner} after {} plies\nreturns {} {}",
                    reason.as_str(),
                    state.plies(),
                    r[0],
                    r[1]
                );
                break;
            }
            ToAct::Chance => {
                state.chance_outcomes(&mut outcomes);
                let listed: Vec<String> = outcomes
                    .iter()
                    .map(|&(o, p)| format!("{} {}", state.outcome_to_string(o), probability(p)))
                    .collect();
                let listed = listed.join(" | ");
                let n = outcomes.len();
                match seen.get(&listed) {
                    Some(first) => _ = writeln!(w, "{step} chance ({n}): as at {first}"),
                    None => {
                        let _ = writeln!(w, "{step} chance ({n}): {listed}");
                        seen.insert(listed, step);
                    }
                }
                let o = sample_outcome(&outcomes, &mut rng);
                let _ = writeln!(w, "  draw {}", state.outcome_to_string(o));
                state
                    .try_apply_outcome(o)
                    .expect("a listed outcome applies");
            }
            ToAct::Decision(player) => {
                state.legal_actions(&mut actions);
                let mut listed: Vec<String> = actions
                    .iter()
                    .take(LISTED)
                    .map(|&a| state.action_to_string(a))
                    .collect();
                if actions.len() > LISTED {
                    listed.push(format!("... {} more", actions.len() - LISTED));
                }
                let n = actions.len();
                let _ = writeln!(w, "{step} decision {player} ({n}): {}", listed.join(" | "));
                let a = actions[rng.gen_range(0..n)];
                let _ = writeln!(w, "  play {}", state.action_to_string(a));
                state.try_play(a).expect("a legal action plays");
            }
        }
        let _ = writeln!(w, "  = {}", state.notation());
    }
    // The game's own playout (a faster path in some games) with the same seed ends alike.
    let mut again = G::new(&rules);
    again.random_playout(&mut ChaCha8Rng::seed_from_u64(SEED));
    assert_eq!(
        (again.notation(), again.returns()),
        (state.notation(), state.returns()),
        "{} {variant}: Game::random_playout ends elsewhere",
        G::NAME
    );
    out
}

/// The playthroughs of every named variant of `G`, with `options` over each: (file name, text).
fn playthroughs<G: Game>(options: &[(&str, &str)]) -> Vec<(String, String)> {
    G::Rules::variants()
        .iter()
        .map(|v| {
            let name = format!("{}-{}.txt", G::NAME, v.name);
            (name, playthrough::<G>(v.name, options))
        })
        .collect()
}

/// The first line where `want` and `got` differ: (line number, want's line, got's line).
fn first_difference<'a>(want: &'a str, got: &'a str) -> (usize, &'a str, &'a str) {
    let (mut w, mut g) = (want.lines(), got.lines());
    for n in 1.. {
        match (w.next(), g.next()) {
            (Some(a), Some(b)) if a == b => {}
            (None, None) => break,
            (a, b) => {
                return (
                    n,
                    a.unwrap_or("(end of file)"),
                    b.unwrap_or("(end of file)"),
                )
            }
        }
    }
    let same = "(every line the same: the line endings or the final newline differ)";
    (0, same, same)
}

fn check(files: &[(String, String)], dir: &Path) {
    if std::env::var_os(BLESS).is_some() {
        std::fs::create_dir_all(dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        return;
    }
    let mut failures = Vec::new();
    for (name, got) in files {
        let path = dir.join(name);
        match std::fs::read_to_string(&path) {
            Err(e) => failures.push(format!("{}: {e}", path.display())),
            Ok(want) if want != *got => {
                let (n, a, b) = first_difference(&want, got);
                failures.push(format!(
                    "{} differs from the game played now, first at line {n}:\n  committed: {a}\n  now:       {b}",
                    path.display()
                ));
            }
            Ok(_) => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{}\nIf the change of behaviour is meant, write the files again with\n  {BLESS_COMMAND}\nand commit them.",
        failures.join("\n")
    );
}

#[test]
fn every_variant_plays_as_committed() {
    let mut files = playthroughs::<Baghchal>(&[]);
    files.extend(playthroughs::<Frangieh>(&[]));
    // A random match to 31 lasts several hundred plies (630 with this seed, 250 KB written out);
    // one game of it, a seventh of the length, shows the rules of play (the match around the
    // games, its score and next games, is left out).
    files.extend(playthroughs::<Julbahar>(&[(
        "unit=game",
        "one game of the match, to keep the file short",
    )]));
    files.extend(playthroughs::<Bargese>(&[]));
    check(&files, &dir());
    // No file is left over from a variant that is gone.
    if let Ok(entries) = std::fs::read_dir(dir()) {
        for e in entries {
            let name = e.unwrap().file_name().into_string().unwrap();
            assert!(
                files.iter().any(|(n, _)| *n == name),
                "tests/playthroughs/{name} is no variant's playthrough"
            );
        }
    }
}
