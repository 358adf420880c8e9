//! Binary blktrace (`blktrace -d DEV`: one file per CPU, `DEV.blktrace.N`), records of
//! `struct blk_io_trace` (include/uapi/linux/blktrace_api.h: magic `0x65617400 | version`,
//! sequence, time in ns, sector, bytes, action, pid, device, cpu, error, pdu_len, then pdu_len
//! bytes), in the byte order the magic is read in, as blkparse reads them: the CPUs' files merged
//! by time, RWBS from the action's categories (`fill_rwbs`), the queue, issue and requeue
//! actions replayed; complete, plug and unplug read for the replay's check and batching.

use super::block::{Action, Event, Events};
use super::{err, IoLog, Loc};
use crate::scenario::error::ScenarioError;

const MAGIC: u32 = 0x6561_7400;
const RECORD: usize = 48;
// __BLK_TA_* (the action's low 16 bits) and BLK_TC_* (its categories, from bit 16).
const TA_QUEUE: u32 = 1;
const TA_REQUEUE: u32 = 6;
const TA_ISSUE: u32 = 7;
const TA_COMPLETE: u32 = 8;
const TA_PLUG: u32 = 9;
const TA_UNPLUG_IO: u32 = 10;
const TA_UNPLUG_TIMER: u32 = 11;
const TC_WRITE: u32 = 1 << 1;
const TC_FLUSH: u32 = 1 << 2;
const TC_SYNC: u32 = 1 << 3;
const TC_NOTIFY: u32 = 1 << 10;
const TC_AHEAD: u32 = 1 << 11;
const TC_META: u32 = 1 << 12;
const TC_DISCARD: u32 = 1 << 13;
const TC_FUA: u32 = 1 << 15;

/// A blktrace file starts with a record's magic, in either byte order.
pub(super) fn looks_like(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && {
        let b = [bytes[0], bytes[1], bytes[2], bytes[3]];
        u32::from_le_bytes(b) & !0xff == MAGIC || u32::from_be_bytes(b) & !0xff == MAGIC
    }
}

/// blkparse's `fill_rwbs`.
fn rwbs(action: u32, bytes: u32) -> String {
    let tc = action >> 16;
    let mut s = String::new();
    if tc & TC_FLUSH != 0 {
        s.push('F');
    }
    s.push(if tc & TC_DISCARD != 0 {
        'D'
    } else if tc & TC_WRITE != 0 {
        'W'
    } else if bytes > 0 {
        'R'
    } else {
        'N'
    });
    for (bit, c) in [
        (TC_FUA, 'F'),
        (TC_AHEAD, 'A'),
        (TC_SYNC, 'S'),
        (TC_META, 'M'),
    ] {
        if tc & bit != 0 {
            s.push(c);
        }
    }
    s
}

/// One record: (time, action, sector, bytes, pid, device, cpu).
struct Rec {
    t: u64,
    action: u32,
    sector: u64,
    bytes: u32,
    pid: u32,
    dev: u32,
    cpu: u32,
}

/// The records of one CPU's file `name`.
fn records(name: &str, b: &[u8]) -> Result<Vec<(usize, Rec)>, ScenarioError> {
    let le = b.len() >= 4 && u32::from_le_bytes([b[0], b[1], b[2], b[3]]) & !0xff == MAGIC;
    let u32_at = |i: usize| {
        let x = [b[i], b[i + 1], b[i + 2], b[i + 3]];
        if le {
            u32::from_le_bytes(x)
        } else {
            u32::from_be_bytes(x)
        }
    };
    let u64_at = |i: usize| {
        let (lo, hi) = (u64::from(u32_at(i)), u64::from(u32_at(i + 4)));
        if le {
            lo | hi << 32
        } else {
            hi | lo << 32
        }
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if i + RECORD > b.len() {
            return Err(err(
                name,
                Loc::Byte(i),
                format!(
                    "truncated blktrace record ({} of {RECORD} bytes)",
                    b.len() - i
                ),
            ));
        }
        if u32_at(i) & !0xff != MAGIC {
            return Err(err(
                name,
                Loc::Byte(i),
                format!(
                    "expected a blk_io_trace record (magic 0x{MAGIC:08x}), found 0x{:08x}",
                    u32_at(i)
                ),
            ));
        }
        let pdu = usize::from(if le {
            u16::from_le_bytes([b[i + 46], b[i + 47]])
        } else {
            u16::from_be_bytes([b[i + 46], b[i + 47]])
        });
        if i + RECORD + pdu > b.len() {
            return Err(err(
                name,
                Loc::Byte(i),
                format!(
                    "the record's pdu_len of {pdu} bytes runs past the end of the file ({} bytes after the record); accepted: whole blk_io_trace records",
                    b.len() - i - RECORD
                ),
            ));
        }
        let r = Rec {
            t: u64_at(i + 8),
            sector: u64_at(i + 16),
            bytes: u32_at(i + 24),
            action: u32_at(i + 28),
            pid: u32_at(i + 32),
            dev: u32_at(i + 36),
            cpu: u32_at(i + 40),
        };
        out.push((i, r));
        i += RECORD + pdu;
    }
    Ok(out)
}

/// The per-CPU files of one `blktrace -d` run (`files`: name and bytes, CPU 0 first), merged by
/// time. Files of different devices, or a file whose records name another CPU than its
/// siblings' order, do not belong together and are refused.
pub(super) fn parse_blktrace(
    log: &mut IoLog,
    files: &[(String, &[u8])],
) -> Result<(), ScenarioError> {
    let mut all = Vec::new();
    let mut seen: Vec<u32> = Vec::new();
    for (k, (name, bytes)) in files.iter().enumerate() {
        let recs = records(name, bytes)?;
        let cpus: Vec<u32> = recs.iter().map(|r| r.1.cpu).collect();
        if let Some(c) = cpus.iter().find(|&&c| c != cpus[0]) {
            return Err(err(name, Loc::Byte(0), format!("records of CPU {} and CPU {c} in one file; accepted: one CPU's records a file (blktrace -d writes DEV.blktrace.CPU)", cpus[0])));
        }
        if let Some(c) = cpus.first() {
            if let Some(j) = seen.iter().position(|s| s == c) {
                return Err(err(name, Loc::Byte(0), format!("CPU {c}'s records, as in {}; accepted: the per-CPU files of one blktrace -d run, each CPU once", files[j].0)));
            }
            seen.push(*c);
        } else {
            seen.push(u32::MAX);
        }
        all.extend(recs.into_iter().map(|(at, r)| (k, at, r)));
    }
    // blkparse merges the CPUs' streams by time.
    all.sort_by_key(|(k, at, r)| (r.t, *k, *at));
    let names: Vec<String> = files.iter().map(|f| f.0.clone()).collect();
    let mut dev0: Option<(u32, usize)> = None;
    let mut events = Events::new(log);
    for (k, at, r) in &all {
        let tc = r.action >> 16;
        if tc & TC_NOTIFY != 0 {
            continue;
        }
        match dev0 {
            None => dev0 = Some((r.dev, *k)),
            Some((d, first)) if d != r.dev && first != *k => {
                return Err(err(&names[*k], Loc::Byte(*at), format!(
                    "a record of device {},{} beside {}'s of {},{}; accepted: the per-CPU files of one blktrace -d run",
                    r.dev >> 20, r.dev & 0xf_ffff, names[first], d >> 20, d & 0xf_ffff
                )));
            }
            _ => {}
        }
        events.device(Loc::Byte(*at), (r.dev >> 20, r.dev & 0xf_ffff))?;
        let action = match r.action & 0xffff {
            TA_QUEUE => Action::Queue,
            TA_ISSUE => Action::Issue,
            TA_REQUEUE => Action::Requeue,
            TA_COMPLETE => Action::Complete,
            TA_PLUG => Action::Plug,
            TA_UNPLUG_IO | TA_UNPLUG_TIMER => Action::Unplug,
            _ => continue,
        };
        let task = Some(u64::from(r.pid));
        if matches!(action, Action::Plug | Action::Unplug) {
            let ev = Event {
                t_ns: r.t,
                action,
                rwbs: "",
                sectors: None,
                task,
            };
            events.push(Loc::Byte(*at), &ev)?;
            continue;
        }
        if r.bytes % 512 != 0 {
            return Err(err(
                &names[*k],
                Loc::Byte(*at),
                format!(
                    "a byte count of {} is not whole 512-byte sectors; accepted: records of whole sectors, as the block layer traces them",
                    r.bytes
                ),
            ));
        }
        let rwbs = rwbs(r.action, r.bytes);
        events.push(
            Loc::Byte(*at),
            &Event {
                t_ns: r.t,
                action,
                rwbs: &rwbs,
                sectors: Some((r.sector, u64::from(r.bytes) / 512)),
                task,
            },
        )?;
    }
    events.finish();
    Ok(())
}

#[cfg(test)]
pub(super) mod tests {
    /// A `blk_io_trace` record, little-endian.
    pub fn record(t: u64, action: u32, sector: u64, bytes: u32, dev: u32, cpu: u32) -> Vec<u8> {
        let mut r = Vec::new();
        r.extend((super::MAGIC | 7).to_le_bytes());
        r.extend(0u32.to_le_bytes());
        r.extend(t.to_le_bytes());
        r.extend(sector.to_le_bytes());
        r.extend(bytes.to_le_bytes());
        r.extend(action.to_le_bytes());
        r.extend(100u32.to_le_bytes());
        r.extend(dev.to_le_bytes());
        r.extend(cpu.to_le_bytes());
        r.extend([0, 0, 0, 0]);
        r
    }

    #[test]
    fn rwbs_is_blkparses() {
        let a = |tc: u32| tc << 16 | super::TA_ISSUE;
        assert_eq!(super::rwbs(a(super::TC_WRITE | super::TC_SYNC), 4096), "WS");
        assert_eq!(
            super::rwbs(a(super::TC_WRITE | super::TC_FUA | super::TC_FLUSH), 4096),
            "FWF"
        );
        assert_eq!(super::rwbs(a(super::TC_DISCARD), 4096), "D");
        assert_eq!(super::rwbs(a(0), 4096), "R");
        assert_eq!(super::rwbs(a(super::TC_FLUSH), 0), "FN");
    }
}
