//! Platform presets: one parameter set per measured platform, every value named after the
//! physical quantity it stands for and documented with where it came from.
//!
//! The values are fitted so that the simulated throughput reproduces
//! `engine/data/measurements.toml` (see [`crate::calibration`]); the fit is checked by
//! `engine/tests/calibration.rs`. The structure of the fit follows the request path: software
//! time per request is paid on the CPU of whoever runs that part of the path, the bus carries
//! one command and one data transfer at a time, and the card adds access latency and busy time.

use crate::vocab::{HostConfig, HsqDepth, HsqDispatch, MmcPath};
use serde::{Deserialize, Serialize};

pub use crate::variation::VariationTiming;

/// Host CPU time per request, per part of the kernel path (nanoseconds).
///
/// These are latencies on the CPU that runs that part (the submitting fio thread, the IRQ
/// handler, kblockd); the SoCs have 8 cores, so the model does not make them contend.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostTiming {
    /// fio's pread/pwrite, bio build and `blk_mq_submit_bio` insert, per I/O.
    pub submit_ns: u64,
    /// `mmc_mq_queue_rq` -> `mmc_blk_mq_issue_rq`: issue-type check, building CMD23 + CMD18/25.
    pub issue_ns: u64,
    /// pre_req: `dma_map_sg` of the request's buffer, fixed part (paid inside queue_rq).
    pub dma_map_ns: u64,
    /// post_req: `dma_unmap_sg` after a read, fixed part. Larger than after a write: unmapping
    /// a DMA_FROM_DEVICE buffer invalidates the CPU cache over it.
    pub dma_unmap_read_ns: u64,
    /// post_req after a write.
    pub dma_unmap_write_ns: u64,
    /// map + unmap per KiB transferred (cache maintenance scales with the buffer); half is paid
    /// at map time, half at unmap time.
    pub dma_per_kib_ns: u64,
    /// From the transfer-complete interrupt to the next command on the bus
    /// (`sdhci_irq` -> `mmc_hsq_finalize_request` -> `mmc_hsq_pump_requests` -> `sdhci_request`).
    pub irq_to_next_cmd_ns: u64,
    /// Completion pass per request: `mmc_blk_hsq_req_done`, post_req, `blk_mq_complete_request`,
    /// in_flight-- (`mmc_blk_mq_dec_in_flight`).
    pub completion_ns: u64,
    /// `blk_mq_run_hw_queues(q, true)` from the completion: kblockd work until the next
    /// `queue_rq` of a request waiting on `hctx->dispatch`.
    pub rerun_ns: u64,
    /// fio wakes in its system call and records the completion.
    pub reap_ns: u64,
    /// Legacy path as Linux ran it from 4.17 to the host software queue (2020,
    /// `mmc_blk_mq_issue_rw_rq`): the interrupt's completion work wakes the context sleeping in
    /// `mmc_blk_rw_wait` (the next request is prepared and waits there), and only that thread
    /// starts the next request. This is the time from the interrupt to that thread running; a
    /// write pays it twice, because the thread first polls the card with one CMD13
    /// (`mmc_blk_card_busy`) and sleeps for its answer. 0: the legacy path starts the next
    /// request from the interrupt (the 2011 non-blocking series as mmc_test drives it).
    pub legacy_wakeup_ns: u64,
    /// Legacy path: completion of the previous request in that thread after the next one
    /// started (`mmc_blk_mq_post_req`: post_req, `blk_mq_complete_request`, in_flight--).
    pub legacy_completion_ns: u64,
    /// ADMA3: building one chain (command descriptors + ADMA2 tables + integrated descriptor)
    /// and completing it (one interrupt, one completion pass for the whole chain).
    pub adma3_chain_ns: u64,
    /// The controller's largest request (`mmc->max_req_size`), bytes.
    pub max_req_bytes: u64,
    /// ADMA3 chain length the controller supports (0 = no ADMA3).
    pub max_packed: u32,
}

/// The eMMC bus speed mode (JESD84-B51 "bus speed modes"): whether data moves on one clock edge
/// or both. `legacy` also stands for SD's SDR modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BusMode {
    /// Backward-compatible / SDR up to 26 MHz (`legacy`, `sdr`).
    Legacy = 0,
    /// High speed SDR up to 52 MHz.
    Hs52 = 1,
    /// High speed DDR up to 52 MHz, both edges.
    Ddr52 = 2,
    /// HS200: SDR up to 200 MHz (8-bit: 200 MB/s).
    Hs200 = 3,
    /// HS400: DDR up to 200 MHz, 8-bit only (400 MB/s).
    Hs400 = 4,
    /// HS400 with enhanced strobe: as HS400 on the data lines.
    Hs400Es = 5,
}

impl BusMode {
    pub const ALL: [BusMode; 6] = [
        BusMode::Legacy,
        BusMode::Hs52,
        BusMode::Ddr52,
        BusMode::Hs200,
        BusMode::Hs400,
        BusMode::Hs400Es,
    ];
    /// The name options and platform files use.
    pub fn key(self) -> &'static str {
        match self {
            BusMode::Legacy => "legacy",
            BusMode::Hs52 => "hs52",
            BusMode::Ddr52 => "ddr52",
            BusMode::Hs200 => "hs200",
            BusMode::Hs400 => "hs400",
            BusMode::Hs400Es => "hs400es",
        }
    }
    /// A mode from its name (`sdr` is `legacy`).
    pub fn from_key(s: &str) -> Option<BusMode> {
        match s {
            "sdr" => Some(BusMode::Legacy),
            _ => BusMode::ALL.into_iter().find(|m| m.key() == s),
        }
    }
    /// Data transferred on both clock edges.
    pub fn ddr(self) -> bool {
        matches!(self, BusMode::Ddr52 | BusMode::Hs400 | BusMode::Hs400Es)
    }
}

/// The MMC bus between controller and card.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BusTiming {
    /// Bus speed mode (single or double data rate).
    pub mode: BusMode,
    /// Bus clock, Hz. Presets set the effective clock that gives the measured data rate (the
    /// rest of the nominal clock goes to block gaps and CRC).
    pub clock_hz: u64,
    /// Data lines: 1, 4 or 8.
    pub width: u32,
    /// Effective data rate overriding the one derived from mode, clock and width, bytes per
    /// second; 0 = derived.
    pub rate_override: u64,
    /// The command phase's fixed part: the controller issuing CMD23 (SET_BLOCK_COUNT) +
    /// CMD18/CMD25 and reading their responses. The phase's CMD-line bits
    /// ([`CMD_PHASE_CYCLES`]) come on top, at the bus clock ([`BusTiming::cmd_ns`]). Presets:
    /// the fitted command time (MODEL.md's "command time", 3 us on the eMMC boards) less the
    /// CMD-line time at the preset's clock ([`cmd_fixed_for`]).
    pub cmd_fixed_ns: u64,
}

/// Clock cycles the command phase takes on the CMD line: two commands (CMD23, then CMD18 or
/// CMD25), each a 48-bit command token, N_CR = 2 cycles until the card answers (the JEDEC
/// minimum), a 48-bit R1 response and N_RC = 8 cycles before the next command. The CMD line
/// runs at single data rate in every bus mode (in DDR52 and HS400 only the data lines are
/// double data rate), so the mode does not change it.
pub const CMD_PHASE_CYCLES: u64 = 2 * (48 + 2 + 48 + 8);

/// The command phase's CMD-line time at `clock_hz`, ns (rounded up).
pub const fn cmd_line_ns(clock_hz: u64) -> u64 {
    let hz = if clock_hz == 0 { 1 } else { clock_hz };
    (CMD_PHASE_CYCLES * 1_000_000_000).div_ceil(hz)
}

/// The fixed part that gives a fitted command time `total_ns` at `clock_hz`: a preset keeps
/// its calibrated command time at its own clock (and a clock too slow for it fails to compile).
pub const fn cmd_fixed_for(total_ns: u64, clock_hz: u64) -> u64 {
    total_ns - cmd_line_ns(clock_hz)
}

impl BusTiming {
    /// The data rate derived from mode, clock and width: clock x width / 8 bytes per second,
    /// twice that in DDR modes.
    pub fn derived_bytes_per_sec(&self) -> u64 {
        let edges = if self.mode.ddr() { 2 } else { 1 };
        self.clock_hz * u64::from(self.width) * edges / 8
    }
    /// The command phase (CMD23 + CMD18/CMD25 with their responses): the fixed part plus
    /// [`CMD_PHASE_CYCLES`] at the bus clock, so a slower clock makes every command slower.
    pub fn cmd_ns(&self) -> u64 {
        self.cmd_fixed_ns + cmd_line_ns(self.clock_hz)
    }
    /// The data rate the bus moves data at: the override if set, else the derived rate.
    pub fn bytes_per_sec(&self) -> u64 {
        if self.rate_override > 0 {
            self.rate_override
        } else {
            self.derived_bytes_per_sec()
        }
    }
}

/// The card (eMMC or SD) behind the bus.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CardTiming {
    /// Read access time when the data is in the card's read-ahead buffer (sequential reads).
    pub read_latency_seq_ns: u64,
    /// Read access time of a NAND page read (random reads).
    pub read_latency_random_ns: u64,
    /// NAND dies the card can read from at once. Only command queueing (CQE) can use more than
    /// one: without it the card sees one command at a time.
    pub nand_dies: u32,
    /// Share of random reads (parts per million) that hit a card-side buffer without a NAND read.
    pub random_read_hit_ppm: u32,
    /// Bytes the card prefetches after a read (its read-ahead buffer).
    pub read_ahead_bytes: u64,
    /// Rate at which the card accepts write data into its cache, bytes per second (the data
    /// phase runs at the lower of this and the bus bandwidth).
    pub write_accept_bytes_per_sec: u64,
    /// Busy time after a write's data, before the card answers (write into cache).
    pub write_busy_ns: u64,
    /// Volatile write cache size, bytes (0 = the card has none).
    pub cache_bytes: u64,
    /// Bytes the card keeps in its volatile cache before it starts programming them (gathering a
    /// multi-plane program unit); only more data or a flush makes it program them. This is what
    /// a power cut loses from a cache that was not flushed.
    pub cache_hold_bytes: u64,
    /// Rate at which the card programs NAND (draining the cache, or cache-less writes).
    pub nand_program_bytes_per_sec: u64,
    /// Reliable write (CMD23 bit 31): fixed commit time after the data is programmed.
    pub reliable_write_fixed_ns: u64,
    /// Reliable write: program rate of the written data itself.
    pub reliable_write_bytes_per_sec: u64,
    /// After a random (non-sequential) write into the cache the card releases DAT0 once the
    /// data is buffered, but keeps working on it (mapping-table update) for this long: a CMD13
    /// (`mmc_blk_card_busy`, the 2020 legacy path's software busy wait) is answered only then.
    /// Hardware busy detection (hsq, ADMA3 chains) never waits for it: the card takes the next
    /// write into its cache meanwhile. Fitted to the hsq-introduction series (legacy random
    /// write 35.96 MiB/s against sequential 69.68).
    pub random_write_commit_ns: u64,
    /// CMD6 FLUSH_CACHE: fixed time on top of draining the cache.
    pub flush_fixed_ns: u64,
    /// CMD38 with the DISCARD (or TRIM) argument (REQ_OP_DISCARD, fio's trim): the card's busy
    /// time per command after CMD35/CMD36 set the range. The card only unmaps the range (a
    /// mapping-table update, no NAND erase). Typical value, not measured: no calibration series
    /// has trims; JEDEC eMMC 5.1 bounds it by 300 ms x TRIM_MULT (EXT_CSD[232]), the kernel's
    /// `mmc_erase_timeout`.
    #[serde(default = "default_trim_ns")]
    pub trim_ns: u64,
    /// The card supports reliable write (so the host may advertise FUA).
    pub reliable_write: bool,
}

/// A typical eMMC discard (CMD38 DISCARD): 2 ms of card busy per command. Not measured (no
/// calibration series has trims); well inside the JEDEC bound of 300 ms x TRIM_MULT.
pub const TYPICAL_TRIM_NS: u64 = 2_000_000;

fn default_trim_ns() -> u64 {
    TYPICAL_TRIM_NS
}

/// Software costs of the kernel's mmc_test module (drivers/mmc/core/mmc_test.c), which drives
/// the host directly, without blk-mq or fio.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MmcTestTiming {
    /// `mmc_test_nonblock_transfer` loop: building the request and `mmc_start_req`, per transfer.
    pub start_ns: u64,
    /// Waking the test thread on completion (`mmc_wait_for_req_done`).
    pub wait_done_ns: u64,
}

/// One measured platform.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Platform {
    pub name: &'static str,
    /// One line for `--list-platforms`.
    pub description: &'static str,
    /// The patch series whose measurements this preset reproduces.
    pub source: &'static str,
    /// Host switches the platform runs with unless the scenario says otherwise.
    pub defaults: HostConfig,
    pub host: HostTiming,
    pub bus: BusTiming,
    pub card: CardTiming,
    pub mmc_test: MmcTestTiming,
    /// How the service times vary around the fitted means ([`crate::variation`]).
    pub variation: VariationTiming,
}

/// A TLC eMMC of 2020-2023 behind an 8-core phone SoC (the variation module's table says where
/// each figure comes from). The shares of the mean: read retries +0.05 %, housekeeping about
/// 1.5 ms per 8 MiB written (+0.7 us per 4 KiB write), preemption 200 ppm x 1.5 ms (+0.3 us per
/// wake-up).
pub const TLC_EMMC_2020: VariationTiming = VariationTiming {
    nand_page_tr_pct: [70, 100, 130],
    read_retry_ppm: 500,
    program_sigma_milli: 300,
    gc_every_bytes: 8 * MIB,
    gc_pause_ns: 1_500_000,
    sw_shape_milli: 25_000,
    preempt_ppm: 200,
    preempt_ns: 1_500_000,
};

/// The MLC SD card and the single-core ARM926 of the U300 (2011): two page types, a slower and
/// steadier program, one CPU (the woken thread waits more often).
pub const MLC_SD_2011: VariationTiming = VariationTiming {
    nand_page_tr_pct: [80, 120, 0],
    read_retry_ppm: 100,
    program_sigma_milli: 200,
    gc_every_bytes: 4 * MIB,
    gc_pause_ns: 5_000_000,
    sw_shape_milli: 8_000,
    preempt_ppm: 500,
    preempt_ns: 2_000_000,
};

/// The preset used when a scenario names none.
pub const DEFAULT_PLATFORM: &str = "sprd-hs400es-2020";

const MB: u64 = 1_000_000;
const MHZ: u64 = 1_000_000;
const KIB: u64 = 1024;
const MIB: u64 = 1024 * 1024;

/// Spreadtrum SDHCI with ADMA3 and an HS400 ES eMMC (Baolin Wang's packed-request RFC, 2020).
///
/// Fitted to the 8 figures of the RFC's table (20 psync jobs of 4 KiB):
/// - non-packed sequential read 60.68 MiB/s = 64 us per request with a window of 3 (hsq allows
///   in_flight <= 2 + the one being queued): software per request ~170 us for reads, ~140 us
///   for writes (`issue + dma + irq + completion + rerun`);
/// - non-packed random read 31.36 MiB/s = 125 us per request, bus-bound: a 100 us NAND read;
/// - packed sequential read 229.6 MiB/s = 17 us per request: 8 requests per ADMA3 chain, each
///   still CMD23 + CMD18 (3 us) + 10.24 us of data at 400 MB/s + 2 us read-ahead hit.
pub const SPRD_HS400ES_2020: Platform = Platform {
    name: "sprd-hs400es-2020",
    description:
        "Spreadtrum sdhci-sprd, ADMA3, eMMC HBG4a2 at HS400 ES, hsq (packed-request RFC, 2020)",
    source:
        "Baolin Wang, '[RFC PATCH v2 0/7] Add MMC packed request support', linux-mmc, 2020-04-26",
    defaults: HostConfig {
        mmc_path: MmcPath::Hsq,
        nonblocking: true,
        hsq_depth: HsqDepth::Fixed(2),
        hsq_dispatch: HsqDispatch::Fifo,
        packed: 0,
        fua: true,
        cache: true,
    },
    host: HostTiming {
        submit_ns: 20_000,
        // queue_rq runs under mq->busy, one at a time: it must stay below the 17 us per request
        // of the packed sequential read, so issue + map is small (8 us).
        issue_ns: 4_000,
        dma_map_ns: 4_000,
        // Fitted: non-packed reads need ~30 us more software per request than writes
        // (64.4 vs 56 us per request at a window of 3).
        dma_unmap_read_ns: 34_000,
        dma_unmap_write_ns: 4_000,
        dma_per_kib_ns: 0,
        irq_to_next_cmd_ns: 8_000,
        // Completion pass up to in_flight-- (`mmc_blk_hsq_req_done`): with the refused request
        // re-dispatched by the next fio submission (reap + submit, 30 us), it completes the
        // ~170 us (reads) / ~140 us (writes) of software per request that sets the non-packed
        // floor at a window of 3 (MODEL.md: 155 us on average).
        completion_ns: 98_000,
        rerun_ns: 70_000,
        reap_ns: 10_000,
        legacy_wakeup_ns: 19_000,
        legacy_completion_ns: 16_000,
        // Fitted to the packed sequential read (229.6 MiB/s = 17 us per request): building the
        // chain's descriptors and the single completion pass cost ~6 us per chain of 8.
        adma3_chain_ns: 6_000,
        max_req_bytes: 512 * KIB,
        max_packed: 8,
    },
    bus: BusTiming {
        mode: BusMode::Hs400Es,
        clock_hz: 200 * MHZ,
        width: 8,
        rate_override: 0,
        cmd_fixed_ns: cmd_fixed_for(3_000, 200 * MHZ),
    },
    card: CardTiming {
        read_latency_seq_ns: 2_000,
        // Non-packed random read is bus-bound at 125 us per request: 8 + 3 + 10.24 + ~100 us.
        read_latency_random_ns: 103_000,
        nand_dies: 4,
        random_read_hit_ppm: 0,
        read_ahead_bytes: 512 * KIB,
        write_accept_bytes_per_sec: 400 * MB,
        write_busy_ns: 7_000,
        cache_bytes: 4 * MIB,
        // Not measured; above the 177 MB/s of the packed 4 KiB writes so they never fill the cache.
        cache_hold_bytes: 512 * KIB,
        nand_program_bytes_per_sec: 200 * MB,
        reliable_write_fixed_ns: 227_000,
        reliable_write_bytes_per_sec: 160 * MB,
        random_write_commit_ns: 72_000,
        flush_fixed_ns: 200_000,
        trim_ns: TYPICAL_TRIM_NS,
        reliable_write: true,
    },
    mmc_test: MmcTestTiming {
        start_ns: 10_000,
        wait_done_ns: 10_000,
    },
    variation: TLC_EMMC_2020,
};

/// Unisoc SDHCI with an eMMC with write cache and reliable write (Wenchao Chen's FUA patch, 2022).
///
/// One synchronous job (AndroBench on F2FS, see engine/data/measurements.toml): every part of
/// the path is serial, so the per-request software time adds straight to each I/O.
/// - random write FUA off 70.32 MiB/s = 55.5 us, FUA on 12.68 MiB/s = 308 us: a reliable write
///   adds ~250 us per 4 KiB (commit + program);
/// - sequential 512 KiB read 265.74 MiB/s = 1.88 ms: ~285 MB/s effective bus bandwidth;
/// - random read 98.81 MiB/s = 39.5 us, below a NAND read: AndroBench reads back the file it has
///   just written, so most reads hit the card's buffer (`random_read_hit_ppm`).
pub const UNISOC_FUA_2022: Platform = Platform {
    name: "unisoc-fua-2022",
    description:
        "Unisoc sdhci-sprd, eMMC with cache + reliable write, hsq, one sync job (FUA patch, 2022)",
    source:
        "Wenchao Chen, '[PATCH] mmc: block: Support Host to control FUA', linux-mmc, 2022-10-20",
    defaults: HostConfig {
        mmc_path: MmcPath::Hsq,
        nonblocking: true,
        hsq_depth: HsqDepth::Fixed(2),
        hsq_dispatch: HsqDispatch::Fifo,
        packed: 0,
        fua: true,
        cache: true,
    },
    host: HostTiming {
        // One synchronous job: all of it is on the critical path. Fitted with the random read
        // (39.5 us per 4 KiB read = ~18 us software + 3 us command + 14.5 us data + 2 us access).
        submit_ns: 4_000,
        issue_ns: 3_000,
        dma_map_ns: 1_000,
        dma_unmap_read_ns: 1_000,
        dma_unmap_write_ns: 1_000,
        dma_per_kib_ns: 0,
        irq_to_next_cmd_ns: 4_000,
        completion_ns: 3_000,
        rerun_ns: 10_000,
        reap_ns: 2_000,
        legacy_wakeup_ns: 19_000,
        legacy_completion_ns: 16_000,
        adma3_chain_ns: 6_000,
        max_req_bytes: 512 * KIB,
        max_packed: 8,
    },
    bus: BusTiming {
        mode: BusMode::Hs400,
        clock_hz: 141 * MHZ,
        width: 8,
        rate_override: 0,
        cmd_fixed_ns: cmd_fixed_for(3_000, 141 * MHZ),
    },
    card: CardTiming {
        read_latency_seq_ns: 2_000,
        read_latency_random_ns: 60_000,
        nand_dies: 4,
        // AndroBench reads back the file it has just written: nearly every 4 KiB random read is
        // served from the card's buffer (98.81 MiB/s = 39.5 us per read leaves no room for a
        // NAND read).
        random_read_hit_ppm: 980_000,
        read_ahead_bytes: 512 * KIB,
        write_accept_bytes_per_sec: 282 * MB,
        // 4 KiB random write FUA off: 55.5 us = ~18 us software + 3 + 14.5 + 20 us busy.
        write_busy_ns: 20_000,
        // Small cache: the 512 KiB sequential write (200.5 MiB/s = 210 MB/s) runs at NAND speed.
        cache_bytes: 2 * MIB,
        cache_hold_bytes: 512 * KIB,
        nand_program_bytes_per_sec: 210 * MB,
        // 4 KiB FUA write 308 us and 512 KiB FUA write 3.345 ms give 263 us + size / 171 MB/s.
        reliable_write_fixed_ns: 263_000,
        reliable_write_bytes_per_sec: 171 * MB,
        random_write_commit_ns: 0,
        flush_fixed_ns: 200_000,
        trim_ns: TYPICAL_TRIM_NS,
        reliable_write: true,
    },
    mmc_test: MmcTestTiming {
        start_ns: 10_000,
        wait_done_ns: 10_000,
    },
    variation: TLC_EMMC_2020,
};

/// ST-Ericsson U300 (ARM926) with an ARM PL180 MMCI and an SD card (Per Forlin's non-blocking
/// request series, 2011), measured with mmc_test cases 37-40.
///
/// - 4 KiB write blocking 2818 KiB/s = 1.42 ms per request: the SD card dominates;
/// - non-blocking hides dma map + unmap: 18 us (read) / 9 us (write) + 3.55 us per KiB on an
///   ARM926 without L2 (MODEL.md), matching the measured gains (23 us per 4 KiB write);
/// - 63.5 KiB read 8069 KiB/s: ~111 us per KiB on the bus (~9.2 MB/s through the MMCI FIFO/DMA);
/// - 63.5 KiB write 4749 KiB/s: the card programs at ~12 MB/s after the data.
pub const U300_MMCI_2011: Platform = Platform {
    name: "u300-mmci-2011",
    description: "ST-Ericsson U300 (ARM926), PL180 MMCI + DMA, SD card, legacy path (non-blocking series, 2011)",
    source: "Per Forlin, '[PATCH v8 00/12] use nonblock mmc requests to minimize latency', tested by Linus Walleij, 2011-07-01",
    defaults: HostConfig {
        mmc_path: MmcPath::Legacy,
        nonblocking: true,
        hsq_depth: HsqDepth::Fixed(2),
        hsq_dispatch: HsqDispatch::Fifo,
        packed: 0,
        fua: false,
        cache: false,
    },
    host: HostTiming {
        submit_ns: 30_000,
        issue_ns: 30_000,
        // MODEL.md: map + unmap 18 us (read) / 9 us (write) + 3.55 us per KiB on the ARM926.
        dma_map_ns: 4_500,
        dma_unmap_read_ns: 13_500,
        dma_unmap_write_ns: 4_500,
        dma_per_kib_ns: 3_550,
        irq_to_next_cmd_ns: 20_000,
        completion_ns: 30_000,
        rerun_ns: 30_000,
        reap_ns: 20_000,
        legacy_wakeup_ns: 0,
        legacy_completion_ns: 0,
        adma3_chain_ns: 0,
        max_req_bytes: 127 * 512,
        max_packed: 0,
    },
    // SD 25 MHz 4-bit (MMCI DMA): 12.5 MB/s nominal, 9.2 MB/s effective.
    bus: BusTiming {
        mode: BusMode::Legacy,
        clock_hz: 18_400_000,
        width: 4,
        rate_override: 0,
        cmd_fixed_ns: cmd_fixed_for(40_000, 18_400_000),
    },
    card: CardTiming {
        read_latency_seq_ns: 480_000,
        read_latency_random_ns: 600_000,
        nand_dies: 1,
        random_read_hit_ppm: 0,
        read_ahead_bytes: 0,
        write_accept_bytes_per_sec: 9_200_000,
        // 4 KiB blocking write 1.419 ms vs 63.5 KiB 13.37 ms: the card programs 11.4 MB/s after
        // the data, plus ~523 us per write.
        write_busy_ns: 523_000,
        cache_bytes: 0,
        cache_hold_bytes: 0,
        nand_program_bytes_per_sec: 11_430_000,
        reliable_write_fixed_ns: 523_000,
        reliable_write_bytes_per_sec: 11_430_000,
        random_write_commit_ns: 0,
        flush_fixed_ns: 0,
        trim_ns: TYPICAL_TRIM_NS,
        reliable_write: false,
    },
    mmc_test: MmcTestTiming { start_ns: 15_000, wait_done_ns: 15_000 },
    variation: MLC_SD_2011,
};

/// Unisoc SDHCI with an eMMC, hsq without packing (Wenchao Chen's dynamic hsq depth, 2023).
///
/// 8 psync jobs. From MODEL.md's fit: 332 MB/s effective bus, 96.5 us software per request,
/// 60 us NAND read, writes into the cache at 14.6 us + size / 193 MB/s, NAND program 174 MB/s.
/// - 4 KiB random write fixed 82.87 MiB/s = 47 us = (96.5 + 45) / 3: software-bound with a
///   window of 3, so a window of 6 (dynamic depth 5) helps until the bus (45 us) binds: +4.6%;
/// - 4 KiB random read 48.03 MiB/s = 81 us: bus-bound (60 us NAND read), no gain from depth.
pub const UNISOC_HSQ_2023: Platform = Platform {
    name: "unisoc-hsq-2023",
    description:
        "Unisoc sdhci-sprd, eMMC, hsq without packing, 8 psync jobs (dynamic hsq depth, 2023)",
    source: "Wenchao Chen, 'mmc: hsq: dynamic adjustment of hsq->depth' v4, linux-mmc, 2023-09",
    defaults: HostConfig {
        mmc_path: MmcPath::Hsq,
        nonblocking: true,
        hsq_depth: HsqDepth::Dynamic,
        hsq_dispatch: HsqDispatch::Fifo,
        packed: 0,
        fua: true,
        cache: true,
    },
    host: HostTiming {
        submit_ns: 10_000,
        // 96.5 us software per request at a window of 3 (MODEL.md), split along the path.
        issue_ns: 4_000,
        dma_map_ns: 3_000,
        dma_unmap_read_ns: 3_000,
        dma_unmap_write_ns: 3_000,
        dma_per_kib_ns: 0,
        irq_to_next_cmd_ns: 6_000,
        // in_flight-- comes 71.5 us after the IRQ gap in the fixed-time fit; the refused
        // request is re-dispatched by the next fio submission 15 us later (reap + submit):
        // 96.5 us in all. With software times that vary (Gamma, CV 0.2) a window of 3 loses
        // what the slowest of its completions costs, so the mean refits to 58 us (fixed depth
        // 82.9 MiB/s, dynamic +3.7 %).
        completion_ns: 58_000,
        rerun_ns: 40_000,
        reap_ns: 5_000,
        legacy_wakeup_ns: 19_000,
        legacy_completion_ns: 30_000,
        adma3_chain_ns: 6_000,
        max_req_bytes: 512 * KIB,
        max_packed: 8,
    },
    bus: BusTiming {
        mode: BusMode::Hs400,
        clock_hz: 166 * MHZ,
        width: 8,
        rate_override: 0,
        cmd_fixed_ns: cmd_fixed_for(3_000, 166 * MHZ),
    },
    card: CardTiming {
        read_latency_seq_ns: 2_000,
        read_latency_random_ns: 60_000,
        nand_dies: 4,
        random_read_hit_ppm: 0,
        read_ahead_bytes: 512 * KIB,
        // Writes into the cache take 14.6 us + size / 193 MB/s (MODEL.md).
        write_accept_bytes_per_sec: 193 * MB,
        write_busy_ns: 14_600,
        cache_bytes: 4 * MIB,
        // 512 KiB sequential write 165.67 MiB/s = 174 MB/s: the cache is full, NAND sets the pace.
        cache_hold_bytes: 512 * KIB,
        nand_program_bytes_per_sec: 174 * MB,
        reliable_write_fixed_ns: 227_000,
        reliable_write_bytes_per_sec: 160 * MB,
        random_write_commit_ns: 0,
        flush_fixed_ns: 200_000,
        trim_ns: TYPICAL_TRIM_NS,
        reliable_write: true,
    },
    mmc_test: MmcTestTiming {
        start_ns: 10_000,
        wait_done_ns: 10_000,
    },
    variation: TLC_EMMC_2020,
};

/// An Allwinner phone SoC with an eMMC under Android 13 (Michael Wu's hsq FIFO-dispatch patch,
/// 2022), fitted to the fio latency distribution measured without hsq: 8 psync threads of 4 KiB
/// random reads from an fscrypt-encrypted f2fs directory, 7544 IOPS, clat p1 799 us, p50 1020,
/// p99 1450, p99.99 9503.
///
/// - 7544 IOPS = 132.5 us per request on the legacy path, one request at a time: command 3 us,
///   a TLC NAND read of 82 us on average, 4 KiB at an effective 200 MB/s (20.5 us), and the
///   woken thread that starts the next request (27 us);
/// - the file system and the encryption cost each I/O about 60 us in the fio thread
///   (`fs_crypt_ns` is part of `submit_ns`: f2fs + fscrypt before the bio reaches blk-mq);
/// - 8 threads keep about 7 requests queued, so clat is about 8 services: its spread (p10 963,
///   p90 1172) is the spread of one service (CV about 0.2: the TLC page types), its tail
///   (p99.9 1762, p99.99 9503) that of the rare long events: ECC read retries and a woken thread
///   that is preempted for milliseconds.
pub const ALLWINNER_HSQ_2022: Platform = Platform {
    name: "allwinner-hsq-2022",
    description:
        "Allwinner SoC, eMMC, Android 13 f2fs + fscrypt, 8 psync threads (hsq FIFO dispatch, 2022)",
    source:
        "Michael Wu, '[PATCH] mmc:mmc-hsq:use fifo to dispatch mmc_request' v2, linux-mmc, 2022-11",
    defaults: HostConfig {
        mmc_path: MmcPath::Legacy,
        nonblocking: true,
        hsq_depth: HsqDepth::Fixed(2),
        hsq_dispatch: HsqDispatch::Fifo,
        packed: 0,
        fua: true,
        cache: true,
    },
    host: HostTiming {
        // fio's pread (5 us) + the file system and the encryption: f2fs block mapping and fscrypt
        // (about 55 us per 4 KiB): host software time per request, paid in the fio thread.
        submit_ns: ALLWINNER_FS_CRYPT_NS + 5_000,
        issue_ns: 4_000,
        dma_map_ns: 3_000,
        dma_unmap_read_ns: 4_000,
        dma_unmap_write_ns: 3_000,
        dma_per_kib_ns: 0,
        irq_to_next_cmd_ns: 8_000,
        completion_ns: 40_000,
        rerun_ns: 30_000,
        reap_ns: 8_000,
        legacy_wakeup_ns: 27_000,
        legacy_completion_ns: 15_000,
        adma3_chain_ns: 0,
        max_req_bytes: 512 * KIB,
        max_packed: 0,
    },
    bus: BusTiming {
        mode: BusMode::Hs200,
        clock_hz: 200 * MHZ,
        width: 8,
        rate_override: 0,
        cmd_fixed_ns: cmd_fixed_for(3_000, 200 * MHZ),
    },
    card: CardTiming {
        read_latency_seq_ns: 2_000,
        read_latency_random_ns: 82_000,
        nand_dies: 4,
        random_read_hit_ppm: 0,
        read_ahead_bytes: 128 * KIB,
        write_accept_bytes_per_sec: 200 * MB,
        write_busy_ns: 10_000,
        cache_bytes: 4 * MIB,
        cache_hold_bytes: 512 * KIB,
        nand_program_bytes_per_sec: 150 * MB,
        reliable_write_fixed_ns: 250_000,
        reliable_write_bytes_per_sec: 150 * MB,
        random_write_commit_ns: 0,
        flush_fixed_ns: 200_000,
        trim_ns: TYPICAL_TRIM_NS,
        reliable_write: true,
    },
    mmc_test: MmcTestTiming {
        start_ns: 10_000,
        wait_done_ns: 10_000,
    },
    variation: ALLWINNER_VARIATION,
};

/// The file system (f2fs) and file encryption (fscrypt) per 4 KiB I/O on the Allwinner board:
/// host software time in the fio thread, before the bio reaches blk-mq.
pub const ALLWINNER_FS_CRYPT_NS: u64 = 55_000;

/// The Allwinner board's variation, fitted to the measured clat distribution.
pub const ALLWINNER_VARIATION: VariationTiming = VariationTiming {
    nand_page_tr_pct: [60, 100, 140],
    read_retry_ppm: 12_000,
    program_sigma_milli: 300,
    gc_every_bytes: 8 * MIB,
    gc_pause_ns: 1_500_000,
    sw_shape_milli: 10_000,
    preempt_ppm: 30,
    preempt_ns: 7_000_000,
};

/// Every preset, in the order `--list-platforms` prints them.
pub const PLATFORMS: [&Platform; 5] = [
    &SPRD_HS400ES_2020,
    &UNISOC_FUA_2022,
    &U300_MMCI_2011,
    &UNISOC_HSQ_2023,
    &ALLWINNER_HSQ_2022,
];

pub fn by_name(name: &str) -> Option<&'static Platform> {
    PLATFORMS.iter().copied().find(|p| p.name == name)
}

pub fn names() -> Vec<&'static str> {
    PLATFORMS.iter().map(|p| p.name).collect()
}
