//! Chance keyed by what it is (docs/conventions.md, "Seeds and random streams"): rule sets that
//! differ in their opening keep every later roll, so their games stay paired; self-play plays
//! no game twice.

use cowrie_agents::{AgentSpec, AnyAgent};
use cowrie_engine::{Frangieh, FrangiehRules, Game, Player, RuleSet};
use cowrie_experiments::config::{RulesConfig, RunConfig};
use cowrie_experiments::run::runner::{self, MatchConfig};
use cowrie_experiments::run::seeds::{agent_stream, Dice};
use cowrie_experiments::run::selfplay::{play, Buffers, Event};
use cowrie_experiments::stats::clustered::{add, pairing_strength, Clusters};

fn rules(opening: &str) -> FrangiehRules {
    let mut r = FrangiehRules::default();
    r.set_option("opening", opening).unwrap();
    r
}

/// Game `i` of heuristic self-play under `rules` on the run seed's dice: its events and
/// seat 1's result (1 for a win, 0 otherwise).
fn game(rules: &FrangiehRules, seed: u64, i: u64) -> (Vec<Event>, f64) {
    let spec: AgentSpec = "heuristic".parse().unwrap();
    let mut agents = [
        AnyAgent::<Frangieh>::build(&spec, agent_stream(seed, i, Player::ONE)),
        AnyAgent::build(&spec, agent_stream(seed, i, Player::TWO)),
    ];
    let mut log = Vec::new();
    let (end, _) = play(
        rules,
        &mut agents,
        &mut Dice::new(seed, i),
        &mut Buffers::default(),
        Some(&mut log),
    );
    (log, f64::from(u8::from(end.returns()[0] > 0.0)))
}

/// Each seat's rolls in order (the opening roll left out): a roll belongs to the seat whose
/// ply follows it.
fn rolls(events: &[Event]) -> [Vec<String>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    let mut pending = None;
    for e in events {
        match e {
            Event::Chance { chance } if !chance.starts_with("opening") => {
                pending = Some(chance.clone());
            }
            Event::Chance { .. } => {}
            Event::Ply { seat, .. } => {
                if let Some(r) = pending.take() {
                    out[usize::from(*seat - 1)].push(r);
                }
            }
        }
    }
    out
}

#[test]
fn a_different_opening_leaves_each_players_later_rolls_in_place() {
    // Under roll-again the opening's winner rolls for its first turn; under modern it plays
    // the opening dice, so its own rolls begin at its second turn. Every later roll of either
    // player is keyed by that player's turn and must be the same under both rules.
    let (again, modern) = (rules("roll-again"), rules("modern"));
    let (mut same, mut compared) = ([0usize; 2], [0usize; 2]);
    for i in 0..40 {
        let (a, b) = (game(&again, 5, i).0, game(&modern, 5, i).0);
        let opening = |e: &[Event]| match &e[0] {
            Event::Chance { chance } => chance.clone(),
            Event::Ply { .. } => panic!("the game opens with a roll"),
        };
        assert_eq!(opening(&a), opening(&b), "the opening is the same");
        let starter = usize::from(match (&a[1], &a[2]) {
            (_, Event::Ply { seat, .. }) => *seat - 1,
            _ => panic!("a roll and a ply follow the opening"),
        });
        let (ra, rb) = (rolls(&a), rolls(&b));
        for p in 0..2 {
            let skip = usize::from(p == starter);
            for (x, y) in ra[p].iter().skip(skip).zip(&rb[p]) {
                compared[p] += 1;
                same[p] += usize::from(x == y);
            }
        }
    }
    for p in 0..2 {
        assert!(compared[p] > 500, "{compared:?}");
        assert!(
            same[p] * 10 >= compared[p] * 9,
            "seat {}: {} of {} later rolls shared",
            p + 1,
            same[p],
            compared[p]
        );
    }
}

/// The correlation of seat 1's results, game by game, between the two openings.
fn opening_correlation(games: u64) -> f64 {
    let (again, modern) = (rules("roll-again"), rules("modern"));
    let (mut a, mut b) = (Clusters::new(), Clusters::new());
    for i in 0..games {
        add(&mut a, i, game(&again, 11, i).1);
        add(&mut b, i, game(&modern, 11, i).1);
    }
    let r = pairing_strength(&a, &b).0;
    eprintln!("pair correlation over {games} games: {r:.4}");
    r
}

#[test]
fn rule_sets_differing_in_the_opening_stay_paired() {
    // Drawn from one stream in order, every roll after the first shifts to the other player
    // and the pairs' results are uncorrelated (about 0); keyed by turn they are clearly not.
    let r = opening_correlation(300);
    assert!(r >= 0.12, "pair correlation {r}");
}

#[test]
fn rule_sets_differing_in_the_opening_stay_paired_over_2000_games() {
    let r = opening_correlation(2000);
    assert!(r >= 0.2, "pair correlation {r}");
}

#[test]
fn deterministic_self_play_plays_every_game_once() {
    let dir = tempfile::tempdir().unwrap();
    let spec: AgentSpec = "heuristic".parse().unwrap();
    let run = RunConfig {
        seed: 3,
        threads: 2,
        progress: cowrie_experiments::progress::Progress::Hidden,
        command_line: Vec::new(),
    };
    let cfg = MatchConfig {
        record: true,
        ..MatchConfig::part(
            &RulesConfig::new("frangieh", None, &[]).unwrap(),
            [spec.clone(), spec],
            24,
            &run,
            dir.path().to_path_buf(),
            false,
        )
    };
    assert!(!cfg.swap, "self-play has no seat swap");
    let report = runner::run(&cfg).unwrap();
    assert_eq!(report.distinct_games, Some(24));
    // Told apart by the records themselves, not by the runner's fingerprints.
    let text = std::fs::read_to_string(dir.path().join("records.jsonl")).unwrap();
    let courses: std::collections::HashSet<String> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["events"].to_string()
        })
        .collect();
    assert_eq!(courses.len(), 24);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["distinct_games"], 24);
    assert_eq!(manifest["run"]["seat_swap"], false);
}
