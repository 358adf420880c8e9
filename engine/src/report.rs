//! The results of a finished run, in the shape fio reports them: per job (clone), per direction.
//! The CLI formats these as fio's normal and JSON output; the web app shows them as a table.

use crate::metrics::histogram::LatencyHistogram;
use crate::vocab::{IoPrio, Stage};
use serde::{Deserialize, Serialize};

/// Per-direction statistics of one job (fio's `read` / `write` objects).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DirStats {
    /// Bytes completed.
    pub io_bytes: u64,
    /// I/Os completed.
    pub total_ios: u64,
    /// Simulated ns from the job's start to its last completion in this direction.
    pub runtime_ns: u64,
    /// Completion latency: from the job's system call to its completion being reaped.
    pub clat: LatencyHistogram,
    /// The same per I/O priority (fio's `clat_prio`), kept for a job whose I/Os carry more
    /// than one (`cmdprio_percentage`) and for a group of jobs of different priorities; fio
    /// prints them when two or more have samples ([`DirStats::prios_shown`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prios: Vec<PrioLat>,
}

/// Completion latency of the I/Os of one priority (fio's `struct clat_prio_stat`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PrioLat {
    /// The priority fio gave the I/Os (`io_u->ioprio`): class 0 and level 0 when none was set.
    pub ioprio: IoPrio,
    pub clat: LatencyHistogram,
}

/// Adds `clat` to `prio`'s entry of `prios` (a new entry at the end, as fio's
/// `add_clat_prio_sample` finds its index).
fn add_prio(prios: &mut Vec<PrioLat>, ioprio: IoPrio, clat: &LatencyHistogram) {
    match prios.iter_mut().find(|p| p.ioprio == ioprio) {
        Some(p) => p.clat.merge(clat),
        None => prios.push(PrioLat {
            ioprio,
            clat: clat.clone(),
        }),
    }
}

impl DirStats {
    /// Bandwidth in bytes per second of simulated time (fio `bw_bytes`).
    pub fn bw_bytes(&self) -> f64 {
        if self.runtime_ns == 0 {
            0.0
        } else {
            self.io_bytes as f64 * 1e9 / self.runtime_ns as f64
        }
    }
    /// IOPS (fio `iops`).
    pub fn iops(&self) -> f64 {
        if self.runtime_ns == 0 {
            0.0
        } else {
            self.total_ios as f64 * 1e9 / self.runtime_ns as f64
        }
    }
    /// MiB/s, as fio's normal output prints first.
    pub fn mib_s(&self) -> f64 {
        self.bw_bytes() / (1024.0 * 1024.0)
    }
    /// Nothing completed in this direction.
    pub fn is_empty(&self) -> bool {
        self.total_ios == 0
    }
    /// The per-priority latencies fio prints (`get_nr_prios_with_samples` >= 2), else none.
    pub fn prios_shown(&self) -> &[PrioLat] {
        let with = self.prios.iter().filter(|p| p.clat.count() > 0).count();
        if with >= 2 {
            &self.prios
        } else {
            &[]
        }
    }
    pub fn merge(&mut self, o: &DirStats) {
        self.io_bytes += o.io_bytes;
        self.total_ios += o.total_ios;
        self.runtime_ns = self.runtime_ns.max(o.runtime_ns);
        self.clat.merge(&o.clat);
    }
}

/// One job clone's results (or a whole group with group_reporting).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobReport {
    /// fio `jobname`.
    pub name: String,
    /// Index of the clone (fio's job number), 0-based.
    pub index: u32,
    /// fio's `groupid`: the reporting group (a new one at each `stonewall` / `new_group`).
    #[serde(default)]
    pub groupid: u32,
    pub read: DirStats,
    pub write: DirStats,
    /// Discards (fio's trim: `rw=trim|randtrim|trimwrite`).
    #[serde(default, skip_serializing_if = "DirStats::is_empty")]
    pub trim: DirStats,
    /// Cache flushes issued by `fsync=N`.
    pub flushes: u64,
    /// I/Os that ended in an error.
    pub errors: u64,
    /// Simulated ns from the job's start to its last completion.
    pub runtime_ns: u64,
    /// I/Os completed during `ramp_time`, left out of every figure above (fio's
    /// `in_ramp_time`): the report says so when they were all of them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ramp_ios: u64,
    /// The job thread's I/O priority (fio's `td->ioprio`: `prioclass=`, `prio=`).
    #[serde(default, skip_serializing_if = "is_default_prio")]
    pub ioprio: IoPrio,
}

fn is_default_prio(p: &IoPrio) -> bool {
    *p == IoPrio::default()
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Simulator-side figures of a run (the `mmcsim` object of the JSON output).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SimStats {
    /// Simulated time at the end of the run.
    pub simulated_ns: u64,
    /// Discrete events processed.
    pub events: u64,
    /// Host controller interrupts raised.
    pub interrupts: u64,
    /// Data commands (CMD18/CMD25) plus flush (CMD6) sent on the bus.
    pub bus_commands: u64,
    /// mmc_mq_queue_rq refusals (BLK_STS_RESOURCE) and the requeues they caused.
    pub requeues: u64,
    /// Requests completed, reads and writes (fio's disk stats `ios=`: /proc/diskstats).
    #[serde(default)]
    pub ios: [u64; 2],
    /// Bios merged into waiting requests and requests merged into others, reads and writes
    /// (`merge=`).
    #[serde(default)]
    pub merges: [u64; 2],
    /// Flush requests completed (REQ_OP_FLUSH: one shared by every request waiting for it).
    #[serde(default)]
    pub flushes: u64,
    /// Requests handed to the driver by kblockd and by the submitting thread (the context of
    /// `block_rq_issue`).
    #[serde(default)]
    pub issued_by_kblockd: u64,
    #[serde(default)]
    pub issued_direct: u64,
    /// Data requests completed by size, reads then writes (bytes -> count; at most one entry
    /// per 512 bytes up to the largest request).
    #[serde(default)]
    pub request_sizes: [std::collections::BTreeMap<u64, u64>; 2],
    /// ns requests spent from allocation to their end, reads and writes (diskstats' ticks,
    /// fio's `ticks=`).
    #[serde(default)]
    pub ticks_ns: [u64; 2],
    /// The same summed over every accounted request, flushes included (`in_queue=`).
    #[serde(default)]
    pub in_queue_ns: u64,
    /// Time with at least one request in flight (diskstats' io_ticks; fio's `util=`).
    #[serde(default)]
    pub io_ticks_ns: u64,
    /// Discard requests completed.
    #[serde(default)]
    pub discards: u64,
    /// Times the CQE was halted for a command it does not queue (`cqhci_off`).
    #[serde(default)]
    pub cqe_halts: u64,
    /// CMD13s sent after writes on the 2020 legacy path (`mmc_blk_card_busy`: one or more per
    /// write, as the board's kernel polls).
    #[serde(default)]
    pub busy_polls: u64,
    /// Requests handed to the controller per interrupt: index i = batches of i requests.
    pub batch_hist: Vec<u64>,
    /// Total ns requests spent in each stage, indexed by [`Stage::index`].
    pub stage_ns: Vec<u64>,
    /// Requests that finished their trip through the stages (data, discard and flush requests,
    /// mmc_test transfers; a bio merged into another request is not one, its time before the
    /// merge is in `stage_ns`): the divisor of the time per request in each stage. A split I/O
    /// counts each of its requests.
    #[serde(default)]
    pub requests: u64,
    /// Bus busy time (command + card access + data + card busy).
    pub bus_busy_ns: u64,
    /// Data CRC errors the card returned (`inject_error=`).
    pub crc_errors: u64,
    /// Requests re-issued by the recovery path (`mmc_blk_mq_rw_recovery`).
    pub retries: u64,
    /// Card resets before a last retry (`mmc_blk_reset`).
    pub resets: u64,
    /// I/Os larger than the queue's limits, split by the block layer (`bio_split_to_limits`).
    #[serde(default)]
    pub split_ios: u64,
    /// Requests those split I/Os became.
    #[serde(default)]
    pub split_requests: u64,
    /// Flushes the block layer sent after REQ_FUA writes because the queue has a volatile
    /// write cache and no FUA (`blk_flush_policy`, REQ_FSEQ_POSTFLUSH).
    #[serde(default)]
    pub post_flushes: u64,
    /// The run stopped issuing at the I/O budget (`MAX_TOTAL_IOS`) before its runtime was over.
    #[serde(default)]
    pub io_budget_reached: bool,
    /// The request that waited longest in the host queue for the bus: (ns waited, its id), to
    /// follow it in the page (a starving request under `hsq_dispatch=next_tag`).
    #[serde(default)]
    pub longest_host_wait: (u64, u64),
    /// Issue-to-complete of the data requests (`block_rq_issue`, the driver's
    /// `blk_mq_start_request`, to `blk_mq_end_request`), kept only while a trace is replayed:
    /// what a kernel trace's own `D` .. `C` pairs are set beside (`tools/replay_check.rs`).
    #[serde(default, skip_serializing_if = "hist_empty")]
    pub d2c: LatencyHistogram,
    /// Times a job's next I/O was held back for its pace (a replayed trace's issue times,
    /// `rate`, `rate_iops`, `thinktime`): what tells a bus left idle by the workload's pace.
    #[serde(default)]
    pub pace_waits: u64,
}

fn hist_empty(h: &LatencyHistogram) -> bool {
    h.count() == 0
}

impl SimStats {
    /// Requests per interrupt, the one definition every screen shows: the requests the
    /// interrupts so far completed (each interrupt finishes the requests of its transfer,
    /// `host_irq`) / those interrupts; 0 before the first. Never below 1 while every interrupt
    /// completes a request (a request the interrupt finished but whose softirq completion is still
    /// pending counts: the interrupt completed it).
    pub fn avg_batch(&self) -> f64 {
        let (n, s) = self
            .batch_hist
            .iter()
            .enumerate()
            .fold((0u64, 0u64), |(n, s), (i, &c)| (n + c, s + c * i as u64));
        if n == 0 {
            0.0
        } else {
            s as f64 / n as f64
        }
    }
    /// Percent of the simulated time the bus was busy (command, card access, data, card busy):
    /// 0 when nothing was simulated, never above 100.
    pub fn bus_busy_pct(&self) -> f64 {
        if self.simulated_ns == 0 {
            return 0.0;
        }
        (self.bus_busy_ns as f64 * 100.0 / self.simulated_ns as f64).min(100.0)
    }
    /// Time spent in one stage, summed over requests.
    pub fn stage(&self, s: Stage) -> u64 {
        self.stage_ns.get(s.index()).copied().unwrap_or(0)
    }
    /// Mean ns per finished request in one stage (`requests`, never the I/O count: a split
    /// I/O is several requests); 0 before the first.
    pub fn stage_per_request(&self, s: Stage) -> f64 {
        self.stage(s) as f64 / self.requests.max(1) as f64
    }
}

/// What a power cut cost (`power_cut=`, or the UI's plug).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PowerCutReport {
    /// When the power failed, ns of simulated time.
    pub at_ns: u64,
    /// Write I/Os acknowledged to the jobs before the cut (an I/O is acknowledged once all of
    /// it completed to its job: every request of a split I/O, and any post-flush).
    pub acked_writes: u64,
    /// Of those, write I/Os whose data was only in the card's volatile cache (data a later
    /// trim unmapped is not counted).
    pub lost_acked_writes: u64,
    pub lost_acked_bytes: u64,
    /// Byte ranges (offset, length) lost, in program order; at most [`PowerCutReport::MAX_RANGES`].
    pub lost_ranges: Vec<(u64, u64)>,
    /// Byte ranges lost in all (`lost_ranges` holds the first [`PowerCutReport::MAX_RANGES`]).
    #[serde(default)]
    pub lost_ranges_total: u64,
    /// `lost_ranges` (and `lost_requests`) hold only the first of more.
    #[serde(default)]
    pub truncated: bool,
    /// Ids of the lost acknowledged write I/Os (an I/O's id is its first request's id; at most
    /// [`PowerCutReport::MAX_RANGES`]).
    pub lost_requests: Vec<u64>,
    /// Requests in flight at the cut: they fail with an I/O error.
    pub failed_in_flight: u64,
    /// Acknowledged writes that were reliable writes (FUA): never lost.
    pub acked_reliable_writes: u64,
}

impl PowerCutReport {
    pub const MAX_RANGES: usize = 64;
}

/// Everything a finished run reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub platform: String,
    /// One entry per job clone (fio's `jobs[]`).
    pub jobs: Vec<JobReport>,
    pub sim: SimStats,
    /// Present when the run ended in a power cut.
    pub power_cut: Option<PowerCutReport>,
    /// Requests a finished run left unfinished ([`crate::Simulator::stranded_requests`]): 0,
    /// or a defect of the model, whose figures are of a run cut short.
    #[serde(default)]
    pub stranded_requests: u64,
}

impl Report {
    /// All jobs merged into one, as fio's group_reporting prints them.
    pub fn merged(&self) -> JobReport {
        self.merge_of(self.jobs.iter())
    }

    /// The reporting groups (fio's `groupid`s) in order.
    pub fn groups(&self) -> Vec<u32> {
        let mut g: Vec<u32> = self.jobs.iter().map(|j| j.groupid).collect();
        g.dedup();
        g
    }

    /// The jobs of group `g` merged into one.
    pub fn merged_group(&self, g: u32) -> JobReport {
        self.merge_of(self.jobs.iter().filter(|j| j.groupid == g))
    }

    fn merge_of<'a>(&self, jobs: impl Iterator<Item = &'a JobReport>) -> JobReport {
        let mut it = jobs;
        let mut m = it.next().cloned().unwrap_or(JobReport {
            name: String::new(),
            index: 0,
            groupid: 0,
            read: DirStats::default(),
            write: DirStats::default(),
            trim: DirStats::default(),
            flushes: 0,
            errors: 0,
            runtime_ns: 0,
            ramp_ios: 0,
            ioprio: IoPrio::default(),
        });
        let rest: Vec<&JobReport> = it.collect();
        // fio's `init_per_prio_stats`: a group keeps latencies per priority when a job of it
        // kept them, or when its jobs' thread priorities differ; `sum_thread_stats` then files
        // a job without them whole under its thread's priority.
        let per_prio = rest.iter().any(|j| j.ioprio != m.ioprio)
            || std::iter::once(&m)
                .chain(rest.iter().copied())
                .any(|j| !j.read.prios.is_empty() || !j.write.prios.is_empty());
        if per_prio {
            for d in [&mut m.read, &mut m.write] {
                if d.prios.is_empty() && d.clat.count() > 0 {
                    d.prios.push(PrioLat {
                        ioprio: m.ioprio,
                        clat: d.clat.clone(),
                    });
                }
            }
        }
        for j in rest {
            if per_prio {
                for (d, s) in [(&mut m.read, &j.read), (&mut m.write, &j.write)] {
                    if s.prios.is_empty() {
                        if s.clat.count() > 0 {
                            add_prio(&mut d.prios, j.ioprio, &s.clat);
                        }
                    } else {
                        for p in &s.prios {
                            add_prio(&mut d.prios, p.ioprio, &p.clat);
                        }
                    }
                }
            }
            m.read.merge(&j.read);
            m.write.merge(&j.write);
            m.trim.merge(&j.trim);
            m.flushes += j.flushes;
            m.errors += j.errors;
            m.runtime_ns = m.runtime_ns.max(j.runtime_ns);
            m.ramp_ios += j.ramp_ios;
        }
        m
    }
    /// Total bandwidth of all jobs in MiB/s (read + write).
    pub fn total_mib_s(&self) -> f64 {
        let m = self.merged();
        m.read.mib_s() + m.write.mib_s()
    }
}
