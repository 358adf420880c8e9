//! A kernel trace's block events as replayed I/Os, read as blktrace and the block tracepoints
//! (`include/trace/events/block.h`) write them: the RWBS letters of `blk_fill_rwbs`, the queue
//! (`__BLK_TA_QUEUE`, `block_bio_queue`), issue (`__BLK_TA_ISSUE`, `block_rq_issue`) and requeue
//! (`__BLK_TA_REQUEUE`, `block_rq_requeue`) events of one device, and what the trace says of
//! itself ([`super::check`]): completions (`__BLK_TA_COMPLETE`, `block_rq_complete`) and plugs
//! (`__BLK_TA_PLUG` / `__BLK_TA_UNPLUG_IO`, `block_plug` / `block_unplug`).

use std::sync::Arc;

use super::check::Tracker;
use super::{err, extent, IoLog, Loc, LogOp, LogOpKind, LogPlug};
use crate::scenario::error::ScenarioError;

/// What a traced event is to a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Action {
    /// A bio submitted (blkparse `Q`, `block_bio_queue`).
    Queue,
    /// A request handed to the driver (blkparse `D`, `block_rq_issue`).
    Issue,
    /// The driver gave the request back (blkparse `R`, `block_rq_requeue`): its earlier issue
    /// did not reach the device, its next one will.
    Requeue,
    /// The request completed (blkparse `C`, `block_rq_complete`).
    Complete,
    /// The task's plug got its first request (blkparse `P`, `block_plug`).
    Plug,
    /// The task's plug was flushed (blkparse `U`, `block_unplug`).
    Unplug,
}

/// One event of the trace, its fields as text.
pub(super) struct Event<'a> {
    pub t_ns: u64,
    pub action: Action,
    pub rwbs: &'a str,
    /// `SECTOR + NSECTORS`, if the event has them.
    pub sectors: Option<(u64, u64)>,
    /// The task (pid) the event ran in, if the format says: what ties a plug to its bios.
    pub task: Option<u64>,
}

/// `blk_fill_rwbs`: `F` (REQ_PREFLUSH) first, then the operation (`W`, `R`, `D`, `DE`, `F`
/// REQ_OP_FLUSH, `N`), then `F` (REQ_FUA), `A`, `S`, `M`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rwbs {
    preflush: bool,
    op: char,
    secure: bool,
    fua: bool,
}

fn rwbs(s: &str) -> Option<Rwbs> {
    let b = s.as_bytes();
    let (preflush, rest) = match b {
        [b'F'] => (false, b),
        [b'F', next, ..] if b"WRDFN".contains(next) => (true, &b[1..]),
        _ => (false, b),
    };
    let (&op, mut flags) = rest.split_first()?;
    if !b"WRDFN".contains(&op) {
        return None;
    }
    let secure = op == b'D' && flags.first() == Some(&b'E');
    if secure {
        flags = &flags[1..];
    }
    if !flags.iter().all(|f| b"FASM".contains(f)) {
        return None;
    }
    Some(Rwbs {
        preflush,
        op: op as char,
        secure,
        fua: flags.contains(&b'F'),
    })
}

/// Reads one device's events into the log's issue and queue lists.
pub(super) struct Events<'l> {
    log: &'l mut IoLog,
    name: String,
    /// The requeues read so far: the op taken back and how many issue events were read before
    /// it, resolved together in [`Events::finish`].
    requeues: Vec<(OpKey, usize)>,
    track: Tracker,
}

/// What tells a requeued request's issue event: its kind, offset and length.
type OpKey = (u8, u64, u64);

fn key(o: &LogOp) -> OpKey {
    (o.kind as u8, o.offset, o.len)
}

impl<'l> Events<'l> {
    pub(super) fn new(log: &'l mut IoLog) -> Events<'l> {
        let name = log.name.clone();
        Events {
            log,
            name,
            requeues: Vec::new(),
            track: Tracker::default(),
        }
    }

    /// The kernel release the trace's header or metadata names.
    pub(super) fn kernel(&mut self, release: String) {
        self.log.meta.kernel.get_or_insert(release);
    }

    /// Line `n`'s event is of device `dev`: the first device seen is the trace's, another is
    /// refused (the model has one card; fio's `replay_redirect` sends every device to one).
    pub(super) fn device(
        &mut self,
        n: impl Into<Loc>,
        dev: (u32, u32),
    ) -> Result<(), ScenarioError> {
        match self.log.dev {
            None => {
                self.log.dev = Some(dev);
                Ok(())
            }
            Some(d) if d == dev => Ok(()),
            Some(d) => Err(err(
                &self.name,
                n,
                format!(
                    "an event of device {},{}, but the trace's first event is of device {},{}; accepted: one device's events (the model has one card: keep one device's lines, e.g. grep ' {},{} ')",
                    dev.0, dev.1, d.0, d.1, d.0, d.1
                ),
            )),
        }
    }

    /// Line `n`'s event: its I/Os into the issue or the queue list.
    pub(super) fn push(&mut self, n: impl Into<Loc>, ev: &Event) -> Result<(), ScenarioError> {
        match ev.action {
            Action::Plug => {
                self.track.plug(ev.task);
                return Ok(());
            }
            Action::Unplug => {
                self.track
                    .unplug(ev.task, Arc::make_mut(&mut self.log.queued).as_mut_slice());
                return Ok(());
            }
            _ => self.track.seen(ev.t_ns),
        }
        let name = self.name.as_str();
        let n: Loc = n.into();
        let r = rwbs(ev.rwbs).ok_or_else(|| {
            err(
                name,
                n,
                format!(
                    "RWBS '{}' is not the kernel's; accepted: [F]W|R|D|DE|F|N then F, A, S, M",
                    ev.rwbs
                ),
            )
        })?;
        let data = ev.sectors.filter(|&(_, n)| n > 0);
        let mut ops: Vec<LogOp> = Vec::with_capacity(2);
        let op = |kind, (sector, nsect): (u64, u64), fua| -> Result<LogOp, ScenarioError> {
            // Sectors past 2^55 would wrap as bytes: refused as past the device's end.
            super::within_device(
                name,
                n,
                format_args!("sector {sector} + {nsect}"),
                sector.checked_add(nsect).and_then(|s| s.checked_mul(512)),
            )?;
            let (offset, len) = (sector * 512, nsect * 512);
            extent(name, n, offset, len)?;
            Ok(LogOp {
                t_ns: ev.t_ns,
                kind,
                offset,
                len,
                fua,
                plug: LogPlug::None,
            })
        };
        let flush = LogOp {
            t_ns: ev.t_ns,
            kind: LogOpKind::Flush,
            offset: 0,
            len: 0,
            fua: false,
            plug: LogPlug::None,
        };
        match (r.op, data) {
            ('F', _) => ops.push(flush),
            ('D', Some(_)) if r.secure => self.log.skipped += 1,
            ('D', Some(s)) => ops.push(op(LogOpKind::Discard, s, false)?),
            ('N', Some(_)) => self.log.skipped += 1,
            (_, None) => {
                // An empty REQ_PREFLUSH bio (fsync's `FWS 0 + 0`) is a flush; an empty read,
                // write or discard asks nothing of the device.
                if r.preflush {
                    ops.push(flush);
                }
            }
            (c, Some(s)) => {
                if r.preflush {
                    ops.push(flush);
                }
                let kind = if c == 'W' {
                    LogOpKind::Write
                } else {
                    LogOpKind::Read
                };
                ops.push(op(kind, s, r.fua)?);
            }
        }
        match ev.action {
            Action::Queue => {
                Arc::make_mut(&mut self.log.queued).extend(ops);
                self.track.queued(ev.task, self.log.queued.len());
            }
            Action::Issue => {
                ops.iter().for_each(|o| self.track.issue(o));
                Arc::make_mut(&mut self.log.ops).extend(ops);
            }
            Action::Requeue => {
                // The request's latest issue is taken back: it is replayed when issued again.
                if let Some(o) = ops.last() {
                    self.track.requeue(o);
                    self.requeues.push((key(o), self.log.ops.len()));
                }
            }
            Action::Complete => ops.iter().for_each(|o| self.track.complete(o)),
            Action::Plug | Action::Unplug => {}
        }
        Ok(())
    }

    /// Each requeue takes back the latest issue of the same request read before it and not
    /// taken back already: per request (kind, offset, length), the issues and requeues in the
    /// order read are a stack. Resolved in one sort of each list (a search of the issues per
    /// requeue was quadratic: 101 s for 16 MiB of blkparse text).
    fn take_back_requeued(&mut self) {
        if self.requeues.is_empty() {
            return;
        }
        let ops = &self.log.ops;
        let mut issues: Vec<usize> = (0..ops.len()).collect();
        issues.sort_unstable_by_key(|&i| (key(&ops[i]), i));
        self.requeues.sort_unstable();
        let mut taken = vec![false; ops.len()];
        let (mut next, mut stack, mut stack_key) = (0, Vec::new(), None);
        for &(k, before) in &self.requeues {
            while let Some(&i) = issues
                .get(next)
                .filter(|&&i| (key(&ops[i]), i) < (k, before))
            {
                if stack_key != Some(key(&ops[i])) {
                    stack.clear();
                    stack_key = Some(key(&ops[i]));
                }
                stack.push(i);
                next += 1;
            }
            if stack_key == Some(k) {
                if let Some(i) = stack.pop() {
                    taken[i] = true;
                }
            }
        }
        let mut at = 0;
        Arc::make_mut(&mut self.log.ops).retain(|_| {
            at += 1;
            !taken[at - 1]
        });
    }

    /// Both lists in time order (the events of several CPUs may be out of order in the text),
    /// each from its first I/O.
    pub(super) fn finish(mut self) {
        self.take_back_requeued();
        let track = std::mem::take(&mut self.track);
        track.finish(&mut self.log.meta);
        for ops in [&mut self.log.ops, &mut self.log.queued] {
            let ops = Arc::make_mut(ops);
            ops.sort_by_key(|o| o.t_ns);
            let t0 = ops.first().map_or(0, |o| o.t_ns);
            ops.iter_mut().for_each(|o| o.t_ns -= t0);
        }
    }
}

/// `MAJ,MIN`.
pub(super) fn dev_of(tok: &str) -> Option<(u32, u32)> {
    let (maj, min) = tok.split_once(',')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(maj) || !digits(min) {
        return None;
    }
    Some((maj.parse().ok()?, min.parse().ok()?))
}

/// `SECTOR + NSECTORS` at the start of `tok` (an event without them has none).
pub(super) fn sectors_of(
    name: &str,
    n: usize,
    tok: &[&str],
) -> Result<Option<(u64, u64)>, ScenarioError> {
    let Some(first) = tok.first().filter(|t| !t.starts_with('[')) else {
        return Ok(None);
    };
    let sector: u64 = first
        .parse()
        .map_err(|_| err(name, n, format!("sector '{first}' is not a number")))?;
    if tok.get(1) != Some(&"+") {
        return Err(err(name, n, "expected 'SECTOR + NSECTORS'"));
    }
    let nsect = super::number(name, n, "sector count", tok.get(2).copied())?;
    Ok(Some((sector, nsect)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rwbs_is_read_as_blk_fill_rwbs_writes_it() {
        let r = |s| rwbs(s).map(|r| (r.preflush, r.op, r.secure, r.fua));
        assert_eq!(r("WS"), Some((false, 'W', false, false)));
        assert_eq!(r("FWFS"), Some((true, 'W', false, true)));
        assert_eq!(r("WFS"), Some((false, 'W', false, true)));
        assert_eq!(r("FF"), Some((true, 'F', false, false)));
        assert_eq!(r("F"), Some((false, 'F', false, false)));
        assert_eq!(r("DE"), Some((false, 'D', true, false)));
        assert_eq!(r("RA"), Some((false, 'R', false, false)));
        assert_eq!(r("X"), None);
        assert_eq!(r("WQ"), None);
        assert_eq!(r(""), None);
    }
}
