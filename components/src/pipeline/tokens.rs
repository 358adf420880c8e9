//! The requests drawn: a token per request (a halo when bios merged into it), the boxes around
//! split I/Os, the "×N" piles.

use yew::prelude::*;

use super::layout::{self as lay, Token, TokenKind};
use super::view::f;
use crate::part::PartView;

pub(super) fn shape(kind: TokenKind, r: f64) -> Html {
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

/// A request's token; a press or click on it follows the request, and so does Enter or space
/// when it has the keyboard's focus (the view's handlers, `super::pointer_handlers` and
/// `super::token_keys`). One token is in the Tab order (`tabindex` 0: the followed one, else
/// the first); the arrow keys move between tokens.
pub(super) fn token(t: &Token, key: u64, selected: bool, tab: bool) -> Html {
    let class = classes!(
        "token",
        t.kind.class(),
        t.done.then_some("done"),
        selected.then_some("selected"),
        (t.bios > 1).then_some("merged")
    );
    let merged = if t.bios > 1 {
        format!(" · {} bios merged into one request", t.bios)
    } else {
        String::new()
    };
    html! {
        <g {key} {class} tabindex={if tab { "0" } else { "-1" }} role="button" data-req={t.id.to_string()} data-io={t.io.to_string()} data-stage={t.stage.name()} data-bios={t.bios.to_string()}
           style={format!("transform: translate({}px, {}px)", f(t.x), f(t.y))}>
            <title>{ format!("request {} · job {} · {} {} B{merged} · {}", t.id, t.job, t.kind.label(), t.len, t.stage.name()) }</title>
            // A request that grew by merging: a halo around it, wider the more bios it
            // carries (up to 32 of them).
            if t.bios > 1 { <circle class="halo" r={f(7.5 + (t.bios.min(32) as f64).log2())} /> }
            { shape(t.kind, 5.5) }
        </g>
    }
}

/// The requests one large I/O was split into, boxed together in each column they are in:
/// "1 I/O → 4 requests".
#[derive(PartialEq)]
pub(super) struct IoGroups(pub(super) Vec<lay::IoGroup>);

impl PartView for IoGroups {
    fn view(&self) -> Html {
        html! { <g class="io-groups">{ for self.0.iter().map(|&(io, n, (x, y, w, h))| html! {
            <g class="io-group" data-io={io.to_string()} data-requests={n.to_string()}>
                <rect x={f(x)} y={f(y)} width={f(w)} height={f(h)} rx="6" />
                // Above the "×N" a pile in the box shows at its top right (`Stacks`).
                <text class="small io-label" x={f(x)} y={f(y - 12.0)}>{ format!("1 I/O → {n} requests") }</text>
            </g>
        }) }</g> }
    }
}

/// "x16" where tokens pile up on one spot.
#[derive(PartialEq)]
pub(super) struct Stacks(pub(super) Vec<(f64, f64, usize)>);

impl PartView for Stacks {
    fn view(&self) -> Html {
        html! { <g class="stacks">{ for self.0.iter().map(|&(x, y, n)| html! {
            <text class="stack" x={f(x + 8.0)} y={f(y - 6.0)}>{ format!("×{n}") }</text>
        }) }</g> }
    }
}

/// The requests.
#[derive(PartialEq)]
pub(super) struct Tokens {
    pub(super) tokens: Vec<Token>,
    pub(super) selected: Option<u64>,
    pub(super) glide: bool,
}

impl PartView for Tokens {
    fn view(&self) -> Html {
        let key = |i: usize, t: &Token| if self.glide { t.id } else { i as u64 };
        let followed = self
            .selected
            .is_some_and(|id| self.tokens.iter().any(|t| t.id == id));
        let tab = |i: usize, t: &Token| {
            if followed {
                Some(t.id) == self.selected
            } else {
                i == 0
            }
        };
        html! { <g class="tokens">{ for self.tokens.iter().enumerate().map(|(i, t)| token(t, key(i, t), Some(t.id) == self.selected, tab(i, t))) }</g> }
    }
}
