//! `external:cmd=...`: an agent played by another program, spoken to over JSON lines on its
//! standard input and output (the protocol is written out in `docs/agents.md`).
//!
//! The program is started at the agent's first decision with a choice and lives for one game.
//! It first receives a `hello` line (protocol version, game, variant, resolved options, its
//! seat, a seed drawn from the agent's stream); then, at every decision with more than one
//! legal action, a `move` line (position notation, player, roll, the legal actions in the
//! game's notation and the position after each), to which it answers one line
//! `{"action": "<one of the actions>"}`. At the end of the game its standard input is closed
//! and the process is ended.
//!
//! A program that exits or fails to start ([`ForfeitReason::Crash`]), does not answer within
//! the per-move timeout ([`ForfeitReason::Timeout`]), or answers something that is not one of
//! the legal actions or a line longer than [`MAX_ANSWER_LINE`] bytes ([`ForfeitReason::Illegal`];
//! no more than that is ever read of a line) forfeits the game: [`Agent::try_choose`]
//! returns the [`Forfeit`], which the runner records as the game's end. Its standard error
//! goes to the file the spec names (the run directory's `external/` when run by `cowrie`),
//! with the forfeit's reason appended; the file is removed at the end of the game if empty.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use cowrie_engine::{quote_input, Player, RuleSet, ToAct};
use rand::RngCore;
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use crate::agent::{Agent, Forfeit, ForfeitReason};
use crate::evaluate::Evaluate;
use crate::spec::{ExternalParams, SpecError};

/// The protocol version sent in the `hello` line.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest answer line read from a program, its `\n` not counted: 1 MiB. An answer is one
/// short JSON object; a longer line is a forfeit, and no more than this is held in memory.
pub const MAX_ANSWER_LINE: usize = 1 << 20;

/// One line of a program's output, as its reader thread reads it.
enum Reply {
    /// A line, without its `\n` (or `\r\n`).
    Line(String),
    /// A line longer than [`MAX_ANSWER_LINE`] bytes (its first that many and one were read).
    TooLong,
    /// Unreadable output (not UTF-8, or a read error).
    Failed(std::io::Error),
}

/// The next line of `out`, reading at most [`MAX_ANSWER_LINE`] bytes and one past its start;
/// `None` at the end of the output. A last line without `\n` is a line.
fn next_reply(out: &mut impl BufRead) -> Option<Reply> {
    let mut line = Vec::new();
    let limit = MAX_ANSWER_LINE as u64 + 1;
    match out.take(limit).read_until(b'\n', &mut line) {
        Ok(0) => None,
        Err(e) => Some(Reply::Failed(e)),
        Ok(_) => {
            if line.last() == Some(&b'\n') {
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
            } else if line.len() > MAX_ANSWER_LINE {
                return Some(Reply::TooLong);
            }
            Some(String::from_utf8(line).map_or_else(
                |_| {
                    Reply::Failed(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        "stream did not contain valid UTF-8",
                    ))
                },
                Reply::Line,
            ))
        }
    }
}

/// The running program and the reader of its answers.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Reply>,
}

/// An agent played by an external program (see the module documentation).
pub struct ExternalAgent {
    params: ExternalParams,
    argv: Vec<String>,
    rng: ChaCha8Rng,
    process: Option<Process>,
    forfeited: Option<Forfeit>,
}

impl std::fmt::Debug for ExternalAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExternalAgent")
            .field("params", &self.params)
            .field("running", &self.process.is_some())
            .finish_non_exhaustive()
    }
}

impl Clone for ExternalAgent {
    /// A fresh agent with the same spec and stream; the copy starts its own program.
    fn clone(&self) -> Self {
        ExternalAgent {
            params: self.params.clone(),
            argv: self.argv.clone(),
            rng: self.rng.clone(),
            process: None,
            forfeited: None,
        }
    }
}

/// Splits a command into its words as a POSIX shell would (quotes and backslashes), and checks
/// that the program can be found.
///
/// # Errors
/// [`SpecError::Program`] naming the command: empty, unbalanced quotes, or no such program.
pub fn command_words(cmd: &str) -> Result<Vec<String>, SpecError> {
    let bad = |reason: &str| SpecError::Program {
        cmd: cmd.to_string(),
        reason: reason.to_string(),
    };
    let words = shlex::split(cmd).ok_or_else(|| bad("unbalanced quotes"))?;
    let program = words.first().ok_or_else(|| bad("no program given"))?;
    let found = if program.contains('/') {
        Path::new(program).is_file()
    } else {
        std::env::var_os("PATH").is_some_and(|paths| {
            std::env::split_paths(&paths).any(|dir| dir.join(program).is_file())
        })
    };
    if !found {
        return Err(bad(&format!("program '{program}' not found")));
    }
    Ok(words)
}

impl ExternalAgent {
    /// An external agent for `params`, drawing the seed it sends from `rng`.
    ///
    /// # Errors
    /// As [`command_words`].
    pub fn new(params: &ExternalParams, rng: ChaCha8Rng) -> Result<Self, SpecError> {
        Ok(ExternalAgent {
            argv: command_words(&params.cmd)?,
            params: params.clone(),
            rng,
            process: None,
            forfeited: None,
        })
    }

    /// The forfeit of this game, if the program forfeited it.
    #[must_use]
    pub fn forfeited(&self) -> Option<&Forfeit> {
        self.forfeited.as_ref()
    }

    fn stderr_target(&self) -> std::io::Result<Stdio> {
        match &self.params.stderr {
            None => Ok(Stdio::inherit()),
            Some(path) => {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                Ok(Stdio::from(File::create(path)?))
            }
        }
    }

    fn start(&mut self, hello: &serde_json::Value) -> Result<(), String> {
        let stderr = self
            .stderr_target()
            .map_err(|e| format!("cannot open the stderr file: {e}"))?;
        let mut child = Command::new(&self.argv[0])
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", self.params.cmd))?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            while let Some(reply) = next_reply(&mut out) {
                let end = !matches!(reply, Reply::Line(_));
                if tx.send(reply).is_err() || end {
                    return;
                }
            }
        });
        self.process = Some(Process {
            child,
            stdin,
            lines: rx,
        });
        self.send(hello)
    }

    fn send(&mut self, message: &serde_json::Value) -> Result<(), String> {
        let p = self.process.as_mut().ok_or("the program is not running")?;
        let mut line = message.to_string();
        line.push('\n');
        p.stdin
            .write_all(line.as_bytes())
            .and_then(|()| p.stdin.flush())
            .map_err(|e| format!("cannot write to the program: {e}"))
    }

    fn exit_status(&mut self) -> String {
        let Some(p) = self.process.as_mut() else {
            return String::new();
        };
        // Give a program that is exiting a moment to finish, so its status can be reported.
        for _ in 0..20 {
            if let Ok(Some(status)) = p.child.try_wait() {
                return format!(" ({status})");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        String::new()
    }

    fn fail(&mut self, reason: ForfeitReason, detail: String) -> Forfeit {
        let f = Forfeit { reason, detail };
        if let Some(path) = &self.params.stderr {
            if let Ok(mut file) = std::fs::OpenOptions::new().append(true).open(path) {
                let _ = writeln!(file, "cowrie: {}: {}", reason.as_str(), f.detail);
            }
        }
        self.stop();
        self.forfeited = Some(f.clone());
        f
    }

    fn stop(&mut self) {
        if let Some(mut p) = self.process.take() {
            drop(p.stdin);
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
    }

    fn ask<G: Evaluate>(&mut self, state: &G, legal: &[G::Action]) -> Result<G::Action, Forfeit> {
        let ToAct::Decision(me) = state.to_act() else {
            return Err(self.fail(
                ForfeitReason::Crash,
                "asked at a node that is not a decision".into(),
            ));
        };
        let texts: Vec<String> = legal.iter().map(|&a| state.action_to_string(a)).collect();
        if self.process.is_none() {
            let hello = hello(state, me, self.rng.next_u64());
            if let Err(e) = self.start(&hello) {
                return Err(self.fail(ForfeitReason::Crash, e));
            }
        }
        let after: Vec<String> = legal
            .iter()
            .map(|&a| {
                let mut s = state.clone();
                s.play_unchecked(a);
                s.notation()
            })
            .collect();
        let request = json!({
            "type": "move",
            "position": state.notation(),
            "player": me.seat(),
            "roll": state.roll_text(),
            "ply": state.plies(),
            "actions": texts,
            "after": after,
        });
        if let Err(e) = self.send(&request) {
            let status = self.exit_status();
            return Err(self.fail(ForfeitReason::Crash, format!("{e}{status}")));
        }
        let timeout = Duration::from_millis(self.params.timeout_ms);
        let answer = match self.process.as_ref().map(|p| p.lines.recv_timeout(timeout)) {
            Some(Ok(Reply::Line(line))) => line,
            Some(Ok(Reply::TooLong)) => {
                return Err(self.fail(
                    ForfeitReason::Illegal,
                    format!(
                        "an answer line longer than {MAX_ANSWER_LINE} bytes (1 MiB, the most read) at '{}'",
                        state.notation()
                    ),
                ));
            }
            Some(Err(RecvTimeoutError::Timeout)) => {
                let ms = self.params.timeout_ms;
                return Err(self.fail(
                    ForfeitReason::Timeout,
                    format!("no answer within {ms} ms at '{}'", state.notation()),
                ));
            }
            Some(Ok(Reply::Failed(e))) => {
                return Err(self.fail(ForfeitReason::Crash, format!("cannot read its output: {e}")))
            }
            Some(Err(RecvTimeoutError::Disconnected)) | None => {
                let status = self.exit_status();
                return Err(self.fail(
                    ForfeitReason::Crash,
                    format!("the program closed its output{status}"),
                ));
            }
        };
        let chosen = serde_json::from_str::<serde_json::Value>(&answer)
            .ok()
            .and_then(|v| v.get("action").and_then(|a| a.as_str()).map(str::to_string));
        let Some(chosen) = chosen else {
            return Err(self.fail(
                ForfeitReason::Illegal,
                format!(
                    "answer {} is not a line {{\"action\": \"...\"}}",
                    quote_input(&answer)
                ),
            ));
        };
        if let Some(i) = texts.iter().position(|t| *t == chosen) {
            return Ok(legal[i]);
        }
        // Another spelling of a legal action (the game's parser reads it) is accepted too.
        if let Ok(a) = state.parse_action(&chosen) {
            if legal.contains(&a) {
                return Ok(a);
            }
        }
        Err(self.fail(
            ForfeitReason::Illegal,
            format!(
                "{} is not a legal action at '{}'",
                quote_input(&chosen),
                state.notation()
            ),
        ))
    }
}

/// The named variant whose rules equal `rules`, if any.
#[must_use]
pub fn variant_name<G: cowrie_engine::Game>(rules: &G::Rules) -> Option<&'static str> {
    G::Rules::variants()
        .iter()
        .find(|v| G::Rules::variant(v.name).is_ok_and(|r| r == *rules))
        .map(|v| v.name)
}

/// The `hello` line: protocol, game, variant (a named variant whose rules equal these, else
/// null), resolved options, the agent's seat and a seed.
fn hello<G: Evaluate>(state: &G, me: Player, seed: u64) -> serde_json::Value {
    let rules = state.rules();
    let variant = variant_name::<G>(rules);
    let options: serde_json::Map<String, serde_json::Value> = rules
        .resolved()
        .into_iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::String(v)))
        .collect();
    json!({
        "type": "hello",
        "protocol": "cowrie-agent",
        "version": PROTOCOL_VERSION,
        "game": G::NAME,
        "variant": variant,
        "options": options,
        "seat": me.seat(),
        "seed": seed,
    })
}

impl Drop for ExternalAgent {
    fn drop(&mut self) {
        self.stop();
        if let Some(path) = &self.params.stderr {
            if std::fs::metadata(path).is_ok_and(|m| m.len() == 0) {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

impl<G: Evaluate> Agent<G> for ExternalAgent {
    /// # Panics
    /// If the program forfeits: callers that can record a forfeit use [`Agent::try_choose`].
    fn choose(&mut self, state: &G, legal: &[G::Action]) -> G::Action {
        match <Self as Agent<G>>::try_choose(self, state, legal) {
            Ok(a) => a,
            Err(f) => panic!(
                "external agent forfeited: {}: {}",
                f.reason.as_str(),
                f.detail
            ),
        }
    }

    fn try_choose(&mut self, state: &G, legal: &[G::Action]) -> Result<G::Action, Forfeit> {
        if let Some(f) = &self.forfeited {
            return Err(f.clone());
        }
        if legal.len() == 1 {
            return Ok(legal[0]);
        }
        self.ask(state, legal)
    }
}

/// Where the runner keeps an external agent's standard error: `DIR/external/game-I-seatS.stderr`.
#[must_use]
pub fn stderr_path(dir: &Path, game_index: u64, seat: u8) -> PathBuf {
    dir.join("external")
        .join(format!("game-{game_index}-seat{seat}.stderr"))
}
