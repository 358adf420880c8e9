//! eMMC 5.1 command queueing through the CQE (drivers/mmc/host/cqhci-core.c): a WHAT-IF mode,
//! not in the measured patch series. Up to 31 data tasks are queued on the card (CMD44/CMD45,
//! sent by the controller), the card reads ahead for queued tasks and reports which are ready,
//! (on up to `nand_dies` dies at once), the controller executes them one at a time (CMD46/CMD47 + data) with no software between
//! tasks, and a write's busy time no longer blocks the bus. Each task completes with its own
//! interrupt (`cqhci_irq` -> `cqhci_finish_mrq`).

use crate::sim::request::Op;
use crate::sim::{Event, ReqIdx, Simulator};

#[derive(Debug, Default)]
pub struct Cqe {
    /// Queued tasks: (request, time the card has it ready for execution).
    pub tasks: Vec<(ReqIdx, u64)>,
    /// The bus is executing a task until then.
    pub bus_free_at: u64,
    /// Tasks executed or executing and not yet completed.
    pub executing: u32,
}

impl Simulator {
    /// `cqhci_request`: write the task descriptor and ring the doorbell; the controller queues
    /// the task on the card (CMD44 + CMD45), and the card starts reading for a read task.
    pub(crate) fn cqe_request(&mut self, req: ReqIdx) {
        let queued = self.now + 2 * self.bus.t.cmd_ns;
        let r = self.reqs.get(req);
        let ready = match r.op {
            Op::Read => {
                let (off, len) = (r.offset, r.len);
                self.card.queued_read_ready(queued, off, len)
            }
            _ => queued,
        };
        self.cqe.tasks.push((req, ready));
        self.cqe_pump();
    }

    /// The controller picks the ready task (lowest ready time, then oldest) when the bus is free.
    pub(crate) fn cqe_pump(&mut self) {
        if self.recovery.active {
            return;
        }
        if self.now < self.cqe.bus_free_at {
            self.host_schedule_start(self.cqe.bus_free_at);
            return;
        }
        let Some(pos) = (0..self.cqe.tasks.len()).min_by_key(|&i| self.cqe.tasks[i].1) else {
            return;
        };
        let (req, ready) = self.cqe.tasks.remove(pos);
        let t0 = self.now.max(ready.saturating_sub(self.bus.t.cmd_ns));
        let is_read = self.reqs.get(req).op == Op::Read;
        let free = self.bus_transfer_ready(req, t0, None, false, is_read.then_some(ready));
        self.cqe.bus_free_at = free;
        self.cqe.executing += 1;
        let end = self.reqs.get(req).phases.end;
        self.q.push(end, Event::CqeTaskDone { req });
        if !self.cqe.tasks.is_empty() {
            self.host_schedule_start(free);
        }
    }

    /// `Event::CqeTaskDone`: the task's completion interrupt.
    pub(crate) fn cqe_task_done(&mut self, req: ReqIdx) {
        self.cqe.executing -= 1;
        self.stats.interrupts += 1;
        self.stats.batch_hist[1] += 1;
        self.account_bus_phases(req);
        if self.reqs.get(req).crc_error {
            self.recovery_start(req);
            return;
        }
        let t = self.now + self.platform.host.completion_ns + self.dma_unmap_cost(req);
        self.q.push(t, Event::Completed { req });
        self.cqe_pump();
    }
}
