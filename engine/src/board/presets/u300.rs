//! ST-Ericsson U300: an ARM PL180 MMCI and an SD card (the non-blocking request series, 2011).

use super::MIB;
use crate::board::platform::*;
use crate::vocab::{BlkDispatch, HostConfig, HsqDepth, HsqDispatch, IoSched, MmcPath};

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
    controller: Controller::Mmci,
    driver: HostDriver::Mmci,
    // Linux 3.0: Per Forlin's v8 series is against 3.0-rc (merged for 3.1). mmc_test drives
    // the host itself, so no block-layer CMD13 poll runs in the calibrated cases.
    kernel: KernelVersion::new(3, 0),
    switches: HostConfig {
        mmc_path: MmcPath::Legacy,
        nonblocking: true,
        hsq_depth: HsqDepth::Fixed(2),
        hsq_dispatch: HsqDispatch::Fifo,
        packed: 0,
        fua: false,
        cache: false,
        // The scheduler: 2011's kernel (3.0) ran the single-queue block layer with CFQ, neither
        // of which the model has (nor Linux since 5.0); the figures are mmc_test's, which
        // bypasses the block layer, so they hold under any scheduler. fio on this board runs
        // blk-mq as a 6.1 kernel would by default for one hardware queue (`elevator.c`
        // `elevator_get_default`): mq-deadline, dispatched by kblockd, so bios merge into the
        // requests that wait while the legacy path's `->queue_rq` sleeps.
        iosched: IoSched::MqDeadline,
        dispatch: BlkDispatch::Kernel,
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
        // The hard IRQ's and the softirq's part of the completion of a fio request (mmc_test
        // completes its own): the former 30 us pass on the ARM926, split, sum kept.
        irq_done_ns: 10_000,
        completion_ipi_ns: 0,
        completion_ns: 20_000,
        rerun_ns: 30_000,
        reap_ns: 20_000,
        legacy_wakeup_ns: 0,
        legacy_completion_ns: 0,
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
        cqhci_finish_ns: 10_000,
        adma3_chain_ns: 0,
        max_req_bytes: 127 * 512,
        max_packed: 0,
        // The U300's single ARM926EJ-S.
        // The scheduler's CPU cost: ARM926EJ-S at 330 MHz: about 20 times slower than the 2012 laptop core (an estimate).
        sched_cpu_pct: 2000,
        cpus: 1,
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
        read_latency_seq_ns: 0,
        // The SD card reads ahead nothing (`read_ahead_bytes` 0): every mmc_test read (4 KiB and
        // 63.5 KiB, sequential) waits its own access of about 480 us: this tR (with the card's
        // command handling) plus its first page's bytes on the internal channel (5-20 us).
        read_latency_random_ns: 475_000,
        nand_dies: 1,
        nand_planes: 1,
        // Not measured: a 16 KiB page.
        nand_page_bytes: 16 * 1024,
        // Not measured: the reads are bus-bound (9.2 MB/s); a channel that does not limit them.
        nand_channel_bytes_per_sec: 800_000_000,
        random_read_hit_ppm: 0,
        read_ahead_bytes: 0,
        write_accept_bytes_per_sec: 9_200_000,
        // 4 KiB blocking write 1.419 ms vs 63.5 KiB 13.37 ms: the card programs 11.4 MB/s after
        // the data, plus ~523 us per write.
        write_busy_ns: 523_000,
        cache_bytes: 0,
        cache_hold_bytes: 0,
        nand_program_bytes_per_sec: 11_430_000,
        // The card has no reliable write (`reliable_write` false): unused. The figures that
        // make one cost what its writes do: 523 us + one 4 KiB page program per 4 KiB at its
        // 11.43 MB/s (358 us).
        reliable_write_fixed_ns: 523_000,
        nand_program_ns: 358_000,
        program_unit_bytes: 4 * 1024,
        random_write_commit_ns: 0,
        flush_fixed_ns: 0,
        trim_ns: TYPICAL_TRIM_NS,
        max_discard_sectors: NO_DISCARD_SPLIT,
        reliable_write: false,
        // Command queueing (a what-if: this SD card has no command queue) as the Raspberry Pi
        // kernel would run it on an SD card: the 5-bit depth field's most, one posted write in
        // a removable slot, no DCMD (flushes wait for the queue to empty).
        cmdq_depth: 31,
        max_posted_writes: 1,
        cqe_dcmd: false,
        sd: false,
    },
    mmc_test: MmcTestTiming { start_ns: 15_000, wait_done_ns: 15_000 },
    variation: MLC_SD_2011,
};
