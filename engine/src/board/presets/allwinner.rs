//! Allwinner: a phone SoC with an eMMC under Android 13 (the hsq FIFO-dispatch patch, 2022).

use super::{KIB, MB, MHZ, MIB, PHONE_HSQ, PHONE_MMC_TEST};
use crate::board::platform::*;
use crate::vocab::{HostConfig, MmcPath};

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
    controller: Controller::Sdhci,
    driver: HostDriver::SunxiMmc,
    // Linux 5.10 (an estimate: the patch names no version): Android 13 phones of 2022 ran the
    // android12/13-5.10 GKI kernels. The calibrated figures are reads, which poll no CMD13.
    kernel: KernelVersion::new(5, 10),
    switches: HostConfig {
        mmc_path: MmcPath::Legacy,
        // The scheduler: none. The measured clat spread (p10-p90 963-1172 us) is that of
        // first-come service; under mq-deadline the model's sector-sorted batches widen it to
        // 823-1319 us (p1 -23 %, p95 +13 %) at the same IOPS, so the phone most likely ran
        // without a scheduler (Android's init scripts commonly set it; not stated in the source).
        // The dispatch stays the fitted one: the calibrated figures are the same under the
        // kernel's, but the two held-out boards fitted on this preset (BananaPi M64, NanoPi M4,
        // engine/tests/boards) then predict a left-out 4 KiB sequential read 76 % high.
        iosched: crate::vocab::IoSched::None,
        dispatch: crate::vocab::BlkDispatch::Fitted,
        ..PHONE_HSQ
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
        // The completion on the calibrated (legacy) path is `legacy_completion_ns`; on hsq or
        // the CQE the hard IRQ's part and the softirq's, split from the former 40 us pass with
        // the sum kept (no measurement of this board runs them).
        irq_done_ns: 5_000,
        completion_ipi_ns: 0,
        completion_ns: 35_000,
        rerun_ns: 30_000,
        reap_ns: 8_000,
        legacy_wakeup_ns: 27_000,
        legacy_completion_ns: 15_000,
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
        cqhci_finish_ns: 5_000,
        adma3_chain_ns: 0,
        max_req_bytes: 512 * KIB,
        max_packed: 0,
        // The SoC is not named; Allwinner's Android SoCs of 2022 with eMMC (A133, H616/H618,
        // R818) are quad-core Cortex-A53. fio's 8 threads share 4 CPUs and their tag hints.
        // The scheduler's CPU cost: Cortex-A53 at 1.5 GHz: about 3.5 times the 2012 laptop core (an estimate).
        sched_cpu_pct: 350,
        cpus: 4,
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
        // tR: the 82 us card access of a random 4 KiB read less its 5.1 us on the internal channel.
        read_latency_random_ns: 77_000,
        nand_dies: 4,
        nand_planes: 2,
        // Not measured: the 16 KiB page of a 2022 TLC eMMC.
        nand_page_bytes: 16 * KIB,
        // Not measured (4 KiB reads only): a channel that never limits the HS200 bus.
        nand_channel_bytes_per_sec: 800 * MB,
        random_read_hit_ppm: 0,
        read_ahead_bytes: 128 * KIB,
        write_accept_bytes_per_sec: 200 * MB,
        write_busy_ns: 10_000,
        cache_bytes: 4 * MIB,
        cache_hold_bytes: 512 * KIB,
        nand_program_bytes_per_sec: 150 * MB,
        // Not measured (4 KiB reads only): the 2022 Unisoc card's tPROG, unit and commit.
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
