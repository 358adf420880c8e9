//! Broadcom: the Raspberry Pi 5's sdhci-brcmstb with CQHCI and an A2 microSD card (2024).

use super::{KIB, MB, MHZ, MIB, TLC_EMMC_2020};
use crate::board::platform::*;
use crate::vocab::{BlkDispatch, HostConfig, HsqDepth, HsqDispatch, IoSched, MmcPath};

/// Raspberry Pi 5 (BCM2712, Cortex-A76), sdhci-brcmstb with a CQHCI, a SanDisk Extreme 64 GB A2
/// microSD at SDR104, fitted to the command-queueing-OFF figures of
/// `measurements.toml [board.rpi5-sd-2024]` (fio libaio, iodepth=32, direct, 256 MiB, ext4):
/// randread 4k 2540 IOPS, randwrite 4k 1147 IOPS, read 4m 92467 KB/s, write 4m 62751 KB/s.
///
/// The host path with CQ off is the plain mmc block path (`mmc_path=legacy`: blk-mq ->
/// `mmc_mq_queue_rq` -> `mmc_blk_mq_issue_rw_rq`): however deep fio's queue, one command at a
/// time is on the card, the next one prepared meanwhile; sdhci-brcmstb has no host software
/// queue. With `dtparam=sd_cqe` (raspberrypi/linux PR #6046) the CQHCI queues tasks on the card
/// (SD 6.0 command queueing: CMD44/CMD45 queue, CMD46/CMD47 execute, as eMMC's): that is
/// `mmc_path=cqe`, the prediction, under the rules the Raspberry Pi kernel (6.6) runs it with
/// since June 2024 (PR #6235): the tag set is the card's depth (31), reads queue up to it, one
/// write at a time is posted to the card (`card->max_posted_writes = 1` in a removable slot:
/// `mmc_mq_queue_rq` refuses a second write while CQE is on), and a flush is synchronous (no
/// DCMD for SD: it waits for the queue to empty, `mmc_blk_issue_flush`). Command queueing
/// needs the card's cache and power-off notification (`sd_parse_ext_reg_perf`): with `cache=0`,
/// or a `kernel` before 6.6, `mmc_path=cqe` warns and runs the legacy path (`board/cq.rs`).
/// The March 2024 rule (every queued write posted) is the what-if `max_posted_writes=31`.
/// In command-queueing mode the card itself posts writes: a write task is done once its data
/// is in the cache, and the card commits it later, a NAND page at a time (four 4 KiB writes
/// share one page's commit, where off CQ each is committed alone before the card answers:
/// `write_busy_ns`), so random writes go about 4.5 times faster with one write queued or 31
/// (`path/card/posted.rs`; no parameter of its own: the page and the OFF busy below).
///
/// - randread 4k 2540 IOPS = 394 us per read, one at a time: the card's access (tR with the
///   firmware's mapping lookup, about 320 us on an SD card, far above an eMMC's 50-100 us) plus
///   4 KiB on the bus (41 us) and the host's hand-off to the next command;
/// - randwrite 4k 1147 IOPS = 872 us per write: the card's busy time after a random write into
///   its cache (mapping update), CMD13-polled by the legacy path;
/// - read 4m 92.5 MB/s: bus-bound (SDR104, 4 data lines);
/// - write 4m 62.8 MB/s: the card programs its NAND at that rate once its cache is full.
///
/// What it assumes: SD cards have no reliable write (so no FUA) and no packed commands; the A2
/// card's cache is on (Linux enables an SD card's cache when the card reports one,
/// `sd_enable_cache`); 2 dies of 2 planes (64 GB of 256 Gbit TLC dies; not measured): what
/// command queueing can overlap. An A2 card must reach 4000 random-read and 2000 random-write
/// IOPS with its queue and cache on (SD 6.0 application performance class): the CQ-on
/// prediction should be of that order.
pub const RPI5_SD_2024: Platform = Platform {
    name: "rpi5-sd-2024",
    description: "Raspberry Pi 5, sdhci-brcmstb + CQHCI, SanDisk Extreme 64 GB A2 microSD at SDR104 (CQ off: legacy path)",
    source: "bretmlw/sbc-benchmarks, official-raspberry-pi-microsd-card-review.md (2024-10-17); fio job: Raspberry Pi agnostics sd_bench.fio",
    controller: Controller::Sdhci,
    driver: HostDriver::SdhciBrcmstb,
    // Raspberry Pi OS's kernel at the review (October 2024): rpi-6.6.y.
    kernel: KernelVersion::new(6, 6),
    switches: HostConfig {
        mmc_path: MmcPath::Legacy,
        nonblocking: true,
        hsq_depth: HsqDepth::Fixed(2),
        hsq_dispatch: HsqDispatch::Fifo,
        packed: 0,
        // SD has no reliable write: the host advertises no FUA.
        fua: false,
        cache: true,
        // The scheduler: Raspberry Pi OS's kernel (6.6) leaves the block layer's default, and
        // an mmcblk has one hardware queue, so `elevator_get_default` gives it mq-deadline. The
        // four figures hold under it (were within 0.2 % of these under the fitted dispatch).
        iosched: IoSched::MqDeadline,
        dispatch: BlkDispatch::Kernel,
    },
    host: HostTiming {
        // Typical Cortex-A76 figures at 2.4 GHz (not measured): ext4 O_DIRECT through libaio.
        submit_ns: 8_000,
        issue_ns: 4_000,
        dma_map_ns: 2_000,
        dma_unmap_read_ns: 3_000,
        dma_unmap_write_ns: 2_000,
        dma_per_kib_ns: 0,
        irq_to_next_cmd_ns: 5_000,
        // The hard IRQ's and the softirq's part of the completion on the CQE (the legacy path
        // completes with `legacy_completion_ns`): the former 5 us pass, split, sum kept.
        irq_done_ns: 2_000,
        completion_ipi_ns: 0,
        completion_ns: 3_000,
        rerun_ns: 5_000,
        reap_ns: 3_000,
        legacy_wakeup_ns: 10_000,
        legacy_completion_ns: 5_000,
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
        cqhci_finish_ns: 2_000,
        adma3_chain_ns: 0,
        // SDHCI's max_req_size (ADMA2): 512 KiB; a 4 MiB I/O is 8 requests.
        max_req_bytes: 512 * KIB,
        max_packed: 0,
        // BCM2712: four Cortex-A76 cores; fio's threads share them and their tag hints.
        // The scheduler's CPU cost: Cortex-A76 at 2.4 GHz: about as fast as the 2012 laptop core (an estimate).
        sched_cpu_pct: 100,
        cpus: 4,
    },
    // SDR104: 4 data lines, SDR; Linux runs the Pi 5's at 200 MHz (the SD ceiling is 208).
    // Fitted: the 4 MiB read's 92.5 MB/s is the bus's effective rate less the commands.
    bus: BusTiming {
        mode: BusMode::Legacy,
        clock_hz: 200 * MHZ,
        width: 4,
        rate_override: 93 * MB,
        cmd_fixed_ns: cmd_fixed_for(5_000, 200 * MHZ),
    },
    card: CardTiming {
        read_latency_seq_ns: 5_000,
        // Fitted: randread 4k, 394 us per read one at a time (see above).
        read_latency_random_ns: 320_000,
        nand_dies: 2,
        nand_planes: 2,
        // Not measured: the 16 KiB page of a TLC die of 2020-2024.
        nand_page_bytes: 16 * KIB,
        // Not measured: a channel that does not limit the 92 MB/s bus.
        nand_channel_bytes_per_sec: 400 * MB,
        random_read_hit_ppm: 0,
        read_ahead_bytes: 512 * KIB,
        write_accept_bytes_per_sec: 93 * MB,
        // Fitted: randwrite 4k, 872 us per write one at a time (see above).
        write_busy_ns: 800_000,
        // Not measured: an A2 card's cache of a few MiB.
        cache_bytes: 4 * MIB,
        cache_hold_bytes: 512 * KIB,
        // Fitted: write 4m, 62.8 MB/s once the cache is full.
        nand_program_bytes_per_sec: 62 * MB,
        // No reliable write on SD: the commit, tPROG and unit are not used.
        reliable_write_fixed_ns: 0,
        nand_program_ns: 400_000,
        program_unit_bytes: 32 * KIB,
        random_write_commit_ns: 0,
        // SD's cache flush (CMD49 write to the performance-enhancement register): typical.
        flush_fixed_ns: 1_000_000,
        trim_ns: TYPICAL_TRIM_NS,
        max_discard_sectors: NO_DISCARD_SPLIT,
        reliable_write: false,
        // Command queueing as the Raspberry Pi kernel runs it on SD (6.6, PR #6235): an A2
        // card reports the 5-bit depth field's most (31 tags, `sd_parse_ext_reg_perf`); in
        // the Pi's removable slot one write queued at a time (`max_posted_writes = 1`); no
        // DCMD for SD, so a flush waits for the queue to empty and goes alone.
        cmdq_depth: 31,
        max_posted_writes: 1,
        cqe_dcmd: false,
        sd: true,
    },
    mmc_test: MmcTestTiming {
        start_ns: 5_000,
        wait_done_ns: 5_000,
    },
    variation: TLC_EMMC_2020,
};
