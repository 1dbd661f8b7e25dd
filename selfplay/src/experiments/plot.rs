//! Plots with `plotters`: draw rate per variant with 95 % error bars, one series per bot, as PNG
//! and SVG. Text needs a TrueType font: `ANQI_FONT` if set, else the first of a few usual system
//! paths (DejaVu Sans, Liberation Sans, Noto Sans).

use plotters::prelude::*;
use plotters::style::FontStyle;
use std::path::Path;
use std::sync::OnceLock;

const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
];

/// Registers a font as `sans-serif` once; the error names where it looked.
fn font() -> Result<(), String> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        let mut candidates: Vec<String> = std::env::var("ANQI_FONT").into_iter().collect();
        candidates.extend(FONT_PATHS.iter().map(|s| s.to_string()));
        for p in &candidates {
            if let Ok(bytes) = std::fs::read(p) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return Ok(());
                }
            }
        }
        Err(format!("no TrueType font found for the plot labels (set ANQI_FONT; looked at {})", candidates.join(", ")))
    })
    .clone()
}

/// One series: a name and, per category, `(value, low, high)` (in [0, 1] for [`error_bars`]); a
/// non-finite value leaves the category empty in this series.
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Values with their interval.
    pub points: Vec<(f64, f64, f64)>,
}

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

/// The y axis of a chart: its range, its description and whether values are fractions shown as
/// percentages.
struct YAxis<'a> {
    range: std::ops::Range<f64>,
    desc: &'a str,
    percent: bool,
}

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, plotters::coord::Shift>, title: &str, categories: &[String], series: &[Series], y: &YAxis) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |x: &dyn std::fmt::Display| x.to_string();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let n = categories.len() as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(60)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(n - 0.5), y.range.clone())
        .map_err(|x| e(&x))?;
    let cats = categories.to_vec();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(categories.len() + 1)
        .x_label_formatter(&move |x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < cats.len() {
                cats[i as usize].clone()
            } else {
                String::new()
            }
        })
        .x_label_style(("sans-serif", 13))
        .y_desc(y.desc)
        .y_label_formatter(&|v| if y.percent { format!("{:.0} %", 100.0 * v) } else { format!("{v:.0}") })
        .draw()
        .map_err(|x| e(&x))?;
    let k = series.len().max(1) as f64;
    for (si, s) in series.iter().enumerate() {
        let colour = COLOURS[si % COLOURS.len()];
        let off = if k > 1.0 { (si as f64 - (k - 1.0) / 2.0) * (0.5 / k) } else { 0.0 };
        chart
            .draw_series(
                s.points.iter().enumerate().filter(|(_, p)| p.0.is_finite()).map(|(i, &(v, lo, hi))| ErrorBar::new_vertical(i as f64 + off, lo, v, hi, colour.stroke_width(2), 8)),
            )
            .map_err(|x| e(&x))?
            .label(s.name.clone())
            .legend(move |(x, y)| Circle::new((x + 8, y), 4, colour.filled()));
        chart
            .draw_series(s.points.iter().enumerate().filter(|(_, p)| p.0.is_finite()).map(|(i, &(v, _, _))| Circle::new((i as f64 + off, v), 4, colour.filled())))
            .map_err(|x| e(&x))?;
    }
    legend_and_present(&mut chart, &root, SeriesLabelPosition::UpperRight)
}

/// Draws the legend of `chart` at `position` and writes `root` out.
fn legend_and_present<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>>,
    root: &DrawingArea<DB, plotters::coord::Shift>,
    position: SeriesLabelPosition,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |x: &dyn std::fmt::Display| x.to_string();
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(|x| e(&x))?;
    root.present().map_err(|x| e(&x))?;
    Ok(())
}

/// Writes the chart to `png` and `svg`.
///
/// # Errors
/// No font, or a drawing or I/O error, as text.
pub fn error_bars(png: &Path, svg: &Path, title: &str, categories: &[String], series: &[Series]) -> Result<(), String> {
    font()?;
    let size = (1300, 620);
    let y = YAxis { range: 0.0..1.0, desc: "draw rate (95 % Wilson interval)", percent: true };
    draw(BitMapBackend::new(png, size).into_drawing_area(), title, categories, series, &y)?;
    draw(SVGBackend::new(svg, size).into_drawing_area(), title, categories, series, &y)?;
    Ok(())
}

/// Writes a chart of values on any scale (Elo ratings, say) to `png` and `svg`: one point with
/// its interval per category and series, the y range padded around every interval, `y_desc`
/// naming the axis. Infinite interval ends are drawn at the padded range's edge.
///
/// # Errors
/// No font, or a drawing or I/O error, as text.
pub fn value_bars(png: &Path, svg: &Path, title: &str, y_desc: &str, categories: &[String], series: &[Series]) -> Result<(), String> {
    font()?;
    let finite = series.iter().flat_map(|s| s.points.iter()).flat_map(|&(v, lo, hi)| [v, lo, hi]).filter(|x| x.is_finite());
    let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let pad = ((hi - lo) * 0.08).max(10.0);
    let range = (lo - pad)..(hi + pad);
    let clamp = |x: f64| x.clamp(range.start, range.end);
    let clamped: Vec<Series> = series
        .iter()
        .map(|s| Series { name: s.name.clone(), points: s.points.iter().map(|&(v, a, b)| (clamp(v), clamp(a), clamp(b))).collect() })
        .collect();
    let size = (1300, 620);
    let y = YAxis { range, desc: y_desc, percent: false };
    draw(BitMapBackend::new(png, size).into_drawing_area(), title, categories, &clamped, &y)?;
    draw(SVGBackend::new(svg, size).into_drawing_area(), title, categories, &clamped, &y)?;
    Ok(())
}

/// One series of an x-y chart: a name and points `(x, y, y_low, y_high)`, joined by a line in
/// the order given (sort them by x); non-finite points are left out.
pub struct XySeries {
    /// Legend text.
    pub name: String,
    /// Points with their y interval.
    pub points: Vec<(f64, f64, f64, f64)>,
    /// Dashed-looking (thin, pale) rather than solid: for reference lines.
    pub reference: bool,
}

fn draw_xy<DB: DrawingBackend>(root: DrawingArea<DB, plotters::coord::Shift>, title: &str, x_desc: &str, y_desc: &str, series: &[XySeries]) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let e = |x: &dyn std::fmt::Display| x.to_string();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let xs = series.iter().flat_map(|s| s.points.iter()).map(|p| p.0).filter(|x| x.is_finite());
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
    let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let pad = ((hi - lo) * 0.06).max(50.0);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d((lo - pad)..(hi + pad), 0.0f64..1.0)
        .map_err(|x| e(&x))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{:.0} %", 100.0 * v))
        .draw()
        .map_err(|x| e(&x))?;
    for (si, s) in series.iter().enumerate() {
        let colour = COLOURS[si % COLOURS.len()];
        let style = if s.reference { colour.mix(0.55).stroke_width(1) } else { colour.stroke_width(2) };
        let pts: Vec<(f64, f64, f64, f64)> = s.points.iter().copied().filter(|p| p.0.is_finite() && p.1.is_finite()).collect();
        chart
            .draw_series(LineSeries::new(pts.iter().map(|p| (p.0, p.1)), style))
            .map_err(|x| e(&x))?
            .label(s.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2)));
        chart.draw_series(pts.iter().map(|&(x, y, a, b)| ErrorBar::new_vertical(x, a, y, b, style, 8))).map_err(|x| e(&x))?;
        chart.draw_series(pts.iter().map(|&(x, y, _, _)| Circle::new((x, y), 4, colour.filled()))).map_err(|x| e(&x))?;
    }
    legend_and_present(&mut chart, &root, SeriesLabelPosition::UpperLeft)
}

/// Writes an x-y chart of rates in [0, 1] (draw rate against Elo, say) with their intervals to
/// `png` and `svg`.
///
/// # Errors
/// No font, or a drawing or I/O error, as text.
pub fn xy_lines(png: &Path, svg: &Path, title: &str, x_desc: &str, y_desc: &str, series: &[XySeries]) -> Result<(), String> {
    font()?;
    let size = (1300, 680);
    draw_xy(BitMapBackend::new(png, size).into_drawing_area(), title, x_desc, y_desc, series)?;
    draw_xy(SVGBackend::new(svg, size).into_drawing_area(), title, x_desc, y_desc, series)?;
    Ok(())
}
