//! fio's latencies per I/O priority (`clat_prio`, stat.c): a job whose commands carry more than
//! one priority (`cmdprio_percentage`), or a group of jobs of different priorities under
//! `group_reporting`, reports each priority's completion latency beside the whole, as fio's
//! `show_ddir_status` and `add_ddir_status_json` print them (only when two or more have
//! samples: `get_nr_prios_with_samples`).

use mmcsim_engine::report::DirStats;
use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::IoClass;
use mmcsim_engine::{run, Scenario};

fn report(args: &[&str]) -> mmcsim_engine::report::Report {
    let mut a = vec![
        "--platform=unisoc-hsq-2023",
        "--ioscheduler=mq-deadline",
        "--direct=1",
        "--size=8m",
    ];
    a.extend_from_slice(args);
    run(&parse_args(&a, Scenario::default()).unwrap()).unwrap()
}

fn mean_us(d: &DirStats, class: IoClass) -> f64 {
    let p = d.prios_shown().iter().find(|p| p.ioprio.class == class);
    p.expect("the class has its entry").clat.mean() / 1000.0
}

/// mq-deadline serves a command's realtime priority first (`dd_dispatch_request`), so a job
/// with a tenth of its reads realtime sees them far faster than its others; the two entries
/// add up to the whole.
#[test]
fn a_job_with_command_priorities_reports_each_priority_s_latency() {
    let r = report(&[
        "--name=app",
        "--rw=randread",
        "--bs=4k",
        "--ioengine=libaio",
        "--iodepth=16",
        "--cmdprio_percentage=10",
        "--cmdprio_class=1",
    ]);
    let d = &r.jobs[0].read;
    let shown = d.prios_shown();
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert_eq!(shown[0].ioprio.class, IoClass::None, "the thread's first");
    let total: u64 = shown.iter().map(|p| p.clat.count()).sum();
    assert_eq!(total, d.clat.count());
    let (rt, be) = (mean_us(d, IoClass::Rt), mean_us(d, IoClass::None));
    assert!(rt * 3.0 < be, "realtime {rt:.0} us against {be:.0} us");
    let share = shown[1].clat.count() as f64 / total as f64;
    assert!((0.07..0.13).contains(&share), "{share}");
}

/// A job of one priority prints no per-priority lines (fio needs two with samples).
#[test]
fn a_job_of_one_priority_reports_none() {
    let r = report(&[
        "--name=app",
        "--rw=randread",
        "--bs=4k",
        "--ioengine=libaio",
        "--iodepth=16",
        "--prioclass=1",
    ]);
    assert!(r.jobs[0].read.prios_shown().is_empty());
}

/// `group_reporting` over two readers of different classes (`init_per_prio_stats`: the
/// threads' priorities differ) files each job's reads under its thread's priority.
#[test]
fn a_group_of_jobs_of_different_priorities_reports_each() {
    let r = report(&[
        "--group_reporting",
        "--rw=randread",
        "--bs=4k",
        "--ioengine=libaio",
        "--iodepth=8",
        "--name=fg",
        "--prioclass=1",
        "--name=bg",
        "--prioclass=3",
    ]);
    let m = r.merged();
    let shown = m.read.prios_shown();
    assert_eq!(shown.len(), 2, "{shown:?}");
    let fg = r.jobs.iter().find(|j| j.name == "fg").unwrap();
    let rt = shown
        .iter()
        .find(|p| p.ioprio.class == IoClass::Rt)
        .unwrap();
    assert_eq!(rt.clat.count(), fg.read.clat.count());
    assert!(mean_us(&m.read, IoClass::Rt) < mean_us(&m.read, IoClass::Idle));
}
