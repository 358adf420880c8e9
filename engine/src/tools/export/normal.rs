//! fio's normal (human-readable) output (`stat.c` `show_thread_status_normal` and
//! `show_run_stats`), with "(simulated)" in place of the wall-clock date and an `mmcsim:` line for
//! the simulator's own figures.

use super::fio_json::{blocks, runtime_ms, Block, FioDiskUtil};
use super::num2str::{lat_unit, num2str, percentile_unit, scale_down, Unit};
use crate::metrics::histogram::{LatencyHistogram, FIO_PERCENTILES};
use crate::report::{DirStats, PowerCutReport, Report};
use crate::scenario::Scenario;
use crate::vocab::Stage;
use std::fmt::Write;

/// The whole normal output of a run.
pub fn render(scn: &Scenario, rep: &Report) -> String {
    let mut out = String::new();
    // Before the jobs, as fio's job header lines: what the run models that no kernel runs.
    for w in crate::scenario::what_ifs(scn) {
        let _ = writeln!(out, "what-if: {}", w.line());
    }
    for b in blocks(scn, rep) {
        job_block(&mut out, &b, scn.mmc_test.is_some());
    }
    sim_lines(&mut out, rep);
    kernel_line(&mut out, scn, rep);
    // A kernel trace's replay beside the trace itself (`tools/replay_check.rs`).
    if let Some(c) = crate::tools::replay_check::ReplayCheck::of(scn, rep) {
        for l in c.lines() {
            let _ = writeln!(out, "  {l}");
        }
    }
    // fio's show_run_stats: one "Run status group" per reporting group.
    for g in rep.groups() {
        let _ = writeln!(out, "\nRun status group {g} (all jobs):");
        let jobs = || rep.jobs.iter().filter(move |j| j.groupid == g);
        group_line(&mut out, "   READ", jobs().map(|j| &j.read));
        group_line(&mut out, "  WRITE", jobs().map(|j| &j.write));
        if jobs().any(|j| !j.trim.is_empty()) {
            group_line(&mut out, "   TRIM", jobs().map(|j| &j.trim));
        }
    }
    // fio's show_disk_util, after the run status groups.
    if let Some(d) = FioDiskUtil::of(rep, scn.mmc_test.is_some()) {
        let _ = writeln!(out, "\nDisk stats (read/write):\n{}", d.line());
    }
    out
}

fn job_block(out: &mut String, b: &Block, mmc_test: bool) {
    let err = if b.job.errors > 0 { 5 } else { 0 };
    let _ = writeln!(
        out,
        "{}: (groupid={}, jobs={}): err={:2}: pid=0: (simulated)",
        b.job.name, b.job.groupid, b.clones, err
    );
    for (name, d) in [
        ("read", &b.job.read),
        ("write", &b.job.write),
        ("trim", &b.job.trim),
    ] {
        if d.total_ios == 0 {
            continue;
        }
        dir_lines(out, name, d);
        if mmc_test {
            mmc_test_line(out, d);
        }
    }
    let mut all = b.job.read.clat.clone();
    all.merge(&b.job.write.clat);
    all.merge(&b.job.trim.clat);
    lat_distribution(out, &all);
    let counted = b.job.read.total_ios + b.job.write.total_ios + b.job.trim.total_ios;
    if let Some(ramp) = b.spec.filter(|_| counted == 0 && b.job.ramp_ios > 0) {
        // fio prints nothing for such a job; say why.
        let _ = writeln!(
            out,
            "  note: ramp_time={}: all {} I/Os completed within the ramp, which the statistics leave out (lower ramp_time below the job's run to see figures)",
            crate::scenario::units::format_time_ns(ramp.ramp_time_ns),
            b.job.ramp_ios
        );
    }
    if b.job.flushes > 0 {
        let _ = writeln!(
            out,
            "  fsync/fdatasync/sync_file_range:\n    sync: total={}",
            b.job.flushes
        );
    }
}

fn dir_lines(out: &mut String, name: &str, d: &DirStats) {
    let ms = runtime_ms(d.runtime_ns);
    let bw = d.bw_bytes() as u64;
    let _ = writeln!(
        out,
        "  {}: IOPS={}, BW={} ({})({}/{}msec)",
        name,
        num2str(d.iops() as u64, 4, false, Unit::None),
        num2str(bw, 4, true, Unit::BytePerSec),
        num2str(bw, 4, false, Unit::BytePerSec),
        num2str(d.io_bytes, 4, true, Unit::Byte),
        ms
    );
    lat_line(out, "clat", &d.clat);
    // fio's `show_ddir_status`: per priority, when two or more have samples.
    let prios = || d.prios_shown().iter().filter(|p| p.clat.count() > 0);
    for p in prios() {
        lat_line(out, &format!("clat prio {}", prio_name(p.ioprio)), &p.clat);
    }
    percentiles(out, "clat", &d.clat);
    for p in prios() {
        let share = 100.0 * p.clat.count() as f64 / d.clat.count().max(1) as f64;
        let name = format!("clat prio {} ({share:.2}% of IOs)", prio_name(p.ioprio));
        percentiles(out, &name, &p.clat);
    }
}

/// fio's `class/level/hint` of a priority (`ioprio_class`, `ioprio`, `ioprio_hint`).
fn prio_name(p: crate::vocab::IoPrio) -> String {
    format!("{}/{}/0", p.class.number(), p.level)
}

fn lat_line(out: &mut String, name: &str, h: &LatencyHistogram) {
    let (unit, div) = lat_unit(h.min(), h.max(), h.stddev());
    let min = (h.min() as f64 / div) as u64;
    let max = (h.max() as f64 / div) as u64;
    let _ = writeln!(
        out,
        "    {} ({}): min={}, max={}, avg={:5.02}, stdev={:5.02}",
        name,
        unit,
        num2str(min, 6, false, Unit::None),
        num2str(max, 6, false, Unit::None),
        h.mean() / div,
        h.stddev() / div
    );
}

/// fio's percentile table: four per line, `|` at the start of each.
fn percentiles(out: &mut String, name: &str, h: &LatencyHistogram) {
    let vals: Vec<u64> = FIO_PERCENTILES.iter().map(|&p| h.percentile(p)).collect();
    let minv = vals.iter().copied().min().unwrap_or(0);
    let maxv = vals.iter().copied().max().unwrap_or(0);
    let (unit, times) = percentile_unit(minv, maxv);
    let width = scale_down(maxv, times).to_string().len().max(5);
    let _ = write!(out, "    {} percentiles ({}):\n     |", name, unit);
    for (j, (p, v)) in FIO_PERCENTILES.iter().zip(&vals).enumerate() {
        if j != 0 && j % 4 == 0 {
            out.push_str("     |");
        }
        let last = j == vals.len() - 1;
        let _ = write!(
            out,
            " {:5.2}th=[{:>w$}]{}",
            p,
            scale_down(*v, times),
            if last { '\n' } else { ',' },
            w = width
        );
        if !last && j % 4 == 3 {
            out.push('\n');
        }
    }
}

/// fio's latency distribution (`stat.c` `show_latencies`): the share of I/Os per range, in
/// nanosecond, microsecond and millisecond lines (`io_u_lat_n/u/m`, marked by
/// `io_u_mark_latency`), five entries a line, empty ranges left out, a non-zero share never
/// below 0.01% (`stat_calc_lat`).
fn lat_distribution(out: &mut String, h: &LatencyHistogram) {
    const EDGES: [u64; 10] = [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000];
    let mut n = [0u64; 10];
    let mut u = [0u64; 10];
    let mut m = [0u64; 12];
    let bin = |v: u64| EDGES.iter().position(|&e| v < e);
    for (ns, count) in h.buckets() {
        if ns < 1000 {
            n[bin(ns).unwrap_or(9)] += count;
        } else if ns < 1_000_000 {
            u[bin(ns / 1000).unwrap_or(9)] += count;
        } else {
            let ms = ns / 1_000_000;
            let i = bin(ms).unwrap_or(if ms < 2000 { 10 } else { 11 });
            m[i] += count;
        }
    }
    let total = h.count().max(1) as f64;
    let ranges: Vec<String> = EDGES.iter().map(|e| format!("{e}=")).collect();
    let mut mranges = ranges.clone();
    mranges.push("2000=".into());
    mranges.push(">=2000=".into());
    for (counts, names, unit) in [
        (&n[..], &ranges, "nsec"),
        (&u[..], &ranges, "usec"),
        (&m[..], &mranges, "msec"),
    ] {
        let mut line = 0;
        let mut shown = false;
        for (c, name) in counts.iter().zip(names.iter()) {
            if *c == 0 {
                continue;
            }
            if line == 0 {
                if shown {
                    out.push('\n');
                }
                let _ = write!(out, "  lat ({unit})   : ");
            } else {
                out.push_str(", ");
            }
            shown = true;
            let pct = (*c as f64 / total * 100.0).max(0.01);
            let _ = write!(out, "{name}{pct:3.2}%");
            line = (line + 1) % 5;
        }
        if shown {
            out.push('\n');
        }
    }
}

/// The line the kernel's mmc_test prints for a performance case (`mmc_test_print_avg_rate`).
fn mmc_test_line(out: &mut String, d: &DirStats) {
    let count = d.total_ios.max(1);
    let sectors = d.io_bytes / count / 512;
    let half = if sectors % 2 == 1 { ".5" } else { "" };
    let rate = d.bw_bytes() as u64;
    let iops100 = (d.iops() * 100.0) as u64;
    let _ = writeln!(
        out,
        "  mmc0: Transfer of {} x {} sectors ({} x {}{} KiB) took {}.{:09} seconds ({} kB/s, {} KiB/s, {}.{:02} IOPS, sg_len 1)",
        d.total_ios,
        sectors,
        d.total_ios,
        sectors / 2,
        half,
        d.runtime_ns / 1_000_000_000,
        d.runtime_ns % 1_000_000_000,
        rate / 1000,
        rate / 1024,
        iops100 / 100,
        iops100 % 100
    );
}

/// The simulator's own figures, after the job blocks.
fn sim_lines(out: &mut String, rep: &Report) {
    let s = &rep.sim;
    let _ = writeln!(
        out,
        "  mmcsim: simulated={:.3}s events={} interrupts={} bus_cmds={} requeues={} avg_batch={:.2} bus_busy={:.1}%",
        s.simulated_ns as f64 / 1e9,
        s.events,
        s.interrupts,
        s.bus_commands,
        s.requeues,
        s.avg_batch(),
        s.bus_busy_pct()
    );
    // Per request, not per I/O: a split I/O is several requests, each through every stage.
    if s.requests > 0 && s.stage_ns.iter().any(|&t| t > 0) {
        let parts: Vec<String> = Stage::ALL
            .iter()
            .filter(|&&st| st != Stage::Done)
            .map(|&st| format!("{}={:.1}", st.name(), s.stage_per_request(st) / 1e3))
            .collect();
        let _ = writeln!(out, "  stages (usec/request): {}", parts.join(", "));
    }
    if s.split_ios > 0 {
        let _ = writeln!(
            out,
            "  block layer: split_ios={} into requests={} (bio_split_to_limits)",
            s.split_ios, s.split_requests
        );
    }
    if s.post_flushes > 0 {
        let _ = writeln!(
            out,
            "  block layer: post_flushes={} (REQ_FUA writes, no FUA on the queue: write, then a cache flush; blk_flush_policy)",
            s.post_flushes
        );
    }
    if s.io_budget_reached {
        let _ = writeln!(
            out,
            "  note: the run stopped issuing at the I/O budget of {} I/Os, before its runtime was over",
            crate::scenario::check::MAX_TOTAL_IOS
        );
    }
    if s.crc_errors > 0 {
        let errors: u64 = rep.jobs.iter().map(|j| j.errors).sum();
        let _ = writeln!(
            out,
            "  recovery: crc_errors={} retries={} card_resets={} io_errors={}",
            s.crc_errors, s.retries, s.resets, errors
        );
    }
    if let Some(p) = &rep.power_cut {
        power_cut_lines(out, p);
    }
}

/// The kernel the jobs ran, the block-layer rules it ran (its own, or the nearest the model
/// carries), and who issued the requests to the driver.
fn kernel_line(out: &mut String, scn: &Scenario, rep: &Report) {
    let Ok(p) = scn.effective_platform() else {
        return;
    };
    let (k, set) = (p.kernel, p.kernel.rule_set());
    let rules = if k == set {
        format!("{set}'s rules")
    } else {
        format!("{set}'s rules, the nearest the model carries")
    };
    let s = &rep.sim;
    let _ = writeln!(
        out,
        "  kernel: {k} (block layer: {rules}) issued_by_task={} issued_by_kblockd={}",
        s.issued_direct, s.issued_by_kblockd
    );
}

/// What a power cut cost, with the first lost ranges.
fn power_cut_lines(out: &mut String, p: &PowerCutReport) {
    let _ = writeln!(
        out,
        "  power cut at {:.3}ms: acked_writes={} lost_acked_writes={} lost_acked_bytes={} failed_in_flight={} reliable_writes_acked={}",
        p.at_ns as f64 / 1e6,
        p.acked_writes,
        p.lost_acked_writes,
        p.lost_acked_bytes,
        p.failed_in_flight,
        p.acked_reliable_writes
    );
    if p.lost_acked_writes == 0 {
        let _ = writeln!(out, "    no acknowledged write was lost");
        return;
    }
    let _ = writeln!(out, "    lost (acknowledged from the card's volatile cache, not yet programmed, no flush or FUA since):");
    for (off, len) in p.lost_ranges.iter().take(8) {
        let _ = writeln!(
            out,
            "      bytes {}..{} ({} KiB at LBA {})",
            off,
            off + len,
            len / 1024,
            off / 512
        );
    }
    let total = p.lost_ranges_total.max(p.lost_ranges.len() as u64);
    if total > 8 {
        let _ = writeln!(out, "      ... {} more", total - 8);
    }
}

/// fio's `Run status group` line of one direction over all clones.
fn group_line<'a>(out: &mut String, label: &str, dirs: impl Iterator<Item = &'a DirStats>) {
    let dirs: Vec<&DirStats> = dirs.filter(|d| d.total_ios > 0).collect();
    if dirs.is_empty() {
        return;
    }
    let io: u64 = dirs.iter().map(|d| d.io_bytes).sum();
    let max_run = dirs.iter().map(|d| d.runtime_ns).max().unwrap_or(0);
    let min_run = dirs.iter().map(|d| d.runtime_ns).min().unwrap_or(0);
    let agg = if max_run == 0 {
        0
    } else {
        (io as f64 * 1e9 / max_run as f64) as u64
    };
    let min_bw = dirs.iter().map(|d| d.bw_bytes() as u64).min().unwrap_or(0);
    let max_bw = dirs.iter().map(|d| d.bw_bytes() as u64).max().unwrap_or(0);
    let bw = |v: u64, pow2: bool| num2str(v, 4, pow2, Unit::BytePerSec);
    let _ = writeln!(
        out,
        "{}: bw={} ({}), {}-{} ({}-{}), io={} ({}), run={}-{}msec",
        label,
        bw(agg, true),
        bw(agg, false),
        bw(min_bw, true),
        bw(max_bw, true),
        bw(min_bw, false),
        bw(max_bw, false),
        num2str(io, 4, true, Unit::Byte),
        num2str(io, 4, false, Unit::Byte),
        runtime_ms(min_run),
        runtime_ms(max_run)
    );
}
