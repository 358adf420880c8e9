//! Which I/O scheduler (Linux 6.1, `io-schedulers`): mq-deadline, the kernel's default for an
//! mmcblk, against bfq with `low_latency` on the 2023 Unisoc board, for the question users ask
//! most: a synchronous reader (an application waiting on each 4 KiB read) beside a writer that
//! streams 32 writes at a time. No patch series and no measured table: both sides are the
//! kernel's schedulers as the model runs them (block/mq-deadline.c, block/bfq-iosched.c), and
//! every number is read off a run of the pair.

use mmcsim_engine::calibration::{Series, Unit};
use mmcsim_engine::explain::Layer;
use mmcsim_engine::scenario::jobfile::parse_jobfile;
use mmcsim_engine::{IoSched, Scenario};

use super::gallery_text;
use super::script::{StepAction as S, WalkStep};
use super::{Headline, SeriesData, TourInput, TourScript};
use crate::run::session::RunError;
#[cfg(feature = "full")]
use {
    super::paused::{first_moment, Paused},
    super::readout,
    super::script::{pause_press, Prediction, Shows, TourAction, TourStep, TryIt},
    super::words::{lat, run_report as run, Figures, Jobs},
    mmcsim_engine::BfqView,
};

/// The two jobs, as a fio job file: `size` bytes each, one second of simulated time.
const JOBS: &str = "[global]\nplatform=unisoc-hsq-2023\ndirect=1\nruntime=1\ntime_based\n\
                    [reader]\nrw=randread\nbs=4k\nioengine=psync\n\
                    [writer]\nrw=write\nbs=4k\nioengine=libaio\niodepth=32\n";

/// The series: no patch, the block layer's schedulers on the 2023 board's preset.
pub static SCHED_SERIES: Series = Series {
    id: "io-schedulers",
    platform: "unisoc-hsq-2023",
    source: "Linux 6.1, block/mq-deadline.c and block/bfq-iosched.c",
    hardware: "The 2023 Unisoc board's preset: a what-if, not a measurement",
    unit: Unit::MiBs,
    command: "fio --direct=1 --runtime=1 --time_based --name=reader --rw=randread --bs=4k --ioengine=psync \
              --name=writer --rw=write --bs=4k --ioengine=libaio --iodepth=32",
    change: "Which I/O scheduler: a reader beside a writer",
    columns: ("mq-deadline", "bfq"),
};

/// The pair: the same two jobs under mq-deadline (A) and bfq (B), `size` bytes per job.
pub fn sched_pair(size: u64) -> (Scenario, Scenario) {
    let side = |s: IoSched| {
        let mut scn = parse_jobfile(JOBS, Scenario::default()).expect("the scheduler pair's jobs");
        scn.set_switch::<IoSched>("ioscheduler", Some(s));
        for j in &mut scn.jobs {
            j.size = size;
        }
        scn
    };
    (side(IoSched::MqDeadline), side(IoSched::Bfq))
}

pub static DATA: SeriesData = SeriesData {
    series: &SCHED_SERIES,
    headline: Headline::Own {
        pair: sched_pair,
        size: 32 << 20,
        label: "4 KiB reader beside a 4 KiB writer",
        no_table: "No patch and no measured table: the kernel's schedulers on the 2023 board. Take the tour.",
    },
    kernel: gallery_text("mq-deadline (elevator_get_default's choice for one hardware queue) serves reads before \
             writes, one queue for every process. bfq gives each process a queue, served by weight \
             (B-WF2Q+); with low_latency a queue that becomes busy has its weight raised 30 times \
             (bfq_bfqq_handle_idle_busy_switch) for max_service_from_wr (120 000 sectors) of service \
             or bfq_wr_duration: the writer uses its raising up, the reader's lasts."),
    walk: &[
        WalkStep::plain(S::Load(false), gallery_text("Load A: a reader beside a writer, mq-deadline.")),
        WalkStep::plain(S::Play("25 ms/s"), gallery_text("Play it and watch the job lanes.")),
        WalkStep::plain(S::Pause, gallery_text("Pause: count the reader's completions.")),
        WalkStep::plain(S::Highlight(Layer::BlkMq), gallery_text("blk-mq holds what the scheduler has not dispatched.")),
        WalkStep::plain(S::Load(true), gallery_text("Load B: bfq.")),
        WalkStep::plain(S::RunToEnd, gallery_text("Run it to the end and compare.")),
    ],
    tour: Some(tour),
    suggest_b: None,
};

/// The landing's build has no bfq: the whole app runs this tour (`series::needs_full`).
#[cfg(not(feature = "full"))]
fn tour(_: &TourInput) -> Result<TourScript, RunError> {
    Err(RunError {
        option: None,
        message: "the whole app runs this tour (bfq)".to_string(),
    })
}

/// The scheduler tour on its pair: A (mq-deadline) and B (bfq).
#[cfg(feature = "full")]
fn tour(input: &TourInput) -> Result<TourScript, RunError> {
    let (a, b) = (input.a.clone(), input.b.clone());
    let (ra, rb) = (run(&a)?, run(&b)?);
    let (ja, jb) = (Jobs::of(&ra), Jobs::of(&rb));
    let unit = "µs (the reader's mean clat)";
    let fa = Figures::of(&ra, Some(ja.read_clat_us));
    let fb = Figures::of(&rb, Some(jb.read_clat_us));
    let ratio = fb.figure / fa.figure.max(1e-9);
    let speed = "25 ms/s";
    // The moment B's reader has completed half again as many reads as A's, then on to the
    // first moment bfq keeps B's card idle for the reader: what bfq does is on screen there.
    let first = first_moment(&a, &b, speed, |fa, fb| {
        fa.reads >= 16 && 2 * fb.reads >= 3 * fa.reads
    })?;
    let (at, view) = bfq_idles(&a, &b, speed, first)?;
    Ok(TourScript {
        speed,
        intro: "A (mq-deadline, the kernel's default for an eMMC) and B (bfq) run the same two fio jobs on the 2023 \
                Unisoc board: a reader that reads 4 KiB blocks at random one at a time (psync), as an application \
                waiting on each read, and a writer streaming 4 KiB sequential writes 32 at a time (libaio). Only the \
                I/O scheduler differs."
            .to_string(),
        watch_for: "Watch the job lanes and blk-mq's queue: in A the reader's read waits with the writer's 32 \
                    writes; bfq gives each process a queue and raises the weight of one that has just become busy."
            .to_string(),
        pause_press: pause_press(
            "B's reader has completed half again as many reads as A's, bfq keeping B's card idle for it",
            &at,
        ),
        paused: at,
        layer: Layer::BlkMq,
        cause: cause(&at),
        focus_press: "Press Show to outline blk-mq, where the scheduler holds what it has not dispatched, in both \
                      pipelines, then Next.",
        prediction: prediction(ratio),
        end: end(&ja, &jb, unit),
        middle: vec![bfq_step(&at, &view)],
        extra: Vec::new(),
        recap: format!(
            "Recap: for an application waiting on its reads beside a bulk writer, bfq's low_latency cut the \
             reader's mean latency from {} to {} ({:.1}x lower) and the writer paid for it ({:.1} against \
             {:.1} MiB/s). For throughput alone keep mq-deadline (or none); for a responsive system beside \
             bulk writes, bfq.",
            lat(ja.read_clat_us),
            lat(jb.read_clat_us),
            1.0 / ratio.max(1e-9),
            jb.write_mib_s,
            ja.write_mib_s
        ),
        try_it: TryIt {
            option: "low_latency",
            value: "0",
            both: false,
            press: Some(
                "Try it yourself: the button opens the Lab with B's low_latency set to 0 (bfq without \
                 weight raising) and runs it: how much of the reader's gain is left?",
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

#[cfg(feature = "full")]
/// From `first` on, on the same grain, the first moment bfq idles for B's reader (job 0: its
/// queue in service, empty, the card kept for its next read): the pair there and B's bfq.
/// None found before the end: `first` and its bfq.
fn bfq_idles(
    a: &Scenario,
    b: &Scenario,
    speed: &str,
    first: Paused,
) -> Result<(Paused, BfqView), RunError> {
    use crate::run::session::Session;
    let grain = crate::run::speed::speed_index(speed)
        .and_then(|i| crate::run::speed::SPEEDS[i].sim_ns_per_s)
        .map_or(1_000_000, |r| (r / 50).max(1_000));
    let (mut sa, mut sb) = (Session::watched(a)?, Session::watched(b)?);
    let mut t = first.t_ns;
    loop {
        while !sa.advance_to(t, 1 << 20) {}
        let done = sb.advance_to(t, u64::MAX) && sb.is_finished();
        let v = sb.snapshot().bfq.unwrap_or_default();
        let (fa, fb) = (
            Figures::of(&sa.report(), None),
            Figures::of(&sb.report(), None),
        );
        let reads = 2 * fb.reads >= 3 * fa.reads;
        if (reads && v.in_service == Some(0) && v.idling) || done || t >= first.t_ns + 500_000_000 {
            let held = reads && v.idling;
            return Ok((
                Paused {
                    t_ns: t,
                    fa,
                    fb,
                    held: held || first.held,
                },
                v,
            ));
        }
        t += grain;
    }
}

#[cfg(feature = "full")]
/// The step that reads bfq's line in B's blk-mq column at the moment: the queue it serves, its
/// budget, the idling for the reader, the raised weights.
fn bfq_step(at: &Paused, v: &BfqView) -> TourStep {
    let job = v
        .in_service
        .map_or("no queue".to_string(), |j| format!("job {j}"));
    let writer = if v.raised.iter().any(|&(j, _)| j == 1) {
        "the writer's (job 1) is raised too"
    } else {
        "the writer's (job 1) raising has ended"
    };
    TourStep::new(
        format!(
            "B's block layer column (blk-mq) names what bfq does: it serves {} (the reader's lane), {} \
             of its {}-sector budget used{}. The reader's read is done and its next \
             not yet issued; bfq keeps the card for it (slice_idle) rather than turn to the writer's \
             waiting writes. Weight raised: {}; {writer}. A's mq-deadline has no queue per process.",
            readout::mark("b.bfq-job", &job),
            v.service,
            v.budget,
            if v.idling { ", and it idles" } else { "" },
            readout::mark("b.bfq-raised", &v.raised_text()),
        ),
        "Read bfq's lines in B's block layer column, then press Continue for the prediction.",
        "Continue",
        TourAction::Continue,
    )
    .showing(Shows::At {
        t_ns: at.t_ns,
        focus: Some(Layer::BlkMq),
    })
}

#[cfg(feature = "full")]
/// The cause at the paused moment: the reads and the writes so far.
fn cause(at: &Paused) -> String {
    let mib = |f: &Figures| f.write_bytes as f64 / (1 << 20) as f64;
    // bfq's max_service_from_wr: 120 000 sectors of service end a queue's weight raising.
    let raised_mib = 120_000.0 * 512.0 / (1 << 20) as f64;
    let writer = if mib(&at.fb) >= raised_mib - 0.05 {
        "B's writer has had that much, so B-WF2Q+ now serves the reader's queue at 30 times the writer's \
         weight and each read preempts the writes"
    } else {
        "B's writer is still raised too"
    };
    format!(
        "At {}: A's reader has completed {} reads, B's {}; A's writer has written {:.1} MiB, B's {:.1} MiB. \
         bfq raised both queues' weights when they became busy; a queue's raising ends after 120 000 sectors \
         ({raised_mib:.1} MiB) of service or after seconds: {writer}. A serves reads first too, but its \
         reader's read still waits behind the writes already in the window.",
        readout::clock(at.t_ns),
        at.fa.reads,
        at.fb.reads,
        mib(&at.fa),
        mib(&at.fb),
    )
}

#[cfg(feature = "full")]
/// How B's reader latency compares with A's.
fn prediction(ratio: f64) -> Prediction {
    Prediction {
        question: "Before both run to the end (1 s of simulated time): how will the reader's mean completion latency \
                   under bfq (B) compare with mq-deadline's (A)?"
            .to_string(),
        choices: vec![
            (1.0, "about the same".to_string()),
            (0.5, "B 2x lower".to_string()),
            (0.25, "B 4x lower".to_string()),
            (0.1, "B 10x lower".to_string()),
        ],
        ratio,
    }
}

#[cfg(feature = "full")]
/// The run-to-end step: what each job got under each scheduler.
fn end(ja: &Jobs, jb: &Jobs, unit: &str) -> String {
    format!(
        "Both have run to the end (1 s each). Simulated: A {:.1} {unit}, B {:.1} {unit}; the reader \
         completed A {:.0} vs B {:.0} reads per second. The writer: A {:.1} MiB/s, B {:.1} MiB/s. bfq \
         bought the reader's latency with the writer's throughput; mq-deadline shares the card by arrival \
         and direction, not by process.",
        ja.read_clat_us,
        jb.read_clat_us,
        ja.read_iops,
        jb.read_iops,
        ja.write_mib_s,
        jb.write_mib_s,
    )
}

#[cfg(test)]
mod tests {
    use crate::lesson::tour;

    #[test]
    fn bfq_serves_the_reader_and_the_writer_pays() {
        let t = tour("io-schedulers").unwrap();
        assert!(
            t.fb.figure < 0.5 * t.fa.figure,
            "reader clat A {:.0} µs, B {:.0} µs",
            t.fa.figure,
            t.fb.figure
        );
        for s in &t.steps {
            println!("{:?}\n  {}\n", s.action, s.text());
        }
    }

    /// Issue 50: lesson 7 gave bfq's figures, not what bfq does. Before the prediction a step
    /// reads bfq's lines in B's blk-mq column at a moment it serves the reader's queue and
    /// idles for it, the reader raised (the readouts test checks the names against the
    /// snapshot there).
    #[test]
    fn the_scheduler_tour_shows_bfq_serving_and_idling_for_the_reader() {
        let t = tour("io-schedulers").unwrap();
        let k = t
            .steps
            .iter()
            .position(|s| {
                s.text()
                    .starts_with("B's block layer column (blk-mq) names what bfq does")
            })
            .expect("a step on bfq's mechanism");
        assert!(k < t.predict_step, "before the prediction");
        let text = t.steps[k].text();
        for part in ["serves job 0", "and it idles", "Weight raised: job 0 ×30"] {
            assert!(text.contains(part), "{part}: {text}");
        }
    }
}
