//! How sure an answer is (`sensitivity=1`, the CLI's `--sensitivity`): the scenario runs again
//! at the low and the high end of each uncertain board parameter's range
//! ([`crate::board::evidence`]) that the run uses, one parameter at a time with the others at
//! the preset's values, and each headline figure (per reported job: IOPS, bandwidth, mean and
//! p99 completion latency) is given the range those runs span and the parameters that move it
//! most. For an A/B pair (two points), each figure's ratio B/A is checked at every end: the
//! conclusion holds when the ratio stays on one side of 1.
//!
//! Which parameters a run uses (the rule [`unused`] applies to the unvaried run's scenario and
//! report, and a parameter is varied when any point uses it):
//! - one the scenario sets itself (an option, a platform file's value, the A/B's own key) is
//!   given, not uncertain;
//! - the CQE's times (`cqhci_*`) only on `mmc_path=cqe` (its halt only when it halted), the
//!   legacy path's only on `legacy`, ADMA3's chain time only with `packed` > 0, mmc_test's only
//!   for an mmc_test case;
//! - kblockd's run (`queue_rerun_us`) only when kblockd issued a request in the run, the
//!   scheduler's CPU time only under a scheduler, the flush time only when a flush was sent;
//! - the reliable write's commit and tPROG only when the run sends O_SYNC writes with FUA on
//!   (or on an SD card, whose posted writes are programmed a unit at a time);
//! - the card's read times only when the run reads, its write times only when it writes;
//! - every other parameter (host software times) on every run.
//!
//! An end equal to the preset's value is not run again. The runs' planning, their scenarios
//! and the summary are here; the CLI runs them in parallel and the page in its workers.

mod summary;

pub use summary::{render, summarize, AbFigure, FigureRange, JobRanges, Mover, Sensitivity};

use crate::board::evidence::{self, Basis};
use crate::board::params::{Param, PARAMS};
use crate::report::Report;
use crate::scenario::{options::apply_text, Scenario};
use crate::vocab::{IoSched, MmcPath};
use serde::Serialize;

/// One parameter a sensitivity run varies.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Swing {
    pub param: &'static str,
    pub basis: Basis,
    /// The preset's value, with its unit.
    pub value: String,
    /// The range, with its unit.
    pub range: String,
    pub why: String,
    #[serde(skip)]
    pub ends: (u64, u64),
    #[serde(skip)]
    pub base: u64,
}

/// Parameters left at their value, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NotVaried {
    pub reason: String,
    pub params: Vec<&'static str>,
}

/// Which end of a range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum End {
    Low,
    High,
}

/// One extra run: point `point` with swing `swing` at `end`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    pub point: usize,
    pub swing: usize,
    pub end: End,
}

/// What a sensitivity run will do.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub swings: Vec<Swing>,
    pub not_varied: Vec<NotVaried>,
    pub runs: Vec<Run>,
}

/// Why `param` is not used by a point's run, or None when it is.
pub fn unused(param: &Param, scn: &Scenario, rep: &Report) -> Option<&'static str> {
    if scn.overrides.contains_key(param.name) {
        return Some("set by the scenario");
    }
    let p = scn.effective_platform().ok()?;
    let sw = p.switches;
    let n = param.name;
    let reads = rep.sim.ios[0] > 0;
    let writes = rep.sim.ios[1] > 0;
    if n.starts_with("mmc_test_") {
        return scn.mmc_test.is_none().then_some("no mmc_test case runs");
    }
    if n.starts_with("cqhci_") && sw.mmc_path != MmcPath::Cqe {
        return Some("the path is not the CQE");
    }
    if n.starts_with("legacy_") && sw.mmc_path != MmcPath::Legacy {
        return Some("the path is not the legacy one");
    }
    match n {
        "adma3_chain_us" if sw.packed == 0 => Some("no ADMA3 chains (packed=0)"),
        "cqhci_halt_us" if rep.sim.cqe_halts == 0 => Some("the CQE never halted"),
        "queue_rerun_us" if rep.sim.issued_by_kblockd == 0 => Some("kblockd issued no request"),
        "sched_cpu_pct" if sw.iosched == IoSched::None => Some("no I/O scheduler"),
        "flush_us" if rep.sim.flushes == 0 => Some("no flush was sent"),
        "reliable_write_us" | "nand_program_us" => {
            let sync = scn.jobs.iter().any(|j| j.sync);
            let fua = sw.fua && p.card.reliable_write && sync && writes;
            (!(fua || p.card.sd && writes)).then_some("no reliable write")
        }
        "nand_read_us" | "card_read_hit_pct" | "card_seq_read_us" | "read_retry_pct" if !reads => {
            Some("the run does not read")
        }
        "card_write_busy_us"
        | "card_write_mb_s"
        | "nand_program_mb_s"
        | "gc_pause_us"
        | "gc_every_kib"
        | "program_sigma"
        | "random_write_commit_us"
            if !writes =>
        {
            Some("the run does not write")
        }
        _ => None,
    }
}

/// The plan for `points` (one scenario, or the two of an A/B pair) given their unvaried runs'
/// reports: every uncertain parameter with a range that some point uses, both ends, each point.
pub fn plan(points: &[Scenario], reports: &[Report]) -> Result<Plan, String> {
    let first = points.first().ok_or("sensitivity: nothing to run")?;
    let platform = first.effective_platform().map_err(|e| e.to_string())?;
    let mut swings = Vec::new();
    let mut not_varied: Vec<NotVaried> = Vec::new();
    let mut skip = |reason: String, name: &'static str| match not_varied
        .iter_mut()
        .find(|n| n.reason == reason)
    {
        Some(n) => n.params.push(name),
        None => not_varied.push(NotVaried {
            reason,
            params: vec![name],
        }),
    };
    for param in PARAMS {
        let ev = evidence::of(&platform, param);
        if !ev.basis.uncertain() {
            continue;
        }
        let why_unused: Vec<Option<&str>> = points
            .iter()
            .zip(reports)
            .map(|(s, r)| unused(param, s, r))
            .collect();
        if why_unused.contains(&Some("set by the scenario")) {
            skip("set by the scenario".to_string(), param.name);
            continue;
        }
        if let [Some(reason), ..] = why_unused[..] {
            if why_unused.iter().all(|w| w.is_some()) {
                skip(format!("never used by the run: {reason}"), param.name);
                continue;
            }
        }
        let Some(ends) = ev.range else {
            skip("no range assessed".to_string(), param.name);
            continue;
        };
        swings.push(Swing {
            param: param.name,
            basis: ev.basis,
            value: ev.value,
            range: ev.range_text.unwrap_or_default(),
            why: ev.why,
            ends,
            base: (param.get)(&platform),
        });
    }
    let mut runs = Vec::new();
    for point in 0..points.len() {
        for (i, s) in swings.iter().enumerate() {
            for (end, v) in [(End::Low, s.ends.0), (End::High, s.ends.1)] {
                if v != s.base {
                    runs.push(Run {
                        point,
                        swing: i,
                        end,
                    });
                }
            }
        }
    }
    Ok(Plan {
        swings,
        not_varied,
        runs,
    })
}

impl Plan {
    /// The scenario of one extra run: its point with the swing's parameter at that end, checked
    /// by the one option parser; it runs without `sensitivity` (no run asks for more runs).
    pub fn scenario(&self, points: &[Scenario], run: &Run) -> Result<Scenario, String> {
        let s = &self.swings[run.swing];
        let param = crate::board::params::find(s.param).ok_or("sensitivity: unknown parameter")?;
        let v = match run.end {
            End::Low => s.ends.0,
            End::High => s.ends.1,
        };
        let mut scn = apply_text(&points[run.point], s.param, &param.unit.format(v))
            .map_err(|e| format!("sensitivity: {e}"))?;
        scn.sensitivity = false;
        crate::scenario::check(&scn)
            .map_err(|e| format!("sensitivity: {}={}: {e}", s.param, param.unit.format(v)))?;
        Ok(scn)
    }
}

/// Runs the scenario of a link's query (the page's workers: each run is sent as link text).
pub fn run_query(query: &str) -> Result<Report, String> {
    let d = crate::scenario::url::decode_query(query);
    if let Some(e) = d.errors.first() {
        return Err(format!("sensitivity run: {e}"));
    }
    run_report(&d.a)
}

/// Runs one scenario to its end (the CLI's threads and the page's workers call this).
pub fn run_report(scn: &Scenario) -> Result<Report, String> {
    let mut sim = crate::Simulator::new(scn).map_err(|e| e.to_string())?;
    sim.run_to_end();
    Ok(sim.report())
}
