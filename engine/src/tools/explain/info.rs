//! What each stage and layer is, and which kernel function stands for it.

use crate::board::Controller;
use crate::vocab::{MmcPath, Op, Stage};

/// The layers of the pipeline view, left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layer {
    Jobs,
    BlkMq,
    MmcQueue,
    HostQueue,
    Controller,
    Bus,
    Card,
}

impl Layer {
    pub const ALL: [Layer; 7] = [
        Layer::Jobs,
        Layer::BlkMq,
        Layer::MmcQueue,
        Layer::HostQueue,
        Layer::Controller,
        Layer::Bus,
        Layer::Card,
    ];
}

/// A titled explanation naming the kernel functions involved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Info {
    pub title: &'static str,
    pub kernel: &'static [&'static str],
    pub text: &'static str,
}

/// What a layer of the pipeline is (the host queue depends on the mmc path).
pub fn layer_info(layer: Layer, path: MmcPath) -> Info {
    match layer {
        Layer::Jobs => Info {
            title: "programs doing I/O (fio jobs)",
            kernel: &["pread/pwrite", "blk_mq_submit_bio"],
            text: "Each job is a thread issuing I/O. psync and sync keep one I/O outstanding per job; \
                   libaio and io_uring keep iodepth. Completion latency (clat) runs from the system call \
                   until the job sees the completion.",
        },
        Layer::BlkMq => Info {
            title: "block layer queue (blk-mq: one hardware queue, 64 tags)",
            kernel: &["blk_mq_get_tag", "blk_mq_dispatch_rq_list", "blk_mq_run_hw_queue"],
            text: "A request takes one of 64 tags and waits to be dispatched. The driver may refuse it \
                   with BLK_STS_RESOURCE: it then goes back on hctx->dispatch and is dispatched again \
                   when a request completes (the bounce you see).",
        },
        Layer::MmcQueue => Info {
            title: "driver's admission window (mmc queue)",
            kernel: &["mmc_mq_queue_rq", "mmc_blk_mq_issue_rq", "mmc_pre_req"],
            text: "mmc_mq_queue_rq counts requests in flight. With hsq it refuses once in_flight > \
                   hsq_depth, so the window is depth + 1. Accepted requests are built into CMD23 + \
                   CMD18/CMD25 and their buffers DMA-mapped, one queue_rq at a time.",
        },
        Layer::HostQueue => match path {
            MmcPath::Hsq => Info {
                title: "waiting slots (host software queue, hsq): 64 slots",
                kernel: &["mmc_hsq_request", "mmc_hsq_pump_requests", "mmc_hsq_finalize_request", "mmc_hsq_modify_threshold"],
                text: "Requests wait in slots indexed by their tag and go to the controller in FIFO order, \
                       exactly one at a time; the next one is pumped straight from the completion \
                       interrupt. With packing, hsq hands the controller a batch of up to N at once.",
            },
            MmcPath::Legacy => Info {
                title: "one request at a time (legacy path: one prepared request)",
                kernel: &["mmc_start_req", "mmc_pre_req", "mmc_post_req"],
                text: "One request on the bus. Non-blocking: the next request is prepared (DMA-mapped) \
                       while the current one transfers, and started from its completion. Blocking: \
                       map, transfer, wait, unmap, then the next.",
            },
            MmcPath::Cqe => Info {
                title: "card-side task queue (command queue engine, CQE: 31 task slots + 1 for commands, what if)",
                kernel: &["mmc_init_queue", "cqhci_request", "mmc_blk_cqe_issue_flush", "cqhci_irq", "cqhci_finish_mrq"],
                text: "Not in the measured patch series. The blk-mq tags are the CQE's depth, so they bound \
                       the queue. Tasks are queued on the card (CMD44/CMD45), the card prepares reads on \
                       several NAND dies at once, and the controller runs ready tasks back to back with \
                       no software between them; one interrupt finishes every task done by then. An \
                       eMMC flush is a direct command in the last slot, beside the tasks; on an SD card \
                       (Raspberry Pi kernel) one write is in the card at a time and a flush waits for \
                       the queue to empty.",
            },
        },
        Layer::Controller => Info {
            title: "host controller (SDHCI)",
            kernel: &["sdhci_request", "sdhci_irq", "sdhci_adma_table_pre"],
            text: "One request: an ADMA2 descriptor table, one command, one data transfer, one interrupt. \
                   Packed (ADMA3): command descriptors and ADMA2 tables for a whole batch joined in one \
                   chain, one interrupt at the end. Each request is still its own command on the bus.",
        },
        Layer::Bus => Info {
            title: "wires to the card (MMC bus)",
            kernel: &["CMD23 SET_BLOCK_COUNT", "CMD18 / CMD25", "CMD6 FLUSH_CACHE"],
            text: "Commands and data take turns: command, card access, data, card busy. The gaps \
                   between transfers are host software (interrupt, completion, pumping the next).",
        },
        Layer::Card => Info {
            title: "storage chip (eMMC / SD card)",
            kernel: &["mmc_blk_rw_rq_prep (reliable write)", "mmc_flush_cache"],
            text: "A read senses NAND pages (tR) across planes and dies and moves them over the \
                   card's internal channel; it starts sending once the first page is in its buffer. \
                   A sequential stream finds pages its read-ahead fetched meanwhile. Writes land in \
                   a volatile cache that is programmed to NAND in the background. A \
                   reliable write (what REQ_FUA becomes) and a cache flush hold the card busy until \
                   the data is in NAND.",
        },
    }
}

/// The host controller of a platform preset, as the page names it: the PL180 MMCI on the
/// U300 board (drivers/mmc/host/mmci.c), SDHCI on the others (drivers/mmc/host/sdhci.c), as
/// the preset's `controller` says; SDHCI for a name that is no preset.
pub fn controller_name(platform: &str) -> &'static str {
    crate::board::by_name(platform)
        .map_or(Controller::Sdhci, |p| p.controller)
        .name()
}

/// [`layer_info`] on a given platform: the controller column is the board's controller.
pub fn layer_info_on(layer: Layer, path: MmcPath, platform: &str) -> Info {
    match (layer, controller_name(platform)) {
        (Layer::Controller, "MMCI") => Info {
            title: "host controller (ARM PL180 MMCI)",
            kernel: &["mmci_request", "mmci_irq", "mmci_dma_start"],
            text:
                "One request at a time: the MMCI starts a DMA job for the data, sends the command \
                   and raises an interrupt when the transfer is over. No descriptor chains: every \
                   request costs one interrupt and one completion.",
        },
        _ => layer_info(layer, path),
    }
}

/// What a stage of a request's life is, for a request of kind `op`: a read's "card busy" is
/// only the end of its transfer, not a write waiting to be accepted.
pub fn stage_info_for(stage: Stage, op: Op) -> Info {
    match (stage, op) {
        (Stage::CardBusy, Op::Read) => Info {
            title: "end of the transfer (card busy)",
            kernel: &["CMD18", "CMD12 / CMD23 count"],
            text:
                "The last data block of the read is in; the card frees the bus. A read never holds \
                   DAT0 low the way a write does.",
        },
        (Stage::CardAccess, Op::Read) => Info {
            title: "card fetches the data (card access)",
            kernel: &["CMD18 READ_MULTIPLE_BLOCK"],
            text: "The card senses the first NAND page (tR), moves it over its internal \
                   channel, then sends; a sequential read finds it in the read-ahead buffer.",
        },
        (Stage::Command, Op::Read) => Info {
            title: "read command (CMD23 + CMD18)",
            kernel: &["CMD23 SET_BLOCK_COUNT", "CMD18 READ_MULTIPLE_BLOCK"],
            text: "The command and its response on the CMD line.",
        },
        (Stage::Command, Op::Write) => Info {
            title: "write command (CMD23 + CMD25)",
            kernel: &["CMD23 SET_BLOCK_COUNT", "CMD25 WRITE_MULTIPLE_BLOCK"],
            text: "The command and its response on the CMD line.",
        },
        _ => stage_info(stage),
    }
}

/// What a stage of a request's life is.
pub fn stage_info(stage: Stage) -> Info {
    let (title, kernel, text): (&str, &'static [&'static str], &str) = match stage {
        Stage::Submit => ("system call (pread/pwrite)", &["blk_mq_submit_bio"], "fio's read/write call builds a bio and inserts a request."),
        Stage::BlkMq => ("waiting in the block layer (blk-mq)", &["blk_mq_get_tag", "blk_mq_dispatch_rq_list"], "Waiting for a tag, in the I/O scheduler (or the software queue) for a dispatch, or refused by the driver and waiting on hctx->dispatch."),
        Stage::Issue => ("driver prepares it (queue_rq)", &["mmc_mq_queue_rq", "mmc_blk_mq_issue_rq", "dma_map_sg"], "The mmc driver builds the request and maps its buffer for DMA."),
        Stage::HostQueue => ("waiting for the controller (hsq slot)", &["mmc_hsq_request", "mmc_hsq_pump_requests"], "In an hsq slot (or prepared, or a CQE task) until the bus is free."),
        Stage::Command => ("read/write command (CMD23 + CMD18/CMD25)", &["CMD23 + CMD18/CMD25"], "The command and its response on the CMD line."),
        Stage::CardAccess => ("card fetches or makes room (card access)", &["NAND read / cache room"], "The card fetches the data (read) or makes room in its cache (write)."),
        Stage::Data => ("data on the wires (DAT lines)", &["ADMA2 descriptors"], "Data moves over the DAT lines at the bus mode's bandwidth."),
        Stage::CardBusy => ("card busy (DAT0 low)", &["reliable write", "CMD6 FLUSH_CACHE"], "The card holds DAT0 low until the write is accepted (cache) or programmed (reliable write, flush)."),
        Stage::Irq => ("hard interrupt (IRQ)", &["sdhci_irq", "mmc_hsq_finalize_request", "mmc_blk_hsq_req_done", "blk_mq_complete_request"], "The transfer is over; the interrupt handler finishes it, starts the next request and hands the completion to the block softirq."),
        Stage::Softirq => ("block softirq completion", &["blk_done_softirq", "mmc_blk_cqe_complete_rq", "dma_unmap_sg", "blk_mq_end_request"], "The block softirq (on the submitting CPU after an IPI when they share no cache) unmaps the buffer, ends the request, wakes its waiter and frees its place in the mmc queue."),
        Stage::Recovery => ("error recovery (CMD13, retry)", &["mmc_blk_mq_rw_recovery", "mmc_blk_reset"], "A data CRC error: CMD13 status, a retry, and a card reset before the last retry."),
        Stage::Complete => ("the job wakes (wake-up)", &["wake_up_process", "io_schedule"], "The waiting fio thread is woken, runs again and picks up the completion."),
        Stage::Done => ("done", &[], "The job has seen the completion."),
    };
    Info {
        title,
        kernel,
        text,
    }
}
