//! Upgrading the kernel (Linux 6.1 to 6.12, Android's android14-6.1 to android16-6.12) on the
//! 2023 Unisoc board, for the question a BSP engineer brings: what changes for my eMMC? The
//! same jobs on both sides, only `kernel=` differs: an application's 4 KiB psync random reads
//! beside two O_SYNC writers (250 writes per second each) under mq-deadline, the board's
//! scheduler. No patch series and no measured table: both sides are the kernels' own rules as
//! `engine/src/board/kernel_rules.rs` carries them, each checked against a real kernel under
//! QEMU (`oracle/fixtures/linux-6.1`, `linux-6.12`), and every number is read off a run.
//!
//! The preset's hsq depth (the 2023 patch, measured on 6.6) is a backport under 6.1 (its
//! what-if line) and mainline's own under 6.12; with three jobs the window never fills, so it
//! changes nothing here (a test runs A at 6.1's own depth of 2 and gets the same figures).

use mmcsim_engine::calibration::{Series, Unit};
use mmcsim_engine::explain::Layer;
use mmcsim_engine::scenario::jobfile::parse_jobfile;
use mmcsim_engine::scenario::options::apply_text;
use mmcsim_engine::Scenario;

use super::gallery_text;
use super::script::{StepAction as S, WalkStep};
use super::{Headline, SeriesData, TourInput, TourScript};
use crate::run::session::RunError;
#[cfg(feature = "full")]
use {
    super::paused::{first_moment, Paused},
    super::readout,
    super::script::{pause_press, Prediction, TryIt},
    super::words::{lat, run_report as run, Figures, Jobs},
};

/// The jobs, as a fio job file: one second of simulated time.
const JOBS: &str =
    "[global]\nplatform=unisoc-hsq-2023\nioscheduler=mq-deadline\ndirect=1\nruntime=1\n\
                    time_based\n\
                    [reader]\nrw=randread\nbs=4k\nioengine=psync\n\
                    [writers]\nrw=write\nbs=4k\nioengine=psync\nsync=1\nrate_iops=250\nnumjobs=2\n";

/// The two kernels, A's and B's.
pub const KERNELS: (&str, &str) = ("6.1", "6.12");

/// The series: no patch, two kernels' block layers on the 2023 board's preset.
pub static KERNEL_SERIES: Series = Series {
    id: "kernel-upgrade",
    platform: "unisoc-hsq-2023",
    source: "Linux 6.1 and 6.12: block/blk-mq.c, blk-core.c and blk-flush.c",
    hardware: "The 2023 Unisoc board's preset: the kernels' rules, not a measurement",
    unit: Unit::MiBs,
    command: "fio --ioscheduler=mq-deadline --direct=1 --runtime=1 --time_based --name=reader --rw=randread --bs=4k \
              --ioengine=psync --name=writers --rw=write --bs=4k --ioengine=psync --sync=1 --rate_iops=250 --numjobs=2",
    change: "Upgrading the kernel: 6.1 to 6.12",
    columns: ("Linux 6.1", "Linux 6.12"),
};

/// The pair: the same jobs under Linux 6.1 (A) and 6.12 (B), `size` bytes per job.
pub fn kernel_pair(size: u64) -> (Scenario, Scenario) {
    let side = |k: &str| {
        let mut scn = parse_jobfile(JOBS, Scenario::default()).expect("the kernel pair's jobs");
        for j in &mut scn.jobs {
            j.size = size;
        }
        apply_text(&scn, "kernel", k).expect("a carried kernel")
    };
    (side(KERNELS.0), side(KERNELS.1))
}

pub static DATA: SeriesData = SeriesData {
    series: &KERNEL_SERIES,
    headline: Headline::Own {
        pair: kernel_pair,
        size: 32 << 20,
        label: "a 4 KiB psync reader beside two O_SYNC writers",
        no_table: "No patch and no measured table: two kernels' block layers on the 2023 board. Take the tour.",
    },
    kernel: gallery_text("Linux 6.1's blk_mq_submit_bio inserts a request into the scheduler and runs the queue \
             asynchronously: kblockd's worker calls ->queue_rq. Linux 6.12 plugs every bio in __submit_bio \
             (060406c61c7c, 6.10) and runs a BLK_MQ_F_BLOCKING queue in the caller (65a558f66c30, 6.6): the \
             submitting task calls ->queue_rq itself, and two tasks that do so at once meet mmc_mq_queue_rq's \
             mq->busy (one is refused and kblockd runs it again)."),
    walk: &[
        WalkStep::plain(S::Load(false), gallery_text("Load A: the reader and two writers on Linux 6.1.")),
        WalkStep::plain(S::Play("1 ms/s"), gallery_text("Play it and watch blk-mq: each request waits there for kblockd.")),
        WalkStep::plain(S::Pause, gallery_text("Pause: read who issued the requests, under the pipeline.")),
        WalkStep::plain(S::Highlight(Layer::BlkMq), gallery_text("blk-mq: the scheduler holds a request until a context dispatches it.")),
        WalkStep::plain(S::Load(true), gallery_text("Load B: the same jobs on Linux 6.12.")),
        WalkStep::plain(S::RunToEnd, gallery_text("Run it to the end and compare.")),
    ],
    tour: Some(tour),
    suggest_b: None,
};

/// The landing's build never opens this lesson (`full`).
#[cfg(not(feature = "full"))]
fn tour(_: &TourInput) -> Result<TourScript, RunError> {
    Err(RunError {
        option: None,
        message: "the whole app runs this tour".to_string(),
    })
}

#[cfg(feature = "full")]
/// The upgrade tour on its pair: A (6.1) and B (6.12).
fn tour(input: &TourInput) -> Result<TourScript, RunError> {
    let (a, b) = (input.a.clone(), input.b.clone());
    let (ra, rb) = (run(&a)?, run(&b)?);
    let (ja, jb) = (Jobs::of(&ra), Jobs::of(&rb));
    let unit = "µs (the reader's mean clat)";
    let fa = Figures::of(&ra, Some(ja.read_clat_us));
    let fb = Figures::of(&rb, Some(jb.read_clat_us));
    let ratio = fb.figure / fa.figure.max(1e-9);
    let speed = "1 ms/s";
    // The first moment B has refused a request: two of its tasks dispatched at once.
    let at = first_moment(&a, &b, speed, |_, fb| fb.requeues > 0)?;
    Ok(TourScript {
        speed,
        intro: "A and B run the same fio jobs on the 2023 Unisoc board under mq-deadline: an application reading \
                4 KiB at random, one read at a time (psync), beside two writers that each write 4 KiB with O_SYNC \
                250 times a second. Only the kernel differs: A runs Linux 6.1 (Android's android14-6.1), B Linux \
                6.12 (android16-6.12). The board's dynamic hsq depth is a backport under 6.1 (the what-if line \
                under A) and mainline's own under 6.12; with three jobs the window never fills, so it plays no part."
            .to_string(),
        watch_for: "Watch blk-mq in each pipeline: in A every request stops there until kblockd's worker comes to \
                    dispatch it; in B the task that submitted it dispatches it at once, and now and then two tasks \
                    try at the same moment."
            .to_string(),
        pause_press: pause_press("B has refused a request", &at),
        paused: at,
        layer: Layer::BlkMq,
        cause: cause(&at),
        focus_press: "Press Show to outline blk-mq, where the two kernels differ, in both pipelines, then Next.",
        prediction: prediction(ratio),
        end: end(&ja, &jb, &fa, &fb, unit),
        middle: Vec::new(),
        extra: Vec::new(),
        recap: format!(
            "Recap: moving this board from 6.1 to 6.12 cut the reader's mean latency from {} to {} ({:.1}x lower), \
             because the reading task dispatches its own request instead of waiting for kblockd's worker (a fitted \
             {} µs wake-up on this board: the gain is about that). The price: tasks dispatching at once collide \
             in mmc_mq_queue_rq ({} refusals in B, none in A). Flushes did not change ({} vs {}): each O_SYNC write \
             still has its own.",
            lat(ja.read_clat_us),
            lat(jb.read_clat_us),
            1.0 / ratio.max(1e-9),
            rerun_us(&a),
            fb.requeues,
            fa.flushes,
            fb.flushes,
        ),
        try_it: TryIt {
            option: "kernel",
            value: "6.6",
            both: false,
            press: Some(
                "Try it yourself: the button opens the Lab with B on Linux 6.6 (Android's android15-6.6) \
                 and runs it: 6.6 already dispatches in the caller, but it has no plug in __submit_bio; who issues the \
                 reader's requests there?",
            ),
            button: Some("Try kernel=6.6"),
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
/// kblockd's wake-up on the pair's board, µs (`queue_rerun_us`, a fitted figure).
fn rerun_us(a: &Scenario) -> u64 {
    a.effective_platform().map_or(0, |p| p.host.rerun_ns / 1000)
}

#[cfg(feature = "full")]
/// The cause at the paused moment: who issued the requests so far, and B's refusal.
fn cause(at: &Paused) -> String {
    format!(
        "At {}: in A the tasks issued {} requests and kblockd {}: Linux 6.1's blk_mq_submit_bio puts each request \
         into mq-deadline and runs the queue asynchronously, so it waits for kblockd's worker. In B the tasks \
         issued {} and kblockd {}: 6.12 plugs each bio in __submit_bio (6.10) and the plug's flush dispatches in \
         the task itself (a blocking queue runs in its caller since 6.6); kblockd is left what 6.12 still defers, \
         the flush machine's requests and the re-runs after a refusal. B has refused {}: a task entered \
         mmc_mq_queue_rq while another was inside (mq->busy), so its request went to hctx->dispatch for kblockd \
         to run again.",
        readout::clock(at.t_ns),
        readout::by_task(false, &at.fa),
        readout::by_kblockd(false, &at.fa),
        readout::by_task(true, &at.fb),
        readout::by_kblockd(true, &at.fb),
        at.fb.requeues,
    )
}

#[cfg(feature = "full")]
/// How B's reader latency compares with A's.
fn prediction(ratio: f64) -> Prediction {
    Prediction {
        question: "Before both run to the end (1 s of simulated time): how will the reader's mean completion latency \
                   on Linux 6.12 (B) compare with 6.1's (A)?"
            .to_string(),
        choices: vec![
            (1.0, "about the same".to_string()),
            (0.67, "B 1.5x lower".to_string()),
            (0.33, "B 3x lower".to_string()),
            (1.5, "B 1.5x higher".to_string()),
        ],
        ratio,
    }
}

#[cfg(feature = "full")]
/// The run-to-end step: what each job got under each kernel.
fn end(ja: &Jobs, jb: &Jobs, fa: &Figures, fb: &Figures, unit: &str) -> String {
    format!(
        "Both have run to the end (1 s each). Simulated: A {:.1} {unit}, B {:.1} {unit}; the reader completed \
         A {:.0} vs B {:.0} reads per second. The writers' mean latency: A {:.0} µs, B {:.0} µs. Refused: A {}, \
         B {}; flushes: A {}, B {}.",
        ja.read_clat_us,
        jb.read_clat_us,
        ja.read_iops,
        jb.read_iops,
        ja.write_clat_us,
        jb.write_clat_us,
        fa.requeues,
        fb.requeues,
        fa.flushes,
        fb.flushes,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::tour;

    /// 6.12's rules (65a558f66c30 with 060406c61c7c): the reading task dispatches its own
    /// request, so its latency falls by kblockd's wake-up; several dispatching tasks collide at
    /// `mq->busy`; one O_SYNC writer's flush is its own under both kernels.
    #[test]
    fn on_6_12_the_task_dispatches_the_reader_gains_and_tasks_collide() {
        let t = tour("kernel-upgrade").unwrap();
        assert!(
            t.fb.figure < 0.8 * t.fa.figure,
            "reader clat A {:.0} µs, B {:.0} µs",
            t.fa.figure,
            t.fb.figure
        );
        assert_eq!(t.fa.by_task, 0, "6.1: kblockd issues every request");
        assert!(t.fb.by_task > 10 * t.fb.by_kblockd, "{:?}", t.fb);
        assert_eq!(t.fa.requeues, 0);
        assert!(t.fb.requeues > 0);
        assert_eq!(t.fa.flushes, t.fb.flushes);
        for s in &t.steps {
            println!("{:?}\n  {}\n", s.action, s.text());
        }
    }

    /// The intro says the hsq depth plays no part: A at 6.1's own depth runs the same.
    #[test]
    fn the_backported_depth_changes_nothing_in_this_pair() {
        let (a, _) = kernel_pair(4 << 20);
        let own = apply_text(&a, "hsq_depth", "2").unwrap();
        let (ra, ro) = (run(&a).unwrap(), run(&own).unwrap());
        assert_eq!(Figures::of(&ra, None), Figures::of(&ro, None));
    }
}
