//! fio's `zonemode=zbd` on a device that is not zoned (fio's `zbd.c`, `init_zone_info`): fio
//! emulates zones of `zonesize` bytes with write pointers, all empty at the start, shared by
//! every job on the device. Writes go to a zone's write pointer (at most `max_open_zones`
//! zones written at once), reads stay below it (unless `read_beyond_wp`), a trim resets a
//! zone's write pointer (bookkeeping only: on a device that is not zoned nothing reaches it),
//! and a job with no zone left to write or read ends (fio's `io_u_eof`).
//!
//! What the device sees is ordinary reads and writes at the offsets fio picks; the zone state
//! is fio's, so it lives beside the jobs, not in the card.

use std::collections::{BTreeSet, HashMap};

/// Zones per page of the write-pointer table.
const PAGE: usize = 4096;

/// fio's `zbd_info->zone_info[]` write pointers, in 512-byte sectors (a zone is at most the
/// 1 TiB device, 2^31 sectors), in pages of [`PAGE`] zones allocated as a zone of theirs is
/// first written: 4 bytes a zone of the pages touched, however many I/Os the run makes (a
/// map entry per zone written took about 40 bytes: 10 M zones of 512 bytes, 411 MB). `check`
/// bounds the zones of the jobs' regions ([`MAX_ZBD_ZONES`](crate::scenario::limits::MAX_ZBD_ZONES)).
#[derive(Debug, Default)]
struct WritePointers {
    pages: HashMap<u64, Box<[u32]>>,
}

impl WritePointers {
    fn get(&self, z: u64) -> u64 {
        let (p, i) = (z / PAGE as u64, z as usize % PAGE);
        self.pages.get(&p).map_or(0, |pg| u64::from(pg[i]) * 512)
    }

    fn set(&mut self, z: u64, bytes: u64) {
        let (p, i) = (z / PAGE as u64, z as usize % PAGE);
        if bytes == 0 && !self.pages.contains_key(&p) {
            return;
        }
        let pg = self
            .pages
            .entry(p)
            .or_insert_with(|| vec![0; PAGE].into_boxed_slice());
        pg[i] = (bytes / 512) as u32;
    }
}

/// The emulated zones of the device.
#[derive(Debug, Default)]
pub struct Zones {
    size: u64,
    /// Write pointer of each zone, bytes from its start (0: empty).
    wp: WritePointers,
    /// fio's `write_zones[]`: the zones being written (a closed zone's place taken by the last
    /// one, so closing is O(1)), each zone's place in it, and the same zones in zone order (to
    /// tell whether they all lie in a job's region, and to find one near an offset): every
    /// write costs O(log max_open_zones), not O(max_open_zones).
    open: Vec<u64>,
    open_at: HashMap<u64, usize>,
    open_sorted: BTreeSet<u64>,
    /// `max_open_zones` (0: no limit).
    max_open: usize,
    /// `zone_reset_threshold` x the bytes of the job's region, and `zone_reset_frequency` as
    /// one reset every `reset_every` writes (0: no resets).
    reset_threshold_ppm: u64,
    reset_every: u64,
    writes_since_reset: u64,
    valid_bytes: u64,
    /// Zone resets (fio's `nr_zone_resets`).
    pub resets: u64,
}

/// A job's view: its region in zones and its I/O.
#[derive(Clone, Copy, Debug)]
pub struct Io {
    pub base: u64,
    pub region: u64,
    pub offset: u64,
    pub len: u64,
    pub min_bs: u64,
    pub random: bool,
}

impl Zones {
    pub fn new(
        size: u64,
        max_open: u32,
        reset_threshold_ppm: u64,
        reset_frequency_ppm: u64,
    ) -> Zones {
        Zones {
            size: size.max(512),
            max_open: max_open as usize,
            reset_threshold_ppm,
            reset_every: 1_000_000u64
                .checked_div(reset_frequency_ppm)
                .map_or(0, |n| n.max(1)),
            ..Zones::default()
        }
    }

    fn range(&self, io: &Io) -> (u64, u64) {
        let first = io.base.div_ceil(self.size);
        let end = (io.base + io.region) / self.size;
        (first, end.max(first + 1))
    }

    fn wp(&self, z: u64) -> u64 {
        self.wp.get(z)
    }

    fn room(&self, z: u64, min_bs: u64) -> bool {
        self.size - self.wp(z) >= min_bs
    }

    /// `zbd_open_zone`: `z` becomes a write zone.
    fn open_zone(&mut self, z: u64) {
        self.open_at.insert(z, self.open.len());
        self.open.push(z);
        self.open_sorted.insert(z);
    }

    /// `zbd_close_zone`: `z` leaves the write zones (if it is one).
    fn close_zone(&mut self, z: u64) {
        if let Some(i) = self.open_at.remove(&z) {
            self.open.swap_remove(i);
            if let Some(&moved) = self.open.get(i) {
                self.open_at.insert(moved, i);
            }
            self.open_sorted.remove(&z);
        }
    }

    /// One of the write zones in the job's zones `first..end`, picked from the I/O's offset:
    /// when every write zone is the job's (one job, or jobs sharing the region), the one at
    /// the offset's proportion of `write_zones[]` (fio's `pick_random_zone_idx`); else the
    /// first write zone of the job's at or after the I/O's zone, wrapping round. None: the job
    /// has none.
    fn pick_open(&self, io: &Io, z: u64, first: u64, end: u64) -> Option<u64> {
        let (lo, hi) = (self.open_sorted.first()?, self.open_sorted.last()?);
        if *lo >= first && *hi < end {
            let n = self.open.len() as u64;
            let k = (io.offset - io.base) * n / io.region.max(1);
            return Some(self.open[(k as usize).min(self.open.len() - 1)]);
        }
        self.open_sorted
            .range(z..end)
            .next()
            .or_else(|| self.open_sorted.range(first..z).next())
            .copied()
    }

    fn reset(&mut self, z: u64) {
        let w = self.wp.get(z);
        if w > 0 {
            self.wp.set(z, 0);
            self.valid_bytes -= w;
            self.resets += 1;
        }
    }

    /// `zbd_adjust_block` for a write: the offset and length at a zone's write pointer, or None
    /// when the job's region has no zone it may write (fio ends the job). As fio without
    /// verify, a full zone picked again is reset and written from its start.
    pub fn write(&mut self, io: Io) -> Option<(u64, u64)> {
        let (first, end) = self.range(&io);
        let mut z = (io.offset / self.size).clamp(first, end - 1);
        // `zbd_convert_to_write_zone`: the I/O's zone if it is open or may be opened (under
        // `max_open_zones`), else one of the job's open zones picked from the I/O's offset.
        if self.max_open > 0 && !self.open_at.contains_key(&z) {
            if self.open.len() < self.max_open {
                self.open_zone(z);
            } else {
                z = self.pick_open(&io, z, first, end)?;
            }
        }
        // `zone_reset_threshold` / `zone_reset_frequency`: once the valid data passes the
        // threshold, every Nth write resets the zone it goes to first.
        if self.reset_every > 0 {
            self.writes_since_reset += 1;
            let threshold =
                (io.region as u128 * self.reset_threshold_ppm as u128 / 1_000_000) as u64;
            if self.valid_bytes >= threshold && self.writes_since_reset >= self.reset_every {
                self.writes_since_reset = 0;
                self.reset(z);
            }
        }
        if !self.room(z, io.min_bs) {
            self.reset(z);
        }
        let wp = self.wp(z);
        let len = io.len.min(self.size - wp) / io.min_bs * io.min_bs;
        if len == 0 {
            return None;
        }
        self.wp.set(z, wp + len);
        self.valid_bytes += len;
        if !self.room(z, io.min_bs) {
            // `zbd_end_zone_io`: a full zone leaves the write zones.
            self.close_zone(z);
        }
        Some((z * self.size + wp, len))
    }

    /// `zbd_adjust_block` for a read (read_beyond_wp=0): below a write pointer, in the I/O's
    /// zone or the nearest zone holding data; None when no zone of the region holds any.
    pub fn read(&self, io: Io) -> Option<(u64, u64)> {
        let (first, end) = self.range(&io);
        let orig = (io.offset / self.size).clamp(first, end - 1);
        let start = |z: u64| z * self.size;
        let mut z = orig;
        let mut offset = io.offset;
        if self.wp(z) < io.min_bs || (!io.random && offset + io.min_bs > start(z) + self.wp(z)) {
            // `zbd_find_zone`: upwards, then downwards.
            z = (orig + 1..end)
                .chain((first..orig).rev())
                .find(|&c| self.wp(c) >= io.min_bs)?;
            if !io.random {
                offset = start(z);
            }
        }
        let range = self.wp(z);
        if range <= io.len {
            offset = start(z);
        } else if io.random {
            offset =
                start(z) + (io.offset - start(orig)) % (range - io.len) / io.min_bs * io.min_bs;
        }
        let len = io.len.min(start(z) + range - offset) / io.min_bs * io.min_bs;
        (len > 0).then_some((offset, len))
    }

    /// `zbd_do_io_u_trim`: a trim resets the write pointer of a zone holding data (a random trim
    /// looks for one); nothing reaches a device that is not zoned. None: no zone to reset.
    pub fn trim(&mut self, io: Io) -> Option<u64> {
        let (first, end) = self.range(&io);
        let mut z = (io.offset / self.size).clamp(first, end - 1);
        if self.wp(z) == 0 {
            if !io.random {
                return Some(z * self.size);
            }
            z = (z + 1..end)
                .chain((first..z).rev())
                .find(|&c| self.wp(c) > 0)?;
        }
        self.reset(z);
        self.close_zone(z);
        Some(z * self.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn io(offset: u64, len: u64) -> Io {
        Io {
            base: 0,
            region: 4 << 20,
            offset,
            len,
            min_bs: 4096,
            random: true,
        }
    }

    #[test]
    fn writes_go_to_the_write_pointer_and_a_full_zone_is_reset() {
        let mut z = Zones::new(1 << 20, 0, 0, 0);
        assert_eq!(z.write(io(3 << 19, 4096)), Some((1 << 20, 4096)));
        assert_eq!(
            z.write(io((1 << 20) + 8192, 4096)),
            Some(((1 << 20) + 4096, 4096))
        );
        // Zone 1 takes 256 writes of 4 KiB; the next one resets it.
        for _ in 2..256 {
            z.write(io(1 << 20, 4096)).unwrap();
        }
        assert_eq!(z.resets, 0);
        assert_eq!(z.write(io(1 << 20, 4096)), Some((1 << 20, 4096)));
        assert_eq!(z.resets, 1);
    }

    /// 2^20 zones of 512 bytes written once each (2^20 I/Os) take 256 pages of 4096 write
    /// pointers, 4 MiB, and the same again changes nothing (a map entry a zone took ~40 bytes).
    #[test]
    fn the_write_pointers_take_4_bytes_a_zone_of_the_pages_touched() {
        let mut z = Zones::new(512, 0, 0, 0);
        let region = 512u64 << 20;
        let io = |offset| Io {
            base: 0,
            region,
            offset,
            len: 512,
            min_bs: 512,
            random: false,
        };
        for round in 0..2 {
            for k in 0..1u64 << 20 {
                assert_eq!(z.write(io(k * 512)), Some((k * 512, 512)));
            }
            assert_eq!(z.wp.pages.len(), 256, "round {round}");
            assert_eq!(z.resets, round << 20);
        }
        assert_eq!(z.wp(12345), 512);
        assert_eq!(z.read(io(12345 * 512)), Some((12345 * 512, 512)));
    }

    #[test]
    fn at_the_open_zone_limit_writes_go_to_an_open_zone() {
        let mut z = Zones::new(1 << 20, 1, 0, 0);
        z.write(io(0, 4096));
        let (off, _) = z.write(io(3 << 20, 4096)).unwrap();
        assert!(off < 1 << 20, "zone 0 is the only open zone: {off}");
    }

    /// At the limit, a write goes to a write zone of its own job's region (the other job's
    /// are not its to write), or the job ends when it has none; a full zone's place is freed.
    #[test]
    fn at_the_limit_a_job_writes_only_its_own_open_zones() {
        let mut z = Zones::new(1 << 20, 2, 0, 0);
        let other = |offset| Io {
            base: 4 << 20,
            ..io(offset, 4096)
        };
        z.write(io(0, 4096));
        z.write(other(5 << 20));
        for o in [1 << 20, 2 << 20, 3 << 20] {
            let (off, _) = z.write(io(o, 4096)).unwrap();
            assert!(off < 1 << 20, "zone 0 is the job's one open zone: {off}");
        }
        let (off, _) = z.write(other(7 << 20)).unwrap();
        assert!((5 << 20..6 << 20).contains(&off), "{off}");
        let mut full = Zones::new(1 << 20, 1, 0, 0);
        full.write(other(5 << 20));
        assert_eq!(
            full.write(io(0, 4096)),
            None,
            "no open zone of its own: the job ends"
        );
        // Zone 5 fills (256 writes of 4 KiB) and leaves the write zones: zone 0 may open.
        for _ in 1..256 {
            full.write(other(5 << 20)).unwrap();
        }
        assert_eq!(full.write(io(0, 4096)), Some((0, 4096)));
    }

    #[test]
    fn reads_stay_below_the_write_pointer_and_end_when_nothing_is_written() {
        let mut z = Zones::new(1 << 20, 0, 0, 0);
        assert_eq!(z.read(io(0, 4096)), None);
        z.write(io(2 << 20, 8192));
        let (off, len) = z.read(io(0, 4096)).unwrap();
        assert!((2 << 20..(2 << 20) + 8192).contains(&off) && len == 4096);
    }

    #[test]
    fn a_trim_resets_a_zone_with_data() {
        let mut z = Zones::new(1 << 20, 0, 0, 0);
        assert_eq!(z.trim(io(0, 1 << 20)), None);
        z.write(io(1 << 20, 4096));
        assert_eq!(z.trim(io(0, 1 << 20)), Some(1 << 20));
        assert_eq!(z.resets, 1);
        assert_eq!(z.write(io(1 << 20, 4096)), Some((1 << 20, 4096)));
    }
}
