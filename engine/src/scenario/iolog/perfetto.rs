//! A Perfetto protobuf trace with block events (Perfetto's `Trace` of `TracePacket`s, as
//! `traced` records ftrace on a phone or `--trace_format=perfetto` writes): the
//! `FtraceEventBundle`s' `block_rq_issue`, `block_bio_queue` and `block_rq_requeue` events
//! (field numbers of Perfetto's ftrace/ftrace_event.proto and ftrace/block.proto), their dev_t
//! split as the kernel's `MAJOR` / `MINOR`; `block_rq_complete`, `block_plug`, `block_unplug`
//! (with the event's pid) and the `SystemInfo` packet's kernel release are read for the replay's
//! check and batching ([`super::check`]); every other packet and event is read past. The
//! protobuf wire format is read by hand: varints, length-delimited fields, fixed 32/64-bit fields
//! skipped.

use super::block::{Action, Event, Events};
use super::{err, IoLog, Loc};
use crate::scenario::error::ScenarioError;

/// One field: its number and value (a varint, or the bytes of a length-delimited field), and
/// the byte offset of its key.
struct Field<'a> {
    num: u64,
    wire: u64,
    at: usize,
    varint: u64,
    bytes: &'a [u8],
}

/// The fields of the message `buf` (at byte `base` of the file), read one at a time so that
/// memory does not grow with a file's packets; a truncated or malformed field is refused with
/// its offset (and ends the fields).
fn fields<'a>(
    name: &'a str,
    buf: &'a [u8],
    base: usize,
) -> impl Iterator<Item = Result<Field<'a>, ScenarioError>> + 'a {
    let mut i = 0;
    std::iter::from_fn(move || {
        if i >= buf.len() {
            return None;
        }
        let f = field(name, buf, base, &mut i);
        if f.is_err() {
            i = buf.len();
        }
        Some(f)
    })
}

/// The messages' fields, all read (a small message's: an event and its body).
fn all_fields<'a>(
    name: &'a str,
    buf: &'a [u8],
    base: usize,
) -> Result<Vec<Field<'a>>, ScenarioError> {
    fields(name, buf, base).collect()
}

/// The field at byte `*i` of `buf`; `*i` moves past it.
fn field<'a>(
    name: &str,
    buf: &'a [u8],
    base: usize,
    i: &mut usize,
) -> Result<Field<'a>, ScenarioError> {
    let bad = |at: usize, what: &str| {
        err(
            name,
            Loc::Byte(base + at),
            format!("{what}; expected a Perfetto protobuf trace (Trace: repeated TracePacket packet = 1)"),
        )
    };
    // A varint: Err(true) when it runs past the end, Err(false) when it is longer than
    // protobuf's 10 bytes.
    let varint = |i: &mut usize| -> Result<u64, bool> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *buf.get(*i).ok_or(true)?;
            *i += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(false)
    };
    let too_long = "a varint longer than protobuf's 10 bytes";
    {
        let at = *i;
        let key = varint(i).map_err(|past| {
            bad(
                at,
                if past {
                    "truncated protobuf (a field key runs past the end)"
                } else {
                    too_long
                },
            )
        })?;
        let (num, wire) = (key >> 3, key & 7);
        let mut f = Field {
            num,
            wire,
            at: base + at,
            varint: 0,
            bytes: &[],
        };
        match wire {
            0 => {
                f.varint = varint(i).map_err(|past| {
                    bad(
                        at,
                        if past {
                            "truncated protobuf (a varint runs past the end)"
                        } else {
                            too_long
                        },
                    )
                })?
            }
            1 | 5 => {
                let n = if wire == 1 { 8 } else { 4 };
                if *i + n > buf.len() {
                    return Err(bad(
                        at,
                        "truncated protobuf (a fixed-size field runs past the end)",
                    ));
                }
                *i += n;
            }
            2 => {
                let len = varint(i).map_err(|past| {
                    bad(
                        at,
                        if past {
                            "truncated protobuf (a length runs past the end)"
                        } else {
                            too_long
                        },
                    )
                })?;
                let end = usize::try_from(len)
                    .ok()
                    .and_then(|l| i.checked_add(l))
                    .filter(|&e| e <= buf.len());
                let end = end.ok_or_else(|| {
                    bad(
                        at,
                        &format!("truncated protobuf (a field of {len} bytes runs past the end)"),
                    )
                })?;
                f.bytes = &buf[*i..end];
                *i = end;
            }
            w => return Err(bad(at, &format!("wire type {w} is not protobuf's"))),
        }
        if num == 0 {
            return Err(bad(at, "field number 0 is not protobuf's"));
        }
        Ok(f)
    }
}

/// Perfetto's `Trace`: a file that starts with a packet (field 1, length-delimited) and reads
/// as one.
pub(super) fn looks_like(bytes: &[u8]) -> bool {
    bytes.first() == Some(&0x0a) && fields("", bytes, 0).all(|f| f.is_ok_and(|f| f.num == 1))
}

// TracePacket.ftrace_events; FtraceEventBundle.event; FtraceEvent.timestamp and its events.
const FTRACE_EVENTS: u64 = 1;
const BUNDLE_EVENT: u64 = 2;
const BUNDLE_LOST_EVENTS: u64 = 3;
const TIMESTAMP: u64 = 1;
const EVENT_PID: u64 = 2;
const BLOCK_RQ_ISSUE: u64 = 45;
const BLOCK_BIO_QUEUE: u64 = 119;
const BLOCK_PLUG: u64 = 123;
const BLOCK_RQ_COMPLETE: u64 = 125;
const BLOCK_RQ_REQUEUE: u64 = 129;
const BLOCK_UNPLUG: u64 = 133;
// TracePacket.system_info; SystemInfo.utsname; Utsname.release (system_info.proto).
const SYSTEM_INFO: u64 = 45;
const UTSNAME: u64 = 1;
const RELEASE: u64 = 3;

/// The kernel release of a `SystemInfo` packet (`uname -r` as traced read it).
fn release(name: &str, info: &[u8], base: usize) -> Result<Option<String>, ScenarioError> {
    for f in all_fields(name, info, base)? {
        if f.num == UTSNAME && f.wire == 2 {
            let off = base + (f.bytes.as_ptr() as usize - info.as_ptr() as usize);
            for r in all_fields(name, f.bytes, off)? {
                if r.num == RELEASE && r.wire == 2 {
                    return Ok(std::str::from_utf8(r.bytes).ok().map(str::to_string));
                }
            }
        }
    }
    Ok(None)
}

pub(super) fn parse_perfetto(log: &mut IoLog, bytes: &[u8]) -> Result<(), ScenarioError> {
    let name = log.name.clone();
    let mut events = Events::new(log);
    let base = |s: &[u8]| s.as_ptr() as usize - bytes.as_ptr() as usize;
    for packet in fields(&name, bytes, 0) {
        let packet = packet?;
        if packet.num != 1 {
            continue;
        }
        for bundle in fields(&name, packet.bytes, base(packet.bytes)) {
            let bundle = bundle?;
            if bundle.num == SYSTEM_INFO && bundle.wire == 2 {
                if let Some(r) = release(&name, bundle.bytes, base(bundle.bytes))? {
                    events.kernel(r);
                }
            }
            if bundle.num != FTRACE_EVENTS {
                continue;
            }
            for ev in fields(&name, bundle.bytes, base(bundle.bytes)) {
                let ev = ev?;
                if ev.num == BUNDLE_LOST_EVENTS && ev.varint != 0 {
                    return Err(err(
                        &name,
                        Loc::Byte(ev.at),
                        "an FtraceEventBundle with lost_events: the ring buffer (or mmcsim's --trace_max_events) dropped events, so requests are missing; accepted: a whole trace",
                    ));
                }
                if ev.num != BUNDLE_EVENT {
                    continue;
                }
                let parts = all_fields(&name, ev.bytes, base(ev.bytes))?;
                let t_ns = parts
                    .iter()
                    .find(|f| f.num == TIMESTAMP)
                    .map_or(0, |f| f.varint);
                let task = parts.iter().find(|f| f.num == EVENT_PID).map(|f| f.varint);
                for body in &parts {
                    let (action, rwbs_field) = match body.num {
                        BLOCK_RQ_ISSUE => (Action::Issue, 5),
                        BLOCK_RQ_REQUEUE => (Action::Requeue, 5),
                        BLOCK_RQ_COMPLETE => (Action::Complete, 5),
                        BLOCK_BIO_QUEUE => (Action::Queue, 4),
                        BLOCK_PLUG | BLOCK_UNPLUG => {
                            let action = if body.num == BLOCK_PLUG {
                                Action::Plug
                            } else {
                                Action::Unplug
                            };
                            let ev = Event {
                                t_ns,
                                action,
                                rwbs: "",
                                sectors: None,
                                task,
                            };
                            events.push(Loc::Byte(body.at), &ev)?;
                            continue;
                        }
                        _ => continue,
                    };
                    let f = all_fields(&name, body.bytes, base(body.bytes))?;
                    let get = |n: u64| f.iter().rev().find(|x| x.num == n);
                    // dev, sector and nr_sector are varints (uint64 / uint32 in block.proto).
                    let num = |n: u64, what: &str| {
                        match get(n) {
                        Some(x) if x.wire != 0 => Err(err(
                            &name,
                            Loc::Byte(x.at),
                            format!("the {what} field (field {n}) has wire type {}; accepted: a varint, as block.proto's", x.wire),
                        )),
                        x => Ok(x.map_or(0, |x| x.varint)),
                    }
                    };
                    let dev = num(1, "dev")?;
                    events.device(
                        Loc::Byte(body.at),
                        ((dev >> 20) as u32, (dev & 0xf_ffff) as u32),
                    )?;
                    let rwbs = get(rwbs_field).map_or(&[][..], |x| x.bytes);
                    let rwbs = std::str::from_utf8(rwbs).map_err(|_| {
                        err(&name, Loc::Byte(body.at), "the RWBS field is not text")
                    })?;
                    let sector = num(2, "sector")?;
                    let nsect = num(3, "nr_sector")?;
                    events.push(
                        Loc::Byte(body.at),
                        &Event {
                            t_ns,
                            action,
                            rwbs,
                            sectors: Some((sector, nsect)),
                            task,
                        },
                    )?;
                }
            }
        }
    }
    events.finish();
    Ok(())
}
