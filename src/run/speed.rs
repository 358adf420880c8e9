//! The speed control of "Watch the pipeline": the preset speeds (simulated time per second of
//! real time), their labels, and the derived speed at which one request can be followed,
//! listed among them in order.

/// One step of the speed control: simulated time per second of real time, or `None` for "as
/// fast as the frame budget allows".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speed {
    pub label: &'static str,
    pub sim_ns_per_s: Option<u64>,
}

const fn speed(label: &'static str, sim_ns_per_s: Option<u64>) -> Speed {
    Speed {
        label,
        sim_ns_per_s,
    }
}

/// The speed control, slowest first. The slowest steps show one request crossing the bus in
/// slow motion (a 4 KiB transfer on HS400 takes about 10 µs); the default lets a reader follow
/// each request of a non-packed 4 KiB run (about 170 µs apart) without losing track.
pub const SPEEDS: [Speed; 9] = [
    speed("2 µs/s", Some(2_000)),
    speed("10 µs/s", Some(10_000)),
    speed("50 µs/s", Some(50_000)),
    speed("200 µs/s", Some(200_000)),
    speed("1 ms/s", Some(1_000_000)),
    speed("5 ms/s", Some(5_000_000)),
    speed("25 ms/s", Some(25_000_000)),
    speed("100 ms/s", Some(100_000_000)),
    speed("as fast as possible", None),
];

/// "Normal" speed: 1 ms of simulated time per second.
pub const DEFAULT_SPEED: usize = 4;

/// The speed index past [`SPEEDS`] meaning "the speed derived to follow one request"
/// ([`crate::watch::follow`]), set by [`crate::watch::clock::Clock::set_follow`].
pub const FOLLOW: usize = SPEEDS.len();

/// The index in [`SPEEDS`] of the speed labelled `label`.
pub fn speed_index(label: &str) -> Option<usize> {
    SPEEDS.iter().position(|s| s.label == label)
}

/// The speed control's labels: [`SPEEDS`], with the derived speed (if any) in its place
/// among them, "200 µs/s · follow one request".
pub fn shown_speeds(follow: Option<u64>) -> Vec<String> {
    let mut v: Vec<String> = SPEEDS.iter().map(|s| s.label.to_string()).collect();
    if let Some(ns) = follow {
        let label = format!("{}/s · follow one request", round_time(ns));
        v.insert(follow_place(ns), label);
    }
    v
}

/// Where the derived speed stands among [`SPEEDS`] (the presets slower than it come first).
fn follow_place(ns: u64) -> usize {
    SPEEDS
        .iter()
        .take_while(|s| s.sim_ns_per_s.is_some_and(|r| r <= ns))
        .count()
}

/// The clock's speed index ([`SPEEDS`] or [`FOLLOW`]) of entry `i` of [`shown_speeds`].
pub fn from_shown(i: usize, follow: Option<u64>) -> usize {
    match follow.map(follow_place) {
        Some(k) if i == k => FOLLOW,
        Some(k) if i > k => i - 1,
        _ => i,
    }
}

/// The entry of [`shown_speeds`] of the clock's speed index.
pub fn to_shown(speed: usize, follow: Option<u64>) -> usize {
    match follow.map(follow_place) {
        Some(k) if speed == FOLLOW => k,
        Some(k) if speed >= k => speed + 1,
        _ => speed.min(SPEEDS.len() - 1),
    }
}

/// "200 µs" of a round speed.
pub fn round_time(ns: u64) -> String {
    match ns {
        1_000_000.. => format!("{} ms", ns as f64 / 1e6),
        1_000.. => format!("{} µs", ns as f64 / 1e3),
        _ => format!("{ns} ns"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_derived_speed_is_listed_among_the_presets() {
        let f = Some(20_000);
        let shown = shown_speeds(f);
        assert_eq!(shown.len(), SPEEDS.len() + 1);
        assert_eq!(shown[2], "20 µs/s · follow one request");
        assert_eq!(
            (shown[1].as_str(), shown[3].as_str()),
            ("10 µs/s", "50 µs/s")
        );
        for i in 0..shown.len() {
            assert_eq!(to_shown(from_shown(i, f), f), i);
        }
        assert_eq!(from_shown(2, f), FOLLOW);
        assert_eq!(from_shown(3, f), 2);
        assert_eq!(shown_speeds(None).len(), SPEEDS.len());
        assert_eq!(from_shown(3, None), 3);
    }
}
