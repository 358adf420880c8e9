//! Where the pipeline view draws each request: plain geometry from a [`Snapshot`], no DOM, so
//! it is cheap per frame and testable on its own.
//!
//! The view is a fixed 1200 x [`HEIGHT`] SVG canvas split into seven columns, left to right in
//! kernel-path order (the engine's [`Layer::ALL`]). A request's stage decides its column; its
//! place inside the column comes from what identifies it there: its job's lane, its position on
//! `hctx->dispatch`, its hsq slot (= blk-mq tag), its row in the ADMA3 chain.

use std::collections::HashMap;

use mmcsim_engine::explain::Layer;
use mmcsim_engine::RequestView;
use mmcsim_engine::Snapshot;
use mmcsim_engine::CQE_TASKS;
use mmcsim_engine::HSQ_NUM_SLOTS;
use mmcsim_engine::{MmcPath, Op, Stage};

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

/// Tokens drawn on the same spot: (x, y, how many) for every spot with more than one, so the
/// view can say "x16" where requests pile up (the bus, the card, a full lane).
pub fn stacks(tokens: &[Token]) -> Vec<(f64, f64, usize)> {
    let mut spots: Vec<(f64, f64, usize)> = Vec::new();
    for t in tokens {
        match spots
            .iter_mut()
            .find(|s| (s.0 - t.x).abs() < 3.0 && (s.1 - t.y).abs() < 3.0)
        {
            Some(s) => s.2 += 1,
            None => spots.push((t.x, t.y, 1)),
        }
    }
    spots.retain(|s| s.2 > 1);
    spots
}

/// The requests of one split I/O drawn in one column: (I/O, its live requests, the box around
/// its tokens there as x, y, w, h).
pub type IoGroup = (u64, usize, (f64, f64, f64, f64));

/// The [`IoGroup`]s of every I/O with two or more live requests.
pub fn io_groups(tokens: &[Token]) -> Vec<IoGroup> {
    let mut live: HashMap<u64, usize> = HashMap::new();
    for t in tokens {
        *live.entry(t.io).or_default() += 1;
    }
    let mut boxes: Vec<(u64, Layer, f64, f64, f64, f64)> = Vec::new();
    for t in tokens.iter().filter(|t| live[&t.io] > 1) {
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
            (io, live[&io], b)
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

/// Which layer a request is in for the view.
pub fn layer_of(r: &RequestView, on_host: bool) -> Layer {
    match r.stage {
        Stage::Submit | Stage::Complete | Stage::Done => Layer::Jobs,
        Stage::BlkMq => Layer::BlkMq,
        Stage::Issue => Layer::MmcQueue,
        Stage::HostQueue if on_host => Layer::Controller,
        Stage::HostQueue => Layer::HostQueue,
        Stage::Command | Stage::Data => Layer::Bus,
        Stage::CardAccess | Stage::CardBusy => Layer::Card,
        Stage::Irq | Stage::Recovery => Layer::Controller,
    }
}

/// The tokens to draw and, per layer, how many requests were left out for lack of room.
pub fn place(s: &Snapshot, path: MmcPath) -> (Vec<Token>, HashMap<Layer, usize>) {
    let lanes = lanes(s.jobs.len());
    let mut tokens = Vec::with_capacity(s.requests.len().min(256));
    let mut hidden: HashMap<Layer, usize> = HashMap::new();
    let mut per_lane: HashMap<(u32, bool), usize> = HashMap::new();
    let boxes = blk_boxes();
    let (mut n_sw, mut n_mmc, mut n_host, mut n_irq) = (0usize, 0usize, 0usize, 0usize);
    let mmc = column(Layer::MmcQueue);
    let hq = column(Layer::HostQueue);
    let ctl = column(Layer::Controller);
    let bus = column(Layer::Bus);
    let card = column(Layer::Card);
    let cells = slot_cells(s, path);
    for r in &s.requests {
        let on_host = s.on_host.contains(&r.id);
        let layer = layer_of(r, on_host);
        let pos: Option<(f64, f64)> = match (layer, r.stage) {
            (Layer::Jobs, st) => {
                let done = st != Stage::Submit;
                let lane = r.job as usize;
                if lane >= lanes.shown {
                    None
                } else {
                    let k = per_lane.entry((r.job, done)).or_default();
                    *k += 1;
                    let base = if done { 96.0 } else { 150.0 };
                    let x = ctl_x_jobs() + base - ((*k - 1).min(3) as f64) * 13.0;
                    Some((x, lanes.top + (lane as f64 + 0.5) * lanes.h))
                }
            }
            (Layer::BlkMq, _) => {
                if let Some(i) = s.dispatch_list.iter().position(|&d| d == r.id) {
                    (i < MAX_IN_BOX).then(|| in_box(boxes[1], i))
                } else {
                    n_sw += 1;
                    (n_sw <= MAX_IN_BOX).then(|| in_box(boxes[0], n_sw - 1))
                }
            }
            (Layer::MmcQueue, _) => {
                n_mmc += 1;
                (n_mmc <= 12)
                    .then(|| (mmc.x + mmc.w - 20.0, TOP + 40.0 + (n_mmc - 1) as f64 * 18.0))
            }
            (Layer::HostQueue, _) => match (path, r.tag) {
                (MmcPath::Hsq, Some(_)) | (MmcPath::Cqe, Some(_)) => {
                    let cell = cells.iter().find(|c| c.0 == r.id).map(|c| c.1);
                    cell.map(|cell| {
                        let (x, y) = slot_xy(cell);
                        (x + SLOT / 2.0, y + SLOT / 2.0)
                    })
                }
                _ => {
                    n_host += 1;
                    let i = s
                        .host_queue
                        .iter()
                        .position(|&h| h == r.id)
                        .unwrap_or(n_host - 1);
                    (i < 8).then(|| (hq.x + hq.w / 2.0, TOP + 60.0 + i as f64 * 26.0))
                }
            },
            (Layer::Controller, Stage::HostQueue) => {
                let i = s.on_host.iter().position(|&h| h == r.id).unwrap_or(0);
                (i < 16).then(|| (ctl.x + ctl.w - 18.0, chain_row_y(i) + 6.0))
            }
            (Layer::Controller, _) => {
                // Done on the bus, waiting for the interrupt: side by side above the IRQ lamp.
                n_irq += 1;
                let k = (n_irq - 1) as f64;
                (n_irq <= 20).then(|| {
                    (
                        ctl.x + 14.0 + (k % 10.0) * 15.0,
                        BOTTOM - 36.0 - (k / 10.0).floor() * 14.0,
                    )
                })
            }
            (Layer::Bus, Stage::Command) => Some((bus.x + bus.w / 2.0, TOP + 62.0)),
            (Layer::Bus, _) => Some((bus.x + bus.w / 2.0, TOP + 150.0)),
            (Layer::Card, Stage::CardAccess) => Some((card.x + 34.0, TOP + 150.0)),
            (Layer::Card, _) => Some((card.x + 34.0, TOP + 196.0)),
        };
        match pos {
            Some((x, y)) => tokens.push(Token {
                id: r.id,
                io: r.io,
                job: r.job,
                kind: TokenKind::of(r),
                stage: r.stage,
                layer,
                x,
                y,
                done: matches!(r.stage, Stage::Complete | Stage::Done),
                len: r.len,
            }),
            None => *hidden.entry(layer).or_default() += 1,
        }
    }
    (tokens, hidden)
}

fn ctl_x_jobs() -> f64 {
    column(Layer::Jobs).x
}

/// Requests holding a host-queue slot, between `mmc_hsq_request` (or `cqhci_request`) and
/// their finalize.
fn holds_slot(r: &RequestView) -> bool {
    r.tag.is_some()
        && matches!(
            r.stage,
            Stage::HostQueue
                | Stage::Command
                | Stage::CardAccess
                | Stage::Data
                | Stage::CardBusy
                | Stage::Irq
                | Stage::Recovery
        )
}

/// (request id, grid cell) of every request holding a slot. hsq: the cell is the slot, which
/// is the blk-mq tag (64 of each). CQE: cqhci's 32 task slots are not the 64 tags, so the
/// holders fill the cells in order: as many cells lit as tasks held.
pub fn slot_cells(s: &Snapshot, path: MmcPath) -> Vec<(u64, u16)> {
    let n = host_slots(path).max(1);
    let held = s.requests.iter().filter(|r| holds_slot(r));
    match path {
        MmcPath::Cqe => held
            .enumerate()
            .map(|(i, r)| (r.id, (i as u16).min(n - 1)))
            .collect(),
        _ => held
            .filter_map(|r| r.tag.map(|t| (r.id, t % HSQ_NUM_SLOTS)))
            .collect(),
    }
}

/// Slots held: (cell, kind, on the bus), one per request holding one ([`slot_cells`]).
pub fn occupied_slots(s: &Snapshot, path: MmcPath) -> Vec<(u16, TokenKind, bool)> {
    let on_bus = s.bus.map(|b| b.0);
    let cells = slot_cells(s, path);
    s.requests
        .iter()
        .filter_map(|r| {
            let cell = cells.iter().find(|c| c.0 == r.id)?.1;
            Some((cell, TokenKind::of(r), Some(r.id) == on_bus))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmcsim_engine::{JobSpec, Rw, Scenario, Simulator};

    #[test]
    fn columns_follow_the_kernel_path_side_by_side_inside_the_view() {
        let layers: Vec<Layer> = COLUMNS.iter().map(|c| c.layer).collect();
        assert_eq!(layers, Layer::ALL.to_vec());
        for pair in COLUMNS.windows(2) {
            assert!(pair[0].x + pair[0].w < pair[1].x, "{pair:?} overlap");
        }
        let last = COLUMNS[COLUMNS.len() - 1];
        assert!(COLUMNS[0].x >= 0.0 && last.x + last.w <= WIDTH);
        for c in COLUMNS {
            assert_eq!(column(c.layer), c);
        }
    }

    #[test]
    fn lanes_fit_the_column_and_hide_what_is_past_the_limit() {
        assert_eq!(lanes(0).shown, 0);
        assert_eq!(lanes(0).h, 0.0);
        let l = lanes(20);
        assert_eq!((l.shown, l.hidden), (20, 0));
        let l = lanes(MAX_LANES + 8);
        assert_eq!((l.shown, l.hidden), (MAX_LANES, 8));
        for jobs in [1, 4, 20, MAX_LANES, 100] {
            let l = lanes(jobs);
            assert!(l.h <= 26.0);
            assert!(
                l.top + l.shown as f64 * l.h <= BOTTOM - 22.0 + 1e-9,
                "{jobs} jobs: {l:?}"
            );
        }
    }

    #[test]
    fn hsq_slots_are_64_distinct_cells_inside_their_column() {
        let c = column(Layer::HostQueue);
        let cells: std::collections::HashSet<(i64, i64)> = (0..64u16)
            .map(|s| {
                let (x, y) = slot_xy(s);
                assert!(x >= c.x && x + SLOT <= c.x + c.w, "slot {s} x {x}");
                assert!(y >= TOP && y + SLOT <= BOTTOM, "slot {s} y {y}");
                (x as i64, y as i64)
            })
            .collect();
        assert_eq!(cells.len(), 64);
    }

    #[test]
    fn blk_mq_boxes_are_inside_the_column_one_above_the_other() {
        let c = column(Layer::BlkMq);
        let [sw, dispatch] = blk_boxes();
        for b in [sw, dispatch] {
            assert!(b.0 >= c.x && b.0 + b.2 <= c.x + c.w);
            assert!(b.1 >= TOP && b.1 + b.3 <= BOTTOM);
        }
        assert!(sw.1 + sw.3 <= dispatch.1);
    }

    /// Every request of real snapshots, 20 jobs of 4 KiB reads with packed ADMA3 chains and
    /// without, is drawn inside its layer's column or counted as hidden.
    #[test]
    fn place_keeps_every_token_in_its_column() {
        for packed in [8, 0] {
            let mut scn = Scenario {
                platform: "sprd-hs400es-2020".into(),
                ..Scenario::default()
            };
            scn.host.packed = Some(packed);
            scn.jobs = vec![JobSpec {
                name: "t".into(),
                rw: Rw::RandRead,
                bs: 4096,
                size: 1 << 20,
                numjobs: 20,
                ..JobSpec::default()
            }];
            let mut sim = Simulator::new(&scn).expect("valid scenario");
            let mut seen = 0;
            for step in 1..=40u64 {
                sim.run_until(step * 37_000);
                let snap = sim.snapshot();
                let path = scn.host_config().expect("host config").mmc_path;
                let (tokens, hidden) = place(&snap, path);
                assert_eq!(
                    tokens.len() + hidden.values().sum::<usize>(),
                    snap.requests.len()
                );
                for t in &tokens {
                    let c = column(t.layer);
                    assert!(
                        t.x >= c.x && t.x <= c.x + c.w,
                        "packed={packed}: {t:?} outside {c:?}"
                    );
                    assert!(t.y >= TOP && t.y <= BOTTOM, "packed={packed}: {t:?}");
                }
                seen += tokens.len();
            }
            assert!(seen > 100, "packed={packed}: {seen} tokens placed");
        }
    }

    #[test]
    fn the_requests_of_a_split_io_are_boxed_together_in_each_column() {
        let t = |id, io, layer, x, y| Token {
            id,
            io,
            job: 0,
            kind: TokenKind::Write,
            stage: Stage::HostQueue,
            layer,
            x,
            y,
            done: false,
            len: 4096,
        };
        let tokens = [
            t(4, 4, Layer::HostQueue, 600.0, 100.0),
            t(5, 4, Layer::HostQueue, 619.0, 100.0),
            t(6, 4, Layer::Controller, 840.0, 120.0),
            t(7, 7, Layer::HostQueue, 638.0, 100.0),
        ];
        let g = io_groups(&tokens);
        assert_eq!(
            g.len(),
            2,
            "I/O 4 in two columns; I/O 7 alone is no group: {g:?}"
        );
        assert_eq!((g[0].0, g[0].1), (4, 3));
        assert_eq!(g[0].2, (591.0, 91.0, 37.0, 18.0));
        assert_eq!((g[1].0, g[1].1, g[1].2 .0), (4, 3, 831.0));
    }

    #[test]
    fn a_request_on_the_controller_is_drawn_there_not_in_hsq() {
        let r = RequestView {
            id: 1,
            io: 1,
            job: 0,
            op: Op::Write,
            offset: 0,
            len: 4096,
            reliable: true,
            stage: Stage::HostQueue,
            since_ns: 0,
            tag: Some(3),
            chain: None,
        };
        assert_eq!(layer_of(&r, false), Layer::HostQueue);
        assert_eq!(layer_of(&r, true), Layer::Controller);
        assert_eq!(TokenKind::of(&r), TokenKind::Fua);
    }

    /// Issue 12: the CQE grid said "30 held" and lit 2 cells (tags mod 64 on 32 cells).
    #[test]
    fn every_held_cqe_task_lights_its_own_cell() {
        let mut scn = Scenario::default();
        scn.host.mmc_path = Some(MmcPath::Cqe);
        scn.jobs[0].numjobs = 40;
        scn.jobs[0].size = 1 << 20;
        let mut sim = Simulator::new(&scn).unwrap();
        let mut most = 0;
        for _ in 0..400 {
            sim.run_events(37);
            let snap = sim.snapshot();
            let occ = occupied_slots(&snap, MmcPath::Cqe);
            let mut cells: Vec<u16> = occ.iter().map(|o| o.0).collect();
            cells.sort_unstable();
            cells.dedup();
            assert_eq!(cells.len(), occ.len(), "one cell per held task");
            assert!(cells.iter().all(|&c| c < host_slots(MmcPath::Cqe)));
            most = most.max(occ.len());
        }
        assert!(most > 8, "the test saw {most} held tasks at most");
    }

    #[test]
    fn the_pointer_is_always_over_one_column() {
        for x in 0..1200 {
            let l = layer_at(x as f64);
            let c = column(l);
            assert!(
                x as f64 >= c.x - 8.0 && (x as f64) < c.x + c.w + 16.0,
                "{x} -> {l:?}"
            );
        }
        assert_eq!(layer_at(COLUMNS[3].x + 5.0), Layer::HostQueue);
    }

    #[test]
    fn piled_up_tokens_are_counted() {
        let t = |id, x, y| Token {
            id,
            io: id,
            job: 0,
            kind: TokenKind::Read,
            stage: Stage::Data,
            layer: Layer::Bus,
            x,
            y,
            done: false,
            len: 4096,
        };
        let s = stacks(&[
            t(1, 10.0, 10.0),
            t(2, 10.0, 10.0),
            t(3, 11.0, 10.0),
            t(4, 50.0, 10.0),
        ]);
        assert_eq!(s, vec![(10.0, 10.0, 3)]);
    }
}
