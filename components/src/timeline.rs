//! The bus strip: what the MMC bus and the host CPU did over the last stretch of simulated
//! time (command, card access, data, card busy; interrupt + software, ADMA3 chain build), so the
//! idle gaps that batching removes are visible. It scrolls as simulated time advances. Drawn on
//! a canvas; `data-rects` on it says how many rectangles the last frame drew.

use std::rc::Rc;

use mmcsim_engine::{Segment, SegmentKind};
use yew::prelude::*;

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::format;

#[derive(Properties, PartialEq)]
pub struct BusTimelineProps {
    /// Segments kept by the engine, oldest first.
    pub segments: Rc<Vec<Segment>>,
    /// Simulated time now, ns (the strip's right edge).
    pub now: u64,
    /// Simulated time the strip spans, ns.
    pub window_ns: u64,
    pub side: AttrValue,
}

const W: f64 = 1200.0;
const LEFT: f64 = 64.0;
const ROW_H: f64 = 20.0;
/// Rectangles drawn at most per strip (adjacent slivers of one kind merge first).
const MAX_RECTS: usize = 1200;

pub fn kind_class(k: SegmentKind) -> &'static str {
    match k {
        SegmentKind::Command => "cmd",
        SegmentKind::CardAccess => "access",
        SegmentKind::Data => "data",
        SegmentKind::CardBusy => "busy",
        SegmentKind::HostGap => "host",
        SegmentKind::ChainBuild => "chain",
    }
}

fn is_cpu(k: SegmentKind) -> bool {
    matches!(k, SegmentKind::HostGap | SegmentKind::ChainBuild)
}

/// Rectangles (row, kind, x0, x1) of the segments overlapping `[t0, t1)`, in pixels from
/// `t0` at `scale` px/ns, merging neighbours of one kind closer than a pixel.
pub fn rects(
    segs: &[Segment],
    t0: u64,
    t1: u64,
    scale: f64,
) -> Vec<(usize, SegmentKind, f64, f64)> {
    let mut out: Vec<(usize, SegmentKind, f64, f64)> = Vec::new();
    let mut last: [Option<usize>; 2] = [None, None];
    for s in segs.iter().filter(|s| s.end > t0 && s.start < t1) {
        let row = is_cpu(s.kind) as usize;
        let x0 = (s.start.max(t0) - t0) as f64 * scale;
        let x1 = (s.end.min(t1) - t0) as f64 * scale;
        if let Some(i) = last[row] {
            let r = &mut out[i];
            if r.1 == s.kind && x0 - r.3 < 1.0 {
                r.3 = r.3.max(x1);
                continue;
            }
        }
        if out.len() == MAX_RECTS {
            break;
        }
        last[row] = Some(out.len());
        out.push((row, s.kind, x0, x1));
    }
    out
}

fn scale(window_ns: u64) -> f64 {
    (W - LEFT - 6.0) / window_ns.max(1) as f64
}

/// Fill colour of a kind (the legend's CSS uses the same).
pub fn kind_color(k: SegmentKind) -> &'static str {
    match k {
        SegmentKind::Command => "#6366f1",
        SegmentKind::CardAccess => "#06b6d4",
        SegmentKind::Data => "#2563eb",
        SegmentKind::CardBusy => "#dc2626",
        SegmentKind::HostGap => "#f59e0b",
        SegmentKind::ChainBuild => "#a855f7",
    }
}

/// Canvas height: the two rows. Their names and the time labels are HTML around the canvas
/// (canvas text is slow to draw every frame).
const H: f64 = 2.0 * ROW_H + 12.0;

/// Draws the strip on its canvas (a canvas, not SVG: a busy 4 KiB run puts a thousand
/// segments in view and they all move every frame). Returns the rectangles drawn.
fn draw(c: &HtmlCanvasElement, p: &BusTimelineProps) -> Option<usize> {
    let ctx: CanvasRenderingContext2d = c.get_context("2d").ok()??.dyn_into().ok()?;
    let w = p.window_ns.max(1);
    let start = p.now.saturating_sub(w);
    // The right edge is always "now": a run younger than the window starts part-way along.
    let left = LEFT + w.saturating_sub(p.now) as f64 * scale(w);
    ctx.clear_rect(0.0, 0.0, W, H);
    ctx.set_fill_style_str("#f1f5f9");
    ctx.fill_rect(left, 4.0, W - 6.0 - left, ROW_H);
    ctx.fill_rect(left, 8.0 + ROW_H, W - 6.0 - left, ROW_H);
    let rs = rects(&p.segments, start, p.now, scale(w));
    let mut color = "";
    for &(row, k, x0, x1) in &rs {
        if kind_color(k) != color {
            color = kind_color(k);
            ctx.set_fill_style_str(color);
        }
        ctx.fill_rect(
            left + x0,
            4.0 + row as f64 * (ROW_H + 4.0),
            (x1 - x0).max(0.6),
            ROW_H,
        );
    }
    ctx.set_fill_style_str("#cbd5e1");
    for i in 0..=4 {
        let x = LEFT + (W - LEFT - 6.0) * i as f64 / 4.0;
        ctx.fill_rect(x, 2.0, 1.0, H - 4.0);
    }
    Some(rs.len())
}

#[function_component(BusTimeline)]
pub fn bus_timeline(p: &BusTimelineProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        let props = (p.segments.clone(), p.now, p.window_ns, p.side.clone());
        use_effect_with(props, move |(segments, now, window_ns, side)| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                let p = BusTimelineProps {
                    segments: segments.clone(),
                    now: *now,
                    window_ns: *window_ns,
                    side: side.clone(),
                };
                if let Some(n) = draw(&c, &p) {
                    let _ = c.set_attribute("data-rects", &n.to_string());
                }
            }
        });
    }
    html! {
        <figure class="strip">
            <div class="strip-body">
                <canvas ref={canvas} id={format!("{}-strip", p.side)} width={W.to_string()} height={H.to_string()}
                        role="img" aria-label="What the bus and the host CPU did over the last stretch of simulated time"></canvas>
                <span class="row-label bus-row">{ "bus" }</span>
                <span class="row-label cpu-row">{ "host CPU" }</span>
            </div>
            <div class="strip-ticks">
                { for (0..4).map(|i| html! { <span>{ format!("−{}", format::sim_time(p.window_ns * (4 - i) / 4)) }</span> }) }
                <span>{ "now" }</span>
            </div>
            <figcaption class="legend">
                { for [SegmentKind::Command, SegmentKind::CardAccess, SegmentKind::Data, SegmentKind::CardBusy, SegmentKind::HostGap, SegmentKind::ChainBuild]
                    .iter().map(|&k| html! { <span><i class={classes!("key", kind_class(k))}></i>{ k.name() }</span> }) }
                <span><i class="key idle"></i>{ "idle" }</span>
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(kind: SegmentKind, start: u64, end: u64) -> Segment {
        Segment {
            kind,
            start,
            end,
            req: None,
        }
    }

    #[test]
    fn rects_clip_to_the_window_and_put_cpu_work_on_the_second_row() {
        let segs = [
            seg(SegmentKind::Command, 0, 100),
            seg(SegmentKind::Data, 150, 400),
            seg(SegmentKind::HostGap, 380, 500),
            seg(SegmentKind::CardBusy, 900, 1_200),
        ];
        let r = rects(&segs, 100, 1_000, 1.0);
        // The command ended at the window's start: left out.
        assert_eq!(
            r,
            vec![
                (0, SegmentKind::Data, 50.0, 300.0),
                (1, SegmentKind::HostGap, 280.0, 400.0),
                (0, SegmentKind::CardBusy, 800.0, 900.0),
            ]
        );
    }

    #[test]
    fn rects_merge_neighbours_of_one_kind_closer_than_a_pixel() {
        let segs = [
            seg(SegmentKind::Data, 0, 100),
            seg(SegmentKind::Data, 101, 200),
            seg(SegmentKind::Data, 400, 500),
        ];
        // 0.1 px per ns: the 1 ns gap is a tenth of a pixel, the 200 ns gap 20 pixels.
        let r = rects(&segs, 0, 1_000, 0.1);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].2, r[0].3), (0.0, 20.0));
        assert_eq!((r[1].2, r[1].3), (40.0, 50.0));
    }

    #[test]
    fn rects_stop_at_the_cap() {
        let segs: Vec<Segment> = (0..5_000u64)
            .map(|i| {
                let kind = if i % 2 == 0 {
                    SegmentKind::Command
                } else {
                    SegmentKind::Data
                };
                seg(kind, i * 10, i * 10 + 5)
            })
            .collect();
        assert_eq!(rects(&segs, 0, 50_000, 1.0).len(), MAX_RECTS);
    }

    #[test]
    fn every_kind_has_its_own_class_and_colour() {
        let kinds = [
            SegmentKind::Command,
            SegmentKind::CardAccess,
            SegmentKind::Data,
            SegmentKind::CardBusy,
            SegmentKind::HostGap,
            SegmentKind::ChainBuild,
        ];
        let classes: std::collections::HashSet<_> = kinds.iter().map(|&k| kind_class(k)).collect();
        let colours: std::collections::HashSet<_> = kinds.iter().map(|&k| kind_color(k)).collect();
        assert_eq!((classes.len(), colours.len()), (kinds.len(), kinds.len()));
    }
}
