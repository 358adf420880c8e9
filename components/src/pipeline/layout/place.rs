//! Where each request goes: its layer's column, and its spot there from what identifies it
//! (lane, queue position, slot, chain row), or left out for lack of room.

use std::collections::{HashMap, HashSet};

use mmcsim_engine::explain::Layer;
use mmcsim_engine::RequestView;
use mmcsim_engine::Snapshot;
use mmcsim_engine::HSQ_NUM_SLOTS;
use mmcsim_engine::{MmcPath, Stage};

use super::token::{layer_of, Token, TokenKind};
use super::{
    blk_boxes, chain_row_y, column, host_slots, in_box, lanes, slot_xy, Column, Lanes, BOTTOM,
    MAX_IN_BOX, SLOT, TOP,
};

/// The spots of one snapshot being handed out: the geometry, and how many requests each
/// queue has placed so far.
struct Placer {
    path: MmcPath,
    lanes: Lanes,
    boxes: [(f64, f64, f64, f64); 2],
    mmc: Column,
    hq: Column,
    ctl: Column,
    bus: Column,
    card: Column,
    cells: HashMap<u64, u16>,
    /// Each request's place in blk-mq's dispatch list, on the host (ADMA3 chain or hsq) and in
    /// the legacy host queue: looked up once per request, so a frame of 16 384 requests in
    /// flight costs their number, not its square.
    dispatched: HashMap<u64, usize>,
    on_host: HashMap<u64, usize>,
    in_host_queue: HashMap<u64, usize>,
    per_lane: HashMap<(u32, bool), usize>,
    n_sw: usize,
    n_mmc: usize,
    n_host: usize,
    n_irq: usize,
}

impl Placer {
    fn new(s: &Snapshot, path: MmcPath) -> Placer {
        Placer {
            path,
            lanes: lanes(s.jobs.len()),
            boxes: blk_boxes(),
            mmc: column(Layer::MmcQueue),
            hq: column(Layer::HostQueue),
            ctl: column(Layer::Controller),
            bus: column(Layer::Bus),
            card: column(Layer::Card),
            cells: slot_cells(s, path).into_iter().collect(),
            dispatched: positions(&s.dispatch_list),
            on_host: positions(&s.on_host),
            in_host_queue: positions(&s.host_queue),
            per_lane: HashMap::new(),
            n_sw: 0,
            n_mmc: 0,
            n_host: 0,
            n_irq: 0,
        }
    }

    /// Where `r`, in `layer`, is drawn (None: no room left).
    fn spot(&mut self, r: &RequestView, layer: Layer) -> Option<(f64, f64)> {
        let (mmc, ctl, bus, card) = (self.mmc, self.ctl, self.bus, self.card);
        match (layer, r.stage) {
            (Layer::Jobs, st) => self.lane(r, st != Stage::Submit),
            (Layer::BlkMq, _) => {
                if let Some(&i) = self.dispatched.get(&r.id) {
                    (i < MAX_IN_BOX).then(|| in_box(self.boxes[1], i))
                } else {
                    self.n_sw += 1;
                    (self.n_sw <= MAX_IN_BOX).then(|| in_box(self.boxes[0], self.n_sw - 1))
                }
            }
            (Layer::MmcQueue, _) => {
                self.n_mmc += 1;
                let n_mmc = self.n_mmc;
                (n_mmc <= 12)
                    .then(|| (mmc.x + mmc.w - 20.0, TOP + 40.0 + (n_mmc - 1) as f64 * 18.0))
            }
            (Layer::HostQueue, _) => self.host_queue(r),
            (Layer::Controller, Stage::HostQueue) => {
                let i = self.on_host.get(&r.id).copied().unwrap_or(0);
                (i < 16).then(|| (ctl.x + ctl.w - 18.0, chain_row_y(i) + 6.0))
            }
            (Layer::Controller, _) => {
                // Done on the bus, waiting for the interrupt: side by side above the IRQ lamp.
                self.n_irq += 1;
                let n_irq = self.n_irq;
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
        }
    }

    /// A request of a job, submitted or `done`, on its job's lane.
    fn lane(&mut self, r: &RequestView, done: bool) -> Option<(f64, f64)> {
        let lane = r.job as usize;
        if lane >= self.lanes.shown {
            None
        } else {
            let k = self.per_lane.entry((r.job, done)).or_default();
            *k += 1;
            let base = if done { 96.0 } else { 150.0 };
            let x = ctl_x_jobs() + base - ((*k - 1).min(3) as f64) * 13.0;
            Some((x, self.lanes.top + (lane as f64 + 0.5) * self.lanes.h))
        }
    }

    /// A request in the host queue: in its slot's cell (hsq, CQE) or in line (legacy).
    fn host_queue(&mut self, r: &RequestView) -> Option<(f64, f64)> {
        let hq = self.hq;
        match (self.path, r.tag) {
            (MmcPath::Hsq, Some(_)) | (MmcPath::Cqe, Some(_)) => {
                let cell = self.cells.get(&r.id).copied();
                cell.map(|cell| {
                    let (x, y) = slot_xy(cell);
                    (x + SLOT / 2.0, y + SLOT / 2.0)
                })
            }
            _ => {
                self.n_host += 1;
                let i = self
                    .in_host_queue
                    .get(&r.id)
                    .copied()
                    .unwrap_or(self.n_host - 1);
                (i < 8).then(|| (hq.x + hq.w / 2.0, TOP + 60.0 + i as f64 * 26.0))
            }
        }
    }
}

/// Tokens drawn on one job lane's pile (submitted, or done); the rest are counted on the top
/// one (`Token::under`) and in the pile's "×N": an 8 MiB write split into 2048 requests drew
/// 2048 tokens on one spot, created and removed again within a few frames.
pub const MAX_PILE: usize = 8;

/// Each id's first place in `ids`.
fn positions(ids: &[u64]) -> HashMap<u64, usize> {
    let mut at = HashMap::with_capacity(ids.len());
    for (i, &id) in ids.iter().enumerate() {
        at.entry(id).or_insert(i);
    }
    at
}

/// The tokens to draw and, per layer, how many requests were left out for lack of room.
pub fn place(s: &Snapshot, path: MmcPath) -> (Vec<Token>, HashMap<Layer, usize>) {
    let mut tokens: Vec<Token> = Vec::with_capacity(s.requests.len().min(256));
    let mut hidden: HashMap<Layer, usize> = HashMap::new();
    let mut placer = Placer::new(s, path);
    let on_host: HashSet<u64> = s.on_host.iter().copied().collect();
    // The token on top of each job lane's pile (job, done), once the pile is full.
    let mut pile_top: HashMap<(u32, bool), usize> = HashMap::new();
    for r in &s.requests {
        let layer = layer_of(r, on_host.contains(&r.id));
        let lane = (r.job, r.stage != Stage::Submit);
        if layer == Layer::Jobs && placer.per_lane.get(&lane).copied().unwrap_or(0) >= MAX_PILE {
            if let Some(&i) = pile_top.get(&lane) {
                tokens[i].under += 1;
                continue;
            }
        }
        if layer == Layer::Jobs {
            pile_top.insert(lane, tokens.len());
        }
        match placer.spot(r, layer) {
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
                bios: r.bios,
                under: 0,
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
