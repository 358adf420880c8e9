//! Drawing the live charts with plotters on a canvas.

use mmcsim_engine::metrics::SeriesPoint;
use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlCanvasElement;

use super::canvas::Canvas;
use super::{ChartData, ChartKind, SideChart};
use crate::palette::{A as COLOR_A, AXIS, B as COLOR_B, GRID};

type Res = Result<(), Box<dyn std::error::Error>>;

fn sides(d: &ChartData) -> Vec<(&SideChart, RGBColor)> {
    let mut v = vec![(&d.a, COLOR_A)];
    if let Some(b) = &d.b {
        v.push((b, COLOR_B));
    }
    v
}

/// Points drawn at most per line.
const MAX_POINTS: usize = 60;
/// Completions one point holds on average at least: neighbouring buckets merge until then, so
/// bursts (a chain of 8 completing at once, one 1.4 ms SD card write) draw as the rate they
/// make, not as spikes between empty buckets.
const MIN_IOS_PER_POINT: u64 = 8;
/// Points drawn at least per line (when there are that many buckets).
const MIN_POINTS: usize = 8;

/// The series with neighbouring buckets merged (see [`MAX_POINTS`], [`MIN_IOS_PER_POINT`]),
/// as (bucket midpoint in ms, value); a last point cut short by "now" is left out.
fn over_time(points: &[SeriesPoint], f: impl Fn(&SeriesPoint) -> f64) -> Vec<(f64, f64)> {
    let n = points.len();
    let ios: u64 = points.iter().map(|p| p.ios).sum();
    let k = n
        .div_ceil(MAX_POINTS)
        .max((n as u64 * MIN_IOS_PER_POINT).div_ceil(ios.max(1)) as usize)
        // ...but at least MIN_POINTS points, so a slow side still draws a line.
        .clamp(1, n.div_ceil(MIN_POINTS).max(1));
    let mut merged: Vec<SeriesPoint> = points
        .chunks(k)
        .map(|c| {
            let mut m = c[0];
            for q in &c[1..] {
                m.width_ns += q.width_ns;
                m.read_bytes += q.read_bytes;
                m.write_bytes += q.write_bytes;
                m.ios += q.ios;
                m.inflight_ns += q.inflight_ns;
            }
            m
        })
        .collect();
    let m = merged.len();
    if m >= 2 && merged[m - 1].width_ns < merged[m - 2].width_ns / 2 {
        merged.pop();
    }
    merged
        .iter()
        .filter(|p| p.width_ns > 0)
        .map(|p| ((p.t_ns as f64 + p.width_ns as f64 / 2.0) / 1e6, f(p)))
        .collect()
}

fn nice(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

fn empty_note(root: &DrawingArea<Canvas, Shift>, text: &str) -> Res {
    let (w, h) = root.dim_in_pixel();
    let style = ("sans-serif", 14)
        .into_font()
        .color(&AXIS)
        .pos(Pos::new(HPos::Center, VPos::Center));
    root.draw_text(text, &style, (w as i32 / 2, h as i32 / 2 - 12))?;
    Ok(())
}

pub fn draw(kind: ChartKind, canvas: HtmlCanvasElement, d: &ChartData) -> Res {
    let backend = Canvas::new(canvas).ok_or("canvas has no 2d context")?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE)?;
    match kind {
        ChartKind::Throughput => throughput(&root, d)?,
        ChartKind::Latency => latency(&root, d)?,
        ChartKind::Percentiles => percentiles(&root, d)?,
        ChartKind::Inflight => inflight(&root, d)?,
        ChartKind::Batch => batch(&root, d)?,
    }
    root.present()?;
    Ok(())
}

/// The charts' common frame: margins and label areas (the throughput chart, with its right
/// axis, builds its own).
fn frame<'a, 'b>(root: &'a DrawingArea<Canvas, Shift>) -> ChartBuilder<'a, 'b, Canvas> {
    let mut b = ChartBuilder::on(root);
    b.margin(8)
        .margin_right(16)
        .x_label_area_size(32)
        .y_label_area_size(48);
    b
}

/// The charts' common mesh: grid, axis and label styles and the axis descriptions; the caller
/// adds its label formatters and counts, then draws it.
fn mesh<'a, 'b, X, Y>(
    chart: &'b mut ChartContext<'a, Canvas, Cartesian2d<X, Y>>,
    x_desc: &str,
    y_desc: &str,
) -> MeshStyle<'a, 'b, X, Y, Canvas>
where
    X: Ranged + ValueFormatter<X::ValueType>,
    Y: Ranged + ValueFormatter<Y::ValueType>,
{
    let label = ("sans-serif", 12).into_font().color(&AXIS);
    let mut m = chart.configure_mesh();
    m.light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .axis_style(AXIS)
        .label_style(label.clone())
        .axis_desc_style(label)
        .x_desc(x_desc)
        .y_desc(y_desc);
    m
}

fn x_end(d: &ChartData) -> f64 {
    sides(d)
        .iter()
        .filter_map(|(s, _)| s.series.last().map(|p| (p.t_ns + p.width_ns) as f64 / 1e6))
        .fold(0.0, f64::max)
        .max(1e-3)
}

fn throughput(root: &DrawingArea<Canvas, Shift>, d: &ChartData) -> Res {
    let mib: Vec<_> = sides(d)
        .iter()
        .map(|(s, c)| (over_time(&s.series, |p| p.mib_s()), *c))
        .collect();
    let iops: Vec<_> = sides(d)
        .iter()
        .map(|(s, c)| (over_time(&s.series, |p| p.iops()), *c))
        .collect();
    let top = |v: &Vec<(Vec<(f64, f64)>, RGBColor)>| {
        v.iter()
            .flat_map(|(p, _)| p.iter().map(|q| q.1))
            .fold(0.0, f64::max)
    };
    let (ym, yi) = (top(&mib).max(1.0) * 1.15, top(&iops).max(10.0) * 1.15);
    let xm = x_end(d);
    let label = ("sans-serif", 12).into_font().color(&AXIS);
    let mut chart = ChartBuilder::on(root)
        .margin(8)
        .x_label_area_size(32)
        .y_label_area_size(48)
        .right_y_label_area_size(56)
        .build_cartesian_2d(0f64..xm, 0f64..ym)?
        .set_secondary_coord(0f64..xm, 0f64..yi);
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .axis_style(AXIS)
        .label_style(label.clone())
        .axis_desc_style(label.clone())
        .x_desc("simulated time (ms)")
        .y_desc("MiB/s")
        .x_label_formatter(&|v| nice(*v))
        .y_label_formatter(&|v| nice(*v))
        .x_labels(6)
        .y_labels(5)
        .draw()?;
    chart
        .configure_secondary_axes()
        .axis_style(AXIS)
        .label_style(label.clone())
        .axis_desc_style(label)
        .y_desc("IOPS")
        .y_label_formatter(&|v| format!("{:.0}", v))
        .y_labels(5)
        .draw()?;
    if mib.iter().all(|(p, _)| p.is_empty()) {
        return empty_note(root, "Press Play to watch the run");
    }
    for (p, c) in &iops {
        chart.draw_secondary_series(LineSeries::new(
            p.iter().copied(),
            c.mix(0.45).stroke_width(1),
        ))?;
    }
    for (p, c) in &mib {
        chart.draw_series(LineSeries::new(p.iter().copied(), c.stroke_width(2)))?;
    }
    Ok(())
}

fn latency(root: &DrawingArea<Canvas, Shift>, d: &ChartData) -> Res {
    let ss = sides(d);
    let xm = ss
        .iter()
        .map(|(s, _)| s.p99 as f64 / 1e3)
        .fold(0.0, f64::max)
        .max(1.0)
        * 1.6;
    let mut chart = frame(root).build_cartesian_2d(0f64..xm, 0f64..1.0)?;
    mesh(&mut chart, "completion latency (µs)", "fraction ≤")
        .x_label_formatter(&|v| nice(*v))
        .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .x_labels(6)
        .y_labels(5)
        .draw()?;
    if ss.iter().all(|(s, _)| s.cdf.is_empty()) {
        return empty_note(root, "No completions yet");
    }
    for (i, (s, c)) in ss.iter().enumerate() {
        // A step curve, starting at 0.
        let mut pts = vec![(0.0, 0.0)];
        let mut prev = 0.0;
        for &(v, f) in &s.cdf {
            let x = (v as f64 / 1e3).min(xm);
            pts.push((x, prev));
            pts.push((x, f));
            prev = f;
        }
        pts.push((xm, prev));
        chart.draw_series(LineSeries::new(pts, c.stroke_width(2)))?;
        for (p, name) in [(s.p50, "p50"), (s.p99, "p99")] {
            let x = (p as f64 / 1e3).min(xm);
            chart.draw_series(LineSeries::new(
                [(x, 0.0), (x, 1.0)],
                c.mix(0.6).stroke_width(1),
            ))?;
            let style = ("sans-serif", 11).into_font().color(c);
            let y = if name == "p50" { 0.12 } else { 0.30 } + i as f64 * 0.08;
            chart.draw_series(std::iter::once(Text::new(
                format!("{name} {}", nice(p as f64 / 1e3)),
                (x, y),
                style,
            )))?;
        }
    }
    Ok(())
}

/// The tail axis of the percentile chart: -log10(1 - p/100), so p90, p99, p99.9 and p99.99 are
/// one unit apart (as fio's and most latency plots draw the tail).
pub fn tail_x(p: f64) -> f64 {
    -(1.0 - p / 100.0).max(1e-9).log10()
}

/// The percentile at tail position `x` ([`tail_x`]'s inverse), as an axis label: "p99.9".
pub fn tail_label(x: f64) -> String {
    let p = 100.0 * (1.0 - 10f64.powf(-x));
    let t = format!("{p:.2}");
    format!("p{}", t.trim_end_matches('0').trim_end_matches('.'))
}

/// A log axis label: 1, 2 and 5 times a power of ten, nothing between (the grid lines stay).
pub fn log_label(v: f64) -> String {
    let m = v / 10f64.powf(v.log10().floor());
    if [1.0, 2.0, 5.0].iter().any(|k| (m - k).abs() < 0.01) {
        nice(v)
    } else {
        String::new()
    }
}

fn percentiles(root: &DrawingArea<Canvas, Shift>, d: &ChartData) -> Res {
    let ss = sides(d);
    let all = || {
        ss.iter()
            .flat_map(|(s, _)| s.percentiles.iter().map(|&(_, v)| v as f64 / 1e3))
    };
    let lo = all().fold(f64::INFINITY, f64::min);
    let hi = all().fold(0.0, f64::max);
    // From the decade below the lowest point, so the log axis has labels under it too.
    let (lo, hi) = if lo.is_finite() && hi > 0.0 {
        (10f64.powf(lo.max(0.1).log10().floor()), hi * 1.5)
    } else {
        (10.0, 10_000.0)
    };
    let xm = tail_x(99.99) + 0.15;
    let mut chart = frame(root).build_cartesian_2d(0f64..xm, (lo..hi).log_scale())?;
    mesh(&mut chart, "percentile (tail spread out)", "latency (µs)")
        .x_label_formatter(&|v| tail_label(*v))
        .y_label_formatter(&|v| log_label(*v))
        .x_labels(5)
        .y_labels(12)
        .draw()?;
    if ss.iter().all(|(s, _)| s.percentiles.is_empty()) {
        return empty_note(root, "No completions yet");
    }
    for (i, (s, c)) in ss.iter().enumerate() {
        let pts: Vec<(f64, f64)> = s
            .percentiles
            .iter()
            .map(|&(p, v)| (tail_x(p), (v as f64 / 1e3).max(lo)))
            .collect();
        chart.draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))?;
        chart.draw_series(pts.iter().map(|&pt| Circle::new(pt, 3, c.filled())))?;
        if let Some(&(_, v)) = s.percentiles.iter().find(|(p, _)| *p == 99.0) {
            let style = ("sans-serif", 11).into_font().color(c);
            // A's label above its p99 point, B's below, so they never overlap.
            let y = (v as f64 / 1e3).max(lo) * if i == 0 { 1.35 } else { 0.62 };
            chart.draw_series(std::iter::once(Text::new(
                format!("p99 {}", nice(v as f64 / 1e3)),
                (tail_x(99.0) - 0.35, y),
                style,
            )))?;
        }
    }
    Ok(())
}

fn inflight(root: &DrawingArea<Canvas, Shift>, d: &ChartData) -> Res {
    let lines: Vec<_> = sides(d)
        .iter()
        .map(|(s, c)| (over_time(&s.series, |p| p.avg_inflight()), *c))
        .collect();
    let ym = lines
        .iter()
        .flat_map(|(p, _)| p.iter().map(|q| q.1))
        .fold(0.0, f64::max)
        .max(1.0)
        * 1.15;
    let xm = x_end(d);
    let mut chart = frame(root).build_cartesian_2d(0f64..xm, 0f64..ym)?;
    mesh(&mut chart, "simulated time (ms)", "in flight")
        .x_label_formatter(&|v| nice(*v))
        .y_label_formatter(&|v| nice(*v))
        .x_labels(6)
        .y_labels(5)
        .draw()?;
    for (p, c) in &lines {
        chart.draw_series(LineSeries::new(p.iter().copied(), c.stroke_width(2)))?;
    }
    Ok(())
}

fn batch(root: &DrawingArea<Canvas, Shift>, d: &ChartData) -> Res {
    let ss = sides(d);
    let n = ss
        .iter()
        .map(|(s, _)| s.batch_hist.iter().rposition(|&c| c > 0).unwrap_or(0))
        .max()
        .unwrap_or(0)
        .max(8);
    let mut chart = frame(root).build_cartesian_2d(0.5f64..n as f64 + 0.5, 0f64..100.0)?;
    mesh(&mut chart, "requests per interrupt", "% of interrupts")
        .x_label_formatter(&|v| format!("{:.0}", v))
        .y_label_formatter(&|v| format!("{:.0}", v))
        .x_labels(n.min(16))
        .y_labels(5)
        .draw()?;
    let w = 0.8 / ss.len() as f64;
    for (i, (s, c)) in ss.iter().enumerate() {
        let total: u64 = s.batch_hist.iter().sum();
        if total == 0 {
            continue;
        }
        chart.draw_series(
            s.batch_hist
                .iter()
                .enumerate()
                .filter(|(k, &v)| *k > 0 && v > 0)
                .map(|(k, &v)| {
                    let x0 = k as f64 - 0.4 + i as f64 * w;
                    Rectangle::new(
                        [(x0, 0.0), (x0 + w, v as f64 * 100.0 / total as f64)],
                        c.filled(),
                    )
                }),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_axis_puts_each_nine_one_unit_further() {
        assert!((tail_x(90.0) - 1.0).abs() < 1e-9);
        assert!((tail_x(99.0) - 2.0).abs() < 1e-9);
        assert!((tail_x(99.99) - 4.0).abs() < 1e-6);
        assert!(tail_x(1.0) < tail_x(50.0) && tail_x(50.0) < tail_x(99.5));
        assert_eq!(tail_label(0.0), "p0");
        assert_eq!(tail_label(1.0), "p90");
        assert_eq!(tail_label(3.0), "p99.9");
        assert_eq!(tail_label(4.0), "p99.99");
        assert_eq!(log_label(200.0), "200");
        assert_eq!(log_label(1000.0), "1000");
        assert_eq!(log_label(700.0), "");
    }
}
