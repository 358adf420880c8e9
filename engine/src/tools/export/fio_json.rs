//! fio's JSON output (`--output-format=json`, fio `stat.c` `show_thread_status_json`): the same
//! layout and key order, fio's `"key" : value` spacing and `%f` floats, so tools that read fio's
//! JSON read ours. Keys fio has and the model cannot fill (cpu, disk_util, bw samples) are left
//! out; the simulator's own figures are in each job's `"mmcsim"` object. The output depends only
//! on the scenario and its seed: the same run prints the same bytes. The CLI's
//! `--output-format=json` and the web app's JSON export both call [`render`].
//!
//! The document is typed ([`FioDoc`] and the structs under it, fields in fio's order) and
//! written by `serde_json` with [`FioFormatter`], which reproduces fio's layout; it reads back
//! with `serde_json::from_str::<FioDoc>`.

use crate::metrics::histogram::{LatencyHistogram, FIO_PERCENTILES};
use crate::scenario::options::OptionScope;
use crate::{DirStats, JobReport, JobSpec, Report, Scenario, Stage};
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::io;

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
        // One block per reporting group (a new group at each stonewall / new_group).
        return rep
            .groups()
            .into_iter()
            .map(|g| {
                let first = rep.jobs.iter().position(|j| j.groupid == g).unwrap_or(0);
                Block {
                    job: rep.merged_group(g),
                    clones: rep.jobs.iter().filter(|j| j.groupid == g).count(),
                    spec: spec_of(first),
                }
            })
            .collect();
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
    // A run that did anything lasted at least 1 ms as reported (fio never prints a bandwidth
    // over a runtime of 0).
    (ns.saturating_add(500_000) / 1_000_000).max(u64::from(ns > 0))
}

/// A JSON object whose keys keep their order (fio's `"job options"`, `"percentile"`, ...).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OrderedMap<V>(pub Vec<(String, V)>);

impl<V> OrderedMap<V> {
    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl<V> FromIterator<(String, V)> for OrderedMap<V> {
    fn from_iter<I: IntoIterator<Item = (String, V)>>(iter: I) -> Self {
        OrderedMap(iter.into_iter().collect())
    }
}

impl<V: Serialize> Serialize for OrderedMap<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for OrderedMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct OrderedMapVisitor<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for OrderedMapVisitor<V> {
            type Value = OrderedMap<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut v = Vec::with_capacity(a.size_hint().unwrap_or(0));
                while let Some(e) = a.next_entry()? {
                    v.push(e);
                }
                Ok(OrderedMap(v))
            }
        }
        d.deserialize_map(OrderedMapVisitor(std::marker::PhantomData))
    }
}

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
    pub requeues: u64,
    pub avg_batch: f64,
    pub batch_hist: Vec<u64>,
    /// By stage name, in [`Stage::ALL`] order.
    pub stage_ns: OrderedMap<u64>,
    pub bus_busy_ns: u64,
    pub crc_errors: u64,
    pub retries: u64,
    pub card_resets: u64,
    /// I/Os the block layer split (`bio_split_to_limits`) and the requests they became.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub split_ios: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub split_requests: u64,
    /// The run stopped at the I/O budget before its runtime was over.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub io_budget_reached: bool,
    /// I/Os that ended in an error, over every job (normal output's `io_errors`).
    #[serde(default)]
    pub io_errors: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_cut: Option<FioPowerCut>,
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
            requeues: s.requeues,
            avg_batch: finite(s.avg_batch()),
            batch_hist: s.batch_hist.clone(),
            stage_ns: Stage::ALL
                .iter()
                .map(|&st| (st.name().to_string(), s.stage(st)))
                .collect(),
            bus_busy_ns: s.bus_busy_ns,
            crc_errors: s.crc_errors,
            retries: s.retries,
            card_resets: s.resets,
            split_ios: s.split_ios,
            split_requests: s.split_requests,
            io_budget_reached: s.io_budget_reached,
            io_errors: rep.jobs.iter().map(|j| j.errors).sum(),
            power_cut: rep.power_cut.as_ref().map(FioPowerCut::of),
        }
    }
}

/// The options of one scope as fio's `"job options"` / `"global options"` object.
fn options_of(scn: &Scenario, want: impl Fn(OptionScope) -> bool) -> OrderedMap<String> {
    scn.to_options()
        .into_iter()
        .filter(|(s, _, _)| want(*s))
        .map(|(_, k, v)| (k, v))
        .collect()
}

impl FioJob {
    fn of(scn: &Scenario, b: &Block, mmcsim: &FioMmcsim) -> Self {
        let spec_idx = b
            .spec
            .and_then(|sp| scn.jobs.iter().position(|j| std::ptr::eq(j, sp)));
        let job_options = match spec_idx {
            Some(i) => options_of(scn, |s| s == OptionScope::Job(i)),
            None => OrderedMap::default(),
        };
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
        let mmcsim = FioMmcsim::of(rep);
        FioDoc {
            fio_version: format!("mmcsim-{}", env!("CARGO_PKG_VERSION")),
            timestamp: 0,
            timestamp_ms: 0,
            time: "simulated".to_string(),
            platform: rep.platform.clone(),
            global_options: options_of(scn, |s| s == OptionScope::Global),
            jobs: blocks(scn, rep)
                .iter()
                .map(|b| FioJob::of(scn, b, &mmcsim))
                .collect(),
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

/// fio's JSON layout (`json.c`/`stat.c`): two-space indent, one member or element per line,
/// `"key" : value` with a space on both sides of the colon, `{}` / `[]` when empty, and floats
/// as C's `%f` (six decimals). Everything else is serde_json's pretty layout.
pub struct FioFormatter(serde_json::ser::PrettyFormatter<'static>);

impl FioFormatter {
    pub fn new() -> Self {
        FioFormatter(serde_json::ser::PrettyFormatter::with_indent(b"  "))
    }
}

impl Default for FioFormatter {
    fn default() -> Self {
        Self::new()
    }
}

impl serde_json::ser::Formatter for FioFormatter {
    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, v: f64) -> io::Result<()> {
        write!(w, "{:.6}", v)
    }
    fn write_f32<W: ?Sized + io::Write>(&mut self, w: &mut W, v: f32) -> io::Result<()> {
        write!(w, "{:.6}", v)
    }
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b" : ")
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// The whole JSON document of a run, with a trailing newline.
pub fn render(scn: &Scenario, rep: &Report) -> String {
    FioDoc::of(scn, rep).to_text()
}

/// fio's `--output-format=json+`: the JSON document with each completion-latency histogram's
/// non-empty bins (`"bins" : { "VALUE_NS" : COUNT, ... }` in `clat_ns`).
pub fn render_plus(scn: &Scenario, rep: &Report) -> String {
    let mut doc = FioDoc::of(scn, rep);
    for (job, b) in doc.jobs.iter_mut().zip(blocks(scn, rep)) {
        for (dir, d) in [(&mut job.read, &b.job.read), (&mut job.write, &b.job.write)] {
            dir.clat_ns.bins = Some(d.clat.buckets().map(|(v, c)| (v.to_string(), c)).collect());
        }
        if !b.job.trim.is_empty() {
            let bins = b.job.trim.clat.buckets().map(|(v, c)| (v.to_string(), c));
            job.trim.clat_ns.bins = Some(bins.collect());
        }
    }
    doc.to_text()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Scenario, Report) {
        let args = [
            "--name=a",
            "--rw=randwrite",
            "--size=256k",
            "--numjobs=2",
            "--fsync=4",
        ];
        let scn = crate::scenario::options::parse_args(&args, Scenario::default())
            .expect("valid options");
        let mut sim = crate::Simulator::new(&scn).expect("valid scenario");
        sim.run_to_end();
        let mut rep = sim.report();
        rep.power_cut = Some(crate::PowerCutReport {
            at_ns: 7,
            lost_ranges: vec![(4096, 512), (0, 8)],
            ..Default::default()
        });
        (scn, rep)
    }

    /// `f` as the reader of `%f` sees it.
    fn six(f: f64) -> f64 {
        format!("{:.6}", f).parse().expect("a number")
    }

    fn round_floats(doc: &mut FioDoc) {
        let lat = |l: &mut FioLat| {
            l.mean = six(l.mean);
            l.stddev = six(l.stddev);
        };
        for j in &mut doc.jobs {
            for d in [&mut j.read, &mut j.write, &mut j.trim] {
                d.iops = six(d.iops);
                lat(&mut d.slat_ns);
                lat(&mut d.clat_ns);
                lat(&mut d.lat_ns);
            }
            lat(&mut j.sync.lat_ns);
            j.mmcsim.avg_batch = six(j.mmcsim.avg_batch);
        }
    }

    #[test]
    fn reads_back_into_the_typed_document() {
        let (scn, rep) = sample();
        let doc = FioDoc::of(&scn, &rep);
        let text = render(&scn, &rep);
        let back: FioDoc = serde_json::from_str(&text).expect("fio JSON reads back");
        let mut want = doc.clone();
        round_floats(&mut want);
        assert_eq!(back, want);
        assert_eq!(back.to_text(), text, "written again byte for byte");
        assert_eq!(back.jobs.len(), 2);
        let j = &back.jobs[0];
        assert_eq!(
            j.job_options.get("rw").map(String::as_str),
            Some("randwrite")
        );
        assert!(j.write.clat_ns.percentile.is_some());
        assert!(
            j.read.clat_ns.percentile.is_none(),
            "no samples, no percentiles"
        );
        let pc = j.mmcsim.power_cut.as_ref().expect("power cut");
        assert_eq!(pc.lost_ranges[1], FioRange { offset: 0, len: 8 });
    }

    #[test]
    fn layout_is_fios() {
        let (scn, rep) = sample();
        let text = render(&scn, &rep);
        assert!(
            text.starts_with("{\n  \"fio version\" : \"mmcsim-"),
            "{text}"
        );
        assert!(text.contains("\n      \"job options\" : {\n        \"name\" : \"a\",\n"));
        assert!(text.contains("\"mean\" : 0.000000,\n"));
        assert!(text.ends_with("\n  ]\n}\n"));
        let empty = FioDoc {
            global_options: OrderedMap::default(),
            jobs: Vec::new(),
            ..FioDoc::of(&scn, &rep)
        };
        let t = empty.to_text();
        assert!(
            t.contains("\"global options\" : {},\n  \"jobs\" : []\n}"),
            "{t}"
        );
    }
}
