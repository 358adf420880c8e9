//! blkparse's default text output (`blkparse -i TRACE`, blkparse's `process_fmt` default: one
//! line per event, `MAJ,MIN CPU SEQ SECS.NSECS PID ACTION RWBS [SECTOR + NSECTORS] [COMM]`):
//! its `D` (issue), `Q` (queue) and `R` (requeue) events are replayed; `C` (complete), `P` (plug)
//! and `U` (unplug) are read for the replay's check and batching ([`super::check`]); the others
//! (G, I, M, m...) are the kernel's own handling and are read past, as is the summary blkparse
//! prints at the end.

use super::block::{dev_of, sectors_of, Action, Event, Events};
use super::{err, secs_ns, IoLog};
use crate::scenario::error::ScenarioError;

/// `8,0` and the like: a blkparse event line starts with the device's major,minor.
pub(super) fn is_event(line: &str) -> bool {
    line.split_whitespace().next().and_then(dev_of).is_some()
}

pub(super) fn parse_blkparse(log: &mut IoLog, text: &str) -> Result<(), ScenarioError> {
    let name = log.name.clone();
    let mut events = Events::new(log);
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if !is_event(line) {
            // The summary ("CPU0 (8,0):", "Total (8,0):", ...) ends the events.
            let summary = ["CPU", "Total", "Throughput", "Events", "Skips"]
                .iter()
                .any(|p| line.starts_with(p));
            if summary {
                break;
            }
            return Err(err(
                &name,
                n,
                "not a blkparse event (MAJ,MIN CPU SEQ SECS PID ACTION RWBS ...)",
            ));
        }
        let tok: Vec<&str> = line.split_whitespace().collect();
        if tok.len() < 6 {
            return Err(err(&name, n, "too few fields for a blkparse event"));
        }
        if let Some(dev) = dev_of(tok[0]) {
            events.device(n, dev)?;
        }
        let action = match tok[5] {
            "Q" => Action::Queue,
            "D" => Action::Issue,
            "R" => Action::Requeue,
            "C" => Action::Complete,
            "P" => Action::Plug,
            "U" => Action::Unplug,
            _ => continue,
        };
        let t_ns = secs_ns(tok[3])
            .ok_or_else(|| err(&name, n, format!("time '{}' is not SECS.NSECS", tok[3])))?;
        let task = tok[4].parse::<u64>().ok();
        if matches!(action, Action::Plug | Action::Unplug) {
            let ev = Event {
                t_ns,
                action,
                rwbs: "",
                sectors: None,
                task,
            };
            events.push(n, &ev)?;
            continue;
        }
        let rwbs = *tok
            .get(6)
            .ok_or_else(|| err(&name, n, "RWBS field is missing"))?;
        // A requeue's and a passthrough request's fields may carry `(...)` before the sectors.
        let rest: Vec<&str> = tok[7..]
            .iter()
            .copied()
            .skip_while(|t| t.starts_with('('))
            .collect();
        let sectors = match sectors_of(&name, n, &rest) {
            Ok(s) => s,
            // A passthrough request (`N`) may carry its command bytes instead.
            Err(_) if rwbs.ends_with('N') => None,
            Err(e) => return Err(e),
        };
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
