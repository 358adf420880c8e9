//! FIFO dispatch (2022, `fifo-dispatch-2022`): hsq's old slot order (`hsq_dispatch=next_tag`)
//! against FIFO on the Allwinner board's measured fio command. The author published no A/B
//! table: the tour's numbers are latencies, not throughput: the p99.9 (the prediction), the
//! worst completion, the longest wait in the host queue, and the request that waited longest,
//! which the tour follows ("why was it slow"). Every number is read off a run of the pair.

use mmcsim_engine::calibration::{Series, Unit, ALLWINNER_NO_HSQ};
use mmcsim_engine::explain::Layer;
use mmcsim_engine::scenario::{HsqDispatch, MmcPath};
use mmcsim_engine::{Cause, Report, Scenario, Stage};

use super::gallery_text;
use super::paused::{at_time, first_moment, Paused};
use super::readout;
use super::script::{
    pause_press, Prediction, Shows, StepAction as S, TourAction, TourStep, TryIt, WalkStep,
};
use super::words::{lat, run_report as run, Figures};
use super::{Headline, SeriesData, TourInput, TourScript, TOUR_SIZE};
use crate::run::session::{RunError, Session};

/// The maximum completion latency the patch's author reported before the patch, in words (no
/// table, and not in the calibration data): the texts that cite it say it from here.
macro_rules! reported_max {
    () => {
        "200 ms"
    };
}

/// The FIFO dispatch patch (2022): its author measured fio's latency distribution without hsq
/// (the calibration's Allwinner rows) and reported a maximum completion latency of about
/// 200 ms with hsq before the patch; there is no throughput table to recompute. A is hsq's old
/// slot order (`hsq_dispatch=next_tag`), B the FIFO order the patch introduced.
pub static FIFO_SERIES: Series = Series {
    id: "fifo-dispatch-2022",
    platform: "allwinner-hsq-2022",
    source: ALLWINNER_NO_HSQ.source,
    hardware: "Allwinner SoC (model not named), eMMC, Android 13; /data is f2fs, /data/data encrypted (fscrypt)",
    unit: Unit::MiBs,
    command: ALLWINNER_NO_HSQ.command,
    // The title promises what the tour shows: the tail that slot selection gives in this pair
    // (milliseconds in the model), not the author's reported 200 ms, which the tour cites.
    change: "FIFO dispatch (2022): slot selection and the latency tail",
    columns: ("next_tag", "fifo"),
};

/// The FIFO series' pair: the measured fio command with hsq, A in the old slot order, B in
/// FIFO order, `size` bytes per job.
pub fn fifo_pair(size: u64) -> (Scenario, Scenario) {
    let side = |d: HsqDispatch| {
        let mut s = ALLWINNER_NO_HSQ.scenario(Some(MmcPath::Hsq));
        s.set_switch::<HsqDispatch>("hsq_dispatch", Some(d));
        for j in &mut s.jobs {
            j.size = size;
        }
        s
    };
    (side(HsqDispatch::NextTag), side(HsqDispatch::Fifo))
}

pub static DATA: SeriesData = SeriesData {
    series: &FIFO_SERIES,
    headline: Headline::Own {
        pair: fifo_pair,
        // fio's io_size=64M per thread.
        size: 64 << 20,
        label: "randread 4KiB, 8 threads",
        no_table: concat!(
            "The author published no A/B table for this patch: fio's latency distribution without hsq \
             (the calibration's Allwinner rows, which fit this board) and, in words, a maximum completion \
             latency of about ", reported_max!(), " before the patch. Take the tour to run the measured \
             command both ways and see what the model's slot selection gives."
        ),
    },
    kernel: concat!(
        "Before this patch mmc_hsq_update_next_tag chose the next slot to serve: the one after \
         the slot just served if it held a request, else the lowest occupied slot. The slot is the \
         request's blk-mq tag: sbitmap gives each CPU's thread tags from one word of 16, in \
         ascending order, so one CPU's requests are served in arrival order while a request \
         from a CPU whose word is higher waits as later requests in lower slots go first; the \
         patch serves the slots in arrival order. The author reported a maximum completion latency of about ", reported_max!(), " \
         before the patch and gave no table; the tour runs the measured fio command both ways \
         and states the worst case the model's mechanism gives, which is milliseconds, not \
         ", reported_max!(), "."
    ),
    walk: &[
        WalkStep::plain(S::Load(false), gallery_text("Load the old order: 8 threads of 4 KiB random reads, hsq_dispatch=next_tag.")),
        WalkStep::plain(S::Play("1 ms/s"), gallery_text("Play it slowly and watch the host queue's slots: the lowest occupied one goes next unless the slot after the last one served is full.")),
        WalkStep::plain(S::Pause, gallery_text("Pause: a request in a high slot is still waiting while later requests in low slots go to the bus.")),
        WalkStep::plain(S::Highlight(Layer::HostQueue), gallery_text("The host queue is where the order is decided (mmc_hsq_update_next_tag).")),
        WalkStep::plain(S::Load(true), gallery_text("Load the FIFO order (hsq_dispatch=fifo), today's kernel.")),
        WalkStep::plain(S::RunToEnd, gallery_text("Run it to the end and compare the latency percentiles of both.")),
    ],
    tour: Some(tour),
    suggest_b: None,
};

/// What a finished run of one side says about its latency tail (µs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tail {
    pub p50: f64,
    pub p99: f64,
    pub p999: f64,
    pub max: f64,
    /// The longest wait of a request in the host queue, and that request's id.
    pub longest_wait: f64,
    pub longest_id: u64,
}

impl Tail {
    fn of(r: &Report) -> Tail {
        let clat = r.merged().read.clat;
        let us = |ns: u64| ns as f64 / 1e3;
        let (wait, id) = r.sim.longest_host_wait;
        Tail {
            p50: us(clat.percentile(50.0)),
            p99: us(clat.percentile(99.0)),
            p999: us(clat.percentile(99.9)),
            max: us(clat.max()),
            longest_wait: us(wait),
            longest_id: id,
        }
    }
}

/// When request `id` of `scn` is reaped, and how many later requests went to the bus before it
/// (from a watched run's trace).
fn followed(scn: &Scenario, id: u64) -> Result<(u64, u32), RunError> {
    let mut s = Session::watched(scn)?;
    loop {
        if let Some(t) = s.trace_of(id) {
            if let Some(done) = t.iter().find(|e| e.stage == Stage::Done) {
                let later = t
                    .iter()
                    .filter_map(|e| match e.cause {
                        Cause::PassedOver { later } => Some(later),
                        _ => None,
                    })
                    .max()
                    .unwrap_or(0);
                return Ok((done.t_ns, later));
            }
        }
        if s.run_events(2_000) {
            return Err(RunError {
                option: None,
                message: format!("request {id} was not reaped"),
            });
        }
    }
}

/// The FIFO dispatch tour on its pair: A (next_tag) and B (fifo).
fn tour(input: &TourInput) -> Result<TourScript, RunError> {
    let (a, b) = (input.a.clone(), input.b.clone());
    let (ra, rb) = (run(&a)?, run(&b)?);
    let (ta, tb) = (Tail::of(&ra), Tail::of(&rb));
    let unit = "µs at p99.9";
    let fa = Figures::of(&ra, Some(ta.p999));
    let fb = Figures::of(&rb, Some(tb.p999));
    let ratio = tb.p999 / ta.p999.max(1e-9);
    let speed = "1 ms/s";
    // The moment A's slot order has kept a request waiting longer than any of B's so far; then
    // on to where that request (A's longest wait so far) is reaped, so following it never
    // takes the clock back (issue 50: it once jumped from the end back to 835.5 ms).
    let first = first_moment(&a, &b, speed, |fa, fb| {
        fa.interrupts >= 20 && fb.interrupts >= 20 && fa.longest_wait_us > 2.0 * fb.longest_wait_us
    })?;
    let (at, id, t_done, later) = starving(&a, &b, first.t_ns)?;
    let waited = at.fa.longest_wait_us;
    let middle = vec![
        follow_step(at.t_ns, id, waited, later).showing(Shows::At {
            t_ns: at.t_ns,
            focus: Some(Layer::HostQueue),
        }),
        followed_step(&at, id, t_done, later),
    ];
    Ok(TourScript {
        speed,
        intro: "A (next_tag) and B (fifo) run the Allwinner board's measured fio command with hsq: 8 threads reading \
                4 KiB blocks at random. In A hsq serves the slot after the one it served last, else the lowest \
                occupied slot (mmc_hsq_update_next_tag before the 2022 patch); in B the slots go in arrival order."
            .to_string(),
        watch_for: "Watch A's host queue: each CPU's threads take tags from their own word of 16 (sbitmap's per-CPU \
                    hints), so requests from the CPUs with low words are served first, while a request in a higher slot can sit there."
            .to_string(),
        pause_press: pause_press(
            "a request has waited in A's host queue at least twice as long as any in B's, and \
             that request has been reaped",
            &at,
        ),
        paused: at,
        layer: Layer::HostQueue,
        cause: cause(&at),
        focus_press: "Press Show to outline the host queue, where the order is decided, in both pipelines, then Next.",
        prediction: prediction(ratio),
        end: end(&fa, &fb, &ta, &tb, unit),
        middle,
        extra: Vec::new(),
        recap: format!(
            "Recap: the old slot order serves refilled low slots first and starves the others; FIFO bounds each \
             request's wait by the requests ahead of it. In this pair B/A at p99.9 is {ratio:.2}x ({:.1} vs {:.1} µs).",
            fa.figure, fb.figure
        ),
        try_it: TryIt {
            option: "numjobs",
            value: "16",
            both: true,
            press: Some(
                "Try it yourself: the button opens the Lab with numjobs=16 on both sides and runs it: more threads, \
                 more slots in use: does A's tail grow?",
            ),
            button: None,
            pair: None,
        },
        a,
        b,
        fa,
        fb,
        unit,
        window: None,
        other: None,
    })
}

/// A's request that has waited longest in the host queue by `t` (its id), where it is reaped
/// and how many later requests went to the bus before it; the moment is then moved on to the
/// reaping if it comes later, and again while a longer wait appears by then (a few times at
/// most). Gives the pair at that moment, the request, its reaping time and the count.
fn starving(a: &Scenario, b: &Scenario, mut t: u64) -> Result<(Paused, u64, u64, u32), RunError> {
    let longest_at = |t: u64| -> Result<u64, RunError> {
        let mut s = Session::watched(a)?;
        while !s.advance_to(t, 1 << 20) {}
        Ok(s.report().sim.longest_host_wait.1)
    };
    let mut found = None;
    for _ in 0..6 {
        let id = longest_at(t)?;
        let (done, later) = followed(a, id)?;
        found = Some((id, done, later));
        if done <= t {
            break;
        }
        t = done;
    }
    let (id, done, later) = found.expect("looked at least once");
    Ok((at_time(a, b, t)?, id, done, later))
}

/// The step at the moment: A's longest wait so far, and the button that follows its request.
fn follow_step(t_ns: u64, id: u64, waited_us: f64, later: u32) -> TourStep {
    TourStep::new(
        format!(
            "Request {id} of A has waited longest so far in the host queue ({}): {later} requests that \
             arrived after it went to the bus first. The button follows it, the clock standing still: \
             What is happening says why it was slow.",
            lat(waited_us)
        ),
        "Press the button to follow the starving request.",
        "Follow the starving request",
        TourAction::Follow { t_ns, id },
    )
}

/// The step read while the view stands at the moment, following the starving request.
fn followed_step(at: &Paused, id: u64, t_done: u64, later: u32) -> TourStep {
    TourStep::new(
        format!(
            "Both sides still stand at {}. What is happening, under the pipelines, follows request {id} \
             of A (reaped at {}): it waited {} in the host queue while {later} requests that arrived \
             after it went to the bus first.",
            readout::clock(at.t_ns),
            mmcsim_engine::scenario::units::format_clock_ns(t_done),
            lat(at.fa.longest_wait_us)
        ),
        "Read its story in What is happening, then press Continue for the prediction.",
        "Continue",
        TourAction::Continue,
    )
    .showing(Shows::Following { t_ns: at.t_ns, id })
}

/// The cause at the paused moment: the longest waits so far, and the bus.
fn cause(at: &Paused) -> String {
    format!(
        "At {}, over the run so far: the longest wait of a request in the host queue is {} in A and {} in B, \
         with the bus busy {} in A and {} in B: the slot order, not the bus, makes A's longest wait.",
        readout::clock(at.t_ns),
        lat(at.fa.longest_wait_us),
        lat(at.fb.longest_wait_us),
        readout::busy(false, &at.fa),
        readout::busy(true, &at.fb),
    )
}

/// How B's p99.9 compares with A's.
fn prediction(ratio: f64) -> Prediction {
    Prediction {
        question: "Before both run to the end: how will B's p99.9 latency (one completion in a thousand is slower) \
                   compare with A's?"
            .to_string(),
        choices: vec![
            (1.0, "about the same".to_string()),
            (0.5, "B 2x lower".to_string()),
            (0.1, "B 10x lower".to_string()),
            (0.01, "B 100x lower".to_string()),
        ],
        ratio,
    }
}

/// The run-to-end step: the simulated tail against the author's reported maximum.
fn end(fa: &Figures, fb: &Figures, ta: &Tail, tb: &Tail, unit: &str) -> String {
    format!(
        concat!(
            "Both have run to the end; the percentile chart under the pipelines shows the whole tail. Simulated: A {:.1} {unit}, B {:.1} {unit} (B/A {ratio:.2}x); worst completion A {}, \
             B {}. The patch's author reported a maximum of about ", reported_max!(), " before the patch. In the model, slot \
             selection keeps a request in A's host queue at most {} in this run ({} MiB per thread; the gallery's \
             pair runs the measured {} MiB): the mechanism makes a tail of milliseconds, not of ", reported_max!(), ", with 8 \
             requests outstanding."
        ),
        fa.figure,
        fb.figure,
        lat(ta.max),
        lat(tb.max),
        lat(ta.longest_wait),
        TOUR_SIZE >> 20,
        DATA.size() >> 20,
        unit = unit,
        ratio = fb.figure / fa.figure.max(1e-9),
    )
}

#[cfg(test)]
mod tests {
    use crate::lesson::tour;
    use crate::series::TourAction;

    #[test]
    fn the_fifo_tour_follows_a_starving_request_and_says_what_the_model_gives() {
        let t = tour("allwinner-hsq-2022").unwrap();
        let follow = t
            .steps
            .iter()
            .find_map(|s| match s.action {
                TourAction::Follow { t_ns, id } => Some((t_ns, id, s.text())),
                _ => None,
            })
            .expect("a step follows a request");
        assert!(follow.0 > 0);
        assert!(follow.2.contains("went to the bus first"), "{}", follow.2);
        let run = t
            .steps
            .iter()
            .position(|s| s.action == TourAction::RunToEnd)
            .unwrap();
        let end = &t.steps[run + 1].text();
        assert!(end.contains("200 ms"), "{end}");
        // The old order has the longer tail.
        assert!(t.fa.figure > t.fb.figure, "{} {}", t.fa.figure, t.fb.figure);
    }
}
