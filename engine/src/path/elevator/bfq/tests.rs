use super::wr::{wr_duration, RAISED_WEIGHT, WR_COEFF};
use super::*;
use crate::scenario::QueueTunables;
use crate::sim::request::tests::request;
use crate::vocab::Op;

const MS: u64 = 1_000_000;

fn bfq(low_latency: bool) -> Bfq {
    let t = QueueTunables {
        low_latency: Some(low_latency),
        ..Default::default()
    };
    Bfq::new(Tunables::of(&t))
}

fn add(reqs: &mut Slab, op: Op, job: u32, off: u64) -> ReqIdx {
    let mut r = request(op, off, 4096);
    r.job = job;
    r.t_alloc = off;
    reqs.insert(r)
}

#[test]
fn one_process_is_served_for_its_budget_before_the_next() {
    let mut reqs = Slab::default();
    let mut b = bfq(true);
    let a: Vec<ReqIdx> = (0..3)
        .map(|k| add(&mut reqs, Op::Write, 1, k * 4096))
        .collect();
    let c: Vec<ReqIdx> = (0..3)
        .map(|k| add(&mut reqs, Op::Write, 2, (1 << 30) + k * 4096))
        .collect();
    for &i in a.iter().chain(&c) {
        b.insert(i, &reqs, 0);
    }
    let order: Vec<ReqIdx> = std::iter::from_fn(|| b.dispatch(&reqs, 0)).collect();
    assert_eq!(order, [a, c].concat(), "job 1's queue, then job 2's");
}

#[test]
fn without_low_latency_a_sequential_reader_keeps_a_non_queueing_device_idle() {
    let mut reqs = Slab::default();
    let mut b = bfq(false);
    b.hw_tag = Some(false);
    let first = add(&mut reqs, Op::Read, 1, 0);
    let write = add(&mut reqs, Op::Write, 2, 1 << 30);
    b.insert(first, &reqs, 0);
    b.insert(write, &reqs, 0);
    assert_eq!(b.dispatch(&reqs, 0), Some(first));
    assert_eq!(
        b.dispatch(&reqs, 10),
        None,
        "the reader's request is in flight: idle"
    );
    b.completed(1, 0, 100);
    assert_eq!(b.timer_at(), Some(100 + 8 * MS));
    assert_eq!(b.dispatch(&reqs, 200), None, "still idling for the reader");
    assert_eq!(
        b.dispatch(&reqs, 100 + 8 * MS),
        Some(write),
        "the slice ran out"
    );
}

#[test]
fn a_new_queue_is_raised_for_the_wr_duration() {
    let mut reqs = Slab::default();
    let mut b = bfq(true);
    assert_eq!(
        wr_duration(),
        3_750 * MS,
        "2.5 s x ref_rate / (2/3 ref_rate)"
    );
    let r = add(&mut reqs, Op::Read, 1, 0);
    b.insert(r, &reqs, 0);
    let q = b.q(1);
    assert_eq!((q.wr_coeff, q.weight()), (WR_COEFF, RAISED_WEIGHT));
    assert_eq!(
        q.budget, 1024,
        "the first raised budget: 2 x bfq_min_budget"
    );
    assert_eq!(b.dispatch(&reqs, 0), Some(r));
    b.completed(1, 0, MS);
    // Still raised just before the duration ends, no longer at the first dispatch after.
    for (k, t) in [(1, 3_749 * MS), (2, 3_751 * MS)] {
        let r = add(&mut reqs, Op::Read, 1, k * 4096);
        b.insert(r, &reqs, t);
        assert_eq!(b.dispatch(&reqs, t), Some(r));
        b.completed(1, k * 4096, t + MS);
    }
    assert_eq!(b.q(1).wr_coeff, 1, "the raising ended (bfq_update_wr_data)");
    assert_eq!(b.q(1).weight(), wf2q::ORIG_WEIGHT);
}

#[test]
fn raising_ends_after_max_service_from_wr() {
    let mut reqs = Slab::default();
    let mut b = bfq(true);
    let mut t = 0;
    let mut k = 0;
    // A writer keeping one 4 KiB request queued: 8 sectors a dispatch.
    while b.queues.get(&1).is_none_or(|q| q.wr_coeff > 1) {
        let r = add(&mut reqs, Op::Write, 1, k * 4096);
        b.insert(r, &reqs, t);
        assert_eq!(b.dispatch(&reqs, t), Some(r));
        b.completed(1, k * 4096, t + 1000);
        t += 2000;
        k += 1;
    }
    assert_eq!(k * 8, 120_000 + 8, "ended once past max_service_from_wr");
}

#[test]
fn a_raised_queue_becoming_busy_preempts_a_queue_not_raised() {
    let mut reqs = Slab::default();
    let mut b = bfq(true);
    // The writer's queue is old: no longer raised.
    let w: Vec<ReqIdx> = (0..4)
        .map(|k| add(&mut reqs, Op::Write, 2, k * 4096))
        .collect();
    b.insert(w[0], &reqs, 0);
    b.with_queue(2, |q| q.wr_coeff = 1);
    for &i in &w[1..] {
        b.insert(i, &reqs, 0);
    }
    assert_eq!(b.dispatch(&reqs, 0), Some(w[0]));
    assert_eq!(b.in_service, Some(2));
    // A reader appears: new, so interactive, raised, and heavier than the writer.
    let r = add(&mut reqs, Op::Read, 1, 1 << 30);
    b.insert(r, &reqs, 10);
    assert_eq!(b.q(1).wr_coeff, WR_COEFF);
    assert_eq!(b.in_service, None, "the writer was preempted");
    assert_eq!(b.dispatch(&reqs, 10), Some(r), "the reader goes first");
    assert_eq!(b.dispatch(&reqs, 11), None, "and the device idles for it");
    assert!(b.q(2).busy, "the writer waits, requeued");
}

#[test]
fn an_equal_queue_does_not_preempt_one_worth_idling_for() {
    let mut reqs = Slab::default();
    let mut b = bfq(false);
    b.hw_tag = Some(false);
    let a = add(&mut reqs, Op::Read, 1, 0);
    b.insert(a, &reqs, 0);
    assert_eq!(b.dispatch(&reqs, 0), Some(a));
    b.completed(1, 0, 100);
    assert!(b.timer_at().is_some(), "the sequential reader is idled for");
    let c = add(&mut reqs, Op::Read, 2, 1 << 30);
    b.insert(c, &reqs, 200);
    assert_eq!(
        b.in_service,
        Some(1),
        "same weight, idling pays: no preemption"
    );
    assert_eq!(b.dispatch(&reqs, 300), None);
}

#[test]
fn a_preempted_queue_that_comes_back_in_time_keeps_its_budget() {
    let mut reqs = Slab::default();
    let mut b = bfq(true);
    let a = add(&mut reqs, Op::Read, 1, 0);
    let c = add(&mut reqs, Op::Read, 2, 1 << 30);
    b.insert(a, &reqs, 0);
    b.insert(c, &reqs, 0);
    assert_eq!(b.dispatch(&reqs, 0), Some(a));
    // Both raised and the driver nearly empty: no idling, job 1 expires as it empties.
    assert_eq!(b.dispatch(&reqs, 1), Some(c));
    assert!(b.q(1).non_blocking_wait_rq);
    b.completed(1, 0, 1000);
    let a2 = add(&mut reqs, Op::Read, 1, 4096);
    b.insert(a2, &reqs, 2000);
    assert_eq!(
        b.in_service, None,
        "job 1 came back in time: it preempted job 2"
    );
    assert_eq!(b.dispatch(&reqs, 2000), Some(a2));
}

/// The index ([`super::index`]) is what a scan of the queues finds after every step of a run
/// of many processes: inserts, dispatches, completions, idle slices and injection.
#[test]
fn the_index_follows_the_queues() {
    let mut reqs = Slab::default();
    let mut b = bfq(true);
    let (mut now, mut inflight, mut rng) = (0u64, Vec::new(), 12345u64);
    for step in 0..4000u64 {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let job = (rng >> 33) as u32 % 37;
        let off = ((rng >> 20) % 4096) * 4096 + u64::from(job) * (1 << 30);
        if step % 3 != 2 {
            let r = add(&mut reqs, Op::Read, job, off);
            b.insert(r, &reqs, now);
        }
        if let Some(r) = b.dispatch(&reqs, now) {
            inflight.push(r);
        }
        if inflight.len() > 4 || (step % 5 == 0 && !inflight.is_empty()) {
            let r = inflight.remove((rng as usize) % inflight.len());
            let q = reqs.get(r);
            b.completed(q.job, q.t_alloc, now);
        }
        b.assert_index();
        now += (rng >> 40) % (3 * MS);
    }
}

fn prio(class: crate::vocab::IoClass, level: u8) -> crate::path::elevator::SchedPrio {
    crate::path::elevator::SchedPrio {
        class,
        level,
        group: None,
    }
}

#[test]
fn bfq_ioprio_to_weight_is_ten_per_level_below_eight() {
    use super::prio::ioprio_to_weight;
    assert_eq!([0, 4, 7].map(ioprio_to_weight), [80, wf2q::ORIG_WEIGHT, 10]);
}

#[test]
fn bfq_lookup_next_entity_serves_the_realtime_tree_first() {
    use crate::vocab::IoClass::{Be, Rt};
    let mut reqs = Slab::default();
    let mut b = bfq(false);
    b.set_job_prios(&[prio(Be, 4), prio(Be, 4), prio(Rt, 4)], false);
    let a = add(&mut reqs, Op::Write, 1, 0);
    let c = add(&mut reqs, Op::Write, 2, 1 << 30);
    b.insert(a, &reqs, 0);
    b.insert(c, &reqs, 0);
    assert_eq!(
        b.dispatch(&reqs, 0),
        Some(c),
        "the realtime queue, though later"
    );
    b.assert_index();
}

#[test]
fn the_idle_class_goes_first_once_bfq_cl_idle_timeout_has_passed() {
    use crate::vocab::IoClass::{Be, Idle};
    let mut reqs = Slab::default();
    let mut b = bfq(false);
    b.set_job_prios(&[prio(Be, 4), prio(Idle, 0), prio(Be, 4)], false);
    b.insert(add(&mut reqs, Op::Write, 1, 0), &reqs, 0);
    b.insert(add(&mut reqs, Op::Write, 2, 1 << 30), &reqs, 0);
    assert_eq!(b.q(1).weight(), 10, "an idle queue at level 7");
    assert_eq!(b.next_queue(0), Some(2), "best effort before idle");
    assert_eq!(
        b.next_queue(250 * MS),
        Some(1),
        "200 ms since the idle class could"
    );
    assert_eq!(b.next_queue(260 * MS), Some(2), "and then not for 200 ms");
}

#[test]
fn bfq_asymmetric_scenario_counts_groups_as_each_kernel_does() {
    use crate::vocab::IoClass::Be;
    // Job 1 alone in a group of weight 40 (its queue weighs what a root queue weighs), busy;
    // nothing else pending.
    let grouped = crate::path::elevator::SchedPrio {
        group: Some((0, 40)),
        ..prio(Be, 4)
    };
    for (root_counted, asymmetric) in [(false, true), (true, false)] {
        let mut reqs = Slab::default();
        let mut b = bfq(false);
        b.set_job_prios(&[prio(Be, 4), grouped, prio(Be, 4)], root_counted);
        b.insert(add(&mut reqs, Op::Read, 1, 0), &reqs, 0);
        assert_eq!(
            b.asymmetric_scenario(1),
            asymmetric,
            "6.1 idles for one group besides the root; 6.6 and 6.12 from two, the root counted \
             (root counted: {root_counted})"
        );
    }
}

/// The snapshot's view of bfq (issue 50: lesson 7 showed bfq's figures, not what it does): the
/// queue in service with its budget and service, idling for it once it empties with a request
/// in flight, and the queues raised on becoming busy.
#[test]
fn the_view_shows_the_queue_in_service_its_budget_idling_and_raising() {
    let mut reqs = Slab::default();
    let mut b = bfq(true);
    assert_eq!(b.view(), crate::BfqView::default(), "nothing yet");
    let r = add(&mut reqs, Op::Read, 1, 0);
    b.insert(r, &reqs, 0);
    assert_eq!(b.dispatch(&reqs, 0), Some(r));
    let v = b.view();
    assert_eq!(v.in_service, Some(1));
    assert_eq!(v.service, 8, "one 4 KiB read served");
    assert!(v.budget > v.service && v.budget <= MAX_BUDGET, "{v:?}");
    assert_eq!(v.raised, vec![(1, WR_COEFF)], "a new queue is raised");
    assert_eq!(v.raised_text(), "job 1 ×30");
    // Its read done and nothing queued: the device idles for the synchronous reader (its
    // slice timer armed at the completion), and the view says so.
    assert_eq!(b.dispatch(&reqs, 0), None);
    assert!(!b.view().idling);
    b.completed(1, 0, 100_000);
    assert!(b.view().idling, "{:?}", b.view());
    let mut off = bfq(false);
    let r = add(&mut reqs, Op::Read, 1, 4096);
    off.insert(r, &reqs, 0);
    assert_eq!(off.view().raised, vec![], "low_latency=0 raises nothing");
    assert_eq!(off.view().raised_text(), "none");
}
