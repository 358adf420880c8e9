//! The `Platform` type: one parameter set per measured platform (the presets are in
//! `presets/`), every value named after the physical quantity it stands for.
//!
//! The presets' values are fitted so that the simulated throughput reproduces
//! `engine/data/measurements.toml` (the calibration runner, `tools::calibration`); the fit is
//! checked by `engine/tests/calibration.rs`. The structure of the fit follows the request
//! path: software time per request is paid on the CPU of whoever runs that part of the path,
//! the bus carries one command and one data transfer at a time, and the card adds access
//! latency and busy time.

use crate::vocab::HostConfig;
use serde::{Deserialize, Serialize};

pub use super::driver::HostDriver;
pub use super::kernel::{BusyPoll, KernelVersion};

pub use crate::variation::VariationTiming;

/// Host CPU time per request, per part of the kernel path (nanoseconds).
///
/// These are latencies on the CPU that runs that part (the submitting fio thread, the IRQ
/// handler, kblockd); the model does not make them contend for the board's `cpus`.
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
    /// The hard interrupt's part of a request's completion, after `sdhci_irq` has finished the
    /// transfer (drivers/mmc/host/sdhci.c `sdhci_irq` -> the host's `request_done`;
    /// mmc_hsq.c `mmc_hsq_finalize_request` -> `mmc_cqe_request_done` ->
    /// drivers/mmc/core/block.c `mmc_blk_hsq_req_done` -> block/blk-mq.c
    /// `blk_mq_complete_request` -> `blk_mq_complete_request_remote`, which raises
    /// BLOCK_SOFTIRQ: Linux 5.9 to 6.x; 5.7's `__blk_complete_request` does the same). The
    /// kernel runs it before hsq pumps the next request; the model charges it after the
    /// IRQ-to-command gap (`irq_to_next_cmd_ns`), on the same CPU with nothing in between.
    pub irq_done_ns: u64,
    /// The IPI that sends the softirq completion to the CPU the request was submitted on
    /// (`blk_mq_complete_need_ipi` -> `blk_mq_complete_send_ipi`, Linux 5.9+; 5.7's
    /// `raise_blk_irq`): with `rq_affinity=1` (the default, QUEUE_FLAG_SAME_COMP) only when
    /// that CPU shares no cache with the interrupt's. The model takes the interrupt on CPU 0
    /// and charges this to requests of the other CPUs (`cpus`); 0 where every core shares the
    /// last-level cache, so the completion runs on the interrupt's CPU.
    pub completion_ipi_ns: u64,
    /// The softirq completion (BLOCK_SOFTIRQ, on the CPU that took the interrupt as it
    /// leaves it, or on the submitting CPU after the IPI): drivers/mmc/core/block.c
    /// `mmc_blk_mq_complete` -> `mmc_blk_cqe_complete_rq` (hsq and the CQE; Linux 5.8 to 6.x):
    /// `blk_update_request` + `__blk_mq_end_request` (the bio's `end_io` wakes the waiting
    /// thread), `in_flight--`, and `blk_mq_run_hw_queues(q, true)` (which queues kblockd's
    /// run only if requests wait: `rerun_ns`). post_req's `dma_unmap_sg` is charged beside it
    /// (`dma_unmap_read_ns`, `dma_unmap_write_ns`).
    pub completion_ns: u64,
    /// kblockd's run of the hardware queue (`blk_mq_run_work_fn`, Linux 5.7 to 6.x): from
    /// the completion that asked for it (`blk_mq_run_hw_queues(q, true)`) to the `queue_rq`
    /// of a request waiting on `hctx->dispatch` or in the scheduler: queueing the work, the
    /// kworker's wake-up on `blk_mq_hctx_next_cpu`, the dispatch. Paid only when a request
    /// waits (one refused with BLK_STS_RESOURCE, or inserted behind one); at one request
    /// outstanding without a scheduler nothing waits and kblockd never runs.
    pub rerun_ns: u64,
    /// The psync thread's wake-up: from the bio's `end_io` (`blkdev_bio_end_io_simple` ->
    /// `blk_wake_io_task` -> `wake_up_process`, block/fops.c, Linux 5.16+; fs/block_dev.c
    /// before) to fio back in user space recording the completion (the scheduler's
    /// `try_to_wake_up`, the context switch, the return from pread/pwrite); for libaio the
    /// same for `io_getevents`.
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
    /// Command queueing: from a task's completion (its bit in CQHCI_TCN) to `cqhci_irq` having
    /// read TCN and finished every task whose bit is set (`cqhci_finish_mrq`): the interrupt's
    /// entry and handler. A task completing meanwhile is finished by the same interrupt; one
    /// completing later raises the next.
    pub cqhci_irq_ns: u64,
    /// Command queueing: `cqhci_off` (drivers/mmc/host/cqhci-core.c, Linux 6.1), which
    /// `__mmc_start_request` runs before a command the CQE does not queue (a discard's
    /// CMD35/36/38, a flush without DCMD): the host's `disable` hook, CQHCI_HALT written to
    /// CQHCI_CTL and polled until the CQE halts (`readx_poll_timeout`). The next
    /// `cqhci_request` un-halts it with one register write (not charged). Presets: a typical
    /// handful of MMIO accesses and SDHCI register restores, not measured.
    pub cqhci_halt_ns: u64,
    /// Command queueing: `cqhci_request` (drivers/mmc/host/cqhci-core.c, Linux 6.1), which
    /// `mmc_blk_mq_issue_rq` -> `mmc_blk_cqe_issue_rw_rq` (or `mmc_blk_cqe_issue_flush`) ->
    /// `mmc_cqe_start_req` runs inside `queue_rq` for each task the CQE queues: the task
    /// descriptor (`cqhci_prep_task_desc`) and the transfer descriptors
    /// (`cqhci_prep_tran_desc`; a DCMD flush: `cqhci_prep_dcmd_desc`), the slot, and the
    /// doorbell (CQHCI_TDBR). Charged beside `issue_ns` (the block driver's part). Presets: 0,
    /// so the CQE's issue is `issue_ns` alone as before this parameter; not measured.
    pub cqhci_request_ns: u64,
    /// Command queueing: one task's own completion inside `cqhci_irq` (Linux 6.1), for each
    /// bit set in CQHCI_TCN, one after another: `cqhci_finish_mrq` (the slot freed, qcnt--)
    /// -> `mmc_cqe_request_done` -> `mmc_blk_cqe_req_done` -> `blk_mq_complete_request`,
    /// raising BLOCK_SOFTIRQ. The CQE's `irq_done_ns`; presets: their `irq_done_ns`, what the
    /// CQE charged per task before this parameter (the sum kept); not measured.
    pub cqhci_finish_ns: u64,
    /// ADMA3: building one chain (command descriptors + ADMA2 tables + integrated descriptor)
    /// and completing it (one interrupt, one finalize and pump for the whole chain; each
    /// request still has its own completion, `irq_done_ns` + `completion_ns`).
    pub adma3_chain_ns: u64,
    /// The controller's largest request (`mmc->max_req_size`), bytes.
    pub max_req_bytes: u64,
    /// ADMA3 chain length the controller supports (0 = no ADMA3).
    pub max_packed: u32,
    /// The board's CPU time for the I/O scheduler's per-request code, in percent of the 2012
    /// laptop core bfq-iosched.rst's figures were measured on (mq-deadline 0.7 us, bfq 1.9 us
    /// per request, `path/elevator/mod.rs`). Presets: an estimate from the cores' single-thread
    /// speed, not a fit (no measurement of the model's boards ran a scheduler benchmark).
    pub sched_cpu_pct: u32,
    /// CPUs the fio threads submit from (thread j on CPU j mod `cpus`): each CPU has its own
    /// blk-mq tag allocation hint (lib/sbitmap.c `alloc_hint`), so this decides which tags,
    /// and so which hsq slots, the threads' requests take.
    pub cpus: u32,
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
    /// Read access time when the data is in the card's read buffer (the firmware's lookup
    /// before it starts sending: sequential reads that the read-ahead has already fetched).
    pub read_latency_seq_ns: u64,
    /// tR: the NAND page read (array to page register) of the first page of a read that the
    /// read buffer does not hold, including the firmware's command handling and address
    /// translation. The first page's bytes then cross the internal channel
    /// ([`CardTiming::nand_channel_bytes_per_sec`]) before the card starts sending.
    pub read_latency_random_ns: u64,
    /// NAND dies behind the card controller. Pages of one read are sensed on all dies and planes
    /// at once (`nand_dies` x `nand_planes` page reads per tR); command queueing (CQE) also runs
    /// different reads on different dies.
    pub nand_dies: u32,
    /// Planes per die: a multi-plane read senses one page on each plane in one tR.
    #[serde(default = "default_planes")]
    pub nand_planes: u32,
    /// NAND page size, bytes: the unit one tR senses on one plane. A read of N bytes is
    /// `N / page` page reads; the first is read before any data moves, the later ones in
    /// parallel across planes and dies while earlier pages stream out.
    #[serde(default = "default_page")]
    pub nand_page_bytes: u64,
    /// The internal channel between the card controller and the NAND (toggle / ONFI bus,
    /// through ECC), bytes per second: the rate pages reach the card's buffer. With
    /// `nand_dies x nand_planes x nand_page_bytes / tR` it bounds how fast a read streams.
    #[serde(default = "default_channel")]
    pub nand_channel_bytes_per_sec: u64,
    /// Share of random reads (parts per million) that hit a card-side buffer without a NAND read.
    pub random_read_hit_ppm: u32,
    /// Read-ahead depth: once a read continues a stream (starts where the card's buffer of that
    /// stream is), the card keeps reading this many bytes beyond the last requested byte into
    /// its buffer at the internal rate, and keeps as much behind it. Makes QD1 sequential
    /// reads cheaper than random ones only up to the internal rate. 0 = no read-ahead.
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
    /// Reliable write (CMD23 bit 31): the commit after the last program unit is programmed
    /// (the mapping-table update the card makes durable before it answers).
    pub reliable_write_fixed_ns: u64,
    /// tPROG: the NAND program of one program unit ([`CardTiming::program_unit_bytes`]), as the
    /// card programs its SLC / write-cache area. A reliable write programs its data unit by
    /// unit as it arrives, one tPROG each, before the commit.
    #[serde(default = "default_tprog")]
    pub nand_program_ns: u64,
    /// The SLC / write-cache program unit, bytes: what one tPROG programs (a page on each plane
    /// of a die, a multi-plane program). A reliable write of N bytes is `ceil(N / unit)`
    /// programs: a 4 KiB one costs a whole unit's tPROG.
    #[serde(default = "default_program_unit")]
    pub program_unit_bytes: u64,
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
    /// The queue's `max_discard_sectors` (sysfs `discard_max_bytes` / 512), as
    /// `mmc_queue_setup_discard` (drivers/mmc/core/queue.c, 6.1) sets it from
    /// `mmc_calc_max_discard`: the erase groups whose timeout fits the host's
    /// `max_busy_timeout`, or the card's preferred erase size without ERASE_GROUP_DEF. A longer
    /// discard is split into requests of at most this (`bio_split_discard`), each its own
    /// CMD35/36/38. Not known for the presets' cards: [`NO_DISCARD_SPLIT`] unless set.
    #[serde(default = "default_max_discard")]
    pub max_discard_sectors: u64,
    /// The card supports reliable write (so the host may advertise FUA).
    pub reliable_write: bool,
    /// The card's command queue depth (`card->ext_csd.cmdq_depth`): an eMMC's EXT_CSD
    /// CMDQ_DEPTH + 1, an SD card's 5-bit depth field of its performance enhancement register
    /// (`sd_parse_ext_reg_perf`, Raspberry Pi kernel 6.6). With command queueing the blk-mq tag
    /// set has min(this, the CQE's task slots) tags (`mmc_init_queue`, Linux 6.1).
    pub cmdq_depth: u32,
    /// `card->max_posted_writes` (Raspberry Pi kernel, June 2024, PR #6235): with command
    /// queueing `mmc_mq_queue_rq` refuses a write (BLK_STS_RESOURCE) while this many are queued.
    /// An SD card in a removable slot: 1 (`mmc_sd_init_card`); an eMMC: its queue depth.
    pub max_posted_writes: u32,
    /// The CQE sends a flush as a direct command in its DCMD slot (`MMC_CAP2_CQE_DCMD`,
    /// `mmc_blk_cqe_issue_flush`), queued beside the data tasks. Without it a flush is
    /// MMC_ISSUE_SYNC: it waits for the queue to empty (`mmc_blk_wait_for_idle`) and goes alone
    /// (`mmc_blk_issue_flush`). The Raspberry Pi kernel clears the capability for SD cards
    /// (`mmc_sd_init_card`): an SD cache flush is no CMD6.
    pub cqe_dcmd: bool,
    /// An SD card, not an eMMC: command queueing follows the Raspberry Pi kernel's rules for SD
    /// (`board/cq.rs`). Platform files written before it read as an eMMC.
    #[serde(default)]
    pub sd: bool,
}

/// A typical eMMC discard (CMD38 DISCARD): 2 ms of card busy per command. Not measured (no
/// calibration series has trims); well inside the JEDEC bound of 300 ms x TRIM_MULT.
pub const TYPICAL_TRIM_NS: u64 = 2_000_000;

fn default_trim_ns() -> u64 {
    TYPICAL_TRIM_NS
}

/// The presets' `max_discard_sectors`: the modelled device's 2 TiB, so a discard is one
/// request.
pub const NO_DISCARD_SPLIT: u64 = 1 << 32;

fn default_max_discard() -> u64 {
    NO_DISCARD_SPLIT
}

fn default_tprog() -> u64 {
    200_000
}

fn default_program_unit() -> u64 {
    32 * 1024
}

fn default_planes() -> u32 {
    2
}

fn default_page() -> u64 {
    16 * 1024
}

/// An internal channel fast enough never to limit the bus (for old platform data).
fn default_channel() -> u64 {
    800_000_000
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
    /// The host controller's model (SDHCI or MMCI timing), which the explanations name.
    pub controller: Controller,
    /// The host controller driver (drivers/mmc/host/): which host paths the board's kernel
    /// can run (`driver.rs`); one it cannot is a what-if.
    pub driver: HostDriver,
    /// The Linux version the measurements ran (`major.minor`): the kernel rules that changed
    /// between versions follow it (today the legacy path's CMD13 polling after a write,
    /// [`KernelVersion::busy_poll`]).
    pub kernel: KernelVersion,
    /// Host switches the platform runs with unless the scenario overrides them (the rows of
    /// `scenario::table::host`; `Scenario::effective_platform` applies the overrides).
    pub switches: HostConfig,
    pub host: HostTiming,
    pub bus: BusTiming,
    pub card: CardTiming,
    pub mmc_test: MmcTestTiming,
    /// How the service times vary around the fitted means ([`crate::variation`]).
    pub variation: VariationTiming,
}

/// The host controller driver of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Controller {
    /// SDHCI (drivers/mmc/host/sdhci.c): ADMA2 descriptors, ADMA3 chains.
    Sdhci,
    /// The ARM PL180 MMCI (drivers/mmc/host/mmci.c): one DMA job and one interrupt per request.
    Mmci,
}

impl Controller {
    /// The name the page and the explanations use.
    pub fn name(self) -> &'static str {
        match self {
            Controller::Sdhci => "SDHCI",
            Controller::Mmci => "MMCI",
        }
    }
}
