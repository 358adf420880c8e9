//! I/O priority and cgroup rows: fio's `FIO_OPT_G_CRED` (`prio`, `prioclass`), the libaio and
//! io_uring command priorities (engines/cmdprio.h: `cmdprio_percentage`, `cmdprio_class`,
//! `cmdprio`) and `FIO_OPT_G_CGROUP` (`cgroup`, `cgroup_weight`). Which scheduler reads them,
//! and how, is in `path/elevator/` (mq-deadline's per-priority queues, bfq's classes and
//! weights); the "no effect" notice for the others in `scenario/warnings.rs`.

use super::macros::{form, GA};
use super::values::*;
use super::{OptionRow, Widget};
use crate::scenario::error::ScenarioError;
use crate::scenario::prio::{CGROUP_WEIGHT_MAX, CGROUP_WEIGHT_MIN};
use crate::vocab::IoClass;

/// The Lab's choices for `prioclass`: 0 is fio's "not set" (the thread keeps best effort).
const PRIOCLASS_CHOICES: &[&str] = &["0", "1", "2", "3"];

/// fio's `int[,int]`: one value for reads and writes, or a value for each, within `lo..=hi`.
fn pair(key: &str, v: &str, lo: u32, hi: u32) -> Result<[u8; 2], ScenarioError> {
    let (r, w) = v.split_once(',').unwrap_or((v, v));
    Ok([
        uint32(key, r.trim(), lo, hi)? as u8,
        uint32(key, w.trim(), lo, hi)? as u8,
    ])
}

/// A pair back as fio reads it: one value when both are the same.
fn pair_text(p: [u8; 2]) -> String {
    if p[0] == p[1] {
        p[0].to_string()
    } else {
        format!("{},{}", p[0], p[1])
    }
}

fn class_text(c: [Option<IoClass>; 2]) -> Option<String> {
    let n = |c: Option<IoClass>| c.map(IoClass::number);
    Some(pair_text([n(c[0])?, n(c[1])?]))
}

fn level_text(l: [Option<u8>; 2]) -> Option<String> {
    Some(pair_text([l[0]?, l[1]?]))
}

pub(super) const PRIO: OptionRow = job!("prio", &[], "0..=7",
    "I/O priority level of the job's thread, 0 the highest (ioprio_set; best effort unless prioclass= says): mq-deadline ignores the level, bfq weighs by it ((8 - level) x 10); none and kyber ignore it",
    example "0",
    set |j, k, v| j.prio.level = Some(uint32(k, v1(v), 0, 7)? as u8),
    get |j| j.prio.level.map(|l| l.to_string()),
    reset |j| j.prio.level = None,
    form form(GA, "prio", "Priority level 0..7, 0 the highest (bfq weighs by it)", Widget::Text { placeholder: "4" }));

pub(super) const PRIOCLASS: OptionRow = job!("prioclass", &[], "0..=3",
    "I/O priority class of the job's thread: 1 realtime, 2 best effort, 3 idle (0: best effort); mq-deadline and bfq serve realtime before best effort before idle, none and kyber ignore it",
    example "1",
    set |j, k, v| j.prio.class = Some(IoClass::from_number(uint32(k, v1(v), 0, 3)? as u8)),
    get |j| j.prio.class.map(|c| c.number().to_string()),
    reset |j| j.prio.class = None,
    form form(GA, "prioclass", "1 realtime, 2 best effort, 3 idle (mq-deadline, bfq)", Widget::Choices(PRIOCLASS_CHOICES)));

pub(super) const CMDPRIO_PERCENTAGE: OptionRow = job!("cmdprio_percentage", &[], "0..=100[,0..=100]",
    "libaio, io_uring: the share of reads[,writes] issued with the command priority (cmdprio_class=, cmdprio=), the rest with the thread's; mq-deadline reads a command's priority, bfq only the thread's",
    example "50",
    set |j, k, v| j.prio.cmd_pct = pair(k, v1(v), 0, 100)?,
    get |j| (j.prio.cmd_pct != [0, 0]).then(|| pair_text(j.prio.cmd_pct)),
    reset |j| j.prio.cmd_pct = [0, 0],
    form None);

pub(super) const CMDPRIO_CLASS: OptionRow = job!("cmdprio_class", &[], "0..=3[,0..=3]",
    "libaio, io_uring: the class of the I/Os cmdprio_percentage= picks (default 1, realtime)",
    example "3",
    set |j, k, v| {
        let p = pair(k, v1(v), 0, 3)?;
        j.prio.cmd_class = p.map(|c| Some(IoClass::from_number(c)));
    },
    get |j| class_text(j.prio.cmd_class),
    reset |j| j.prio.cmd_class = [None, None],
    form None);

pub(super) const CMDPRIO: OptionRow = job!("cmdprio", &[], "0..=7[,0..=7]",
    "libaio, io_uring: the level of the I/Os cmdprio_percentage= picks (default 0)",
    example "7",
    set |j, k, v| j.prio.cmd_level = pair(k, v1(v), 0, 7)?.map(Some),
    get |j| level_text(j.prio.cmd_level),
    reset |j| j.prio.cmd_level = [None, None],
    form None);

pub(super) const CGROUP: OptionRow = job!("cgroup", &[], "a group name",
    "the job's control group (fio makes it and moves the job in); jobs naming the same group share it",
    example "fg",
    set |j, k, v| j.prio.cgroup = Some(job_name(k, v1(v))?),
    get |j| opt_text(&j.prio.cgroup),
    reset |j| j.prio.cgroup = None,
    form None);

pub(super) const CGROUP_WEIGHT: OptionRow = job!("cgroup_weight", &[], "100..=1000",
    "the weight of the job's cgroup (fio writes it only with cgroup=): bfq shares the device among groups by it (io.bfq.weight, default 100); the other schedulers ignore it",
    example "500",
    set |j, k, v| j.prio.cgroup_weight = Some(uint32(k, v1(v), CGROUP_WEIGHT_MIN, CGROUP_WEIGHT_MAX)?),
    get |j| j.prio.cgroup_weight.map(|w| w.to_string()),
    reset |j| j.prio.cgroup_weight = None,
    form None);
