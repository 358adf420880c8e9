//! One chart of the Sweep panel, drawn with plotters on a canvas: a figure of every point
//! against the first swept option (its values on the x axis, numeric or in sweep order), one
//! line per value of the second (each with its own marker, so a line under another still
//! shows), a legend, the axes titled with the option and the figure's unit, and log axes where
//! the values span a wide range ([`crate::sweep_axes::Axes`]).

use plotters::coord::combinators::LogCoord;
use plotters::coord::ranged1d::{AsRangedCoord, DefaultFormatting, KeyPointHint, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use web_sys::HtmlCanvasElement;

use crate::charts::canvas::Canvas;
use crate::charts::draw::log_label;
use crate::palette::{AXIS, GRID};
use crate::sweep_axes::{number, Axes};

type Res = Result<(), Box<dyn std::error::Error>>;

/// The series colours: A's blue and B's orange first, then four more, all distinct.
pub const SERIES: [RGBColor; 6] = [
    crate::palette::A,
    crate::palette::B,
    RGBColor(0x16, 0xa3, 0x4a),
    RGBColor(0x93, 0x33, 0xea),
    RGBColor(0xdb, 0x27, 0x77),
    RGBColor(0x0e, 0x74, 0x90),
];

/// Draws `axes` titled `title` into `canvas`, its text measured by the canvas
/// ([`Canvas`]: plotters' own measure laid the page out for every label, 4 charts redrawn per
/// point of a sweep: 3.2 s of `offsetHeight` in a 256-point sweep).
pub fn draw(canvas: HtmlCanvasElement, title: &str, axes: &Axes) -> Res {
    let backend = Canvas::new(canvas).ok_or("canvas has no 2d context")?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE)?;
    let (x0, x1) = axes.x_range;
    let (y0, y1) = axes.y_range;
    // The x axis labelled at the swept values, not at round numbers between them.
    let keys = axes.x_keys.clone();
    let lin = |k: Vec<f64>| Keyed {
        inner: RangedCoordf64::from(x0..x1),
        keys: k,
    };
    let log = |k: Vec<f64>| Keyed {
        inner: LogCoord::from((x0..x1).log_scale()),
        keys: k,
    };
    match (axes.x_log, axes.y_log) {
        (false, false) => plot(&root, title, axes, lin(keys), y0..y1)?,
        (true, false) => plot(&root, title, axes, log(keys), y0..y1)?,
        (false, true) => plot(&root, title, axes, lin(keys), (y0..y1).log_scale())?,
        (true, true) => plot(&root, title, axes, log(keys), (y0..y1).log_scale())?,
    }
    root.present()?;
    Ok(())
}

/// An x axis whose grid lines and labels are at `keys` (plotters' own `WithKeyPoints` has no
/// default label formatting, which the mesh needs).
struct Keyed<R> {
    inner: R,
    keys: Vec<f64>,
}

impl<R: Ranged<ValueType = f64>> Ranged for Keyed<R> {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;
    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(v, limit)
    }
    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.keys.clone()
        }
    }
    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }
    fn axis_pixel_range(&self, limit: (i32, i32)) -> std::ops::Range<i32> {
        self.inner.axis_pixel_range(limit)
    }
}

fn plot<X, Y>(root: &DrawingArea<Canvas, Shift>, title: &str, a: &Axes, x: X, y: Y) -> Res
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let label = ("sans-serif", 12).into_font().color(&AXIS);
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 14).into_font().color(&BLACK))
        .margin(8)
        .margin_right(18)
        .x_label_area_size(40)
        .y_label_area_size(58)
        .build_cartesian_2d(x, y)?;
    let x_fmt = |v: &f64| a.x_label(*v);
    let y_fmt = |v: &f64| {
        if a.y_log {
            log_label(*v)
        } else {
            number(*v)
        }
    };
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .axis_style(AXIS)
        .label_style(label.clone())
        .axis_desc_style(label.clone())
        .x_desc(a.x_desc.as_str())
        .y_desc(a.y_desc.as_str())
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .x_labels(a.x_keys.len().max(2))
        .y_labels(if a.y_log { 12 } else { 6 })
        .draw()?;
    for (k, (name, pts)) in a.series.iter().enumerate() {
        let c = SERIES[k % SERIES.len()];
        let pts: Vec<(f64, f64)> = pts.to_vec();
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(3)));
        // Each line its own marker, drawn smaller than the one before: a line on top of
        // another leaves the one below visible around it.
        let size = 6 - (k as i32 % 4);
        match k % 3 {
            0 => chart.draw_series(pts.iter().map(|&p| Circle::new(p, size, c.filled())))?,
            1 => chart.draw_series(
                pts.iter()
                    .map(|&p| TriangleMarker::new(p, size + 1, c.filled())),
            )?,
            _ => chart.draw_series(pts.iter().map(|&p| Cross::new(p, size, c.stroke_width(2))))?,
        };
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(GRID)
        .label_font(label)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    Ok(())
}
