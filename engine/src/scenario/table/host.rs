//! Host switch rows (mmcsim's own, over the fields of `Platform::switches`): the request path,
//! hsq's window and order, ADMA3 chains, FUA and the card's cache. Unset means the preset's; a
//! value set is kept in `Scenario::overrides`, even when it equals the preset's.

use super::macros::*;
use super::values::*;
use super::{OptionRow, Widget};
use crate::scenario::host::{BlkDispatch, HsqDepth, HsqDispatch, IoSched, MmcPath};
use crate::scenario::units::parse_uint;

const MMC_PATH_NAMES: &[&str] = &["hsq", "legacy", "cqe"];
const HSQ_DISPATCH_NAMES: &[&str] = &["fifo", "next_tag"];
const IOSCHED_NAMES: &[&str] = &["none", "mq-deadline", "kyber", "bfq"];

pub(super) const IOSCHEDULER: OptionRow = switch!("ioscheduler", iosched: IoSched, "none, mq-deadline (or deadline), kyber, bfq", "the block layer's I/O scheduler (default: the platform's kernel's)",
    example "none",
    parse |k, v, _value| match v {
        // The kernel's alias (`elevator_alias` of mq-deadline).
        "deadline" => IoSched::MqDeadline,
        _ => one_of(k, v, &IoSched::ALL, IoSched::name, "not an I/O scheduler")?,
    },
    text |s| s.name().to_string(),
    form form(GH, "ioscheduler", "The block layer's I/O scheduler", Widget::Choices(IOSCHED_NAMES)));

pub(super) const MMC_PATH: OptionRow = switch!("mmc_path", mmc_path: MmcPath, "hsq, legacy, cqe", "host request path (default: the platform's)",
    example "legacy",
    parse |k, v, _value| one_of(k, v, &MmcPath::ALL, MmcPath::name, "not a request path")?,
    text |p| p.name().to_string(),
    form form(GH, "mmc_path", "hsq: host software queue; cqe: command queueing", Widget::Choices(MMC_PATH_NAMES)));

pub(super) const NONBLOCKING: OptionRow = switch!("nonblocking", nonblocking: bool, "0|1", "legacy path: prepare the next request during the transfer",
    example "1",
    parse |k, _v, value| flag(k, value)?,
    text |x| b(x),
    form form(GH, "nonblocking", "Legacy path: prepare the next request early", Widget::OnOff));

pub(super) const HSQ_DEPTH: OptionRow = switch!("hsq_depth", hsq_depth: HsqDepth, "1..=63, dynamic", "hsq window: in_flight limit (dynamic = 2023 patch)",
    example "dynamic",
    parse |k, v, _value| match v {
        "dynamic" => HsqDepth::Dynamic,
        _ => HsqDepth::Fixed(
            parse_uint(v, 1, 63).map_err(|_| bad(k, v, "not an hsq depth", "1..=63, dynamic"))? as u32,
        ),
    },
    text |d| d.text(),
    form form(GH, "hsq_depth", "hsq window, or dynamic", Widget::Text { placeholder: "" }));

pub(super) const HSQ_DISPATCH: OptionRow = switch!("hsq_dispatch", hsq_dispatch: HsqDispatch, "fifo, next_tag", "hsq slot order: fifo (2022 patch, default) or next_tag (before it)",
    example "next_tag",
    parse |k, v, _value| one_of(k, v, &HsqDispatch::ALL, HsqDispatch::name, "not an hsq dispatch order")?,
    text |d| d.name().to_string(),
    form form(GH, "hsq_dispatch", "hsq slot order: fifo, or next_tag as before 2022", Widget::Choices(HSQ_DISPATCH_NAMES)));

pub(super) const PACKED: OptionRow = switch!("packed", packed: u32, "0, 2..=16", "ADMA3 batch size (0 = off; max checked against the platform)",
    example "4",
    parse |k, v, _value| {
        let n = parse_uint(v, 0, 16).ok().filter(|&n| n != 1);
        n.ok_or_else(|| bad(k, v, "not a batch size", "0 (off) or 2..=16"))? as u32
    },
    text |n| n.to_string(),
    form form(GH, "packed", "ADMA3 chain length (0 = off)", Widget::Text { placeholder: "" }));

pub(super) const FUA: OptionRow = switch!("fua", fua: bool, "0|1", "host advertises FUA: O_SYNC writes become reliable writes",
    example "0",
    parse |k, _v, value| flag(k, value)?,
    text |x| b(x),
    form form(GH, "fua", "O_SYNC writes as reliable writes", Widget::OnOff));

pub(super) const CACHE: OptionRow = switch!("cache", cache: bool, "0|1", "the card's volatile write cache is on",
    example "0",
    parse |k, _v, value| flag(k, value)?,
    text |x| b(x),
    form form(GA, "cache", "The card's volatile write cache", Widget::OnOff));

pub(super) const BLK_DISPATCH: OptionRow = switch!("blk_dispatch", dispatch: BlkDispatch, "kernel, fitted", "dispatch without a scheduler: kernel (the rules of the board's kernel=) or fitted (the approximation the 2020 and 2022 phone presets are calibrated with)",
    example "kernel",
    parse |k, v, _value| one_of(k, v, &BlkDispatch::ALL, BlkDispatch::name, "not a dispatch rule")?,
    text |d| d.name().to_string(),
    form None);
