//! Throughput over simulated time, drawn with plotters on a canvas.
//!
//! Drawing only reads the points it is given: the app copies them out of the simulator after
//! each frame's slice of events.

use std::rc::Rc;

use crate::charts::canvas::Canvas;
use mmcsim_engine::metrics::SeriesPoint;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::palette::{AXIS, GRID};

/// The series colour (the e2e test looks for it on the canvas): side A's.
pub const LINE: RGBColor = crate::palette::A;

#[derive(Properties, PartialEq)]
pub struct ThroughputChartProps {
    /// Buckets of the run so far (empty before the first run).
    pub points: Rc<Vec<SeriesPoint>>,
    /// Canvas size in CSS pixels (the canvas stretches to its container's width).
    #[prop_or(880)]
    pub width: u32,
    #[prop_or(300)]
    pub height: u32,
}

#[function_component(ThroughputChart)]
pub fn throughput_chart(props: &ThroughputChartProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        use_effect_with(props.points.clone(), move |points| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                if let Err(e) = draw(c, points) {
                    web_sys::console::error_1(&format!("throughput chart: {e}").into());
                }
            }
        });
    }
    html! {
        <figure class="chart">
            <canvas ref={canvas} id="throughput-chart" width={props.width.to_string()} height={props.height.to_string()}
                    aria-label="Throughput over simulated time"></canvas>
            <figcaption>{ "Throughput (MiB/s) over simulated time, per bucket" }</figcaption>
        </figure>
    }
}

/// Bucket midpoints as (ms, MiB/s). A last bucket shorter than half the others (the run's
/// latest moment, cut at "now") is left out: a few completions in a sliver of time would draw
/// a spike that is only a sampling artefact.
fn xy(points: &[SeriesPoint]) -> Vec<(f64, f64)> {
    let mut n = points.len();
    if n >= 2 && points[n - 1].width_ns < points[n - 2].width_ns / 2 {
        n -= 1;
    }
    points[..n]
        .iter()
        .filter(|p| p.width_ns > 0)
        .map(|p| ((p.t_ns as f64 + p.width_ns as f64 / 2.0) / 1e6, p.mib_s()))
        .collect()
}

fn draw(
    canvas: HtmlCanvasElement,
    points: &[SeriesPoint],
) -> Result<(), Box<dyn std::error::Error>> {
    let backend = Canvas::new(canvas).ok_or("canvas has no 2d context")?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE)?;
    let data = xy(points);
    let x_max = points
        .last()
        .map(|p| (p.t_ns + p.width_ns) as f64 / 1e6)
        .unwrap_or(1.0)
        .max(1e-3);
    let y_top = data.iter().map(|&(_, y)| y).fold(0.0, f64::max);
    let y_max = if y_top > 0.0 { y_top * 1.15 } else { 100.0 };
    let label = ("sans-serif", 13).into_font().color(&AXIS);
    let mut chart = ChartBuilder::on(&root)
        .margin_top(14)
        .margin_right(22)
        .margin_left(8)
        .margin_bottom(6)
        .x_label_area_size(40)
        .y_label_area_size(58)
        .build_cartesian_2d(0f64..x_max, 0f64..y_max)?;
    let x_fmt = move |v: &f64| {
        if x_max >= 10.0 {
            format!("{v:.0}")
        } else {
            format!("{v:.2}")
        }
    };
    let y_fmt = move |v: &f64| {
        if y_max >= 10.0 {
            format!("{v:.0}")
        } else {
            format!("{v:.1}")
        }
    };
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .axis_style(AXIS)
        .label_style(label.clone())
        .axis_desc_style(label)
        .x_desc("simulated time (ms)")
        .y_desc("MiB/s")
        .x_labels(8)
        .y_labels(6)
        .draw()?;
    if data.is_empty() {
        let (w, h) = root.dim_in_pixel();
        let style = ("sans-serif", 15)
            .into_font()
            .color(&AXIS)
            .pos(Pos::new(HPos::Center, VPos::Center));
        root.draw_text(
            "Press Run to simulate",
            &style,
            (w as i32 / 2, h as i32 / 2 - 10),
        )?;
    } else {
        chart.draw_series(
            AreaSeries::new(data.iter().copied(), 0.0, LINE.mix(0.12))
                .border_style(LINE.stroke_width(2)),
        )?;
    }
    root.present()?;
    Ok(())
}
