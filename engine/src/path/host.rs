//! The SDHCI host controller (drivers/mmc/host/sdhci.c): `sdhci_request` sends one request
//! (ADMA2 descriptor table, one command, one data transfer, one interrupt), or, with the
//! packed-request RFC, an ADMA3 chain: command descriptors + ADMA2 tables for up to N requests
//! joined by an integrated descriptor, executed back to back with ONE interrupt at the end.
//! Each request in a chain is still its own CMD23 + CMD18/CMD25 on the bus: a chain saves host
//! work (interrupts, hsq finalizes and pumps), not bus time.

use crate::path::bus::SegmentKind;
use crate::sim::request::BusPhases;
use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::{Cause, Op, Stage};

/// The controller's state (`struct sdhci_host`): what it executes and when its IRQ handler is
/// done.
#[derive(Debug, Default)]
pub struct HostCtl {
    /// Requests the controller is executing (one, or an ADMA3 chain).
    active: Vec<ReqIdx>,
    /// Generation of the active transfer (its interrupt carries it).
    gen: u32,
    /// The IRQ handler runs until this time; nothing new starts before.
    irq_busy_until: u64,
    /// Earliest pending HostStart event.
    start_at: Option<u64>,
    /// Chains started (ids for the UI).
    chains: u32,
    /// Whether the active transfer is an ADMA3 chain.
    chained: bool,
}

impl HostCtl {
    /// The controller is executing something, or its IRQ handler still runs at `now`.
    pub fn busy(&self, now: u64) -> bool {
        !self.active.is_empty() || now < self.irq_busy_until
    }

    /// Requests on the controller now.
    pub fn active(&self) -> &[ReqIdx] {
        &self.active
    }

    /// The active transfer is an ADMA3 chain.
    pub fn chained(&self) -> bool {
        self.chained && !self.active.is_empty()
    }

    /// Until when the IRQ handler (and the software after it) runs.
    pub fn irq_busy_until(&self) -> u64 {
        self.irq_busy_until
    }

    /// The IRQ handler (or the recovery work) holds the controller until at least `t`.
    pub fn hold_until(&mut self, t: u64) {
        self.irq_busy_until = self.irq_busy_until.max(t);
    }

    /// Id of a new ADMA3 chain.
    pub fn new_chain(&mut self) -> u32 {
        self.chains += 1;
        self.chains
    }

    /// The controller starts `reqs`; returns the generation its interrupt carries.
    pub fn begin(&mut self, reqs: Vec<ReqIdx>, chained: bool) -> u32 {
        debug_assert!(self.active.is_empty());
        self.active = reqs;
        self.chained = chained;
        self.gen = self.gen.wrapping_add(1);
        self.gen
    }

    /// The interrupt of generation `gen` at `now`: the finished requests (None for a stale
    /// interrupt); the handler and the software after it run for `gap`.
    pub fn irq(&mut self, gen: u32, now: u64, gap: u64) -> Option<Vec<ReqIdx>> {
        if gen != self.gen || self.active.is_empty() {
            return None;
        }
        self.irq_busy_until = now + gap;
        Some(std::mem::take(&mut self.active))
    }

    /// Whether a `HostStart` at `t` must be scheduled (none pending at or before `t`); records
    /// it as pending.
    pub fn want_start_at(&mut self, t: u64) -> bool {
        if self.start_at.is_some_and(|p| p <= t) {
            return false;
        }
        self.start_at = Some(t);
        true
    }

    /// The pending `HostStart` at `now` runs.
    pub fn start_event(&mut self, now: u64) {
        if self.start_at == Some(now) {
            self.start_at = None;
        }
    }
}

impl Simulator {
    /// The controller is executing something, or its IRQ handler still runs.
    pub(crate) fn host_busy(&self) -> bool {
        self.host.busy(self.now)
    }

    /// Bus busy time up to now. Bus phases are booked when a transfer starts: what the active
    /// transfer booked beyond now is left out.
    pub(crate) fn bus_busy_ns_now(&self) -> u64 {
        let ahead: u64 = self
            .host
            .active()
            .iter()
            .map(|&r| {
                let p = self.reqs.get(r).phases;
                p.end.saturating_sub(p.cmd.max(self.now))
            })
            .sum();
        self.bus.busy_ns().saturating_sub(ahead).min(self.now)
    }

    /// `sdhci_request` (one request, ADMA2) or `sdhci_adma3_request` (a chain) at `now`.
    /// Computes the bus phases of every request, books the card, and schedules the interrupt.
    pub(crate) fn host_start(&mut self, reqs: Vec<ReqIdx>, chained: bool) {
        let mut t = self.now;
        let chain = if chained {
            let id = self.host.new_chain();
            let build = self.platform.host.adma3_chain_ns;
            self.bus.record(SegmentKind::ChainBuild, t, t + build, None);
            t += build;
            Some(id)
        } else {
            None
        };
        for &req in &reqs {
            t = self.bus_transfer(req, t, chain, true);
        }
        let gen = self.host.begin(reqs, chained);
        self.q.push(t, Event::TransferIrq { gen });
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
        let cmd_ns = self.bus.cmd_ns();
        let (op, offset, len, fua, id, io) = {
            let r = self.reqs.get(req);
            (r.op, r.offset, r.len, r.fua, r.id, r.io())
        };
        let cmd = t0;
        // A discard is three commands: CMD35 and CMD36 set the range, CMD38 starts it.
        let commands = if op == Op::Discard { 3 } else { 1 };
        let access = cmd + commands * cmd_ns;
        let (data, busy, end) = self.card_phases(op, access, (offset, len, fua, io), prefetched);
        let card_cause = if prefetched.is_some() {
            Cause::None
        } else {
            self.card.take_cause()
        };
        self.stats.bus_commands += commands;
        if op.has_data() && self.recovery.draw_error() {
            self.reqs.get_mut(req).crc_error = true;
        }
        self.bus.record(SegmentKind::Command, cmd, access, Some(id));
        self.bus
            .record(SegmentKind::CardAccess, access, data, Some(id));
        self.bus.record(SegmentKind::Data, data, busy, Some(id));
        self.bus.record(SegmentKind::CardBusy, busy, end, Some(id));
        let phases = BusPhases {
            cmd,
            access,
            data,
            busy,
            end,
        };
        {
            let r = self.reqs.get_mut(req);
            r.chain = chain;
            r.phases = phases;
        }
        self.trace_bus_phases(req, phases, card_cause);
        if hold_busy {
            end
        } else {
            busy
        }
    }

    /// The card's part of a transfer whose access phase starts at `access`: (data start, busy
    /// start, end). A read whose data the card `prefetched` is ready then.
    #[inline]
    fn card_phases(
        &mut self,
        op: Op,
        access: u64,
        (offset, len, fua, io): (u64, u64, bool, u64),
        prefetched: Option<u64>,
    ) -> (u64, u64, u64) {
        let bus_bps = self.bus.bytes_per_sec();
        match op {
            Op::Read => {
                let (data, end) = match prefetched {
                    Some(ready) => {
                        let data = access.max(ready);
                        (data, data + self.bus.data_ns(len))
                    }
                    None => self.card.read(access, offset, len, bus_bps),
                };
                (data, end, end)
            }
            Op::Write => {
                let reliable = fua && self.queue_has_fua();
                self.card.write(access, offset, len, reliable, bus_bps, io)
            }
            Op::Flush => {
                let end = self.card.flush(access);
                (access, access, end)
            }
            Op::Discard => {
                let end = self.card.discard(access, offset, len);
                (access, access, end)
            }
        }
    }

    /// Traces a transfer's phases with their causes: the command (after the requests that
    /// passed this one over), the card access, the data, the card busy, and the wait for the
    /// interrupt from the transfer's end (traced now: one interrupt may finish a chain or a set
    /// of CQE tasks whose first ended long before it, and the trace stays in time order).
    #[inline]
    fn trace_bus_phases(&mut self, req: ReqIdx, p: BusPhases, card_cause: Cause) {
        let BusPhases {
            cmd,
            access,
            data,
            busy,
            end: _,
        } = p;
        let (later, waited, id) = {
            let r = self.reqs.get(req);
            (r.passed_over, cmd.saturating_sub(r.t_stage), r.id)
        };
        if waited > self.stats.longest_host_wait.0 {
            self.stats.longest_host_wait = (waited, id);
        }
        let sent = if later > 0 {
            Cause::PassedOver { later }
        } else {
            Cause::None
        };
        self.stage_cause(req, Stage::Command, cmd, sent);
        let (access_cause, busy_cause) = match card_cause {
            c @ Cause::NandRead { .. } => (c, Cause::None),
            c => (Cause::None, c),
        };
        self.trace_cause(req, Stage::CardAccess, access, access_cause);
        self.trace_stage(req, Stage::Data, data);
        self.trace_cause(req, Stage::CardBusy, busy, busy_cause);
        self.trace_stage(req, Stage::Irq, p.end);
    }

    /// Accounts the bus phases of a finished transfer and moves the request to `Irq` at `now`.
    pub(crate) fn account_bus_phases(&mut self, req: ReqIdx) {
        let p = self.reqs.get(req).phases;
        let s = &mut self.stage_ns;
        s[Stage::Command.index()] += p.access - p.cmd;
        s[Stage::CardAccess.index()] += p.data - p.access;
        s[Stage::Data.index()] += p.busy - p.data;
        s[Stage::CardBusy.index()] += p.end - p.busy;
        let r = self.reqs.get_mut(req);
        r.stage = Stage::Irq;
        r.t_stage = p.end;
    }

    /// `Event::TransferIrq`: `sdhci_irq` -> `mmc_hsq_finalize_request` (or the legacy
    /// `mmc_request_done`): finish every request of the transfer, pump the next one after the
    /// IRQ-to-command gap, and complete the finished ones, one after another on this CPU
    /// (`HostPath::ctl_req_done`).
    pub(crate) fn host_irq(&mut self, gen: u32) {
        // Interrupt latency + handler + finalize + pump: varies as kernel software does.
        let gap = self.jitter.software(self.platform.host.irq_to_next_cmd_ns);
        let Some(done) = self.host.irq(gen, self.now, gap) else {
            return;
        };
        // The path's gap (the 2020 legacy path: the next request waits for its thread).
        let gap = self.ctl_irq_gap(&done, gap);
        self.stats.interrupts += 1;
        let n = done.len().min(self.stats.batch_hist.len() - 1);
        self.stats.batch_hist[n] += 1;
        self.bus
            .record(SegmentKind::HostGap, self.now, self.now + gap, None);
        // The finished requests' completions run one after another on the interrupt's CPU.
        let mut cpu = gap;
        for &req in &done {
            self.account_bus_phases(req);
            if self.reqs.get(req).crc_error {
                self.recovery_start(req);
            } else {
                cpu += self.ctl_req_done(req, cpu);
            }
        }
        self.ctl_irq_done();
        self.host_schedule_start(self.now + gap);
    }

    /// Schedules a `HostStart` at `t` unless one is pending at or before `t` (that one
    /// re-schedules itself if the controller is still busy then).
    pub(crate) fn host_schedule_start(&mut self, t: u64) {
        if self.host.want_start_at(t) {
            self.q.push(t, Event::HostStart);
        }
    }

    /// `Event::HostStart`: the controller is free: pump whichever queue feeds it.
    pub(crate) fn host_start_event(&mut self) {
        self.host.start_event(self.now);
        if self.now < self.host.irq_busy_until() {
            self.host_schedule_start(self.host.irq_busy_until());
            return;
        }
        // The direct queue first (flushes, discards, retries on every path), then the path's.
        self.legacy_pump();
        self.ctl_pump();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_transfer_at_a_time_and_stale_interrupts_are_ignored() {
        let mut h = HostCtl::default();
        assert!(!h.busy(0));
        let gen = h.begin(vec![4, 5], true);
        assert!(h.busy(0) && h.chained());
        assert_eq!(h.irq(gen.wrapping_add(1), 100, 10), None, "stale");
        assert_eq!(h.irq(gen, 100, 10), Some(vec![4, 5]));
        assert!(h.busy(105), "the IRQ handler still runs");
        assert!(!h.busy(110));
        assert_eq!(h.irq(gen, 120, 10), None, "nothing active");
        h.hold_until(50);
        assert_eq!(h.irq_busy_until(), 110, "holding never shortens");
    }

    #[test]
    fn one_pending_start_at_the_earliest_time() {
        let mut h = HostCtl::default();
        assert!(h.want_start_at(100));
        assert!(!h.want_start_at(150), "one at 100 is pending");
        assert!(h.want_start_at(50), "earlier than the pending one");
        h.start_event(50);
        assert!(h.want_start_at(120));
    }
}
