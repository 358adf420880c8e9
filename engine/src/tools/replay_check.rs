//! A kernel trace's replay checked against the trace itself: the model's issue-to-complete per
//! request (`block_rq_issue` to `blk_mq_end_request`, [`crate::SimStats::d2c`]) and fio's
//! completion latency beside the trace's own `D` .. `C` times ([`crate::scenario::iolog::TraceMeta`]),
//! and whether the trace's issue times, not the board, set the throughput: a timed replay
//! (`replay_no_stall=0`) that left the device idle (no request in flight: diskstats' `io_ticks`,
//! fio's `util`) for at least [`PACED_IDLE_PCT`] of the run.

use crate::metrics::histogram::LatencyHistogram;
use crate::scenario::iolog::TraceD2c;
use crate::{Report, Scenario};
use serde::{Deserialize, Serialize};

/// Idle share (percent of the run) from which a timed replay's throughput is called the
/// trace's pace: a device idle a tenth of the time or more was waiting for the trace's next
/// issue time, not working.
pub const PACED_IDLE_PCT: f64 = 10.0;

/// A replay set beside its trace (the JSON's `replay_check`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayCheck {
    /// The trace (`read_iolog=`).
    pub trace: String,
    /// The trace's own issue-to-complete: requests paired, p50, p99, mean (ns); left out when
    /// the trace has no completions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace_d2c: Option<TraceD2c>,
    /// The model's, over the same kind of requests (data requests, flushes aside).
    pub model_d2c: TraceD2c,
    /// fio's completion latency of every replayed I/O in the model (clat p50, p99; ns).
    pub clat_p50_ns: u64,
    pub clat_p99_ns: u64,
    /// The trace's span, first event to last completion, and the model's run (ns).
    pub trace_span_ns: u64,
    pub simulated_ns: u64,
    /// Percent of the run with no request in flight (100 - fio's `util`).
    pub device_idle_pct: f64,
    /// The replay kept the trace's issue times and the device was idle at least
    /// [`PACED_IDLE_PCT`]: the throughput printed is the trace's pace.
    pub paced: bool,
}

fn summary(h: &LatencyHistogram) -> TraceD2c {
    TraceD2c {
        requests: h.count(),
        p50_ns: h.percentile(50.0),
        p99_ns: h.percentile(99.0),
        mean_ns: h.mean().round() as u64,
    }
}

impl ReplayCheck {
    /// The check of a run whose jobs replay a kernel trace (the first such job's trace); None
    /// for any other run.
    pub fn of(scn: &Scenario, rep: &Report) -> Option<ReplayCheck> {
        let (job, log) = scn.jobs.iter().find_map(|j| {
            let log = scn.iolog(j.read_iolog.as_deref()?)?;
            log.format_has_events().then_some((j, log))
        })?;
        let mut clat = LatencyHistogram::new();
        for j in &rep.jobs {
            clat.merge(&j.read.clat);
            clat.merge(&j.write.clat);
            clat.merge(&j.trim.clat);
        }
        let s = &rep.sim;
        let idle = if s.simulated_ns == 0 {
            0.0
        } else {
            100.0 - (s.io_ticks_ns as f64 * 100.0 / s.simulated_ns as f64).min(100.0)
        };
        Some(ReplayCheck {
            trace: log.name.clone(),
            trace_d2c: log.meta.d2c,
            model_d2c: summary(&s.d2c),
            clat_p50_ns: clat.percentile(50.0),
            clat_p99_ns: clat.percentile(99.0),
            trace_span_ns: log.meta.span_ns,
            simulated_ns: s.simulated_ns,
            device_idle_pct: (idle * 10.0).round() / 10.0,
            paced: !job.replay_no_stall && idle >= PACED_IDLE_PCT,
        })
    }

    /// The normal output's lines: the latencies side by side (when the trace has completions),
    /// then whose pace the throughput is (when it is the trace's).
    pub fn lines(&self) -> Vec<String> {
        let us = |ns: u64| {
            let us = ns as f64 / 1e3;
            if us >= 100.0 {
                format!("{us:.0}us")
            } else {
                format!("{us:.1}us")
            }
        };
        let side = |d: &TraceD2c| {
            format!(
                "p50={} p99={} ({} requests)",
                us(d.p50_ns),
                us(d.p99_ns),
                d.requests
            )
        };
        let mut v = Vec::new();
        if let Some(t) = &self.trace_d2c {
            v.push(format!(
                "replay: issue-to-complete: trace {}, model {}; model clat p50={} p99={}",
                side(t),
                side(&self.model_d2c),
                us(self.clat_p50_ns),
                us(self.clat_p99_ns)
            ));
        }
        if self.paced {
            v.push(format!(
                "replay: throughput here is the trace's pace: the device was idle {:.1} % of the time",
                self.device_idle_pct
            ));
        }
        v
    }
}
