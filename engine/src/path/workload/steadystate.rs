//! fio's steady-state detection (`steadystate.c`): every `ss_interval` after `ss_ramp` (plus one
//! interval) the job's IOPS, bandwidth or mean completion latency over the interval is sampled;
//! once `ss_dur` worth of samples is in the rolling window, the job stops as soon as they are
//! steady: every sample within the limit of their mean (`iops:10%`), or the least-squares slope
//! below the limit (`iops_slope:0.1%`). Samples come from the simulated completions.

use std::collections::VecDeque;

use crate::scenario::steadystate::{Criterion, Metric};

/// Cumulative figures of a job at an instant.
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    pub ios: u64,
    pub bytes: u64,
    pub lat_sum_ns: f64,
    pub lat_n: u64,
}

/// One job's detector.
#[derive(Debug)]
pub struct SteadyState {
    c: Criterion,
    interval_ns: u64,
    intervals: usize,
    /// Samples start at the first boundary at or after `ramp + interval`.
    first_sample_ns: u64,
    /// Next boundary, ns from the job's start.
    next_ns: u64,
    prev: Totals,
    window: VecDeque<f64>,
}

impl SteadyState {
    pub fn new(c: Criterion, dur_ns: u64, ramp_ns: u64, interval_ns: u64) -> SteadyState {
        let interval_ns = interval_ns.max(1);
        SteadyState {
            c,
            interval_ns,
            intervals: (dur_ns / interval_ns).max(1) as usize,
            first_sample_ns: ramp_ns + interval_ns,
            next_ns: interval_ns,
            prev: Totals::default(),
            window: VecDeque::new(),
        }
    }

    /// Processes every interval boundary up to `elapsed` (ns since the job started) with the
    /// job's totals `t` (which do not include a completion at `elapsed` itself). True once the
    /// job is steady.
    pub fn check(&mut self, elapsed: u64, t: Totals) -> bool {
        while self.next_ns <= elapsed {
            let at = self.next_ns;
            self.next_ns += self.interval_ns;
            let per_s = 1e9 / self.interval_ns as f64;
            let sample = match self.c.metric {
                Metric::Iops => (t.ios - self.prev.ios) as f64 * per_s,
                Metric::Bw => (t.bytes - self.prev.bytes) as f64 * per_s,
                Metric::Lat => {
                    let n = t.lat_n - self.prev.lat_n;
                    if n == 0 {
                        0.0
                    } else {
                        (t.lat_sum_ns - self.prev.lat_sum_ns) / n as f64
                    }
                }
            };
            self.prev = t;
            if at < self.first_sample_ns {
                continue;
            }
            self.window.push_back(sample);
            if self.window.len() > self.intervals {
                self.window.pop_front();
            }
            if self.window.len() == self.intervals && self.steady() {
                return true;
            }
        }
        false
    }

    fn steady(&self) -> bool {
        let n = self.window.len() as f64;
        let mean = self.window.iter().sum::<f64>() / n;
        let value = if self.c.slope {
            // Least squares over x = 0..n-1.
            let sx = (n - 1.0) * n / 2.0;
            let sxx = (n - 1.0) * n * (2.0 * n - 1.0) / 6.0;
            let sxy: f64 = self
                .window
                .iter()
                .enumerate()
                .map(|(i, y)| i as f64 * y)
                .sum();
            let sy = mean * n;
            let den = sxx - sx * sx / n;
            if den == 0.0 {
                0.0
            } else {
                (sxy - sx * sy / n) / den
            }
        } else {
            self.window
                .iter()
                .map(|y| (y - mean).abs())
                .fold(0.0, f64::max)
        };
        let criterion = if self.c.pct {
            if mean == 0.0 {
                return false;
            }
            100.0 * value / mean
        } else {
            value
        };
        criterion.abs() < self.c.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::steadystate::parse;

    fn totals(ios: u64) -> Totals {
        Totals {
            ios,
            bytes: ios * 4096,
            lat_sum_ns: ios as f64 * 100_000.0,
            lat_n: ios,
        }
    }

    #[test]
    fn a_constant_rate_is_steady_once_the_window_is_full() {
        // 1 s intervals, a 5 s window, a 2 s ramp: samples at 3..7 s; steady at 7 s.
        let mut ss = SteadyState::new(
            parse("iops:1%").unwrap(),
            5_000_000_000,
            2_000_000_000,
            1_000_000_000,
        );
        for s in 1..7u64 {
            assert!(!ss.check(s * 1_000_000_000, totals(s * 1000)), "{s} s");
        }
        assert!(ss.check(7_000_000_000, totals(7000)));
    }

    #[test]
    fn a_changing_rate_is_not_steady() {
        let mut ss = SteadyState::new(parse("iops:1%").unwrap(), 3_000_000_000, 0, 1_000_000_000);
        let mut ios = 0;
        for s in 1..20u64 {
            ios += s * 100;
            assert!(!ss.check(s * 1_000_000_000, totals(ios)), "{s} s");
        }
    }
}
