//! `cowrie play`: the page's JSON API over real HTTP (the binary on port 0, requests over a
//! plain TCP stream), the line mode through piped stdin, and the refusals.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use common::{cowrie, refused};
use serde_json::{json, Value};

/// A `cowrie play` server, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cowrie"))
            .args(["play", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("an address on stdout, not {line:?}"))
            .to_string();
        assert!(addr.starts_with("127.0.0.1:"), "{addr}");
        Server { child, addr }
    }

    /// One request: the status and the body.
    fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.addr,
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        // A server may answer a body it refuses before reading it all.
        let _ = s.write_all(body);
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).unwrap();
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8_lossy(&raw[..split]).to_string();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, raw[split + 4..].to_vec())
    }

    fn json(&self, method: &str, path: &str, body: &Value) -> (u16, Value) {
        let bytes = if body.is_null() {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        let (status, body) = self.request(method, path, &bytes);
        (
            status,
            serde_json::from_slice(&body).expect("a JSON answer"),
        )
    }

    fn state(&self, game: u64) -> Value {
        let (status, v) = self.json("GET", &format!("/api/state?game={game}"), &Value::Null);
        assert_eq!(status, 200, "{v}");
        v
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Asserts a refusal: the status, and one line of JSON naming `needle`.
fn refusal(answer: (u16, Value), status: u16, needle: &str) {
    assert_eq!(answer.0, status, "{}", answer.1);
    let text = answer.1["error"].as_str().expect("an error field");
    assert!(!text.contains('\n') && text.contains(needle), "{text}");
}

#[test]
fn a_whole_game_over_http_replays_and_its_chance_is_the_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&["--game", "frangieh", "--agent", "random", "--seed", "4"]);
    let (status, page) = server.request("GET", "/", b"");
    let page = String::from_utf8(page).unwrap();
    assert_eq!(status, 200);
    assert!(page.contains("/api/move") && !page.contains("src=\"http"));
    let (status, mut s) = server.json("POST", "/api/new", &json!({}));
    assert_eq!(status, 200, "{s}");
    let id = s["game"].as_u64().unwrap();
    // The opening throws are drawn from the run seed's chance stream of pair 0: the chance
    // outcomes before the first ply of `cowrie match`'s game 0 under the same seed.
    let run = dir.path().join("m");
    let o = cowrie(&[
        "match",
        "--game",
        "frangieh",
        "--p1",
        "random",
        "--p2",
        "random",
        "--games",
        "1",
        "--no-swap",
        "--seed",
        "4",
        "--record",
        "--quiet",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let rec: Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("records.jsonl")).unwrap()).unwrap();
    let opening: Vec<&Value> = rec["events"]
        .as_array()
        .unwrap()
        .iter()
        .take_while(|e| e.get("chance").is_some())
        .collect();
    let ours: Vec<&Value> = s["events"]
        .as_array()
        .unwrap()
        .iter()
        .take_while(|e| e["kind"] == "chance")
        .collect();
    assert!(!opening.is_empty());
    assert_eq!(
        opening.iter().map(|e| &e["chance"]).collect::<Vec<_>>(),
        ours.iter().map(|e| &e["text"]).collect::<Vec<_>>()
    );
    // Play the first legal move at every decision to the end; undo once on the way.
    let mut moves = 0;
    while s["your_turn"] == true {
        let mv = s["legal"][0].clone();
        let (status, next) = server.json(
            "POST",
            "/api/move",
            &json!({"game": id, "move": mv, "version": s["version"]}),
        );
        assert_eq!(status, 200, "{next}");
        moves += 1;
        if moves == 2 {
            let (status, back) = server.json(
                "POST",
                "/api/undo",
                &json!({"game": id, "version": next["version"]}),
            );
            assert_eq!(status, 200, "{back}");
            assert_eq!(back["position"], s["position"]);
            assert_eq!(back["events"], s["events"]);
            // The same move again draws the same dice and the same reply.
            let (_, again) = server.json(
                "POST",
                "/api/move",
                &json!({"game": id, "move": mv, "version": back["version"]}),
            );
            assert_eq!(again["position"], next["position"]);
            assert_eq!(again["events"], next["events"]);
            s = again;
        } else {
            s = next;
        }
    }
    assert_eq!(s["end_reason"], "win");
    assert!(s["legal"].as_array().unwrap().is_empty());
    let (status, record) = server.request("GET", &format!("/api/record?game={id}"), b"");
    assert_eq!(status, 200);
    let file = dir.path().join("records.jsonl");
    std::fs::write(&file, &record).unwrap();
    let o = cowrie(&["replay", file.to_str().unwrap(), "--quiet"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let plies = s["plies"].as_u64().unwrap();
    assert!(
        out.contains(&format!("game {id}: verified, {plies} plies, win")),
        "{out}"
    );
    // The page's board is the diagram `cowrie show` draws of the page's position.
    let svg = dir.path().join("show.svg");
    let pos = s["position"].as_str().unwrap();
    let o = cowrie(&[
        "show",
        "--game",
        "frangieh",
        "--position",
        pos,
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert_eq!(
        std::fs::read_to_string(&svg).unwrap(),
        s["svg"].as_str().unwrap()
    );
}

#[test]
fn bad_requests_are_refused_with_one_line_and_change_nothing() {
    let server = Server::start(&["--game", "baghchal", "--agent", "random"]);
    let (_, s) = server.json("POST", "/api/new", &Value::Null);
    let id = s["game"].as_u64().unwrap();
    let v = s["version"].as_u64().unwrap();
    // Baghchal's start: the goats place on any of the 21 empty points.
    assert_eq!(s["legal"].as_array().unwrap().len(), 21);
    let before = server.state(id);
    let cases: Vec<((u16, Value), u16, &str)> = vec![
        (
            server.json("POST", "/api/move", &json!({"game": id, "move": "a1"})),
            400,
            "'a1'",
        ),
        (
            server.json(
                "POST",
                "/api/move",
                &json!({"game": id, "move": "c3", "version": v + 1}),
            ),
            409,
            "stale",
        ),
        (
            server.json(
                "POST",
                "/api/move",
                &json!({"game": id + 100, "move": "c3"}),
            ),
            404,
            "unknown game",
        ),
        (
            {
                let (st, b) = server.request("POST", "/api/move", b"{\"game\": ");
                (st, serde_json::from_slice(&b).unwrap())
            },
            400,
            "not a request",
        ),
        (
            {
                let big = format!("{{\"game\":{id},\"move\":\"{}\"}}", "x".repeat(70_000));
                let (st, b) = server.request("POST", "/api/move", big.as_bytes());
                (st, serde_json::from_slice(&b).unwrap())
            },
            413,
            "65536",
        ),
        (
            server.json("POST", "/api/move", &json!({"game": id, "mv": "c3"})),
            400,
            "not a request",
        ),
        (
            server.json("POST", "/api/undo", &json!({"game": id})),
            409,
            "nothing to undo",
        ),
        (
            server.json("GET", "/api/state?game=x", &Value::Null),
            400,
            "not a game id",
        ),
        (server.json("GET", "/api/move", &Value::Null), 405, "GET"),
        (
            server.json("POST", "/api/new", &json!({"seat": 3})),
            400,
            "seat 3",
        ),
    ];
    for (answer, status, needle) in cases {
        refusal(answer, status, needle);
        assert_eq!(server.state(id), before);
    }
    // At most 16 games are held: the 17th new game drops the least recently used.
    for _ in 0..16 {
        assert_eq!(server.json("POST", "/api/new", &json!({})).0, 200);
    }
    refusal(
        server.json("GET", &format!("/api/state?game={id}"), &Value::Null),
        404,
        "dropped",
    );
}

#[test]
fn the_rules_are_listed_with_what_set_each_option_and_its_source() {
    let server = Server::start(&[
        "--game",
        "baghchal",
        "--variant",
        "averbakh-1995",
        "--option",
        "ply-cap=80",
        "--agent",
        "random",
    ]);
    let (status, r) = server.json("GET", "/api/rules", &Value::Null);
    assert_eq!(status, 200);
    let row = |k: &str| {
        r["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["key"] == k)
            .unwrap()
            .clone()
    };
    assert_eq!(row("win-captures")["value"], "6");
    assert_eq!(row("win-captures")["set_by"], "variant averbakh-1995");
    assert_eq!(row("ply-cap")["set_by"], "--option");
    assert!(row("ply-cap")["source"].as_str().unwrap().len() > 10);
}

#[test]
fn td_gives_an_equity_per_legal_move() {
    let server = Server::start(&["--game", "frangieh", "--agent", "td", "--seed", "2"]);
    let (_, s) = server.json("POST", "/api/new", &json!({}));
    let legal = s["legal"].as_array().unwrap().len();
    let a = &s["analysis"];
    assert_eq!(a["label"], "equity");
    assert_eq!(a["values"].as_array().unwrap().len(), legal);
    for n in a["numbers"].as_array().unwrap() {
        assert!(n.as_f64().unwrap().abs() <= 3.0, "{n}");
    }
    let server = Server::start(&["--game", "frangieh", "--agent", "random"]);
    let (_, s) = server.json("POST", "/api/new", &json!({}));
    assert!(s["analysis"].is_null());
}

/// Runs the line mode with `input` on stdin.
fn line_mode(args: &[&str], input: &str) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cowrie"))
        .args(["play", "--line"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status, String::from_utf8(out.stdout).unwrap())
}

#[test]
fn the_line_mode_plays_undoes_and_begins_anew() {
    let (status, out) = line_mode(
        &["--game", "baghchal", "--agent", "random"],
        "99\nc3\nundo\n2\nrules\nnew\nquit\n",
    );
    assert!(status.success());
    // The 21 empty points of the start, numbered.
    assert!(out.contains("21 legal moves"), "{out}");
    assert!(out.contains("   21. "), "{out}");
    assert!(out.contains("error: no move numbered 99 (the moves are numbered 1 to 21)"));
    assert!(out.contains("seat 1 (you) plays c3"), "{out}");
    assert!(out.contains("undone: back to your previous decision"));
    assert!(out.contains("win-captures=5 (default)"), "{out}");
    assert!(out.contains("game 1: baghchal five-captures"), "{out}");
    // A whole Frangieh game by the first move each time, to its end.
    let (status, out) = line_mode(
        &["--game", "frangieh", "--agent", "random", "--seed", "3"],
        &"1\n".repeat(400),
    );
    assert!(status.success());
    assert!(out.contains("game over after"), "{out}");
}

#[test]
fn the_line_mode_lists_the_moves_that_begin_as_typed() {
    // Typing the beginning of a move lists the moves that begin so.
    let (status, out) = line_mode(
        &["--game", "frangieh", "--agent", "random", "--seed", "3"],
        "13/\n",
    );
    assert!(status.success());
    let after = out.split_once("> ").unwrap().1;
    let listed: Vec<&str> = after
        .split("> ")
        .next()
        .unwrap()
        .lines()
        .filter(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .collect();
    assert!(!listed.is_empty(), "{out}");
    for l in listed {
        let mv = l.split_once(". ").unwrap().1;
        assert!(mv.starts_with("13/"), "{l}");
    }
}

#[test]
fn bad_ports_and_agents_are_refused() {
    refused(
        &cowrie(&[
            "play", "--game", "baghchal", "--agent", "random", "--port", "70000",
        ]),
        "70000",
    );
    refused(
        &cowrie(&[
            "play", "--game", "baghchal", "--agent", "random", "--port", "abc",
        ]),
        "abc",
    );
    refused(
        &cowrie(&["play", "--game", "baghchal", "--agent", "mcts:iterations=0"]),
        "iterations",
    );
    refused(
        &cowrie(&["play", "--game", "chess", "--agent", "random", "--line"]),
        "chess",
    );
    // A port another server holds.
    let server = Server::start(&["--game", "baghchal", "--agent", "random"]);
    let port = server.addr.rsplit(':').next().unwrap();
    refused(
        &cowrie(&[
            "play", "--game", "baghchal", "--agent", "random", "--port", port,
        ]),
        &format!("127.0.0.1:{port}"),
    );
}
