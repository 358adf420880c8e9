//! Spreadtrum: sdhci-sprd with ADMA3 and an HS400 ES eMMC (the packed-request RFC, 2020).

use super::{KIB, MB, MHZ, MIB};
use super::{PHONE_HSQ, PHONE_MMC_TEST, TLC_EMMC_2020};
use crate::board::platform::*;

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
    controller: Controller::Sdhci,
    driver: HostDriver::SdhciSprd,
    // Linux 5.8 (an estimate: the cover letter names no version): the RFC v2 is against
    // mmc-next of April 2020 (5.7-rc), the mmc tree of 5.8, which the host software queue it
    // builds on had just entered (so hsq is that kernel's own, no what-if). Before 5.15, so the
    // legacy path polls CMD13 back to back. The model carries no 5.8 block layer: it runs 6.1's
    // (a notice says so), under the fitted dispatch these figures are calibrated with.
    kernel: KernelVersion::new(5, 8),
    // The scheduler: none, with the fitted dispatch. The measured 4 KiB sequential figures are
    // those of requests that never merge (read 60.68 MiB/s, twice the random read's 31.36 from
    // the card's read-ahead alone): under mq-deadline the model's 20 jobs on one partition merge
    // while they wait for the window of two (read 173 MiB/s, write 184), and under the kernel's
    // dispatch without a scheduler the software queues merge them on the legacy path (read
    // 149 MiB/s against 59.66). So the authors' kernel merged almost nothing: no scheduler, and
    // requests that reached the driver from the submitting thread, which is what the fitted
    // dispatch models (a simplification: `--blk_dispatch=kernel` shows the kernel's rules). Its
    // bios still merge into their own job's waiting requests: 4 KiB sequential writes at libaio
    // iodepth 32 become 562 requests for 4096 bios.
    switches: PHONE_HSQ,
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
        // The completion as the kernel runs it (issue 28): the hard IRQ's part
        // (`mmc_blk_hsq_req_done` -> `blk_mq_complete_request`, 4 us) and the block softirq's
        // (`mmc_blk_cqe_complete_rq`, 10 us), typical of a Cortex-A55, not measured; the cores
        // share their L3 (DynamIQ), so no IPI. They replace the fitted 98 us pass, which stood
        // mostly for the wait of a refused request for its re-dispatch (with the next fio
        // submission re-dispatching it 30 us after in_flight--).
        irq_done_ns: 4_000,
        completion_ipi_ns: 0,
        completion_ns: 10_000,
        // kblockd's run after a completion, paid only by a request refused at the window of
        // three (or inserted behind one): fitted to the non-packed 4 KiB figures (read 60.68,
        // write 71.66 MiB/s), which pin the time from the interrupt to the refused request's
        // `queue_rq` (~170 us for a read): 112 us (was 70, when the next fio submission
        // re-dispatched first, 30 us after the 98 us pass). The legacy rows keep the fitted
        // stand-in (their dispatcher sleeps in `->queue_rq`, the next submission goes on).
        rerun_ns: 112_000,
        reap_ns: 10_000,
        legacy_wakeup_ns: 19_000,
        legacy_completion_ns: 16_000,
        // Fitted to the packed sequential read (229.6 MiB/s = 17 us per request): building the
        // chain's descriptors and the single completion pass cost ~6 us per chain of 8.
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
        cqhci_finish_ns: 4_000,
        adma3_chain_ns: 6_000,
        max_req_bytes: 512 * KIB,
        max_packed: 8,
        // Not stated in the source: the Spreadtrum/Unisoc phone SoCs with sdhci-sprd (SC9863A,
        // T610/T618) have 8 cores (Cortex-A55/A75).
        // The scheduler's CPU cost: Cortex-A55 at 1.8-2.0 GHz (the Unisoc T-series phones): about 2.5 times the 2012 laptop core (an estimate).
        sched_cpu_pct: 250,
        cpus: 8,
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
        // Non-packed random read is bus-bound at 125 us per request: 8 + 3 + 10.24 + ~100 us of
        // card access: tR 87 us + the 4 KiB over the internal channel (15.8 us).
        read_latency_random_ns: 87_000,
        nand_dies: 4,
        nand_planes: 2,
        // Not measured: the 16 KiB page of the 64-layer TLC of 2019-2020 eMMCs.
        nand_page_bytes: 16 * KIB,
        // Fitted to the 2019 large read of the same board (20 psync jobs of 1 MiB sequential
        // reads on the legacy path, 251 MiB/s, `[series.hsq-large-read-2019]`): 512 KiB requests
        // stream at the internal rate, well under HS400's 400 MB/s.
        nand_channel_bytes_per_sec: 260 * MB,
        random_read_hit_ppm: 0,
        read_ahead_bytes: 512 * KIB,
        write_accept_bytes_per_sec: 400 * MB,
        write_busy_ns: 7_000,
        cache_bytes: 4 * MIB,
        // Not measured; above the 177 MB/s of the packed 4 KiB writes so they never fill the cache.
        cache_hold_bytes: 512 * KIB,
        nand_program_bytes_per_sec: 200 * MB,
        // Not measured here (no FUA series): the 2022 Unisoc card's tPROG, unit and commit.
        reliable_write_fixed_ns: 76_400,
        nand_program_ns: 196_000,
        program_unit_bytes: 32 * KIB,
        // Fitted to the legacy random write (35.96 MiB/s = 108.6 us per 4 KiB write, against
        // 69.68 sequential): the card commits a random write for ~56 us after it releases DAT0.
        // Was 72 us while the model sent one CMD13 that the card answered only at the commit's
        // end; Linux 5.7 re-sends CMD13 back to back (`card_busy_detect`), a poll every 22 us
        // (the 3 us command + the 19 us wake-up), so the thread sees "ready" on average half a
        // poll after the commit ends (about 3 CMD13s per random write): 56 us gives 36.0 MiB/s.
        random_write_commit_ns: 56_000,
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
