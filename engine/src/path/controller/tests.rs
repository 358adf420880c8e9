use super::*;
use crate::vocab::{BlkDispatch, HsqDepth, HsqDispatch, IoSched, CQE_TASKS};

fn cfg(mmc_path: MmcPath, packed: u32, nonblocking: bool) -> HostConfig {
    HostConfig {
        mmc_path,
        nonblocking,
        hsq_depth: HsqDepth::Fixed(1),
        hsq_dispatch: HsqDispatch::Fifo,
        packed,
        fua: true,
        cache: true,
        iosched: IoSched::None,
        dispatch: BlkDispatch::Fitted,
    }
}

#[test]
fn the_path_follows_the_switches_and_mmc_test_comes_first() {
    let card = &crate::board::SPRD_HS400ES_2020.card;
    let of = |p, packed, nb, t| HostPath::of(&cfg(p, packed, nb), card, t);
    assert_eq!(
        of(MmcPath::Hsq, 8, true, false),
        HostPath::Hsq { packed: true }
    );
    assert_eq!(
        of(MmcPath::Hsq, 0, true, false),
        HostPath::Hsq { packed: false }
    );
    let legacy = HostPath::Legacy { nonblocking: true };
    assert_eq!(of(MmcPath::Legacy, 0, true, false), legacy);
    let cqe = HostPath::Cqe {
        tags: CQE_TASKS as u16,
        dcmd: true,
        max_posted_writes: 32,
    };
    assert_eq!(of(MmcPath::Cqe, 0, false, false), cqe);
    let mmc_test = HostPath::MmcTest { nonblocking: false };
    assert_eq!(of(MmcPath::Legacy, 0, false, true), mmc_test);
}

#[test]
fn the_window_and_the_slots_follow_the_path() {
    let hsq = |packed| HostPath::Hsq { packed };
    assert_eq!(hsq(false).window(1), 2);
    assert_eq!(hsq(true).window(1), HSQ_PACKED_QUEUE_DEPTH);
    assert_eq!(hsq(false).slots_total(2), HSQ_NUM_SLOTS);
    for nonblocking in [false, true] {
        let n = 1 + nonblocking as u32;
        let legacy = HostPath::Legacy { nonblocking };
        let mmc_test = HostPath::MmcTest { nonblocking };
        assert_eq!((legacy.window(7), mmc_test.window(7)), (n, n));
        assert_eq!(legacy.slots_total(n), n as u16);
    }
    let cqe = HostPath::of(
        &cfg(MmcPath::Cqe, 0, false),
        &crate::board::SPRD_HS400ES_2020.card,
        false,
    );
    assert_eq!(cqe.window(1), CQE_TASKS);
    assert_eq!(cqe.slots_total(CQE_TASKS), CQHCI_NUM_SLOTS);
}

/// `mmc_init_queue`: the tag set is the CQE's depth, min(the card's queue, the CQE's
/// slots less the DCMD one when flushes are DCMDs); 64 tags on every other path.
#[test]
fn the_tag_set_is_the_cqe_s_depth_with_command_queueing() {
    let emmc = crate::board::SPRD_HS400ES_2020.card;
    let sd = crate::board::RPI5_SD_2024.card;
    let tags =
        |card: &CardTiming| HostPath::of(&cfg(MmcPath::Cqe, 0, false), card, false).tag_set_depth();
    assert_eq!(tags(&emmc), 31, "32 slots less the DCMD slot");
    assert_eq!(
        tags(&CardTiming {
            cqe_dcmd: false,
            ..emmc
        }),
        32,
        "no DCMD: all 32"
    );
    assert_eq!(
        tags(&CardTiming {
            cmdq_depth: 16,
            ..emmc
        }),
        16,
        "the card's depth"
    );
    assert_eq!(tags(&sd), 31, "an SD card's 5-bit depth field");
    let hsq = HostPath::of(&cfg(MmcPath::Hsq, 0, false), &emmc, false);
    assert_eq!(hsq.tag_set_depth(), MMC_QUEUE_DEPTH);
}
