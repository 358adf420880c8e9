//! Result files: one fio JSON output read into a workload and its measured figures.

use mmcsim_engine::scenario::options::{lookup, OptionKind, ScenarioBuilder};
use mmcsim_engine::Scenario;
use serde_json::Value;

/// Simulated time a fit's run lasts at most, ns (`--fit_runtime`).
pub const DEFAULT_FIT_RUNTIME_NS: u64 = 250_000_000;

/// One measured figure of a case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Figure {
    /// Total bandwidth, MiB/s.
    MiBs,
    /// Completion latency percentile, us.
    P50,
    P99,
}

impl Figure {
    pub fn label(self) -> &'static str {
        match self {
            Figure::MiBs => "MiB/s",
            Figure::P50 => "p50 us",
            Figure::P99 => "p99 us",
        }
    }
    pub(crate) fn weight(self) -> f64 {
        match self {
            Figure::MiBs => 1.0,
            _ => 0.25,
        }
    }
    /// How far a left-out prediction of this figure may miss for the fit to be trusted:
    /// [`MAX_LEFT_OUT_ERROR`](crate::MAX_LEFT_OUT_ERROR) for bandwidth; a latency, weighted 1/4
    /// in the cost (its errors count half), twice that: the same weighted error.
    pub fn tolerance(self) -> f64 {
        crate::MAX_LEFT_OUT_ERROR / self.weight().sqrt()
    }
}

/// One fio result: the workload and its measured figures.
#[derive(Clone, Debug)]
pub struct Case {
    pub file: String,
    /// The workload on the default board (`platform` and board parameters are set per fit).
    pub scn: Scenario,
    /// `platform=` the file names, if any (mmcsim's own output).
    pub platform: Option<String>,
    pub measured: Vec<(Figure, f64)>,
    /// Options the model does not know, skipped.
    pub skipped: Vec<String>,
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(if *b { "1" } else { "0" }.to_string()),
        Value::Null => None,
        _ => None,
    }
}

/// The options of one file as they are read: the workload being built, the platform the file
/// names and the options the model does not know.
struct Reader<'a> {
    file: &'a str,
    b: ScenarioBuilder,
    platform: Option<String>,
    skipped: Vec<String>,
}

impl Reader<'_> {
    /// Takes one option of the global section or of a job's (`section`): the workload and host
    /// switches; the board is fitted.
    fn take(&mut self, section: bool, k: &str, v: &Value) -> Result<(), String> {
        let v = text_of(v);
        let Some(row) = lookup(k) else {
            self.skipped.push(k.to_string());
            return Ok(());
        };
        if row.name == "platform" {
            self.platform = v;
            return Ok(());
        }
        if row.kind == OptionKind::Platform {
            return Ok(());
        }
        let r = if section {
            self.b.job(k, v.as_deref())
        } else {
            self.b.global(k, v.as_deref())
        };
        r.map_err(|e| format!("{}: {e}", self.file))
    }

    /// Takes every job's options, each job once; returns the total bandwidth, bytes/s, and
    /// whether the file reports one job.
    fn jobs(&mut self, jobs: &[Value]) -> Result<(f64, bool), String> {
        // fio reports each clone of a job (numjobs) as its own entry with the same options.
        let mut last: Option<(&Value, &Value)> = None;
        let (mut bw, mut one_entry) = (0.0, jobs.len() == 1);
        for j in jobs {
            for d in ["read", "write"] {
                bw += j[d]["bw_bytes"].as_f64().unwrap_or(0.0);
            }
            let key = (&j["jobname"], &j["job options"]);
            if last == Some(key) {
                continue;
            }
            if last.is_some() {
                one_entry = false;
            }
            last = Some(key);
            let name = j["jobname"].as_str().unwrap_or("job");
            self.b
                .begin_job(name)
                .map_err(|e| format!("{}: {e}", self.file))?;
            if let Some(o) = j["job options"].as_object() {
                for (k, v) in o.iter().filter(|(k, _)| k.as_str() != "name") {
                    self.take(true, k, v)?;
                }
            }
        }
        Ok((bw, one_entry))
    }
}

/// The completion-latency p50 and p99 of the one reported job, us, those fio gives.
fn latencies(job: &Value) -> Vec<(Figure, f64)> {
    // fio reports percentiles per direction; take the busier direction's.
    let dir = ["read", "write"]
        .into_iter()
        .max_by(|a, c| {
            let n = |d: &str| job[d]["total_ios"].as_f64().unwrap_or(0.0);
            n(a).total_cmp(&n(c))
        })
        .unwrap_or("read");
    let pct = &job[dir]["clat_ns"]["percentile"];
    [(Figure::P50, "50.000000"), (Figure::P99, "99.000000")]
        .into_iter()
        .filter_map(|(f, key)| {
            pct[key]
                .as_f64()
                .filter(|&ns| ns > 0.0)
                .map(|ns| (f, ns / 1e3))
        })
        .collect()
}

/// Reads one fio JSON output.
pub fn read_case(file: &str, text: &str, fit_runtime_ns: Option<u64>) -> Result<Case, String> {
    let doc: Value =
        serde_json::from_str(text).map_err(|e| format!("{file}: not fio JSON: {e}"))?;
    let jobs = doc["jobs"]
        .as_array()
        .filter(|j| !j.is_empty())
        .ok_or_else(|| format!("{file}: no \"jobs\" (run fio with --output-format=json)"))?;
    let mut r = Reader {
        file,
        b: ScenarioBuilder::new(Scenario::default()),
        platform: None,
        skipped: Vec::new(),
    };
    if let Some(g) = doc["global options"].as_object() {
        for (k, v) in g {
            r.take(false, k, v)?;
        }
    }
    let (bw, one_entry) = r.jobs(jobs)?;
    let Reader {
        b,
        platform,
        skipped,
        ..
    } = r;
    let mut scn = b.finish().map_err(|e| format!("{file}: {e}"))?;
    if let Some(n) = scn.mmc_test {
        return Err(format!(
            "{file}: an mmc_test run (mmc_test={n}), whose figures are per transfer size; a fit \
             replays fio jobs; accepted: fio's (or mmcsim's) --output-format=json of fio jobs"
        ));
    }
    if let Some(p) = platform.as_deref() {
        if mmcsim_engine::platform::by_name(p).is_none() {
            return Err(format!(
                "{file}: names platform '{p}', which is no preset; accepted: {} (or no platform, \
                 as fio's own JSON has)",
                mmcsim_engine::platform::names().join(", ")
            ));
        }
    }
    // A job without a runtime is cut at the fit's runtime (by default 250 ms); a job with its
    // own keeps it, unless a fit runtime was given (`--fit_runtime`): then no run is longer.
    for j in &mut scn.jobs {
        j.runtime_ns = Some(match (j.runtime_ns, fit_runtime_ns) {
            (None, cut) => cut.unwrap_or(DEFAULT_FIT_RUNTIME_NS),
            (Some(own), Some(cut)) => own.min(cut),
            (Some(own), None) => own,
        });
    }
    let mut measured = vec![(Figure::MiBs, bw / (1 << 20) as f64)];
    if one_entry {
        measured.extend(latencies(&jobs[0]));
    }
    if bw <= 0.0 {
        return Err(format!("{file}: no bandwidth reported (bw_bytes)"));
    }
    Ok(Case {
        file: file.to_string(),
        scn,
        platform,
        measured,
        skipped,
    })
}
