//! Regret against the horizon on log–log axes, with the bounds (plotters):
//! SVG or PNG by the file's extension.
//!
//! Values are drawn as f64 (a picture is approximate by nature; the numbers
//! themselves are in the `--json` output and the `--curve` file). Points that
//! are not positive cannot sit on a log axis and are left out.
//!
//! Text is drawn with the system's sans-serif font, found through
//! fontconfig (plotters' `ttf` feature: the build needs fontconfig's headers,
//! `libfontconfig1-dev`, and running needs a font, e.g. `fonts-dejavu-core`;
//! both are on this project's machines). The feature is also what keeps
//! criterion's own plots working in `cargo bench` (plotters' features are
//! shared by the whole build).

use crate::error::{Error, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// The regret: a solid line with markers.
    Regret,
    /// The `i`-th upper bound of its group: dashed, in the `i`-th dash
    /// pattern (`UPPER_DASHES`).
    Upper(usize),
    /// The `i`-th lower bound of its group: dotted, in the `i`-th pattern
    /// (`LOWER_DASHES`).
    Lower(usize),
    /// An end of a confidence band around the group's regret: a thin dotted
    /// line without a legend entry of its own (the title names the band).
    Band,
}

/// Dash and gap lengths (pixels) of the upper bounds of one group, in turn.
const UPPER_DASHES: [(u32, u32); 5] = [(8, 5), (16, 4), (4, 4), (12, 3), (6, 9)];

/// Dash and gap lengths (pixels) of the lower bounds of one group, in turn.
const LOWER_DASHES: [(u32, u32); 3] = [(2, 4), (2, 8), (1, 2)];

impl Style {
    /// The dash pattern and stroke width of a dashed style (`None`: solid).
    fn dashes(self) -> Option<((u32, u32), u32)> {
        match self {
            Style::Regret => None,
            Style::Upper(i) => Some((UPPER_DASHES[i % UPPER_DASHES.len()], 2)),
            Style::Lower(i) => Some((LOWER_DASHES[i % LOWER_DASHES.len()], 2)),
            Style::Band => Some(((1, 3), 1)),
        }
    }
}

/// One line of the plot.
#[derive(Clone, Debug)]
pub struct Series {
    /// The legend text.
    pub label: String,
    /// Series of the same group (algorithm) share a colour.
    pub group: usize,
    /// How it is drawn.
    pub style: Style,
    /// `(T, value)` points, increasing in T.
    pub points: Vec<(f64, f64)>,
}

const COLOURS: [RGBColor; 7] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
];

/// Draw `series` to `path` (`.svg` or `.png`), 1250×720 pixels: the chart
/// on the left, the legend beside it.
/// The x axis says what it is: `x_label` (the horizon T of a regret curve,
/// the rounds t of a simulation).
pub fn draw(path: &Path, title: &str, x_label: &str, series: &[Series]) -> Result<()> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let fail = |e: String| {
        Error::InvalidInput(format!(
            "cannot draw {}: {e} (is a sans-serif font installed? apt-get install fonts-dejavu-core)",
            path.display()
        ))
    };
    match extension.as_deref() {
        Some("svg") => {
            let root = SVGBackend::new(path, (1250, 720)).into_drawing_area();
            render(&root, title, x_label, series).map_err(fail)?;
            root.present().map_err(|e| fail(e.to_string()))
        }
        Some("png") => {
            let root = BitMapBackend::new(path, (1250, 720)).into_drawing_area();
            render(&root, title, x_label, series).map_err(fail)?;
            root.present().map_err(|e| fail(e.to_string()))
        }
        _ => Err(Error::InvalidInput(format!(
            "--plot {}: the file name must end in .svg or .png",
            path.display()
        ))),
    }
}

fn render<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    x_label: &str,
    series: &[Series],
) -> std::result::Result<(), String> {
    let positive = |p: &&(f64, f64)| p.0 >= 1.0 && p.1 > 0.0 && p.1.is_finite();
    let all: Vec<(f64, f64)> = series
        .iter()
        .flat_map(|s| s.points.iter().filter(positive).copied())
        .collect();
    if all.is_empty() {
        return Err("no positive value to draw on log axes".into());
    }
    let x_max = all.iter().map(|p| p.0).fold(2.0, f64::max);
    let y_min = all.iter().map(|p| p.1).fold(f64::INFINITY, f64::min) / 2.0;
    let y_max = all.iter().map(|p| p.1).fold(0.0, f64::max) * 2.0;
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let (left, right) = root.split_horizontally(860);
    let mut chart = ChartBuilder::on(&left)
        .caption(title, ("sans-serif", 20))
        .margin(18)
        .x_label_area_size(48)
        .y_label_area_size(80)
        .build_cartesian_2d((1.0..x_max).log_scale(), (y_min..y_max).log_scale())
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc("regret")
        .x_label_formatter(&|x| format_axis(*x))
        .y_label_formatter(&|y| format_axis(*y))
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 17))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(|e| e.to_string())?;
    let mut legend: Vec<(String, RGBColor, Style)> = Vec::new();
    for s in series {
        let colour = COLOURS[s.group % COLOURS.len()];
        let points: Vec<(f64, f64)> = s.points.iter().filter(positive).copied().collect();
        if s.style != Style::Band {
            legend.push((
                if points.is_empty() {
                    format!("{} (≤ 0: not drawn)", s.label)
                } else {
                    s.label.clone()
                },
                colour,
                s.style,
            ));
        }
        if points.is_empty() {
            continue;
        }
        match s.style.dashes() {
            None => {
                chart
                    .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                    .map_err(|e| e.to_string())?;
                chart
                    .draw_series(LineSeries::new(points, colour.stroke_width(3)))
                    .map_err(|e| e.to_string())?;
            }
            Some(((dash, gap), width)) => {
                chart
                    .draw_series(DashedLineSeries::new(
                        points,
                        dash,
                        gap,
                        colour.stroke_width(width),
                    ))
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    // The legend, beside the chart, in each line's own style: solid = the
    // regret, dashed = an upper bound, dotted = a lower bound.
    let font = ("sans-serif", 13).into_font();
    let mut y = 40;
    for (label, colour, style) in legend {
        let (x0, x1) = (8, 40);
        match style.dashes() {
            None => {
                right
                    .draw(&PathElement::new(
                        vec![(x0, y), (x1, y)],
                        colour.stroke_width(3),
                    ))
                    .map_err(|e| e.to_string())?;
            }
            Some(((dash, gap), width)) => {
                let (dash, gap) = (dash as i32, gap as i32);
                let mut x = x0;
                while x < x1 {
                    right
                        .draw(&PathElement::new(
                            vec![(x, y), ((x + dash).min(x1), y)],
                            colour.stroke_width(width),
                        ))
                        .map_err(|e| e.to_string())?;
                    x += dash + gap;
                }
            }
        }
        right
            .draw(&Text::new(label, (x1 + 8, y - 7), font.clone()))
            .map_err(|e| e.to_string())?;
        y += 20;
    }
    Ok(())
}

/// `1e6`-style labels for large or small values, plain otherwise.
fn format_axis(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let exponent = x.abs().log10().floor() as i32;
    if (-2..=4).contains(&exponent) {
        let text = format!("{x:.3}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        let mantissa = x / 10f64.powi(exponent);
        if (mantissa - 1.0).abs() < 1e-6 {
            format!("1e{exponent}")
        } else {
            format!("{mantissa:.1}e{exponent}")
        }
    }
}
