//! The animated pipeline: every live request as a token in the stage it is in, left to right
//! fio jobs -> blk-mq -> mmc queue window -> hsq slots (or the legacy / CQE equivalent) ->
//! SDHCI controller -> MMC bus -> card, each column titled with its kernel name.
//!
//! Tokens are keyed by request id, so the browser keeps one element per request and a CSS
//! transition on its `transform` moves it from stage to stage (no motion under
//! `prefers-reduced-motion`, see style.css). Reads are circles, writes squares, FUA (reliable)
//! writes diamonds, flushes triangles. Placement is in [`crate::pipeline_layout`].

use std::rc::Rc;

use mmcsim_engine::explain::{controller_name, layer_info_on, Layer};
use mmcsim_engine::Snapshot;
use mmcsim_engine::HSQ_PACKED_QUEUE_DEPTH;
use mmcsim_engine::{HostConfig, HsqDepth, MmcPath, Stage};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::explain::Focus;
use crate::part::{Part, PartView};
use crate::pipeline_layout::{
    self as lay, column, Token, TokenKind, BOTTOM, HEIGHT, SLOT, TOP, WIDTH,
};

#[derive(Properties, PartialEq)]
pub struct PipelineProps {
    /// Where every request is: the tokens glide there.
    pub snap: Rc<Snapshot>,
    /// What the counters, gauges, slots and "×N" labels show (None: `snap`). The page passes
    /// the snapshot of one glide ago, so a count changes when its token arrives, not when the
    /// token sets off.
    #[prop_or_default]
    pub shown: Option<Rc<Snapshot>>,
    pub cfg: HostConfig,
    /// "a" or "b": prefixes element ids, so both sides of an A/B comparison can be addressed.
    pub side: AttrValue,
    /// The platform preset (the controller column is named after its controller).
    #[prop_or_default]
    pub platform: AttrValue,
    /// Title above the view ("A: packed=8").
    #[prop_or_default]
    pub title: AttrValue,
    #[prop_or_default]
    pub selected: Option<u64>,
    /// The column under the pointer or selected (drawn highlighted).
    #[prop_or_default]
    pub focus: Option<Layer>,
    /// Pointer over a column (Some) or off the view (None).
    #[prop_or_default]
    pub on_hover: Callback<Option<Layer>>,
    /// A column or a request clicked.
    #[prop_or_default]
    pub on_select: Callback<Focus>,
    /// Fewer, larger labels (the landing's pair, drawn small): column titles and the counts
    /// that tell the story; kernel names and detail lines are left to the full view.
    #[prop_or_default]
    pub compact: bool,
    /// Tokens glide from stage to stage (slow speeds): each keeps its element, keyed by
    /// request. Without glide (fast speeds) the elements are reused by position, so the
    /// requests that come and go every frame update a few attributes instead of creating and
    /// removing elements.
    #[prop_or(true)]
    pub glide: bool,
}

fn f(v: f64) -> String {
    format!("{v:.1}")
}

/// Column titles in plain words; the kernel's name is the line under each ([`kernel_name`]).
fn title(layer: Layer, cfg: &HostConfig) -> String {
    match layer {
        Layer::Jobs => "programs".into(),
        Layer::BlkMq => "block layer".into(),
        Layer::MmcQueue => "admission".into(),
        Layer::HostQueue => match cfg.mmc_path {
            MmcPath::Hsq => "waiting slots".into(),
            MmcPath::Legacy => "one at a time".into(),
            MmcPath::Cqe => "card task queue".into(),
        },
        Layer::Controller => "controller".into(),
        Layer::Bus => "wires (bus)".into(),
        Layer::Card => "storage chip".into(),
    }
}

/// Column titles of the compact view: one short word each, to fit the larger type.
fn short_title(layer: Layer) -> &'static str {
    match layer {
        Layer::Jobs => "programs",
        Layer::BlkMq => "block layer",
        Layer::MmcQueue => "window",
        Layer::HostQueue => "slots",
        Layer::Controller => "controller",
        Layer::Bus => "bus",
        Layer::Card => "card",
    }
}

fn shape(kind: TokenKind, r: f64) -> Html {
    match kind {
        TokenKind::Read => html! { <circle r={f(r)} /> },
        TokenKind::Write => {
            html! { <rect x={f(-r)} y={f(-r)} width={f(2.0 * r)} height={f(2.0 * r)} /> }
        }
        TokenKind::Fua => {
            let d = r * 1.35;
            html! { <polygon points={format!("0,{} {},0 0,{} {},0", f(-d), f(d), f(d), f(-d))} /> }
        }
        TokenKind::Flush => {
            let d = r * 1.3;
            html! { <polygon points={format!("0,{} {},{} {},{}", f(-d), f(d), f(d * 0.8), f(-d), f(d * 0.8))} /> }
        }
    }
}

fn token(t: &Token, key: u64, selected: bool, on_select: &Callback<Focus>) -> Html {
    let id = t.id;
    let cb = on_select.clone();
    let onclick = Callback::from(move |e: MouseEvent| {
        e.stop_propagation();
        cb.emit(Focus::Request(id))
    });
    let class = classes!(
        "token",
        t.kind.class(),
        t.done.then_some("done"),
        selected.then_some("selected")
    );
    html! {
        <g {key} {class} data-req={t.id.to_string()} data-io={t.io.to_string()} data-stage={t.stage.name()}
           style={format!("transform: translate({}px, {}px)", f(t.x), f(t.y))} {onclick}>
            <title>{ format!("request {} · job {} · {} {} B · {}", t.id, t.job, t.kind.label(), t.len, t.stage.name()) }</title>
            { shape(t.kind, 5.5) }
        </g>
    }
}

fn text(x: f64, y: f64, class: &'static str, s: impl Into<String>) -> Html {
    html! { <text x={f(x)} y={f(y)} {class}>{ s.into() }</text> }
}

fn kib(b: u64) -> String {
    if b >= 1 << 20 {
        format!("{:.1} MiB", b as f64 / 1_048_576.0)
    } else {
        format!("{} KiB", b / 1024)
    }
}

/// The kernel's name shown under a column title.
fn kernel_name(layer: Layer, cfg: &HostConfig, platform: &str) -> String {
    match layer {
        Layer::Jobs => "fio jobs".into(),
        Layer::BlkMq => "blk-mq".into(),
        Layer::MmcQueue => "mmc queue".into(),
        Layer::HostQueue => match cfg.mmc_path {
            MmcPath::Hsq => format!("hsq: {} slots", lay::host_slots(MmcPath::Hsq)),
            MmcPath::Legacy => "legacy path".into(),
            MmcPath::Cqe => "CQE (what-if)".into(),
        },
        Layer::Controller => controller_name(platform).into(),
        Layer::Bus => "MMC bus".into(),
        Layer::Card => "eMMC / SD".into(),
    }
}

/// Column frames, titles, kernel names and arrows.
#[derive(PartialEq)]
struct Frames {
    cfg: HostConfig,
    platform: AttrValue,
    focus: Option<Layer>,
    compact: bool,
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
struct Lanes(Vec<(u32, u32, u32)>, bool);

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
struct Blk {
    side: AttrValue,
    tags: (u16, u16),
    queued: usize,
    dispatch: usize,
    requeues: u64,
    hidden: usize,
    compact: bool,
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
                <rect class="box dispatch" x={f(disp.0)} y={f(disp.1)} width={f(disp.2)} height={f(disp.3)} rx="4" />
                { text(disp.0 + 6.0, disp.1 + 12.0, "small", format!("retry later · {}", self.dispatch)) }
                { text(disp.0 + 2.0, disp.1 - 5.0, "tiny", "hctx->dispatch") }
                <path class="bounce-path" d={format!("M{} {} C{} {} {} {} {} {}", f(mmc.x + 10.0), f(TOP + 250.0), f(mmc.x - 10.0), f(TOP + 300.0), f(disp.0 + disp.2 + 30.0), f(disp.1 + 80.0), f(disp.0 + disp.2 - 4.0), f(disp.1 + 60.0))} marker-end="url(#arrowhead)" />
                <text key={self.requeues} x={f(c.x + 8.0)} y={f(BOTTOM - 6.0)} class={classes!("small", "requeues", (self.requeues > 0).then_some("flash"))} id={format!("{side}-requeues")}>
                    { if self.compact { format!("refused: {}", self.requeues) } else { format!("refused (BLK_STS_RESOURCE): {}", self.requeues) } }
                    <title>{ "Requests mmc_mq_queue_rq refused (BLK_STS_RESOURCE) and blk-mq put back on hctx->dispatch" }</title>
                </text>
                if self.hidden > 0 { { text(c.x + 110.0, sw.1 + 12.0, "more", format!("+{} more", self.hidden)) } }
            </g>
        }
    }
}

/// The mmc queue window: in_flight against the window, the hsq depth (a dynamic switch flashes).
#[derive(PartialEq)]
struct Window {
    side: AttrValue,
    cfg: HostConfig,
    window: u32,
    in_flight: u32,
    depth: u32,
    dynamic: bool,
    changes: u64,
    compact: bool,
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
        let depth = match cfg.hsq_depth {
            HsqDepth::Dynamic => format!("hsq_depth {} (dynamic)", self.depth),
            HsqDepth::Fixed(d) => format!("hsq_depth {d}"),
        };
        html! {
            <g>
                { slots }
                <text x={f(c.x + 8.0)} y={f(BOTTOM - 42.0)} class="small" id={format!("{side}-window")}
                      data-window={self.window.to_string()}>{ if self.compact { format!("{}/{}", self.in_flight, self.window) } else { format!("in flight {}/{}", self.in_flight, self.window) } }</text>
                if self.compact {
                } else if cfg.mmc_path == MmcPath::Hsq && cfg.packed == 0 {
                    <text key={self.changes} x={f(c.x + 8.0)} y={f(BOTTOM - 24.0)} class={classes!("small", (self.changes > 0).then_some("flash"))} id={format!("{side}-depth")}>{ depth }</text>
                    if self.dynamic {
                        { text(c.x + 8.0, BOTTOM - 8.0, "small muted", format!("switched {}×", self.changes)) }
                    }
                } else if cfg.packed > 0 {
                    { text(c.x + 8.0, BOTTOM - 24.0, "small muted", format!("packed: window {HSQ_PACKED_QUEUE_DEPTH}")) }
                }
            </g>
        }
    }
}

/// hsq's slots (CQE: its task slots; legacy: the current and the prepared request), counted
/// by [`lay::host_slots`].
#[derive(PartialEq)]
struct Slots {
    cfg: HostConfig,
    occupied: Vec<(u16, TokenKind, bool)>,
    waiting: usize,
    compact: bool,
}

impl PartView for Slots {
    fn view(&self) -> Html {
        let c = column(Layer::HostQueue);
        match self.cfg.mmc_path {
            MmcPath::Hsq | MmcPath::Cqe => {
                let cells = (0..lay::host_slots(self.cfg.mmc_path)).map(|i: u16| {
                    let (x, y) = lay::slot_xy(i);
                    let o = self.occupied.iter().find(|o| o.0 == i);
                    let class = classes!("slot", o.map(|o| o.1.class()), o.is_some_and(|o| o.2).then_some("onbus"));
                    html! { <rect {class} x={f(x + 1.0)} y={f(y + 1.0)} width={f(SLOT - 2.0)} height={f(SLOT - 2.0)} rx="3" /> }
                });
                let label = if self.compact {
                    format!("{} held", self.occupied.len())
                } else {
                    format!("{} waiting · {} held", self.waiting, self.occupied.len())
                };
                html! { <g>{ for cells }{ text(c.x + 8.0, TOP + 16.0, "small", label) }</g> }
            }
            MmcPath::Legacy => {
                let rows = (0..2).map(|i| {
                    let y = TOP + 48.0 + i as f64 * 26.0;
                    html! { <rect class="slot" x={f(c.x + c.w / 2.0 - 11.0)} y={f(y)} width="22" height="22" rx="3" /> }
                });
                let mode = if self.compact {
                    ""
                } else if self.cfg.nonblocking {
                    "non-blocking: next prepared"
                } else {
                    "blocking: one at a time"
                };
                html! { <g>{ for rows }{ text(c.x + 8.0, TOP + 16.0, "small", mode) }</g> }
            }
        }
    }
}

/// The controller: the ADMA3 chain (a command descriptor + an ADMA2 table per request) or one
/// request's ADMA2 table, and the interrupt lamp.
#[derive(PartialEq)]
struct Controller {
    side: AttrValue,
    on_host: usize,
    chained: bool,
    in_irq: bool,
    interrupts: u64,
    /// Requests in the mmc recovery path (CRC error: CMD13, retry, reset).
    recovering: usize,
    compact: bool,
}

impl PartView for Controller {
    fn view(&self) -> Html {
        let c = column(Layer::Controller);
        let side = &self.side;
        let rows = (0..self.on_host.min(16)).map(|i| {
            let y = lay::chain_row_y(i);
            html! { <g class="desc">
                <rect class="cmd-desc" x={f(c.x + 10.0)} y={f(y)} width="44" height="13" rx="2" />
                { text(c.x + 14.0, y + 10.0, "tiny", "CMD") }
                <rect class="adma2" x={f(c.x + 56.0)} y={f(y)} width="70" height="13" rx="2" />
                { text(c.x + 60.0, y + 10.0, "tiny", "ADMA2") }
            </g> }
        });
        let label = if self.on_host == 0 {
            "idle".to_string()
        } else if self.compact {
            format!("batch of {}", self.on_host)
        } else if self.chained {
            format!("batch of {} (ADMA3 chain)", self.on_host)
        } else {
            "one request (ADMA2 table)".to_string()
        };
        html! {
            <g>
                <text x={f(c.x + 8.0)} y={f(TOP + 16.0)} class="small" id={format!("{side}-chain")} data-len={self.on_host.to_string()} data-chained={self.chained.to_string()}>{ label }</text>
                if self.chained { { text(c.x + 8.0, TOP + 30.0, "small muted", "sent as one, 1 interrupt") } }
                { for rows }
                { text(c.x + 8.0, BOTTOM - 68.0, "small muted", "done, waiting for the IRQ") }
                if self.recovering > 0 && !self.compact {
                    <text x={f(c.x + 8.0)} y={f(BOTTOM - 84.0)} class="small warn" id={format!("{side}-recovery")}>
                        { format!("CRC error: recovery (CMD13, retry) · {}", self.recovering) }
                    </text>
                }
                <circle class={classes!("irq", self.in_irq.then_some("on"))} id={format!("{side}-irq")} cx={f(c.x + 18.0)} cy={f(BOTTOM - 14.0)} r="7" />
                { text(c.x + 30.0, BOTTOM - 10.0, "small", if self.compact { format!("IRQ · {}", self.interrupts) } else { format!("IRQ · {} so far", self.interrupts) }) }
            </g>
        }
    }
}

/// The bus: CMD line and DAT lines, and the phase of the request on them.
#[derive(PartialEq)]
struct BusLines {
    side: AttrValue,
    bus: Option<(u64, Stage)>,
    compact: bool,
}

impl PartView for BusLines {
    fn view(&self) -> Html {
        let c = column(Layer::Bus);
        let side = &self.side;
        let (phase, id) = match self.bus {
            Some((id, st)) => (st.name().to_string(), Some(id)),
            None => ("idle".to_string(), None),
        };
        let busy = |st: Stage| self.bus.is_some_and(|b| b.1 == st);
        html! {
            <g>
                <rect class={classes!("line", busy(Stage::Command).then_some("busy"))} x={f(c.x + 8.0)} y={f(TOP + 50.0)} width={f(c.w - 16.0)} height="24" rx="4" />
                { text(c.x + 12.0, TOP + 45.0, "small", if self.compact { "CMD" } else { "command (CMD)" }) }
                <rect class={classes!("line", busy(Stage::Data).then_some("busy"))} x={f(c.x + 8.0)} y={f(TOP + 130.0)} width={f(c.w - 16.0)} height="40" rx="4" />
                { text(c.x + 12.0, TOP + 125.0, "small", if self.compact { "DAT" } else { "data (DAT)" }) }
                <text x={f(c.x + 8.0)} y={f(TOP + 200.0)} class={classes!("small", self.compact.then_some("muted"))} id={format!("{side}-bus")} data-req={id.map(|i| i.to_string()).unwrap_or_default()}>{ phase }</text>
            </g>
        }
    }
}

/// The card: access / busy areas, the volatile cache fill and NAND programming.
#[derive(PartialEq)]
struct Card {
    side: AttrValue,
    reliable_busy: bool,
    dirty_kib: u64,
    cap: u64,
    compact: bool,
}

impl PartView for Card {
    fn view(&self) -> Html {
        let c = column(Layer::Card);
        let side = &self.side;
        let dirty = self.dirty_kib * 1024;
        let frac = if self.cap > 0 {
            dirty as f64 / self.cap as f64
        } else {
            0.0
        };
        let bw = c.w - 16.0;
        html! {
            <g>
                <rect class="box" x={f(c.x + 8.0)} y={f(TOP + 125.0)} width={f(bw)} height="90" rx="4" />
                if !self.compact {
                    { text(c.x + 56.0, TOP + 154.0, "small", "access / read") }
                    { text(c.x + 56.0, TOP + 200.0, "small", "busy (DAT0)") }
                }
                if self.reliable_busy && !self.compact {
                    <text x={f(c.x + 8.0)} y={f(TOP + 236.0)} class="small warn" id={format!("{side}-reliable")}>{ "reliable write: the card" }</text>
                    { text(c.x + 8.0, TOP + 250.0, "small warn", "answers once NAND is written") }
                }
                if self.compact {
                } else if self.cap > 0 {
                    { text(c.x + 8.0, TOP + 14.0, "small", format!("write cache {} / {}", kib(dirty), kib(self.cap))) }
                    <rect class="gauge" x={f(c.x + 8.0)} y={f(TOP + 20.0)} width={f(bw)} height="10" rx="2" />
                    <rect class="gauge-fill cache" id={format!("{side}-cache")} x={f(c.x + 8.0)} y={f(TOP + 20.0)} width={f(bw * frac.min(1.0))} height="10" rx="2" />
                } else {
                    { text(c.x + 8.0, TOP + 14.0, "small muted", "no volatile write cache") }
                }
                <rect class={classes!("nand", (dirty > 0 || self.reliable_busy).then_some("busy"))} x={f(c.x + 8.0)} y={f(TOP + 60.0)} width={f(bw)} height="40" rx="4" />
                { text(c.x + 16.0, TOP + 84.0, "small", match (self.compact, self.reliable_busy || dirty > 0) {
                    (true, true) => "NAND busy",
                    (true, false) => "NAND idle",
                    _ if self.reliable_busy => "NAND: programming now",
                    _ if dirty > 0 => "NAND: draining the cache",
                    _ => "NAND: idle",
                }) }
            </g>
        }
    }
}

/// The requests one large I/O was split into, boxed together in each column they are in:
/// "1 I/O → 4 requests".
#[derive(PartialEq)]
struct IoGroups(Vec<lay::IoGroup>);

impl PartView for IoGroups {
    fn view(&self) -> Html {
        html! { <g class="io-groups">{ for self.0.iter().map(|&(io, n, (x, y, w, h))| html! {
            <g class="io-group" data-io={io.to_string()} data-requests={n.to_string()}>
                <rect x={f(x)} y={f(y)} width={f(w)} height={f(h)} rx="6" />
                <text class="small io-label" x={f(x)} y={f(y - 3.0)}>{ format!("1 I/O → {n} requests") }</text>
            </g>
        }) }</g> }
    }
}

/// "x16" where tokens pile up on one spot.
#[derive(PartialEq)]
struct Stacks(Vec<(f64, f64, usize)>);

impl PartView for Stacks {
    fn view(&self) -> Html {
        html! { <g class="stacks">{ for self.0.iter().map(|&(x, y, n)| html! {
            <text class="stack" x={f(x + 8.0)} y={f(y - 6.0)}>{ format!("×{n}") }</text>
        }) }</g> }
    }
}

/// The requests.
#[derive(PartialEq)]
struct Tokens {
    tokens: Vec<Token>,
    selected: Option<u64>,
    on_select: Callback<Focus>,
    glide: bool,
}

impl PartView for Tokens {
    fn view(&self) -> Html {
        let key = |i: usize, t: &Token| if self.glide { t.id } else { i as u64 };
        html! { <g class="tokens">{ for self.tokens.iter().enumerate().map(|(i, t)| token(t, key(i, t), Some(t.id) == self.selected, &self.on_select)) }</g> }
    }
}

/// The column under a pointer event on the view's `<svg>`, and where the pointer is in the
/// figure's content (CSS px, scrolled content included), for the tooltip. The `<svg>` is found
/// from the event's target: Yew delegates events, so the current target is the app's root.
fn pointed(e: &MouseEvent) -> Option<(Layer, f64, f64)> {
    let target = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let svg = target.closest("svg").ok()??;
    let r = svg.get_bounding_client_rect();
    if r.width() <= 0.0 {
        return None;
    }
    let (cx, cy) = (e.client_x() as f64, e.client_y() as f64);
    let layer = lay::layer_at((cx - r.left()) * WIDTH / r.width());
    let fig = svg.parent_element()?;
    let f = fig.get_bounding_client_rect();
    Some((
        layer,
        cx - f.left() + fig.scroll_left() as f64,
        cy - f.top() + fig.scroll_top() as f64,
    ))
}

/// The column whose frame an event hit (`g.stage[data-layer]`), if it hit one.
fn layer_of_target(e: &MouseEvent) -> Option<Layer> {
    let el = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    let name = el
        .closest("[data-layer]")
        .ok()??
        .get_attribute("data-layer")?;
    Layer::ALL.into_iter().find(|l| format!("{l:?}") == name)
}

#[function_component(Pipeline)]
pub fn pipeline(props: &PipelineProps) -> Html {
    let now = &*props.snap;
    // The counters' state (see `PipelineProps::shown`); the tokens are `now`'s.
    let s = props.shown.as_deref().unwrap_or(now);
    let cfg = props.cfg;
    let side = props.side.clone();
    let compact = props.compact;
    // The column under the pointer and where the pointer is: one handler on the whole view,
    // so moving over a column's inner boxes or tokens never leaves the column (no flicker).
    let tip = use_state_eq(|| None::<(Layer, f64, f64)>);
    let onpointermove = {
        let (tip, hover) = (tip.clone(), props.on_hover.clone());
        Callback::from(move |e: PointerEvent| {
            if let Some(p) = pointed(&e) {
                if tip.as_ref().map(|t| t.0) != Some(p.0) {
                    hover.emit(Some(p.0));
                }
                tip.set(Some(p));
            }
        })
    };
    let onpointerleave = {
        let (tip, hover) = (tip.clone(), props.on_hover.clone());
        Callback::from(move |e: PointerEvent| {
            // A touch ends with a leave: the tapped column's tooltip stays until the next tap.
            if e.pointer_type() != "touch" {
                tip.set(None);
                hover.emit(None);
            }
        })
    };
    let onclick = {
        let (tip, sel) = (tip.clone(), props.on_select.clone());
        Callback::from(move |e: MouseEvent| {
            let at = pointed(&e);
            let Some(layer) = layer_of_target(&e).or(at.map(|p| p.0)) else {
                return;
            };
            if let Some((_, x, y)) = at {
                tip.set(Some((layer, x, y)));
            }
            sel.emit(Focus::Layer(layer));
        })
    };
    let tooltip = tip.map(|(layer, x, y)| {
        let info = layer_info_on(layer, cfg.mmc_path, &props.platform);
        let term = crate::glossary::term_of(layer, cfg.mmc_path);
        // Beside the pointer: to its right, or to its left past the middle of a wide view.
        let left = if x > 520.0 { x - 266.0 } else { x + 16.0 };
        html! {
            <div class="tip" role="tooltip" id={format!("{side}-tip")} data-layer={format!("{layer:?}")}
                 style={format!("left: {left:.0}px; top: {:.0}px", y + 14.0)}>
                <strong>{ info.title }</strong>
                <span class="tip-kernel">{ for info.kernel.iter().take(3).map(|k| html! { <code>{ *k }</code> }) }</span>
                <span>{ term.text }</span>
                <span class="muted">{ "Click: explained below · see the glossary" }</span>
            </div>
        }
    });
    let (tokens, hidden_now) = lay::place(now, cfg.mmc_path);
    // The "×N" piles and "+N more" where the tokens have arrived.
    let (arrived, hidden) = if std::ptr::eq(s, now) {
        (None, hidden_now)
    } else {
        let (t, h) = lay::place(s, cfg.mmc_path);
        (Some(t), h)
    };
    let n_tokens = tokens.len();
    let reliable_busy = s.bus.is_some_and(|(id, st)| {
        st == Stage::CardBusy && s.requests.iter().any(|r| r.id == id && r.reliable)
    });
    html! {
        <figure class={classes!("pipeline", compact.then_some("compact"))} id={format!("{side}-pipeline")}>
            if !props.title.is_empty() { <figcaption class="pipeline-title">{ props.title.clone() }</figcaption> }
            <svg viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img" aria-label="Requests moving through the eMMC block I/O path"
                 data-tokens={n_tokens.to_string()} {onpointermove} {onpointerleave} {onclick}>
                <defs>
                    <marker id="arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                        <path d="M0 0 L10 5 L0 10 z" class="arrowhead" />
                    </marker>
                </defs>
                <Part<Frames> deps={Frames { cfg, platform: props.platform.clone(), focus: props.focus, compact }} />
                <Part<Lanes> deps={Lanes(s.jobs.iter().map(|j| (j.index, j.inflight, j.outstanding_max)).collect(), compact)} />
                <Part<Blk> deps={Blk { side: side.clone(), tags: (s.tags_in_use, s.tags_total), queued: s.sw_queue.len(), dispatch: s.dispatch_list.len(),
                                       requeues: s.requeues, hidden: hidden.get(&Layer::BlkMq).copied().unwrap_or(0), compact }} />
                <Part<Window> deps={Window { side: side.clone(), cfg, window: s.window, in_flight: s.in_flight, depth: s.hsq_depth,
                                             dynamic: s.hsq_dynamic, changes: s.hsq_depth_changes, compact }} />
                <Part<Slots> deps={Slots { cfg, occupied: lay::occupied_slots(s, cfg.mmc_path), waiting: s.host_queue.len(), compact }} />
                <Part<Controller> deps={Controller { side: side.clone(), on_host: s.on_host.len(), chained: s.chained, in_irq: s.in_irq, interrupts: s.interrupts, recovering: s.requests.iter().filter(|r| r.stage == Stage::Recovery).count(), compact }} />
                <Part<BusLines> deps={BusLines { side: side.clone(), bus: s.bus, compact }} />
                <Part<Card> deps={Card { side: side.clone(), reliable_busy, dirty_kib: s.cache_dirty / 1024, cap: s.cache_capacity, compact }} />
                <Part<IoGroups> deps={IoGroups(lay::io_groups(arrived.as_deref().unwrap_or(&tokens)))} />
                <Part<Stacks> deps={Stacks(lay::stacks(arrived.as_deref().unwrap_or(&tokens)))} />
                <Part<Tokens> deps={Tokens { tokens, selected: props.selected, on_select: props.on_select.clone(), glide: props.glide }} />
            </svg>
            { tooltip.unwrap_or_default() }
        </figure>
    }
}
