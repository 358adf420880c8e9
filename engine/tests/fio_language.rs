//! fio's job options that change what reaches the block device, each checked by what a user
//! would see in the report (or in a snapshot of the pipeline).

use mmcsim_engine::scenario::jobfile::{parse_jobfile, JobFileEnv};
use mmcsim_engine::scenario::options::{parse_args, ScenarioBuilder};
use mmcsim_engine::{run, Report, Scenario, Simulator};

fn scn(args: &str) -> Scenario {
    let v: Vec<&str> = args.split_whitespace().collect();
    parse_args(&v, Scenario::default()).unwrap_or_else(|e| panic!("{args}: {e}"))
}

fn report(args: &str) -> Report {
    run(&scn(args)).unwrap()
}

#[test]
fn large_ios_are_split_at_the_queue_limit_and_counted() {
    // sprd-hs400es-2020 takes requests of at most 512 KiB: 1 MiB I/Os become two requests.
    let r = report("--name=big --bs=1m --size=8m --rw=read");
    assert_eq!(r.jobs[0].read.total_ios, 8);
    assert_eq!(r.jobs[0].read.io_bytes, 8 << 20);
    assert_eq!((r.sim.split_ios, r.sim.split_requests), (8, 16));
    // The requests of one I/O share its id in the pipeline.
    let mut sim = Simulator::new(&scn("--name=big --bs=4m --size=8m --rw=write")).unwrap();
    let mut shared = false;
    while sim.step() {
        let snap = sim.snapshot();
        let ios: Vec<u64> = snap.requests.iter().map(|r| r.io).collect();
        if ios.len() > 1 && ios.iter().all(|&i| i == ios[0]) {
            shared = true;
            break;
        }
    }
    assert!(shared, "the 8 requests of a 4 MiB write carry one I/O id");
}

#[test]
fn stonewall_runs_groups_one_after_the_other() {
    let s = parse_jobfile(
        "[global]\nsize=1m\n[a]\nrw=write\n[b]\nstonewall\nrw=read\n[c]\nnew_group\nrw=read\n",
        Scenario::default(),
    )
    .unwrap();
    let r = run(&s).unwrap();
    let g: Vec<u32> = r.jobs.iter().map(|j| j.groupid).collect();
    assert_eq!(g, [0, 1, 2]);
    // b and c start together after a: their runtimes start at a's end, so the run lasts
    // about a's time plus theirs.
    let a = r.jobs[0].runtime_ns;
    assert!(r.sim.simulated_ns > a + r.jobs[1].runtime_ns.min(r.jobs[2].runtime_ns));
    // b's runtime counts from its own start, after a's end: counted from 0 it would hold a's
    // time twice over here.
    assert!(
        r.jobs[1].runtime_ns + a <= r.sim.simulated_ns,
        "b's runtime counts from its own start: b {} + a {a} > run {}",
        r.jobs[1].runtime_ns,
        r.sim.simulated_ns
    );
}

#[test]
fn rw_mixes_reads_and_writes_sequentially() {
    let r = report("--name=m --rw=rw --rwmixread=70 --size=4m");
    let (rd, wr) = (r.jobs[0].read.total_ios, r.jobs[0].write.total_ios);
    assert_eq!(rd + wr, 1024);
    assert!(
        (600..830).contains(&rd),
        "{rd} reads of 1024 at rwmixread=70"
    );
    let r = report("--name=m --readwrite=readwrite --size=1m");
    assert!(r.jobs[0].read.total_ios > 0 && r.jobs[0].write.total_ios > 0);
}

#[test]
fn block_sizes_from_bsrange_and_bssplit() {
    let r = report("--name=s --rw=randread --bssplit=4k/50:64k/50 --size=16m");
    let d = &r.jobs[0].read;
    let avg = d.io_bytes / d.total_ios;
    assert!((20_000..50_000).contains(&avg), "mean I/O {avg} bytes");
    assert!(d.io_bytes >= 16 << 20);
    let r = report("--name=s --rw=write --blocksize_range=4k-16k --size=4m");
    let d = &r.jobs[0].write;
    let avg = d.io_bytes / d.total_ios;
    assert!((8192..12288).contains(&avg), "mean I/O {avg} bytes");
}

#[test]
fn rate_and_thinktime_slow_the_job_down() {
    let free = report("--name=r --rw=read --size=2m");
    let capped = report("--name=r --rw=read --size=2m --rate=1m");
    let bw = capped.jobs[0].read.bw_bytes();
    assert!(
        bw <= 1.02 * 1048576.0 && bw > 0.9 * 1048576.0,
        "rate=1m gives {bw} B/s"
    );
    assert!(free.jobs[0].read.bw_bytes() > 10.0 * bw);
    let iops = report("--name=r --rw=read --size=1m --rate_iops=100").jobs[0]
        .read
        .iops();
    assert!((95.0..=101.0).contains(&iops), "rate_iops=100 gives {iops}");
    let think = report("--name=r --rw=read --size=1m --thinktime=1ms --thinktime_blocks=4");
    let t = think.jobs[0].read.runtime_ns;
    assert!(
        t >= 256 / 4 * 1_000_000 - 1_000_000,
        "64 pauses of 1 ms: {t}"
    );
}

#[test]
fn amounts_loops_io_size_number_ios() {
    assert_eq!(
        report("--name=l --size=1m --loops=3").jobs[0]
            .read
            .total_ios,
        768
    );
    assert_eq!(
        report("--name=l --size=1m --io_size=3m").jobs[0]
            .read
            .total_ios,
        768
    );
    assert_eq!(
        report("--name=l --size=1m --number_ios=10").jobs[0]
            .read
            .total_ios,
        10
    );
    assert_eq!(
        report("--name=l --size=1m --io_limit=512k").jobs[0]
            .read
            .total_ios,
        128
    );
}

#[test]
fn regions_files_and_offset_increment() {
    let s = scn("--name=f --rw=write --filesize=1m --nrfiles=4 --numjobs=2 --offset_increment=64m");
    let r = run(&s).unwrap();
    assert_eq!(r.jobs[0].write.io_bytes, 4 << 20, "nrfiles x filesize");
    // Watch the offsets: clone 1 writes at 64 MiB and up.
    let mut sim = Simulator::new(&s).unwrap();
    let mut seen = [false; 2];
    while sim.step() {
        for rq in sim.snapshot().requests {
            let hi = rq.offset >= 64 << 20;
            seen[usize::from(hi)] = true;
            assert!(rq.offset < (64 << 20) + (4 << 20));
        }
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn ramp_time_is_left_out_of_the_statistics() {
    let all = report("--name=r --size=4m --time_based --runtime=50ms");
    let ramped = report("--name=r --size=4m --time_based --runtime=50ms --ramp_time=20ms");
    let rt = ramped.jobs[0].read.runtime_ns;
    assert!(
        (49_000_000..=51_000_000).contains(&rt),
        "runtime after ramp: {rt}"
    );
    let ratio = ramped.jobs[0].read.total_ios as f64 / all.jobs[0].read.total_ios as f64;
    assert!((0.9..1.1).contains(&ratio), "{ratio}");
    assert!(ramped.sim.simulated_ns >= 70_000_000);
}

#[test]
fn flush_options() {
    // fio carries the fsync in the io_u after every N-th write: none after the last write
    // (the kernel oracle saw 255 flushes for 256 writes with fsync=1).
    let r = report("--name=w --rw=write --size=1m --fdatasync=16");
    assert_eq!(r.jobs[0].flushes, 15);
    let r = report("--name=w --rw=write --size=1m --end_fsync=1");
    assert_eq!(r.jobs[0].flushes, 1);
    let r = report("--name=w --rw=write --size=1m --fsync_on_close=1 --fsync=128");
    assert_eq!(r.jobs[0].flushes, 2, "after the 128th write, and on close");
}

#[test]
fn random_distributions_are_deterministic_and_skewed() {
    let a = report(
        "--name=z --rw=randread --size=64m --number_ios=2000 --random_distribution=zipf:1.2",
    );
    let b = report(
        "--name=z --rw=randread --size=64m --number_ios=2000 --random_distribution=zipf:1.2",
    );
    assert_eq!(a, b);
    for d in ["pareto:0.9", "normal:5", "random"] {
        let r = report(&format!(
            "--name=z --rw=randread --size=64m --number_ios=500 --random_distribution={d}"
        ));
        assert_eq!(r.jobs[0].read.total_ios, 500, "{d}");
    }
}

#[test]
fn runtime_beyond_ten_minutes_is_bounded_by_the_io_budget() {
    let s = scn("--name=t --runtime=900 --time_based --rw=randread --size=64m --thinktime=100ms");
    let r = run(&s).unwrap();
    assert!(r.sim.simulated_ns >= 900_000_000_000);
    assert!(!r.sim.io_budget_reached);
}

#[test]
fn include_and_variables() {
    let inc = |name: &str| match name {
        "common.fio" => Ok("[global]\nbs=${BS}\nsize=$pagesize\n".to_string()),
        _ => Err("no such file".to_string()),
    };
    let var = |name: &str| (name == "BS").then(|| "512".to_string());
    let env = JobFileEnv {
        include: &inc,
        var: &var,
    };
    let mut b = ScenarioBuilder::new(Scenario::default());
    b.jobfile_in("include common.fio\n[j]\nnumjobs=$ncpus\n", &env)
        .unwrap();
    let s = b.finish().unwrap();
    assert_eq!(
        (s.jobs[0].bs, s.jobs[0].size, s.jobs[0].numjobs),
        (512, 4096, 8)
    );
    let mut b = ScenarioBuilder::new(Scenario::default());
    let e = b.jobfile_in("include nope.fio\n", &env).unwrap_err();
    assert!(e.to_string().contains("line 1: include 'nope.fio'"), "{e}");
}

#[test]
fn options_without_effect_are_listed_once() {
    let mut b = ScenarioBuilder::new(Scenario::default());
    b.jobfile("[global]\ngtod_reduce=1\nverify=md5\ndirect=0\n[a]\ngtod_reduce=1\n[b]\ncreate_on_open=1\n")
        .unwrap();
    let t = b.notes_text().unwrap();
    assert_eq!(
        t,
        "accepted, no effect in the model: gtod_reduce, verify, create_on_open\n\
         direct: buffered I/O through the page cache is not modelled; it runs as direct I/O"
    );
}

#[test]
fn strided_zones_skip_between_zones() {
    let s =
        scn("--name=z --rw=read --size=4m --bs=64k --zonemode=strided --zonesize=1m --zoneskip=7m");
    let mut sim = Simulator::new(&s).unwrap();
    let mut zones = std::collections::BTreeSet::new();
    while sim.step() {
        for rq in sim.snapshot().requests {
            assert!(
                rq.offset % (8 << 20) < (1 << 20),
                "offset {} outside a zone",
                rq.offset
            );
            zones.insert(rq.offset >> 23);
        }
    }
    assert_eq!(zones.into_iter().collect::<Vec<_>>(), [0, 1, 2, 3]);
}

/// Issue 12: a two-job file edited one job at a time (the page's form): a job option set in
/// one job's scope changes that job only, a scenario-wide one the whole scenario, and the job
/// file written back carries both jobs.
#[test]
fn a_job_option_set_for_one_job_leaves_the_other_as_it_was() {
    use mmcsim_engine::scenario::jobfile::to_jobfile;
    use mmcsim_engine::scenario::options::{apply_text_in, value_text_in};
    use mmcsim_engine::scenario::OptionScope;
    let file = "[global]\nsize=1m\n\n[reader]\nrw=randread\nbs=4k\nnumjobs=2\n\n[writer]\nrw=write\nbs=64k\n";
    let two = parse_jobfile(file, Scenario::default()).unwrap();
    assert_eq!(two.jobs.len(), 2);
    assert_eq!(value_text_in(&two, 0, "rw"), "randread");
    assert_eq!(value_text_in(&two, 1, "rw"), "write");
    let edited = apply_text_in(&two, OptionScope::Job(1), "numjobs", "4").unwrap();
    assert_eq!(edited.jobs[0], two.jobs[0], "job 1 unchanged");
    assert_eq!((edited.jobs[0].numjobs, edited.jobs[1].numjobs), (2, 4));
    let edited = apply_text_in(&edited, OptionScope::Job(1), "packed", "4").unwrap();
    assert_eq!(
        edited.switch::<u32>("packed"),
        Some(4),
        "a host switch is the scenario's in any scope"
    );
    let back = parse_jobfile(&to_jobfile(&edited), Scenario::default()).unwrap();
    assert_eq!(back.jobs, edited.jobs);
    assert!(
        apply_text_in(&two, OptionScope::Job(2), "numjobs", "4").is_err(),
        "no third job"
    );
}
