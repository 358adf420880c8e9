//! Why one request waited where it did, from the causes the layers recorded.

use super::info::stage_info_for;
use super::summary::us;
use crate::vocab::{Cause, Op, Stage};

/// Why a request was slow, in plain words: the stage where it spent the most time (`ns` there,
/// entered `times` in a row) and what the simulation drew or decided there (`causes`, the
/// trace's [`Cause`]s of that stage).
pub fn why_slow(stage: Stage, op: Op, ns: u64, times: u32, causes: &[Cause]) -> String {
    let head = format!(
        "Most of its time ({}) went to {}",
        us(ns),
        // ASCII titles; `to_lowercase`'s Unicode tables would be in the landing's wasm.
        stage_info_for(stage, op).title.to_ascii_lowercase()
    );
    let mut why: Vec<String> = Vec::new();
    for c in causes {
        match *c {
            Cause::None => {}
            Cause::QueuedBehind { ahead } if ahead > 0 => why.push(format!(
                "it found {ahead} request{} ahead of it in the host queue",
                if ahead == 1 { "" } else { "s" }
            )),
            Cause::QueuedBehind { .. } => {}
            Cause::PassedOver { later } => why.push(format!(
                "starvation: {later} request{} that arrived after it went to the bus first, because hsq \
                 picks the slot after the last one served, else the lowest (mmc_hsq_update_next_tag \
                 before the 2022 FIFO patch)",
                if later == 1 { "" } else { "s" }
            )),
            Cause::NandRead { tr_pct, retries } if retries > 0 => why.push(format!(
                "the NAND page needed {retries} ECC read retr{} (each one more page read of {} % of the mean tR)",
                if retries == 1 { "y" } else { "ies" },
                tr_pct
            )),
            Cause::NandRead { tr_pct, .. } if tr_pct > 100 => why.push(format!(
                "a slow NAND page type: its read takes {tr_pct} % of the mean tR (an upper page of TLC)"
            )),
            Cause::NandRead { .. } => {}
            Cause::Housekeeping { ns } => why.push(format!(
                "the card paused {} for housekeeping (garbage collection, wear levelling, cache eviction) \
                 before it released the busy line",
                us(ns)
            )),
            Cause::Preempted { ns } => why.push(format!(
                "fio's thread woke up {} late: another task held the CPU (wake-up jitter)",
                us(ns)
            )),
            Cause::MergedInto { into } => why.push(format!(
                "its bio joined request #{into}, which was waiting next to it on the device \
                 (a block-layer merge): it completes with that request"
            )),
        }
    }
    if why.is_empty() {
        why.push(match stage {
            Stage::BlkMq if times > 1 => format!(
                "the mmc queue's window was full: mmc_mq_queue_rq refused it {} times (BLK_STS_RESOURCE) \
                 and it waited on hctx->dispatch until a completion re-ran the queue \
                 (blk_mq_run_hw_queues from the completion)",
                times - 1
            ),
            Stage::BlkMq => "it waited for a free tag or for the queue to run".to_string(),
            Stage::HostQueue => "it waited for the requests ahead of it to use the bus".to_string(),
            Stage::Irq | Stage::Softirq | Stage::Complete | Stage::Issue | Stage::Submit => {
                "host software: interrupt latency and kernel passes, which vary from run to run".to_string()
            }
            Stage::CardBusy => "the card's own write or program time".to_string(),
            Stage::CardAccess => "the card's read of the NAND page".to_string(),
            _ => "the transfer itself".to_string(),
        });
    }
    format!("{head}: {}.", why.join("; "))
}
