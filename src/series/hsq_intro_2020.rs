//! The host software queue (2020, `hsq-intro-2020`): the next request goes out from the
//! interrupt instead of a woken thread. It ran on the packed-request RFC's board
//! (`sprd-hs400es-2020`); its cards, tours and links are keyed by its own id.

use mmcsim_engine::calibration::SERIES;
use mmcsim_engine::explain::Layer;

use super::gallery_text;
use super::readout::{self, so_far};
use super::script::{StepAction as S, TryIt, WalkStep};
use super::throughput::{run, Parts};
use super::words::{less_more, speed_words};
use super::{Headline, SeriesData, TourInput, TourScript};
use crate::run::session::RunError;

pub static DATA: SeriesData = SeriesData {
    series: &SERIES[4],
    headline: Headline::Case { rw: "randwrite", bs: 4096 },
    kernel: gallery_text("hsq (2020): the next request goes out from the interrupt. Before it, \
             mmc_blk_mq_issue_rw_rq prepared the next request and slept in mmc_blk_rw_wait; the \
             interrupt's completion work woke that thread, which then polled the card once with \
             CMD13 after a write (mmc_blk_card_busy) and only then started the next request. \
             With mmc_hsq.c, mmc_hsq_finalize_request pumps the next slot straight from the \
             interrupt and the controller's busy detection replaces the software poll."),
    walk: &[
        WalkStep::plain(S::Load(false), gallery_text("Load the legacy run: 20 psync jobs of 4 KiB random writes, mmc_path=legacy.")),
        WalkStep::plain(S::Play("50 µs/s"), gallery_text("Play it slowly: after each write the bus waits for a thread to wake, sends one CMD13, and waits again.")),
        WalkStep::plain(S::Pause, gallery_text("Pause between two writes: the card answered the CMD13 only once it had committed the random write.")),
        WalkStep::plain(S::Highlight(Layer::HostQueue), gallery_text("The host queue holds two requests: the one on the bus and the prepared one sleeping in mmc_blk_rw_wait.")),
        WalkStep::plain(S::Load(true), gallery_text("Load the hsq run (mmc_path=hsq): the interrupt itself pumps the next request.")),
        WalkStep::says(S::RunToEnd, |s| match s.figs {
            Some((fa, fb)) => format!("Run it to the end: simulated {}, {}; the authors measured {}.", s.sizes(), speed_words(fa.figure, fb.figure, s.unit), s.authors()),
            None => format!("Run it to the end; the authors measured {}.", s.authors()),
        }),
        WalkStep::plain(S::Compare, gallery_text("Fill the whole table: sequential I/O barely changes, random I/O gains.")),
    ],
    tour: Some(tour),
    suggest_b: None,
};

fn tour(input: &TourInput) -> Result<TourScript, RunError> {
    let r = run(input)?;
    let (fa, fb, unit) = (r.fa, r.fb, r.unit);
    let (ca, cb) = r.columns;
    let speed = "50 µs/s";
    // The moment each side has completed sixteen writes (`MIN_REQUESTS`) and B's bus has been
    // busier than A's.
    let at = r.pause(speed, |fa, fb| {
        fa.interrupts >= 3 && fb.interrupts >= 3 && fb.bus_busy_pct > fa.bus_busy_pct
    })?;
    let (pa, pb) = (at.fa, at.fb);
    let parts = Parts {
        speed,
        intro: format!(
            "A ({ca}) and B ({cb}) are the same 20 programs writing 4 KiB blocks at random places, run on one \
             clock. In A a thread prepares the next request and sleeps until the interrupt wakes it; in B the \
             interrupt itself sends the next one."
        ),
        watch_for: "After each write A's bus strip stays white while the woken thread sends one CMD13 and waits for \
                    the card; B's next write leaves the host queue as soon as the interrupt comes."
            .to_string(),
        paused: at,
        pause_words: "B's bus has been busier than A's",
        layer: Layer::HostQueue,
        cause: format!(
            "At {}, {}: per request {:.1} vs {:.1} µs on the bus and card, {:.1} vs {:.1} µs in \
             host software stages (issue, hard IRQ, softirq, wake-up, waits included); the bus waits idle A {:.1} vs \
             B {:.1} µs per request (busy A {} vs B {}).",
            readout::clock(at.t_ns), so_far(&pa, &pb), pa.bus_us, pb.bus_us, pa.software_us, pb.software_us, pa.idle_us, pb.idle_us,
            readout::busy(false, &pa), readout::busy(true, &pb)
        ),
        question: "Before B runs to the end: how much faster will B be than A?",
        choices: &[1.0, 2.0, 4.0],
        recap: format!(
            "Sending the next request from the interrupt, with no thread to wake and no CMD13 poll, keeps the bus \
             waiting {} between writes (idle A {:.1} vs B {:.1} µs per request): {}.",
            less_more(fb.idle_us, fa.idle_us),
            fa.idle_us,
            fb.idle_us,
            speed_words(fa.figure, fb.figure, unit)
        ),
        try_it: TryIt {
            option: "rw",
            value: "write",
            both: true,
            press: None,
            button: None,
            pair: None,
        },
    };
    Ok(r.script(parts, Vec::new(), None))
}
