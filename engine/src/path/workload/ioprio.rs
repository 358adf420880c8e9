//! The priority each I/O of a job carries (`rq->ioprio`): the thread's, set by fio's
//! `ioprio_set(IOPRIO_WHO_PROCESS, 0, ...)` (`prioclass=`, `prio=`) and copied into each bio
//! by `bio_set_ioprio` -> `get_current_ioprio` (a libaio iocb without `IOCB_FLAG_IOPRIO` takes
//! it too: `aio_prep_rw`), or, for libaio and io_uring, the command priority fio's
//! `fio_cmdprio_set_ioprio` gives `cmdprio_percentage` of the I/Os (engines/cmdprio.c: a draw
//! of 0..=99 from the job's `prio_state` below the percentage).

use crate::report::{DirStats, PrioLat};
use crate::rng::Rng;
use crate::scenario::JobSpec;
use crate::vocab::{IoPrio, Op};

/// The command priorities of a libaio / io_uring job (reads, writes) and their draws.
#[derive(Debug)]
pub(crate) struct CmdPrio {
    pct: [u8; 2],
    prio: [IoPrio; 2],
    rng: Rng,
    /// Completion latency per priority, reads and writes (fio's `clat_prio`, which a job
    /// keeps when it uses command priorities: the thread's first, then the command's).
    clat: [Vec<PrioLat>; 2],
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
                clat: [0, 1].map(|d| {
                    let mut order = vec![p.thread(), p.command(d)];
                    order.dedup();
                    order
                        .into_iter()
                        .map(|ioprio| PrioLat {
                            ioprio,
                            clat: Default::default(),
                        })
                        .collect()
                }),
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

    /// A completed I/O's latency under its priority, if the job keeps them per priority.
    pub(crate) fn record(&mut self, op: Op, ioprio: IoPrio, clat_ns: u64) {
        let (Some(c), Some(dir)) = (self.cmd.as_deref_mut(), dir(op)) else {
            return;
        };
        let list = &mut c.clat[dir];
        let i = match list.iter().position(|p| p.ioprio == ioprio) {
            Some(i) => i,
            None => {
                list.push(PrioLat {
                    ioprio,
                    clat: Default::default(),
                });
                list.len() - 1
            }
        };
        list[i].clat.record(clat_ns);
    }

    /// `d` with the job's per-priority latencies of direction `dir` (0 reads, 1 writes).
    pub(crate) fn with_prios(&self, dir: usize, d: &DirStats) -> DirStats {
        let mut d = d.clone();
        if let Some(c) = self.cmd.as_deref() {
            d.prios = c.clat[dir].clone();
        }
        d
    }

    /// The priority of the next I/O of `op`.
    pub(crate) fn of(&mut self, op: Op) -> IoPrio {
        use rand::RngExt;
        let Some(dir) = dir(op) else {
            return self.thread;
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

/// The direction index of a read or write (command priorities cover only those).
fn dir(op: Op) -> Option<usize> {
    match op {
        Op::Read => Some(0),
        Op::Write => Some(1),
        _ => None,
    }
}
