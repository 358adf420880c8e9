//! ftrace text of the block tracepoints (`include/trace/events/block.h`, printed by the
//! kernel's `trace_raw_output_*` into `/sys/kernel/tracing/trace`, and by `trace-cmd report`):
//! one event a line, `TASK-PID [CPU] [FLAGS] SECS.USECS: EVENT: FIELDS`, with `#` headers.
//! `block_rq_issue` (`MAJ,MIN RWBS BYTES (CMD) SECTOR + NSECTORS [COMM]`), `block_bio_queue`
//! (`MAJ,MIN RWBS SECTOR + NSECTORS [COMM]`) and `block_rq_requeue` (`MAJ,MIN RWBS (CMD)
//! SECTOR + NSECTORS [ERRORS]`) are replayed. For the replay's check and batching
//! ([`super::check`]) `block_rq_complete` (as the requeue), `block_plug` and `block_unplug`
//! (`[COMM]`, of the task before the `[CPU]`) are read, as is a header naming the kernel. The
//! other block events only name the device; every other event (`mmc_*`, `sched_*`, markers)
//! is read past.

use super::block::{dev_of, sectors_of, Action, Event, Events};
use super::{err, is_header, secs_ns, IoLog};
use crate::scenario::error::ScenarioError;

/// An ftrace event line: (time in ns, event name, its fields).
pub(super) fn split(line: &str) -> Option<(u64, &str, &str)> {
    let open = line.find(" [")?;
    let rest = &line[open + 2..];
    let close = rest.find(']')?;
    let cpu = rest[..close].trim();
    if cpu.is_empty() || !cpu.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut rest = rest[close + 1..].trim_start();
    // The irq/preempt flags (`.....`, `d.h1.`), when the trace has them, then the time.
    let mut t_ns = None;
    for _ in 0..2 {
        let (tok, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        rest = after.trim_start();
        if let Some(t) = tok.strip_suffix(':').and_then(secs_ns) {
            t_ns = Some(t);
            break;
        }
    }
    let t_ns = t_ns?;
    let (event, fields) = rest.split_once(':')?;
    if event.is_empty()
        || !event
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return None;
    }
    Some((t_ns, event, fields.trim()))
}

/// mmcsim's ftrace export's last line when it was cut (`export::ftrace_text::CUT`).
const MMCSIM_CUT: &str = "# mmcsim: cut at";

pub(super) fn parse_ftrace(log: &mut IoLog, text: &str) -> Result<(), ScenarioError> {
    let name = log.name.clone();
    let mut events = Events::new(log);
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.starts_with(MMCSIM_CUT) {
            return Err(err(
                &name,
                n,
                format!("'{line}': mmcsim's export was cut at --trace_max_events, so the rest of the run is missing; accepted: a whole trace (export again with a larger --trace_max_events)"),
            ));
        }
        if line.is_empty() || is_header(line) {
            if let Some(k) = super::check::kernel_of_header(line) {
                events.kernel(k);
            }
            continue;
        }
        if line.starts_with("CPU:") && line.contains("LOST") {
            return Err(err(
                &name,
                n,
                format!("'{line}': the ring buffer lost events here, so requests are missing; accepted: a whole trace (record again with a larger buffer_size_kb)"),
            ));
        }
        let Some((t_ns, event, fields)) = split(line) else {
            return Err(err(
                &name,
                n,
                "not an ftrace event line; expected 'TASK-PID [CPU] FLAGS SECS: EVENT: FIELDS'",
            ));
        };
        if !event.starts_with("block_") {
            continue;
        }
        // `TASK-PID` before the `[CPU]`.
        let task = line
            .split(" [")
            .next()
            .and_then(|t| t.trim().rsplit_once('-'))
            .and_then(|(_, pid)| pid.parse::<u64>().ok());
        let tok: Vec<&str> = fields.split_whitespace().collect();
        let Some(dev) = tok.first().and_then(|t| dev_of(t)) else {
            // block_plug, block_unplug: no device.
            let action = match event {
                "block_plug" => Action::Plug,
                "block_unplug" => Action::Unplug,
                _ => continue,
            };
            let ev = Event {
                t_ns,
                action,
                rwbs: "",
                sectors: None,
                task,
            };
            events.push(n, &ev)?;
            continue;
        };
        events.device(n, dev)?;
        let action = match event {
            "block_bio_queue" => Action::Queue,
            "block_rq_issue" => Action::Issue,
            "block_rq_requeue" => Action::Requeue,
            "block_rq_complete" => Action::Complete,
            _ => continue,
        };
        let rwbs = *tok
            .get(1)
            .ok_or_else(|| err(&name, n, format!("{event}: the RWBS field is missing")))?;
        // The request events' byte count and `(CMD)` come before the sectors.
        let at = match tok.iter().rposition(|t| t.ends_with(')')) {
            Some(p) => p + 1,
            None if action == Action::Queue => 2,
            None => {
                return Err(err(
                    &name,
                    n,
                    format!("{event}: expected 'MAJ,MIN RWBS [BYTES] (CMD) SECTOR + NSECTORS'"),
                ))
            }
        };
        let sectors = sectors_of(&name, n, &tok[at.min(tok.len())..])?;
        events.push(
            n,
            &Event {
                t_ns,
                action,
                rwbs,
                sectors,
                task,
            },
        )?;
    }
    events.finish();
    Ok(())
}
