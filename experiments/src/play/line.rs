//! The line mode of `cowrie play --line`, for a terminal without a browser: the position as
//! text, the legal moves numbered, and one command a line — a move's number, a move in
//! notation (or its beginning, to list the moves that begin so), `moves`, `rules`, `undo`,
//! `new`, `quit`.

use std::fmt::Write as _;
use std::io::{BufRead, Write};

use anyhow::Context;
use cowrie_agents::Evaluate;
use cowrie_engine::Player;

use crate::games::Report;
use crate::pages::board::Draw;
use crate::play::rules_table::RulesTable;
use crate::play::session::{Session, Setup};
use crate::run::selfplay::Event;

/// At most this many legal moves are listed unasked; longer lists wait for `moves` or the
/// beginning of a move.
pub const LIST_MAX: usize = 40;

/// The commands, as the help line lists them.
const HELP: &str =
    "type a move's number, a move (or its beginning, to list the moves that begin so), \
                    moves, rules, undo, new or quit";

struct Lines<'a, G: Evaluate, W: Write> {
    setup: &'a Setup<G>,
    rules: &'a RulesTable,
    out: W,
    session: Session<G>,
    /// Events already printed.
    shown: usize,
}

impl<G: Evaluate + Report + Draw, W: Write> Lines<'_, G, W> {
    fn say(&mut self, text: &str) -> anyhow::Result<()> {
        self.out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush())
            .context("writing to stdout")
    }

    fn header(&mut self) -> anyhow::Result<()> {
        let s = &self.session;
        let text = format!(
            "game {}: {} {}, you play seat {} ({}) against {}; chance from seed {}\n{HELP}\n",
            s.index,
            <G as cowrie_engine::Game>::NAME,
            self.setup.resolved.variant,
            s.human.seat(),
            G::side_name(s.human),
            self.setup.spec,
            self.setup.seed
        );
        self.say(&text)
    }

    fn legal_lines(&self, only: Option<&str>) -> anyhow::Result<String> {
        let legal = self.session.legal();
        let analysis = self.session.analysis(self.setup)?;
        let values = analysis.as_ref().map(cowrie_agents::Analysis::texts);
        let mut text = String::new();
        for (i, m) in legal.iter().enumerate() {
            if only.is_some_and(|p| !m.starts_with(p)) {
                continue;
            }
            let _ = write!(text, "{:>5}. {m}", i + 1);
            if let (Some(a), Some(v)) = (&analysis, &values) {
                let _ = write!(text, "   [{} {}]", a.label(), v[i]);
            }
            text.push('\n');
        }
        Ok(text)
    }

    /// Prints the events since the last shown, then the position and the moves, or the result.
    fn show(&mut self) -> anyhow::Result<()> {
        let s = &self.session;
        let mut text = String::new();
        for e in &s.events()[self.shown.min(s.events().len())..] {
            match e {
                Event::Chance { chance } => {
                    let _ = writeln!(text, "chance: {chance}");
                }
                Event::Ply { seat, action } => {
                    let who = if *seat == s.human.seat() {
                        "you".to_string()
                    } else {
                        self.setup.spec.to_string()
                    };
                    let _ = writeln!(text, "seat {seat} ({who}) plays {action}");
                }
            }
        }
        self.shown = s.events().len();
        let state = s.state();
        let _ = writeln!(
            text,
            "\n{state}\nposition: {}",
            cowrie_engine::Game::notation(state)
        );
        if let Some(result) = s.result_text(self.setup) {
            let _ = writeln!(
                text,
                "game over after {} plies: {result}",
                cowrie_engine::Game::plies(state)
            );
            let _ = writeln!(text, "undo, new or quit");
        } else {
            let n = s.legal().len();
            let _ = writeln!(
                text,
                "ply {}: you ({}) to move, {n} legal move{}",
                cowrie_engine::Game::plies(state) + 1,
                s.side_to_act(),
                if n == 1 { "" } else { "s" }
            );
            if n <= LIST_MAX {
                text.push_str(&self.legal_lines(None)?);
            } else {
                let _ = writeln!(
                    text,
                    "type the beginning of a move to list those that begin so, or `moves` for all {n}"
                );
            }
        }
        text.push_str("> ");
        self.say(&text)
    }

    /// Handles one line; `false` to stop.
    fn line(&mut self, line: &str) -> anyhow::Result<bool> {
        let cmd = line.trim();
        match cmd {
            "quit" | "q" | "exit" => return Ok(false),
            "" => {
                self.say("> ")?;
                return Ok(true);
            }
            "help" | "?" => self.say(&format!("{HELP}\n> "))?,
            "rules" => {
                let mut text = format!(
                    "variant {}: {}\n",
                    self.rules.variant, self.rules.variant_source
                );
                for r in &self.rules.options {
                    let _ = writeln!(
                        text,
                        "  {}={} ({}): {}\n      source: {}",
                        r.key, r.value, r.set_by, r.doc, r.source
                    );
                }
                text.push_str("> ");
                self.say(&text)?;
            }
            "moves" => {
                let text = self.legal_lines(None)? + "> ";
                self.say(&text)?;
            }
            "undo" => match self.session.undo() {
                Ok(()) => {
                    self.shown = self.session.events().len();
                    self.say("undone: back to your previous decision\n")?;
                    self.show()?;
                }
                Err(e) => self.say(&format!("error: {e}\n> "))?,
            },
            "new" => {
                let next = Session::new(self.setup, self.session.index + 1, self.session.human)?;
                self.session = next;
                self.shown = 0;
                self.header()?;
                self.show()?;
            }
            _ => {
                let legal = self.session.legal();
                let mv = match cmd.parse::<usize>() {
                    Ok(k) if (1..=legal.len()).contains(&k) => legal[k - 1].clone(),
                    Ok(k) => {
                        self.say(&format!(
                            "error: no move numbered {k} (the moves are numbered 1 to {})\n> ",
                            legal.len()
                        ))?;
                        return Ok(true);
                    }
                    Err(_) => cmd.to_string(),
                };
                match self.session.play(&mv) {
                    Ok(()) => self.show()?,
                    Err(e) => {
                        if self.session.human_to_act() && legal.iter().any(|m| m.starts_with(cmd)) {
                            let text = self.legal_lines(Some(cmd))? + "> ";
                            self.say(&text)?;
                        } else {
                            self.say(&format!("error: {e:#}\n> "))?;
                        }
                    }
                }
            }
        }
        Ok(true)
    }
}

/// Plays games of `setup` on `input` and `out`, the person in seat `seat`, until `quit` or the
/// end of the input.
///
/// # Errors
/// An agent that cannot be built, an analysis that cannot be made, or a failed read or write.
pub fn run<G: Evaluate + Report + Draw>(
    setup: &Setup<G>,
    rules: &RulesTable,
    seat: Player,
    input: impl BufRead,
    out: impl Write,
) -> anyhow::Result<()> {
    let mut lines = Lines {
        setup,
        rules,
        out,
        session: Session::new(setup, 0, seat)?,
        shown: 0,
    };
    lines.header()?;
    lines.show()?;
    for line in input.lines() {
        let line = line.context("reading stdin")?;
        if !lines.line(&line)? {
            break;
        }
    }
    lines.say("\n")
}
