//! Board parameters: every physical figure of a [`Platform`] as a named value in a unit
//! (`nand_read_us`, `bus_mb_s`, `irq_latency_us`), the part of the board it belongs to and its
//! accepted range.
//!
//! [`PARAMS`] is the one list: the scenario language wraps each parameter into an option row
//! (`scenario::table`), so the same parser, writer, links, `--help` and reset read them as any
//! other option; a scenario keeps only the values that differ from its preset (internal units:
//! ns, bytes, bytes per second, parts per million). Platform files (`file`, beside this one)
//! read and write them by part.
//!
//! Adding a platform field is adding one `param!` line here (field path, name with its unit,
//! range, help); `engine/tests/board.rs` fails for a numeric field no row covers.

use super::{BusMode, HostDriver, KernelVersion, Platform};

mod unit;
pub use unit::Unit;

/// The part of the board a parameter belongs to (the sections of a platform file and of the
/// page's Board panel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Host,
    Bus,
    Card,
    MmcTest,
}

impl Part {
    pub const ALL: [Part; 4] = [Part::Host, Part::Bus, Part::Card, Part::MmcTest];
    /// The section name in a platform file.
    pub fn key(self) -> &'static str {
        match self {
            Part::Host => "host",
            Part::Bus => "bus",
            Part::Card => "card",
            Part::MmcTest => "mmc_test",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Part::Host => "Host software (CPU time per request)",
            Part::Bus => "MMC bus",
            Part::Card => "Card",
            Part::MmcTest => "mmc_test module",
        }
    }
}

/// One board parameter: a field of [`Platform`] in a unit.
#[derive(Clone, Copy)]
pub struct Param {
    /// The option name, with its unit (`nand_read_us`).
    pub name: &'static str,
    pub part: Part,
    pub unit: Unit,
    /// The field's Rust path in [`Platform`] (`card.read_latency_random_ns`).
    pub field: &'static str,
    /// Smallest and largest accepted value, written in `unit`.
    pub min: &'static str,
    pub max: &'static str,
    /// `min..=max`, as `--help` shows it without the unit.
    pub accepted: &'static str,
    /// One line for `--help`, platform files and the Board panel.
    pub help: &'static str,
    /// A value other than any preset's that the option table's test sets.
    pub example: &'static str,
    /// The field's value in a platform, internal units.
    pub get: fn(&Platform) -> u64,
    /// Sets the field from internal units.
    pub put: fn(&mut Platform, u64),
}

impl Param {
    /// The accepted range in internal units.
    pub fn range(&self) -> (u64, u64) {
        let p = |s| self.unit.parse(s).unwrap_or(0);
        (p(self.min), p(self.max))
    }

    /// `accepted` with the unit, as `--help` and messages say it ("0..=100000 us").
    pub fn accepted_with_unit(&self) -> String {
        match self.unit {
            Unit::Count | Unit::Bool => self.accepted.to_string(),
            Unit::Mode => "legacy, sdr, hs52, ddr52, hs200, hs400, hs400es".to_string(),
            Unit::Width => "1, 4, 8".to_string(),
            Unit::Kernel => format!("major.minor, {}", self.accepted),
            Unit::Driver => self.accepted.to_string(),
            u => format!("{} {}", self.accepted, u.label()),
        }
    }

    /// Parses a written value into internal units, range checked; the error is the message
    /// naming the value and what is accepted.
    pub fn parse_value(&self, value: &str) -> Result<u64, String> {
        let (min, max) = self.range();
        match self.unit.parse(value) {
            Some(v) if (min..=max).contains(&v) => Ok(v),
            Some(_) => Err(format!(
                "'{}' is out of range; accepted: {}",
                value,
                self.accepted_with_unit()
            )),
            None if matches!(self.unit, Unit::Kernel | Unit::Mode | Unit::Driver) => Err(format!(
                "'{value}' is not a {}; accepted: {}",
                match self.unit {
                    Unit::Kernel => "kernel version",
                    Unit::Driver => "host driver the model knows",
                    _ => "bus mode",
                },
                self.accepted_with_unit()
            )),
            None => Err(format!(
                "'{}' is not a number in {}; accepted: {}",
                value,
                match self.unit {
                    Unit::Mode => "bus modes",
                    Unit::Width => "1, 4 or 8",
                    Unit::Kernel => "versions",
                    Unit::Driver => "drivers",
                    Unit::Count | Unit::Bool => "whole units",
                    u => u.label(),
                },
                self.accepted_with_unit()
            )),
        }
    }

    /// The value `platform` gives this parameter, as option text.
    pub fn preset_text(&self, platform: &Platform) -> String {
        self.unit.format((self.get)(platform))
    }
}

/// A platform field's type from internal units (the range check keeps values in its type).
trait FromU64 {
    fn from_u64(v: u64) -> Self;
}
impl FromU64 for u64 {
    fn from_u64(v: u64) -> Self {
        v
    }
}
impl FromU64 for u32 {
    fn from_u64(v: u64) -> Self {
        v.min(u32::MAX.into()) as u32
    }
}
impl FromU64 for BusMode {
    fn from_u64(v: u64) -> Self {
        BusMode::ALL[(v as usize).min(BusMode::ALL.len() - 1)]
    }
}
impl FromU64 for bool {
    fn from_u64(v: u64) -> Self {
        v != 0
    }
}

/// One `param!` row: name (with its unit), part, unit, field path, accepted range, help.
macro_rules! param {
    ($name:literal, $part:ident, $unit:ident, $($field:ident).+, $min:literal ..= $max:literal,
     example $example:literal, $help:literal) => {
        Param {
            name: $name,
            part: Part::$part,
            unit: Unit::$unit,
            field: stringify!($($field).+),
            min: $min,
            max: $max,
            accepted: concat!($min, "..=", $max),
            help: crate::vocab::lean_text($help),
            example: $example,
            get: |p: &Platform| p.$($field).+ as u64,
            put: |p: &mut Platform, v: u64| p.$($field).+ = FromU64::from_u64(v),
        }
    };
}

/// Every board parameter, in the order `--help`, platform files and the Board panel list them.
pub const PARAMS: &[Param] = &[
    // ---- host software, per request ----
    param!("submit_us", Host, Us, host.submit_ns, "0"..="10000", example "25",
        "fio pread/pwrite + bio build + blk_mq_submit_bio, per I/O"),
    param!("issue_us", Host, Us, host.issue_ns, "0"..="10000", example "9",
        "mmc_mq_queue_rq -> mmc_blk_mq_issue_rq: building CMD23 + CMD18/25"),
    param!("dma_map_us", Host, Us, host.dma_map_ns, "0"..="10000", example "7",
        "pre_req: dma_map_sg, fixed part"),
    param!("dma_unmap_read_us", Host, Us, host.dma_unmap_read_ns, "0"..="10000", example "20",
        "post_req after a read: dma_unmap_sg with cache invalidate, fixed part"),
    param!("dma_unmap_write_us", Host, Us, host.dma_unmap_write_ns, "0"..="10000", example "8",
        "post_req after a write, fixed part"),
    param!("dma_per_kib_us", Host, Us, host.dma_per_kib_ns, "0"..="1000", example "1.5",
        "map + unmap per KiB transferred (cache maintenance)"),
    param!("irq_latency_us", Host, Us, host.irq_to_next_cmd_ns, "0"..="10000", example "30",
        "transfer-complete IRQ to the next command on the bus (sdhci_irq -> hsq pump -> sdhci_request)"),
    param!("cqhci_irq_us", Host, Us, host.cqhci_irq_ns, "0"..="10000", example "20",
        "command queueing: a task's completion to cqhci_irq finishing every task done by then (one interrupt)"),
    param!("cqhci_halt_us", Host, Us, host.cqhci_halt_ns, "0"..="10000", example "20",
        "command queueing: cqhci_off halting the CQE before a command it does not queue (a discard, a flush without DCMD)"),
    param!("cqhci_request_us", Host, Us, host.cqhci_request_ns, "0"..="10000", example "3",
        "command queueing: cqhci_request in queue_rq, a task's descriptors and its doorbell (CQHCI_TDBR), beside issue_us"),
    param!("cqhci_finish_us", Host, Us, host.cqhci_finish_ns, "0"..="10000", example "3",
        "command queueing: each task's completion inside cqhci_irq (cqhci_finish_mrq -> mmc_cqe_request_done -> blk_mq_complete_request)"),
    param!("irq_done_us", Host, Us, host.irq_done_ns, "0"..="10000", example "3",
        "hard IRQ: the host's request_done -> mmc_blk_hsq_req_done -> blk_mq_complete_request, raising the block softirq"),
    param!("completion_ipi_us", Host, Us, host.completion_ipi_ns, "0"..="10000", example "5",
        "IPI sending the completion to the submitting CPU (CPUs other than the interrupt's CPU 0; 0: they share a cache)"),
    param!("completion_us", Host, Us, host.completion_ns, "0"..="10000", example "12",
        "block softirq: mmc_blk_cqe_complete_rq ends the request, wakes its waiter, in_flight--, runs the queue (post_req aside)"),
    param!("queue_rerun_us", Host, Us, host.rerun_ns, "0"..="10000", example "20",
        "kblockd: from a completion to the queue_rq of a request that waits (refused, or behind one); never paid when none waits"),
    param!("reap_us", Host, Us, host.reap_ns, "0"..="10000", example "4",
        "the psync thread's wake-up: bio end_io -> wake_up_process -> fio back in user space recording it"),
    param!("adma3_chain_us", Host, Us, host.adma3_chain_ns, "0"..="10000", example "12",
        "ADMA3: building one chain and its single interrupt, finalize and pump"),
    param!("max_req_kib", Host, KiB, host.max_req_bytes, "0.5"..="65536", example "256",
        "the controller's largest request (mmc->max_req_size)"),
    param!("adma3_max_chain", Host, Count, host.max_packed, "0"..="16", example "4",
        "ADMA3 chain length the controller supports (0 = no ADMA3)"),
    param!("sched_cpu_pct", Host, Count, host.sched_cpu_pct, "1"..="100000", example "300",
        "the I/O scheduler's CPU time per request, percent of the 2012 laptop core of bfq-iosched.rst (mq-deadline 0.7 us, bfq 1.9 us)"),
    param!("cpus", Host, Count, host.cpus, "1"..="64", example "4",
        "CPUs fio's threads submit from (thread j on CPU j mod cpus): each has its own blk-mq tag allocation hint"),
    param!("legacy_wakeup_us", Host, Us, host.legacy_wakeup_ns, "0"..="100000", example "30",
        "legacy (2020) path: waking the issuing thread after the data of a request"),
    param!("legacy_completion_us", Host, Us, host.legacy_completion_ns, "0"..="100000", example "15",
        "legacy (2020) path: completing a request in the issuing thread (CMD13 wait aside)"),
    // The kernel is not a number: its row is written out (get and put go through its code).
    Param {
        name: "kernel",
        part: Part::Host,
        unit: Unit::Kernel,
        field: "kernel",
        min: "3.0",
        max: "6.99",
        accepted: "3.0..=6.99",
        help: crate::vocab::lean_text("the Linux version the board runs (major.minor): its block layer's rules (the model carries 6.1, 6.6 and 6.12; another version runs the nearest, and says so) and its mmc rules: CMD13 polled back to back after a write up to 5.14, with sleeps from 5.15; hsq from 5.8, its dynamic depth from 6.7; the CQE from 4.15"),
        example: "5.4",
        get: |p: &Platform| p.kernel.code(),
        put: |p: &mut Platform, v: u64| p.kernel = KernelVersion::from_code(v),
    },
    // The host driver is a name: its row is written out too.
    Param {
        name: "host_driver",
        part: Part::Host,
        unit: Unit::Driver,
        field: "driver",
        min: "sdhci-sprd",
        max: "sdhci-pci",
        accepted: "sdhci-sprd, sunxi-mmc, sdhci-brcmstb, mmci, sdhci-pci",
        help: crate::vocab::lean_text("the host controller driver (drivers/mmc/host/): which host paths its kernel can run; hsq on one without mmc_hsq_init, or the CQE on one without cqhci_init, is a what-if"),
        example: "mmci",
        get: |p: &Platform| p.driver as u64,
        put: |p: &mut Platform, v: u64| p.driver = HostDriver::from_code(v),
    },
    param!("sw_shape", Host, Count, variation.sw_shape_milli, "0"..="1000000", example "10000",
        "variation: gamma shape of host software times, in thousandths (0 = fixed; larger is steadier)"),
    param!("preempt_pct", Host, Pct, variation.preempt_ppm, "0"..="100", example "0.01",
        "variation: share of thread wake-ups that find the CPU taken by another task"),
    param!("preempt_us", Host, Us, variation.preempt_ns, "0"..="100000", example "2000",
        "variation: mean preemption (exponential)"),
    // ---- bus ----
    param!("bus_mode", Bus, Mode, bus.mode, "legacy"..="hs400es", example "hs200",
        "bus speed mode: legacy (sdr), hs52, ddr52, hs200, hs400, hs400es; ddr52 and hs400 move data on both clock edges"),
    param!("bus_clock_mhz", Bus, MHz, bus.clock_hz, "0.1"..="200", example "150",
        "bus clock; presets give the effective clock that yields the measured data rate"),
    param!("bus_width", Bus, Width, bus.width, "1"..="8", example "4",
        "data lines: 1, 4 or 8 (hs400 is 8-bit only)"),
    param!("bus_mb_s", Bus, MBps, bus.rate_override, "0"..="10000", example "200",
        "data rate overriding clock x width / 8 (x2 in DDR modes): HS400 8-bit 200 MHz = 400, HS200 = 200; 0 = derived"),
    param!("bus_cmd_fixed_us", Bus, Us, bus.cmd_fixed_ns, "0"..="10000", example "5",
        "command phase, fixed part: the controller issuing CMD23 + CMD18/CMD25 and reading their responses; the 212 CMD-line clock cycles come on top at bus_clock_mhz (SDR in every mode)"),
    // ---- card ----
    param!("card_seq_read_us", Card, Us, card.read_latency_seq_ns, "0"..="100000", example "10",
        "read access from the card's read buffer (sequential reads the read-ahead fetched)"),
    param!("nand_read_us", Card, Us, card.read_latency_random_ns, "0"..="100000", example "120",
        "tR: NAND page read of the first page a read needs that the card's buffer does not hold (random reads, a stream restarting)"),
    param!("nand_dies", Card, Count, card.nand_dies, "1"..="64", example "8",
        "NAND dies behind the card controller: a read senses pages on all of them at once; command queueing also runs different reads on different dies"),
    param!("nand_planes", Card, Count, card.nand_planes, "1"..="8", example "3",
        "planes per NAND die: a multi-plane read senses one page per plane in one tR"),
    param!("nand_page_kib", Card, KiB, card.nand_page_bytes, "0.5"..="1024", example "8",
        "NAND page: what one tR senses on one plane; a read is split into page reads"),
    param!("nand_channel_mb_s", Card, MBps, card.nand_channel_bytes_per_sec, "0.1"..="10000", example "333",
        "internal channel card controller <-> NAND (through ECC): with dies x planes x page / tR it sets the rate a read streams at"),
    param!("card_read_hit_pct", Card, Pct, card.random_read_hit_ppm, "0"..="100", example "50",
        "share of random reads served from a card buffer without a NAND read"),
    param!("card_read_ahead_kib", Card, KiB, card.read_ahead_bytes, "0"..="65536", example "128",
        "read-ahead depth: bytes a stream's buffer reads beyond the last requested byte (at the internal rate) and keeps behind it; 0 = none"),
    param!("card_write_mb_s", Card, MBps, card.write_accept_bytes_per_sec, "0.1"..="10000", example "100",
        "rate the card takes write data into its cache"),
    param!("card_write_busy_us", Card, Us, card.write_busy_ns, "0"..="100000", example "30",
        "busy after a write's data, before the card answers (write into cache)"),
    param!("card_cache_kib", Card, KiB, card.cache_bytes, "0"..="1048576", example "1024",
        "volatile write cache size (0 = none)"),
    param!("card_cache_hold_kib", Card, KiB, card.cache_hold_bytes, "0"..="1048576", example "256",
        "data the cache keeps before programming it (at most half the cache)"),
    param!("nand_program_mb_s", Card, MBps, card.nand_program_bytes_per_sec, "0.1"..="10000", example "100",
        "NAND program rate (cache drain, cache-less writes)"),
    param!("reliable_write_us", Card, Us, card.reliable_write_fixed_ns, "0"..="100000", example "400",
        "reliable write (FUA): the commit after its last program unit is programmed"),
    param!("nand_program_us", Card, Us, card.nand_program_ns, "0"..="100000", example "600",
        "tPROG: programming one program unit (SLC / write-cache area); a reliable write programs its data unit by unit as it arrives"),
    param!("program_unit_kib", Card, KiB, card.program_unit_bytes, "0.5"..="65536", example "64",
        "the SLC / write-cache program unit: bytes one tPROG programs (a page on each plane of a die)"),
    param!("flush_us", Card, Us, card.flush_fixed_ns, "0"..="1000000", example "500",
        "CMD6 FLUSH_CACHE: fixed time on top of draining the cache"),
    param!("max_discard_sectors", Card, Count, card.max_discard_sectors, "1"..="4294967296", example "8192",
        "the queue's limit (sysfs discard_max_bytes / 512, from mmc_calc_max_discard): a longer discard is split; default 2 TiB, never split"),
    param!("trim_us", Card, Us, card.trim_ns, "0"..="3000000", example "5000",
        "CMD35/36/38 DISCARD (fio's trim): card busy per command; typical 2000, not measured (JEDEC bound 300 ms x TRIM_MULT)"),
    param!("card_reliable_write", Card, Bool, card.reliable_write, "0"..="1", example "0",
        "the card supports reliable write (so the host may advertise FUA)"),
    param!("cmdq_depth", Card, Count, card.cmdq_depth, "0"..="32", example "16",
        "command queueing: the card's queue depth (0 = no command queue); the blk-mq tag set is min(this, the CQE's slots) (mmc_init_queue)"),
    param!("max_posted_writes", Card, Count, card.max_posted_writes, "1"..="32", example "31",
        "command queueing: writes queued on the card at once (card->max_posted_writes; SD in a removable slot: 1)"),
    param!("card_sd", Card, Bool, card.sd, "0"..="1", example "1",
        "the card is an SD card: command queueing only as the Raspberry Pi kernel (6.6+) runs it, with the card's cache on"),
    param!("cqe_dcmd", Card, Bool, card.cqe_dcmd, "0"..="1", example "0",
        "command queueing: a flush is a queued direct command (DCMD); 0: it waits for the queue to empty (SD)"),
    param!("random_write_commit_us", Card, Us, card.random_write_commit_ns, "0"..="100000", example "200",
        "random (non-sequential) write: time the card stays busy (CMD13) committing it"),
    param!("read_retry_pct", Card, Pct, variation.read_retry_ppm, "0"..="100", example "0.1",
        "variation: share of NAND reads that need an ECC read retry (the page read again)"),
    param!("program_sigma", Card, Count, variation.program_sigma_milli, "0"..="10000", example "500",
        "variation: log-normal sigma of NAND program time, in thousandths (0 = fixed)"),
    param!("gc_every_kib", Card, KiB, variation.gc_every_bytes, "0"..="1048576", example "4096",
        "variation: mean data written between two housekeeping (garbage collection) pauses (0 = none)"),
    param!("gc_pause_us", Card, Us, variation.gc_pause_ns, "0"..="100000", example "3000",
        "variation: mean housekeeping pause, added to the busy time of the write that triggers it"),
    // ---- kernel mmc_test ----
    param!("mmc_test_start_us", MmcTest, Us, mmc_test.start_ns, "0"..="10000", example "20",
        "mmc_test: building a request and mmc_start_req, per transfer"),
    param!("mmc_test_wait_us", MmcTest, Us, mmc_test.wait_done_ns, "0"..="10000", example "20",
        "mmc_test: waking the test thread on completion"),
];

/// The parameter named `name`.
pub fn find(name: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.name == name)
}

/// The unit of a parameter, for callers that show values.
pub fn unit_of(name: &str) -> Option<Unit> {
    find(name).map(|p| p.unit)
}

#[cfg(test)]
mod tests;
