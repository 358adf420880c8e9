//! Power cuts at random times over random write scenarios: the guarantees the model keeps.
//! - an O_SYNC write (REQ_FUA: a reliable write with FUA, a write + post-flush without; with
//!   `fs=f2fs` a data write, a node write and a flush; with `fs=f2fs-atomic` a data write and
//!   a node write with REQ_PREFLUSH | REQ_FUA) is never lost;
//! - with fsync=N, a write acknowledged before a completed flush is never lost;
//! - with the cache off, nothing acknowledged is lost;
//! - with the cache on, plain writes (no O_SYNC, no fsync) acknowledged from the cache are lost;
//! - the unit is the I/O: a split I/O is acknowledged once all its requests are done.

use std::collections::HashMap;

use mmcsim_engine::scenario::SyncModel;
use mmcsim_engine::{run, IoEngine, JobSpec, Op, Rw, Scenario, Simulator, Stage};
use proptest::prelude::*;

use crate::common;

fn write_job() -> impl Strategy<Value = JobSpec> {
    (
        prop::sample::select(vec![Rw::Write, Rw::RandWrite, Rw::RandRw]),
        prop::sample::select(vec![4096u64, 16384, 131072]),
        1u32..=4,
        prop::sample::select(vec![IoEngine::Psync, IoEngine::Libaio]),
        1u32..=8,
        any::<bool>(),
        prop::sample::select(vec![0u32, 1, 4, 16]),
        prop::sample::select(SyncModel::ALL.to_vec()),
    )
        .prop_map(
            |(rw, bs, numjobs, ioengine, iodepth, sync, fsync, fs)| JobSpec {
                name: "w".into(),
                rw,
                rwmixread: 30,
                bs,
                size: 16 << 20,
                numjobs,
                iodepth,
                ioengine,
                sync,
                fsync,
                fs,
                ..JobSpec::default()
            },
        )
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        prop::sample::select(vec![
            "sprd-hs400es-2020",
            "unisoc-fua-2022",
            "unisoc-hsq-2023",
        ]),
        write_job(),
        any::<bool>(),
        any::<bool>(),
        prop::sample::select(vec![0u32, 8]),
        1u64..200_000_000,
        any::<u64>(),
    )
        .prop_map(|(platform, job, fua, cache, packed, cut, seed)| {
            let mut s = Scenario {
                platform: platform.into(),
                randseed: seed,
                ..Scenario::default()
            };
            s.set_switch::<bool>("fua", Some(fua));
            s.set_switch::<bool>("cache", Some(cache));
            s.set_switch::<u32>("packed", Some(packed));
            s.jobs = vec![job];
            s.power_cut_ns = Some(cut);
            s
        })
}

fn check(s: &Scenario) -> Result<(), TestCaseError> {
    let mut sim = Simulator::new(s).map_err(|e| TestCaseError::fail(e.to_string()))?;
    sim.set_trace_capacity(1 << 22);
    sim.run_to_end();
    let trace = sim.drain_trace();
    let report = sim.report();
    let Some(cut) = report.power_cut.clone() else {
        // The run ended before the cut.
        return Ok(());
    };
    prop_assert!(cut.lost_acked_writes <= cut.acked_writes);
    let cfg = sim.host_config();
    let job = &s.jobs[0];
    if !cfg.cache {
        prop_assert_eq!(
            cut.lost_acked_writes,
            0,
            "cache off lost acknowledged writes"
        );
    }
    if job.sync {
        prop_assert_eq!(cut.lost_acked_writes, 0, "O_SYNC writes lost");
    }
    // Acknowledgement time of each I/O (its last request done; none left open), and when each
    // job's flushes completed.
    let mut done_at: HashMap<u64, (u64, Op, u32)> = HashMap::new();
    let mut done_reqs = std::collections::HashSet::new();
    for e in trace.iter().filter(|e| e.stage == Stage::Done) {
        done_reqs.insert(e.req);
        let d = done_at.entry(e.io).or_insert((0, e.op, e.job));
        d.0 = d.0.max(e.t_ns);
        if e.op != Op::Flush {
            d.1 = e.op;
        }
    }
    for e in trace.iter().filter(|e| e.stage == Stage::Submit) {
        if !done_reqs.contains(&e.req) {
            done_at.remove(&e.io);
        }
    }
    // When each flush drained the cache: its flush request's completion, the first Done of
    // its I/O (the I/O's own Done is fio seeing it, which a preempted wake-up can put much
    // later, past writes the flush never held). A flush in flight at the cut fails there
    // (-EIO): it drained nothing, so only those done before the cut count.
    let cut_ns = s.power_cut_ns.expect("the scenario cuts");
    let mut drained_at: HashMap<u64, (u64, u32)> = HashMap::new();
    for e in trace
        .iter()
        .filter(|e| e.stage == Stage::Done && e.op == Op::Flush && done_at.contains_key(&e.io))
    {
        let d = drained_at.entry(e.io).or_insert((e.t_ns, e.job));
        d.0 = d.0.min(e.t_ns);
    }
    let mut last_flush: HashMap<u32, u64> = HashMap::new();
    for &(t, j) in drained_at.values() {
        if t < cut_ns {
            let f = last_flush.entry(j).or_insert(0);
            *f = (*f).max(t);
        }
    }
    let newest_flush = last_flush.values().copied().max();
    for id in &cut.lost_requests {
        let (t, op, _) = done_at
            .get(id)
            .copied()
            .ok_or_else(|| TestCaseError::fail(format!("lost I/O {id} was never acknowledged")))?;
        prop_assert_eq!(op, Op::Write);
        if let Some(f) = newest_flush {
            // A flush drains the whole cache: nothing acknowledged before it can be lost.
            prop_assert!(
                t > f,
                "write acknowledged at {} lost despite the flush completed at {}",
                t,
                f
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config(256))]
    #[test]
    fn guarantees_hold_at_any_cut(s in scenario()) {
        check(&s)?;
    }
}

fn fua_scenario(fua: bool) -> Scenario {
    let mut s = Scenario {
        platform: "unisoc-fua-2022".into(),
        power_cut_ns: Some(50_000_000),
        ..Scenario::default()
    };
    s.set_switch::<bool>("fua", Some(fua));
    s.jobs = vec![JobSpec {
        name: "w".into(),
        rw: Rw::RandWrite,
        bs: 4096,
        sync: true,
        ..JobSpec::default()
    }];
    s
}

/// FUA on: reliable writes. FUA off: each O_SYNC write is a write then a post-flush
/// (block/blk-flush.c), acknowledged after the flush: nothing acknowledged is lost either way.
/// Plain writes (no O_SYNC) are acknowledged from the cache: those are lost.
#[test]
fn o_sync_writes_survive_with_fua_on_or_off_plain_writes_do_not() {
    let on = run(&fua_scenario(true)).unwrap();
    let off = run(&fua_scenario(false)).unwrap();
    let (on_cut, off_cut) = (on.power_cut.unwrap(), off.power_cut.unwrap());
    assert_eq!(on_cut.lost_acked_writes, 0);
    assert!(on_cut.acked_writes > 100);
    assert_eq!(on.sim.post_flushes, 0, "FUA on: no post-flush");
    assert_eq!(off_cut.lost_acked_writes, 0, "{off_cut:?}");
    assert!(off_cut.acked_writes > on_cut.acked_writes, "{off_cut:?}");
    assert!(off.sim.post_flushes >= off_cut.acked_writes);
    // A card without reliable write and fua=1: the queue has no FUA either.
    let mut s = fua_scenario(true);
    s.overrides.insert("card_reliable_write".into(), 0);
    let no_rel = run(&s).unwrap();
    assert_eq!(no_rel.power_cut.unwrap().lost_acked_writes, 0);
    assert!(no_rel.sim.post_flushes > 0);
    let mut plain = fua_scenario(false);
    plain.jobs[0].sync = false;
    // The 2020 board's cache holds 512 KiB before programming (the 2022 one programs at once).
    plain.platform = "sprd-hs400es-2020".into();
    let plain = run(&plain).unwrap().power_cut.unwrap();
    assert!(plain.lost_acked_writes > 0, "{plain:?}");
    assert!(plain
        .lost_ranges
        .iter()
        .all(|&(o, l)| o % 512 == 0 && l % 512 == 0 && l > 0));
}

/// A 1 MiB I/O split into two requests, the first done, is not acknowledged.
#[test]
fn a_split_io_is_acknowledged_only_when_all_its_requests_are() {
    let mut s = Scenario {
        platform: "unisoc-hsq-2023".into(),
        power_cut_ns: Some(5_000_000),
        ..Scenario::default()
    };
    s.jobs = vec![JobSpec {
        name: "f".into(),
        rw: Rw::Write,
        bs: 1 << 20,
        size: 64 << 20,
        ..JobSpec::default()
    }];
    let r = run(&s).unwrap();
    let cut = r.power_cut.unwrap();
    assert!(r.sim.split_ios > 0);
    assert_eq!((cut.acked_writes, cut.lost_acked_writes), (0, 0), "{cut:?}");
    assert_eq!(r.jobs[0].errors, 1, "one I/O failed, counted once");
}

#[test]
fn a_flush_before_the_cut_saves_everything_written_before_it() {
    let mut s = fua_scenario(false);
    s.jobs[0].sync = false;
    s.jobs[0].fsync = 1;
    let cut = run(&s).unwrap().power_cut.unwrap();
    // With a flush after every write, at most the last write (acknowledged after the last flush
    // completed) can be lost.
    assert!(cut.lost_acked_writes <= 1, "{cut:?}");
}

#[test]
fn crc_errors_are_retried_and_exhausted_retries_fail_the_io() {
    let mut s = Scenario {
        platform: "unisoc-hsq-2023".into(),
        ..Scenario::default()
    };
    s.jobs = vec![JobSpec {
        name: "r".into(),
        rw: Rw::RandRead,
        bs: 4096,
        size: 2 << 20,
        numjobs: 4,
        ..JobSpec::default()
    }];
    s.inject_error = Some(mmcsim_engine::scenario::ErrorInjection::parse("crc:0.02").unwrap());
    let r = run(&s).unwrap();
    assert!(r.sim.crc_errors > 0);
    assert_eq!(
        r.sim.retries, r.sim.crc_errors,
        "at 2% every error is retried successfully"
    );
    let ios: u64 = r.jobs.iter().map(|j| j.read.total_ios).sum();
    assert_eq!(ios, 4 * 512, "every I/O completes");

    s.inject_error = Some(mmcsim_engine::scenario::ErrorInjection::parse("crc:0.5").unwrap());
    let r = run(&s).unwrap();
    let errors: u64 = r.jobs.iter().map(|j| j.errors).sum();
    assert!(errors > 0, "at 50% some requests exhaust their 5 retries");
    assert!(r.sim.resets > 0, "the card is reset before the last retry");
    let ios: u64 = r.jobs.iter().map(|j| j.read.total_ios).sum();
    assert_eq!(
        ios + errors,
        4 * 512,
        "each I/O either completes or fails, once"
    );
}
