//! `cowrie replay FILE`: re-plays the games of a `records.jsonl` through the engine, checking
//! every chance outcome and ply against the rules and the recorded result, and prints the
//! positions; with `--html`, also writes one game as a self-contained page stepping through
//! its positions ([`crate::pages::replay_page`]); with `--plies`, one JSON line per ply (the position
//! before it, the action, the position after, in the game's notation), for tools that judge
//! moves by another engine (`tools/gnubg_judge.py`).

use std::fmt::Write as _;
use std::io::BufRead;
use std::path::Path;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args;
use cowrie_engine::{Game, RuleSet, ToAct};

use crate::games::Report;
use crate::pages::board::Draw;
use crate::pages::replay_page::Frame;
use crate::registry::{dispatch, GameTask};
use crate::run::gamelog::GameRecord;
use crate::run::selfplay::Event;

struct Replay<'a> {
    rec: &'a GameRecord,
    quiet: bool,
    /// Collect the page's frames.
    html: bool,
    /// Collect the JSON lines of `--plies`.
    plies: bool,
}

/// One line of `--plies`: a ply of a recorded game.
#[derive(serde::Serialize)]
struct PlyLine<'a> {
    game_index: u64,
    /// The ply's number in the game (from 1).
    ply: u32,
    seat: u8,
    /// The spec of the agent in that seat.
    agent: &'a str,
    /// The position before the ply (at a decision node: the dice to play included).
    before: String,
    action: &'a str,
    after: String,
}

impl GameTask for Replay<'_> {
    type Output = (String, Vec<Frame>, String);

    fn run<G: Game + cowrie_agents::Evaluate + Draw + Report>(
        self,
    ) -> anyhow::Result<Self::Output> {
        let rec = self.rec;
        let at = |what: String| format!("game {}: {what}", rec.game_index);
        let mut rules = G::Rules::variant(&rec.variant)?;
        for (k, v) in &rec.options {
            rules.set_option(k, v)?;
        }
        let mut state = G::new(&rules);
        if state.notation() != rec.start {
            bail!(at(format!(
                "start position {} is not the rules' start '{}'",
                crate::args::quote(&rec.start),
                state.notation()
            )));
        }
        let mut out = String::new();
        if !self.quiet {
            let _ = writeln!(
                out,
                "game {} ({} {}), {} v {}\n{state}\n",
                rec.game_index, rec.game, rec.variant, rec.agents[0], rec.agents[1]
            );
        }
        let mut frames = Vec::new();
        let mut plies = String::new();
        let (mut turns, mut last_seat) = (0, None);
        let mut frame = |state: &G, caption: String, turns: u32| {
            if self.html {
                frames.push(Frame {
                    svg: state.diagram(),
                    caption,
                    ply: state.plies(),
                    turn: turns,
                });
            }
        };
        frame(&state, "the start".to_string(), 0);
        let mut outcomes = Vec::new();
        for (n, ev) in rec.events.iter().enumerate() {
            match ev {
                Event::Chance { chance } => {
                    if state.to_act() != ToAct::Chance {
                        bail!(at(format!(
                            "event {n}: chance outcome {} where no chance node is",
                            crate::args::quote(chance)
                        )));
                    }
                    state.chance_outcomes(&mut outcomes);
                    let o = outcomes
                        .iter()
                        .map(|&(o, _)| o)
                        .find(|&o| state.outcome_to_string(o) == *chance)
                        .with_context(|| {
                            at(format!(
                                "event {n}: {} is not an outcome here",
                                crate::args::quote(chance)
                            ))
                        })?;
                    state.apply_outcome(o);
                    frame(&state, format!("chance: {chance}"), turns);
                    if !self.quiet {
                        let _ = writeln!(out, "chance: {chance}");
                    }
                }
                Event::Ply { seat, action } => {
                    match state.to_act() {
                        ToAct::Decision(p) if p.seat() == *seat => {}
                        other => bail!(at(format!(
                            "event {n}: seat {seat} plays {} but the state is {other:?}",
                            crate::args::quote(action)
                        ))),
                    }
                    let a = state
                        .parse_action(action)
                        .map_err(|e| anyhow::anyhow!(at(format!("event {n}: {e}"))))?;
                    let side = match state.to_act() {
                        ToAct::Decision(p) => G::side_name(p),
                        _ => "",
                    };
                    let before = if self.plies {
                        state.notation()
                    } else {
                        String::new()
                    };
                    state
                        .try_play(a)
                        .map_err(|e| anyhow::anyhow!(at(format!("event {n}: {e}"))))?;
                    if self.plies {
                        let line = PlyLine {
                            game_index: rec.game_index,
                            ply: state.plies(),
                            seat: *seat,
                            agent: &rec.agents[usize::from(*seat) - 1],
                            before,
                            action,
                            after: state.notation(),
                        };
                        plies.push_str(&serde_json::to_string(&line)?);
                        plies.push('\n');
                    }
                    if last_seat != Some(*seat) {
                        turns += 1;
                        last_seat = Some(*seat);
                    }
                    frame(
                        &state,
                        format!("ply {}: seat {seat} ({side}) plays {action}", state.plies()),
                        turns,
                    );
                    if !self.quiet {
                        let _ = writeln!(
                            out,
                            "ply {}: seat {seat} {action}\n{state}\n",
                            state.plies()
                        );
                    }
                }
            }
        }
        let (reason, winner) = match (rec.end_reason.strip_prefix("forfeit-"), state.to_act()) {
            // A forfeit stops the game at the forfeiting player's decision: the winner is the
            // other seat.
            (Some(_), ToAct::Decision(p)) => (rec.end_reason.as_str(), Some(p.opponent().seat())),
            _ => (
                state.end_reason().map_or("unfinished", |r| r.as_str()),
                state
                    .end_reason()
                    .and_then(|r| r.winner())
                    .map(|p| p.seat()),
            ),
        };
        let seat = |w: Option<u8>| w.map_or("none".to_string(), |s| format!("seat {s}"));
        if reason != rec.end_reason
            || winner != rec.winner_seat
            || state.plies() != rec.plies
            || state.notation() != rec.end
        {
            bail!(at(format!(
                "the replay ends {} (winner {}, {} plies, '{}'), the record says {} (winner {}, {} plies, {})",
                crate::args::quote(reason), seat(winner), state.plies(), state.notation(),
                crate::args::quote(&rec.end_reason), seat(rec.winner_seat), rec.plies,
                crate::args::quote(&rec.end)
            )));
        }
        let _ = writeln!(
            out,
            "game {}: verified, {} plies, {reason}{}",
            rec.game_index,
            rec.plies,
            winner.map_or(String::new(), |w| format!(", winner seat {w}"))
        );
        Ok((out, frames, plies))
    }
}

/// Replays the file's games (or one of them), printing each game's replay as it is verified.
///
/// # Errors
/// An unreadable file, a malformed record, or a game that does not replay as recorded, naming
/// the game and event.
pub fn run(args: &ReplayArgs) -> anyhow::Result<()> {
    replay_each(args, crate::output::print_stdout)
}

/// Replays the file's games (or one of them), handing each game's text to `emit` in file order.
///
/// # Errors
/// As [`run`], and whatever `emit` returns.
pub fn replay_each(
    args: &ReplayArgs,
    emit: impl FnMut(&str) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    replay_read(args, &cowrie_solver::bounded::read_run_file, emit)
}

/// As [`replay_each`], reading the records file and the manifest beside it with `read` (a
/// file `read` reports not found is absent), so the same checks can run on files held in memory.
///
/// # Errors
/// As [`replay_each`].
pub fn replay_read(
    args: &ReplayArgs,
    read: &dyn Fn(&Path) -> std::io::Result<Vec<u8>>,
    mut emit: impl FnMut(&str) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let bytes =
        read(&args.file).with_context(|| format!("cannot read '{}'", args.file.display()))?;
    let run = crate::run::gamelog::check_read(&args.file, &bytes, read)?;
    let mut found = false;
    let mut page: Option<String> = None;
    let mut plies = String::new();
    if args.html.is_some() && args.game_index.is_none() && bytes.lines().count() > 1 {
        bail!(
            "--html draws one game and '{}' holds several: name one with --game-index",
            args.file.display()
        );
    }
    for (n, line) in bytes.lines().enumerate() {
        let rec = crate::run::gamelog::parse_record(&args.file, n, line, run.as_ref())?;
        if args.game_index.is_some_and(|g| g != rec.game_index) {
            continue;
        }
        found = true;
        let (text, frames, lines) = dispatch(
            &rec.game,
            Replay {
                rec: &rec,
                quiet: args.quiet,
                html: args.html.is_some(),
                plies: args.plies.is_some(),
            },
        )
        .with_context(|| format!("'{}' line {}", args.file.display(), n + 1))?;
        if args.html.is_some() {
            let result = text.lines().last().unwrap_or_default().to_string();
            page = Some(crate::pages::replay_page::page(&rec, &frames, &result));
        }
        plies.push_str(&lines);
        emit(&text)?;
    }
    if let (Some(path), Some(page)) = (&args.html, page) {
        std::fs::write(path, page).with_context(|| format!("cannot write '{}'", path.display()))?;
    }
    // Written once every game has replayed as recorded, so a file is never partial.
    if let Some(path) = &args.plies {
        std::fs::write(path, plies)
            .with_context(|| format!("cannot write '{}'", path.display()))?;
    }
    if !found {
        bail!(
            "'{}' holds no game {}",
            args.file.display(),
            args.game_index.map_or("records".into(), |g| g.to_string())
        );
    }
    Ok(())
}

/// `cowrie replay`.
#[derive(Debug, Args, Clone)]
pub struct ReplayArgs {
    /// A records.jsonl written by `cowrie match --record`.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Only this game (its game_index).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::args::seed_value)]
    pub game_index: Option<u64>,
    /// Print only the verification line per game, not the positions.
    #[arg(long)]
    pub quiet: bool,
    /// Also write the game (the one --game-index names, or the file's only game) as one
    /// self-contained HTML page stepping through its positions.
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// Also write one JSON line per ply of the replayed games: game_index, ply, seat, agent,
    /// the position before (with the dice to play), the action and the position after, in the
    /// game's notation (written once every game has replayed as recorded).
    #[arg(long, value_name = "FILE.jsonl")]
    pub plies: Option<PathBuf>,
}

/// `cowrie replay`.
///
/// # Errors
/// As [`run`].
pub fn command(args: ReplayArgs, _command_line: Vec<String>) -> anyhow::Result<()> {
    for (flag, out) in [("--html", &args.html), ("--plies", &args.plies)] {
        if let Some(out) = out {
            crate::run::outputs::check_file(flag, out, &[&args.file])?;
        }
    }
    if let (Some(html), Some(plies)) = (&args.html, &args.plies) {
        if crate::run::outputs::resolve(html) == crate::run::outputs::resolve(plies) {
            anyhow::bail!(
                "--html '{}' and --plies '{}' are one file; name two",
                html.display(),
                plies.display()
            );
        }
    }
    run(&args)
}
