//! fio's JSON output (`--output-format=json`, fio `stat.c` `show_thread_status_json`): the same
//! layout and key order, fio's `"key" : value` spacing and `%f` floats, so tools that read fio's
//! JSON read ours. Keys fio has and the model cannot fill (cpu, disk_util, bw samples) are left
//! out; the simulator's own figures are in each job's `"mmcsim"` object. The output depends only
//! on the scenario and its seed: the same run prints the same bytes. The CLI's
//! `--output-format=json` and the web app's JSON export both call [`render`].

use super::json::{obj, Json};
use crate::metrics::histogram::{LatencyHistogram, FIO_PERCENTILES};
use crate::scenario::options::OptionScope;
use crate::{DirStats, JobReport, JobSpec, Report, Scenario, Stage};

/// One reported job: a clone, or a whole group with group_reporting (fio `show_run_stats`).
pub struct Block<'a> {
    pub job: JobReport,
    /// Clones in this block (fio's `jobs=`).
    pub clones: usize,
    /// The job section it came from (None for mmc_test transfers).
    pub spec: Option<&'a JobSpec>,
}

/// The blocks fio would print: one per clone, or one merged block with group_reporting.
pub fn blocks<'a>(scn: &'a Scenario, rep: &Report) -> Vec<Block<'a>> {
    let mut specs: Vec<&JobSpec> = Vec::new();
    if scn.mmc_test.is_none() {
        for j in &scn.jobs {
            specs.extend(std::iter::repeat_n(j, j.numjobs as usize));
        }
    }
    let spec_of = |i: usize| {
        if specs.len() == rep.jobs.len() {
            specs.get(i).copied()
        } else {
            None
        }
    };
    if scn.group_reporting && scn.mmc_test.is_none() {
        return vec![Block {
            job: rep.merged(),
            clones: rep.jobs.len(),
            spec: spec_of(0),
        }];
    }
    rep.jobs
        .iter()
        .enumerate()
        .map(|(i, j)| Block {
            job: j.clone(),
            clones: 1,
            spec: spec_of(i),
        })
        .collect()
}

/// ns to fio's msec runtime (rounded to the nearest ms).
pub fn runtime_ms(ns: u64) -> u64 {
    ns.saturating_add(500_000) / 1_000_000
}

/// fio's `{min, max, mean, stddev, N[, percentile]}` latency object, in ns.
fn lat_obj(h: &LatencyHistogram, with_percentiles: bool) -> Json {
    let mut v = vec![
        ("min", Json::U(h.min())),
        ("max", Json::U(h.max())),
        ("mean", Json::F(h.mean())),
        ("stddev", Json::F(h.stddev())),
        ("N", Json::U(h.count())),
    ];
    if with_percentiles && h.count() > 0 {
        let p = FIO_PERCENTILES
            .iter()
            .map(|&p| (format!("{:.6}", p), Json::U(h.percentile(p))))
            .collect();
        v.push(("percentile", Json::Obj(p)));
    }
    obj(v)
}

/// fio's per-direction object. The model has no submission latency, so `slat_ns` is zero and
/// `lat_ns` equals `clat_ns` (without percentiles, as fio prints it by default).
fn dir_obj(d: &DirStats) -> Json {
    obj(vec![
        ("io_bytes", Json::U(d.io_bytes)),
        ("io_kbytes", Json::U(d.io_bytes / 1024)),
        ("bw_bytes", Json::U(d.bw_bytes() as u64)),
        ("bw", Json::U((d.bw_bytes() / 1024.0) as u64)),
        ("iops", Json::F(d.iops())),
        ("runtime", Json::U(runtime_ms(d.runtime_ns))),
        ("total_ios", Json::U(d.total_ios)),
        ("short_ios", Json::U(0)),
        ("drop_ios", Json::U(0)),
        ("slat_ns", lat_obj(&LatencyHistogram::new(), false)),
        ("clat_ns", lat_obj(&d.clat, true)),
        ("lat_ns", lat_obj(&d.clat, false)),
    ])
}

fn power_cut_obj(p: &crate::PowerCutReport) -> Json {
    let ranges = p
        .lost_ranges
        .iter()
        .map(|&(o, l)| obj(vec![("offset", Json::U(o)), ("len", Json::U(l))]))
        .collect();
    obj(vec![
        ("at_ns", Json::U(p.at_ns)),
        ("acked_writes", Json::U(p.acked_writes)),
        ("lost_acked_writes", Json::U(p.lost_acked_writes)),
        ("lost_acked_bytes", Json::U(p.lost_acked_bytes)),
        ("failed_in_flight", Json::U(p.failed_in_flight)),
        ("acked_reliable_writes", Json::U(p.acked_reliable_writes)),
        ("lost_ranges", Json::Arr(ranges)),
    ])
}

fn sim_obj(rep: &Report) -> Json {
    let s = &rep.sim;
    let stages = Stage::ALL
        .iter()
        .map(|&st| (st.name().to_string(), Json::U(s.stage(st))))
        .collect();
    let mut v = vec![
        ("simulated_ns", Json::U(s.simulated_ns)),
        ("events", Json::U(s.events)),
        ("interrupts", Json::U(s.interrupts)),
        ("bus_commands", Json::U(s.bus_commands)),
        ("requeues", Json::U(s.requeues)),
        ("avg_batch", Json::F(s.avg_batch())),
        (
            "batch_hist",
            Json::Arr(s.batch_hist.iter().map(|&c| Json::U(c)).collect()),
        ),
        ("stage_ns", Json::Obj(stages)),
        ("bus_busy_ns", Json::U(s.bus_busy_ns)),
        ("crc_errors", Json::U(s.crc_errors)),
        ("retries", Json::U(s.retries)),
        ("card_resets", Json::U(s.resets)),
    ];
    if let Some(p) = &rep.power_cut {
        v.push(("power_cut", power_cut_obj(p)));
    }
    obj(v)
}

/// The options of one scope as fio's `"job options"` / `"global options"` object.
fn options_obj(scn: &Scenario, want: impl Fn(OptionScope) -> bool) -> Json {
    let v = scn
        .to_options()
        .into_iter()
        .filter(|(s, _, _)| want(*s))
        .map(|(_, k, v)| (k, Json::S(v)))
        .collect();
    Json::Obj(v)
}

fn job_obj(scn: &Scenario, b: &Block, rep: &Report) -> Json {
    let spec_idx = b
        .spec
        .and_then(|sp| scn.jobs.iter().position(|j| std::ptr::eq(j, sp)));
    let job_opts = match spec_idx {
        Some(i) => options_obj(scn, |s| s == OptionScope::Job(i)),
        None => Json::Obj(Vec::new()),
    };
    let sync = obj(vec![
        ("total_ios", Json::U(b.job.flushes)),
        ("lat_ns", lat_obj(&LatencyHistogram::new(), false)),
    ]);
    obj(vec![
        ("jobname", Json::S(b.job.name.clone())),
        ("groupid", Json::U(0)),
        ("error", Json::U(if b.job.errors > 0 { 5 } else { 0 })),
        ("eta", Json::U(0)),
        ("elapsed", Json::U(b.job.runtime_ns.div_ceil(1_000_000_000))),
        ("job options", job_opts),
        ("read", dir_obj(&b.job.read)),
        ("write", dir_obj(&b.job.write)),
        ("trim", dir_obj(&DirStats::default())),
        ("sync", sync),
        ("mmcsim", sim_obj(rep)),
    ])
}

/// The whole JSON document of a run, with a trailing newline.
pub fn render(scn: &Scenario, rep: &Report) -> String {
    let jobs = blocks(scn, rep)
        .iter()
        .map(|b| job_obj(scn, b, rep))
        .collect();
    let doc = obj(vec![
        (
            "fio version",
            Json::S(format!("mmcsim-{}", env!("CARGO_PKG_VERSION"))),
        ),
        ("timestamp", Json::U(0)),
        ("timestamp_ms", Json::U(0)),
        ("time", Json::S("simulated".to_string())),
        ("platform", Json::S(rep.platform.clone())),
        (
            "global options",
            options_obj(scn, |s| s == OptionScope::Global),
        ),
        ("jobs", Json::Arr(jobs)),
    ]);
    let mut out = String::new();
    doc.write(&mut out, 0);
    out.push('\n');
    out
}
