//! hsq's dynamic depth (2023, `unisoc-hsq-2023`): depth 5 while two or more 4 KiB writes are
//! queued, else 2, so the mmc queue window grows from 3 to 6 requests.

use mmcsim_engine::calibration::{CASES, SERIES};
use mmcsim_engine::explain::Layer;
use mmcsim_engine::scenario::Rw;
use mmcsim_engine::{HsqDepth, MmcPath, Scenario};

use super::gallery_text;
use super::readout::{self, so_far};
use super::script::{Shows, StepAction as S, TourAction, TourStep, TryIt, WalkStep};
use super::throughput::{run, Parts, Run};
use super::words::{fig, less_more, refusal_words, run_figures, speed_words};
use super::{Headline, SeriesData, TourInput, TourScript};
use crate::run::session::{RunError, Session};

pub static DATA: SeriesData = SeriesData {
    series: &SERIES[3],
    headline: Headline::Case { rw: "randwrite", bs: 4096 },
    kernel: gallery_text("The patch adds mmc_hsq_modify_threshold: at every pump hsq counts the 4 KiB writes it \
             holds and raises its depth from 2 to 5 while two or more are queued, so \
             the mmc queue window (depth + 1) grows from 3 to 6 requests and the next write can wait \
             in an hsq slot instead of in blk-mq."),
    walk: &[
        WalkStep::plain(S::Load(false), gallery_text("Load the fixed-depth run: 8 jobs of 4 KiB random writes, hsq_depth=2.")),
        WalkStep::says(S::Play("200 µs/s"), |s| match s.figs {
            Some((fa, _)) => format!("Play it slowly and watch blk-mq: requests bounce back when the mmc queue is full ({} refusals over the run).", fa.requeues),
            None => "Play it slowly and watch blk-mq: requests bounce back when the mmc queue is full.".to_string(),
        }),
        WalkStep::plain(S::Pause, gallery_text("Pause on a bounce: mmc_mq_queue_rq refused a request (BLK_STS_RESOURCE).")),
        WalkStep::plain(S::Highlight(Layer::MmcQueue), gallery_text("The mmc queue window is depth + 1 requests: 3 here, 6 with the dynamic depth.")),
        WalkStep::plain(S::Load(true), gallery_text("Load the dynamic run (hsq_depth=dynamic).")),
        WalkStep::says(S::RunToEnd, |s| match s.figs {
            Some((fa, fb)) => format!("Run it to the end: simulated {}, {}. The gain comes from the bus, idle A {:.1} vs B {:.1} µs per request; {}.", s.sizes(), speed_words(fa.figure, fb.figure, s.unit), fa.idle_us, fb.idle_us, refusal_words(fa, fb)),
            None => "Run it to the end and compare with the measured figures.".to_string(),
        }),
        WalkStep::plain(S::Compare, gallery_text("Fill the whole table: only the 4 KiB random writes change.")),
    ],
    tour: Some(tour),
    suggest_b: Some(|cfg, b| {
        if cfg.mmc_path != MmcPath::Hsq {
            return false;
        }
        b.set_switch(
            "hsq_depth",
            Some(match cfg.hsq_depth {
                HsqDepth::Dynamic => HsqDepth::Fixed(2),
                HsqDepth::Fixed(_) => HsqDepth::Dynamic,
            }),
        );
        true
    }),
};

fn tour(input: &TourInput) -> Result<TourScript, RunError> {
    let r = run(input)?;
    let (fa, fb, unit) = (r.fa, r.fb, r.unit);
    let (ca, cb) = r.columns;
    let speed = "200 µs/s";
    // The moment the windows differ in what they did: B has finished 8 requests more than A and
    // its bus has waited less per request. (Not "A refused more": under the kernel's dispatch
    // each completion's re-run meets a full window again on both sides, so both refuse about
    // once per completion while requests wait.)
    let at = r.pause(speed, |fa, fb| {
        fb.requests >= fa.requests + 8 && fb.idle_us < fa.idle_us
    })?;
    let (pa, pb) = (at.fa, at.fb);
    let parts = Parts {
        speed,
        intro: format!(
            "A ({ca}) and B ({cb}): 8 programs doing 4 KiB random writes. A keeps at most 3 requests in the mmc \
             queue (its label's hsq_depth=2: the window is depth + 1, shown as \"3/3\" when full); B raises the \
             window to 6 while small writes are queued."
        ),
        watch_for: "Watch blk-mq: when the mmc queue is full, requests are refused and wait in blk-mq (\"refused\" in the block layer column) until a request completes.".to_string(),
        paused: at,
        pause_words: "B is eight finished requests ahead of A and its bus has waited less per request",
        layer: Layer::MmcQueue,
        cause: format!(
            "At {}, {}: the bus waits idle A {:.1} vs B {:.1} µs per request (busy A {} vs \
             B {}): with the wider window the next write can already wait in an hsq slot when the interrupt \
             pumps. {}: refusals count blk-mq's tries, not waiting requests (each completion re-runs the \
             queue, and a window full again refuses again). Per request {:.1} vs {:.1} µs on the bus and card, {:.1} vs {:.1} µs in host software \
             stages (issue, hard IRQ, softirq, wake-up, waits included).",
            readout::clock(at.t_ns), so_far(&pa, &pb), pa.idle_us, pb.idle_us, readout::busy(false, &pa), readout::busy(true, &pb),
            refusal_words(&pa, &pb), pa.bus_us, pb.bus_us, pa.software_us, pb.software_us
        ),
        question: "Before B runs to the end: how much faster will B be than A?",
        choices: &[1.0, 2.0, 4.0],
        recap: format!(
            "A deeper window keeps the next small write queued in hsq, so the bus waits {} between writes \
             (idle A {:.1} vs B {:.1} µs per request): {}.",
            less_more(fb.idle_us, fa.idle_us),
            fa.idle_us,
            fb.idle_us,
            speed_words(fa.figure, fb.figure, unit)
        ),
        try_it: TryIt {
            option: "hsq_depth",
            value: "5",
            both: false,
            press: None,
            button: None,
            pair: None,
        },
    };
    let (extra, reads) = reads_steps(&r)?;
    let mut script = r.script(parts, extra, None);
    script.other = Some(reads);
    Ok(script)
}

/// The authors' other 4 KiB row, random reads, run on the same board after the writes (issue
/// 50: the tour never showed why a deeper window helps writes but not reads): the pair, and
/// the steps that run it and read it (a read keeps the card busy twice as long as a write
/// into its cache, so the bus is already busy; the depth rises for writes only).
fn reads_steps(r: &Run) -> Result<(Vec<TourStep>, (Scenario, Scenario)), RunError> {
    let case = CASES
        .iter()
        .find(|c| c.series == r.case.series && c.rw == Rw::RandRead && c.bs == r.case.bs)
        .expect("the 2023 table has the 4 KiB random reads");
    let size = r.a.jobs.first().map_or(super::TOUR_SIZE, |j| j.size);
    let (a, b) = (case.scenario(false, size), case.scenario(true, size));
    let mut deep = a.clone();
    deep.set_switch::<HsqDepth>("hsq_depth", Some(HsqDepth::Fixed(5)));
    let (ra, rb, rd) = (
        run_figures(case, &a)?,
        run_figures(case, &b)?,
        run_figures(case, &deep)?,
    );
    let mut s = Session::start(&b)?;
    while !s.run_events(1 << 20) {}
    let switched = s.snapshot().hsq_depth_changes;
    let (ma, mb) = case.measured;
    let unit = r.unit;
    let steps = vec![
        TourStep::new(
            format!(
                "Why only writes? The authors' other 4 KiB row is random reads: {ma} vs {mb} {unit}. The button \
                 runs the same 8 programs reading 4 KiB at random on this board, A and B as before."
            ),
            "Press the button: A and B become the random reads and run to the end; the next step puts \
             the writes back.",
            "Run the random reads",
            TourAction::OtherPair(true),
        )
        .showing(Shows::End),
        TourStep::new(
            format!(
                "Random reads, run to the end: A {} vs B {} {unit}. B's window stayed at 3 (\"0/3\", {switched} \
                 switches): the depth rises only while 4 KiB writes are queued. Deeper would not help: a \
                 read keeps the bus and card {:.1} µs (a NAND read), a write {:.1} µs (into the card's \
                 cache), so reads keep the bus busy {} (writes {:.0} %); hsq_depth=5 gives the reads {} {unit}.",
                fig(ra.figure, unit),
                fig(rb.figure, unit),
                ra.bus_us,
                r.fa.bus_us,
                readout::busy(false, &ra),
                r.fa.bus_busy_pct,
                fig(rd.figure, unit),
            ),
            "Press the button to put the writes back and run both to the end.",
            "Back to the writes",
            TourAction::OtherPair(false),
        )
        .showing(Shows::EndOther),
    ];
    Ok((steps, (a, b)))
}

#[cfg(test)]
mod tests {
    use crate::lesson::state::{Effect, TourState};
    use crate::series::{Shows, TourAction};

    /// Issue 50: the tour never ran the reads, so why a deeper window helps 4 KiB random
    /// writes but not reads could not be seen. After the run a step runs the authors' random
    /// read row on the same board, A and B: the whole pair changes, and the recap puts the
    /// writes back.
    #[test]
    fn the_depth_tour_runs_the_random_reads_beside_the_writes() {
        let mut t = TourState::open(super::DATA.series.id, 0).unwrap();
        let k = t
            .tour
            .steps
            .iter()
            .position(|s| s.shows == Shows::EndOther)
            .expect("a step reads the random reads");
        let text = t.tour.steps[k].text();
        assert!(text.contains("stayed at 3 (\"0/3\", 0 switches)"), "{text}");
        assert!(text.contains("a NAND read"), "{text}");
        let (ra, rb) = t.tour.other.clone().unwrap();
        assert_eq!(ra.jobs[0].rw.name(), "randread");
        assert_eq!(
            t.go(k),
            Some(Effect::Pair(
                ra,
                rb,
                crate::watch::command::WatchAction::Seek(None)
            ))
        );
        assert_eq!(t.tour.steps[k].action, TourAction::OtherPair(false));
        assert!(matches!(t.act(), Some(Effect::Pair(a, _, _)) if a == t.tour.a));
    }
}
