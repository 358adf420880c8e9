//! Plain-words explanations for the UI's "What is happening" panel: what each stage and layer
//! is, which kernel function stands for it, and what the current run shows, with every figure
//! taken from the simulated events (the report), never from a formula.

use crate::report::Report;
use crate::scenario::{HostConfig, HsqDepth, MmcPath};
use crate::trace::Stage;

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
            title: "fio jobs",
            kernel: &["pread/pwrite", "blk_mq_submit_bio"],
            text: "Each job is a thread issuing I/O. psync and sync keep one I/O outstanding per job; \
                   libaio and io_uring keep iodepth. Completion latency (clat) runs from the system call \
                   until the job sees the completion.",
        },
        Layer::BlkMq => Info {
            title: "blk-mq (one hardware queue, 64 tags)",
            kernel: &["blk_mq_get_tag", "blk_mq_dispatch_rq_list", "blk_mq_run_hw_queue"],
            text: "A request takes one of 64 tags and waits to be dispatched. The driver may refuse it \
                   with BLK_STS_RESOURCE: it then goes back on hctx->dispatch and is dispatched again \
                   when a request completes (the bounce you see).",
        },
        Layer::MmcQueue => Info {
            title: "mmc queue window",
            kernel: &["mmc_mq_queue_rq", "mmc_blk_mq_issue_rq", "mmc_pre_req"],
            text: "mmc_mq_queue_rq counts requests in flight. With hsq it refuses once in_flight > \
                   hsq_depth, so the window is depth + 1. Accepted requests are built into CMD23 + \
                   CMD18/CMD25 and their buffers DMA-mapped, one queue_rq at a time.",
        },
        Layer::HostQueue => match path {
            MmcPath::Hsq => Info {
                title: "host software queue (hsq): 64 slots",
                kernel: &["mmc_hsq_request", "mmc_hsq_pump_requests", "mmc_hsq_finalize_request", "mmc_hsq_modify_threshold"],
                text: "Requests wait in slots indexed by their tag and go to the controller in FIFO order, \
                       exactly one at a time; the next one is pumped straight from the completion \
                       interrupt. With packing, hsq hands the controller a batch of up to N at once.",
            },
            MmcPath::Legacy => Info {
                title: "legacy path: one prepared request",
                kernel: &["mmc_start_req", "mmc_pre_req", "mmc_post_req"],
                text: "One request on the bus. Non-blocking: the next request is prepared (DMA-mapped) \
                       while the current one transfers, and started from its completion. Blocking: \
                       map, transfer, wait, unmap, then the next.",
            },
            MmcPath::Cqe => Info {
                title: "command queue engine: 31 task slots (what if)",
                kernel: &["cqhci_request", "cqhci_irq", "cqhci_finish_mrq"],
                text: "Not in the measured patch series. Tasks are queued on the card (CMD44/CMD45), the \
                       card prepares reads on several NAND dies at once, and the controller runs ready \
                       tasks back to back with no software between them.",
            },
        },
        Layer::Controller => Info {
            title: "SDHCI host controller",
            kernel: &["sdhci_request", "sdhci_irq", "sdhci_adma_table_pre"],
            text: "One request: an ADMA2 descriptor table, one command, one data transfer, one interrupt. \
                   Packed (ADMA3): command descriptors and ADMA2 tables for a whole batch joined in one \
                   chain, one interrupt at the end. Each request is still its own command on the bus.",
        },
        Layer::Bus => Info {
            title: "MMC bus",
            kernel: &["CMD23 SET_BLOCK_COUNT", "CMD18 / CMD25", "CMD6 FLUSH_CACHE"],
            text: "Commands and data take turns: command, card access, data, card busy. The gaps \
                   between transfers are host software (interrupt, completion, pumping the next).",
        },
        Layer::Card => Info {
            title: "eMMC / SD card",
            kernel: &["mmc_blk_rw_rq_prep (reliable write)", "mmc_flush_cache"],
            text: "Reads come from a read-ahead buffer (sequential) or a NAND page read (random). \
                   Writes land in a volatile cache that is programmed to NAND in the background. A \
                   reliable write (what REQ_FUA becomes) and a cache flush hold the card busy until \
                   the data is in NAND.",
        },
    }
}

/// What a stage of a request's life is.
pub fn stage_info(stage: Stage) -> Info {
    let (title, kernel, text): (&str, &'static [&'static str], &str) = match stage {
        Stage::Submit => ("system call", &["blk_mq_submit_bio"], "fio's read/write call builds a bio and inserts a request."),
        Stage::BlkMq => ("waiting in blk-mq", &["blk_mq_get_tag", "blk_mq_dispatch_rq_list"], "Waiting for a tag, or refused by the driver and waiting on hctx->dispatch."),
        Stage::Issue => ("queue_rq", &["mmc_mq_queue_rq", "mmc_blk_mq_issue_rq", "dma_map_sg"], "The mmc driver builds the request and maps its buffer for DMA."),
        Stage::HostQueue => ("waiting for the controller", &["mmc_hsq_request", "mmc_hsq_pump_requests"], "In an hsq slot (or prepared, or a CQE task) until the bus is free."),
        Stage::Command => ("command", &["CMD23 + CMD18/CMD25"], "The command and its response on the CMD line."),
        Stage::CardAccess => ("card access", &["NAND read / cache room"], "The card fetches the data (read) or makes room in its cache (write)."),
        Stage::Data => ("data transfer", &["ADMA2 descriptors"], "Data moves over the DAT lines at the bus mode's bandwidth."),
        Stage::CardBusy => ("card busy", &["reliable write", "CMD6 FLUSH_CACHE"], "The card holds DAT0 low until the write is accepted (cache) or programmed (reliable write, flush)."),
        Stage::Irq => ("interrupt + completion pass", &["sdhci_irq", "mmc_hsq_finalize_request", "mmc_blk_hsq_req_done"], "The transfer is over; the interrupt handler finishes it and the completion path runs."),
        Stage::Recovery => ("error recovery", &["mmc_blk_mq_rw_recovery", "mmc_blk_reset"], "A data CRC error: CMD13 status, a retry, and a card reset before the last retry."),
        Stage::Complete => ("completed", &["mmc_post_req", "blk_mq_complete_request"], "Unmapped and completed; the job picks up the completion."),
        Stage::Done => ("done", &[], "The job has seen the completion."),
    };
    Info {
        title,
        kernel,
        text,
    }
}

/// Sentences describing what the finished (or running) run shows, from its simulated figures.
pub fn effect_summary(rep: &Report, cfg: &HostConfig) -> Vec<String> {
    let mut out = Vec::new();
    let m = rep.merged();
    let ios = m.read.total_ios + m.write.total_ios;
    let s = &rep.sim;
    if ios == 0 || s.simulated_ns == 0 {
        return out;
    }
    let per = |st: Stage| s.stage(st) as f64 / ios as f64 / 1000.0;
    let bus =
        per(Stage::Command) + per(Stage::CardAccess) + per(Stage::Data) + per(Stage::CardBusy);
    let software = per(Stage::Issue) + per(Stage::Irq) + per(Stage::Complete);
    let busy_pct = s.bus_busy_pct();
    out.push(format!(
        "Each request spends {bus:.1} us on the bus and card, and {software:.1} us in host software \
         (queue_rq, interrupt and completion). The bus is busy {busy_pct:.0}% of the time."
    ));
    let per_irq = ios as f64 / s.interrupts.max(1) as f64;
    if cfg.packed > 0 {
        out.push(format!(
            "Packed: {per_irq:.1} requests per interrupt on average (chains of up to {}). The software \
             cost is paid once per chain, so the bus stays busy.",
            cfg.packed
        ));
    } else if cfg.mmc_path == MmcPath::Hsq {
        let window = match cfg.hsq_depth {
            HsqDepth::Fixed(d) => format!("{}", d + 1),
            HsqDepth::Dynamic => "3 (6 while 4 KiB writes queue up)".to_string(),
        };
        if busy_pct < 80.0 {
            out.push(format!(
                "One request per interrupt, a window of {window} requests: host software time per request \
                 is longer than the bus time, so the bus idles between transfers. Batching (packed) or a \
                 deeper window hides it."
            ));
        } else {
            out.push(format!("A window of {window} requests: the bus and card are the bottleneck here, so more depth or batching would not help."));
        }
    }
    if s.requeues > 0 {
        out.push(format!(
            "mmc_mq_queue_rq refused requests {} times (BLK_STS_RESOURCE): the window was full.",
            s.requeues
        ));
    }
    let busy = per(Stage::CardBusy);
    if busy > 100.0 {
        let why = if !cfg.cache {
            "the card has no write cache in use (cache=0, or an SD card), so it programs each write before it answers"
        } else if cfg.fua
            && rep.jobs.iter().any(|j| j.write.total_ios > 0)
            && s.stage(Stage::CardBusy) > 0
            && m.flushes == 0
        {
            "reliable writes (REQ_FUA with the host advertising FUA) wait for NAND programming"
        } else {
            "cache flushes (or reliable writes) wait for NAND programming"
        };
        out.push(format!("Card busy averages {busy:.0} us per request: {why}, and nothing else can use the bus meanwhile."));
    }
    if let Some(p) = &rep.power_cut {
        if p.lost_acked_writes > 0 {
            out.push(format!(
                "Power cut: {} writes the jobs had been told were done ({} KiB) were only in the card's \
                 volatile cache and are lost. FUA (reliable write) or a flush would have kept them.",
                p.lost_acked_writes,
                p.lost_acked_bytes / 1024
            ));
        } else {
            out.push("Power cut: no acknowledged write was lost.".to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibration::CASES;

    #[test]
    fn every_stage_and_layer_is_explained() {
        for s in Stage::ALL {
            assert!(!stage_info(s).text.is_empty());
        }
        for l in Layer::ALL {
            for p in MmcPath::ALL {
                assert!(!layer_info(l, p).kernel.is_empty());
            }
        }
    }

    #[test]
    fn bus_busy_never_exceeds_the_time_simulated_mid_run() {
        let scn = CASES[0].scenario(true, 4 << 20);
        let mut sim = crate::Simulator::new(&scn).unwrap();
        for _ in 0..200 {
            sim.run_events(97);
            let r = sim.report();
            assert!(r.sim.bus_busy_ns <= r.sim.simulated_ns);
            assert!((0.0..=100.0).contains(&r.sim.bus_busy_pct()));
        }
        assert_eq!(
            crate::SimStats::default().bus_busy_pct(),
            0.0,
            "nothing simulated"
        );
    }

    #[test]
    fn card_busy_is_blamed_on_the_right_cause() {
        let mut scn = crate::Scenario {
            platform: "u300-mmci-2011".into(),
            ..Default::default()
        };
        scn.jobs[0].rw = crate::Rw::Write;
        scn.jobs[0].size = 1 << 20;
        let rep = crate::run(&scn).unwrap();
        let text = effect_summary(&rep, &scn.host_config().unwrap()).join(" ");
        assert!(text.contains("no write cache"), "{text}");
        assert!(!text.contains("FUA"), "{text}");
    }

    #[test]
    fn summary_names_the_bottleneck() {
        let case = &CASES[0];
        for b in [false, true] {
            let scn = case.scenario(b, 4 << 20);
            let rep = crate::run(&scn).unwrap();
            let text = effect_summary(&rep, &scn.host_config().unwrap()).join(" ");
            if b {
                assert!(text.contains("requests per interrupt"), "{text}");
            } else {
                assert!(text.contains("bus idles"), "{text}");
            }
        }
    }
}
