//! QEMU: the emulated SDHCI host over PCI with an SD card (`-device sdhci-pci -device
//! sd-card`), the machine the kernel oracle boots (`oracle/`, Linux 6.1 under QEMU 7.2's TCG).
//! It is there to judge the model's logic against the kernel's, not its timing.

use super::{KIB, MB, MHZ, MIB};
use crate::board::platform::*;
use crate::variation::VariationTiming;
use crate::vocab::{BlkDispatch, HostConfig, HsqDepth, HsqDispatch, IoSched, MmcPath};

/// QEMU 7.2's `sdhci-pci` (SD Host Controller 2.0 over PCI, ADMA2, no hsq, no CQE) and
/// `sd-card` (SD physical layer 2.0: no CMD23, no cache, no FUA, 4 data lines), as the kernel
/// oracle sees it (`oracle/fixtures/sd-1cpu.json`): `max_sectors_kb` 512, `max_segments` 128,
/// 64 KiB segments, `write_cache` "write through", `fua` 0, mq-deadline by default (the
/// kernel's choice for a single-queue device), the mainline (6.1) legacy path: the next request
/// prepared during the transfer, the dispatcher asleep in `->queue_rq` for the one before, a
/// CMD13 status poll after every write.
///
/// Timing is the emulator's, not hardware's: QEMU's card finishes a transfer inside the
/// register write that starts it and is never busy. The figures below are round numbers for a
/// TCG-emulated x86 CPU (a system call and a kernel path in tens of microseconds, a highpri
/// kworker that preempts fio as soon as it is woken: a small `rerun_ns`), chosen so that, as
/// under QEMU with one vCPU, requests do not pile up where they would merge. They are not fitted
/// to the oracle's fio figures and no calibration case uses them.
pub const QEMU_SDHCI_PCI: Platform = Platform {
    name: "qemu-sdhci-pci",
    description: "QEMU sdhci-pci + sd-card (SD 2.0, no CMD23, no cache), the kernel oracle's machine (Linux 6.1, TCG)",
    source: "QEMU 7.2 hw/sd/sdhci-pci.c and hw/sd/sd.c; the queue limits and request stream of oracle/fixtures/sd-1cpu.json",
    controller: Controller::Sdhci,
    driver: HostDriver::SdhciPci,
    // The kernel the oracle boots (`oracle/config.sh`): Linux 6.1.
    kernel: KernelVersion::new(6, 1),
    switches: HostConfig {
        mmc_path: MmcPath::Legacy,
        nonblocking: true,
        hsq_depth: HsqDepth::Fixed(2),
        hsq_dispatch: HsqDispatch::Fifo,
        packed: 0,
        // SD has no reliable write: no FUA; and QEMU's card has no cache.
        fua: false,
        cache: false,
        iosched: IoSched::MqDeadline,
        dispatch: BlkDispatch::Kernel,
    },
    host: HostTiming {
        submit_ns: 40_000,
        issue_ns: 20_000,
        dma_map_ns: 5_000,
        dma_unmap_read_ns: 5_000,
        dma_unmap_write_ns: 5_000,
        dma_per_kib_ns: 0,
        irq_to_next_cmd_ns: 2_000,
        // The hard IRQ's and the softirq's part of the completion off the legacy path: the
        // former 5 us pass, split, sum kept.
        irq_done_ns: 2_000,
        completion_ipi_ns: 0,
        completion_ns: 3_000,
        rerun_ns: 5_000,
        reap_ns: 20_000,
        legacy_wakeup_ns: 2_000,
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
        // SDHCI's ADMA2 limits: max_sectors_kb 512 (128 segments of 4 KiB pages).
        max_req_bytes: 512 * KIB,
        max_packed: 0,
        // A TCG vCPU: about ten times slower than the 2012 laptop core (an estimate).
        sched_cpu_pct: 1000,
        // One vCPU, as the fixtures' timing-free view.
        cpus: 1,
    },
    bus: BusTiming {
        mode: BusMode::Legacy,
        clock_hz: 50 * MHZ,
        width: 4,
        // The emulated card moves data as fast as QEMU copies it, inside the register write
        // that starts the transfer: next to nothing against the emulated CPU's path.
        rate_override: 4_000 * MB,
        cmd_fixed_ns: cmd_fixed_for(5_000, 50 * MHZ),
    },
    card: CardTiming {
        read_latency_seq_ns: 1_000,
        read_latency_random_ns: 1_000,
        nand_dies: 1,
        nand_planes: 1,
        nand_page_bytes: 4 * KIB,
        nand_channel_bytes_per_sec: 1_000 * MB,
        random_read_hit_ppm: 0,
        read_ahead_bytes: 0,
        write_accept_bytes_per_sec: 400 * MB,
        write_busy_ns: 1_000,
        cache_bytes: 4 * MIB,
        cache_hold_bytes: 0,
        nand_program_bytes_per_sec: 400 * MB,
        reliable_write_fixed_ns: 0,
        nand_program_ns: 1_000,
        program_unit_bytes: 4 * KIB,
        random_write_commit_ns: 0,
        flush_fixed_ns: 1_000,
        trim_ns: 1_000,
        max_discard_sectors: NO_DISCARD_SPLIT,
        reliable_write: false,
        // An SD 2.0 card has no command queue (no performance enhancement register), and the
        // oracle's mainline kernel has no SD command queueing: `mmc_path=cqe` runs the legacy
        // path with a warning (`board/cq.rs`). With `cmdq_depth` raised and a Raspberry Pi
        // kernel's version it runs as that kernel would: one posted write in a removable slot,
        // no DCMD (flushes wait for the queue to empty).
        cmdq_depth: 0,
        max_posted_writes: 1,
        cqe_dcmd: false,
        sd: true,
    },
    mmc_test: MmcTestTiming {
        start_ns: 10_000,
        wait_done_ns: 10_000,
    },
    variation: VariationTiming::FIXED,
};
