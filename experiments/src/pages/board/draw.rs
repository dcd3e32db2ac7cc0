//! The diagrams' drawing vocabulary over the `svg` crate: a document of a given size with a
//! title and description, and the shapes and labels every diagram uses, with coordinates
//! rounded to a tenth of a unit so the text is short and the same on every machine.

use svg::node::element::{
    Circle, Description, Ellipse, Group, Line, Polygon, Rectangle, Text, Title,
};
use svg::Document;

/// The font family every label asks for: DejaVu Sans first (the font the golden images are
/// rendered with), then the usual sans-serif fallbacks.
pub const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// Ink for lines and labels.
pub const INK: &str = "#222222";
/// Faint ink for secondary labels.
pub const FAINT: &str = "#666666";

/// `v` rounded to one decimal.
#[must_use]
pub fn r(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// A `width` x `height` document on a white background, with its `<title>` and `<desc>`
/// (what screen readers and browsers show; the tests read them too).
#[must_use]
pub fn document(width: f64, height: f64, title: &str, desc: &str) -> Document {
    Document::new()
        .set("width", r(width))
        .set("height", r(height))
        .set("viewBox", (0, 0, r(width), r(height)))
        .set("font-family", FONT)
        .add(Title::new(title))
        .add(Description::new().add(svg::node::Text::new(desc)))
        .add(rect(0.0, 0.0, width, height, "#ffffff", "none"))
}

/// How a label is anchored horizontally.
#[derive(Clone, Copy, Debug)]
pub enum Anchor {
    /// At its left end.
    Start,
    /// At its centre.
    Middle,
    /// At its right end.
    End,
}

/// A label whose baseline's anchor point is `(x, y)`.
#[must_use]
pub fn text(x: f64, y: f64, size: f64, anchor: Anchor, content: &str) -> Text {
    let a = match anchor {
        Anchor::Start => "start",
        Anchor::Middle => "middle",
        Anchor::End => "end",
    };
    Text::new(content)
        .set("x", r(x))
        .set("y", r(y))
        .set("font-size", r(size))
        .set("text-anchor", a)
        .set("fill", INK)
}

/// A label centred on `(x, y)` (its baseline a third of its size below the centre).
#[must_use]
pub fn centred(x: f64, y: f64, size: f64, content: &str) -> Text {
    text(x, y + size * 0.35, size, Anchor::Middle, content)
}

/// A rectangle.
#[must_use]
pub fn rect(x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str) -> Rectangle {
    Rectangle::new()
        .set("x", r(x))
        .set("y", r(y))
        .set("width", r(w))
        .set("height", r(h))
        .set("fill", fill)
        .set("stroke", stroke)
}

/// A circle.
#[must_use]
pub fn circle(cx: f64, cy: f64, radius: f64, fill: &str, stroke: &str) -> Circle {
    Circle::new()
        .set("cx", r(cx))
        .set("cy", r(cy))
        .set("r", r(radius))
        .set("fill", fill)
        .set("stroke", stroke)
        .set("stroke-width", 1.5)
}

/// An ellipse with radii `rx`, `ry`, turned `degrees` clockwise about its centre.
#[must_use]
pub fn ellipse(
    cx: f64,
    cy: f64,
    rx: f64,
    ry: f64,
    degrees: f64,
    fill: &str,
    stroke: &str,
) -> Ellipse {
    Ellipse::new()
        .set("cx", r(cx))
        .set("cy", r(cy))
        .set("rx", r(rx))
        .set("ry", r(ry))
        .set(
            "transform",
            format!("rotate({} {} {})", r(degrees), r(cx), r(cy)),
        )
        .set("fill", fill)
        .set("stroke", stroke)
        .set("stroke-width", 1.5)
}

/// A straight line.
#[must_use]
pub fn line(x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str, width: f64) -> Line {
    Line::new()
        .set("x1", r(x1))
        .set("y1", r(y1))
        .set("x2", r(x2))
        .set("y2", r(y2))
        .set("stroke", stroke)
        .set("stroke-width", r(width))
}

/// A closed polygon through `points`.
#[must_use]
pub fn polygon(points: &[(f64, f64)], fill: &str, stroke: &str) -> Polygon {
    let pts: Vec<String> = points
        .iter()
        .map(|&(x, y)| format!("{},{}", r(x), r(y)))
        .collect();
    Polygon::new()
        .set("points", pts.join(" "))
        .set("fill", fill)
        .set("stroke", stroke)
}

/// A group carrying a `class` (the tests find pieces and squares by it) and a
/// `data-what` description of what it shows, in words.
#[must_use]
pub fn group(class: &str, what: &str) -> Group {
    Group::new().set("class", class).set("data-what", what)
}

/// Lines of text, the first at `(x, y)`, `gap` apart.
#[must_use]
pub fn lines(x: f64, y: f64, size: f64, gap: f64, rows: &[String]) -> Group {
    let mut g = Group::new();
    for (i, row) in rows.iter().enumerate() {
        g = g.add(text(x, y + gap * i as f64, size, Anchor::Start, row));
    }
    g
}
