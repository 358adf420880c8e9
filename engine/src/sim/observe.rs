//! A read-only picture of where every request is at the current simulated time, for the
//! animation and for tests.

use super::Simulator;
use crate::vocab::Stage;
use crate::vocab::{HsqDepth, Op};

/// One live request.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestView {
    pub id: u64,
    /// The I/O it belongs to (requests of one split I/O share it).
    pub io: u64,
    pub job: u32,
    pub op: Op,
    pub offset: u64,
    pub len: u64,
    /// Carries REQ_FUA and the host executes it as a reliable write.
    pub reliable: bool,
    /// The stage it is in at `now` (bus phases resolved from their start times).
    pub stage: Stage,
    /// When it entered that stage.
    pub since_ns: u64,
    /// blk-mq tag = hsq slot.
    pub tag: Option<u16>,
    /// ADMA3 chain it travels in.
    pub chain: Option<u32>,
    /// The bios it carries (`rq->bio` .. `rq->biotail`): 1, or more once bios merged into it
    /// (block/blk-merge.c); `len` is then theirs together.
    pub bios: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct JobView {
    pub name: String,
    pub index: u32,
    pub inflight: u32,
    pub outstanding_max: u32,
    pub issued: u64,
}

/// What bfq is doing at a moment (the pipeline's blk-mq column draws it; None in a
/// [`Snapshot`] under another scheduler): block/bfq-iosched.c serves one process's queue at a
/// time, for a budget, may keep the device idle for it, and raises the weight of a queue that
/// has just become busy (`low_latency`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BfqView {
    /// The job whose queue is in service (`bfqd->in_service_queue`), if any.
    pub in_service: Option<u32>,
    /// That queue's budget and the service it has had of it this turn, sectors
    /// (`entity->budget`, `entity->service`).
    pub budget: u64,
    pub service: u64,
    /// The device idles for that queue, waiting for its next request (`BFQQF_wait_request`,
    /// armed by `bfq_arm_slice_timer`).
    pub idling: bool,
    /// The jobs whose queue is weight-raised now (`bfqq->wr_coeff` > 1), with the coefficient.
    pub raised: Vec<(u32, u64)>,
}

impl BfqView {
    /// The raised queues in words, as the pipeline shows them: "job 0 ×30, job 1 ×30", or
    /// "none".
    pub fn raised_text(&self) -> String {
        if self.raised.is_empty() {
            return "none".to_string();
        }
        let each: Vec<String> = self
            .raised
            .iter()
            .map(|(j, c)| format!("job {j} ×{c}"))
            .collect();
        each.join(", ")
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub now_ns: u64,
    pub requests: Vec<RequestView>,
    pub jobs: Vec<JobView>,
    /// blk-mq tags in use of the tag set's (`MMC_QUEUE_DEPTH`, or the CQE's depth).
    pub tags_in_use: u16,
    pub tags_total: u16,
    /// `hctx->dispatch` (refused, waiting for a re-run), request ids in order.
    pub dispatch_list: Vec<u64>,
    /// Inserted, not yet dispatched.
    pub sw_queue: Vec<u64>,
    pub requeues: u64,
    /// `mq->in_flight` (async + sync) and the window the host allows.
    pub in_flight: u32,
    pub window: u32,
    /// Slots of the host queue: hsq's [`HSQ_NUM_SLOTS`](crate::vocab::HSQ_NUM_SLOTS) (indexed
    /// by tag), the CQE's [`CQHCI_NUM_SLOTS`](crate::vocab::CQHCI_NUM_SLOTS) task slots, or on the legacy path its window (the request on the
    /// controller and the prepared one).
    pub slots_total: u16,
    /// Current `host->hsq_depth` and whether it is dynamic.
    pub hsq_depth: u32,
    pub hsq_dynamic: bool,
    pub hsq_depth_changes: u64,
    /// Waiting for the controller, FIFO order (hsq slots / legacy prepared / CQE tasks).
    pub host_queue: Vec<u64>,
    /// On the controller now (one, or an ADMA3 chain).
    pub on_host: Vec<u64>,
    pub chained: bool,
    /// The request whose command or data is on the bus now, and the phase.
    pub bus: Option<(u64, Stage)>,
    /// The IRQ handler runs (between an interrupt and the next command).
    pub in_irq: bool,
    pub cache_dirty: u64,
    pub cache_capacity: u64,
    /// Bytes the card programmed to NAND so far (cache drains, direct and reliable writes).
    pub programmed_bytes: u64,
    pub interrupts: u64,
    pub bytes_done: u64,
    /// Bios merged into waiting requests so far, reads and writes (fio's `merge=`).
    pub merges: u64,
    /// Requests handed to the driver so far by the submitting task and by kblockd (the
    /// context of `block_rq_issue`: `blk_mq_run_hw_queue` in the caller or
    /// `kblockd_mod_delayed_work_on`, as the board's kernel's rules decide;
    /// `board/kernel_rules.rs`).
    pub issued_by_task: u64,
    pub issued_by_kblockd: u64,
    /// Flush requests completed so far (REQ_OP_FLUSH, block/blk-flush.c).
    pub flushes: u64,
    /// bfq's queue in service, its budget, idling and weight raising (None: another scheduler).
    pub bfq: Option<BfqView>,
}

impl Simulator {
    /// Stage of a request at `now`, resolving bus phases computed ahead of time.
    fn stage_now(&self, r: &super::request::Request) -> (Stage, u64) {
        if r.stage == Stage::Command {
            let p = r.phases;
            let now = self.now;
            return if now < p.cmd {
                (Stage::HostQueue, r.t_stage)
            } else if now < p.access {
                (Stage::Command, p.cmd)
            } else if now < p.data {
                (Stage::CardAccess, p.access)
            } else if now < p.busy {
                (Stage::Data, p.data)
            } else if now < p.end {
                (Stage::CardBusy, p.busy)
            } else {
                (Stage::Irq, p.end)
            };
        }
        (r.stage, r.t_stage)
    }

    /// Where everything is at the current simulated time (see [`Simulator::snapshot`]).
    pub(crate) fn observe(&self) -> Snapshot {
        let now = self.now;
        let mut requests: Vec<RequestView> = self
            .reqs
            .iter()
            .map(|(idx, r)| {
                let (stage, since) = self.stage_now(r);
                RequestView {
                    id: r.id,
                    io: r.io(),
                    job: r.job,
                    op: r.op,
                    offset: r.offset,
                    len: r.len,
                    reliable: r.fua && r.op == Op::Write && self.queue_has_fua(),
                    stage,
                    since_ns: since,
                    tag: r.tag,
                    chain: r.chain,
                    bios: self.merged.get(&idx).map_or(1, |g| g.bios.len() as u32 + 1),
                }
            })
            .collect();
        requests.sort_by_key(|r| r.id);
        let bus = requests
            .iter()
            .find(|r| {
                matches!(
                    r.stage,
                    Stage::Command | Stage::CardAccess | Stage::Data | Stage::CardBusy
                )
            })
            .map(|r| (r.id, r.stage));
        let ids = |v: &mut dyn Iterator<Item = &super::ReqIdx>| {
            v.map(|&i| self.reqs.get(i).id).collect::<Vec<_>>()
        };
        let host_queue = self.ctl_queued();
        let on_host = ids(&mut self.host.active().iter());
        Snapshot {
            now_ns: now,
            jobs: self.jobs.iter().map(|j| j.view()).collect(),
            tags_in_use: self.blk.tags_in_use(),
            tags_total: self.blk.tags_total(),
            dispatch_list: ids(&mut self.blk.dispatch_list()),
            sw_queue: ids(&mut self.blk.waiting().iter()),
            requeues: self.stats.requeues,
            in_flight: self.mq.total_in_flight(),
            window: self.mq.window(),
            slots_total: self.mq.host_path().slots_total(self.mq.window()),
            hsq_depth: self.mq.hsq_depth(),
            hsq_dynamic: self.cfg.hsq_depth == HsqDepth::Dynamic,
            hsq_depth_changes: self.hsq.depth_changes(),
            host_queue,
            on_host,
            chained: self.host.chained(),
            bus,
            in_irq: now < self.host.irq_busy_until(),
            cache_dirty: self.card.dirty_at(now),
            cache_capacity: self.card.cache_capacity(),
            programmed_bytes: self.card.programmed_at(now),
            interrupts: self.stats.interrupts,
            bytes_done: self.bytes_done,
            merges: self.stats.merges.iter().sum(),
            issued_by_task: self.stats.issued_direct,
            issued_by_kblockd: self.stats.issued_by_kblockd,
            flushes: self.stats.flushes,
            bfq: self.blk.elv.bfq_view(),
            requests,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{JobSpec, Rw, Scenario};
    use crate::vocab::{MmcPath, CQE_TASKS, CQHCI_NUM_SLOTS, HSQ_NUM_SLOTS, MMC_QUEUE_DEPTH};

    fn scenario(path: MmcPath, nonblocking: bool) -> Scenario {
        let mut s = Scenario {
            platform: "sprd-hs400es-2020".into(),
            ..Scenario::default()
        };
        s.set_switch::<MmcPath>("mmc_path", Some(path));
        s.set_switch::<bool>("nonblocking", Some(nonblocking));
        s.jobs = vec![JobSpec {
            name: "w".into(),
            rw: Rw::RandWrite,
            bs: 4096,
            size: 4 << 20,
            iodepth: 8,
            ..JobSpec::default()
        }];
        s
    }

    #[test]
    fn the_snapshot_says_how_many_slots_and_what_window() {
        // The CQE's tag set: the eMMC's 32 less the DCMD slot (`mmc_init_queue`).
        let cqe_tags = CQE_TASKS as u16;
        for (path, nb, slots, tags) in [
            (MmcPath::Hsq, false, HSQ_NUM_SLOTS, MMC_QUEUE_DEPTH),
            (MmcPath::Cqe, false, CQHCI_NUM_SLOTS, cqe_tags),
            (MmcPath::Legacy, false, 1, MMC_QUEUE_DEPTH),
            (MmcPath::Legacy, true, 2, MMC_QUEUE_DEPTH),
        ] {
            let mut sim = Simulator::new(&scenario(path, nb)).expect("valid");
            sim.run_events(500);
            let snap = sim.snapshot();
            assert_eq!(snap.slots_total, slots, "{path:?}");
            assert_eq!(snap.window, sim.mmc_window());
            assert_eq!(snap.tags_total, tags, "{path:?}");
        }
    }

    #[test]
    fn an_mmc_test_run_shows_the_legacy_window() {
        for (case, slots) in [(37, 1), (38, 2)] {
            let mut scn = scenario(MmcPath::Legacy, false);
            scn.set_switch::<MmcPath>("mmc_path", None);
            scn.set_switch::<bool>("nonblocking", None);
            scn.jobs.clear();
            scn.mmc_test = Some(case);
            let mut sim = Simulator::new(&scn).expect("valid");
            sim.run_events(200);
            let snap = sim.snapshot();
            assert_eq!(
                (snap.slots_total, snap.window),
                (slots, slots as u32),
                "case {case}"
            );
            assert!(snap.host_queue.len() <= 1, "{:?}", snap.host_queue);
        }
    }

    #[test]
    fn looking_changes_nothing() {
        let scn = scenario(MmcPath::Hsq, false);
        let mut plain = Simulator::new(&scn).expect("valid");
        plain.run_to_end();
        let mut watched = Simulator::new(&scn).expect("valid");
        while !watched.run_events(37) {
            let snap = watched.snapshot();
            assert_eq!(snap, watched.snapshot());
            assert!(snap.cache_dirty <= snap.cache_capacity);
        }
        assert_eq!(plain.report(), watched.report());
    }

    #[test]
    fn a_request_that_bios_merged_into_shows_them_and_its_grown_length() {
        // fio's batched io_submit: 8 sequential 4 KiB writes in one plug become one 32 KiB
        // request (`blk_attempt_plug_merge`), as the kernel under QEMU showed.
        let mut scn = scenario(MmcPath::Legacy, true);
        scn.platform = "qemu-sdhci-pci".into();
        scn.set_switch::<MmcPath>("mmc_path", None);
        scn.set_switch::<bool>("nonblocking", None);
        scn.jobs[0].rw = Rw::Write;
        scn.jobs[0].ioengine = crate::scenario::IoEngine::Libaio;
        scn.jobs[0].iodepth_batch = 8;
        let mut sim = Simulator::new(&scn).expect("valid");
        let mut widest = (0, 0);
        while !sim.run_events(5) {
            let snap = sim.snapshot();
            for r in &snap.requests {
                assert_eq!(
                    r.bios == 1,
                    r.len == 4096,
                    "request {}: {} bios, {} B",
                    r.id,
                    r.bios,
                    r.len
                );
                widest = widest.max((r.bios, r.len));
            }
        }
        assert_eq!(widest, (8, 32768));
        let snap = sim.snapshot();
        assert_eq!(snap.merges, 1024 - 128, "4 MiB in 128 requests of 32 KiB");
    }
}
