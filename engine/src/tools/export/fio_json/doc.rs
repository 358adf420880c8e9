//! The typed document: fio's JSON objects (fields in fio's order) filled from a report.

use super::{blocks, runtime_ms, Block, FioDiskUtil, FioFormatter, OrderedMap};
use crate::metrics::histogram::{LatencyHistogram, FIO_PERCENTILES};
use crate::scenario::options::OptionScope;
use crate::{DirStats, Report, Scenario, Stage};
use serde::{Deserialize, Serialize};

/// The whole document (fio `show_run_stats` with `--output-format=json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FioDoc {
    #[serde(rename = "fio version")]
    pub fio_version: String,
    pub timestamp: u64,
    pub timestamp_ms: u64,
    pub time: String,
    pub platform: String,
    #[serde(rename = "global options")]
    pub global_options: OrderedMap<String>,
    pub jobs: Vec<FioJob>,
    /// /proc/diskstats of the card over the run (none for mmc_test).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disk_util: Vec<FioDiskUtil>,
    /// `--sensitivity`'s summary (`tools::sensitivity::Sensitivity`); absent unless asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sensitivity: Option<serde_json::Value>,
}

/// One reported job (fio `show_thread_status_json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FioJob {
    pub jobname: String,
    pub groupid: u64,
    pub error: u64,
    /// I/Os of this job that ended in an error (fio's `total_err`).
    #[serde(default)]
    pub total_err: u64,
    pub eta: u64,
    pub elapsed: u64,
    #[serde(rename = "job options")]
    pub job_options: OrderedMap<String>,
    pub read: FioDir,
    pub write: FioDir,
    pub trim: FioDir,
    pub sync: FioSync,
    /// The simulator's own figures.
    pub mmcsim: FioMmcsim,
}

/// fio's per-direction object. The model has no submission latency, so `slat_ns` is zero and
/// `lat_ns` equals `clat_ns` (without percentiles, as fio prints it by default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FioDir {
    pub io_bytes: u64,
    pub io_kbytes: u64,
    pub bw_bytes: u64,
    pub bw: u64,
    pub iops: f64,
    pub runtime: u64,
    pub total_ios: u64,
    pub short_ios: u64,
    pub drop_ios: u64,
    pub slat_ns: FioLat,
    pub clat_ns: FioLat,
    pub lat_ns: FioLat,
    /// Completion latency per I/O priority, when two or more have samples (fio's `prios`,
    /// `add_ddir_status_json`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prios: Vec<FioPrio>,
}

/// One entry of fio's `prios`: the priority and its completion latency.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FioPrio {
    pub prioclass: u8,
    pub prio: u8,
    pub priohint: u8,
    pub clat_ns: FioLat,
}

/// fio's `{min, max, mean, stddev, N[, percentile]}` latency object, in ns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FioLat {
    pub min: u64,
    pub max: u64,
    pub mean: f64,
    pub stddev: f64,
    #[serde(rename = "N")]
    pub n: u64,
    /// fio's percentile list (keys `"%f"` of the percentile), when there are samples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percentile: Option<OrderedMap<u64>>,
    /// `--output-format=json+`: the histogram's non-empty bins (bin value in ns -> count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bins: Option<OrderedMap<u64>>,
}

/// fio's `sync` object: the flushes (`fsync=N`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FioSync {
    pub total_ios: u64,
    pub lat_ns: FioLat,
}

/// Each job's `"mmcsim"` object: the run's simulator-side figures ([`crate::SimStats`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FioMmcsim {
    pub simulated_ns: u64,
    pub events: u64,
    pub interrupts: u64,
    pub bus_commands: u64,
    /// CMD13s the legacy path sent after writes (`mmc_blk_card_busy`, as the board's kernel
    /// polls: back to back up to 5.14, with sleeps since 5.15); part of `bus_commands`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cmd13_polls: u64,
    pub requeues: u64,
    pub avg_batch: f64,
    pub batch_hist: Vec<u64>,
    /// By stage name, in [`Stage::ALL`] order: sums over requests.
    pub stage_ns: OrderedMap<u64>,
    /// Requests that finished ([`crate::SimStats::requests`]: each request of a split I/O):
    /// `stage_ns` / `requests` is the time per request in each stage.
    #[serde(default)]
    pub requests: u64,
    pub bus_busy_ns: u64,
    pub crc_errors: u64,
    pub retries: u64,
    pub card_resets: u64,
    /// I/Os the block layer split (`bio_split_to_limits`) and the requests they became.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub split_ios: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub split_requests: u64,
    /// Flushes the block layer sent after REQ_FUA writes (no FUA on the queue).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub post_flushes: u64,
    /// Flush requests the card received (REQ_OP_FLUSH, each shared by every request that
    /// waited for it: blk-flush.c).
    #[serde(default)]
    pub flushes: u64,
    /// The run stopped at the I/O budget before its runtime was over.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub io_budget_reached: bool,
    /// I/Os that ended in an error, over every job (normal output's `io_errors`).
    #[serde(default)]
    pub io_errors: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_cut: Option<FioPowerCut>,
    /// The Linux version the board ran (`kernel=`), the block-layer rule set it ran (the same,
    /// or the nearest the model carries: `board/kernel_rules.rs`), and who issued the requests
    /// to the driver: the submitting task or kblockd (a kworker).
    #[serde(default)]
    pub kernel: String,
    #[serde(default)]
    pub kernel_rules: String,
    #[serde(default)]
    pub issued_by_task: u64,
    #[serde(default)]
    pub issued_by_kblockd: u64,
    /// What the run models that no kernel runs ([`crate::scenario::what_ifs`]), each with
    /// what mainline does instead; left out when there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub what_if: Vec<FioWhatIf>,
    /// A kernel trace's replay beside the trace's own issue-to-complete times and whose pace
    /// the throughput is (`tools/replay_check.rs`); left out when the run replays no kernel
    /// trace with completions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_check: Option<crate::tools::replay_check::ReplayCheck>,
}

/// One what-if of the run: its setting (`packed=8`) and the reason no kernel runs it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FioWhatIf {
    pub setting: String,
    pub reason: String,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// What a power cut cost ([`crate::PowerCutReport`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FioPowerCut {
    pub at_ns: u64,
    pub acked_writes: u64,
    pub lost_acked_writes: u64,
    pub lost_acked_bytes: u64,
    pub failed_in_flight: u64,
    pub acked_reliable_writes: u64,
    pub lost_ranges: Vec<FioRange>,
    /// Ranges lost in all; `lost_ranges` lists the first 64.
    #[serde(default)]
    pub lost_ranges_total: u64,
    /// `lost_ranges` lists only the first of `lost_ranges_total`.
    #[serde(default)]
    pub lost_ranges_truncated: bool,
}

/// A lost byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FioRange {
    pub offset: u64,
    pub len: u64,
}

/// fio prints `%f`: a non-finite value (never produced by the model) is written as 0.
fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        0.0
    }
}

impl FioLat {
    fn of(h: &LatencyHistogram, with_percentiles: bool) -> Self {
        let percentile = (with_percentiles && h.count() > 0).then(|| {
            FIO_PERCENTILES
                .iter()
                .map(|&p| (format!("{:.6}", p), h.percentile(p)))
                .collect()
        });
        FioLat {
            min: h.min(),
            max: h.max(),
            mean: finite(h.mean()),
            stddev: finite(h.stddev()),
            n: h.count(),
            percentile,
            bins: None,
        }
    }
    /// An empty latency object (fio's zeros for what the model does not time).
    fn zero() -> Self {
        FioLat::of(&LatencyHistogram::new(), false)
    }
}

impl FioDir {
    pub fn of(d: &DirStats) -> Self {
        FioDir {
            io_bytes: d.io_bytes,
            io_kbytes: d.io_bytes / 1024,
            bw_bytes: d.bw_bytes() as u64,
            bw: (d.bw_bytes() / 1024.0) as u64,
            iops: finite(d.iops()),
            runtime: runtime_ms(d.runtime_ns),
            total_ios: d.total_ios,
            short_ios: 0,
            drop_ios: 0,
            slat_ns: FioLat::zero(),
            clat_ns: FioLat::of(&d.clat, true),
            lat_ns: FioLat::of(&d.clat, false),
            prios: d
                .prios_shown()
                .iter()
                .filter(|p| p.clat.count() > 0)
                .map(|p| FioPrio {
                    prioclass: p.ioprio.class.number(),
                    prio: p.ioprio.level,
                    priohint: 0,
                    clat_ns: FioLat::of(&p.clat, true),
                })
                .collect(),
        }
    }
}

impl FioPowerCut {
    pub fn of(p: &crate::PowerCutReport) -> Self {
        FioPowerCut {
            at_ns: p.at_ns,
            acked_writes: p.acked_writes,
            lost_acked_writes: p.lost_acked_writes,
            lost_acked_bytes: p.lost_acked_bytes,
            failed_in_flight: p.failed_in_flight,
            acked_reliable_writes: p.acked_reliable_writes,
            lost_ranges: p
                .lost_ranges
                .iter()
                .map(|&(offset, len)| FioRange { offset, len })
                .collect(),
            lost_ranges_total: p.lost_ranges_total,
            lost_ranges_truncated: p.truncated,
        }
    }
}

impl FioMmcsim {
    pub fn of(rep: &Report) -> Self {
        let s = &rep.sim;
        FioMmcsim {
            simulated_ns: s.simulated_ns,
            events: s.events,
            interrupts: s.interrupts,
            bus_commands: s.bus_commands,
            cmd13_polls: s.busy_polls,
            requeues: s.requeues,
            avg_batch: finite(s.avg_batch()),
            batch_hist: s.batch_hist.clone(),
            stage_ns: Stage::ALL
                .iter()
                .map(|&st| (st.name().to_string(), s.stage(st)))
                .collect(),
            requests: s.requests,
            bus_busy_ns: s.bus_busy_ns,
            crc_errors: s.crc_errors,
            retries: s.retries,
            card_resets: s.resets,
            split_ios: s.split_ios,
            split_requests: s.split_requests,
            post_flushes: s.post_flushes,
            flushes: s.flushes,
            io_budget_reached: s.io_budget_reached,
            io_errors: rep.jobs.iter().map(|j| j.errors).sum(),
            power_cut: rep.power_cut.as_ref().map(FioPowerCut::of),
            kernel: String::new(),
            kernel_rules: String::new(),
            issued_by_task: s.issued_direct,
            issued_by_kblockd: s.issued_by_kblockd,
            what_if: Vec::new(),
            replay_check: None,
        }
    }
}

/// fio's `"global options"` object and each job section's `"job options"`, from one pass over
/// the scenario's options (once per document: a pass per job made 1000 sections quadratic).
fn options_by_scope(scn: &Scenario) -> (OrderedMap<String>, Vec<OrderedMap<String>>) {
    let mut global = OrderedMap::default();
    let mut jobs = vec![OrderedMap::default(); scn.jobs.len()];
    for (scope, k, v) in scn.to_options() {
        match scope {
            OptionScope::Global => global.0.push((k, v)),
            OptionScope::Job(i) => {
                if let Some(m) = jobs.get_mut(i) {
                    m.0.push((k, v));
                }
            }
        }
    }
    (global, jobs)
}

impl FioJob {
    fn of(scn: &Scenario, b: &Block, mmcsim: &FioMmcsim, options: &[OrderedMap<String>]) -> Self {
        let spec_idx = b
            .spec
            .and_then(|sp| scn.jobs.iter().position(|j| std::ptr::eq(j, sp)));
        let job_options = spec_idx
            .and_then(|i| options.get(i).cloned())
            .unwrap_or_default();
        FioJob {
            jobname: b.job.name.clone(),
            groupid: u64::from(b.job.groupid),
            error: if b.job.errors > 0 { 5 } else { 0 },
            total_err: b.job.errors,
            eta: 0,
            elapsed: b.job.runtime_ns.div_ceil(1_000_000_000),
            job_options,
            read: FioDir::of(&b.job.read),
            write: FioDir::of(&b.job.write),
            trim: FioDir::of(&b.job.trim),
            sync: FioSync {
                total_ios: b.job.flushes,
                lat_ns: FioLat::zero(),
            },
            mmcsim: mmcsim.clone(),
        }
    }
}

impl FioDoc {
    /// The document of a run.
    pub fn of(scn: &Scenario, rep: &Report) -> Self {
        let mut mmcsim = FioMmcsim::of(rep);
        if let Ok(p) = scn.effective_platform() {
            mmcsim.kernel = p.kernel.to_string();
            mmcsim.kernel_rules = p.kernel.rule_set().to_string();
        }
        mmcsim.what_if = crate::scenario::what_ifs(scn)
            .into_iter()
            .map(|w| FioWhatIf {
                setting: w.setting,
                reason: w.reason.to_string(),
            })
            .collect();
        mmcsim.replay_check =
            crate::tools::replay_check::ReplayCheck::of(scn, rep).filter(|c| c.trace_d2c.is_some());
        let (global_options, job_options) = options_by_scope(scn);
        FioDoc {
            fio_version: format!("mmcsim-{}", env!("CARGO_PKG_VERSION")),
            timestamp: 0,
            timestamp_ms: 0,
            time: "simulated".to_string(),
            platform: rep.platform.clone(),
            global_options,
            jobs: blocks(scn, rep)
                .iter()
                .map(|b| FioJob::of(scn, b, &mmcsim, &job_options))
                .collect(),
            disk_util: FioDiskUtil::of(rep, scn.mmc_test.is_some())
                .into_iter()
                .collect(),
            sensitivity: None,
        }
    }

    /// The document in fio's layout, with a trailing newline.
    pub fn to_text(&self) -> String {
        let mut out = Vec::with_capacity(4096);
        let mut ser = serde_json::Serializer::with_formatter(&mut out, FioFormatter::new());
        // Writing into a Vec cannot fail, and every map key is a string.
        self.serialize(&mut ser)
            .expect("fio JSON serializes into memory");
        out.push(b'\n');
        String::from_utf8(out).expect("serde_json writes UTF-8")
    }
}
