//! fio's JSON output (`--output-format=json`, fio `stat.c` `show_thread_status_json`): the same
//! layout and key order, fio's `"key" : value` spacing and `%f` floats, so tools that read fio's
//! JSON read ours. Keys fio has and the model cannot fill (cpu, disk_util, bw samples) are left
//! out; the simulator's own figures are in each job's `"mmcsim"` object. The output depends only
//! on the scenario and its seed: the same run prints the same bytes.

use crate::normal::{blocks, runtime_ms, Block};
use mmcsim_engine::metrics::histogram::{LatencyHistogram, FIO_PERCENTILES};
use mmcsim_engine::scenario::options::OptionScope;
use mmcsim_engine::{DirStats, Report, Scenario, Stage};

/// A JSON value whose objects keep their key order.
pub enum Json {
    U(u64),
    F(f64),
    S(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

fn obj(pairs: Vec<(&str, Json)>) -> Json {
    Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

impl Json {
    /// fio's layout: two-space indent, `"key" : value`, floats with six decimals.
    pub fn write(&self, out: &mut String, indent: usize) {
        let pad = |n: usize| "  ".repeat(n);
        match self {
            Json::U(v) => out.push_str(&v.to_string()),
            Json::F(v) => out.push_str(&format!("{:.6}", if v.is_finite() { *v } else { 0.0 })),
            Json::S(s) => quote(s, out),
            Json::Arr(items) if items.is_empty() => out.push_str("[]"),
            Json::Obj(items) if items.is_empty() => out.push_str("{}"),
            Json::Arr(items) => {
                out.push_str("[\n");
                for (i, v) in items.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    v.write(out, indent + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push(']');
            }
            Json::Obj(items) => {
                out.push_str("{\n");
                for (i, (k, v)) in items.iter().enumerate() {
                    out.push_str(&pad(indent + 1));
                    quote(k, out);
                    out.push_str(" : ");
                    v.write(out, indent + 1);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&pad(indent));
                out.push('}');
            }
        }
    }
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
        let p = FIO_PERCENTILES.iter().map(|&p| (format!("{:.6}", p), Json::U(h.percentile(p)))).collect();
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

fn power_cut_obj(p: &mmcsim_engine::PowerCutReport) -> Json {
    let ranges = p.lost_ranges.iter().map(|&(o, l)| obj(vec![("offset", Json::U(o)), ("len", Json::U(l))])).collect();
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
    let stages = Stage::ALL.iter().map(|&st| (st.name().to_string(), Json::U(s.stage(st)))).collect();
    let mut v = vec![
        ("simulated_ns", Json::U(s.simulated_ns)),
        ("events", Json::U(s.events)),
        ("interrupts", Json::U(s.interrupts)),
        ("bus_commands", Json::U(s.bus_commands)),
        ("requeues", Json::U(s.requeues)),
        ("avg_batch", Json::F(s.avg_batch())),
        ("batch_hist", Json::Arr(s.batch_hist.iter().map(|&c| Json::U(c)).collect())),
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
    let v = scn.to_options().into_iter().filter(|(s, _, _)| want(*s)).map(|(_, k, v)| (k, Json::S(v))).collect();
    Json::Obj(v)
}

fn job_obj(scn: &Scenario, b: &Block, rep: &Report) -> Json {
    let spec_idx = b.spec.and_then(|sp| scn.jobs.iter().position(|j| std::ptr::eq(j, sp)));
    let job_opts = match spec_idx {
        Some(i) => options_obj(scn, |s| s == OptionScope::Job(i)),
        None => Json::Obj(Vec::new()),
    };
    let sync = obj(vec![("total_ios", Json::U(b.job.flushes)), ("lat_ns", lat_obj(&LatencyHistogram::new(), false))]);
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
    let jobs = blocks(scn, rep).iter().map(|b| job_obj(scn, b, rep)).collect();
    let doc = obj(vec![
        ("fio version", Json::S(format!("mmcsim-{}", env!("CARGO_PKG_VERSION")))),
        ("timestamp", Json::U(0)),
        ("timestamp_ms", Json::U(0)),
        ("time", Json::S("simulated".to_string())),
        ("platform", Json::S(rep.platform.clone())),
        ("global options", options_obj(scn, |s| s == OptionScope::Global)),
        ("jobs", Json::Arr(jobs)),
    ]);
    let mut out = String::new();
    doc.write(&mut out, 0);
    out.push('\n');
    out
}
