//! The host software queue (2020, `hsq-intro-2020`): the next request goes out from the
//! interrupt instead of a woken thread. It ran on the packed-request RFC's board
//! (`sprd-hs400es-2020`), whose tour that platform's links open: this series has a gallery
//! walk-through and no tour of its own.

use mmcsim_engine::calibration::SERIES;
use mmcsim_engine::explain::Layer;

use super::script::{StepAction as S, WalkStep};
use super::words::speed_words;
use super::{Headline, SeriesData, TOUR_SIZE};

pub static DATA: SeriesData = SeriesData {
    series: &SERIES[4],
    headline: Headline::Case { rw: "randwrite", bs: 4096 },
    kernel: "hsq (2020): the next request goes out from the interrupt. Before it, \
             mmc_blk_mq_issue_rw_rq prepared the next request and slept in mmc_blk_rw_wait; the \
             interrupt's completion work woke that thread, which then polled the card once with \
             CMD13 after a write (mmc_blk_card_busy) and only then started the next request. \
             With mmc_hsq.c, mmc_hsq_finalize_request pumps the next slot straight from the \
             interrupt and the controller's busy detection replaces the software poll.",
    walk: &[
        WalkStep::plain(S::Load(false), "Load the legacy run: 20 psync jobs of 4 KiB random writes, mmc_path=legacy."),
        WalkStep::plain(S::Play("50 µs/s"), "Play it slowly: after each write the bus waits for a thread to wake, sends one CMD13, and waits again."),
        WalkStep::plain(S::Pause, "Pause between two writes: the card answered the CMD13 only once it had committed the random write."),
        WalkStep::plain(S::Highlight(Layer::HostQueue), "The host queue holds two requests: the one on the bus and the prepared one sleeping in mmc_blk_rw_wait."),
        WalkStep::plain(S::Load(true), "Load the hsq run (mmc_path=hsq): the interrupt itself pumps the next request."),
        WalkStep::says(S::RunToEnd, |s| match s.figs {
            Some((fa, fb)) => format!("Run it to the end: simulated at {} MiB per job, {}; the authors measured {}.", TOUR_SIZE >> 20, speed_words(fa.figure, fb.figure, s.unit), s.authors()),
            None => format!("Run it to the end; the authors measured {}.", s.authors()),
        }),
        WalkStep::plain(S::Compare, "Fill the whole table: sequential I/O barely changes, random I/O gains."),
    ],
    tour: None,
    suggest_b: None,
};
