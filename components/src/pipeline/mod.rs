//! The animated pipeline: every live request as a token in the stage it is in, left to right
//! fio jobs -> blk-mq -> mmc queue window -> hsq slots (or the legacy / CQE equivalent) ->
//! SDHCI controller -> MMC bus -> card, each column titled with its kernel name.
//!
//! Tokens are keyed by request id, so the browser keeps one element per request and a CSS
//! transition on its `transform` moves it from stage to stage (no motion under
//! `prefers-reduced-motion`, see style.css). Reads are circles, writes squares, FUA (reliable)
//! writes diamonds, flushes triangles; a halo marks a request that bios merged into. Placement
//! is in [`layout`].

pub mod layout;

mod device;
mod host;
mod tokens;
mod view;

use std::rc::Rc;

use mmcsim_engine::explain::{layer_info_on, Layer};
use mmcsim_engine::Snapshot;
use mmcsim_engine::{HostConfig, Stage};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::explain::Focus;
use crate::part::Part;
use device::{BusLines, Card, Controller, Slots};
use host::{Blk, Frames, Lanes, Window};
use layout::{self as lay, HEIGHT, WIDTH};
use tokens::{IoGroups, Stacks, Tokens};

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

/// Where the pointer is: the column under it and the tooltip's place in the figure.
type Tip = Option<(Layer, f64, f64)>;

/// The request whose token an event hit (`g.token[data-req]`), if it hit one.
fn request_of_target(e: &Event) -> Option<u64> {
    let el = e.target()?.dyn_into::<web_sys::Element>().ok()?;
    el.closest(".token[data-req]")
        .ok()??
        .get_attribute("data-req")?
        .parse()
        .ok()
}

/// A press on a token: the request and when (the event's time stamp, ms), so that the click
/// that follows does not select again.
type Pressed = Option<(u64, f64)>;

/// The view's pointer handlers (move, leave, down, click). One handler on the whole view, so
/// moving over a column's inner boxes or tokens never leaves the column (no flicker).
///
/// A token is followed on the press (pointerdown), not on the click: a token moves while the
/// view plays (and at fast speeds its element is reused by another request), so between the
/// mouse's down and up the pointer may leave it, and the browser then sends the click to the
/// nearest common ancestor, the `<svg>`, which would select the column. A click without a
/// press (a dispatched click, an assistive tool's) still follows the token it names.
fn pointer_handlers(
    tip: &UseStateHandle<Tip>,
    pressed: &Rc<std::cell::Cell<Pressed>>,
    on_hover: &Callback<Option<Layer>>,
    on_select: &Callback<Focus>,
) -> (
    Callback<PointerEvent>,
    Callback<PointerEvent>,
    Callback<PointerEvent>,
    Callback<MouseEvent>,
) {
    let onpointermove = {
        let (tip, hover) = (tip.clone(), on_hover.clone());
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
        let (tip, hover) = (tip.clone(), on_hover.clone());
        Callback::from(move |e: PointerEvent| {
            // A touch ends with a leave: the tapped column's tooltip stays until the next tap.
            if e.pointer_type() != "touch" {
                tip.set(None);
                hover.emit(None);
            }
        })
    };
    let onpointerdown = {
        let (pressed, sel) = (pressed.clone(), on_select.clone());
        Callback::from(move |e: PointerEvent| {
            // The primary button only (a touch or pen contact is button 0 too).
            if e.button() != 0 {
                return;
            }
            if let Some(id) = request_of_target(&e) {
                pressed.set(Some((id, e.time_stamp())));
                sel.emit(Focus::Request(id));
            }
        })
    };
    let onclick = {
        let (tip, sel, pressed) = (tip.clone(), on_select.clone(), pressed.clone());
        Callback::from(move |e: MouseEvent| {
            // The click that ends a press on a token: the press followed it already.
            if let Some((_, at)) = pressed.take() {
                if e.time_stamp() - at < 2000.0 {
                    return;
                }
            }
            if let Some(id) = request_of_target(&e) {
                sel.emit(Focus::Request(id));
                return;
            }
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
    (onpointermove, onpointerleave, onpointerdown, onclick)
}

/// The keyboard on a focused token: Enter or space follows its request, the arrow keys move
/// the focus to the next or previous token. Handled here, the keys do not reach the page's
/// play/pause and step shortcuts. A mouse press does not focus a token (`no_focus`), so after
/// a click space still plays.
fn token_keys(on_select: &Callback<Focus>) -> Callback<KeyboardEvent> {
    let sel = on_select.clone();
    Callback::from(move |e: KeyboardEvent| {
        let Some(el) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let Some(tok) = el.closest(".token[data-req]").ok().flatten() else {
            return;
        };
        let key = e.key();
        let next = match key.as_str() {
            "Enter" | " " => {
                if let Some(id) = tok.get_attribute("data-req").and_then(|s| s.parse().ok()) {
                    e.prevent_default();
                    e.stop_propagation();
                    sel.emit(Focus::Request(id));
                }
                return;
            }
            "ArrowRight" | "ArrowDown" => tok.next_element_sibling(),
            "ArrowLeft" | "ArrowUp" => tok.previous_element_sibling(),
            _ => return,
        };
        e.prevent_default();
        e.stop_propagation();
        if let Some(n) = next {
            // An SVG element has focus() too (called by name, as on any element).
            let _ = n.unchecked_ref::<web_sys::HtmlElement>().focus();
        }
    })
}

/// A mouse press on a token: no focus (and no text selection), the press follows it already;
/// a token the keyboard had focused lets the focus go, so space plays again.
fn no_focus() -> Callback<MouseEvent> {
    Callback::from(|e: MouseEvent| {
        if request_of_target(&e).is_none() {
            return;
        }
        e.prevent_default();
        let active = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element());
        if let Some(a) = active.filter(|a| a.closest(".token").ok().flatten().is_some()) {
            let _ = a.unchecked_ref::<web_sys::HtmlElement>().blur();
        }
    })
}

/// The tooltip of column `layer`, beside the pointer at (`x`, `y`).
fn tooltip(layer: Layer, x: f64, y: f64, cfg: &HostConfig, platform: &str, side: &str) -> Html {
    let info = layer_info_on(layer, cfg.mmc_path, platform);
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
}

#[function_component(Pipeline)]
pub fn pipeline(props: &PipelineProps) -> Html {
    let now = &*props.snap;
    // The counters' state (see `PipelineProps::shown`); the tokens are `now`'s.
    let s = props.shown.as_deref().unwrap_or(now);
    let cfg = props.cfg;
    let side = props.side.clone();
    let compact = props.compact;
    // The column under the pointer and where the pointer is.
    let tip = use_state_eq(|| None::<(Layer, f64, f64)>);
    let pressed = (*use_state(|| Rc::new(std::cell::Cell::new(None::<(u64, f64)>)))).clone();
    let (onpointermove, onpointerleave, onpointerdown, onclick) =
        pointer_handlers(&tip, &pressed, &props.on_hover, &props.on_select);
    let onkeydown = token_keys(&props.on_select);
    let onmousedown = no_focus();
    let tooltip = tip.map(|(layer, x, y)| tooltip(layer, x, y, &cfg, &props.platform, &side));
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
            if !props.title.is_empty() { <figcaption class="pipeline-title" title={props.title.clone()}>{ props.title.clone() }</figcaption> }
            <svg viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img" aria-label="Requests moving through the eMMC block I/O path"
                 data-tokens={n_tokens.to_string()} {onpointermove} {onpointerleave} {onpointerdown} {onmousedown} {onclick} {onkeydown}>
                <defs>
                    <marker id="arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                        <path d="M0 0 L10 5 L0 10 z" class="arrowhead" />
                    </marker>
                </defs>
                <Part<Frames> deps={Frames { cfg, platform: props.platform.clone(), focus: props.focus, compact }} />
                <Part<Lanes> deps={Lanes(s.jobs.iter().map(|j| (j.index, j.inflight, j.outstanding_max)).collect(), compact)} />
                <Part<Blk> deps={Blk { side: side.clone(), tags: (s.tags_in_use, s.tags_total), queued: s.sw_queue.len(), dispatch: s.dispatch_list.len(),
                                       requeues: s.requeues, merges: s.merges, issued: (s.issued_by_task, s.issued_by_kblockd), hidden: hidden.get(&Layer::BlkMq).copied().unwrap_or(0), bfq: s.bfq.clone(), compact }} />
                <Part<Window> deps={Window { side: side.clone(), cfg, window: s.window, in_flight: s.in_flight, depth: s.hsq_depth,
                                             dynamic: s.hsq_dynamic, changes: s.hsq_depth_changes, compact }} />
                <Part<Slots> deps={Slots { cfg, occupied: lay::occupied_slots(s, cfg.mmc_path), waiting: s.host_queue.len(), compact }} />
                <Part<Controller> deps={Controller { side: side.clone(), on_host: s.on_host.len(), chained: s.chained, in_irq: s.in_irq, interrupts: s.interrupts, recovering: s.requests.iter().filter(|r| r.stage == Stage::Recovery).count(), compact }} />
                <Part<BusLines> deps={BusLines { side: side.clone(), bus: s.bus, compact }} />
                <Part<Card> deps={Card { side: side.clone(), reliable_busy, dirty_kib: s.cache_dirty / 1024, cap: s.cache_capacity, compact }} />
                <Part<IoGroups> deps={IoGroups(lay::io_groups(arrived.as_deref().unwrap_or(&tokens), &lay::live_requests(&s.requests)))} />
                <Part<Stacks> deps={Stacks(lay::stacks(arrived.as_deref().unwrap_or(&tokens)))} />
                <Part<Tokens> deps={Tokens { tokens, selected: props.selected, glide: props.glide }} />
            </svg>
            { tooltip.unwrap_or_default() }
        </figure>
    }
}
