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

/// Draws `items` as points with error bars, one per x position, to `path`.
///
/// # Errors
/// If the file cannot be written, naming it.
pub fn intervals(
    path: &Path,
    title: &str,
    y_label: &str,
    items: &[Interval],
) -> anyhow::Result<()> {
    let err = |e: &dyn std::fmt::Display| anyhow!("cannot draw '{}': {e}", path.display());
    let finite = |x: f64| if x.is_finite() { Some(x) } else { None };
    let lo = items
        .iter()
        .filter_map(|i| finite(i.low))
        .fold(f64::INFINITY, f64::min);
    let hi = items
        .iter()
        .filter_map(|i| finite(i.high))
        .fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi.is_finite() && hi > lo {
        let pad = (hi - lo) * 0.1;
        (lo - pad, hi + pad)
    } else {
        (0.0, 1.0)
    };
    let width = 160 + 120 * items.len() as u32;
    let root = SVGBackend::new(path, (width.max(480), 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let n = items.len() as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(60)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5..n - 0.5, lo..hi)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(items.len())
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < items.len() {
                items[i as usize].label.clone()
            } else {
                String::new()
            }
        })
        .y_desc(y_label)
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(items.iter().enumerate().filter_map(|(i, it)| {
            let (l, h) = (finite(it.low)?, finite(it.high)?);
            Some(ErrorBar::new_vertical(
                i as f64,
                l,
                it.value,
                h,
                BLUE.filled(),
                12,
            ))
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
