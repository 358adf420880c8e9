//! A job's I/O priorities and cgroup, in fio's options: the thread's priority (`prioclass=`,
//! `prio=`: fio's backend.c calls `ioprio_set(IOPRIO_WHO_PROCESS, 0, ...)` when either is
//! given), the per-command priority of libaio and io_uring (`cmdprio_percentage=`,
//! `cmdprio_class=`, `cmdprio=`: engines/cmdprio.c gives that share of each direction's I/Os
//! the command priority, the rest the thread's), and the job's cgroup and its weight
//! (`cgroup=`, `cgroup_weight=`: fio's cgroup.c makes the group, writes the weight and moves
//! the job in; a weight without a group name is never written).

use crate::vocab::{IoClass, IoPrio};
use serde::{Deserialize, Serialize};

/// fio's `cgroup_weight` bounds (options.c: `minval` 100, `maxval` 1000).
pub const CGROUP_WEIGHT_MIN: u32 = 100;
pub const CGROUP_WEIGHT_MAX: u32 = 1000;

/// What a job section says about its priorities (all unset: the kernel's default).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct JobPrio {
    /// `prioclass=` (0..=3), if given.
    pub class: Option<IoClass>,
    /// `prio=` (0..=7), if given.
    pub level: Option<u8>,
    /// `cmdprio_percentage=`: the share of reads, of writes, that carry the command priority.
    pub cmd_pct: [u8; 2],
    /// `cmdprio_class=`, `cmdprio=` for reads and writes, if given.
    pub cmd_class: [Option<IoClass>; 2],
    pub cmd_level: [Option<u8>; 2],
    /// `cgroup=`: the job's control group, by name.
    pub cgroup: Option<String>,
    /// `cgroup_weight=` (100..=1000), if given.
    pub cgroup_weight: Option<u32>,
}

impl JobPrio {
    /// The thread's priority: fio's `ioprio_value(prioclass, prio)` (class 0 is best effort)
    /// when either option is given, else the kernel's default (class none).
    pub fn thread(&self) -> IoPrio {
        if self.class.is_none() && self.level.is_none() {
            return IoPrio::default();
        }
        let class = match self.class.unwrap_or(IoClass::None) {
            IoClass::None => IoClass::Be,
            c => c,
        };
        IoPrio::new(class, self.level.unwrap_or(0))
    }

    /// The command priority of direction `dir` (0 reads, 1 writes): `cmdprio_class` (the
    /// real-time class unless given: `fio_cmdprio_init`) at level `cmdprio` (0 unless given).
    pub fn command(&self, dir: usize) -> IoPrio {
        let class = match self.cmd_class[dir].unwrap_or(IoClass::Rt) {
            IoClass::None => IoClass::Be,
            c => c,
        };
        IoPrio::new(class, self.cmd_level[dir].unwrap_or(0))
    }

    /// Whether any I/O of the job carries a priority other than the kernel's default.
    pub fn sets_priority(&self) -> bool {
        self.class.is_some() || self.level.is_some() || self.cmd_pct != [0, 0]
    }

    /// The weight of the job's cgroup, when fio writes one (a weight and a group name).
    pub fn group_weight(&self) -> Option<u32> {
        self.cgroup.as_ref().and(self.cgroup_weight)
    }
}
