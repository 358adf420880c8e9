//! Unisoc: sdhci-sprd with an eMMC, measured for the FUA patch (2022) and the dynamic hsq
//! depth (2023).

use super::{KIB, MB, MHZ, MIB};
use super::{PHONE_HSQ, PHONE_MMC_TEST, TLC_EMMC_2020};
use crate::board::platform::*;
use crate::vocab::{BlkDispatch, HostConfig, HsqDepth, IoSched};

/// Unisoc SDHCI with an eMMC with write cache and reliable write (Wenchao Chen's FUA patch, 2022).
///
/// One synchronous job (AndroBench on F2FS, see engine/data/measurements.toml): every part of
/// the path is serial, so the per-request software time adds straight to each I/O.
/// - random write FUA off 70.32 MiB/s = 55.5 us, FUA on 12.68 MiB/s = 308 us. With FUA off the
///   block layer sends each O_SYNC (REQ_FUA) write as a write into the cache plus a post-flush
///   (`blk_flush.rs`); with FUA on, one reliable write (commit + program, ~250 us more per
///   4 KiB). Either way the synchronous pwrite then sends `generic_write_sync`'s flush (an
///   empty one with FUA on). The patch trades a reliable write for a write plus a flush. It
///   never reached mainline: Linux 6.4 added a card quirk instead (`MMC_QUIRK_AVOID_REL_WRITE`,
///   `mmc_blk_alloc_req`: a card with it and its cache on advertises no FUA), so `fua=0` stands
///   for such a card, `fua=1` for every other card with reliable write. The calibration runs
///   one raw O_SYNC write per I/O (`fs=raw`), standing for AndroBench on F2FS: what f2fs
///   sends is not that. Linux 6.1's `f2fs_do_sync_file` (`fs=f2fs`) sends the data write, the
///   node block and an empty flush, none with REQ_FUA, so under it the FUA switch changes
///   nothing: 46.7 MiB/s 4 KiB random writes either way (measured 70.32 / 12.68), 197.9 MiB/s
///   512 KiB writes (200.5 / 149.48). PREFLUSH|FUA on the node write comes only with `atomic`
///   (`fs=f2fs-atomic`: an atomic write's commit, or `fsync_mode=strict` on an inode needing
///   no update): 44.9 / 11.7 MiB/s and 196.6 / 179.0 MiB/s. Neither fits: the FUA-off
///   figure (55.5 us per write) leaves room for about two requests of this host, not two
///   writes and one or two flushes; the raw model's host and card times hold what the
///   benchmark's file system sent;
/// - sequential 512 KiB read 265.74 MiB/s = 1.88 ms: ~285 MB/s effective bus bandwidth;
/// - random read 98.81 MiB/s = 39.5 us, below a NAND read: AndroBench reads back the file it has
///   just written, so most reads hit the card's buffer (`random_read_hit_ppm`).
pub const UNISOC_FUA_2022: Platform = Platform {
    name: "unisoc-fua-2022",
    description:
        "Unisoc sdhci-sprd, eMMC with cache + reliable write, hsq, one sync job (FUA patch, 2022)",
    source:
        "Wenchao Chen, '[PATCH] mmc: block: Support Host to control FUA', linux-mmc, 2022-10-20",
    controller: Controller::Sdhci,
    driver: HostDriver::SdhciSprd,
    // Linux 6.1 (an estimate: the patch names no version): its base, mmc-next of October 2022
    // (6.1-rc). The calibrated figures run hsq, which never polls CMD13.
    kernel: KernelVersion::new(6, 1),
    // The scheduler: none, with the fitted dispatch. AndroBench on F2FS, modelled as a raw
    // O_SYNC job: under the kernel's dispatch each O_SYNC write's two flush requests go through
    // kblockd's requeue work (`blk_kick_flush`), and the 55.5 us per write (FUA off) leaves no
    // room for two worker wake-ups (randwrite 43.6 MiB/s at 10 us each, 57 at 3 us against
    // 70.32). Which scheduler Android ran is not stated; `--ioscheduler=mq-deadline` shows it.
    switches: PHONE_HSQ,
    host: HostTiming {
        // One synchronous job: all of it is on the critical path. Fitted with the random read
        // (39.5 us per 4 KiB read = ~15 us software + 3 us command + 14.5 us data + 2 us access
        // + the NAND reads that miss the buffer) and the 4 KiB random write FUA off, three
        // requests per O_SYNC write (write, post-flush, `generic_write_sync`'s flush): issue,
        // IRQ gap and completion 2 us each (were 3, 4 and 3 us before the flushes were sent).
        submit_ns: 4_000,
        issue_ns: 2_000,
        dma_map_ns: 1_000,
        dma_unmap_read_ns: 1_000,
        dma_unmap_write_ns: 1_000,
        dma_per_kib_ns: 0,
        irq_to_next_cmd_ns: 2_000,
        // The completion, 2 us in all as fitted before it was split: the hard IRQ's part
        // (`blk_mq_complete_request`) and the softirq's (`mmc_blk_cqe_complete_rq`), 1 us each.
        // One synchronous job: nothing is ever refused, so kblockd never runs.
        irq_done_ns: 1_000,
        completion_ipi_ns: 0,
        completion_ns: 1_000,
        rerun_ns: 10_000,
        reap_ns: 2_000,
        legacy_wakeup_ns: 19_000,
        legacy_completion_ns: 16_000,
        // Command queueing (a what-if): a GIC interrupt's entry and cqhci_irq reading
        // CQHCI_IS and TCN; typical, not measured.
        cqhci_irq_ns: 5_000,
        // Command queueing (a what-if): halting the CQE before a command it does not queue;
        // typical, not measured.
        cqhci_halt_ns: 5_000,
        // Command queueing (a what-if): cqhci_request's descriptors and doorbell; 0, the
        // issue being issue_ns alone as before this parameter (not measured).
        cqhci_request_ns: 0,
        // Command queueing (a what-if): each task's completion in cqhci_irq
        // (cqhci_finish_mrq): irq_done_ns, what the CQE charged before (not measured).
        cqhci_finish_ns: 1_000,
        adma3_chain_ns: 6_000,
        max_req_bytes: 512 * KIB,
        max_packed: 8,
        // Not stated in the source: the Spreadtrum/Unisoc phone SoCs with sdhci-sprd (SC9863A,
        // T610/T618) have 8 cores (Cortex-A55/A75).
        // The scheduler's CPU cost: Cortex-A55 at 1.8-2.0 GHz: about 2.5 times the 2012 laptop core (an estimate).
        sched_cpu_pct: 250,
        cpus: 8,
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
        // tR: the 60 us card access of a random 4 KiB read (MODEL.md) less its 5.1 us on the
        // internal channel.
        read_latency_random_ns: 55_000,
        nand_dies: 4,
        nand_planes: 2,
        // Not measured: the 16 KiB page of the TLC eMMCs of 2020-2023.
        nand_page_bytes: 16 * KIB,
        // Not measured: no series reads faster than its bus, so a channel that never limits
        // one (512 KiB reads are bus-bound here).
        nand_channel_bytes_per_sec: 800 * MB,
        // AndroBench reads back the file it has just written: nearly every 4 KiB random read is
        // served from the card's buffer (98.81 MiB/s = 39.5 us per read leaves little room for
        // NAND reads): 94 % (was 98 % with 4 us more host software per request).
        random_read_hit_ppm: 940_000,
        read_ahead_bytes: 512 * KIB,
        write_accept_bytes_per_sec: 282 * MB,
        // 4 KiB random write FUA off: 55.5 us = write (~15 us software + 3 + 14.5 + 1 us busy)
        // + post-flush + `generic_write_sync`'s flush (~12 us software, CMD6 and
        // `flush_fixed_ns` each). Was 20 us when the model acknowledged the write from the cache
        // with no flush.
        write_busy_ns: 1_000,
        // Small cache programmed as the data arrives (no hold: was 512 KiB before the
        // post-flush): the 512 KiB sequential write with FUA off (200.5 MiB/s = 2.49 ms) is
        // the transfer (1.86 ms at 282 MB/s) with the program overlapping it, then the
        // post-flush waits for the rest: 512 KiB at 215 MB/s (was 210) = 2.44 ms of program.
        // A cache that holds one program unit (32 KiB: what a card keeps until a page pair is
        // full) makes every flush behind a 4 KiB write wait for its program (19 us at 215
        // MB/s): 4 KiB random writes FUA off 49.6 MiB/s raw, 32.1 with `fs=f2fs` (measured
        // 70.32), with no time left in the read-fitted host to give back; so no hold, and a
        // plain write is lost at a cut only while it is being programmed.
        cache_bytes: 2 * MIB,
        cache_hold_bytes: 0,
        nand_program_bytes_per_sec: 215 * MB,
        // 4 KiB FUA write 308 us and 512 KiB FUA write 3.345 ms (263 us + size / 171 MB/s over
        // the data): one 32 KiB program unit (16 KiB pages on 2 planes) takes tPROG 196 us, an
        // SLC-mode program, and the commit 62 us: 14.5 + 196 + 62 = 273 us of card time for
        // 4 KiB, 116 + 16 x 196 + 62 = 3314 us for 512 KiB (programs outpace the bus); the
        // commit was 76.4 us before the O_SYNC write's `generic_write_sync` flush (~20 us) was
        // sent after it.
        reliable_write_fixed_ns: 62_000,
        nand_program_ns: 196_000,
        program_unit_bytes: 32 * KIB,
        random_write_commit_ns: 0,
        // CMD6 FLUSH_CACHE on a cache already programmed: its fixed busy time. Fitted with the
        // 4 KiB random write FUA off (write + two flushes = 55.5 us leaves ~1 us each); was
        // 200 us, never measured, when no O_SYNC write was followed by a flush.
        flush_fixed_ns: 1_000,
        trim_ns: TYPICAL_TRIM_NS,
        max_discard_sectors: NO_DISCARD_SPLIT,
        reliable_write: true,
        // Command queueing (a what-if on this board): an eMMC 5.1 queue of 32 (EXT_CSD
        // CMDQ_DEPTH 31 + 1), no limit on queued writes, flushes as DCMDs.
        cmdq_depth: 32,
        max_posted_writes: 32,
        cqe_dcmd: true,
        sd: false,
    },
    mmc_test: PHONE_MMC_TEST,
    variation: TLC_EMMC_2020,
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
        "Unisoc sdhci-sprd, eMMC, hsq without packing, 8 psync jobs (dynamic hsq depth, 2023, a patch on Linux 6.6)",
    source: "Wenchao Chen, 'mmc: hsq: dynamic adjustment of hsq->depth' v4, linux-mmc, 2023-09",
    controller: Controller::Sdhci,
    driver: HostDriver::SdhciSprd,
    // Linux 6.6 (an estimate: the patch names no version): the base of v4, mmc-next of
    // September 2023 (6.6-rc). The calibrated figures run hsq, which never polls CMD13. The
    // paper measured the dynamic depth as a patch on 6.6 (mainline took it in 6.7): the preset
    // runs it by default, labelled as that what-if; `kernel=6.12` runs it as the kernel's own
    // rule, and 6.6's block layer rules run here (`board/kernel_rules.rs`).
    kernel: KernelVersion::new(6, 6),
    switches: HostConfig {
        hsq_depth: HsqDepth::Dynamic,
        // The scheduler: mq-deadline with the kernel's dispatch. Nothing in the series sets
        // one, so the kernel's default (`elevator_get_default`: mq-deadline for one hardware
        // queue) is the likelier; the figures hold under it with kblockd's wake-up at 10 us.
        iosched: IoSched::MqDeadline,
        dispatch: BlkDispatch::Kernel,
        ..PHONE_HSQ
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
        // The completion as the kernel runs it (issue 28): the hard IRQ's part
        // (`blk_mq_complete_request`, 3 us) and the block softirq's (`mmc_blk_cqe_complete_rq`,
        // 8 us), typical of a Cortex-A55, not measured; no IPI (the cores share their L3). They
        // replace the fitted 58 us pass (71.5 us before service times varied), which stood for
        // the time a refused request waits for its re-dispatch.
        irq_done_ns: 3_000,
        completion_ipi_ns: 0,
        completion_ns: 8_000,
        // kblockd's worker waking on a Cortex-A55 to run the queue (`blk_mq_run_work_fn`):
        // fitted to the 4 KiB random write at depth 2 (82.87 MiB/s; dynamic +3.3 %, measured
        // +4.6 %): 70 us (was 10 us beside the 58 us pass). Under mq-deadline every request is
        // inserted and run by kblockd (`blk_mq_submit_bio` -> `blk_mq_run_hw_queue(hctx,
        // true)`), at one request outstanding too, so this wake-up is on every request's path.
        rerun_ns: 70_000,
        reap_ns: 5_000,
        legacy_wakeup_ns: 19_000,
        legacy_completion_ns: 30_000,
        // Command queueing (a what-if): a GIC interrupt's entry and cqhci_irq reading
        // CQHCI_IS and TCN; typical, not measured.
        cqhci_irq_ns: 5_000,
        // Command queueing (a what-if): halting the CQE before a command it does not queue;
        // typical, not measured.
        cqhci_halt_ns: 5_000,
        // Command queueing (a what-if): cqhci_request's descriptors and doorbell; 0, the
        // issue being issue_ns alone as before this parameter (not measured).
        cqhci_request_ns: 0,
        // Command queueing (a what-if): each task's completion in cqhci_irq
        // (cqhci_finish_mrq): irq_done_ns, what the CQE charged before (not measured).
        cqhci_finish_ns: 3_000,
        adma3_chain_ns: 6_000,
        max_req_bytes: 512 * KIB,
        max_packed: 8,
        // Not stated in the source: the Spreadtrum/Unisoc phone SoCs with sdhci-sprd (SC9863A,
        // T610/T618) have 8 cores (Cortex-A55/A75).
        // The scheduler's CPU cost: Cortex-A55 at 1.8-2.0 GHz: about 2.5 times the 2012 laptop core (an estimate).
        sched_cpu_pct: 250,
        cpus: 8,
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
        // tR: the 60 us card access of a random 4 KiB read (MODEL.md) less its 5.1 us on the
        // internal channel.
        read_latency_random_ns: 55_000,
        nand_dies: 4,
        nand_planes: 2,
        // Not measured: the 16 KiB page of the TLC eMMCs of 2020-2023.
        nand_page_bytes: 16 * KIB,
        // Not measured: no series reads faster than its bus, so a channel that never limits
        // one (512 KiB reads are bus-bound here).
        nand_channel_bytes_per_sec: 800 * MB,
        random_read_hit_ppm: 0,
        read_ahead_bytes: 512 * KIB,
        // Writes into the cache take 14.6 us + size / 193 MB/s (MODEL.md).
        write_accept_bytes_per_sec: 193 * MB,
        write_busy_ns: 14_600,
        cache_bytes: 4 * MIB,
        // 512 KiB sequential write 165.67 MiB/s = 174 MB/s: the cache is full, NAND sets the pace.
        cache_hold_bytes: 512 * KIB,
        nand_program_bytes_per_sec: 174 * MB,
        // Not measured here (no FUA series): the 2022 Unisoc card's tPROG, unit and commit.
        reliable_write_fixed_ns: 76_400,
        nand_program_ns: 196_000,
        program_unit_bytes: 32 * KIB,
        random_write_commit_ns: 0,
        flush_fixed_ns: 200_000,
        trim_ns: TYPICAL_TRIM_NS,
        max_discard_sectors: NO_DISCARD_SPLIT,
        reliable_write: true,
        // Command queueing (a what-if on this board): an eMMC 5.1 queue of 32 (EXT_CSD
        // CMDQ_DEPTH 31 + 1), no limit on queued writes, flushes as DCMDs.
        cmdq_depth: 32,
        max_posted_writes: 32,
        cqe_dcmd: true,
        sd: false,
    },
    mmc_test: PHONE_MMC_TEST,
    variation: TLC_EMMC_2020,
};
