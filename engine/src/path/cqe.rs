//! eMMC 5.1 command queueing through the CQE (drivers/mmc/host/cqhci-core.c): a WHAT-IF mode,
//! not in the measured patch series. Up to 31 data tasks are queued on the card (CMD44/CMD45,
//! sent by the controller), the card reads ahead for queued tasks and reports which are ready,
//! (on up to `nand_dies` dies at once), the controller executes them one at a time (CMD46/CMD47 + data) with no software between
//! tasks, and a write's busy time no longer blocks the bus. A finished task sets its bit in
//! CQHCI_TCN; one interrupt (`cqhci_irq`, Linux 6.1) reads TCN and finishes every task whose bit
//! is set (`cqhci_finish_mrq`), so tasks finishing together take one interrupt.

use crate::sim::{Event, ReqIdx, Simulator};
use crate::vocab::{Op, CQHCI_NUM_SLOTS};

/// `cqhci_init` (Linux 6.1): `mmc->cqe_qdepth`, the task slots for data: `NUM_SLOTS`, less the
/// DCMD slot when the host sends direct commands (`MMC_CAP2_CQE_DCMD`).
pub fn cqhci_qdepth(dcmd: bool) -> u32 {
    u32::from(CQHCI_NUM_SLOTS) - u32::from(dcmd)
}

/// The CQE's task list (`struct cqhci_host` slots) and its bus.
#[derive(Debug, Default)]
pub struct Cqe {
    /// Queued tasks: (request, time the card has it ready for execution).
    tasks: Vec<(ReqIdx, u64)>,
    /// The bus is executing a task until then.
    bus_free_at: u64,
    /// Tasks executed or executing and not yet completed.
    executing: u32,
    /// CQHCI_TCN: finished tasks the interrupt has not read yet, in finishing order.
    tcn: Vec<ReqIdx>,
    /// A `cqhci_irq` is raised and has not read TCN yet.
    irq_pending: bool,
    /// The last interrupt's handler runs until then: the next one is not taken before.
    irq_busy_until: u64,
    /// `mmc->cqe_on`: the CQE is enabled, not halted (`cqhci_request` turns it on,
    /// `cqhci_off` halts it).
    on: bool,
}

impl Cqe {
    /// `cqhci_request`: a task queued on the card, ready for execution at `ready` (the CQE
    /// un-halted first if it was off).
    pub fn queue(&mut self, req: ReqIdx, ready: u64) {
        self.on = true;
        self.tasks.push((req, ready));
    }

    /// `cqhci_off`: halts the CQE if it is on; returns whether it was.
    pub fn off(&mut self) -> bool {
        std::mem::replace(&mut self.on, false)
    }

    /// When the bus is free of the executing task.
    pub fn bus_free_at(&self) -> u64 {
        self.bus_free_at
    }

    /// The task the controller executes next: the lowest ready time, then the oldest.
    pub fn take_next(&mut self) -> Option<(ReqIdx, u64)> {
        let pos = (0..self.tasks.len()).min_by_key(|&i| self.tasks[i].1)?;
        Some(self.tasks.remove(pos))
    }

    /// A task is executing; the bus is free again at `free`.
    pub fn executing_until(&mut self, free: u64) {
        self.bus_free_at = free;
        self.executing += 1;
    }

    /// A task finished on the card: its TCN bit is set. Returns whether this raises an
    /// interrupt (none is pending already).
    pub fn task_done(&mut self, req: ReqIdx) -> bool {
        self.executing -= 1;
        self.tcn.push(req);
        !std::mem::replace(&mut self.irq_pending, true)
    }

    /// When a raised interrupt is taken: not before the last handler is done.
    pub fn irq_taken_at(&self, now: u64) -> u64 {
        now.max(self.irq_busy_until)
    }

    /// `cqhci_irq`: reads TCN and clears it (every task whose bit is set); its handler runs
    /// until `until`.
    pub fn irq(&mut self, until: u64) -> Vec<ReqIdx> {
        self.irq_pending = false;
        self.irq_busy_until = until;
        std::mem::take(&mut self.tcn)
    }

    pub fn has_tasks(&self) -> bool {
        !self.tasks.is_empty()
    }

    /// Queued tasks, in queueing order.
    pub fn queued(&self) -> impl Iterator<Item = &ReqIdx> {
        self.tasks.iter().map(|(r, _)| r)
    }
}

impl Simulator {
    /// `cqhci_request`: write the task descriptor and ring the doorbell; the controller queues
    /// a data task on the card (CMD44 + CMD45), and the card starts reading for a read task. A
    /// flush (`mmc_blk_cqe_issue_flush`) is the DCMD slot's descriptor (`cqhci_prep_dcmd_desc`),
    /// sent as CMD6 when the bus is free, the data tasks staying queued on the card.
    pub(crate) fn cqe_request(&mut self, req: ReqIdx) {
        let queued = self.now + 2 * self.bus.cmd_ns();
        let r = self.reqs.get(req);
        let ready = match r.op {
            Op::Read => {
                let (off, len) = (r.offset, r.len);
                let bus_bps = self.bus.bytes_per_sec();
                self.card.queued_read_ready(queued, off, len, bus_bps)
            }
            // The DCMD is not queued on the card: CMD6 goes when the bus is free.
            Op::Flush => self.now,
            Op::Write | Op::Discard => queued,
        };
        self.cqe.queue(req, ready);
        self.cqe_pump();
    }

    /// The controller picks the ready task (lowest ready time, then oldest) when the bus is free.
    pub(crate) fn cqe_pump(&mut self) {
        if self.recovery.active() {
            return;
        }
        if self.now < self.cqe.bus_free_at() {
            self.host_schedule_start(self.cqe.bus_free_at());
            return;
        }
        let Some((req, ready)) = self.cqe.take_next() else {
            return;
        };
        let t0 = self.now.max(ready.saturating_sub(self.bus.cmd_ns()));
        let op = self.reqs.get(req).op;
        let prefetched = (op == Op::Read).then_some(ready);
        // A DCMD flush (CMD6, R1b) holds DAT0 busy until the cache is in NAND: the CQE sends
        // nothing until it is released. A data task's write busy does not hold the bus.
        let hold_busy = op == Op::Flush;
        let free = self.bus_transfer_ready(req, t0, None, hold_busy, prefetched);
        self.cqe.executing_until(free);
        let end = self.reqs.get(req).phases.end;
        self.q.push(end, Event::CqeTaskDone { req });
        if self.cqe.has_tasks() {
            self.host_schedule_start(free);
        }
    }

    /// `Event::CqeTaskDone`: the task finished on the card and sets its TCN bit; the first bit
    /// raises the interrupt, read `cqhci_irq_ns` later. The CQE goes on with the next task.
    pub(crate) fn cqe_task_done(&mut self, req: ReqIdx) {
        if self.cqe.task_done(req) {
            let t = self.cqe.irq_taken_at(self.now) + self.platform.host.cqhci_irq_ns;
            self.q.push(t, Event::CqeIrq);
        }
        self.cqe_pump();
    }

    /// `Event::CqeIrq`: `cqhci_irq` reads CQHCI_TCN and finishes every task whose bit is set
    /// (`cqhci_finish_mrq` -> `mmc_cqe_request_done`): one interrupt for all of them.
    pub(crate) fn cqe_irq(&mut self) {
        let done = self.cqe.irq(self.now);
        self.stats.interrupts += 1;
        let n = done.len().min(self.stats.batch_hist.len() - 1);
        self.stats.batch_hist[n] += 1;
        for req in done {
            self.account_bus_phases(req);
            if self.reqs.get(req).crc_error {
                self.recovery_start(req);
                continue;
            }
            // `cqhci_finish_mrq` -> `mmc_blk_cqe_req_done` -> `blk_mq_complete_request`
            // (`cqhci_finish_ns`), then the softirq (`completion_ns`, with the IPI if any).
            let h = &self.platform.host;
            let ipi = if self.reqs.get(req).cpu != 0 {
                h.completion_ipi_ns
            } else {
                0
            };
            let (hard, soft) = (h.cqhci_finish_ns, ipi + h.completion_ns);
            let total = self.jitter.software(hard + soft);
            self.ctl_complete(req, self.now, hard.min(total), total - hard.min(total));
            self.reqs.get_mut(req).host_finished = true;
            self.mq.host_finished();
        }
        // `cqhci_irq` wakes `cqhci_wait_for_idle` once qcnt is 0: a flush or discard asleep in
        // `->queue_rq` (`mmc_blk_wait_for_idle`) goes on now, not after the completions (the
        // model wakes it at the interrupt: the hard IRQ's part and the thread's wake-up are
        // not charged, as at the model's other wake-ups in `->queue_rq`).
        if !self.cqe.has_tasks() && self.cqe.executing == 0 {
            self.blk_mq_wake_parked();
        }
    }

    /// A request's completion has run (`Event::Completed`): it no longer counts as finished
    /// by the host and not yet completed (the CQE's and hsq's alike).
    pub(crate) fn host_finished_completed(&mut self, req: ReqIdx) {
        if std::mem::take(&mut self.reqs.get_mut(req).host_finished) {
            self.mq.finished_completed();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_ready_task_runs_first_ties_oldest_first() {
        let mut c = Cqe::default();
        c.queue(1, 500);
        c.queue(2, 100);
        c.queue(3, 100);
        assert_eq!(c.take_next(), Some((2, 100)));
        assert_eq!(c.take_next(), Some((3, 100)));
        c.executing_until(900);
        assert_eq!(c.bus_free_at(), 900);
        assert_eq!(c.take_next(), Some((1, 500)));
        assert!(!c.has_tasks());
    }

    #[test]
    fn one_interrupt_reads_every_task_finished_before_it() {
        let mut c = Cqe::default();
        for r in [1, 2, 3] {
            c.queue(r, 0);
            c.take_next();
            c.executing_until(0);
        }
        assert!(c.task_done(1), "the first TCN bit raises the interrupt");
        assert!(
            !c.task_done(2),
            "raised already: the same interrupt reads it"
        );
        assert_eq!(c.irq(50), vec![1, 2]);
        assert!(c.task_done(3), "after the TCN read: the next interrupt");
        assert_eq!(c.irq_taken_at(40), 50, "not before the handler is done");
        assert_eq!(c.irq(60), vec![3]);
    }
}
