//! The speed of a first play: slow enough that a reader can follow one request from stage to
//! stage. It is derived from the scenario itself: a short look-ahead run of the same scenario
//! (the engine is deterministic, so this is the run about to be watched) gives each request's
//! stage changes from submission to reaping; the speed, of 1, 2, 3 or 5 times a power of ten,
//! is the fastest at which a followed request (the median one) changes stage at most
//! [`MAX_CHANGES_PER_S`] times per second of real time.
//!
//! Plain logic, no browser code: tested natively.

use mmcsim_engine::{Scenario, Stage};

use crate::run::session::Session;
use crate::run::speed::round_time;

/// Stage changes per real second a followed request makes at most at the derived speed: a
/// handful, each one readable (a token's glide between two stages takes a fifth of a second,
/// [`crate::watch`]'s `GLIDE_MS`).
pub const MAX_CHANGES_PER_S: f64 = 5.0;
/// Simulated time the look-ahead covers at most, ns: eight seconds at the fastest speed.
const LOOK_AHEAD_NS: u64 = 8_000_000;
/// Requests the speed is judged on at least (past the start of the run when there are).
const MIN_REQUESTS: usize = 10;
/// Events the look-ahead runs at most (a slow scenario never stalls the page).
const MAX_EVENTS: u64 = 100_000;
/// The derived speed's bounds, simulated ns per real second: at least 1 µs/s, at most 1 ms/s
/// (above it the tokens move nearly every frame and stop gliding).
const SLOWEST: u64 = 1_000;
const FASTEST: u64 = 1_000_000;

/// The speed a first play picks for a scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FollowSpeed {
    /// Simulated ns per real second: 1, 2, 3 or 5 times a power of ten.
    pub sim_ns_per_s: u64,
    /// Mean time a request of the look-ahead stayed in a stage, ns (of a pair, on the side
    /// whose requests move fastest, which set the speed).
    pub mean_dwell_ns: u64,
    /// Stage visits the look-ahead measured (on that side).
    pub visits: usize,
}

impl FollowSpeed {
    /// "slowed to 20 µs per second so you can follow one request".
    pub fn note(&self) -> String {
        format!(
            "Slowed to {} per second so you can follow one request (here a request stays {} \
             in a stage on average).",
            round_time(self.sim_ns_per_s),
            time(self.mean_dwell_ns)
        )
    }
}

/// "12.3 µs".
fn time(ns: u64) -> String {
    if ns >= 1_000_000 {
        format!("{:.1} ms", ns as f64 / 1e6)
    } else if ns >= 1_000 {
        format!("{:.1} µs", ns as f64 / 1e3)
    } else {
        format!("{ns} ns")
    }
}

/// Stage changes closer than one 60 Hz frame are drawn as one, s.
const FRAME_S: f64 = 1.0 / 60.0;

/// The stages each request entered in the look-ahead run (time, stage; sorted), for the
/// requests the look-ahead saw from submission to reaping: the first [`LOOK_AHEAD_NS`] of the
/// run at most, and at most [`MAX_EVENTS`] events. The requests submitted in its first quarter
/// are left out when enough remain (the start of a run, all jobs submitting at once, is no
/// typical moment).
pub fn lives(scn: &Scenario) -> Vec<Vec<(u64, Stage)>> {
    let Ok(mut s) = Session::watched(scn) else {
        return Vec::new();
    };
    s.advance_to(LOOK_AHEAD_NS, MAX_EVENTS);
    let mut out = Vec::new();
    for id in 0.. {
        let Some(trace) = s.trace_of(id) else { break };
        let mut e: Vec<(u64, Stage)> = trace
            .iter()
            .map(|e| (e.t_ns, e.stage))
            .filter(|e| e.0 <= s.now())
            .collect();
        e.sort();
        if e.last().is_some_and(|e| e.1 == Stage::Done) {
            out.push(e);
        }
    }
    let warm = s.now() / 4;
    let later: Vec<_> = out.iter().filter(|l| l[0].0 >= warm).cloned().collect();
    if later.len() >= MIN_REQUESTS {
        later
    } else {
        out
    }
}

/// At `v` simulated ns per real second: the median, over the requests of `lives`, of the stage
/// changes a request makes per real second from its submission to its reaping (changes within
/// one frame of the previous one are drawn as one and count once). None without requests.
pub fn followed_rate(lives: &[Vec<(u64, Stage)>], v: f64) -> Option<f64> {
    let frame = v * FRAME_S;
    let mut rates: Vec<f64> = lives
        .iter()
        .filter_map(|l| {
            let (t0, t1) = (l.first()?.0 as f64, l.last()?.0 as f64);
            if t1 <= t0 {
                return None;
            }
            let mut last = t0;
            let mut changes = 0;
            for &(t, _) in &l[1..] {
                if t as f64 - last >= frame {
                    changes += 1;
                    last = t as f64;
                }
            }
            Some(changes as f64 * v / (t1 - t0))
        })
        .collect();
    if rates.is_empty() {
        return None;
    }
    rates.sort_by(f64::total_cmp);
    Some(rates[rates.len() / 2])
}

/// The speeds a first play chooses from: 1, 2, 3 and 5 times a power of ten, 1 µs/s to 1 ms/s.
fn candidates() -> impl Iterator<Item = u64> {
    (0..)
        .map(|i| [1, 2, 3, 5][i % 4] * 10u64.pow(i as u32 / 4) * SLOWEST)
        .take_while(|&v| v <= FASTEST)
}

/// The fastest speed of [`candidates`] at which a followed request of `a` (and of `b`: an A/B
/// pair plays in lockstep, at one speed) changes stage at most [`MAX_CHANGES_PER_S`] times a
/// second (the slowest, if none); None when the look-ahead saw no request through.
pub fn follow_speed(a: &Scenario, b: Option<&Scenario>) -> Option<FollowSpeed> {
    let sides: Vec<Vec<Vec<(u64, Stage)>>> = std::iter::once(a)
        .chain(b)
        .map(lives)
        .filter(|l| !l.is_empty())
        .collect();
    let fastest_side = |v: u64| {
        sides
            .iter()
            .filter_map(|l| followed_rate(l, v as f64))
            .fold(0.0, f64::max)
    };
    let v = candidates()
        .take_while(|&v| fastest_side(v) <= MAX_CHANGES_PER_S)
        .last()
        .unwrap_or(SLOWEST);
    // The side that set the speed: its requests move fastest.
    let setter = sides.iter().max_by(|x, y| {
        let r = |l: &Vec<Vec<(u64, Stage)>>| followed_rate(l, v as f64).unwrap_or(0.0);
        r(x).total_cmp(&r(y))
    })?;
    let dwells: Vec<u64> = setter
        .iter()
        .flat_map(|l| l.windows(2).map(|w| w[1].0 - w[0].0))
        .filter(|&d| d > 0)
        .collect();
    Some(FollowSpeed {
        sim_ns_per_s: v,
        mean_dwell_ns: dwells.iter().sum::<u64>() / dwells.len().max(1) as u64,
        visits: dwells.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::landing_pair;
    use crate::run::test_support::scenario;

    #[test]
    fn the_speeds_are_one_two_three_five_from_one_microsecond_to_one_millisecond() {
        let v: Vec<u64> = candidates().collect();
        assert_eq!(v.first(), Some(&1_000));
        assert_eq!(v.last(), Some(&1_000_000));
        assert_eq!(&v[..5], &[1_000, 2_000, 3_000, 5_000, 10_000]);
    }

    #[test]
    fn a_followed_request_changes_stage_a_handful_of_times_a_second() {
        // At most MAX_CHANGES_PER_S, and the next faster speed (at most 2x) would exceed it.
        let rate = |scn: &Scenario, f: &FollowSpeed| {
            followed_rate(&lives(scn), f.sim_ns_per_s as f64).expect("followed requests")
        };
        let one = scenario(&[("numjobs", "1")]);
        let lab = scenario(&[("numjobs", "4"), ("bs", "64k")]);
        let big = scenario(&[("bs", "512k"), ("rw", "write")]);
        let mut speeds = Vec::new();
        for scn in [&one, &lab, &big] {
            let f = follow_speed(scn, None).expect("requests seen");
            assert!(f.visits >= 20, "{f:?}");
            let r = rate(scn, &f);
            assert!(
                (2.0..=MAX_CHANGES_PER_S).contains(&r),
                "{r} changes per second: {f:?}"
            );
            speeds.push(f.sim_ns_per_s);
        }
        // Larger transfers stay longer in each stage: the speed is higher.
        assert!(speeds[2] > speeds[0], "{speeds:?}");
    }

    #[test]
    fn a_pair_plays_at_the_speed_its_faster_moving_side_can_be_followed_at() {
        let (a, b) = landing_pair();
        let fa = follow_speed(&a, None).expect("requests seen");
        let fb = follow_speed(&b, None).expect("requests seen");
        // B's chained requests move faster: B alone plays slower, and so does the pair.
        assert!(fb.sim_ns_per_s < fa.sim_ns_per_s, "{fa:?} {fb:?}");
        let pair = follow_speed(&a, Some(&b)).expect("requests seen");
        assert_eq!(pair.sim_ns_per_s, fb.sim_ns_per_s);
        let ra = followed_rate(&lives(&a), pair.sim_ns_per_s as f64).expect("followed");
        assert!(
            (1.0..MAX_CHANGES_PER_S).contains(&ra),
            "A: {ra} changes per second"
        );
        assert!(
            pair.note()
                .starts_with("Slowed to 200 µs per second so you can follow one request"),
            "{}",
            pair.note()
        );
    }
}
