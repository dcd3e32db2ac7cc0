//! Pictures beside the CSV, as SVG drawn with plotters: rates with their 95% intervals as error
//! bars, and game-length histograms. Every plotted number is in the CSV next to it.

use std::path::Path;

use anyhow::anyhow;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One bar of an interval plot: a label, a value and its 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Interval {
    /// The label under the bar.
    pub label: String,
    /// The value.
    pub value: f64,
    /// Interval low end.
    pub low: f64,
    /// Interval high end.
    pub high: f64,
}

/// Draws `items` as a forest plot to `path`: one row per item from the top, its label at the
/// left (the label column as wide as the longest label, so labels never overlap), the value
/// as a point with its 95% interval as a horizontal bar.
///
/// # Errors
/// If the file cannot be written, naming it.
pub fn intervals(
    path: &Path,
    title: &str,
    x_label: &str,
    items: &[Interval],
) -> anyhow::Result<()> {
    const ROW: u32 = 30;
    let err = |e: &dyn std::fmt::Display| anyhow!("cannot draw '{}': {e}", path.display());
    let finite = |x: f64| if x.is_finite() { Some(x) } else { None };
    let lo = items
        .iter()
        .flat_map(|i| [i.low, i.value])
        .filter_map(finite)
        .fold(f64::INFINITY, f64::min);
    let hi = items
        .iter()
        .flat_map(|i| [i.high, i.value])
        .filter_map(finite)
        .fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi.is_finite() && hi > lo {
        let pad = (hi - lo) * 0.1;
        (lo - pad, hi + pad)
    } else {
        (0.0, 1.0)
    };
    let n = items.len().max(1);
    // About 7 pixels a character at the 13-pixel label font.
    let longest = items
        .iter()
        .map(|i| i.label.chars().count())
        .max()
        .unwrap_or(0);
    let label_px = 24 + 7 * longest as u32;
    let width = label_px + 560;
    let height = 110 + ROW * n as u32;
    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    // Rows from the top: item 0 in the highest segment.
    let row_of = |i: usize| n - 1 - i;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(50)
        .y_label_area_size(label_px)
        // A segmented range of 0..m has m + 1 rows; at least two rows are drawn.
        .build_cartesian_2d(lo..hi, (0..(n - 1).max(1)).into_segmented())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n)
        .y_label_style(("sans-serif", 13))
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(r) | SegmentValue::Exact(r) => (n - 1)
                .checked_sub(*r)
                .and_then(|k| items.get(k))
                .map_or_else(String::new, |it| it.label.clone()),
            _ => String::new(),
        })
        .x_desc(x_label)
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(items.iter().enumerate().filter_map(|(i, it)| {
            let (l, h) = (finite(it.low)?, finite(it.high)?);
            Some(ErrorBar::new_horizontal(
                SegmentValue::CenterOf(row_of(i)),
                l,
                it.value,
                h,
                BLUE.filled(),
                10,
            ))
        }))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(items.iter().enumerate().filter_map(|(i, it)| {
            finite(it.value)
                .map(|v| Circle::new((v, SegmentValue::CenterOf(row_of(i))), 4, BLUE.filled()))
        }))
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// One curve of [`curves`]: a name for the legend and, per position on the x axis, a value with
/// its 95% interval `(value, low, high)` (NaN: nothing drawn there).
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// The legend's text.
    pub name: String,
    /// `(value, low, high)` at each x position, in order.
    pub points: Vec<(f64, f64, f64)>,
}

/// The colours of [`curves`], in order (a curve past the last reuses them).
const CURVE_COLOURS: [RGBColor; 4] = [BLUE, RED, RGBColor(0, 128, 0), RGBColor(128, 0, 128)];

/// Draws `curves` against categories (the rungs of a ladder) to `path`: the categories evenly
/// spaced along the x axis with their labels under it (each column as wide as the longest
/// label, so labels never overlap; where a label is long, the categories are numbered under
/// the axis and listed in a key), each curve's values as points joined by lines with their
/// 95% intervals as vertical bars, the curves side by side within a column so their bars do
/// not hide each other, and a legend below the labels.
///
/// # Errors
/// If the file cannot be written, naming it.
pub fn curves(
    path: &Path,
    title: &str,
    y_label: &str,
    categories: &[String],
    curves: &[Curve],
) -> anyhow::Result<()> {
    const FONT: u32 = 13;
    const LEGEND_ROW: u32 = 20;
    let err = |e: &dyn std::fmt::Display| anyhow!("cannot draw '{}': {e}", path.display());
    let finite = |x: f64| if x.is_finite() { Some(x) } else { None };
    let values = || {
        curves
            .iter()
            .flat_map(|c| c.points.iter().flat_map(|&(v, l, h)| [v, l, h]))
            .filter_map(finite)
    };
    let (lo, hi) = (
        values().fold(f64::INFINITY, f64::min),
        values().fold(f64::NEG_INFINITY, f64::max),
    );
    let (lo, hi) = if lo.is_finite() && hi > lo {
        let pad = (hi - lo) * 0.08;
        (lo - pad, hi + pad)
    } else if lo.is_finite() {
        (lo - 0.05, lo + 0.05)
    } else {
        (0.0, 1.0)
    };
    let n = categories.len().max(1);
    // About 7 pixels a character at the 13-pixel font. Labels up to LONGEST characters stand
    // under their columns; longer ones (an external program's command line) are numbered
    // there and listed in a key below the legend, one a line.
    const LONGEST: usize = 24;
    let direct = categories.iter().all(|c| c.chars().count() <= LONGEST);
    let shown: Vec<String> = if direct {
        categories.to_vec()
    } else {
        (1..=categories.len()).map(|i| i.to_string()).collect()
    };
    let key: Vec<String> = if direct {
        Vec::new()
    } else {
        categories
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{}: {c}", i + 1))
            .collect()
    };
    let longest = shown.iter().map(|c| c.chars().count()).max().unwrap_or(0);
    let column = (7 * longest as u32 + 24).max(60);
    let (left, margin) = (70u32, 12u32);
    let legend_px = LEGEND_ROW * (curves.len() + key.len()) as u32;
    let label_area = 50 + legend_px;
    // The caption's 16-pixel font is about 9 pixels a character.
    let title_px = 9 * title.chars().count() as u32 + 2 * margin;
    let key_px = key
        .iter()
        .map(|k| left + margin + 20 + 7 * k.chars().count() as u32 + margin)
        .max()
        .unwrap_or(0);
    let width = (left + 2 * margin + column * n as u32)
        .max(title_px)
        .max(key_px)
        .max(480);
    let height = 420 + legend_px;
    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let x_range = -0.5..(n as f64 - 0.5);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 16))
        .margin(margin)
        .x_label_area_size(label_area)
        .y_label_area_size(left)
        .build_cartesian_2d(x_range, lo..hi)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .x_label_formatter(&|_| String::new())
        .y_desc(y_label)
        .y_label_style(("sans-serif", FONT))
        .draw()
        .map_err(|e| err(&e))?;
    let k = curves.len().max(1) as f64;
    let offset = |c: usize| (c as f64 - (k - 1.0) / 2.0) * (0.3 / k);
    for (c, curve) in curves.iter().enumerate() {
        let colour = CURVE_COLOURS[c % CURVE_COLOURS.len()];
        let at = |i: usize| i as f64 + offset(c);
        // Lines join consecutive drawn points only.
        for w in curve.points.windows(2).enumerate() {
            let (i, pair) = w;
            if let (Some(a), Some(b)) = (finite(pair[0].0), finite(pair[1].0)) {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(at(i), a), (at(i + 1), b)],
                        colour.stroke_width(1),
                    )))
                    .map_err(|e| err(&e))?;
            }
        }
        // The drawn points: (x, value, low, high) where the value is finite.
        let drawn = || {
            curve
                .points
                .iter()
                .enumerate()
                .filter_map(|(i, &(v, l, h))| Some((at(i), finite(v)?, finite(l), finite(h))))
        };
        chart
            .draw_series(drawn().filter_map(|(x, v, l, h)| {
                Some(ErrorBar::new_vertical(x, l?, v, h?, colour.filled(), 8))
            }))
            .map_err(|e| err(&e))?;
        chart
            .draw_series(drawn().map(|(x, v, _, _)| Circle::new((x, v), 4, colour.filled())))
            .map_err(|e| err(&e))?;
    }
    // The category labels, centred under their columns, and the legend below them.
    let (_, bottom) = chart.backend_coord(&(0.0, lo));
    let label_style = ("sans-serif", FONT)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (i, label) in shown.iter().enumerate() {
        let (x, _) = chart.backend_coord(&(i as f64, lo));
        root.draw(&Text::new(
            label.clone(),
            (x, bottom + 8),
            label_style.clone(),
        ))
        .map_err(|e| err(&e))?;
    }
    let legend_style = ("sans-serif", FONT)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let legend_x = left as i32 + margin as i32 + 10;
    for (c, curve) in curves.iter().enumerate() {
        let colour = CURVE_COLOURS[c % CURVE_COLOURS.len()];
        let y = bottom + 40 + (LEGEND_ROW as i32) * c as i32;
        root.draw(&Circle::new((legend_x, y), 4, colour.filled()))
            .map_err(|e| err(&e))?;
        root.draw(&Text::new(
            curve.name.clone(),
            (legend_x + 12, y),
            legend_style.clone(),
        ))
        .map_err(|e| err(&e))?;
    }
    for (j, line) in key.iter().enumerate() {
        let y = bottom + 40 + (LEGEND_ROW as i32) * (curves.len() + j) as i32;
        root.draw(&Text::new(
            line.clone(),
            (legend_x, y),
            legend_style.clone(),
        ))
        .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// Draws a histogram of `values` (game lengths) to `path`, in bins of `bin` units.
///
/// # Errors
/// If the file cannot be written, naming it.
pub fn histogram(
    path: &Path,
    title: &str,
    x_label: &str,
    values: &[u32],
    bin: u32,
) -> anyhow::Result<()> {
    let err = |e: &dyn std::fmt::Display| anyhow!("cannot draw '{}': {e}", path.display());
    let bin = bin.max(1);
    let max = values.iter().copied().max().unwrap_or(0);
    let bins = max / bin + 1;
    let mut counts = vec![0u32; bins as usize];
    for &v in values {
        counts[(v / bin) as usize] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1);
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (0u32..(bins * bin)).into_segmented(),
            0u32..top + top / 10 + 1,
        )
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(x_label)
        .y_desc("games")
        .draw()
        .map_err(|e| err(&e))?;
    // One rectangle a bin, drawn in bin order (plotters' own histogram gathers its bins in a
    // hash map, so its SVG lists them in a different order on every run).
    let style = BLUE.mix(0.6).filled();
    chart
        .draw_series(
            counts
                .iter()
                .enumerate()
                .filter(|(_, &c)| c > 0)
                .map(|(i, &c)| {
                    let lo = i as u32 * bin;
                    Rectangle::new(
                        [
                            (SegmentValue::Exact(lo), 0),
                            (SegmentValue::Exact(lo + bin), c),
                        ],
                        style,
                    )
                }),
        )
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// Writes `lengths.svg` in `out`: the histogram of plies per game of `rows` (a run's
/// `games.csv`), in 60 or so bins. `cowrie match` and `cowrie merge` draw it alike.
///
/// # Errors
/// An unwritable file.
pub fn write_lengths(
    out: &Path,
    game: &str,
    variant: &str,
    rows: &[crate::run::record::RowResult],
) -> anyhow::Result<()> {
    let plies: Vec<u32> = rows.iter().map(|r| r.plies).collect();
    let bin = (plies.iter().copied().max().unwrap_or(0) / 60).max(1);
    histogram(
        &out.join("lengths.svg"),
        &format!("{game} {variant}: plies per game ({} games)", rows.len()),
        &format!("plies (bins of {bin})"),
        &plies,
        bin,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (x, y, font size, text) of each text anchored at `anchor` (`end`: the forest plot's row
    /// labels; `middle`: the captions and the curves' category labels; `start`: the legends).
    fn texts(svg: &str, anchor: &str) -> Vec<(f64, f64, f64, String)> {
        let attr = |tag: &str, name: &str| -> f64 {
            let key = format!(" {name}=\"");
            let at = tag.find(&key).expect("attribute") + key.len();
            tag[at..at + tag[at..].find('"').unwrap()].parse().unwrap()
        };
        svg.split("<text")
            .skip(1)
            .filter(|t| anchor.is_empty() || t.contains(&format!("text-anchor=\"{anchor}\"")))
            .map(|t| {
                let close = t.find('>').unwrap();
                let text = t[close + 1..t.find("</text>").unwrap()].trim().to_string();
                (attr(t, "x"), attr(t, "y"), attr(t, "font-size"), text)
            })
            .collect()
    }

    /// The picture's width in pixels.
    fn width_of(svg: &str) -> f64 {
        let at = svg.find("width=\"").unwrap() + 7;
        svg[at..at + svg[at..].find('"').unwrap()].parse().unwrap()
    }

    #[test]
    fn forest_plot_labels_never_overlap_and_fit_the_picture() {
        let items: Vec<Interval> = (0..7)
            .map(|i| Interval {
                label: format!("mcts:iterations={},c=1.4,rollout=heuristic", 10usize.pow(i)),
                value: f64::from(i) * 30.0,
                low: f64::from(i) * 30.0 - 50.0,
                high: f64::from(i) * 30.0 + 50.0,
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.svg");
        intervals(&path, "t", "Elo", &items).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let mut labels = texts(&svg, "end");
        labels.sort_by(|a, b| a.1.total_cmp(&b.1));
        let names: Vec<&str> = labels.iter().map(|l| l.3.as_str()).collect();
        let want: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
        assert_eq!(names, want, "one label per item, top to bottom");
        for w in labels.windows(2) {
            assert!(w[1].1 - w[0].1 >= 1.5 * w[0].2, "rows {w:?}");
        }
        // A sans-serif character is at most about 0.6 em wide: every label starts inside.
        for (x, _, size, text) in &labels {
            assert!(
                x - 0.6 * size * text.chars().count() as f64 >= 0.0,
                "{text}"
            );
        }
    }

    #[test]
    fn curve_labels_never_overlap_and_fit_the_picture() {
        let categories: Vec<String> = ["random", "heuristic:temperature=0"]
            .into_iter()
            .map(str::to_string)
            .chain((1..=6).map(|d| format!("expectimax:depth={d}")))
            .collect();
        let point = |i: usize| {
            let v = 0.1 * i as f64;
            (v, v - 0.05, v + 0.05)
        };
        let curves_in = [
            Curve {
                name: "first mover".to_string(),
                points: (0..categories.len()).map(point).collect(),
            },
            Curve {
                name: "draws".to_string(),
                points: (0..categories.len())
                    .map(|i| {
                        if i == 3 {
                            (f64::NAN, f64::NAN, f64::NAN)
                        } else {
                            point(i)
                        }
                    })
                    .collect(),
            },
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.svg");
        let title = "baghchal five-captures: the answer against the agent, self-play, 95% intervals by pair";
        curves(&path, title, "fraction", &categories, &curves_in).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let width = width_of(&svg);
        let mut labels: Vec<_> = texts(&svg, "middle")
            .into_iter()
            .filter(|t| categories.contains(&t.3))
            .collect();
        labels.sort_by(|a, b| a.0.total_cmp(&b.0));
        let names: Vec<&str> = labels.iter().map(|l| l.3.as_str()).collect();
        let want: Vec<&str> = categories.iter().map(String::as_str).collect();
        assert_eq!(names, want, "one label per category, left to right");
        // A sans-serif character is at most about 0.6 em wide.
        let half = |l: &(f64, f64, f64, String)| 0.3 * l.2 * l.3.chars().count() as f64;
        for w in labels.windows(2) {
            assert!(w[1].0 - half(&w[1]) >= w[0].0 + half(&w[0]), "{w:?}");
        }
        for l in &labels {
            assert!(l.0 - half(l) >= 0.0 && l.0 + half(l) <= width, "{l:?}");
        }
        let caption = texts(&svg, "middle")
            .into_iter()
            .find(|t| t.3 == title)
            .expect("the caption");
        assert!(caption.0 - half(&caption) >= 0.0 && caption.0 + half(&caption) <= width);
        // Both curves' names are in the legend.
        let all: Vec<String> = texts(&svg, "").into_iter().map(|t| t.3).collect();
        assert!(all.iter().any(|t| t == "first mover"), "{all:?}");
        assert!(all.iter().any(|t| t == "draws"), "{all:?}");
    }

    #[test]
    fn long_curve_labels_are_numbered_and_listed_in_a_key() {
        let categories: Vec<String> = [
            "random",
            "external:timeout_ms=30000,cmd=python3 tools/gnubg_agent.py --ply 0",
        ]
        .into_iter()
        .map(str::to_string)
        .collect();
        let c = Curve {
            name: "first mover".to_string(),
            points: vec![(0.5, 0.4, 0.6), (0.55, 0.45, 0.65)],
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.svg");
        curves(&path, "t", "fraction", &categories, &[c]).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let numbers: Vec<String> = texts(&svg, "middle").into_iter().map(|t| t.3).collect();
        assert!(numbers.contains(&"1".to_string()) && numbers.contains(&"2".to_string()));
        let all: Vec<String> = texts(&svg, "").into_iter().map(|t| t.3).collect();
        for (i, c) in categories.iter().enumerate() {
            let line = format!("{}: {c}", i + 1);
            assert!(all.contains(&line), "{line} in {all:?}");
        }
        let width = width_of(&svg);
        assert!(
            width >= 7.0 * categories[1].chars().count() as f64,
            "{width}"
        );
    }
}
