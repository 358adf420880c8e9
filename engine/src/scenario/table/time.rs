//! Time rows (fio's `FIO_OPT_G_RUNTIME`): runtime, ramp, start delay and the steady-state
//! criterion.

use super::macros::*;
use super::values::*;
use super::{OptionRow, Widget};
use crate::scenario::job::JobSpec;
use crate::scenario::limits::{MAX_RUNTIME_NS, MAX_TIME_NS};
use crate::scenario::units::format_time_ns;

pub(super) const RUNTIME: OptionRow = job!("runtime", &["timeout"], "time (default unit s) up to 24h, 0 = none",
    "stop the job after this much simulated time (time-based runs stop at the I/O budget)",
    example "20ms",
    set |j, k, v| {
        let ns = time(k, v1(v), MAX_RUNTIME_NS, "up to 24h of simulated time")?;
        j.runtime_ns = (ns > 0).then_some(ns)
    },
    get |j| j.runtime_ns.map(format_time_ns),
    reset |j| j.runtime_ns = JobSpec::default().runtime_ns,
    form form(GA, "runtime", "Stop each job after this simulated time (0 = none)", Widget::Text { placeholder: "none" }));

pub(super) const TIME_BASED: OptionRow = job!("time_based", &[], "flag or 0|1", "keep looping over size until runtime is over",
    example "1",
    set |j, k, v| j.time_based = flag(k, v)?,
    get |j| Some(b(j.time_based)),
    reset |j| j.time_based = JobSpec::default().time_based,
    form form(GA, "time_based", "Loop over size until runtime is over", Widget::Choices(OFF_ON)));

pub(super) const RAMP_TIME: OptionRow = job!("ramp_time", &[], "time (default unit s)",
    "run this long before recording statistics (excluded from the report)",
    example "10ms",
    set |j, k, v| j.ramp_time_ns = time(k, v1(v), MAX_TIME_NS, "a time up to 24h")?,
    get |j| (j.ramp_time_ns > 0).then(|| format_time_ns(j.ramp_time_ns)),
    reset |j| j.ramp_time_ns = 0,
    form None);

pub(super) const STARTDELAY: OptionRow = job!("startdelay", &[], "time (default unit s)", "start the job this long after its group",
    example "1ms",
    set |j, k, v| j.startdelay_ns = time(k, v1(v), MAX_TIME_NS, "a time up to 24h")?,
    get |j| (j.startdelay_ns > 0).then(|| format_time_ns(j.startdelay_ns)),
    reset |j| j.startdelay_ns = 0,
    form None);

pub(super) const STEADYSTATE: OptionRow = job!("steadystate", &["ss"], "iops, iops_slope, bw, bw_slope, lat or lat_slope, ':' and a limit (N or N%)",
    "with ss_dur: stop the job once the metric over the window is steady (default iops_slope:0.01%)",
    example "iops:10%",
    set |j, k, v| j.steadystate = Some({
        let t = v1(v).trim();
        crate::scenario::steadystate::parse(t).map_err(|acc| bad(k, t, "not a steady-state criterion", acc))?;
        t.to_string()
    }),
    get |j| j.steadystate.clone(),
    reset |j| j.steadystate = None,
    form None);

pub(super) const STEADYSTATE_DURATION: OptionRow = job!("steadystate_duration", &["ss_dur"], "time (default unit s), 0 = off",
    "steady-state window: the job stops once this much of samples is steady",
    example "30s",
    set |j, k, v| j.ss_dur_ns = time(k, v1(v), MAX_RUNTIME_NS, "up to 24h of simulated time")?,
    get |j| (j.ss_dur_ns > 0).then(|| format_time_ns(j.ss_dur_ns)),
    reset |j| j.ss_dur_ns = 0,
    form None);

pub(super) const STEADYSTATE_RAMP_TIME: OptionRow = job!("steadystate_ramp_time", &["ss_ramp"], "time (default unit s)",
    "time before steady-state samples are taken",
    example "10s",
    set |j, k, v| j.ss_ramp_ns = time(k, v1(v), MAX_RUNTIME_NS, "up to 24h of simulated time")?,
    get |j| (j.ss_ramp_ns > 0).then(|| format_time_ns(j.ss_ramp_ns)),
    reset |j| j.ss_ramp_ns = 0,
    form None);

pub(super) const STEADYSTATE_CHECK_INTERVAL: OptionRow = job!("steadystate_check_interval", &["ss_interval"], "time (default unit s), at least 1ms",
    "period of the steady-state samples (default 1s)",
    example "5s",
    set |j, k, v| {
        // Refused below 1 ms, not raised to it (0 took 1 ms silently): a sample per
        // simulated millisecond is the finest the model keeps.
        let ns = time(k, v1(v), MAX_RUNTIME_NS, "a time from 1ms up to 24h of simulated time")?;
        if ns < 1_000_000 {
            return Err(bad(k, v1(v), "shorter than 1ms", "a time from 1ms up to 24h of simulated time"));
        }
        j.ss_interval_ns = ns
    },
    get |j| (j.ss_interval_ns != 1_000_000_000).then(|| format_time_ns(j.ss_interval_ns)),
    reset |j| j.ss_interval_ns = 1_000_000_000,
    form None);
