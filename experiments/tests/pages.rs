//! The pages a run and a replay write, through the real binary: `cowrie replay --html` (one
//! self-contained page whose frames are the recorded game's positions, event by event) and a
//! run directory's `index.html`; and `cowrie show`'s refusals. The pages in a real browser:
//! tools/browser_check.py.
mod common;
use common::{cowrie, refused};

/// A part of a replay page's frame: an index into the table `parts`, or a group: its opening
/// tag's index, then its parts, closed by `</g>`.
fn draw(parts: &serde_json::Value, p: &serde_json::Value) -> String {
    match p.as_array() {
        None => parts[p.as_u64().unwrap() as usize]
            .as_str()
            .unwrap()
            .to_string(),
        Some(group) => {
            let inner: String = group[1..].iter().map(|q| draw(parts, q)).collect();
            draw(parts, &group[0]) + &inner + "</g>"
        }
    }
}

/// A replay page's frames (caption, ply, turn) and each frame's diagram as the page's script
/// draws it: its opening tag, what lies under the board, the shared board, then its parts.
fn page_frames(page: &str) -> (Vec<serde_json::Value>, Vec<String>) {
    let open = "<script id=\"frames\" type=\"application/json\">";
    let start = page.find(open).unwrap() + open.len();
    let end = start + page[start..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&page[start..end]).unwrap();
    let text = |v: &serde_json::Value| v.as_str().unwrap().to_string();
    let frames = data["frames"].as_array().unwrap().clone();
    let svgs = frames
        .iter()
        .map(|f| {
            let mut svg = text(&data["opens"][f["open"].as_u64().unwrap() as usize]);
            for p in f["under"].as_array().unwrap() {
                svg.push_str(&draw(&data["parts"], p));
            }
            svg.push_str(data["board"].as_str().unwrap());
            for p in f["parts"].as_array().unwrap() {
                svg.push_str(&draw(&data["parts"], p));
            }
            svg + "</svg>"
        })
        .collect();
    (frames, svgs)
}

fn ok(o: &std::process::Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn replay_page_holds_every_position_of_the_game_and_nothing_from_outside() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let run_s = run.to_str().unwrap();
    let args = "match --game baghchal --p1 random --p2 random --games 2 --seed 5 --threads 1";
    let args: Vec<&str> = args
        .split(' ')
        .chain(["--record", "--quiet", "--out", run_s])
        .collect();
    ok(&cowrie(&args));
    let records = run.join("records.jsonl");
    let page_path = dir.path().join("game1.html");
    let o = cowrie(&[
        "replay",
        records.to_str().unwrap(),
        "--game-index",
        "1",
        "--quiet",
        "--html",
        page_path.to_str().unwrap(),
    ]);
    ok(&o);
    // The verification is unchanged.
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("game 1: verified"));
    let page = std::fs::read_to_string(&page_path).unwrap();
    for outside in ["src=", "<link", "url(", "https:", "import "] {
        assert!(
            !page.contains(outside),
            "the page refers outside: {outside}"
        );
    }
    let (frames, svgs) = page_frames(&page);
    let line = std::fs::read_to_string(&records)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    let rec: serde_json::Value = serde_json::from_str(&line).unwrap();
    let events = rec["events"].as_array().unwrap();
    assert_eq!(frames.len(), events.len() + 1);
    assert_eq!(frames[0]["caption"], "the start");
    // Baghchal has no chance: every event is a ply, captioned with its notation; the sides
    // alternate, so every ply begins a turn.
    for (n, (f, ev)) in frames[1..].iter().zip(events).enumerate() {
        let seat = ev["seat"].as_u64().unwrap();
        let side = if seat == 1 { "goats" } else { "tigers" };
        assert_eq!(
            f["caption"],
            format!(
                "ply {}: seat {seat} ({side}) plays {}",
                n + 1,
                ev["action"].as_str().unwrap()
            )
        );
        assert_eq!(f["ply"], n as u64 + 1);
        assert_eq!(f["turn"], n as u64 + 1);
    }
    for svg in &svgs {
        roxmltree::Document::parse(svg).unwrap();
    }
    let last = svgs.last().unwrap();
    assert!(last.contains("Game over: won by"), "{last}");
    assert!(page.contains(&format!("Result: game 1: verified, {} plies", rec["plies"])));
    // The run's index links its plot and summaries.
    let index = std::fs::read_to_string(run.join("index.html")).unwrap();
    for name in [
        "lengths.svg",
        "summary.csv",
        "games.csv",
        "manifest.json",
        "records.jsonl",
    ] {
        assert!(
            index.contains(&format!("href=\"{name}\"")),
            "{name} not in {index}"
        );
    }
    // One page is one game.
    refused(
        &cowrie(&[
            "replay",
            records.to_str().unwrap(),
            "--html",
            page_path.to_str().unwrap(),
        ]),
        "--game-index",
    );
}

#[test]
fn show_refuses_bad_input_and_draws_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b.svg");
    let out_s = out.to_str().unwrap();
    refused(
        &cowrie(&[
            "show",
            "--game",
            "baghchal",
            "--position",
            "TTTT",
            "--out",
            out_s,
        ]),
        "TTTT",
    );
    refused(
        &cowrie(&["show", "--game", "chess", "--out", out_s]),
        "chess",
    );
    refused(
        &cowrie(&[
            "show",
            "--game",
            "bargese",
            "--variant",
            "nope",
            "--out",
            out_s,
        ]),
        "nope",
    );
    for game in ["baghchal", "frangieh", "julbahar", "bargese"] {
        ok(&cowrie(&["show", "--game", game, "--out", out_s]));
        let svg = std::fs::read_to_string(&out).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert_eq!(doc.root_element().tag_name().name(), "svg");
    }
}

#[test]
fn replay_plies_lists_every_ply_with_the_positions_around_it() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let args =
        "match --game frangieh --variant modern --p1 heuristic --p2 random --games 2 --seed 3";
    let args: Vec<&str> = args
        .split(' ')
        .chain(["--record", "--quiet", "--out", run.to_str().unwrap()])
        .collect();
    ok(&cowrie(&args));
    let plies = dir.path().join("plies.jsonl");
    let records = run.join("records.jsonl");
    let o = cowrie(&[
        "replay",
        records.to_str().unwrap(),
        "--quiet",
        "--plies",
        plies.to_str().unwrap(),
    ]);
    ok(&o);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&plies)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (_, rows) = common::read_rows(&run.join("games.csv"));
    let total: u64 = rows.iter().map(|r| r[14].parse::<u64>().unwrap()).sum();
    assert_eq!(lines.len() as u64, total, "one line per ply of the games");
    for w in lines.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if a["game_index"] != b["game_index"] {
            assert_eq!(b["ply"], 1);
            continue;
        }
        assert_eq!(b["ply"].as_u64().unwrap(), a["ply"].as_u64().unwrap() + 1);
        // Between two plies only the dice are thrown: the board and the player to roll after
        // one ply are the board and the player of the next.
        let board = |v: &serde_json::Value| {
            let t: Vec<String> = v.as_str().unwrap().split(' ').map(str::to_string).collect();
            (t[0].clone(), t[1].clone())
        };
        assert_eq!(board(&a["after"]), board(&b["before"]), "{a} {b}");
    }
    // Each line names the agent of its seat: the pair's second game swaps the seats.
    for l in &lines {
        let heuristic_seat = if l["game_index"] == 0 { 1 } else { 2 };
        let want = if l["seat"] == heuristic_seat {
            "heuristic:temperature=0"
        } else {
            "random"
        };
        assert_eq!(l["agent"], want, "{l}");
    }
    // The first ply of game 0 starts from the rules' start with the opening dice to play.
    assert!(lines[0]["before"]
        .as_str()
        .unwrap()
        .starts_with("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 "));
}

#[test]
fn a_recorded_julbahar_match_makes_a_small_page_with_the_start_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let args = "match --game julbahar --p1 random --p2 random --games 1 --seed 3 --threads 1";
    let args: Vec<&str> = args
        .split(' ')
        .chain(["--record", "--quiet", "--out", run.to_str().unwrap()])
        .collect();
    ok(&cowrie(&args));
    let page_path = dir.path().join("match.html");
    let records = run.join("records.jsonl");
    ok(&cowrie(&[
        "replay",
        records.to_str().unwrap(),
        "--quiet",
        "--html",
        page_path.to_str().unwrap(),
    ]));
    let page = std::fs::read_to_string(&page_path).unwrap();
    // A full diagram per frame made such a page tens of megabytes.
    assert!(page.len() < 2 << 20, "{} bytes", page.len());
    let (frames, svgs) = page_frames(&page);
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&records).unwrap()).unwrap();
    assert_eq!(frames.len(), rec["events"].as_array().unwrap().len() + 1);
    // The start (docs/rules/julbahar.md): each player's fifteen checkers on the first point of
    // its track, X's on the tables point 24 (bottom right), O's on point 1 (top right).
    let start = roxmltree::Document::parse(&svgs[0]).unwrap();
    let stacks: Vec<(String, String, usize)> = start
        .descendants()
        .filter(|n| n.attribute("class") == Some("stack"))
        .map(|n| {
            let checkers: Vec<_> = n
                .children()
                .filter(|c| {
                    c.attribute("class")
                        .is_some_and(|k| k.starts_with("checker"))
                })
                .collect();
            (
                n.attribute("data-point").unwrap().to_string(),
                checkers[0].attribute("class").unwrap().to_string(),
                checkers.len(),
            )
        })
        .collect();
    let mut want = vec![
        ("24".to_string(), "checker p1".to_string(), 5),
        ("1".to_string(), "checker p2".to_string(), 5),
    ];
    want.sort();
    let mut got = stacks.clone();
    got.sort();
    assert_eq!(got, want, "{}", svgs[0]);
    assert_eq!(
        start
            .descendants()
            .filter(|n| n.attribute("data-what") == Some("15 checkers"))
            .count(),
        2
    );
    // Later frames redraw the pieces over the same board: the last shows the end.
    assert!(
        svgs.last().unwrap().contains(" over: "),
        "{}",
        svgs.last().unwrap()
    );
}
