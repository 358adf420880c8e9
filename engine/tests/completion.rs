//! Issue 28, item 3: completions as the kernel runs them. The hard interrupt's part
//! (`blk_mq_complete_request`), the block softirq (`mmc_blk_cqe_complete_rq`, in_flight--) and
//! the waiting thread's wake-up are stages of their own; kblockd's re-run is paid only by a
//! request that waits (refused with BLK_STS_RESOURCE, or inserted behind one); one
//! interrupt's completions run one after another on its CPU.

use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{Scenario, Simulator, Stage};

fn args(line: &str) -> Scenario {
    let a: Vec<&str> = line.split_whitespace().collect();
    parse_args(&a, Scenario::default()).unwrap()
}

const QD1: &str = "--name=t --rw=randread --bs=4k --size=8m";

/// A 4 KiB random read at one request outstanding on the 2020 board: its latency breakdown
/// names the kernel's steps, each the board's figure (interrupt gap + hard IRQ 8 + 4 us,
/// softirq 10 us + the read's 34 us unmap, wake-up 10 us), kblockd never runs (nothing is
/// refused), and the steps add up to the latency fio reports.
#[test]
fn a_qd1_random_read_names_each_kernel_step_and_kblockd_never_runs() {
    let r = mmcsim_engine::run(&args(QD1)).unwrap();
    let us = |s: Stage| r.sim.stage_per_request(s) / 1e3;
    let near = |s: Stage, want: f64| {
        assert!(
            (us(s) - want).abs() < 0.1 * want,
            "{}: {:.1} us, want ~{want}",
            s.name(),
            us(s)
        )
    };
    near(Stage::Irq, 12.0);
    near(Stage::Softirq, 44.0);
    // The wake-up: 10 us, and now and then a preemption of the woken thread (variation).
    assert!(
        (9.0..14.0).contains(&us(Stage::Complete)),
        "wake-up {:.1} us",
        us(Stage::Complete)
    );
    assert_eq!(Stage::Softirq.name(), "softirq");
    assert_eq!(Stage::Complete.name(), "wake-up");
    assert!(us(Stage::BlkMq) < 0.5, "blk-mq {:.1} us", us(Stage::BlkMq));
    assert_eq!(r.sim.requeues, 0);
    let total: f64 = Stage::ALL.iter().map(|&s| us(s)).sum();
    let clat = r.jobs[0].read.clat.mean() / 1e3;
    assert!(
        (total - clat).abs() < 1.0,
        "stages {total:.1} us vs clat {clat:.1} us"
    );
    assert!(clat < 230.0, "clat {clat:.1} us (294 with the fitted pass)");
}

/// kblockd's wake-up is the cost of a refused request: at one request outstanding a slower
/// kblockd changes nothing; 20 jobs at a window of three wait for it on every refill.
#[test]
fn the_kblockd_rerun_is_paid_only_when_a_request_was_refused() {
    let clat = |extra: &str| {
        let r = mmcsim_engine::run(&args(&format!("{QD1} {extra}"))).unwrap();
        r.jobs[0].read.clat.mean()
    };
    assert_eq!(clat(""), clat("--queue_rerun_us=500"));
    let mib_s = |extra: &str| {
        let line =
            format!("--name=t --rw=read --bs=4k --size=4m --numjobs=20 --group_reporting {extra}");
        let r = mmcsim_engine::run(&args(&line)).unwrap();
        assert!(r.sim.requeues > 0, "{extra}: the window refuses");
        let m = r.merged();
        m.read.io_bytes as f64 / m.read.runtime_ns as f64
    };
    let (fitted, slow) = (mib_s(""), mib_s("--queue_rerun_us=224"));
    assert!(slow < 0.8 * fitted, "{fitted:.3} vs {slow:.3} bytes/ns");
}

/// One interrupt finishes a chain of up to 8 requests (packed): their completions follow each
/// other on the interrupt's CPU (4 us hard IRQ + 10 us softirq per write on the 2020 board,
/// varying), so hardly any two softirqs of the run start together, as 8 did side by side.
#[test]
fn one_interrupts_completions_run_one_after_another() {
    let scn = args("--name=t --rw=randwrite --bs=4k --size=1m --numjobs=20 --packed=8");
    let mut sim = Simulator::new(&scn).unwrap();
    sim.set_trace_capacity(1 << 20);
    let mut starts = Vec::new();
    while sim.step() {
        let trace = sim.drain_trace();
        starts.extend(
            trace
                .iter()
                .filter(|e| e.stage == Stage::Softirq)
                .map(|e| e.t_ns),
        );
    }
    assert!(sim.report().sim.avg_batch() > 6.0, "chains formed");
    starts.sort_unstable();
    // Side by side, 7 of each chain's 8 would start with the one before them.
    let close = starts.windows(2).filter(|w| w[1] - w[0] < 5_000).count();
    assert!(
        close * 100 < starts.len(),
        "{close} of {} softirqs",
        starts.len()
    );
    assert_eq!(starts.len(), 20 * 256, "every write's softirq");
}
