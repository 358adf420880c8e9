//! The tour of the FIFO dispatch patch (2022): hsq's old slot order (`hsq_dispatch=next_tag`)
//! against FIFO on the Allwinner board's measured fio command. Its numbers are latencies, not
//! throughput: the p99.9 (the prediction), the worst completion, the longest wait in the host
//! queue, and the request that waited longest, which the tour follows ("why was it slow").
//!
//! Plain logic like [`crate::lesson`]: every number is read off a run of the pair.

use mmcsim_engine::explain::Layer;
use mmcsim_engine::{Cause, Report, Scenario, Stage};

use crate::gallery::Entry;
use crate::lesson::{Figures, Prediction, Tour, TourAction, TourStep};
use crate::session::{RunError, Session};

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

fn run(scn: &Scenario) -> Result<Report, RunError> {
    let mut s = Session::start(scn)?;
    while !s.run_events(1 << 20) {}
    Ok(s.report())
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

/// Milliseconds from 10 ms up, else microseconds (as the results table writes latencies).
fn lat(us: f64) -> String {
    if us >= 10_000.0 {
        format!("{:.1} ms", us / 1e3)
    } else {
        format!("{us:.0} µs")
    }
}

fn step(see: String, press: &str, button: &str, action: TourAction) -> TourStep {
    TourStep {
        see,
        press: press.to_string(),
        button: button.to_string(),
        action,
    }
}

/// The FIFO dispatch tour on the pair `a` (next_tag) and `b` (fifo).
pub fn tour(e: &Entry, a: Scenario, b: Scenario) -> Result<Tour, RunError> {
    let (ra, rb) = (run(&a)?, run(&b)?);
    let (ta, tb) = (Tail::of(&ra), Tail::of(&rb));
    let unit = "µs at p99.9";
    let fa = Figures::of(&ra, Some(ta.p999));
    let fb = Figures::of(&rb, Some(tb.p999));
    let ratio = tb.p999 / ta.p999.max(1e-9);
    let (t_done, later) = followed(&a, ta.longest_id)?;
    let prediction = Prediction {
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
    };
    let speed = "1 ms/s";
    let mut steps = vec![
        step(
            "A (next_tag) and B (fifo) run the Allwinner board's measured fio command with hsq: 8 threads reading \
             4 KiB blocks at random. In A hsq serves the slot after the one it served last, else the lowest \
             occupied slot (mmc_hsq_update_next_tag before the 2022 patch); in B the slots go in arrival order."
                .to_string(),
            &format!("Press Play: both run in slow motion ({speed}), in lockstep."),
            &format!("Play at {speed}"),
            TourAction::Play(speed),
        ),
        step(
            "Watch A's host queue: blk-mq gives each thread its freed tag back (sbitmap's per-CPU hints), so the \
             same low slots fill and are served again and again, while a request in a higher slot can sit there."
                .to_string(),
            "Press Pause to freeze both sides and compare the slots.",
            "Pause",
            TourAction::Pause,
        ),
        step(
            format!(
                "The cause, over the whole run: the longest wait in the host queue is {} in A and {} in B. \
                 Completion latency, A: p50 {}, p99 {}, p99.9 {}; B: p50 {}, p99 {}, p99.9 {}.",
                lat(ta.longest_wait),
                lat(tb.longest_wait),
                lat(ta.p50),
                lat(ta.p99),
                lat(ta.p999),
                lat(tb.p50),
                lat(tb.p99),
                lat(tb.p999)
            ),
            "Press Show to outline the host queue, where the order is decided, in both pipelines.",
            "Show the column",
            TourAction::Focus(Layer::HostQueue),
        ),
        step(
            prediction.question.clone(),
            "Pick an answer: the simulation then answers it.",
            "",
            TourAction::Predict,
        ),
        step(
            format!(
                "Both sides finish in the view you are looking at; the percentile chart under the pipelines shows \
                 the whole tail. Simulated: A {:.1} {unit}, B {:.1} {unit} (B/A {ratio:.2}x); worst completion A {}, \
                 B {}. The patch's author reported a maximum of about 200 ms before the patch. In the model, slot \
                 selection keeps a request in A's host queue at most {} in this run (4 MiB per thread; the gallery's \
                 pair runs the measured 64 MiB): the mechanism makes a tail of milliseconds, not of 200 ms, with 8 \
                 requests outstanding.",
                fa.figure,
                fb.figure,
                lat(ta.max),
                lat(tb.max),
                lat(ta.longest_wait)
            ),
            "Press Run to the end.",
            "Run to the end",
            TourAction::RunToEnd,
        ),
        step(
            format!(
                "Request {} of A waited longest in the host queue ({}): {later} requests that arrived after it \
                 went to the bus first. The button stands at the moment it was reaped and follows it: What is \
                 happening says why it was slow.",
                ta.longest_id,
                lat(ta.longest_wait)
            ),
            "Press the button to follow the starving request.",
            "Follow the starving request",
            TourAction::Follow {
                t_ns: t_done,
                id: ta.longest_id,
            },
        ),
    ];
    let try_it = ("numjobs", "16", true);
    steps.push(step(
        format!(
            "Recap: the old slot order serves refilled low slots first and starves the others; FIFO bounds each \
             request's wait by the requests ahead of it. In this pair B/A at p99.9 is {ratio:.2}x ({:.1} vs {:.1} µs).",
            fa.figure, fb.figure
        ),
        "Try it yourself: press the button to open the Lab with numjobs=16 on both sides, then Run: more threads, \
         more slots in use: does A's tail grow?",
        "Try numjobs=16",
        TourAction::TryIt,
    ));
    let predict_step = steps
        .iter()
        .position(|s| s.action == TourAction::Predict)
        .unwrap_or(0);
    Ok(Tour {
        platform: e.series.platform,
        title: e.series.change.to_string(),
        a,
        b,
        window: None,
        fa,
        fb,
        fw: None,
        unit,
        prediction,
        steps,
        predict_step,
        try_it,
    })
}

#[cfg(test)]
mod tests {
    use crate::lesson::{tour, TourAction};

    #[test]
    fn the_fifo_tour_follows_a_starving_request_and_says_what_the_model_gives() {
        let t = tour("allwinner-hsq-2022").unwrap();
        let follow = t
            .steps
            .iter()
            .find_map(|s| match s.action {
                TourAction::Follow { t_ns, id } => Some((t_ns, id, s.see.clone())),
                _ => None,
            })
            .expect("a step follows a request");
        assert!(follow.0 > 0);
        assert!(follow.2.contains("went to the bus first"), "{}", follow.2);
        let end = &t
            .steps
            .iter()
            .find(|s| s.action == TourAction::RunToEnd)
            .unwrap()
            .see;
        assert!(end.contains("200 ms"), "{end}");
        // The old order has the longer tail.
        assert!(t.fa.figure > t.fb.figure, "{} {}", t.fa.figure, t.fb.figure);
    }
}
