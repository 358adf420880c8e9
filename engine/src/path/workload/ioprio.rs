//! The priority each I/O of a job carries (`rq->ioprio`): the thread's, set by fio's
//! `ioprio_set(IOPRIO_WHO_PROCESS, 0, ...)` (`prioclass=`, `prio=`) and copied into each bio
//! by `bio_set_ioprio` -> `get_current_ioprio` (a libaio iocb without `IOCB_FLAG_IOPRIO` takes
//! it too: `aio_prep_rw`), or, for libaio and io_uring, the command priority fio's
//! `fio_cmdprio_set_ioprio` gives `cmdprio_percentage` of the I/Os (engines/cmdprio.c: a draw
//! of 0..=99 from the job's `prio_state` below the percentage).

use crate::rng::Rng;
use crate::scenario::JobSpec;
use crate::vocab::{IoPrio, Op};

/// The command priorities of a libaio / io_uring job (reads, writes) and their draws.
#[derive(Debug)]
pub(crate) struct CmdPrio {
    pct: [u8; 2],
    prio: [IoPrio; 2],
    rng: Rng,
}

/// A job's priorities.
#[derive(Debug, Default)]
pub(crate) struct JobIoPrio {
    thread: IoPrio,
    cmd: Option<Box<CmdPrio>>,
}

/// The streams of the command priorities' draws: past every job's own (one stream per clone),
/// so a run without `cmdprio_percentage` draws exactly what it drew before.
const CMDPRIO_STREAM: u64 = 1 << 40;

impl JobIoPrio {
    pub(crate) fn new(spec: &JobSpec, seed: u64, stream: u64) -> JobIoPrio {
        let p = &spec.prio;
        let cmd = (spec.ioengine.is_async() && p.cmd_pct != [0, 0]).then(|| {
            Box::new(CmdPrio {
                pct: p.cmd_pct,
                prio: [p.command(0), p.command(1)],
                rng: crate::rng::stream(seed, CMDPRIO_STREAM + stream),
            })
        });
        JobIoPrio {
            thread: p.thread(),
            cmd,
        }
    }

    /// The thread's priority (what a bio it writes without a command priority carries).
    pub(crate) fn thread(&self) -> IoPrio {
        self.thread
    }

    /// The priority of the next I/O of `op`.
    pub(crate) fn of(&mut self, op: Op) -> IoPrio {
        use rand::RngExt;
        let dir = match op {
            Op::Read => 0,
            Op::Write => 1,
            _ => return self.thread,
        };
        let Some(c) = self.cmd.as_deref_mut() else {
            return self.thread;
        };
        if c.pct[dir] > 0 && c.rng.random_range(0..100u8) < c.pct[dir] {
            c.prio[dir]
        } else {
            self.thread
        }
    }
}
