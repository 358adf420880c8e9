//! A fio job clone set up from its job section (fio's `setup_thread_data` / `thread_data`).

use super::steadystate;
use super::{BsGen, EndFlush, Job, TrimState};
use crate::report::DirStats;
use crate::rng::Permutation;
use crate::scenario::{JobSpec, Rw, SyncModel};

impl Job {
    /// Clone `index` (over all sections) of `spec`, drawing from stream `stream` of `seed`.
    pub fn new(spec: &JobSpec, index: u32, seed: u64, stream: u64) -> Job {
        let min_bs = spec.min_bs().max(512);
        let nrfiles = u64::from(spec.nrfiles.max(1));
        let region = spec.region_bytes().max(min_bs);
        let file_bytes = (region / nrfiles).max(min_bs);
        let blocks = (region / min_bs).max(1);
        let mut rng = crate::rng::stream(seed, stream);
        let perm = spec
            .rw
            .is_random()
            .then(|| Permutation::new(blocks, &mut rng));
        let time_based = spec.time_based && spec.runtime_ns.is_some();
        let bytes_limit = (!time_based).then(|| spec.io_bytes() / min_bs * min_bs);
        let bs = bs_gen(spec, min_bs);
        Job {
            name: spec.name.clone(),
            index,
            group: 0,
            phase: 0,
            section: 0,
            waits_for: None,
            rw: spec.rw,
            rwmixread: spec.rwmixread,
            bs,
            min_bs,
            skip: spec.rw_skip,
            stride: stride(spec),
            blocks,
            base: spec.offset,
            region,
            nrfiles,
            file_bytes,
            seq_pos: vec![0; nrfiles as usize],
            runtime_ns: spec.runtime_ns,
            ramp_ns: spec.ramp_time_ns,
            startdelay_ns: spec.startdelay_ns,
            t_start: None,
            outstanding_max: spec.outstanding(),
            inflight: 0,
            batch: if spec.ioengine.is_async() {
                match spec.iodepth_batch {
                    0 => spec.outstanding(),
                    n => n.min(spec.outstanding()),
                }
            } else {
                1
            },
            queued: Vec::new(),
            complete_min: spec.iodepth_batch_complete_min,
            reap_wait: 0,
            issuing: false,
            issued: 0,
            issued_bytes: 0,
            since_think: 0,
            think_until: 0,
            think_ns: spec.thinktime_ns,
            think_blocks: spec.thinktime_blocks.max(1),
            rate: spec.rate,
            rate_iops: spec.rate_iops,
            perm,
            dist: spec.random_distribution.clone(),
            rand_draws: 0,
            rng,
            // On F2FS an O_SYNC write's data carries no REQ_FUA (`iomap_dio_rw` asks FUA only
            // for O_DSYNC without O_SYNC; the page cache's writeback never): `f2fs_sync`.
            fua_writes: spec.sync && spec.fs == SyncModel::Raw,
            sync_syscall: !spec.ioengine.is_async(),
            fs: spec.fs,
            f2fs_sync: spec.sync && spec.fs != SyncModel::Raw,
            fsync_every: spec.flush_every(),
            writes_since_flush: 0,
            flush_pending: false,
            end_flush: end_flush(spec),
            replay: None,
            stopped: false,
            exitall: spec.exitall,
            zbd: spec.zone_zbd,
            read_beyond_wp: spec.read_beyond_wp,
            deadline_at: u64::MAX,
            ios_cap: spec.number_ios.unwrap_or(u64::MAX),
            bytes_cap: bytes_limit.unwrap_or(u64::MAX),
            paced: spec.rate > 0 || spec.rate_iops > 0 || spec.thinktime_ns > 0,
            finished: false,
            records: None,
            queued_log: None,
            read: DirStats::default(),
            write: DirStats::default(),
            trim: matches!(spec.rw, Rw::Trim | Rw::RandTrim | Rw::TrimWrite)
                .then(|| Box::new(TrimState::default())),
            ss: steady_state(spec),
            flushes: 0,
            errors: 0,
            ramp_ios: 0,
            last_done: 0,
            prio: super::ioprio::JobIoPrio::new(spec, seed, stream),
        }
    }
}

/// How the job picks block sizes: `bsrange`, `bssplit` (cumulative percentages, reads and
/// writes), or the one `bs`.
fn bs_gen(spec: &JobSpec, min_bs: u64) -> BsGen {
    if let Some((lo, hi)) = spec.bsrange {
        BsGen::Range(lo, hi)
    } else if !spec.bssplit.is_empty() {
        let cumulative = |v: &[(u64, u32)]| {
            let mut cum = 0;
            v.iter()
                .map(|&(b, p)| {
                    cum += p;
                    (b, cum)
                })
                .collect::<Vec<_>>()
        };
        let reads = cumulative(&spec.bssplit);
        let writes = spec
            .bssplit_write
            .as_deref()
            .map_or_else(|| reads.clone(), cumulative);
        BsGen::Split(reads, writes)
    } else {
        BsGen::Fixed(min_bs)
    }
}

/// fio's steady-state detector (`steadystate`, `ss_dur`, `ss_ramp`), if the job has one.
fn steady_state(spec: &JobSpec) -> Option<Box<steadystate::SteadyState>> {
    (spec.ss_dur_ns > 0).then(|| {
        let text = spec
            .steadystate
            .as_deref()
            .unwrap_or(crate::scenario::steadystate::DEFAULT_CRITERION);
        // The option table accepted the text; fall back to fio's default otherwise.
        let c = crate::scenario::steadystate::parse(text).unwrap_or_else(|_| {
            crate::scenario::steadystate::parse(crate::scenario::steadystate::DEFAULT_CRITERION)
                .expect("fio's default criterion parses")
        });
        Box::new(steadystate::SteadyState::new(
            c,
            spec.ss_dur_ns,
            spec.ss_ramp_ns,
            spec.ss_interval_ns,
        ))
    })
}

/// `zonemode=strided`: (zonesize, zoneskip), if the job's region lies in zones.
fn stride(spec: &JobSpec) -> Option<(u64, u64)> {
    spec.zonesize
        .filter(|&z| spec.zone_strided && z > 0)
        .map(|z| (z, spec.zoneskip))
}

/// `end_fsync` / `fsync_on_close`: a flush when the job's data is done.
fn end_flush(spec: &JobSpec) -> EndFlush {
    if spec.flush_at_end() {
        EndFlush::Pending
    } else {
        EndFlush::None
    }
}
