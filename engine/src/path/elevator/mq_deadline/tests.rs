//! mq-deadline's own tests: batches in sector order, reads before starved writes, expiry, merges.

use super::*;
use crate::sim::request::Request;
use crate::vocab::IoClass;

fn rq(op: Op, offset: u64, len: u64) -> Request {
    crate::sim::request::tests::request(op, offset, len)
}

fn deadline(reqs: &mut Slab, ops: &[(Op, u64)], t: Tunables) -> (Deadline, Vec<ReqIdx>) {
    let mut d = Deadline::new(t);
    let ids = ops
        .iter()
        .map(|&(op, off)| {
            let i = reqs.insert(rq(op, off, 4096));
            d.insert(i, reqs, 0);
            i
        })
        .collect();
    (d, ids)
}

fn defaults() -> Tunables {
    Tunables::of(&Default::default())
}

#[test]
fn a_batch_goes_on_in_sector_order_from_the_oldest() {
    let mut reqs = Slab::default();
    let w = Op::Write;
    let (mut d, ids) = deadline(
        &mut reqs,
        &[(w, 40960), (w, 8192), (w, 81920), (w, 4096)],
        defaults(),
    );
    // The first batch starts at the oldest (no next_rq yet), then follows the sectors.
    // 40960 then 81920; sector order then runs out, and the next batch starts from the
    // oldest left (8192), then the last (4096).
    let order: Vec<ReqIdx> = std::iter::from_fn(|| d.dispatch(&reqs, 0)).collect();
    assert_eq!(order, vec![ids[0], ids[2], ids[1], ids[3]]);
    assert!(!d.has_work());
}

#[test]
fn reads_come_first_until_writes_starve() {
    let mut reqs = Slab::default();
    let t = Tunables {
        fifo_batch: 1,
        ..defaults()
    };
    let ops = [
        (Op::Write, 0),
        (Op::Read, 1 << 20),
        (Op::Read, 2 << 20),
        (Op::Read, 3 << 20),
    ];
    let (mut d, ids) = deadline(&mut reqs, &ops, t);
    let order: Vec<ReqIdx> = std::iter::from_fn(|| d.dispatch(&reqs, 0)).collect();
    // Two read batches pass the write (writes_starved = 2), then the write goes.
    assert_eq!(order, vec![ids[1], ids[2], ids[0], ids[3]]);
}

#[test]
fn an_expired_request_starts_the_next_batch() {
    let mut reqs = Slab::default();
    let t = Tunables {
        fifo_batch: 1,
        ..defaults()
    };
    let (mut d, ids) = deadline(
        &mut reqs,
        &[(Op::Read, 0), (Op::Read, 8192), (Op::Read, 4096)],
        t,
    );
    assert_eq!(d.dispatch(&reqs, 0), Some(ids[0]));
    // next_rq is 4096 (ids[2]); after read_expire the oldest left (8192, ids[1]) goes first.
    assert_eq!(d.dispatch(&reqs, 600_000_000), Some(ids[1]));
}

#[test]
fn bios_merge_at_the_back_and_the_front() {
    let mut reqs = Slab::default();
    let (d, ids) = deadline(&mut reqs, &[(Op::Write, 8192)], defaults());
    let bio = |offset| Bio {
        op: Op::Write,
        offset,
        len: 4096,
        cpu: 0,
        job: None,
        ioprio: Default::default(),
    };
    assert_eq!(
        d.bio_merge(&bio(12288), &reqs, 1 << 19),
        Some((ids[0], Merge::Back))
    );
    assert_eq!(
        d.bio_merge(&bio(4096), &reqs, 1 << 19),
        Some((ids[0], Merge::Front))
    );
    assert_eq!(
        d.bio_merge(&bio(16384), &reqs, 1 << 19),
        None,
        "not adjacent"
    );
    assert_eq!(
        d.bio_merge(&bio(12288), &reqs, 4096),
        None,
        "over max_sectors"
    );
    let t = Tunables {
        front_merges: false,
        ..defaults()
    };
    let (d, _) = deadline(&mut reqs, &[(Op::Write, 1 << 20)], t);
    assert_eq!(d.bio_merge(&bio((1 << 20) - 4096), &reqs, 1 << 19), None);
}

#[test]
fn a_folded_request_that_expires_first_hands_its_place_in_the_fifo_on() {
    // dd_merged_requests: the request left takes the folded one's deadline and FIFO place.
    let mut reqs = Slab::default();
    let mut d = Deadline::new(defaults());
    let ms = 1_000_000;
    let ids: Vec<ReqIdx> = [(0, 100 << 20), (10 * ms, 0), (20 * ms, 50 << 20)]
        .iter()
        .map(|&(t, off)| {
            let i = reqs.insert(rq(Op::Write, off, 4096));
            d.insert(i, &reqs, t);
            i
        })
        .collect();
    assert_eq!(d.waiting(), ids);
    d.requests_merged(ids[2], ids[0], &reqs);
    assert_eq!(
        d.waiting(),
        vec![ids[2], ids[1]],
        "the oldest place is the survivor's"
    );
    // At the folded request's deadline (5 s after 0) the survivor is the expired one: the
    // batch starts from it, not from the lowest sector.
    assert_eq!(d.dispatch(&reqs, 5_000 * ms), Some(ids[2]));
    // The other way round nothing moves: the survivor was older.
    let mut d2 = Deadline::new(defaults());
    for (k, &i) in ids.iter().enumerate() {
        d2.insert(i, &reqs, k as u64 * ms);
    }
    d2.requests_merged(ids[0], ids[2], &reqs);
    assert_eq!(d2.waiting(), vec![ids[0], ids[1]]);
}

#[test]
fn from_6_5_a_batch_goes_on_from_the_last_dispatched_position() {
    // 40960 is dispatched first (the oldest), noting 81920 as next_rq; then 61440 arrives.
    // Linux 6.1 goes on with the noted 81920; 6.5's latest_pos finds 61440 first.
    let w = Op::Write;
    for (from_pos, second) in [(false, 81920), (true, 61440)] {
        let mut reqs = Slab::default();
        let t = Tunables {
            dd_from_pos: from_pos,
            ..defaults()
        };
        let (mut d, ids) = deadline(&mut reqs, &[(w, 40960), (w, 81920)], t);
        let first = d.dispatch(&reqs, 0);
        // 6.5 starts its first batch at the lowest position at or after 0: the same here.
        assert_eq!(first, Some(ids[0]));
        let late = reqs.insert(rq(w, 61440, 4096));
        d.insert(late, &reqs, 0);
        let next = d.dispatch(&reqs, 0).unwrap();
        assert_eq!(reqs.get(next).offset, second, "from_pos {from_pos}");
    }
}

/// Inserts a read at `offset` of class `class` at `now`.
fn add(d: &mut Deadline, reqs: &mut Slab, class: IoClass, offset: u64, now: u64) -> ReqIdx {
    let mut r = rq(Op::Read, offset, 4096);
    r.ioprio = crate::vocab::IoPrio::new(class, 0);
    let i = reqs.insert(r);
    d.insert(i, reqs, now);
    i
}

#[test]
fn dd_dispatch_request_serves_realtime_first_and_holds_best_effort_while_it_is_queued() {
    let mut reqs = Slab::default();
    let mut d = Deadline::new(defaults());
    let be = add(&mut d, &mut reqs, IoClass::None, 0, 0);
    let rt = add(&mut d, &mut reqs, IoClass::Rt, 1 << 20, 1);
    assert_eq!(d.queued(), [1, 1, 0], "the class-less are best effort");
    assert_eq!(d.dispatch(&reqs, 2), Some(rt), "DD_RT_PRIO first");
    assert_eq!(
        d.dispatch(&reqs, 3),
        None,
        "the realtime request is in flight: dd_queued(DD_RT_PRIO) = 1"
    );
    d.finish(rt);
    assert_eq!(d.dispatch(&reqs, 4), Some(be));
    d.finish(be);
    assert_eq!(d.queued(), [0, 0, 0]);
}

#[test]
fn dd_dispatch_prio_aged_requests_lets_a_request_go_after_prio_aging_expire() {
    let mut reqs = Slab::default();
    let mut d = Deadline::new(defaults());
    let idle = add(&mut d, &mut reqs, IoClass::Idle, 0, 0);
    let rt = add(&mut d, &mut reqs, IoClass::Rt, 1 << 20, 0);
    assert_eq!(d.dispatch(&reqs, 0), Some(rt));
    let rt2 = add(&mut d, &mut reqs, IoClass::Rt, 2 << 20, 1);
    let aging = 10_000_000_000;
    assert_eq!(d.dispatch(&reqs, aging - 1), Some(rt2), "not aged yet");
    assert_eq!(d.dispatch(&reqs, aging - 1), None, "realtime still queued");
    assert_eq!(
        d.dispatch(&reqs, aging),
        Some(idle),
        "inserted prio_aging_expire (10 s) ago: started_after no longer holds"
    );
}

#[test]
fn a_bio_joins_only_a_request_of_its_own_priority() {
    let mut reqs = Slab::default();
    let mut d = Deadline::new(defaults());
    let rt = add(&mut d, &mut reqs, IoClass::Rt, 8192, 0);
    let bio = |class| Bio {
        op: Op::Read,
        offset: 12288,
        len: 4096,
        cpu: 0,
        job: None,
        ioprio: crate::vocab::IoPrio::new(class, 0),
    };
    assert_eq!(
        d.bio_merge(&bio(IoClass::Rt), &reqs, 1 << 19),
        Some((rt, Merge::Back))
    );
    assert_eq!(d.bio_merge(&bio(IoClass::Be), &reqs, 1 << 19), None);
}
