//! The device-side columns: the host queue's slots, the controller, the bus and the card.

use mmcsim_engine::explain::Layer;
use mmcsim_engine::{HostConfig, MmcPath, Stage};
use yew::prelude::*;

use super::layout::{self as lay, column, TokenKind, BOTTOM, SLOT, TOP};
use super::view::{f, kib, text};
use crate::part::PartView;

/// hsq's slots (CQE: its task slots; legacy: the current and the prepared request), counted
/// by [`lay::host_slots`].
#[derive(PartialEq)]
pub(super) struct Slots {
    pub(super) cfg: HostConfig,
    pub(super) occupied: Vec<(u16, TokenKind, bool)>,
    pub(super) waiting: usize,
    pub(super) compact: bool,
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
pub(super) struct Controller {
    pub(super) side: AttrValue,
    pub(super) on_host: usize,
    pub(super) chained: bool,
    pub(super) in_irq: bool,
    pub(super) interrupts: u64,
    /// Requests in the mmc recovery path (CRC error: CMD13, retry, reset).
    pub(super) recovering: usize,
    pub(super) compact: bool,
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
                // The count is a readout a tour's text may name (`a.irqs`: "B's 7 interrupts").
                <text x={f(c.x + 30.0)} y={f(BOTTOM - 10.0)} class="small">{ "IRQ · " }<tspan data-readout={format!("{side}.irqs")}>{ self.interrupts }</tspan>{ if self.compact { "" } else { " so far" } }</text>
            </g>
        }
    }
}

/// The bus: CMD line and DAT lines, and the phase of the request on them.
#[derive(PartialEq)]
pub(super) struct BusLines {
    pub(super) side: AttrValue,
    pub(super) bus: Option<(u64, Stage)>,
    pub(super) compact: bool,
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
pub(super) struct Card {
    pub(super) side: AttrValue,
    pub(super) reliable_busy: bool,
    pub(super) dirty_kib: u64,
    pub(super) cap: u64,
    pub(super) compact: bool,
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
