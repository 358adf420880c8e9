//! fio's disk stats (diskutil.c `print_disk_util`, `json_array_add_disk_util`, fio 3.33): what
//! /proc/diskstats of the device counted over the run, as the model's block layer accounts it
//! (`blk_account_io_done`: requests, merges, ticks, time in queue, busy time). mmc_test runs
//! have none: they bypass the block layer, and fio does not run.

use crate::Report;
use serde::{Deserialize, Serialize};

/// The device's name under /dev: every board's card is the first mmc block device.
pub const DISK_NAME: &str = "mmcblk0";

/// One device's object of fio's `"disk_util"` array (fields in fio's order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FioDiskUtil {
    pub name: String,
    pub read_ios: u64,
    pub write_ios: u64,
    pub read_merges: u64,
    pub write_merges: u64,
    /// ms, as /proc/diskstats counts them.
    pub read_ticks: u64,
    pub write_ticks: u64,
    pub in_queue: u64,
    /// Percent of the run with a request in flight (100 x io_ticks / run time).
    pub util: f64,
}

impl FioDiskUtil {
    /// The run's disk stats, or None for an mmc_test run.
    pub fn of(rep: &Report, mmc_test: bool) -> Option<Self> {
        if mmc_test {
            return None;
        }
        let s = &rep.sim;
        let ms = |ns: u64| ns / 1_000_000;
        let util = match s.simulated_ns {
            0 => 0.0,
            t => (s.io_ticks_ns as f64 * 100.0 / t as f64).min(100.0),
        };
        Some(FioDiskUtil {
            name: DISK_NAME.to_string(),
            read_ios: s.ios[0],
            write_ios: s.ios[1],
            read_merges: s.merges[0],
            write_merges: s.merges[1],
            read_ticks: ms(s.ticks_ns[0]),
            write_ticks: ms(s.ticks_ns[1]),
            in_queue: ms(s.in_queue_ns),
            util,
        })
    }

    /// fio's normal-output line (without the "Disk stats (read/write):" heading).
    pub fn line(&self) -> String {
        format!(
            "  {}: ios={}/{}, merge={}/{}, ticks={}/{}, in_queue={}, util={:.2}%",
            self.name,
            self.read_ios,
            self.write_ios,
            self.read_merges,
            self.write_merges,
            self.read_ticks,
            self.write_ticks,
            self.in_queue,
            self.util
        )
    }
}
