//! The least simulated time a run takes, from what holds its jobs back whatever the device does
//! (a replayed trace's timestamps over `loops` passes, `thinktime` pauses, `rate`, `rate_iops`,
//! `startdelay`): [`check`] refuses a run that would go past [`MAX_TIME_NS`] (one day, the bound
//! of every time option) where neither `runtime=` nor `power_cut=` ends it sooner. Simulated time
//! is a u64 of ns (584 years): bounded so, it cannot saturate into a nonsense figure.

use super::error::ScenarioError;
use super::job::JobSpec;
use super::limits::MAX_TIME_NS;
use super::spec::Scenario;
use super::units::format_time_ns;

/// What makes a job's least time long: the option to name, its value, and why.
struct Least {
    ns: u128,
    option: &'static str,
    value: String,
    why: String,
}

/// Checks that the run's least simulated time stays within one day.
pub(super) fn check(scn: &Scenario) -> Result<(), ScenarioError> {
    let cut = scn.power_cut_ns.map(u128::from);
    // Each job's least end: what holds it back, cut by its runtime (`runtime_exceeded`, after
    // its start delay and ramp) and by the power cut, which stops the run.
    let ends: Vec<(u128, Option<Least>, &JobSpec)> = scn
        .jobs
        .iter()
        .map(|j| {
            let l = least(scn, j);
            let runtime = j.runtime_ns.map(|rt| {
                u128::from(j.startdelay_ns) + u128::from(j.ramp_time_ns) + u128::from(rt)
            });
            let end = [l.as_ref().map(|l| l.ns), runtime, cut]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(0);
            (end, l, j)
        })
        .collect();
    let Some((longest, l, j)) = ends.iter().max_by_key(|e| e.0) else {
        return Ok(());
    };
    // `exitall`: the run ends when the first such job does.
    let exitall = ends.iter().filter(|e| e.2.exitall).map(|e| e.0).min();
    let bound = exitall.map_or(*longest, |x| x.min(*longest));
    let Some(l) = l.as_ref().filter(|_| bound > u128::from(MAX_TIME_NS)) else {
        return Ok(());
    };
    let lever = if j.runtime_ns.is_some() {
        "lower runtime or ramp_time"
    } else {
        "set runtime="
    };
    Err(ScenarioError::new(
        l.option,
        format!(
            "{}={}: job '{}' {}: at least {} s of simulated time; accepted: runs of at most {} s (one day) (lower {}, or {lever})",
            l.option,
            l.value,
            j.name,
            l.why,
            bound / 1_000_000_000,
            MAX_TIME_NS / 1_000_000_000,
            l.option,
        ),
    ))
}

/// I/Os one clone issues at most, and a replayed trace's last timestamp (ns).
fn ios_of(scn: &Scenario, j: &JobSpec) -> (u128, Option<u64>) {
    let loops = u128::from(j.loops.max(1));
    let (ios, last_t) = match j.read_iolog.as_ref().and_then(|n| scn.iolog(n)) {
        Some(log) => {
            let ops = log.ops_of(j.replay_events);
            let data = ops
                .iter()
                .filter(|o| o.kind != super::iolog::LogOpKind::Flush)
                .count() as u128;
            (data * loops, ops.last().map(|o| o.t_ns))
        }
        None => (u128::from(j.io_bytes() / j.max_bs().max(1)), None),
    };
    (j.number_ios.map_or(ios, |n| ios.min(u128::from(n))), last_t)
}

/// The longest of what holds job `j` back (None: nothing does), from its group's start.
fn least(scn: &Scenario, j: &JobSpec) -> Option<Least> {
    let (ios, last_t) = ios_of(scn, j);
    let mut all: Vec<Least> = Vec::new();
    let start = u128::from(j.startdelay_ns);
    // A pass over a trace issues its last op at its timestamp from the pass's start
    // (`Replay::pass_t0`), and the next pass starts then.
    if let Some(t) = last_t.filter(|_| !j.replay_no_stall && j.number_ios.is_none()) {
        let loops = j.loops.max(1);
        all.push(Least {
            ns: start + u128::from(t) * u128::from(loops),
            option: "loops",
            value: loops.to_string(),
            why: format!(
                "replays a trace whose last I/O is at {} s, {loops} times",
                t / 1_000_000_000
            ),
        });
    }
    // Between two pauses the job issues at most its iodepth and `thinktime_blocks` I/Os: a
    // pause starts at every thinktime_blocks-th completion (`handle_thinktime`).
    if j.thinktime_ns > 0 {
        let per = u128::from(j.outstanding()) + u128::from(j.thinktime_blocks.max(1));
        let pauses = ios.div_ceil(per).saturating_sub(1);
        all.push(Least {
            ns: start + pauses * u128::from(j.thinktime_ns),
            option: "thinktime",
            value: format_time_ns(j.thinktime_ns),
            why: format!("pauses at least {pauses} times between its {ios} I/Os"),
        });
    }
    // The k-th I/O is issued no sooner than the bytes (or I/Os) before it allow (`rate_ddir`).
    if j.rate > 0 {
        let bytes = ios.saturating_sub(1) * u128::from(j.min_bs());
        all.push(Least {
            ns: start + bytes * 1_000_000_000 / u128::from(j.rate),
            option: "rate",
            value: j.rate.to_string(),
            why: format!("issues {bytes} bytes at {} bytes/s", j.rate),
        });
    }
    if j.rate_iops > 0 {
        let n = ios.saturating_sub(1);
        all.push(Least {
            ns: start + n * 1_000_000_000 / u128::from(j.rate_iops),
            option: "rate_iops",
            value: j.rate_iops.to_string(),
            why: format!("issues {n} I/Os at {} I/Os per second", j.rate_iops),
        });
    }
    all.into_iter().max_by_key(|l| l.ns)
}
