//! The replay page of `cowrie replay --html`: one self-contained HTML file (inline SVG, style
//! and script; nothing fetched from the network) that steps through a recorded game, a frame
//! per chance outcome and ply, with buttons, a slider and the arrow keys.

use serde::Serialize;

use crate::run::gamelog::GameRecord;

/// One step of the page: the position after an event.
#[derive(Clone, Debug, Serialize)]
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
const frames = JSON.parse(document.getElementById('frames').textContent);
let at = 0;
function show(n) {
  at = Math.max(0, Math.min(frames.length - 1, n));
  const f = frames[at];
  document.getElementById('board').innerHTML = f.svg;
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
    let json = serde_json::to_string(frames)
        .unwrap_or_else(|_| "[]".into())
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
