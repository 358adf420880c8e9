//! What the current run shows: where the time went, what a switch changed, how two runs
//! differ, each figure taken from the report.

use crate::figures::Figures;
use crate::report::Report;
use crate::vocab::{HostConfig, HsqDepth, MmcPath, Stage};

/// The per-request costs a run so far shows, from its simulated events: what the summary and
/// the comparison cite, so their claims can be checked against the same numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Costs {
    /// Requests completed.
    pub ios: u64,
    /// Time per request on the bus and in the card (command, access, data, busy), us.
    pub bus_us: f64,
    /// Host software per request (queue_rq, interrupt + completion, completion), us.
    pub software_us: f64,
    /// Share of the simulated time the bus carried something, percent.
    pub busy_pct: f64,
    /// Requests per interrupt ([`crate::report::SimStats::avg_batch`], the one definition).
    pub per_irq: f64,
    /// Bus idle time per request, us (simulated time the bus was idle / requests).
    pub idle_us: f64,
    /// Requests `mmc_mq_queue_rq` refused.
    pub requeues: u64,
    /// MiB/s as fio reports it (the read and write directions' bandwidth over their runtime):
    /// the one definition the results, the A/B table and the tours' texts give.
    pub mib_s: f64,
}

/// [`Costs`] of a report; None before the first request completes.
pub fn costs(rep: &Report) -> Option<Costs> {
    let f = Figures::of(rep);
    if f.ios == 0 || rep.sim.simulated_ns == 0 {
        return None;
    }
    Some(Costs {
        ios: f.ios,
        bus_us: f.bus_us,
        software_us: f.software_us,
        busy_pct: f.bus_busy_pct,
        per_irq: f.per_irq,
        idle_us: f.idle_us,
        requeues: f.requeues,
        mib_s: f.fio_mib_s,
    })
}

/// "longer than", "shorter than" or "about as long as": `a` against `b`, within 5 %.
pub fn relation(a: f64, b: f64) -> &'static str {
    if a > b * 1.05 {
        "longer than"
    } else if a < b * 0.95 {
        "shorter than"
    } else {
        "about as long as"
    }
}

/// "more", "fewer" or "about as many": `a` against `b`, within 1 % (and 2 of them).
pub fn more_fewer(a: u64, b: u64) -> &'static str {
    let (x, y) = (a as f64, b as f64);
    if (x - y).abs() <= (0.01 * x.max(y)).max(2.0) {
        "about as many"
    } else if x > y {
        "more"
    } else {
        "fewer"
    }
}

/// Below this gain, in percent, a text may call a possible gain "little" (and says so).
pub const LITTLE_GAIN_PCT: f64 = 10.0;

/// The most a run whose bus is busy `busy_pct` % of the time could gain if the bus never
/// waited, each request keeping its bus time: busy time / simulated time rises to 1, so
/// throughput by 100 / busy - 1.
pub fn headroom_pct(busy_pct: f64) -> f64 {
    (100.0 / busy_pct.max(1e-9) - 1.0) * 100.0
}

/// "20%", or "6% (little: under 10%)": the bound of [`headroom_pct`], called little only
/// under [`LITTLE_GAIN_PCT`], the threshold the words state.
pub fn headroom_words(busy_pct: f64) -> String {
    let h = headroom_pct(busy_pct);
    if h < LITTLE_GAIN_PCT {
        format!("{h:.0}% (little: under {LITTLE_GAIN_PCT:.0}%)")
    } else {
        format!("{h:.0}%")
    }
}

/// Why the bus idled between transfers, from the run's counters (never assumed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IdleCause {
    /// The workload's pace held its I/O back ([`crate::SimStats::pace_waits`] > 0: a replayed
    /// trace's issue times, `rate`, `thinktime`) and no request was in flight (diskstats'
    /// `io_ticks`) `idle_pct` % of the run, at least
    /// [`crate::tools::replay_check::PACED_IDLE_PCT`].
    Pacing { idle_pct: f64, waits: u64 },
    /// `mmc_mq_queue_rq` refused requests (BLK_STS_RESOURCE): each waited for kblockd's run
    /// to be dispatched again.
    Refusals { requeues: u64 },
    /// Neither: requests were there and none was refused; the bus waited for each transfer's
    /// interrupt and completion.
    Neither,
}

/// [`IdleCause`] of a report.
pub fn idle_cause(rep: &Report) -> IdleCause {
    let s = &rep.sim;
    let idle_pct = if s.simulated_ns == 0 {
        0.0
    } else {
        100.0 - (s.io_ticks_ns as f64 * 100.0 / s.simulated_ns as f64).min(100.0)
    };
    if s.pace_waits > 0 && idle_pct >= crate::tools::replay_check::PACED_IDLE_PCT {
        IdleCause::Pacing {
            idle_pct,
            waits: s.pace_waits,
        }
    } else if s.requeues > 0 {
        IdleCause::Refusals {
            requeues: s.requeues,
        }
    } else {
        IdleCause::Neither
    }
}

/// The sentence on a bus idle between transfers, naming what the counters say happened
/// ([`idle_cause`]): the pace, the refusals, or neither.
pub fn idle_words(rep: &Report, window: &str, idle_us: f64) -> String {
    match idle_cause(rep) {
        IdleCause::Pacing { idle_pct, waits } => format!(
            "One request per interrupt, a window of {window} requests: the bus idles between transfers, \
             {idle_us:.1} us per request on average, because the workload's pace left it nothing to do: \
             no request was in flight {idle_pct:.0}% of the time, and the jobs waited {waits} times for \
             their next I/O's time (a trace's issue times, rate or thinktime). Depth or batching cannot \
             fill that; only a faster pace can."
        ),
        IdleCause::Refusals { requeues } => format!(
            "One request per interrupt, a window of {window} requests: after each transfer the bus \
             waits for the interrupt, the completion and, for the {requeues} refused requests, kblockd's \
             run that dispatches them again, {idle_us:.1} us idle per request on average, so the bus \
             idles between transfers. Batching (packed) or a deeper window can hide that wait."
        ),
        IdleCause::Neither => format!(
            "One request per interrupt, a window of {window} requests: after each transfer the bus \
             waits for the interrupt and the completion (no request was refused), {idle_us:.1} us idle \
             per request on average, so the bus idles between transfers. Batching (packed) or a deeper \
             window can hide that wait."
        ),
    }
}

/// Sentences describing what the finished (or running) run shows, from its simulated figures.
/// Every comparison word is computed from the numbers the sentence cites ([`relation`]).
pub fn effect_summary(rep: &Report, cfg: &HostConfig) -> Vec<String> {
    let mut out = Vec::new();
    let Some(c) = costs(rep) else {
        return out;
    };
    let s = &rep.sim;
    let (bus, software, busy_pct, per_irq) = (c.bus_us, c.software_us, c.busy_pct, c.per_irq);
    out.push(format!(
        "Each request spends {bus:.1} us on the bus and card, and {software:.1} us in host software \
         (queue_rq, interrupt and completion): host software is {} the bus time. The bus is busy \
         {busy_pct:.0}% of the time.",
        relation(software, bus)
    ));
    if cfg.packed > 0 {
        let paid = if per_irq >= 1.05 {
            "the interrupt, hsq's finalize and the pump are paid once per chain instead of once per request (each request still gets its own softirq completion)"
        } else {
            "few chains form, so nearly every request still pays its own interrupt"
        };
        out.push(format!(
            "Packed: {per_irq:.1} requests per interrupt on average (chains of up to {}): {paid}.",
            cfg.packed
        ));
    } else if cfg.mmc_path == MmcPath::Hsq {
        let window = match cfg.hsq_depth {
            HsqDepth::Fixed(d) => format!("{}", d + 1),
            HsqDepth::Dynamic => "3 (6 while 4 KiB writes queue up)".to_string(),
        };
        if busy_pct < 80.0 {
            out.push(idle_words(rep, &window, c.idle_us));
        } else {
            out.push(format!(
                "A window of {window} requests: the bus is busy {busy_pct:.0}% of the time, so the bus and \
                 card are the bottleneck here: if more depth or batching filled every idle moment, with each \
                 request's bus time unchanged, throughput would rise by at most {}.",
                headroom_words(busy_pct)
            ));
        }
    }
    if s.requeues > 0 {
        out.push(format!(
            "mmc_mq_queue_rq refused requests {} times (BLK_STS_RESOURCE): the window was full.",
            s.requeues
        ));
    }
    let m = rep.merged();
    let busy = s.stage_per_request(Stage::CardBusy) / 1000.0;
    if busy > 100.0 {
        let why = if !cfg.cache {
            "the card has no write cache in use (cache=0, or an SD card), so it programs each write before it answers"
        } else if cfg.fua
            && rep.jobs.iter().any(|j| j.write.total_ios > 0)
            && s.stage(Stage::CardBusy) > 0
            && m.flushes == 0
        {
            "reliable writes (REQ_FUA with the host advertising FUA) wait for NAND programming"
        } else if s.post_flushes > 0 {
            "each O_SYNC write is followed by the cache flush the block layer sends (no FUA on the queue), which waits for NAND programming"
        } else {
            "cache flushes (or reliable writes) wait for NAND programming"
        };
        out.push(format!("Card busy averages {busy:.0} us per request: {why}, and nothing else can use the bus meanwhile."));
    }
    if let Some(p) = &rep.power_cut {
        if p.lost_acked_writes > 0 {
            out.push(format!(
                "Power cut: {} writes the jobs had been told were done ({} KiB) were only in the card's \
                 volatile cache and are lost. They asked for no durability: an O_SYNC write (REQ_FUA, \
                 with FUA on or off) or a completed flush would have kept them.",
                p.lost_acked_writes,
                p.lost_acked_bytes / 1024
            ));
        } else {
            out.push("Power cut: no acknowledged write was lost.".to_string());
        }
    }
    out
}

/// Sentences comparing B with A (same workload and seed), each with the numbers it rests on;
/// the comparison words come from the numbers ([`relation`], [`more_fewer`]). Empty until
/// both sides have completed a request.
pub fn compare_summary(a: &Report, b: &Report) -> Vec<String> {
    let (Some(ca), Some(cb)) = (costs(a), costs(b)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let ratio = cb.mib_s / ca.mib_s.max(1e-9);
    let speed = if ratio >= 1.02 {
        format!("B moves {ratio:.2}x the data per second of A")
    } else if ratio <= 0.98 {
        format!(
            "B moves {:.0}% less data per second than A",
            (1.0 - ratio) * 100.0
        )
    } else {
        "B and A move about the same data per second".to_string()
    };
    out.push(format!(
        "{speed} ({:.2} vs {:.2} MiB/s).",
        cb.mib_s, ca.mib_s
    ));
    out.push(format!(
        "Requests per interrupt: {:.2} in B, {:.2} in A; bus busy {:.0}% in B, {:.0}% in A; bus idle per \
         request {:.1} us in B, {:.1} us in A.",
        cb.per_irq, ca.per_irq, cb.busy_pct, ca.busy_pct, cb.idle_us, ca.idle_us
    ));
    if ca.requeues + cb.requeues > 0 {
        out.push(format!(
            "B had {} refusals {} A: {} vs {}.",
            more_fewer(cb.requeues, ca.requeues),
            if more_fewer(cb.requeues, ca.requeues) == "about as many" {
                "as"
            } else {
                "than"
            },
            cb.requeues,
            ca.requeues
        ));
    }
    out
}

/// Microseconds, for the "why was it slow" sentences.
pub(super) fn us(ns: u64) -> String {
    let us = ns as f64 / 1e3;
    if us >= 10_000.0 {
        format!("{:.1} ms", us / 1e3)
    } else {
        format!("{us:.0} µs")
    }
}
