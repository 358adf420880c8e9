//! Where the pipeline view draws each request: plain geometry from a [`Snapshot`], no DOM, so
//! it is cheap per frame and testable on its own.
//!
//! The view is a fixed 1200 x [`HEIGHT`] SVG canvas split into seven columns, left to right in
//! kernel-path order (the engine's [`Layer::ALL`]). A request's stage decides its column; its
//! place inside the column comes from what identifies it there: its job's lane, its position on
//! `hctx->dispatch`, its hsq slot (= blk-mq tag), its row in the ADMA3 chain.

mod place;
mod token;

#[cfg(test)]
mod tests;

use mmcsim_engine::explain::Layer;
use mmcsim_engine::MmcPath;
use mmcsim_engine::CQE_TASKS;
use mmcsim_engine::HSQ_NUM_SLOTS;

pub use place::{occupied_slots, place, slot_cells, MAX_PILE};
pub use token::{io_groups, layer_of, live_requests, stacks, IoGroup, Token, TokenKind};

/// Height of the view box (the width is [`WIDTH`]).
pub const HEIGHT: f64 = 372.0;
pub const WIDTH: f64 = 1200.0;
/// Top of the columns' content, below their two-line headers.
pub const TOP: f64 = 50.0;
/// Bottom of the columns' content.
pub const BOTTOM: f64 = HEIGHT - 8.0;
/// Job lanes drawn at most; the rest are summed up as "+N more".
pub const MAX_LANES: usize = 32;
/// Requests drawn at most in one queue box (the rest: "+N").
pub const MAX_IN_BOX: usize = 40;
/// Cell size of the hsq slot grid (8 x 8 slots).
pub const SLOT: f64 = 19.0;

/// Slots the host queue column draws: hsq's `HSQ_NUM_SLOTS` (one per blk-mq tag), cqhci's
/// task slots (the engine's `CQE_TASKS` for data plus the one DCMD slot), or the legacy
/// path's current and prepared request.
pub fn host_slots(path: MmcPath) -> u16 {
    match path {
        MmcPath::Hsq => HSQ_NUM_SLOTS,
        MmcPath::Cqe => CQE_TASKS as u16 + 1,
        MmcPath::Legacy => 2,
    }
}

/// A column of the view: its layer, left edge and width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Column {
    pub layer: Layer,
    pub x: f64,
    pub w: f64,
}

pub const COLUMNS: [Column; 7] = [
    Column {
        layer: Layer::Jobs,
        x: 6.0,
        w: 164.0,
    },
    Column {
        layer: Layer::BlkMq,
        x: 186.0,
        w: 170.0,
    },
    Column {
        layer: Layer::MmcQueue,
        x: 372.0,
        w: 118.0,
    },
    Column {
        layer: Layer::HostQueue,
        x: 506.0,
        w: 170.0,
    },
    Column {
        layer: Layer::Controller,
        x: 692.0,
        w: 168.0,
    },
    Column {
        layer: Layer::Bus,
        x: 876.0,
        w: 112.0,
    },
    Column {
        layer: Layer::Card,
        x: 1004.0,
        w: 190.0,
    },
];

pub fn column(layer: Layer) -> Column {
    COLUMNS
        .iter()
        .copied()
        .find(|c| c.layer == layer)
        .unwrap_or(COLUMNS[0])
}

/// The column under view-box abscissa `x`: the gaps between columns belong to the column on
/// their right half's side, so the pointer never falls between two columns (no flicker).
pub fn layer_at(x: f64) -> Layer {
    COLUMNS
        .iter()
        .rev()
        .find(|c| x >= c.x - 8.0)
        .unwrap_or(&COLUMNS[0])
        .layer
}

/// Geometry of the job lanes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lanes {
    pub shown: usize,
    pub hidden: usize,
    pub top: f64,
    pub h: f64,
}

pub fn lanes(jobs: usize) -> Lanes {
    let shown = jobs.min(MAX_LANES);
    let top = TOP + 4.0;
    let h = if shown == 0 {
        0.0
    } else {
        ((BOTTOM - 22.0 - top) / shown as f64).min(26.0)
    };
    Lanes {
        shown,
        hidden: jobs - shown,
        top,
        h,
    }
}

/// The boxes inside the blk-mq column: (x, y, w, h) of the software queue and of
/// `hctx->dispatch`.
pub fn blk_boxes() -> [(f64, f64, f64, f64); 2] {
    let c = column(Layer::BlkMq);
    [
        (c.x + 8.0, TOP + 40.0, c.w - 16.0, 116.0),
        (c.x + 8.0, TOP + 190.0, c.w - 16.0, 104.0),
    ]
}

/// Top-left of hsq slot `slot` (0..`HSQ_NUM_SLOTS`) in the 8 x 8 grid.
pub fn slot_xy(slot: u16) -> (f64, f64) {
    let c = column(Layer::HostQueue);
    let (col, row) = ((slot % 8) as f64, (slot / 8) as f64);
    (
        c.x + (c.w - 8.0 * SLOT) / 2.0 + col * SLOT,
        TOP + 28.0 + row * SLOT,
    )
}

/// Rows of the controller's chain (one per request on the controller).
pub fn chain_row_y(i: usize) -> f64 {
    TOP + 44.0 + i as f64 * 17.0
}

/// Centre of the `i`th cell of a box filled in rows of tokens 16 px apart.
fn in_box(b: (f64, f64, f64, f64), i: usize) -> (f64, f64) {
    let per_row = ((b.2 - 8.0) / 16.0).floor().max(1.0) as usize;
    let (col, row) = (i % per_row, i / per_row);
    (
        b.0 + 12.0 + col as f64 * 16.0,
        b.1 + 22.0 + row as f64 * 16.0,
    )
}
