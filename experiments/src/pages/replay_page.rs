//! The replay page of `cowrie replay --html`: one self-contained HTML file (inline SVG, style
//! and script; nothing fetched from the network) that steps through a recorded game, a frame
//! per chance outcome and ply, with buttons, a slider and the arrow keys.
//!
//! The page carries the board once: the diagram's top-level elements that every frame shares
//! (the board, its numbers, the key) are one static drawing, and the rest (pieces, dice,
//! trays, the words of the position) are held once each in a table of parts, groups split into
//! their children; a frame is the list of its parts, which the script draws into the `pieces`
//! group over the board. Each diagram's `<desc>` is left out: the drawing's own words and the
//! frame's caption say what it says.

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;

use crate::run::gamelog::GameRecord;

/// One step of the page: the position after an event.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The position's diagram (an SVG document).
    pub svg: String,
    /// What led to it, in words and notation: `the start`, `chance: 6-1`, `ply 3: seat 1 (x)
    /// plays 24/18 13/11`.
    pub caption: String,
    /// Decision plies played so far.
    pub ply: u32,
    /// Turns begun so far (maximal stretches of one player's decisions).
    pub turn: u32,
}

const STYLE: &str = "body{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;margin:1.5em;color:#222}\
#controls{display:flex;gap:.5em;align-items:center;flex-wrap:wrap;margin:.6em 0}\
button{font-size:1em;padding:.3em .8em}#where{min-width:18em}\
#caption{font-family:'DejaVu Sans Mono',monospace;font-size:1.05em;background:#f3f3f3;padding:.4em .6em}\
#board svg{max-width:100%;height:auto;border:1px solid #ccc}#result{font-weight:bold}";

const SCRIPT: &str = r"'use strict';
const data = JSON.parse(document.getElementById('frames').textContent);
const frames = data.frames;
const board = document.getElementById('board');
let at = 0;
let drawn = -1;
// A part: an index into the table, or a group: its opening tag's index, then its parts.
const draw = (p) => typeof p === 'number' ? data.parts[p]
  : data.parts[p[0]] + p.slice(1).map(draw).join('') + '</g>';
function show(n) {
  at = Math.max(0, Math.min(frames.length - 1, n));
  const f = frames[at];
  if (f.open !== drawn) {
    board.innerHTML = data.opens[f.open] + '<g id=\u0022under\u0022></g>' + data.board +
      '<g id=\u0022pieces\u0022></g></svg>';
    drawn = f.open;
  }
  document.getElementById('under').innerHTML = f.under.map(draw).join('');
  document.getElementById('pieces').innerHTML = f.parts.map(draw).join('');
  document.getElementById('caption').textContent = f.caption;
  document.getElementById('where').textContent =
    'step ' + at + ' of ' + (frames.length - 1) + ' \u00b7 ply ' + f.ply + ' \u00b7 turn ' + f.turn;
  document.getElementById('slider').value = at;
  document.body.dataset.step = String(at);
}
document.getElementById('first').onclick = () => show(0);
document.getElementById('prev').onclick = () => show(at - 1);
document.getElementById('next').onclick = () => show(at + 1);
document.getElementById('last').onclick = () => show(frames.length - 1);
const slider = document.getElementById('slider');
slider.max = String(frames.length - 1);
slider.oninput = () => show(Number(slider.value));
document.addEventListener('keydown', (e) => {
  if (e.target === slider) return;
  const to = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: frames.length - 1}[e.key];
  if (to !== undefined) { e.preventDefault(); show(to); }
});
show(0);
";

/// A diagram (an SVG document) as its `<svg ...>` opening tag and its top-level elements, each
/// as written.
fn split(svg: &str) -> (&str, Vec<&str>) {
    let begin = svg.find("<svg").unwrap_or(0);
    let open_end = svg[begin..].find('>').map_or(svg.len(), |i| begin + i + 1);
    let close = svg.rfind("</svg>").unwrap_or(svg.len()).max(open_end);
    (&svg[begin..open_end], elements(&svg[open_end..close]))
}

/// The elements at the top of `body` (the content of an element), each as written. The svg
/// crate escapes `<` and `>` in text and attribute values, so every `<` begins a tag.
fn elements(body: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start, mut i) = (Vec::new(), 0usize, 0, 0);
    while let Some(j) = body[i..].find('<') {
        let at = i + j;
        let end = body[at..].find('>').map_or(body.len(), |k| at + k + 1);
        let tag = &body[at..end];
        if tag.starts_with("</") {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                parts.push(&body[start..end]);
            }
        } else if tag.ends_with("/>") {
            if depth == 0 {
                parts.push(tag);
            }
        } else {
            if depth == 0 {
                start = at;
            }
            depth += 1;
        }
        i = end;
    }
    parts
}

/// A group `<g ...>...</g>` as its opening tag and its content; `None` for any other element.
fn group(element: &str) -> Option<(&str, &str)> {
    if !element.starts_with("<g") || element.ends_with("/>") {
        return None;
    }
    let open = element.find('>')? + 1;
    let inner = element.strip_suffix("</g>")?;
    Some((&element[..open], &inner[open.min(inner.len())..]))
}

/// A part of a frame: an element held once in the table of parts, or a group whose opening
/// tag and children are each held there (pieces recur inside groups that change).
#[derive(Serialize)]
#[serde(untagged)]
enum Part {
    /// The element at this index of the table.
    Whole(usize),
    /// The opening tag's index, then the children, closed by `</g>`.
    Group(Vec<Part>),
}

/// The page's table of parts: each distinct element or opening tag once.
#[derive(Default)]
struct Table<'a> {
    parts: Vec<&'a str>,
    at: HashMap<&'a str, usize>,
}

impl<'a> Table<'a> {
    /// The index of `s`, added at the end if new.
    fn index(&mut self, s: &'a str) -> usize {
        *self.at.entry(s).or_insert_with(|| {
            self.parts.push(s);
            self.parts.len() - 1
        })
    }

    /// The parts of `elements` but those the board holds (`shared`) and the `<desc>`.
    fn parts(&mut self, elements: &[&'a str], shared: &BTreeSet<&str>) -> Vec<Part> {
        elements
            .iter()
            .filter(|e| !shared.contains(*e) && !e.starts_with("<desc"))
            .map(|e| self.part(e))
            .collect()
    }

    /// `element` as a part: a group split into its opening tag and children, any other
    /// element whole.
    fn part(&mut self, element: &'a str) -> Part {
        match group(element) {
            Some((open, inner)) => {
                let mut parts = vec![Part::Whole(self.index(open))];
                parts.extend(elements(inner).into_iter().map(|e| self.part(e)));
                Part::Group(parts)
            }
            None => Part::Whole(self.index(element)),
        }
    }
}

/// The page's data: the opening tags, the static board, the table of parts and the frames.
#[derive(Serialize)]
struct Data<'a> {
    /// The diagrams' distinct `<svg ...>` opening tags (a board grows taller with more lines
    /// of words).
    opens: Vec<&'a str>,
    /// The top-level elements every frame shares, in the first frame's order.
    board: String,
    /// Every other element, and the opening tag of every group split into its children, each
    /// once.
    parts: Vec<&'a str>,
    frames: Vec<FrameData<'a>>,
}

#[derive(Serialize)]
struct FrameData<'a> {
    caption: &'a str,
    ply: u32,
    turn: u32,
    /// The index of its opening tag in `opens`.
    open: usize,
    /// Its parts drawn under the board: those before the board's first drawn element (a
    /// background whose size follows the frame's).
    under: Vec<Part>,
    /// Its other parts, in drawing order, drawn over the board.
    parts: Vec<Part>,
}

/// The page's data for `frames`: each diagram split into the board they share and its parts.
fn data(frames: &[Frame]) -> Data<'_> {
    let split: Vec<(&str, Vec<&str>)> = frames.iter().map(|f| split(f.svg.as_str())).collect();
    let mut shared: BTreeSet<&str> = split
        .first()
        .map(|(_, p)| p.iter().copied().collect())
        .unwrap_or_default();
    for (_, parts) in &split[1.min(split.len())..] {
        let here: BTreeSet<&str> = parts.iter().copied().collect();
        shared.retain(|p| here.contains(p));
    }
    let board = split
        .first()
        .map(|(_, p)| {
            p.iter()
                .filter(|e| shared.contains(*e))
                .copied()
                .collect::<String>()
        })
        .unwrap_or_default();
    let (mut opens, mut table) = (Table::default(), Table::default());
    let mut out = Vec::new();
    for (f, (open, elements)) in frames.iter().zip(&split) {
        // The board's first drawn element (its `<title>` draws nothing).
        let first = elements
            .iter()
            .position(|e| shared.contains(e) && !e.starts_with("<title"))
            .unwrap_or(elements.len());
        out.push(FrameData {
            caption: &f.caption,
            ply: f.ply,
            turn: f.turn,
            open: opens.index(open),
            under: table.parts(&elements[..first], &shared),
            parts: table.parts(&elements[first..], &shared),
        });
    }
    Data {
        opens: opens.parts,
        board,
        parts: table.parts,
        frames: out,
    }
}

/// Escapes text for HTML element content and attribute values.
#[must_use]
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page for `rec`'s game, its `frames` (the first the start) and the `result` line of the
/// verified replay.
#[must_use]
pub fn page(rec: &GameRecord, frames: &[Frame], result: &str) -> String {
    let title = format!(
        "{} ({}), game {}: {} v {}",
        rec.game, rec.variant, rec.game_index, rec.agents[0], rec.agents[1]
    );
    // The frames as JSON inside a script element: "</" is written "<\/" so that no SVG text
    // can close the element early.
    let json = serde_json::to_string(&data(frames))
        .expect("strings and numbers serialise")
        .replace("</", "<\\/");
    let options = rec
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{t}</h1>\n<p>Seat 1: {a1}; seat 2: {a2}. Rules: {opts}. {n} events, {plies} plies. Keys: \u{2190} \u{2192} step, Home and End jump.</p>\n<div id=\"controls\"><button id=\"first\" title=\"the start (Home)\">\u{ab} start</button><button id=\"prev\" title=\"previous (\u{2190})\">\u{25c0} previous</button><button id=\"next\" title=\"next (\u{2192})\">next \u{25b6}</button><button id=\"last\" title=\"the end (End)\">end \u{bb}</button><input id=\"slider\" type=\"range\" min=\"0\" value=\"0\" aria-label=\"step\"><span id=\"where\"></span></div>\n<p id=\"caption\"></p>\n<div id=\"board\"></div>\n<p id=\"result\">Result: {result}</p>\n<script id=\"frames\" type=\"application/json\">{json}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        t = escape(&title),
        a1 = escape(&rec.agents[0]),
        a2 = escape(&rec.agents[1]),
        opts = escape(&options),
        n = rec.events.len(),
        plies = rec.plies,
        result = escape(result),
    )
}
