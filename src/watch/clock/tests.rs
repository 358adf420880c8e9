//! The clock's native tests: fake frame timestamps and wall clocks against real sessions.

use std::cell::Cell;

use super::*;
use crate::run::speed::speed_index;
use mmcsim_engine::scenario::{apply_option, OptionScope};
use mmcsim_engine::Scenario;

fn session(opts: &[(&str, &str)]) -> Session {
    let mut s = Scenario::default();
    for (k, v) in opts {
        apply_option(&mut s, OptionScope::Global, k, Some(v)).unwrap();
    }
    Session::watched(&s).unwrap()
}

#[test]
fn every_speed_label_is_found_and_the_default_is_one_ms_per_second() {
    for (i, s) in SPEEDS.iter().enumerate() {
        assert_eq!(speed_index(s.label), Some(i));
    }
    assert_eq!(speed_index("1 ms/s"), Some(DEFAULT_SPEED));
    assert_eq!(speed_index("3 ms/s"), None);
    assert_eq!(Clock::default().rate_ns(), Some(1_000_000));
}

#[test]
fn a_timed_speed_maps_real_ms_to_simulated_ns_on_both_sides() {
    let (mut a, mut b) = (session(&[("size", "4m")]), session(&[("size", "4m")]));
    let mut c = Clock::default();
    c.set_speed(speed_index("1 ms/s").unwrap());
    c.follow(&a, Some(&b));
    // First frame: one 60 Hz frame, 16.7 µs of simulated time at 1 ms/s.
    c.frame(1000.0, 0.0, &mut a, Some(&mut b), || 0.0);
    assert_eq!(c.now(), 16_666);
    // 50 ms later: 50 µs more; A and B stand at the same time.
    c.frame(1050.0, 0.0, &mut a, Some(&mut b), || 0.0);
    assert_eq!(c.now(), 66_666);
    assert_eq!((a.now(), b.now()), (66_666, 66_666));
    // A hidden tab's 10 s gap counts as MAX_FRAME_DT_MS at most.
    c.frame(11_050.0, 0.0, &mut a, Some(&mut b), || 0.0);
    assert_eq!(c.now(), 66_666 + 100_000);
    // After a pause the first frame counts as one frame again, not the pause.
    c.resume();
    c.frame(99_000.0, 0.0, &mut a, Some(&mut b), || 0.0);
    assert_eq!(c.now(), 166_666 + 16_666);
}

#[test]
fn as_fast_as_possible_stays_within_the_frame_budget() {
    assert_eq!(engine_budget_ms(0.0), FRAME_BUDGET_MS);
    assert_eq!(engine_budget_ms(3.0), 5.0);
    assert_eq!(engine_budget_ms(30.0), MIN_ENGINE_MS);
    let mut a = session(&[("size", "64m")]);
    let mut c = Clock::default();
    c.set_speed(SPEEDS.len() + 3);
    assert_eq!(c.rate_ns(), None, "past the last: as fast as possible");
    // A wall clock that moves 1 ms each time it is read: every chunk of events "takes" 1 ms.
    let t = Cell::new(0.0);
    let wall = || {
        t.set(t.get() + 1.0);
        t.get()
    };
    c.frame(0.0, 0.0, &mut a, None, wall);
    assert!(a.events() > 0 && !a.is_finished());
    assert!(
        t.get() <= FRAME_BUDGET_MS + 2.0,
        "the slice took {} ms",
        t.get()
    );
    assert_eq!(c.now(), a.now());
}

/// Nobody watches a seek's frames: the engine has most of each (a frame still ends about every
/// 60 ms), less after a frame that drew the picture again.
#[test]
fn a_seek_gives_the_engine_most_of_each_frame() {
    assert_eq!(seek_budget_ms(0.0), SEEK_SLICE_MS);
    assert_eq!(seek_budget_ms(40.0), SEEK_FRAME_MS - 40.0);
    assert_eq!(seek_budget_ms(100.0), MIN_ENGINE_MS);
    const { assert!(SEEK_SLICE_MS > 4.0 * FRAME_BUDGET_MS && SEEK_FRAME_MS <= 100.0) };
    let mut a = session(&[("size", "64m")]);
    let mut c = Clock::default();
    c.seek(None);
    // Every chunk of events "takes" 1 ms of the wall clock.
    let t = Cell::new(0.0);
    let wall = || {
        t.set(t.get() + 1.0);
        t.get()
    };
    assert!(
        !c.frame(0.0, 0.0, &mut a, None, wall),
        "64 MiB is not run in one frame"
    );
    assert!(
        t.get() > FRAME_BUDGET_MS && t.get() <= SEEK_SLICE_MS + 2.0,
        "the slice took {} ms",
        t.get()
    );
    t.set(0.0);
    c.frame(16.0, 30.0, &mut a, None, wall);
    assert!(t.get() <= SEEK_FRAME_MS - 30.0 + 2.0, "{} ms", t.get());
}

#[test]
fn seek_runs_both_sides_to_a_time_then_to_the_end() {
    let (mut a, mut b) = (session(&[("size", "1m")]), session(&[("size", "512k")]));
    let mut c = Clock::default();
    c.seek(Some(2_000_000));
    assert_eq!(c.seeking(), Some(Some(2_000_000)));
    let mut frames = 0;
    while !c.frame(frames as f64 * 16.0, 0.0, &mut a, Some(&mut b), || 0.0) {
        frames += 1;
        assert!(frames < 1000);
    }
    assert_eq!(
        (a.now(), b.now(), c.now()),
        (2_000_000, 2_000_000, 2_000_000)
    );
    assert_eq!(c.seeking(), None);
    c.seek(None);
    assert_eq!(c.seeking(), Some(None));
    while !c.frame(0.0, 0.0, &mut a, Some(&mut b), || 0.0) {}
    assert!(a.is_finished() && b.is_finished());
    assert_eq!(c.now(), a.now().max(b.now()));
}

#[test]
fn a_step_moves_the_side_whose_change_comes_first_and_the_other_follows() {
    let (mut a, mut b) = (
        session(&[("size", "64k")]),
        session(&[("size", "64k"), ("packed", "0")]),
    );
    let mut c = Clock::default();
    let mut t = 0;
    for _ in 0..200 {
        assert!(c.step(&mut a, Some(&mut b)));
        assert!(c.now() >= t, "time never goes back");
        t = c.now();
        // The side that stepped stands at t; the other follows unless it has an event
        // due at t itself (it takes that one next).
        assert!(a.now() <= t && b.now() <= t, "{} {} {t}", a.now(), b.now());
        assert!(a.now() == t || b.now() == t);
    }
    while c.step(&mut a, Some(&mut b)) {}
    assert!(a.is_finished() && b.is_finished());
}

#[test]
fn the_previous_step_is_the_one_a_forward_step_stopped_at() {
    let scn = |opts: &[(&str, &str)]| {
        let mut s = Scenario::default();
        for (k, v) in opts {
            apply_option(&mut s, OptionScope::Global, k, Some(v)).unwrap();
        }
        s
    };
    let (a, b) = (
        scn(&[("size", "64k")]),
        scn(&[("size", "64k"), ("packed", "0")]),
    );
    let (mut sa, mut sb) = (Session::watched(&a).unwrap(), Session::watched(&b).unwrap());
    let mut c = Clock::default();
    let mut times = Vec::new();
    for _ in 0..30 {
        c.step(&mut sa, Some(&mut sb));
        times.push(c.now());
    }
    // Two sides can step at the same time: the previous step is the last earlier time.
    let before = times.iter().copied().filter(|&t| t < times[29]).max();
    assert!(before.is_some());
    assert_eq!(previous_step(&a, Some(&b), times[29]), before);
    assert_eq!(previous_step(&a, Some(&b), times[0]), None);
}

#[test]
fn reset_keeps_the_speed_and_the_strip_follows_the_speed() {
    let mut c = Clock::default();
    c.set_speed(1);
    c.seek(None);
    c.reset();
    assert_eq!((c.speed(), c.now(), c.seeking()), (1, 0, None));
    c.seek(Some(5));
    c.resume();
    assert_eq!(c.seeking(), None, "playing again drops a paused seek");
    assert_eq!(strip_window_ns(SPEEDS[0].sim_ns_per_s), 200_000);
    assert_eq!(
        strip_window_ns(SPEEDS[DEFAULT_SPEED].sim_ns_per_s),
        3_000_000
    );
    assert_eq!(strip_window_ns(SPEEDS[8].sim_ns_per_s), 2_000_000);
}

#[test]
fn a_derived_speed_plays_until_a_preset_is_chosen_and_survives_a_restart() {
    let mut c = Clock::default();
    c.set_speed(FOLLOW);
    assert_eq!(
        c.speed(),
        SPEEDS.len() - 1,
        "no derived speed yet: the last preset"
    );
    c.set_follow(20_000);
    assert_eq!(
        (c.speed(), c.rate_ns(), c.following()),
        (FOLLOW, Some(20_000), Some(20_000))
    );
    c.reset();
    assert_eq!(c.rate_ns(), Some(20_000));
    let mut a = session(&[("size", "1m")]);
    c.frame(0.0, 0.0, &mut a, None, || 0.0);
    c.frame(50.0, 0.0, &mut a, None, || 0.0);
    assert_eq!(
        c.now(),
        333 + 1_000,
        "one 60 Hz frame, then 50 ms at 20 µs/s"
    );
    c.set_speed(2);
    assert_eq!((c.rate_ns(), c.following()), (Some(50_000), None));
    c.set_speed(FOLLOW);
    assert_eq!(c.following(), Some(20_000));
    c.clear_follow();
    assert_eq!((c.speed(), c.following()), (DEFAULT_SPEED, None));
}

/// A tour's Play stops where its next steps read the pair (issue 50: going there afterwards
/// once took the clock back): the frame that would pass the stop arrives exactly at it, and
/// a seek forgets it.
#[test]
fn playing_stops_at_its_stop_and_a_seek_forgets_it() {
    let (mut a, mut b) = (session(&[("size", "4m")]), session(&[("size", "4m")]));
    let mut c = Clock::default();
    c.set_speed(speed_index("1 ms/s").unwrap());
    c.stop_at(40_000);
    assert!(!c.frame(1000.0, 0.0, &mut a, Some(&mut b), || 0.0));
    assert_eq!(c.now(), 16_666);
    assert!(
        c.frame(1050.0, 0.0, &mut a, Some(&mut b), || 0.0),
        "arrived at the stop"
    );
    assert_eq!((c.now(), a.now(), b.now()), (40_000, 40_000, 40_000));
    // Playing on from there goes past it: the stop is used up.
    assert!(!c.frame(1100.0, 0.0, &mut a, Some(&mut b), || 0.0));
    assert!(c.now() > 40_000);
    c.stop_at(200_000);
    c.seek(Some(100_000));
    while !c.frame(1200.0, 0.0, &mut a, Some(&mut b), || 0.0) {}
    c.resume();
    c.frame(1300.0, 0.0, &mut a, Some(&mut b), || 0.0);
    c.frame(1400.0, 0.0, &mut a, Some(&mut b), || 0.0);
    assert!(c.now() > 200_000, "no stop after the seek: {}", c.now());
}
