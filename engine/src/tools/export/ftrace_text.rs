//! The simulated run as ftrace text, as the kernel prints its block and mmc tracepoints into
//! `/sys/kernel/tracing/trace` (`trace_raw_output_block_rq`, `trace_raw_output_block_bio`,
//! `trace_raw_output_block_rq_completion`, `trace_raw_output_mmc_request_start`): one event a
//! line, `TASK-PID [CPU] FLAGS SECS.USECS: EVENT: FIELDS`, which `read_iolog=` reads back
//! (`--trace_format=ftrace`). Errors as `kernel_events.rs` places them: `[-5]` ends a
//! `block_rq_complete` that failed with `-EIO`. A run cut at `max_events` ends with a [`CUT`] line, which
//! `read_iolog=` refuses.

use super::kernel_events::{KEvent, KernelEvents, Open, Sink, Tp, MMCBLK_DEV};
use crate::path::bus::Segment;
use crate::{Scenario, ScenarioError, Simulator};
use std::fmt::Write;

/// The last line of a cut export: `read_iolog=` refuses to replay part of a run unsaid.
pub const CUT: &str = "# mmcsim: cut at";

struct Text<'w, W: Write> {
    w: &'w mut W,
    n: usize,
    max: usize,
    err: std::fmt::Result,
}

/// The task that fires `e`: the job's thread, or kblockd's kworker for a request it issued
/// ([`KEvent::issuer`]), or the interrupt (`<idle>-0`) for completions.
fn task(sim: &Simulator, e: &KEvent) -> (String, u32) {
    match e.tp {
        Tp::MmcDone | Tp::RqComplete | Tp::IoDone => ("<idle>".to_string(), 0),
        _ => e.issuer(&comm(sim, e.job)),
    }
}

/// The I/O priority the block_rq_* events print from Linux 6.11 (aa6ff4eb7c10), as
/// `class,hint,level`: a thread without one runs at best effort level 4 (`get_current_ioprio`
/// for nice 0: `be,0,4`), fio's `prioclass=`/`prio=`/`cmdprio_*` set others; nothing before.
fn ioprio(sim: &Simulator, e: &KEvent) -> String {
    if !sim.rules.rq_ioprio_text {
        return String::new();
    }
    let p = e.ioprio;
    format!(" {},0,{}", p.class.effective().name(), p.effective_level())
}

/// The job's thread name as the kernel keeps it (TASK_COMM_LEN: 15 bytes).
fn comm(sim: &Simulator, job: u32) -> String {
    let name = sim.jobs.get(job as usize).map_or("mmc_test", |j| &j.name);
    name.chars()
        .filter(|c| !c.is_whitespace())
        .take(15)
        .collect()
}

/// `mmc_request_done`'s (cmd_err, data_err): no response is the command's error, a CRC error
/// the data's.
pub(super) fn mmc_errors(e: &KEvent) -> (i32, i32) {
    match e.error {
        super::kernel_events::ETIMEDOUT => (e.error, 0),
        err => (0, err),
    }
}

impl<W: Write> Sink for Text<'_, W> {
    fn event(&mut self, sim: &Simulator, e: &KEvent) {
        if self.n >= self.max || self.err.is_err() {
            return;
        }
        self.n += 1;
        let (who, pid) = task(sim, e);
        let (maj, min) = MMCBLK_DEV;
        let (rwbs, sector, n) = (e.rwbs(), e.sector, e.nr_sector);
        let fields = match e.tp {
            Tp::BioQueue | Tp::BioBackmerge => {
                format!("{maj},{min} {rwbs} {sector} + {n} [{}]", comm(sim, e.job))
            }
            // `[COMM]`: the task running (`current->comm`): kblockd's kworker for its issues.
            Tp::RqInsert | Tp::RqIssue | Tp::IoStart | Tp::IoDone => format!(
                "{maj},{min} {rwbs} {} () {sector} + {n}{} [{}]",
                e.bytes(),
                ioprio(sim, e),
                e.issuer(&comm(sim, e.job)).0
            ),
            Tp::RqRequeue | Tp::RqComplete => {
                format!(
                    "{maj},{min} {rwbs} () {sector} + {n}{} [{}]",
                    ioprio(sim, e),
                    e.error
                )
            }
            Tp::MmcStart => format!(
                "mmc0: start struct mmc_request[{}]: cmd_opcode={} blocks={n} block_size=512 blk_addr={sector}",
                e.req,
                e.opcode()
            ),
            Tp::MmcDone => {
                let (cmd_err, data_err) = mmc_errors(e);
                format!(
                    "mmc0: end struct mmc_request[{}]: cmd_opcode={} cmd_err={cmd_err} bytes_xfered={} data_err={data_err}",
                    e.req,
                    e.opcode(),
                    if e.error == 0 { e.bytes() } else { 0 }
                )
            }
        };
        let task = format!("{who}-{pid}");
        self.err = writeln!(
            self.w,
            "{task:>24} [{:03}] ..... {:>5}.{:06}: {}: {fields}",
            e.cpu,
            e.t_ns / 1_000_000_000,
            e.t_ns % 1_000_000_000 / 1000,
            e.tp.name()
        );
    }

    fn request(&mut self, _: &Simulator, _: u64, _: &Open) {}

    fn segment(&mut self, _: &Simulator, _: &Segment) {}
}

/// Runs `scn` and writes its block and mmc tracepoints to `w` as ftrace text, at most
/// `max_events` events (then the run is cut and a last `#` line says so).
pub fn write_ftrace<W: Write>(
    scn: &Scenario,
    max_events: usize,
    w: &mut W,
) -> Result<super::TraceStats, ScenarioError> {
    let mut k = KernelEvents::new(Simulator::new(scn)?, 1 << 16);
    let mut out = Text {
        w,
        n: 0,
        max: max_events,
        err: Ok(()),
    };
    out.err = write!(
        out.w,
        "# tracer: nop\n# mmcsim-engine {}: {}\n#\n#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n#              | |         |   |||||     |         |\n",
        env!("CARGO_PKG_VERSION"),
        crate::scenario::url::encode_query(scn, None)
    );
    let mut truncated = false;
    while k.step(&mut out) {
        if out.n >= out.max || k.work > super::trace_event::MAX_WORK {
            truncated = true;
            break;
        }
    }
    if !truncated {
        k.finish(&mut out);
    }
    if truncated || out.n >= out.max {
        truncated = true;
        out.err = out.err.and(writeln!(
            out.w,
            "{CUT} {} events: the run goes on past here",
            out.n
        ));
    }
    out.err
        .map_err(|_| ScenarioError::general("trace export: the writer failed"))?;
    Ok(super::TraceStats {
        events: out.n,
        truncated,
        simulated_ns: k.sim.now(),
        requests: k.requests,
    })
}
