//! I/O priorities as the kernel carries them (include/uapi/linux/ioprio.h, block/ioprio.c):
//! a class (`IOPRIO_CLASS_RT`, `_BE`, `_IDLE`, or `_NONE` when the task never set one) and a
//! level 0..=7 (0 the highest), set per thread by `ioprio_set(2)` (fio's `prioclass=`, `prio=`)
//! or per command (`aio_reqprio` with `IOCB_FLAG_IOPRIO`, io_uring's `sqe->ioprio`: fio's
//! `cmdprio_*`), and copied into each bio and request (`bio_set_ioprio`, `rq->ioprio`).

use serde::{Deserialize, Serialize};

/// `IOPRIO_CLASS_*`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum IoClass {
    /// `IOPRIO_CLASS_NONE`: the task never set one. mq-deadline files it as best effort
    /// (`ioprio_class_to_prio`); bfq takes best effort at the level of the task's nice value,
    /// 4 for nice 0 (`bfq_set_next_ioprio_data` -> `task_nice_ioprio`).
    #[default]
    None,
    Rt,
    Be,
    Idle,
}

impl IoClass {
    /// By `ionice -c` number (fio's `prioclass=`): 0 none, 1 realtime, 2 best effort, 3 idle.
    pub const ALL: [IoClass; 4] = [IoClass::None, IoClass::Rt, IoClass::Be, IoClass::Idle];

    pub fn number(self) -> u8 {
        self as u8
    }

    pub fn from_number(n: u8) -> IoClass {
        Self::ALL[usize::from(n.min(3))]
    }

    /// The kernel's name (`IOPRIO_CLASS_*`, as `block_rq_*` events print it from 6.11).
    pub fn name(self) -> &'static str {
        match self {
            IoClass::None => "none",
            IoClass::Rt => "rt",
            IoClass::Be => "be",
            IoClass::Idle => "idle",
        }
    }

    /// The class a scheduler serves it in: `NONE` is best effort.
    pub fn effective(self) -> IoClass {
        match self {
            IoClass::None => IoClass::Be,
            c => c,
        }
    }
}

/// `IOPRIO_NORM`: the level of a task without one (nice 0: `(0 + 20) / 5`).
pub const IOPRIO_NORM: u8 = 4;
/// `IOPRIO_NR_LEVELS`.
pub const IOPRIO_NR_LEVELS: u8 = 8;

/// A request's I/O priority (`rq->ioprio`): class and level.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct IoPrio {
    pub class: IoClass,
    pub level: u8,
}

impl IoPrio {
    /// `IOPRIO_PRIO_VALUE(class, level)`.
    pub const fn new(class: IoClass, level: u8) -> IoPrio {
        IoPrio { class, level }
    }

    /// The level a scheduler reads: a task without a class has `IOPRIO_NORM`.
    pub fn effective_level(self) -> u8 {
        match self.class {
            IoClass::None => IOPRIO_NORM,
            _ => self.level.min(IOPRIO_NR_LEVELS - 1),
        }
    }
}
