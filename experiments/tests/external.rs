//! `external:cmd=...`: matches against tiny agents written in Python here, over the JSON-lines
//! protocol. A well-behaved agent's every ply is checked against the engine by replaying the
//! recorded games; a crashing, a slow and a cheating agent each forfeit every game they play,
//! recorded with their own `end_reason`, with their standard error kept in the run directory.
mod common;
use common::{cowrie, read_rows};

use std::path::Path;

use cowrie_engine::{Frangieh, FrangiehRules, Game, RuleSet, ToAct};

/// Writes `body` as a Python program in `dir` and returns the `external:` spec that runs it.
fn agent(dir: &Path, name: &str, body: &str, timeout_ms: u32) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    format!(
        "external:timeout_ms={timeout_ms},cmd=python3 '{}'",
        path.display()
    )
}

/// Answers the first legal action; reports the hello line on stderr.
const FIRST: &str = r#"
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print("hello", m["game"], m["variant"], m["seat"], m["version"], file=sys.stderr)
        continue
    assert len(m["actions"]) == len(m["after"]) > 1
    assert m["roll"] == m["position"].split(" ")[2], (m["roll"], m["position"])
    print(json.dumps({"action": m["actions"][0]}), flush=True)
"#;

const CRASH: &str = r#"
import sys
sys.stdin.readline()
sys.stdin.readline()
print("giving up", file=sys.stderr)
sys.exit(3)
"#;

const SLOW: &str = r#"
import sys, time
for line in sys.stdin:
    if '"move"' in line:
        time.sleep(5)
"#;

const CHEAT: &str = r#"
import json, sys
for line in sys.stdin:
    if '"move"' in line:
        print(json.dumps({"action": "24/1"}), flush=True)
"#;

fn play(out: &Path, p1: &str, extra: &[&str]) {
    let out = out.to_str().unwrap();
    let mut args = vec![
        "match",
        "--game",
        "frangieh",
        "--variant",
        "modern",
        "--p1",
        p1,
        "--p2",
        "random",
        "--seed",
        "5",
        "--threads",
        "2",
        "--out",
        out,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let o = cowrie(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn an_external_agent_plays_whole_games_by_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let spec = agent(dir.path(), "first.py", FIRST, 20_000);
    let out = dir.path().join("run");
    play(&out, &spec, &["--games", "4", "--record"]);
    let (h, rows) = read_rows(&out.join("games.csv"));
    let er = h.iter().position(|c| c == "end_reason").unwrap();
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| &r[er] == "win"), "{rows:?}");

    // Every ply of the external seat is the engine's first legal action (or forced).
    let rules = FrangiehRules::variant("modern").unwrap();
    let text = std::fs::read_to_string(out.join("records.jsonl")).unwrap();
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let rec: serde_json::Value = serde_json::from_str(line).unwrap();
        // Games 0 and 2 have --p1 in seat 1; games 1 and 3 in seat 2.
        let external_seat = if i % 2 == 0 { 1 } else { 2 };
        let mut state = Frangieh::new(&rules);
        let (mut outcomes, mut legal) = (Vec::new(), Vec::new());
        for e in rec["events"].as_array().unwrap() {
            if let Some(c) = e.get("chance") {
                state.chance_outcomes(&mut outcomes);
                let o = outcomes
                    .iter()
                    .map(|x| x.0)
                    .find(|&o| state.outcome_to_string(o) == c.as_str().unwrap())
                    .unwrap();
                state.apply_outcome(o);
                continue;
            }
            let seat = e["seat"].as_u64().unwrap();
            let a = state.parse_action(e["action"].as_str().unwrap()).unwrap();
            state.legal_actions(&mut legal);
            assert!(matches!(state.to_act(), ToAct::Decision(p) if u64::from(p.seat()) == seat));
            if seat == external_seat && legal.len() > 1 {
                assert_eq!(a, legal[0], "game {i}: not the first legal action");
                checked += 1;
            }
            state.try_play(a).unwrap();
        }
        assert!(state.end_reason().is_some());
        // The hello line reached the program: it wrote it to its kept stderr.
        let log = out
            .join("external")
            .join(format!("game-{i}-seat{external_seat}.stderr"));
        let log = std::fs::read_to_string(&log).unwrap();
        assert_eq!(
            log.trim(),
            format!("hello frangieh modern {external_seat} 1")
        );
    }
    assert!(checked > 40, "{checked} choices checked");
    let o = cowrie(&[
        "replay",
        out.join("records.jsonl").to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn crashes_timeouts_and_illegal_answers_are_forfeits() {
    let dir = tempfile::tempdir().unwrap();
    for (name, body, timeout, reason, log_needle) in [
        (
            "crash.py",
            CRASH,
            20_000,
            "forfeit-crash",
            "giving up\ncowrie: forfeit-crash: the program closed its output (exit status: 3)",
        ),
        (
            "slow.py",
            SLOW,
            300,
            "forfeit-timeout",
            "cowrie: forfeit-timeout: no answer within 300 ms",
        ),
        (
            "cheat.py",
            CHEAT,
            20_000,
            "forfeit-illegal",
            "cowrie: forfeit-illegal: '24/1' is not a legal action",
        ),
    ] {
        let spec = agent(dir.path(), name, body, timeout);
        let out = dir.path().join(format!("run-{name}"));
        play(&out, &spec, &["--games", "2", "--record"]);
        let (h, rows) = read_rows(&out.join("games.csv"));
        let col = |c: &str| h.iter().position(|x| x == c).unwrap();
        for (i, r) in rows.iter().enumerate() {
            let (external_seat, other) = if i == 0 { ("1", "2") } else { ("2", "1") };
            assert_eq!(&r[col("end_reason")], reason, "{name}");
            assert_eq!(&r[col("winner_seat")], other, "{name}");
            assert_eq!(&r[col(&format!("points_p{external_seat}"))], "-1", "{name}");
            assert_eq!(&r[col(&format!("points_p{other}"))], "1", "{name}");
            let log = out
                .join("external")
                .join(format!("game-{i}-seat{external_seat}.stderr"));
            let log = std::fs::read_to_string(&log).unwrap();
            assert!(log.contains(log_needle), "{name}: {log}");
        }
        let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        assert!(summary.contains(&spec), "{summary}");
        // The forfeits replay: the game stops at the forfeiting seat's decision.
        let o = cowrie(&[
            "replay",
            out.join("records.jsonl").to_str().unwrap(),
            "--quiet",
        ]);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn a_missing_program_is_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = cowrie(&[
        "match",
        "--game",
        "frangieh",
        "--p1",
        "external:cmd=./no-such-agent --fast",
        "--p2",
        "random",
        "--games",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("'./no-such-agent'"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(!out.join("games.csv").exists());
}
