//! The bus strip: what the MMC bus and the host CPU did over the last stretch of simulated
//! time (command, card access, data, card busy; interrupt + software, ADMA3 chain build), so the
//! idle gaps that batching removes are visible. It scrolls as simulated time advances.

use std::rc::Rc;

use mmcsim_engine::bus::{Segment, SegmentKind};
use yew::prelude::*;

use crate::format;
use crate::part::{Part, PartView};

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

/// Chunks per window: the strip is drawn as chunks of simulated time, each its own memoised
/// part, so only the newest chunk re-renders when events arrive and scrolling only moves them.
const CHUNKS: u64 = 4;

/// The rectangles of one chunk of simulated time `[t0, t1)`, in pixels from `t0`.
#[derive(PartialEq)]
struct Rects {
    segs: Vec<Segment>,
    t0: u64,
    t1: u64,
    scale: f64,
}

impl PartView for Rects {
    fn view(&self) -> Html {
        let rs = rects(&self.segs, self.t0, self.t1, self.scale);
        html! {
            <g data-rects={rs.len().to_string()}>
                { for rs.iter().map(|&(row, k, x0, x1)| html! {
                    <rect class={classes!("seg", kind_class(k))} x={format!("{x0:.1}")} y={format!("{:.1}", 4.0 + row as f64 * (ROW_H + 4.0))}
                          width={format!("{:.2}", (x1 - x0).max(0.6))} height={ROW_H.to_string()} />
                }) }
            </g>
        }
    }
}

#[function_component(BusTimeline)]
pub fn bus_timeline(p: &BusTimelineProps) -> Html {
    let w = p.window_ns.max(1);
    let start = p.now.saturating_sub(w);
    let sc = scale(w);
    let chunk = (w / CHUNKS).max(1);
    let first = start / chunk;
    let last = p.now / chunk;
    let h = 2.0 * ROW_H + 30.0;
    let clip = format!("{}-strip-clip", p.side);
    let chunks = (first..=last).map(|k| {
        let (t0, t1) = (k * chunk, (k + 1) * chunk);
        let segs: Vec<Segment> = p
            .segments
            .iter()
            .filter(|s| s.end > t0 && s.start < t1)
            .copied()
            .collect();
        let x = LEFT + (t0 as f64 - start as f64) * sc;
        html! {
            <g key={k} transform={format!("translate({x:.2} 0)")}>
                <Part<Rects> deps={Rects { segs, t0, t1, scale: sc }} />
            </g>
        }
    });
    let ticks = (0..=4).map(|i| {
        let x = LEFT + (W - LEFT - 6.0) * i as f64 / 4.0;
        let ago = w as f64 * (4 - i) as f64 / 4.0;
        let label = if i == 4 { "now".to_string() } else { format!("−{}", format::sim_time(ago as u64)) };
        html! { <g><line class="tick" x1={format!("{x:.1}")} x2={format!("{x:.1}")} y1="4" y2={format!("{:.1}", 2.0 * ROW_H + 12.0)} />
            <text class="tiny" x={format!("{:.1}", if i == 4 { x - 20.0 } else { x + 2.0 })} y={format!("{:.1}", h - 4.0)}>{ label }</text></g> }
    });
    html! {
        <figure class="strip">
            <svg viewBox={format!("0 0 {W} {h}")} id={format!("{}-strip", p.side)}
                 role="img" aria-label="What the bus and the host CPU did over the last stretch of simulated time">
                <defs><clipPath id={clip.clone()}><rect x={LEFT.to_string()} y="0" width={format!("{:.1}", W - LEFT - 6.0)} height={format!("{h:.1}")} /></clipPath></defs>
                <text class="small" x="4" y={format!("{:.1}", 4.0 + ROW_H * 0.7)}>{ "bus" }</text>
                <text class="small" x="4" y={format!("{:.1}", 8.0 + ROW_H * 1.7)}>{ "host CPU" }</text>
                <rect class="idle" x={LEFT.to_string()} y="4" width={format!("{:.1}", W - LEFT - 6.0)} height={ROW_H.to_string()} />
                <rect class="idle" x={LEFT.to_string()} y={format!("{:.1}", 8.0 + ROW_H)} width={format!("{:.1}", W - LEFT - 6.0)} height={ROW_H.to_string()} />
                <g clip-path={format!("url(#{clip})")}>
                    { for chunks }
                </g>
                { for ticks }
            </svg>
            <figcaption class="legend">
                { for [SegmentKind::Command, SegmentKind::CardAccess, SegmentKind::Data, SegmentKind::CardBusy, SegmentKind::HostGap, SegmentKind::ChainBuild]
                    .iter().map(|&k| html! { <span><i class={classes!("key", kind_class(k))}></i>{ k.name() }</span> }) }
                <span><i class="key idle"></i>{ "idle" }</span>
            </figcaption>
        </figure>
    }
}
