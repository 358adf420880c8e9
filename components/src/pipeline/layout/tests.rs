//! The geometry checked on its own and on real snapshots.

use super::*;
use crate::testing::twenty_jobs;
use mmcsim_engine::{Op, RequestView, Rw, Scenario, Simulator, Stage};

#[test]
fn columns_follow_the_kernel_path_side_by_side_inside_the_view() {
    let layers: Vec<Layer> = COLUMNS.iter().map(|c| c.layer).collect();
    assert_eq!(layers, Layer::ALL.to_vec());
    for pair in COLUMNS.windows(2) {
        assert!(pair[0].x + pair[0].w < pair[1].x, "{pair:?} overlap");
    }
    let last = COLUMNS[COLUMNS.len() - 1];
    assert!(COLUMNS[0].x >= 0.0 && last.x + last.w <= WIDTH);
    for c in COLUMNS {
        assert_eq!(column(c.layer), c);
    }
}

#[test]
fn lanes_fit_the_column_and_hide_what_is_past_the_limit() {
    assert_eq!(lanes(0).shown, 0);
    assert_eq!(lanes(0).h, 0.0);
    let l = lanes(20);
    assert_eq!((l.shown, l.hidden), (20, 0));
    let l = lanes(MAX_LANES + 8);
    assert_eq!((l.shown, l.hidden), (MAX_LANES, 8));
    for jobs in [1, 4, 20, MAX_LANES, 100] {
        let l = lanes(jobs);
        assert!(l.h <= 26.0);
        assert!(
            l.top + l.shown as f64 * l.h <= BOTTOM - 22.0 + 1e-9,
            "{jobs} jobs: {l:?}"
        );
    }
}

#[test]
fn hsq_slots_are_64_distinct_cells_inside_their_column() {
    let c = column(Layer::HostQueue);
    let cells: std::collections::HashSet<(i64, i64)> = (0..64u16)
        .map(|s| {
            let (x, y) = slot_xy(s);
            assert!(x >= c.x && x + SLOT <= c.x + c.w, "slot {s} x {x}");
            assert!(y >= TOP && y + SLOT <= BOTTOM, "slot {s} y {y}");
            (x as i64, y as i64)
        })
        .collect();
    assert_eq!(cells.len(), 64);
}

#[test]
fn blk_mq_boxes_are_inside_the_column_one_above_the_other() {
    let c = column(Layer::BlkMq);
    let [sw, dispatch] = blk_boxes();
    for b in [sw, dispatch] {
        assert!(b.0 >= c.x && b.0 + b.2 <= c.x + c.w);
        assert!(b.1 >= TOP && b.1 + b.3 <= BOTTOM);
    }
    assert!(sw.1 + sw.3 <= dispatch.1);
}

/// Every request of real snapshots, 20 jobs of 4 KiB reads with packed ADMA3 chains and
/// without, is drawn inside its layer's column or counted as hidden.
#[test]
fn place_keeps_every_token_in_its_column() {
    for packed in [8, 0] {
        let scn = twenty_jobs(Rw::RandRead, packed);
        let mut sim = Simulator::new(&scn).expect("valid scenario");
        let mut seen = 0;
        for step in 1..=40u64 {
            sim.run_until(step * 37_000);
            let snap = sim.snapshot();
            let path = scn
                .effective_platform()
                .expect("platform")
                .switches
                .mmc_path;
            let (tokens, hidden) = place(&snap, path);
            assert_eq!(
                tokens.iter().map(|t| 1 + t.under).sum::<usize>() + hidden.values().sum::<usize>(),
                snap.requests.len()
            );
            for t in &tokens {
                let c = column(t.layer);
                assert!(
                    t.x >= c.x && t.x <= c.x + c.w,
                    "packed={packed}: {t:?} outside {c:?}"
                );
                assert!(t.y >= TOP && t.y <= BOTTOM, "packed={packed}: {t:?}");
            }
            seen += tokens.len();
        }
        assert!(seen > 100, "packed={packed}: {seen} tokens placed");
    }
}

#[test]
fn the_requests_of_a_split_io_are_boxed_together_in_each_column() {
    let t = |id, io, layer, x, y| Token {
        id,
        io,
        job: 0,
        kind: TokenKind::Write,
        stage: Stage::HostQueue,
        layer,
        x,
        y,
        done: false,
        len: 4096,
        bios: 1,
        under: 0,
    };
    let tokens = [
        t(4, 4, Layer::HostQueue, 600.0, 100.0),
        t(5, 4, Layer::HostQueue, 619.0, 100.0),
        t(6, 4, Layer::Controller, 840.0, 120.0),
        t(7, 7, Layer::HostQueue, 638.0, 100.0),
    ];
    let live = std::collections::HashMap::from([(4, 3), (7, 1)]);
    let g = io_groups(&tokens, &live);
    assert_eq!(
        g.len(),
        2,
        "I/O 4 in two columns; I/O 7 alone is no group: {g:?}"
    );
    assert_eq!((g[0].0, g[0].1), (4, 3));
    assert_eq!(g[0].2, (591.0, 91.0, 37.0, 18.0));
    assert_eq!((g[1].0, g[1].1, g[1].2 .0), (4, 3, 831.0));
}

#[test]
fn a_request_on_the_controller_is_drawn_there_not_in_hsq() {
    let r = RequestView {
        id: 1,
        io: 1,
        job: 0,
        op: Op::Write,
        offset: 0,
        len: 4096,
        reliable: true,
        stage: Stage::HostQueue,
        since_ns: 0,
        tag: Some(3),
        chain: None,
        bios: 1,
    };
    assert_eq!(layer_of(&r, false), Layer::HostQueue);
    assert_eq!(layer_of(&r, true), Layer::Controller);
    assert_eq!(TokenKind::of(&r), TokenKind::Fua);
}

/// Issue 12: the CQE grid said "30 held" and lit 2 cells (tags mod 64 on 32 cells).
#[test]
fn every_held_cqe_task_lights_its_own_cell() {
    let mut scn = Scenario::default();
    scn.set_switch::<MmcPath>("mmc_path", Some(MmcPath::Cqe));
    scn.jobs[0].numjobs = 40;
    scn.jobs[0].size = 1 << 20;
    let mut sim = Simulator::new(&scn).unwrap();
    let mut most = 0;
    for _ in 0..400 {
        sim.run_events(37);
        let snap = sim.snapshot();
        let occ = occupied_slots(&snap, MmcPath::Cqe);
        let mut cells: Vec<u16> = occ.iter().map(|o| o.0).collect();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells.len(), occ.len(), "one cell per held task");
        assert!(cells.iter().all(|&c| c < host_slots(MmcPath::Cqe)));
        most = most.max(occ.len());
    }
    assert!(most > 8, "the test saw {most} held tasks at most");
}

#[test]
fn the_pointer_is_always_over_one_column() {
    for x in 0..1200 {
        let l = layer_at(x as f64);
        let c = column(l);
        assert!(
            x as f64 >= c.x - 8.0 && (x as f64) < c.x + c.w + 16.0,
            "{x} -> {l:?}"
        );
    }
    assert_eq!(layer_at(COLUMNS[3].x + 5.0), Layer::HostQueue);
}

#[test]
fn piled_up_tokens_are_counted() {
    let t = |id, x, y| Token {
        id,
        io: id,
        job: 0,
        kind: TokenKind::Read,
        stage: Stage::Data,
        layer: Layer::Bus,
        x,
        y,
        done: false,
        len: 4096,
        bios: 1,
        under: 0,
    };
    let s = stacks(&[
        t(1, 10.0, 10.0),
        t(2, 10.0, 10.0),
        t(3, 11.0, 10.0),
        t(4, 50.0, 10.0),
    ]);
    assert_eq!(s, vec![(10.0, 10.0, 3)]);
}

/// An 8 MiB write split into 2048 requests: its job's lane draws a pile of at most
/// [`MAX_PILE`] tokens, and the pile's "×N" still counts every request on it.
#[test]
fn a_split_io_piles_on_its_lane_as_a_few_tokens_that_count_all_its_requests() {
    let scn = mmcsim_engine::scenario::url::decode_query("rw=write&bs=8m&size=8m&max_req_kib=4").a;
    let mut sim = Simulator::new(&scn).expect("valid scenario");
    sim.run_until(1);
    let snap = sim.snapshot();
    assert_eq!(snap.requests.len(), 2048, "all parts submitted at once");
    let on_lane = snap
        .requests
        .iter()
        .filter(|r| r.stage == Stage::Submit)
        .count();
    assert!(
        on_lane > 1000,
        "{on_lane} requests submitted, not yet in blk-mq"
    );
    let (tokens, _) = place(&snap, MmcPath::Hsq);
    let drawn = tokens.iter().filter(|t| t.layer == Layer::Jobs).count();
    assert!(drawn <= MAX_PILE, "{drawn} tokens drawn on the lane");
    let piles = stacks(&tokens);
    let counted: usize = tokens
        .iter()
        .filter(|t| {
            t.layer == Layer::Jobs
                && !piles
                    .iter()
                    .any(|p| (p.0 - t.x).abs() < 3.0 && (p.1 - t.y).abs() < 3.0)
        })
        .count()
        + piles
            .iter()
            .filter(|p| {
                p.1 >= TOP
                    && tokens
                        .iter()
                        .any(|t| t.layer == Layer::Jobs && t.x == p.0 && t.y == p.1)
            })
            .map(|p| p.2)
            .sum::<usize>();
    assert_eq!(counted, on_lane, "{piles:?}");
    // The box around the I/O's tokens says how many requests it has, not how many are drawn.
    let groups = io_groups(&tokens, &live_requests(&snap.requests));
    assert!(!groups.is_empty());
    assert!(
        groups.iter().all(|g| g.1 == 2048),
        "1 I/O -> 2048 requests: {groups:?}"
    );
}
