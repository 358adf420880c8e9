//! fio's own iolog (`read_iolog2`): v2 (`FILE ACTION [OFFSET LENGTH]`, `wait` actions) and v3
//! (`USECS FILE ACTION [OFFSET LENGTH]`).

use std::sync::Arc;

use super::{err, extent, number, IoLog, LogOp, LogOpKind, LogPlug};
use crate::scenario::error::ScenarioError;

/// fio iolog v2 (`FILE ACTION [OFFSET LENGTH]`) or v3 (`USECS FILE ACTION [OFFSET LENGTH]`).
pub(super) fn parse_fio(log: &mut IoLog, text: &str, v3: bool) -> Result<(), ScenarioError> {
    let name = log.name.clone();
    let mut header = false;
    // v2 has no timestamps; its `wait` actions (microseconds) delay what follows.
    let mut t_ns = 0u64;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if !header {
            header = true;
            continue;
        }
        let mut tok = line.split_whitespace();
        if v3 {
            let us = number(&name, n, "timestamp", tok.next())?;
            t_ns = us.saturating_mul(1000);
        }
        let _file = tok
            .next()
            .ok_or_else(|| err(&name, n, "file name is missing"))?;
        let action = tok
            .next()
            .ok_or_else(|| err(&name, n, "action is missing"))?;
        let kind = match action {
            "add" | "open" | "close" => continue,
            "wait" if !v3 => {
                let us = number(&name, n, "wait (microseconds)", tok.next())?;
                t_ns = t_ns.saturating_add(us.saturating_mul(1000));
                continue;
            }
            "read" => LogOpKind::Read,
            "write" => LogOpKind::Write,
            "sync" | "datasync" => LogOpKind::Flush,
            "trim" => LogOpKind::Discard,
            other => {
                return Err(err(
                    &name,
                    n,
                    format!("action '{other}' is not modelled; accepted: add, open, close, read, write, sync, datasync, trim{}", if v3 { "" } else { ", wait" }),
                ))
            }
        };
        let (offset, len) = if kind == LogOpKind::Flush {
            (0, 0)
        } else {
            let offset = number(&name, n, "offset", tok.next())?;
            let len = number(&name, n, "length", tok.next())?;
            extent(&name, n, offset, len)?;
            (offset, len)
        };
        Arc::make_mut(&mut log.ops).push(LogOp {
            t_ns,
            kind,
            offset,
            len,
            fua: false,
            plug: LogPlug::None,
        });
    }
    Ok(())
}
