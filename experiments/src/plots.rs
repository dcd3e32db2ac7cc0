//! Pictures beside the CSV, as SVG drawn with plotters: rates with their 95% intervals as error
//! bars, and game-length histograms. Every plotted number is in the CSV next to it.

use std::path::Path;

use anyhow::anyhow;
use plotters::prelude::*;

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

#[cfg(test)]
mod tests {
    use super::*;

    /// (x, y, font size, text) of each right-aligned text: the row labels.
    fn row_labels(svg: &str) -> Vec<(f64, f64, f64, String)> {
        let attr = |tag: &str, name: &str| -> f64 {
            let key = format!(" {name}=\"");
            let at = tag.find(&key).expect("attribute") + key.len();
            tag[at..at + tag[at..].find('"').unwrap()].parse().unwrap()
        };
        svg.split("<text")
            .skip(1)
            .filter(|t| t.contains("text-anchor=\"end\""))
            .map(|t| {
                let close = t.find('>').unwrap();
                let text = t[close + 1..t.find("</text>").unwrap()].trim().to_string();
                (attr(t, "x"), attr(t, "y"), attr(t, "font-size"), text)
            })
            .collect()
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
        let mut labels = row_labels(&svg);
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
}
