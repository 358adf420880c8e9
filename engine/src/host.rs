//! The SDHCI host controller (drivers/mmc/host/sdhci.c): `sdhci_request` sends one request
//! (ADMA2 descriptor table, one command, one data transfer, one interrupt), or, with the
//! packed-request RFC, an ADMA3 chain: command descriptors + ADMA2 tables for up to N requests
//! joined by an integrated descriptor, executed back to back with ONE interrupt at the end.
//! Each request in a chain is still its own CMD23 + CMD18/CMD25 on the bus: a chain saves host
//! work (interrupts, completion passes), not bus time.

use crate::bus::SegmentKind;
use crate::scenario::MmcPath;
use crate::sim::request::Op;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::trace::Stage;

#[derive(Debug, Default)]
pub struct HostCtl {
    /// Requests the controller is executing (one, or an ADMA3 chain).
    pub active: Vec<ReqIdx>,
    /// Generation of the active transfer (its interrupt carries it).
    pub gen: u32,
    /// The IRQ handler runs until this time; nothing new starts before.
    pub irq_busy_until: u64,
    /// Earliest pending HostStart event.
    pub start_at: Option<u64>,
    /// Chains started (ids for the UI).
    pub chains: u32,
    /// Whether the active transfer is an ADMA3 chain.
    pub chained: bool,
}

impl Simulator {
    /// The controller is executing something, or its IRQ handler still runs.
    pub(crate) fn host_busy(&self) -> bool {
        !self.host.active.is_empty() || self.now < self.host.irq_busy_until
    }

    /// `sdhci_request` (one request, ADMA2) or `sdhci_adma3_request` (a chain) at `now`.
    /// Computes the bus phases of every request, books the card, and schedules the interrupt.
    pub(crate) fn host_start(&mut self, reqs: Vec<ReqIdx>, chained: bool) {
        debug_assert!(self.host.active.is_empty());
        let mut t = self.now;
        let chain = if chained {
            self.host.chains += 1;
            let build = self.platform.host.adma3_chain_ns;
            self.bus.record(SegmentKind::ChainBuild, t, t + build, None);
            t += build;
            Some(self.host.chains)
        } else {
            None
        };
        for &req in &reqs {
            t = self.bus_transfer(req, t, chain, true);
        }
        self.host.active = reqs;
        self.host.chained = chained;
        self.host.gen = self.host.gen.wrapping_add(1);
        self.q.push(t, Event::TransferIrq { gen: self.host.gen });
    }

    /// One request on the bus from `t`: command, card access, data, card busy. Returns when the
    /// bus is free again (`hold_busy`: the card's busy line holds the bus, as without CQ).
    /// `prefetched`: with command queueing the card already read the data (ready at that time).
    pub(crate) fn bus_transfer(
        &mut self,
        req: ReqIdx,
        t0: u64,
        chain: Option<u32>,
        hold_busy: bool,
    ) -> u64 {
        self.bus_transfer_ready(req, t0, chain, hold_busy, None)
    }

    pub(crate) fn bus_transfer_ready(
        &mut self,
        req: ReqIdx,
        t0: u64,
        chain: Option<u32>,
        hold_busy: bool,
        prefetched: Option<u64>,
    ) -> u64 {
        let cmd_ns = self.bus.t.cmd_ns;
        let bus_bps = self.bus.t.bytes_per_sec;
        let (op, offset, len, fua, id) = {
            let r = self.reqs.get(req);
            (r.op, r.offset, r.len, r.fua, r.id)
        };
        let cmd = t0;
        let access = cmd + cmd_ns;
        let (data, busy, end) = match op {
            Op::Read => {
                let data = match prefetched {
                    Some(ready) => access.max(ready),
                    None => access + self.card.read_access(offset, len),
                };
                let end = data + self.bus.data_ns(len);
                (data, end, end)
            }
            Op::Write => {
                let reliable = fua && self.cfg.fua && self.card.timing().reliable_write;
                self.card.write(access, offset, len, reliable, bus_bps, id)
            }
            Op::Flush => {
                let end = self.card.flush(access);
                (access, access, end)
            }
        };
        self.stats.bus_commands += 1;
        if op != Op::Flush && self.recovery.draw_error() {
            self.reqs.get_mut(req).crc_error = true;
        }
        self.bus.record(SegmentKind::Command, cmd, access, Some(id));
        self.bus
            .record(SegmentKind::CardAccess, access, data, Some(id));
        self.bus.record(SegmentKind::Data, data, busy, Some(id));
        self.bus.record(SegmentKind::CardBusy, busy, end, Some(id));
        {
            let r = self.reqs.get_mut(req);
            r.chain = chain;
            r.phases = crate::sim::request::BusPhases {
                cmd,
                access,
                data,
                busy,
                end,
            };
        }
        self.stage_at(req, Stage::Command, cmd);
        self.trace_stage(req, Stage::CardAccess, access);
        self.trace_stage(req, Stage::Data, data);
        self.trace_stage(req, Stage::CardBusy, busy);
        if hold_busy {
            end
        } else {
            busy
        }
    }

    /// Accounts the bus phases of a finished transfer and moves the request to `Irq` at `now`.
    pub(crate) fn account_bus_phases(&mut self, req: ReqIdx) {
        let p = self.reqs.get(req).phases;
        let s = &mut self.stats.stage_ns;
        s[Stage::Command.index()] += p.access - p.cmd;
        s[Stage::CardAccess.index()] += p.data - p.access;
        s[Stage::Data.index()] += p.busy - p.data;
        s[Stage::CardBusy.index()] += p.end - p.busy;
        let r = self.reqs.get_mut(req);
        r.stage = Stage::Irq;
        r.t_stage = p.end;
        self.trace_stage(req, Stage::Irq, p.end);
    }

    /// `Event::TransferIrq`: `sdhci_irq` -> `mmc_hsq_finalize_request` (or the legacy
    /// `mmc_request_done`): finish every request of the transfer, pump the next one after the
    /// IRQ-to-command gap, and complete the finished ones (one completion pass).
    pub(crate) fn host_irq(&mut self, gen: u32) {
        if gen != self.host.gen || self.host.active.is_empty() {
            return;
        }
        let done = std::mem::take(&mut self.host.active);
        self.stats.interrupts += 1;
        let n = done.len().min(self.stats.batch_hist.len() - 1);
        self.stats.batch_hist[n] += 1;
        let gap = self.platform.host.irq_to_next_cmd_ns;
        self.bus
            .record(SegmentKind::HostGap, self.now, self.now + gap, None);
        self.host.irq_busy_until = self.now + gap;
        for &req in &done {
            self.account_bus_phases(req);
            if self.reqs.get(req).crc_error {
                self.recovery_start(req);
            } else if self.reqs.get(req).from_mmc_test {
                self.mmc_test_transfer_done(req);
            } else {
                let t =
                    self.now + gap + self.platform.host.completion_ns + self.dma_unmap_cost(req);
                self.q.push(t, Event::Completed { req });
            }
        }
        self.host_schedule_start(self.now + gap);
    }

    /// Schedules a `HostStart` at `t` unless one is pending at or before `t` (that one
    /// re-schedules itself if the controller is still busy then).
    pub(crate) fn host_schedule_start(&mut self, t: u64) {
        if self.host.start_at.is_some_and(|p| p <= t) {
            return;
        }
        self.host.start_at = Some(t);
        self.q.push(t, Event::HostStart);
    }

    /// `Event::HostStart`: the controller is free: pump whichever queue feeds it.
    pub(crate) fn host_start_event(&mut self) {
        if self.host.start_at == Some(self.now) {
            self.host.start_at = None;
        }
        if self.now < self.host.irq_busy_until {
            self.host_schedule_start(self.host.irq_busy_until);
            return;
        }
        self.legacy_pump();
        match self.cfg.mmc_path {
            MmcPath::Hsq => self.hsq_pump(),
            MmcPath::Legacy => {}
            MmcPath::Cqe => self.cqe_pump(),
        }
    }
}
