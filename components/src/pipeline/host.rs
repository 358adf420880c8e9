//! The host-side columns: their frames and titles, the fio job lanes, blk-mq and the mmc
//! queue window.

use mmcsim_engine::explain::Layer;
use mmcsim_engine::HSQ_PACKED_QUEUE_DEPTH;
use mmcsim_engine::{HostConfig, HsqDepth, MmcPath};
use yew::prelude::*;

use super::layout::{self as lay, column, BOTTOM, HEIGHT, TOP};
use super::view::{f, kernel_name, short_title, text, title};
use crate::part::PartView;

/// Column frames, titles, kernel names and arrows.
#[derive(PartialEq)]
pub(super) struct Frames {
    pub(super) cfg: HostConfig,
    pub(super) platform: AttrValue,
    pub(super) focus: Option<Layer>,
    pub(super) compact: bool,
}

impl PartView for Frames {
    fn view(&self) -> Html {
        let cfg = &self.cfg;
        let frames = lay::COLUMNS.iter().map(|c| {
            let layer = c.layer;
            let focused = self.focus == Some(layer);
            html! {
                <g class={classes!("stage", focused.then_some("focused"))} data-layer={format!("{layer:?}")}>
                    <rect class="frame" x={f(c.x)} y="4" width={f(c.w)} height={f(HEIGHT - 8.0)} rx="6" />
                    { text(c.x + 8.0, 22.0, "title", if self.compact { short_title(layer).into() } else { title(layer, cfg) }) }
                    if !self.compact { { text(c.x + 8.0, 38.0, "kernel", kernel_name(layer, cfg, &self.platform)) } }
                </g>
            }
        });
        let arrows = lay::COLUMNS.windows(2).map(|w| {
            let (x0, x1) = (w[0].x + w[0].w, w[1].x);
            let y = TOP + 14.0;
            html! { <path class="arrow" d={format!("M{} {} L{} {}", f(x0 + 2.0), f(y), f(x1 - 3.0), f(y))} marker-end="url(#arrowhead)" /> }
        });
        html! { <g>{ for frames }{ for arrows }</g> }
    }
}

/// fio job lanes: (index, in flight, most outstanding) per job.
#[derive(PartialEq)]
pub(super) struct Lanes(pub(super) Vec<(u32, u32, u32)>, pub(super) bool);

impl PartView for Lanes {
    fn view(&self) -> Html {
        let c = column(Layer::Jobs);
        let l = lay::lanes(self.0.len());
        let lanes = self.0.iter().take(l.shown).enumerate().map(|(i, &(index, inflight, max))| {
            let y = l.top + i as f64 * l.h;
            html! {
                <g class="lane">
                    <rect x={f(c.x + 4.0)} y={f(y + 1.0)} width={f(c.w - 8.0)} height={f((l.h - 2.0).max(1.0))} rx="3" />
                    if l.h >= 11.0 && !self.1 {
                        { text(c.x + 10.0, y + l.h / 2.0 + 4.0, "lane-label", format!("job {index} · {inflight}/{max}")) }
                    }
                </g>
            }
        });
        let extra = if l.hidden > 0 {
            format!("+{} more jobs", l.hidden)
        } else {
            String::new()
        };
        html! { <g>{ for lanes }{ text(c.x + 10.0, BOTTOM - 6.0, "more", extra) }</g> }
    }
}

/// blk-mq: tags in use, the software queue, hctx->dispatch and the requeue bounce.
#[derive(PartialEq)]
pub(super) struct Blk {
    pub(super) side: AttrValue,
    pub(super) tags: (u16, u16),
    pub(super) queued: usize,
    pub(super) dispatch: usize,
    pub(super) requeues: u64,
    /// Bios merged into waiting requests so far (block/blk-merge.c).
    pub(super) merges: u64,
    /// Requests handed to the driver by the submitting tasks and by kblockd so far.
    pub(super) issued: (u64, u64),
    pub(super) hidden: usize,
    /// bfq's queue in service, budget, idling and weight raising (None: another scheduler).
    pub(super) bfq: Option<mmcsim_engine::BfqView>,
    pub(super) compact: bool,
}

/// What bfq does now, in the scheduler's box: the job whose queue it serves, whether the
/// device idles for it, of which budget (sectors, not in the compact view), and the queues it
/// weight-raises. The job and the raised queues are readouts a tour's text may name
/// (`b.bfq-job`, `b.bfq-raised`).
fn bfq_lines(side: &AttrValue, v: &mmcsim_engine::BfqView, x: f64, y: f64, compact: bool) -> Html {
    let job = v
        .in_service
        .map_or("no queue".to_string(), |j| format!("job {j}"));
    // Compact (the landing, the phone, Present): two lines between the queued label and the
    // merges, in a smaller type than the column's other labels (lesson.css `.bfq`), so they
    // stay inside the column.
    let (class, dy) = if compact {
        ("small", 28.0)
    } else {
        ("tiny", 12.0)
    };
    let idle = match (v.idling, compact) {
        (false, _) => "",
        (true, true) => " · idle",
        (true, false) => " · idling for it",
    };
    let y = if compact { y + 18.0 } else { y };
    html! {
        <g id={format!("{side}-bfq")} class="bfq" data-idling={v.idling.to_string()}>
            <text x={f(x)} y={f(y)} {class}>{ if compact { "bfq: " } else { "bfq serves " } }<tspan data-readout={format!("{side}.bfq-job")}>{ job }</tspan>{ idle }</text>
            if !compact && v.in_service.is_some() {
                <text x={f(x)} y={f(y + dy)} {class}>{ format!("budget: {} of {} sectors", v.service, v.budget) }</text>
            }
            <text x={f(x)} y={f(y + if compact { dy } else { 2.0 * dy })} {class}>{ "raised: " }<tspan data-readout={format!("{side}.bfq-raised")}>{ v.raised_text() }</tspan></text>
        </g>
    }
}

impl PartView for Blk {
    fn view(&self) -> Html {
        let c = column(Layer::BlkMq);
        let [sw, disp] = lay::blk_boxes();
        let frac = self.tags.0 as f64 / self.tags.1.max(1) as f64;
        let mmc = column(Layer::MmcQueue);
        let side = &self.side;
        html! {
            <g>
                { text(c.x + 8.0, TOP + 12.0, "small", format!("tags {}/{}", self.tags.0, self.tags.1)) }
                <rect class="gauge" x={f(c.x + 8.0)} y={f(TOP + 18.0)} width={f(c.w - 16.0)} height="7" rx="2" />
                <rect class="gauge-fill" id={format!("{side}-tags")} x={f(c.x + 8.0)} y={f(TOP + 18.0)} width={f((c.w - 16.0) * frac)} height="7" rx="2" />
                <rect class="box" x={f(sw.0)} y={f(sw.1)} width={f(sw.2)} height={f(sw.3)} rx="4" />
                { text(sw.0 + 6.0, sw.1 + 12.0, "small", format!("queued · {}", self.queued)) }
                if let Some(v) = self.bfq.as_ref().filter(|_| mmcsim_engine::HAS_BFQ) { { bfq_lines(side, v, sw.0 + 6.0, sw.1 + 26.0, self.compact) } }
                <text key={self.merges} x={f(sw.0 + 6.0)} y={f(sw.1 + sw.3 - 6.0)} class={classes!("small", "merges", (self.merges > 0).then_some("flash"))} id={format!("{side}-merges")}>
                    { format!("bios merged: {}", self.merges) }
                    <title>{ "Bios that joined a waiting request instead of becoming one (plug, software-queue and scheduler merges, block/blk-merge.c): fio's merge= count; such a request has a halo" }</title>
                </text>
                <text x={f(sw.0 + 2.0)} y={f(sw.1 + sw.3 + 14.0)} class="tiny issued" id={format!("{side}-issued")}>
                    { format!("issued: task {} · kblockd {}", self.issued.0, self.issued.1) }
                    <title>{ "Who ran ->queue_rq for each request: the submitting task, or kblockd's worker (blk_mq_run_hw_queue in the caller, or kblockd_mod_delayed_work_on), as the board's kernel decides" }</title>
                </text>
                <rect class="box dispatch" x={f(disp.0)} y={f(disp.1)} width={f(disp.2)} height={f(disp.3)} rx="4" />
                { text(disp.0 + 6.0, disp.1 + 12.0, "small", format!("refused · {}", self.dispatch)) }
                { text(disp.0 + 2.0, disp.1 - 5.0, "tiny", "hctx->dispatch") }
                <path class="bounce-path" d={format!("M{} {} C{} {} {} {} {} {}", f(mmc.x + 10.0), f(TOP + 250.0), f(mmc.x - 10.0), f(TOP + 300.0), f(disp.0 + disp.2 + 30.0), f(disp.1 + 80.0), f(disp.0 + disp.2 - 4.0), f(disp.1 + 60.0))} marker-end="url(#arrowhead)" />
                <text key={self.requeues} x={f(c.x + 8.0)} y={f(BOTTOM - 6.0)} class={classes!("small", "requeues", (self.requeues > 0).then_some("flash"))} id={format!("{side}-requeues")}>
                    { format!("refused so far: {}", self.requeues) }
                    <title>{ "Requests mmc_mq_queue_rq refused (BLK_STS_RESOURCE) and blk-mq put back on hctx->dispatch" }</title>
                </text>
                if self.hidden > 0 { { text(c.x + 110.0, sw.1 + 12.0, "more", format!("+{} more", self.hidden)) } }
            </g>
        }
    }
}

/// The mmc queue window: in_flight against the window, the hsq depth (a dynamic switch flashes).
#[derive(PartialEq)]
pub(super) struct Window {
    pub(super) side: AttrValue,
    pub(super) cfg: HostConfig,
    pub(super) window: u32,
    pub(super) in_flight: u32,
    pub(super) depth: u32,
    pub(super) dynamic: bool,
    pub(super) changes: u64,
    pub(super) compact: bool,
}

impl PartView for Window {
    fn view(&self) -> Html {
        let c = column(Layer::MmcQueue);
        let (cfg, side) = (&self.cfg, &self.side);
        let n = self.window.max(1);
        let slots = if n <= 16 {
            let h = ((BOTTOM - 90.0 - (TOP + 30.0)) / n as f64).min(26.0);
            let cells = (0..n).map(|i| {
                let y = TOP + 30.0 + i as f64 * h;
                let used = i < self.in_flight;
                html! { <rect class={classes!("win", used.then_some("used"))} x={f(c.x + 10.0)} y={f(y)} width="26" height={f((h - 3.0).max(2.0))} rx="3" /> }
            });
            html! { <g>{ for cells }</g> }
        } else {
            let h = BOTTOM - 90.0 - (TOP + 30.0);
            let used = h * (self.in_flight.min(n) as f64 / n as f64);
            html! { <g>
                <rect class="win" x={f(c.x + 10.0)} y={f(TOP + 30.0)} width="26" height={f(h)} rx="3" />
                <rect class="win used" x={f(c.x + 10.0)} y={f(TOP + 30.0 + h - used)} width="26" height={f(used)} rx="3" />
            </g> }
        };
        // `mmc_mq_queue_rq` refuses once in_flight > hsq_depth: the window is hsq_depth + 1,
        // said beside the depth so "hsq_depth 2" and "in flight 3/3" add up on screen.
        let d = match cfg.hsq_depth {
            HsqDepth::Dynamic => self.depth,
            HsqDepth::Fixed(d) => d,
        };
        let depth = format!("hsq_depth {d}+1");
        let why = format!("The window is hsq_depth + 1 = {}: mmc_mq_queue_rq refuses a request once in_flight is above hsq_depth", d + 1);
        html! {
            <g>
                { slots }
                <text x={f(c.x + 8.0)} y={f(BOTTOM - 42.0)} class="small" id={format!("{side}-window")}
                      data-window={self.window.to_string()}>{ if self.compact { format!("{}/{}", self.in_flight, self.window) } else { format!("in flight {}/{}", self.in_flight, self.window) } }</text>
                if self.compact {
                } else if cfg.mmc_path == MmcPath::Hsq && cfg.packed == 0 {
                    <text key={self.changes} x={f(c.x + 8.0)} y={f(BOTTOM - 24.0)} class={classes!("small", (self.changes > 0).then_some("flash"))} id={format!("{side}-depth")}>{ depth }<title>{ why }</title></text>
                    if self.dynamic {
                        { text(c.x + 8.0, BOTTOM - 8.0, "small muted", format!("dynamic · switched {}×", self.changes)) }
                    }
                } else if cfg.packed > 0 {
                    { text(c.x + 8.0, BOTTOM - 24.0, "small muted", format!("packed: window {HSQ_PACKED_QUEUE_DEPTH}")) }
                }
            </g>
        }
    }
}
