//! Building the simulator from a scenario: the platform and host switches, the job clones
//! (sections, groups, stonewall phases, replayed traces), mmc_test, and every layer's state,
//! each random stream derived from the scenario's one seed.

use super::{Event, EventQueue, Simulator, TraceBuf, CARD_STREAM, MAX_BATCH};
use crate::metrics::TimeSeries;
use crate::path::blk_mq::BlkMq;
use crate::path::bus::Bus;
use crate::path::card::Card;
use crate::path::controller::HostPath;
use crate::path::cqe::Cqe;
use crate::path::host::HostCtl;
use crate::path::hsq::Hsq;
use crate::path::legacy::Legacy;
use crate::path::mmc_queue::MmcQueue;
use crate::path::mmc_test::MmcTest;
use crate::path::workload::zbd::Zones;
use crate::path::workload::Job;
use crate::report::SimStats;
use crate::scenario::iolog::{IoLog, ReplayEvents};
use crate::scenario::{Scenario, ScenarioError};
use crate::vocab::{HostConfig, MmcPath, Stage, MMC_TEST_BYTES};

/// The job clones of a scenario, and what the progress bar and the run's end need of them.
#[derive(Default)]
struct JobSet {
    jobs: Vec<Job>,
    bytes_total: u64,
    runtime_ns: Option<u64>,
    iologs: Vec<IoLog>,
}

impl Simulator {
    /// Builds the layers for `scn` (see [`Simulator::new`]).
    pub(crate) fn build(scn: &Scenario) -> Result<Simulator, ScenarioError> {
        let platform = scn.effective_platform()?;
        let cfg = host_config(scn)?;
        let JobSet {
            jobs,
            mut bytes_total,
            runtime_ns,
            iologs,
        } = job_set(scn)?;
        let all_timed_ns = scn
            .jobs
            .iter()
            .map(|j| j.runtime_ns)
            .try_fold(0u64, |m, r| r.map(|r| m.max(r)))
            .filter(|_| scn.mmc_test.is_none() && !scn.jobs.is_empty());
        let mmc_test = mmc_test_of(scn, platform.host.max_req_bytes);
        if let Some(t) = &mmc_test {
            bytes_total = t.total_bytes();
        }
        let stream = |n: u64| crate::rng::stream(scn.randseed, CARD_STREAM - n);
        let path = HostPath::of(&cfg, &platform.card, scn.mmc_test.is_some());
        let mut sim = Simulator {
            now: 0,
            q: EventQueue::default(),
            reqs: Default::default(),
            next_req_id: 0,
            platform: Box::new(platform),
            cfg,
            rules: platform.kernel.block_rules(),
            jobs,
            blk: blk_mq_of(scn, &cfg, &platform, path.tag_set_depth(), &mut stream(4)),
            mq: MmcQueue::new(path, cfg.hsq_depth),
            hsq: Hsq::new(cfg.packed, cfg.hsq_dispatch),
            legacy: Legacy::default(),
            cqe: Cqe::default(),
            host: HostCtl::default(),
            bus: Bus::new(platform.bus),
            card: Card::new(
                platform.card,
                platform.variation,
                cfg.cache,
                stream(0),
                stream(2),
            ),
            jitter: crate::variation::HostJitter::new(platform.variation, stream(3)),
            mmc_test,
            stats: SimStats {
                batch_hist: vec![0; MAX_BATCH + 1],
                ..Default::default()
            },
            stage_ns: [0; Stage::ALL.len()],
            // At most 128 buckets: wide enough that a bucket holds several completions (no
            // aliasing between the request period and the bucket width), fine enough for a chart.
            series: TimeSeries::new(100_000, 128),
            bytes_done: 0,
            bytes_total: bytes_total.max(1),
            runtime_ns,
            all_timed_ns,
            trace: TraceBuf::default(),
            events: 0,
            power_cut: None,
            acked_reliable_writes: 0,
            recovery: crate::path::recovery::Recovery::new(scn.inject_error, stream(1)),
            iologs,
            data_ios: 0,
            split: std::collections::HashMap::new(),
            merged: std::collections::HashMap::new(),
            req_sizes: Default::default(),
            acct: Default::default(),
            fq: Default::default(),
            syncing: std::collections::HashMap::new(),
            node_log: Default::default(),
            zbd: zbd_zones(scn),
            phase_started: 0,
        };
        if let HostPath::Cqe { .. } = path {
            // `mmc_sd_init_card` -> `mmc_sd_cmdq_enable`: an SD card queues, and posts writes.
            sim.card.sd_cmdq_enable();
        }
        if let Some(t) = scn.power_cut_ns {
            sim.q.push(t, Event::PowerCut);
        }
        if sim.mmc_test.is_some() {
            sim.mmc_test_begin();
        } else {
            sim.workload_start();
        }
        Ok(sim)
    }
}

/// The scenario's host switches (its effective platform's), checked; mmc_test drives the
/// legacy path, and its case number says blocking or not.
fn host_config(scn: &Scenario) -> Result<HostConfig, ScenarioError> {
    let mut cfg = scn.effective_platform()?.switches;
    crate::scenario::check(scn)?;
    if let Some(case) = scn.mmc_test {
        cfg.mmc_path = MmcPath::Legacy;
        cfg.nonblocking = case % 2 == 0;
        cfg.packed = 0;
    }
    Ok(cfg)
}

/// The mmc_test case, if the scenario runs one: `size=` bytes per transfer size if given,
/// else mmc_test's 128 MiB, in requests of at most `max_req` bytes.
fn mmc_test_of(scn: &Scenario, max_req: u64) -> Option<MmcTest> {
    scn.mmc_test.map(|case| {
        let per_size = scn
            .jobs
            .first()
            .map(|j| j.size)
            .filter(|&s| s != crate::scenario::JobSpec::default().size)
            .unwrap_or(MMC_TEST_BYTES);
        MmcTest::new(case, max_req, per_size)
    })
}

/// `zonemode=zbd`: fio's emulated zones, set up from the first job that asks for them.
fn zbd_zones(scn: &Scenario) -> Option<Box<Zones>> {
    scn.jobs.iter().find(|j| j.zone_zbd).map(|j| {
        Box::new(Zones::new(
            j.zonesize.unwrap_or(0),
            j.max_open_zones,
            j.zone_reset_threshold_ppm,
            j.zone_reset_frequency_ppm,
        ))
    })
}

/// The job clones of every section (none for mmc_test), with their groups, stonewall phases,
/// `wait_for` sections and replayed traces.
fn job_set(scn: &Scenario) -> Result<JobSet, ScenarioError> {
    let mut set = JobSet::default();
    if scn.mmc_test.is_some() {
        return Ok(set);
    }
    let (mut group, mut phase) = (0u32, 0u32);
    for (s, spec) in scn.jobs.iter().enumerate() {
        if s > 0 && (spec.stonewall || spec.new_group) {
            group += 1;
        }
        if s > 0 && spec.stonewall {
            phase += 1;
        }
        let replay = replay_of(scn, spec, &mut set.iologs)?;
        let record = spec.write_bw_log.is_some()
            || spec.write_lat_log.is_some()
            || spec.write_iops_log.is_some();
        // `wait_for=NAME`: the last section of that name before this one (a name that
        // no earlier section has waits for nothing).
        let waits = spec
            .wait_for
            .as_ref()
            .and_then(|w| scn.jobs[..s].iter().rposition(|e| e.name == *w))
            .map(|i| i as u32);
        for k in 0..spec.numjobs {
            let index = set.jobs.len() as u32;
            let mut job = Job::new(spec, index, scn.randseed, index as u64)
                .clone_no(k, spec)
                .in_group(group, phase)
                .in_section(s as u32, waits);
            match replay {
                Some((i, bytes)) => {
                    job = job.replaying(i, spec.loops, spec.replay_no_stall);
                    set.bytes_total += bytes * u64::from(spec.loops.max(1));
                }
                None => {
                    let min = spec.min_bs().max(1);
                    set.bytes_total += (spec.io_bytes() / min).max(1) * min;
                }
            }
            if record {
                job = job.recording();
            }
            if spec.write_iolog.is_some() {
                job = job.logging_queued();
            }
            set.jobs.push(job);
        }
        if spec.time_based {
            set.runtime_ns = set.runtime_ns.max(spec.runtime_ns);
        }
    }
    Ok(set)
}

/// `read_iolog`: the index of the job's trace among the run's (each loaded once) and the bytes
/// of one pass over it.
fn replay_of(
    scn: &Scenario,
    spec: &crate::scenario::JobSpec,
    iologs: &mut Vec<IoLog>,
) -> Result<Option<(usize, u64)>, ScenarioError> {
    Ok(match &spec.read_iolog {
        Some(name) => {
            let log = scn.iolog(name).ok_or_else(|| {
                ScenarioError::new(
                    "read_iolog",
                    format!("'{name}': the trace is not loaded (give the file on the command line, or drop it on the page)"),
                )
            })?;
            // The simulator's copy holds the events the job replays (`replay_events=`).
            let ops = log.ops_of(spec.replay_events);
            if ops.is_empty() {
                let other = match spec.replay_events {
                    ReplayEvents::Issue => ReplayEvents::Queue,
                    ReplayEvents::Queue => ReplayEvents::Issue,
                };
                return Err(ScenarioError::new(
                    "replay_events",
                    format!(
                        "'{name}' has no {} events to replay; accepted: replay_events={} (the events it has)",
                        spec.replay_events.name(),
                        other.name()
                    ),
                ));
            }
            let i = match iologs
                .iter()
                .position(|l| l.name == *name && std::sync::Arc::ptr_eq(&l.ops, ops))
            {
                Some(i) => i,
                None => {
                    // The scenario's list, shared: not a copy of it.
                    iologs.push(IoLog {
                        name: log.name.clone(),
                        format: log.format,
                        ops: ops.clone(),
                        queued: Default::default(),
                        dev: log.dev,
                        skipped: log.skipped,
                        meta: log.meta.clone(),
                    });
                    iologs.len() - 1
                }
            };
            Some((i, ops.iter().map(|o| o.len).sum::<u64>()))
        }
        None => None,
    })
}

/// blk-mq for the scenario: a tag set of `depth` tags (`mmc_init_queue`), the scheduler its
/// kernel runs (`ioscheduler=`), `nr_requests` (the scheduler's default unless set) and
/// `nomerges`.
fn blk_mq_of(
    scn: &Scenario,
    cfg: &HostConfig,
    platform: &crate::board::Platform,
    depth: u16,
    rng: &mut crate::rng::Rng,
) -> BlkMq {
    use crate::path::elevator::{default_nr_requests, Elevator, Tunables};
    let mut t = Tunables::of(&scn.queue);
    t.dd_from_pos = platform.kernel.block_rules().dd_from_pos;
    let mut elv = Elevator::new(cfg.iosched, t);
    elv.set_job_prios(
        &crate::path::elevator::sched_prios(&scn.jobs),
        platform.kernel.block_rules().bfq_root_group_counted,
    );
    let nr = scn
        .queue
        .nr_requests
        .unwrap_or(default_nr_requests(cfg.iosched, u32::from(depth)));
    let mut blk = BlkMq::new(depth, cfg.packed > 0, platform.host.cpus, elv, nr, rng);
    blk.nomerges = scn.queue.nomerges;
    blk
}
