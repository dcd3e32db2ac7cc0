//! The play page's HTTP server (tiny_http, one thread, 127.0.0.1 only): the page and a JSON API
//! over the games in play, at most [`MAX_GAMES`] of them (the least recently used is dropped).
//! Every refusal is a 4xx with one line of JSON, `{"error": "..."}`, and changes no game.
//! `docs/play.md` documents the API.

use std::io::Read;
use std::time::Duration;

use anyhow::Context;
use cowrie_agents::Evaluate;
use cowrie_engine::Player;
use serde::{Deserialize, Serialize};
use tiny_http::{Header, Method, Request, Response, Server};

use crate::games::Report;
use crate::pages::board::Draw;
use crate::play::rules_table::RulesTable;
use crate::play::session::{Session, Setup};
use crate::play::view::StateView;

/// The most games held at once.
pub const MAX_GAMES: usize = 16;

/// The largest request body read, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// The page: HTML, style and script in one file, nothing fetched from elsewhere.
const PAGE: &str = include_str!("page.html");

/// A refused request: its status and one line saying why.
#[derive(Debug)]
pub struct Refusal {
    /// The HTTP status (4xx).
    pub status: u16,
    /// Why, in one line.
    pub message: String,
}

fn refuse(status: u16, message: impl Into<String>) -> Refusal {
    Refusal {
        status,
        message: message.into(),
    }
}

/// An answer: its status, content type and body, and the file name a download should take.
struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    download: Option<&'static str>,
}

impl Reply {
    fn json<T: Serialize>(value: &T) -> Reply {
        Reply {
            status: 200,
            content_type: "application/json",
            body: serde_json::to_vec(value).expect("a reply serialises"),
            download: None,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewBody {
    /// The person's seat, 1 or 2 (default: the last game's, at first the command's `--seat`).
    seat: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameBody {
    game: u64,
    version: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    game: u64,
    #[serde(rename = "move")]
    mv: String,
    version: Option<u64>,
}

/// The games in play and what they share.
pub struct Games<G: Evaluate> {
    setup: Setup<G>,
    rules: RulesTable,
    /// The games held, the most recently used last.
    held: Vec<Session<G>>,
    /// The index the next new game takes.
    next: u64,
    /// The seat of the person in the next new game.
    seat: Player,
}

impl<G: Evaluate + Report + Draw> Games<G> {
    /// No games yet; new games are of `setup`, the person in seat `seat`.
    #[must_use]
    pub fn new(setup: Setup<G>, rules: RulesTable, seat: Player) -> Games<G> {
        Games {
            setup,
            rules,
            held: Vec::new(),
            next: 0,
            seat,
        }
    }

    /// The view of the most recently used game.
    fn last_view(&self) -> Result<Reply, Refusal> {
        let s = self.held.last().expect("a game was just used");
        let view = StateView::of(s, &self.setup).map_err(|e| refuse(500, format!("{e:#}")))?;
        Ok(Reply::json(&view))
    }

    /// The game `id`, made the most recently used.
    fn game(&mut self, id: u64) -> Result<&mut Session<G>, Refusal> {
        let i = self.held.iter().position(|s| s.index == id).ok_or_else(|| {
            refuse(
                404,
                format!(
                    "unknown game {id}: never begun, or dropped (at most {MAX_GAMES} games are kept)"
                ),
            )
        })?;
        let s = self.held.remove(i);
        self.held.push(s);
        Ok(self.held.last_mut().expect("just pushed"))
    }

    /// Answers one request (`method`, `url` with its query, the body read).
    fn answer(&mut self, method: &Method, url: &str, body: &[u8]) -> Result<Reply, Refusal> {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        match (method, path) {
            (Method::Get, "/") => Ok(Reply {
                status: 200,
                content_type: "text/html; charset=utf-8",
                body: PAGE.as_bytes().to_vec(),
                download: None,
            }),
            (Method::Get, "/api/rules") => Ok(Reply::json(&self.rules)),
            (Method::Get, "/api/state") => {
                self.game(game_param(query)?)?;
                self.last_view()
            }
            (Method::Get, "/api/record") => {
                self.game(game_param(query)?)?;
                let record = self.held.last().expect("just used").record(&self.setup);
                Ok(Reply {
                    status: 200,
                    content_type: "application/x-ndjson",
                    body: record.into_bytes(),
                    download: Some("records.jsonl"),
                })
            }
            (Method::Post, "/api/new") => {
                let b: NewBody = if body.iter().all(u8::is_ascii_whitespace) {
                    NewBody { seat: None }
                } else {
                    parse(body)?
                };
                if let Some(seat) = b.seat {
                    self.seat = match seat {
                        1 => Player::ONE,
                        2 => Player::TWO,
                        _ => return Err(refuse(400, format!("seat {seat}: write 1 or 2"))),
                    };
                }
                let s = Session::new(&self.setup, self.next, self.seat)
                    .map_err(|e| refuse(500, format!("{e:#}")))?;
                self.next += 1;
                if self.held.len() == MAX_GAMES {
                    self.held.remove(0);
                }
                self.held.push(s);
                self.last_view()
            }
            (Method::Post, "/api/move") => {
                let b: MoveBody = parse(body)?;
                let s = self.game(b.game)?;
                check_version(s, b.version)?;
                s.play(&b.mv).map_err(|e| {
                    let status = if s.human_to_act() { 400 } else { 409 };
                    refuse(status, format!("{e:#}"))
                })?;
                self.last_view()
            }
            (Method::Post, "/api/undo") => {
                let b: GameBody = parse(body)?;
                let s = self.game(b.game)?;
                check_version(s, b.version)?;
                s.undo().map_err(|e| refuse(409, format!("{e:#}")))?;
                self.last_view()
            }
            (
                _,
                "/" | "/api/rules" | "/api/state" | "/api/record" | "/api/new" | "/api/move"
                | "/api/undo",
            ) => Err(refuse(405, format!("{method} is not accepted at {path}"))),
            _ => Err(refuse(404, format!("no page at {path}"))),
        }
    }
}

/// A request naming a version other than the game's is stale: the game changed since the
/// page last saw it (another tab, an undo).
fn check_version<G: Evaluate>(s: &Session<G>, version: Option<u64>) -> Result<(), Refusal> {
    match version {
        Some(v) if v != s.version => Err(refuse(
            409,
            format!(
                "stale request: game {} is at version {}, the request names version {v}; reload it",
                s.index, s.version
            ),
        )),
        _ => Ok(()),
    }
}

/// The `game=ID` of a query string.
fn game_param(query: &str) -> Result<u64, Refusal> {
    let text = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("game="))
        .ok_or_else(|| refuse(400, "name the game: ?game=ID"))?;
    text.parse().map_err(|_| {
        refuse(
            400,
            format!("game {}: not a game id", crate::args::quote(text)),
        )
    })
}

/// A JSON body as `T`.
fn parse<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, Refusal> {
    serde_json::from_slice(body).map_err(|e| {
        refuse(
            400,
            format!("not a request of this API: {}", crate::args::json_error(e)),
        )
    })
}

/// Reads a request's body, refusing one over [`MAX_BODY`] bytes.
fn read_body(req: &mut Request) -> Result<Vec<u8>, Refusal> {
    let too_large = || refuse(413, format!("request body over {MAX_BODY} bytes"));
    if req.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    let limit = u64::try_from(MAX_BODY).unwrap_or(u64::MAX) + 1;
    req.as_reader()
        .take(limit)
        .read_to_end(&mut body)
        .map_err(|e| refuse(400, format!("cannot read the request body: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(too_large());
    }
    Ok(body)
}

fn respond(req: Request, reply: Reply) {
    let mut r = Response::from_data(reply.body).with_status_code(reply.status);
    let headers = [
        ("Content-Type", reply.content_type.to_string()),
        ("Cache-Control", "no-store".to_string()),
        (
            "Content-Security-Policy",
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'".to_string(),
        ),
    ];
    for (k, v) in headers {
        if let Ok(h) = Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            r.add_header(h);
        }
    }
    if let Some(name) = reply.download {
        if let Ok(h) = Header::from_bytes(
            &b"Content-Disposition"[..],
            format!("attachment; filename=\"{name}\"").as_bytes(),
        ) {
            r.add_header(h);
        }
    }
    // A client gone before the answer is no error of the server's.
    let _ = req.respond(r);
}

/// Serves `games` on 127.0.0.1:`port` (0: any free port), printing the page's address on
/// stdout, until SIGINT.
///
/// # Errors
/// A port that cannot be listened on; [`crate::interrupt::Interrupted`] on SIGINT.
pub fn serve<G: Evaluate + Report + Draw>(mut games: Games<G>, port: u16) -> anyhow::Result<()> {
    let server = Server::http(("127.0.0.1", port))
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| format!("cannot listen on 127.0.0.1:{port}"))?;
    let addr = server
        .server_addr()
        .to_ip()
        .context("the server has no IP address")?;
    crate::output::print_stdout(&format!("http://{addr}/\n"))?;
    loop {
        if crate::interrupt::requested() {
            return Err(crate::interrupt::Interrupted {
                message: "cowrie play: stopped".to_string(),
                written: 0,
            }
            .into());
        }
        let Some(mut req) = server
            .recv_timeout(Duration::from_millis(200))
            .context("receiving a request")?
        else {
            continue;
        };
        let reply = read_body(&mut req).and_then(|body| {
            let method = req.method().clone();
            let url = req.url().to_string();
            games.answer(&method, &url, &body)
        });
        let reply = reply.unwrap_or_else(|r| Reply {
            status: r.status,
            content_type: "application/json",
            body: (serde_json::json!({ "error": r.message.replace('\n', " ") }).to_string() + "\n")
                .into_bytes(),
            download: None,
        });
        respond(req, reply);
    }
}

impl<G: Evaluate> std::fmt::Debug for Games<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Games")
            .field("held", &self.held.len())
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}
