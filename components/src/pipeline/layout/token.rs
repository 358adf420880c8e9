//! The requests as the view draws them: their kind, their token, the piles and the boxes
//! around the requests of one split I/O.

use std::collections::HashMap;

use mmcsim_engine::explain::Layer;
use mmcsim_engine::RequestView;
use mmcsim_engine::{Op, Stage};

/// Tokens drawn on the same spot: (x, y, how many) for every spot with more than one, so the
/// view can say "x16" where requests pile up (the bus, the card, a full lane).
pub fn stacks(tokens: &[Token]) -> Vec<(f64, f64, usize)> {
    let mut spots: Vec<(f64, f64, usize)> = Vec::new();
    for t in tokens {
        match spots
            .iter_mut()
            .find(|s| (s.0 - t.x).abs() < 3.0 && (s.1 - t.y).abs() < 3.0)
        {
            Some(s) => s.2 += 1 + t.under,
            None => spots.push((t.x, t.y, 1 + t.under)),
        }
    }
    spots.retain(|s| s.2 > 1);
    spots
}

/// The requests of one split I/O drawn in one column: (I/O, its live requests, the box around
/// its tokens there as x, y, w, h).
pub type IoGroup = (u64, usize, (f64, f64, f64, f64));

/// Each I/O's live requests in a snapshot (`requests`), drawn or not: a job lane's pile draws
/// at most [`super::MAX_PILE`] of them.
pub fn live_requests(requests: &[RequestView]) -> HashMap<u64, usize> {
    let mut live: HashMap<u64, usize> = HashMap::new();
    for r in requests {
        *live.entry(r.io).or_default() += 1;
    }
    live
}

/// The [`IoGroup`]s of every I/O with two or more live requests (`live`: [`live_requests`]),
/// boxed around its tokens in each column.
pub fn io_groups(tokens: &[Token], live: &HashMap<u64, usize>) -> Vec<IoGroup> {
    let live_of = |io: u64| live.get(&io).copied().unwrap_or(1);
    let mut boxes: Vec<(u64, Layer, f64, f64, f64, f64)> = Vec::new();
    for t in tokens.iter().filter(|t| live_of(t.io) > 1) {
        match boxes.iter_mut().find(|b| b.0 == t.io && b.1 == t.layer) {
            Some(b) => {
                b.2 = b.2.min(t.x);
                b.3 = b.3.min(t.y);
                b.4 = b.4.max(t.x);
                b.5 = b.5.max(t.y);
            }
            None => boxes.push((t.io, t.layer, t.x, t.y, t.x, t.y)),
        }
    }
    let pad = 9.0;
    boxes
        .into_iter()
        .map(|(io, _, x0, y0, x1, y1)| {
            let b = (x0 - pad, y0 - pad, x1 - x0 + 2.0 * pad, y1 - y0 + 2.0 * pad);
            (io, live_of(io), b)
        })
        .collect()
}

/// How a request is drawn: the shape says the kind as well as the colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// Circle.
    Read,
    /// Square.
    Write,
    /// Diamond: a write with REQ_FUA that the card runs as a reliable write.
    Fua,
    /// Triangle: a cache flush (CMD6).
    Flush,
}

impl TokenKind {
    pub fn of(r: &RequestView) -> TokenKind {
        match r.op {
            Op::Read => TokenKind::Read,
            Op::Write if r.reliable => TokenKind::Fua,
            Op::Write => TokenKind::Write,
            // The synchronous commands (MMC_ISSUE_SYNC): CMD6 flush, CMD38 discard.
            Op::Flush | Op::Discard => TokenKind::Flush,
        }
    }
    pub fn class(self) -> &'static str {
        match self {
            TokenKind::Read => "read",
            TokenKind::Write => "write",
            TokenKind::Fua => "fua",
            TokenKind::Flush => "flush",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            TokenKind::Read => "read",
            TokenKind::Write => "write",
            TokenKind::Fua => "FUA write (reliable write)",
            TokenKind::Flush => "flush",
        }
    }
}

/// One request placed in the view.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub id: u64,
    /// The I/O it belongs to (the requests one large I/O was split into share it).
    pub io: u64,
    pub job: u32,
    pub kind: TokenKind,
    pub stage: Stage,
    pub layer: Layer,
    pub x: f64,
    pub y: f64,
    /// Completed, waiting for the job to reap it (drawn faded).
    pub done: bool,
    pub len: u64,
    /// The bios it carries: more than 1 once bios merged into it (drawn with a halo).
    pub bios: u32,
    /// Requests piled under this one on its job's lane and not drawn (see `MAX_PILE`).
    pub under: usize,
}

/// Which layer a request is in for the view.
pub fn layer_of(r: &RequestView, on_host: bool) -> Layer {
    match r.stage {
        Stage::Submit | Stage::Complete | Stage::Done => Layer::Jobs,
        Stage::BlkMq => Layer::BlkMq,
        // The block softirq: hsq's slot is free again, the mmc queue's place is held until
        // in_flight--.
        Stage::Issue | Stage::Softirq => Layer::MmcQueue,
        Stage::HostQueue if on_host => Layer::Controller,
        Stage::HostQueue => Layer::HostQueue,
        Stage::Command | Stage::Data => Layer::Bus,
        Stage::CardAccess | Stage::CardBusy => Layer::Card,
        Stage::Irq | Stage::Recovery => Layer::Controller,
    }
}
