//! The MMC bus (the wire under drivers/mmc/core/core.c `mmc_start_request`): one command and
//! one data transfer at a time. Timing comes from the platform's bus mode (bandwidth) and
//! command time; the bus timeline keeps the last segments of what the
//! bus and the host CPU did, for the UI's strip chart and trace export.

use std::collections::VecDeque;

use crate::board::BusTiming;

/// What a stretch of bus (or host) time was spent on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SegmentKind {
    /// CMD23 + CMD18/CMD25 (or CMD6) with responses.
    Command,
    /// Card read access or waiting for cache room.
    CardAccess,
    /// Data on the DAT lines.
    Data,
    /// Card busy on DAT0 (write into cache, reliable write, flush).
    CardBusy,
    /// Host software between an interrupt and the next command (IRQ, finalize, pump).
    HostGap,
    /// Building an ADMA3 chain (command descriptors + ADMA2 tables).
    ChainBuild,
}

impl SegmentKind {
    pub fn name(self) -> &'static str {
        match self {
            SegmentKind::Command => "command",
            SegmentKind::CardAccess => "card access",
            SegmentKind::Data => "data",
            SegmentKind::CardBusy => "card busy",
            SegmentKind::HostGap => "irq + software",
            SegmentKind::ChainBuild => "ADMA3 chain build",
        }
    }
}

/// One stretch of the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub kind: SegmentKind,
    pub start: u64,
    pub end: u64,
    /// Request id (None for host segments not tied to one request).
    pub req: Option<u64>,
}

/// The bus: its timing, the time it was busy, and the timeline kept for the UI.
#[derive(Debug)]
pub struct Bus {
    /// The platform's `BusTiming::cmd_ns()` and `bytes_per_sec()`, fixed for the run: computed
    /// once (each is a division) rather than per request.
    cmd_ns: u64,
    bytes_per_sec: u64,
    timeline: VecDeque<Segment>,
    keep: usize,
    /// Total time the bus carried commands, data or card busy.
    busy_ns: u64,
}

impl Bus {
    pub fn new(t: BusTiming) -> Bus {
        Bus {
            cmd_ns: t.cmd_ns(),
            bytes_per_sec: t.bytes_per_sec(),
            timeline: VecDeque::new(),
            keep: 0,
            busy_ns: 0,
        }
    }

    /// The bus mode's timing (bandwidth, command time).
    /// The command phase of one request ([`BusTiming::cmd_ns`]).
    #[inline]
    pub fn cmd_ns(&self) -> u64 {
        self.cmd_ns
    }

    /// The data rate ([`BusTiming::bytes_per_sec`]).
    #[inline]
    pub fn bytes_per_sec(&self) -> u64 {
        self.bytes_per_sec
    }

    /// Time booked so far with commands, card access, data or card busy (host segments
    /// excluded), including phases booked ahead of now.
    pub fn busy_ns(&self) -> u64 {
        self.busy_ns
    }

    /// Keep the last `n` segments (0 = keep none).
    pub fn keep_segments(&mut self, n: usize) {
        self.keep = n;
        while self.timeline.len() > n {
            self.timeline.pop_front();
        }
    }

    pub fn record(&mut self, kind: SegmentKind, start: u64, end: u64, req: Option<u64>) {
        if end <= start {
            return;
        }
        if !matches!(kind, SegmentKind::HostGap | SegmentKind::ChainBuild) {
            self.busy_ns += end - start;
        }
        if self.keep == 0 {
            return;
        }
        if self.timeline.len() == self.keep {
            self.timeline.pop_front();
        }
        self.timeline.push_back(Segment {
            kind,
            start,
            end,
            req,
        });
    }

    /// Takes the segments kept, oldest first.
    pub fn drain(&mut self) -> Vec<Segment> {
        self.timeline.drain(..).collect()
    }

    /// Segments kept, oldest first.
    pub fn timeline(&self) -> impl Iterator<Item = &Segment> {
        self.timeline.iter()
    }

    /// Data time of `bytes` on this bus.
    pub fn data_ns(&self, bytes: u64) -> u64 {
        crate::vocab::xfer_ns(bytes, self.bytes_per_sec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::SPRD_HS400ES_2020;

    #[test]
    fn host_segments_are_not_bus_time_and_the_timeline_is_bounded() {
        let mut b = Bus::new(SPRD_HS400ES_2020.bus);
        b.keep_segments(2);
        b.record(SegmentKind::Command, 0, 10, Some(1));
        b.record(SegmentKind::HostGap, 10, 30, None);
        b.record(SegmentKind::Data, 30, 100, Some(1));
        b.record(SegmentKind::CardBusy, 100, 100, Some(1));
        assert_eq!(b.busy_ns(), 80);
        let kept = b.drain();
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[1].kind, SegmentKind::Data);
        assert_eq!(b.timeline().count(), 0);
    }
}
