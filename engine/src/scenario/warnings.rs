//! Warnings: options that have no effect in a run's configuration, and what-ifs its kernel
//! cannot run (said, then run as that kernel would). The refusals are in `check.rs`.

use super::table::{Access, OPTIONS};
use super::{error::clip, host::IoSched, host::MmcPath, job::JobSpec, spec::Scenario};
use crate::board::{Platform, WhatIf};

/// The what-ifs this scenario runs ([`crate::board::Platform::what_ifs`] of its effective
/// platform): what no kernel runs, each with what mainline does instead. None under
/// `mmc_test=` (the case runs the legacy path, its own transfers) or for a platform that does
/// not resolve (`check` refuses it); a setting's only where it acts: the FUA switch where a
/// write carries REQ_FUA ([`sends_fua`]), a posted-write limit where the run writes, hsq's
/// dynamic depth (or a fixed 2 where the kernel's is dynamic) where it queues 4 KiB writes.
pub fn what_ifs(scn: &Scenario) -> Vec<WhatIf> {
    match scn.effective_platform() {
        Ok(p) if scn.mmc_test.is_none() => {
            let (fua, writes) = (sends_fua(scn), scn.jobs.iter().any(|j| writes(scn, j)));
            let small = scn.jobs.iter().any(|j| small_writes(scn, j));
            let mut w = p.what_ifs();
            w.retain(|w| match w.setting.as_str() {
                s if s.starts_with("fua=") => fua,
                s if s.starts_with("max_posted_writes=") => writes,
                // The dynamic depth differs from a fixed 2 only while 4 KiB writes are queued
                // (`mmc_hsq_modify_threshold`); another fixed window acts on any run.
                "hsq_depth=dynamic" | "hsq_depth=2" => small,
                _ => true,
            });
            w
        }
        _ => Vec::new(),
    }
}

/// Whether job `j` writes: its `rw=` has writes, or the trace it replays has.
fn writes(scn: &Scenario, j: &JobSpec) -> bool {
    use super::{iolog::LogOpKind, job::Rw};
    match j.read_iolog.as_ref() {
        Some(n) => scn.iolog(n).is_none_or(|l| {
            (l.ops.iter().chain(l.queued.iter())).any(|o| o.kind == LogOpKind::Write)
        }),
        None => !matches!(j.rw, Rw::Read | Rw::RandRead | Rw::Trim | Rw::RandTrim),
    }
}

/// Whether job `j` can queue 4 KiB writes, what `mmc_hsq_modify_threshold` counts: it writes
/// blocks of 4 KiB or less (smaller ones can merge into 4 KiB), syncs a file on F2FS, or its
/// trace has such writes.
fn small_writes(scn: &Scenario, j: &JobSpec) -> bool {
    use super::iolog::LogOpKind;
    let small = j.min_bs().min(
        j.bssplit_write
            .iter()
            .flatten()
            .map(|b| b.0)
            .min()
            .unwrap_or(u64::MAX),
    );
    match j.read_iolog.as_ref() {
        Some(n) => scn.iolog(n).is_none_or(|l| {
            (l.ops.iter().chain(l.queued.iter()))
                .any(|o| o.kind == LogOpKind::Write && o.len <= 4096)
        }),
        // An F2FS sync writes its 4 KiB node block too (`F2FS_BLKSIZE`).
        None => {
            let f2fs_sync = j.fs != super::job::SyncModel::Raw
                && (j.sync || j.flush_every() > 0 || j.flush_at_end());
            writes(scn, j) && small <= 4096 || f2fs_sync
        }
    }
}

/// Whether a write of this run can carry REQ_FUA, the only request the FUA switch acts on
/// (`blk_insert_flush`, `mmc_blk_rw_rq_prep`): an O_SYNC write on the raw device (`sync=1`,
/// `fs=raw`: `blkdev_write_iter`), an F2FS atomic commit's node write (`fs=f2fs-atomic`, on
/// `sync=1` writes and fsyncs: `__write_node_page`), or a replayed trace's FUA write. Under
/// `fs=f2fs` (Linux 6.1's `f2fs_do_sync_file`) nothing does.
pub fn sends_fua(scn: &Scenario) -> bool {
    use super::job::SyncModel;
    scn.jobs.iter().any(|j| {
        if let Some(n) = j.read_iolog.as_ref() {
            return scn
                .iolog(n)
                .is_none_or(|l| l.ops.iter().chain(l.queued.iter()).any(|o| o.fua));
        }
        let syncs = j.flush_every() > 0 || j.flush_at_end();
        match j.fs {
            SyncModel::Raw => writes(scn, j) && j.sync,
            SyncModel::F2fs => false,
            SyncModel::F2fsAtomic => writes(scn, j) && j.sync || syncs,
        }
    })
}

/// `mmc_path=cqe` asked for on a board whose kernel or card cannot queue: why, and what runs
/// instead (one of [`warnings`]).
fn cq_warning(scn: &Scenario, p: &Platform) -> Option<String> {
    if scn.switch::<MmcPath>("mmc_path") != Some(MmcPath::Cqe) {
        return None;
    }
    // Not format!: one call site less in the landing's wasm, at its size bar.
    let why = p.cq_refusal()?;
    Some(
        "mmc_path: cqe not run: ".to_string()
            + &why
            + "; running mmc_path=legacy, what that kernel runs",
    )
}

/// Options that have no effect in this configuration, one line each (the CLI prints them on
/// stderr as `mmcsim: warning: ...`, the page under the command line). An option is never
/// silently ignored: it either changes the run, or is refused by [`check`], or is named here.
pub fn warnings(scn: &Scenario) -> Vec<String> {
    let Ok(p) = scn.effective_platform() else {
        return Vec::new();
    };
    let cfg = p.switches;
    // A switch given, even at the preset's value.
    let given = |key: &str| scn.overrides.contains_key(key);
    let mut w = Vec::new();
    if let Some(case) = scn.mmc_test {
        for (key, set) in [
            ("mmc_path", given("mmc_path")),
            ("nonblocking", given("nonblocking")),
            ("hsq_depth", given("hsq_depth")),
            ("packed", scn.switch::<u32>("packed").is_some_and(|p| p > 0)),
        ] {
            if set {
                w.push(format!(
                    "{key}: no effect with mmc_test={case} (the case runs on the legacy path, {} by its number)",
                    if case % 2 == 0 { "non-blocking" } else { "blocking" }
                ));
            }
        }
        let d = JobSpec::default();
        for j in &scn.jobs {
            for row in OPTIONS
                .iter()
                .filter(|r| !matches!(r.name, "name" | "size"))
            {
                if let Access::Job { get, .. } = row.access {
                    if get(j) != get(&d) {
                        w.push(format!(
                            "{}: no effect with mmc_test={case} (the test sets its own transfers; only size= is used)",
                            row.name
                        ));
                    }
                }
            }
        }
        if scn.jobs.len() > 1 {
            w.push(format!(
                "mmc_test={case}: runs once; the {} job sections are not run",
                scn.jobs.len()
            ));
        }
        w.dedup();
        return w;
    }
    let path = cfg.mmc_path;
    // A kernel the model does not carry, given: whose block layer runs instead
    // (`kernel_rules.rs`). A preset's own (sprd 5.8, allwinner 5.10, u300 3.0) is said by the
    // CLI's `kernel:` line and the fio JSON's `kernel_rules`, not on every screen of its board.
    if given("kernel") {
        w.extend(p.kernel.rule_set_notice());
    }
    w.extend(cq_warning(scn, &p));
    if given("fua") && !sends_fua(scn) {
        w.push(
            "fua: no effect: no write of this run carries REQ_FUA (only sync=1 on the raw device, fs=f2fs-atomic's commits and a trace's FUA writes do)"
                .to_string(),
        );
    }
    if given("hsq_depth") && path != MmcPath::Hsq {
        w.push(format!(
            "hsq_depth: no effect on mmc_path={} (only the host software queue has that window)",
            path.name()
        ));
    }
    if given("nonblocking") && path != MmcPath::Legacy {
        w.push(format!(
            "nonblocking: no effect on mmc_path={} (only the legacy path prepares the next request)",
            path.name()
        ));
    }
    let c = &p.card;
    if given("card_cache_hold_kib") && c.cache_hold_bytes > c.cache_bytes / 2 {
        w.push(format!(
            "card_cache_hold_kib: {} KiB is more than half the {} KiB cache; the card holds {} KiB (at most half, so a write always finds room)",
            c.cache_hold_bytes / 1024,
            c.cache_bytes / 1024,
            c.cache_bytes / 2 / 1024
        ));
    }
    if (given("card_cache_kib") || given("card_cache_hold_kib")) && !cfg.cache {
        w.push(
            "card_cache_kib: no effect with cache=0 (the card's write cache is off; cache=1 turns it on)"
                .to_string(),
        );
    }
    for (name, sched) in scn.queue.set_tunables() {
        if cfg.iosched != sched {
            w.push(format!(
                "{name}: no effect with ioscheduler={} (a tunable of {})",
                cfg.iosched.name(),
                sched.name()
            ));
        }
    }
    w.extend(prio_warnings(scn, cfg.iosched));
    for (s, j) in scn.jobs.iter().enumerate() {
        w.extend(replay_warning(scn, j));
        if let Some(log) = j.read_iolog.as_deref().and_then(|n| scn.iolog(n)) {
            for d in log.board_differences(p.kernel) {
                if !w.contains(&d) {
                    w.push(d);
                }
            }
        }
        w.extend(fs_warning(scn, j));
        if let Some(name) = j.wait_for.as_ref() {
            if !scn.jobs[..s].iter().any(|e| e.name == *name) {
                let whom = if *name == j.name {
                    "itself"
                } else {
                    "no earlier job"
                };
                w.push(format!(
                    "wait_for: no effect in job '{}': '{}' is {whom} (a job waits only for an earlier job, as in fio)",
                    clip(&j.name),
                    clip(name)
                ));
            }
        }
        if j.iodepth_batch != 1 && !j.ioengine.is_async() {
            w.push(format!(
                "iodepth_batch_submit: no effect with ioengine={} in job '{}' (one I/O per system call)",
                j.ioengine.name(),
                clip(&j.name)
            ));
        }
        if j.iodepth > 1 && !j.ioengine.is_async() {
            w.push(format!(
                "iodepth: no effect with ioengine={} in job '{}' (one I/O at a time; use libaio or io_uring)",
                j.ioengine.name(),
                clip(&j.name)
            ));
        }
    }
    w.dedup();
    w
}

/// The priority options where they change nothing: under a scheduler that reads no priority
/// (none, kyber: one line naming it), a level under mq-deadline (it reads the class:
/// `ioprio_class_to_prio`), command priorities under bfq (it reads the process's:
/// `bfq_check_ioprio_change`), cgroup weights under any but bfq, and the options fio itself
/// would not apply (a weight without `cgroup=`, command priorities of a synchronous engine).
fn prio_warnings(scn: &Scenario, sched: IoSched) -> Vec<String> {
    let mut w = Vec::new();
    let any = |f: &dyn Fn(&JobSpec) -> bool| scn.jobs.iter().any(f);
    let given: Vec<&str> = [
        ("prioclass", any(&|j| j.prio.class.is_some())),
        ("prio", any(&|j| j.prio.level.is_some())),
        ("cmdprio_percentage", any(&|j| j.prio.cmd_pct != [0, 0])),
        ("cgroup_weight", any(&|j| j.prio.group_weight().is_some())),
    ]
    .into_iter()
    .filter_map(|(n, set)| set.then_some(n))
    .collect();
    let name = sched.name();
    match sched {
        IoSched::None | IoSched::Kyber if !given.is_empty() => w.push(format!(
            "{}: no effect with ioscheduler={name} ({name} reads no I/O priority or cgroup weight; mq-deadline and bfq serve by priority)",
            given.join(", ")
        )),
        IoSched::MqDeadline => {
            for (opt, why) in [
                ("prio", "mq-deadline reads the class, not the level: ioprio_class_to_prio"),
                ("cgroup_weight", "cgroup weights are bfq's"),
            ] {
                if given.contains(&opt) {
                    w.push(format!("{opt}: no effect with ioscheduler={name} ({why})"));
                }
            }
        }
        IoSched::Bfq if given.contains(&"cmdprio_percentage") => w.push(format!(
            "cmdprio_percentage: no effect with ioscheduler={name} (bfq serves the process's priority, not the command's: bfq_check_ioprio_change)"
        )),
        _ => {}
    }
    for j in &scn.jobs {
        let p = &j.prio;
        if p.cgroup_weight.is_some() && p.cgroup.is_none() {
            w.push(format!(
                "cgroup_weight: no effect in job '{}' without cgroup= (fio writes the weight of the group cgroup= names)",
                clip(&j.name)
            ));
        }
        let cmd_set = p.cmd_class != [None, None] || p.cmd_level != [None, None];
        if cmd_set && p.cmd_pct == [0, 0] {
            w.push(format!(
                "cmdprio_class, cmdprio: no effect in job '{}' without cmdprio_percentage= (the share of I/Os that take them)",
                clip(&j.name)
            ));
        }
        if p.cmd_pct != [0, 0] && !j.ioengine.is_async() {
            w.push(format!(
                "cmdprio_percentage: no effect with ioengine={} in job '{}' (an option of libaio and io_uring)",
                j.ioengine.name(),
                clip(&j.name)
            ));
        }
    }
    w
}

/// `replay_events=queue` where it picks nothing: without `read_iolog`, or on a fio iolog (one
/// list of I/Os; queue events are a kernel trace's).
fn replay_warning(scn: &Scenario, j: &JobSpec) -> Option<String> {
    use super::iolog::{IoLogFormat, ReplayEvents};
    if j.replay_events != ReplayEvents::Queue {
        return None;
    }
    let why = match j.read_iolog.as_ref() {
        None => "it has no read_iolog".to_string(),
        Some(n) => match scn.iolog(n).map(|l| l.format) {
            Some(f @ (IoLogFormat::FioV2 | IoLogFormat::FioV3)) => {
                format!(
                    "'{}' is a {} (one list of I/Os, replayed as it is)",
                    clip(n),
                    f.name()
                )
            }
            _ => return None,
        },
    };
    Some(format!(
        "replay_events=queue: no effect in job '{}': {why}; accepted: a kernel trace (blkparse, blktrace, ftrace, Perfetto) in read_iolog",
        clip(&j.name)
    ))
}

/// `fs=f2fs` or `fs=f2fs-atomic` where nothing goes through `f2fs_do_sync_file`, the only path
/// the model's F2FS changes (`path/workload/f2fs.rs`): a job that neither writes with `sync=1`
/// nor fsyncs (`fsync=`, `fdatasync=` count writes; `end_fsync`, `fsync_on_close` run once).
/// Its plain writes and reads go to the device as on `fs=raw`. A replayed trace is left out:
/// its flushes take the F2FS path.
fn fs_warning(scn: &Scenario, j: &JobSpec) -> Option<String> {
    use super::job::SyncModel;
    if j.fs == SyncModel::Raw || j.read_iolog.is_some() || j.flush_at_end() {
        return None;
    }
    let why = if !writes(scn, j) {
        "it does not write"
    } else if !j.sync && j.flush_every() == 0 {
        "its writes are neither O_SYNC nor fsynced"
    } else {
        return None;
    };
    Some(format!(
        "fs={}: no effect in job '{}': {why}, and F2FS's sync path (f2fs_do_sync_file) never runs; accepted with effect: writes with sync=1, fsync=N or fdatasync=N, or end_fsync=1, fsync_on_close=1",
        j.fs.name(),
        clip(&j.name)
    ))
}
