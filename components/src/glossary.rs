//! The glossary: every term the page uses, plain words first and the kernel's name second.
//! The pipeline's tooltips and the explanation panel link into it (`#gloss-<id>`); it sits
//! folded at the foot of "What is happening" (a fragment link unfolds it).

use mmcsim_engine::explain::Layer;
use mmcsim_engine::MmcPath;
use yew::prelude::*;

/// One term: its anchor id, the name the page shows, the plain words, and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    pub id: &'static str,
    pub plain: &'static str,
    pub kernel: &'static str,
    pub text: &'static str,
}

const fn t(
    id: &'static str,
    plain: &'static str,
    kernel: &'static str,
    text: &'static str,
) -> Term {
    Term {
        id,
        plain,
        kernel,
        text,
    }
}

/// Every term, in the order a request meets them.
pub const TERMS: &[Term] = &[
    t("fio", "programs doing I/O", "fio jobs", "fio is the benchmark tool; each job is a thread issuing reads or writes."),
    t("psync", "one I/O at a time", "psync / sync", "The job waits for each I/O before issuing the next (pread/pwrite)."),
    t("libaio", "several I/Os at once", "libaio / io_uring", "The job keeps iodepth I/Os outstanding."),
    t("clat", "completion latency", "clat p50 / p99", "From the system call to the job seeing the completion; p99: 99 % of I/Os were faster."),
    t("blk-mq", "block layer queue", "blk-mq", "The kernel's block layer: requests take a tag and wait to be dispatched to the driver."),
    t("tag", "request ticket", "blk-mq tag", "One of 64 numbers a request holds while in flight; hsq uses it as the slot number."),
    t("dispatch", "refused, waiting to be tried again", "hctx->dispatch", "Where blk-mq puts a request the driver refused, to dispatch it again when a request completes."),
    t("resource", "refused", "BLK_STS_RESOURCE", "What mmc_mq_queue_rq returns when its window is full, or while another context is inside it (mq->busy): the request is refused (also called a requeue) and waits on hctx->dispatch to be tried again."),
    t("kblockd", "the block layer's worker", "kblockd (kworker/N:1H)", "The kernel thread that runs a queue when the submitting task does not. Under a scheduler Linux 6.1 dispatches every request from it; 6.12 dispatches in the submitting task and leaves kblockd what it defers (flushes, re-runs after a refusal)."),
    t("mmc-queue", "driver's admission window", "mmc queue (in_flight)", "How many requests the mmc driver accepts at once; hsq_depth + 1, or 64 when packed."),
    t("hsq", "waiting slots", "host software queue (hsq)", "Requests wait in 64 slots and go to the controller one at a time (or a batch when packed)."),
    t("hsq-depth", "window size", "hsq_depth", "How many requests hsq takes before refusing more; dynamic: 5 while 4 KiB writes queue, else 2."),
    t("legacy", "one request at a time", "legacy path (mmc_start_req)", "The older request path: one request on the bus, the next possibly prepared meanwhile."),
    t("nonblocking", "prepare the next early", "non-blocking (pre_req / post_req)", "Map the next request's buffer for DMA while the current one transfers."),
    t("cqe", "card-side task queue", "CQE (command queueing)", "The card holds the CQE's tasks (31 on an eMMC, beside one direct-command slot for flushes; on an SD card one write at a time) and runs them itself; a what-if in this model."),
    t("controller", "host controller", "SDHCI / MMCI", "The chip that drives the bus: SDHCI on the Unisoc boards, the ARM PL180 MMCI on the U300."),
    t("adma2", "the controller's list of buffers", "ADMA2 table", "Descriptors telling the controller's DMA where one request's data is."),
    t("adma3", "controller batch", "ADMA3 chain", "Command descriptors and ADMA2 tables for several requests joined into one chain: one interrupt for all."),
    t("packed", "batch size", "packed", "How many requests hsq hands the controller as one ADMA3 chain (0 = off)."),
    t("irq", "interrupt", "IRQ", "The controller tells the CPU a transfer is over; the completion path runs from it."),
    t("bus", "wires to the card", "MMC bus", "The CMD line carries commands, the DAT lines data; one transfer at a time."),
    t("cmd18", "read command", "CMD18 (CMD23 first)", "READ_MULTIPLE_BLOCK, preceded by CMD23 SET_BLOCK_COUNT."),
    t("cmd25", "write command", "CMD25 (CMD23 first)", "WRITE_MULTIPLE_BLOCK, preceded by CMD23 SET_BLOCK_COUNT."),
    t("dat0", "data line busy", "DAT0 low", "The card holds DAT0 low while it is busy with a write; nothing else can use the bus."),
    t("card", "storage chip", "eMMC / SD card", "Reads come from NAND or a read-ahead buffer; writes land in a volatile cache."),
    t("cache", "card's write cache", "volatile write cache", "Fast, but lost on power loss until programmed to NAND."),
    t("fua", "write straight to NAND", "FUA (reliable write)", "REQ_FUA: the card answers only once the data is in NAND (eMMC reliable write)."),
    t("flush", "empty the cache", "flush (CMD6 FLUSH_CACHE)", "The card programs everything in its cache to NAND."),
    t("crc", "transfer error", "CRC error", "Data corrupted on the wires: the driver checks status (CMD13), retries, resets."),
    t("mib-s", "throughput", "MiB/s, IOPS", "Data per second (MiB = 1 048 576 bytes) and I/Os per second."),
];

/// The term a pipeline column stands for.
pub fn term_of(layer: Layer, path: MmcPath) -> &'static Term {
    let id = match (layer, path) {
        (Layer::Jobs, _) => "fio",
        (Layer::BlkMq, _) => "blk-mq",
        (Layer::MmcQueue, _) => "mmc-queue",
        (Layer::HostQueue, MmcPath::Hsq) => "hsq",
        (Layer::HostQueue, MmcPath::Legacy) => "legacy",
        (Layer::HostQueue, MmcPath::Cqe) => "cqe",
        (Layer::Controller, _) => "controller",
        (Layer::Bus, _) => "bus",
        (Layer::Card, _) => "card",
    };
    term(id).unwrap_or(&TERMS[0])
}

pub fn term(id: &str) -> Option<&'static Term> {
    TERMS.iter().find(|t| t.id == id)
}

/// The glossary, folded (`<details id="glossary">`); each term is `#gloss-<id>`.
#[function_component(Glossary)]
pub fn glossary() -> Html {
    // Its terms (about 150 elements, folded) are built a task after the page's first render.
    let later = crate::part::use_later();
    html! {
        <details class="glossary" id="glossary">
            <summary>{ "Glossary: every term on this page" }</summary>
            if later {
                <dl>
                    { for TERMS.iter().map(|t| html! {
                        <div class="term" id={format!("gloss-{}", t.id)}>
                            <dt><strong>{ t.plain }</strong>{ " " }<code>{ t.kernel }</code></dt>
                            <dd>{ t.text }</dd>
                        </div>
                    }) }
                </dl>
            }
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kernel name the pipeline and the tables show has an entry.
    #[test]
    fn every_term_the_page_shows_is_explained() {
        let all: String = TERMS
            .iter()
            .map(|t| format!("{} {} ", t.plain, t.kernel))
            .collect();
        for k in [
            "BLK_STS_RESOURCE",
            "hctx->dispatch",
            "ADMA3",
            "ADMA2",
            "CMD18",
            "CMD25",
            "DAT0",
            "psync",
            "hsq",
            "CQE",
            "blk-mq",
            "IRQ",
            "FUA",
            "SDHCI",
            "MMCI",
            "clat",
            "MiB/s",
            "packed",
            "hsq_depth",
        ] {
            assert!(all.contains(k), "{k} is not in the glossary");
        }
        for l in Layer::ALL {
            for p in MmcPath::ALL {
                assert!(!term_of(l, p).plain.is_empty());
            }
        }
        let mut ids: Vec<&str> = TERMS.iter().map(|t| t.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), TERMS.len(), "ids are unique");
    }
}
