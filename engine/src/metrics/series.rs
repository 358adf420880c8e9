//! Throughput, IOPS and in-flight count over simulated time, in a fixed number of buckets.
//! When the run outgrows the buckets, adjacent pairs merge and the bucket width doubles, so a
//! run of any length keeps at most `max_points` points.

use serde::{Deserialize, Serialize};

/// One bucket of the time series.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeriesPoint {
    /// Bucket start, ns of simulated time.
    pub t_ns: u64,
    /// Bucket width, ns.
    pub width_ns: u64,
    pub read_bytes: u64,
    pub write_bytes: u64,
    pub ios: u64,
    /// Integral of requests in flight (past blk-mq, not yet completed) over the bucket, in
    /// request-nanoseconds; divide by `width_ns` for the average.
    pub inflight_ns: u128,
}

impl SeriesPoint {
    /// Total MiB/s over the bucket.
    pub fn mib_s(&self) -> f64 {
        (self.read_bytes + self.write_bytes) as f64 * 1e9 / self.width_ns as f64 / 1_048_576.0
    }
    pub fn iops(&self) -> f64 {
        self.ios as f64 * 1e9 / self.width_ns as f64
    }
    pub fn avg_inflight(&self) -> f64 {
        self.inflight_ns as f64 / self.width_ns as f64
    }
}

#[derive(Clone, Debug)]
pub struct TimeSeries {
    width_ns: u64,
    max_points: usize,
    points: Vec<SeriesPoint>,
    inflight: u64,
    inflight_since: u64,
    /// The bucket looked up last, as (start, end, index); (0, 0, 0) for none. Most look-ups
    /// land in it again, and it spares them the division.
    hot: (u64, u64, usize),
}

impl TimeSeries {
    /// `initial_width_ns` > 0, `max_points` >= 2.
    pub fn new(initial_width_ns: u64, max_points: usize) -> Self {
        TimeSeries {
            width_ns: initial_width_ns.max(1),
            max_points: max_points.max(2),
            points: Vec::new(),
            inflight: 0,
            inflight_since: 0,
            hot: (0, 0, 0),
        }
    }

    #[inline(always)]
    fn bucket(&mut self, t: u64) -> &mut SeriesPoint {
        let (start, end, idx) = self.hot;
        if t >= start && t < end {
            return &mut self.points[idx];
        }
        self.bucket_far(t)
    }

    #[cold]
    #[inline(never)]
    fn bucket_far(&mut self, t: u64) -> &mut SeriesPoint {
        let mut idx = (t / self.width_ns) as usize;
        while idx >= self.max_points {
            self.compact();
            idx = (t / self.width_ns) as usize;
        }
        while self.points.len() <= idx {
            let i = self.points.len() as u64;
            self.points.push(SeriesPoint {
                t_ns: i * self.width_ns,
                width_ns: self.width_ns,
                ..Default::default()
            });
        }
        let start = idx as u64 * self.width_ns;
        self.hot = (start, start.saturating_add(self.width_ns), idx);
        &mut self.points[idx]
    }

    fn compact(&mut self) {
        let w = self.width_ns * 2;
        let mut merged = Vec::with_capacity(self.points.len() / 2 + 1);
        for pair in self.points.chunks(2) {
            let mut p = pair[0];
            p.width_ns = w;
            for q in &pair[1..] {
                p.read_bytes += q.read_bytes;
                p.write_bytes += q.write_bytes;
                p.ios += q.ios;
                p.inflight_ns += q.inflight_ns;
            }
            merged.push(p);
        }
        self.points = merged;
        self.width_ns = w;
        self.hot = (0, 0, 0);
    }

    /// Accumulates the in-flight integral up to `t`, bucket by bucket.
    fn advance(&mut self, t: u64) {
        let mut from = self.inflight_since;
        let n = self.inflight as u128;
        while from < t {
            // The bucket holding `from` (merging buckets first if the run outgrew them), up to
            // its end or `t`.
            self.bucket(from);
            let (_, end, idx) = self.hot;
            let to = end.min(t);
            self.points[idx].inflight_ns += n * (to - from) as u128;
            from = to;
        }
        self.inflight_since = t;
    }

    pub fn record_completion(&mut self, t: u64, bytes: u64, is_write: bool) {
        let b = self.bucket(t);
        if is_write {
            b.write_bytes += bytes
        } else {
            b.read_bytes += bytes
        }
        b.ios += 1;
    }

    /// The in-flight count changes to `n` at time `t`.
    pub fn set_inflight(&mut self, t: u64, n: u64) {
        self.advance(t);
        self.inflight = n;
    }

    /// Points up to time `now` (the last one may be partial: its width is cut to `now`).
    pub fn points(&self, now: u64) -> Vec<SeriesPoint> {
        let mut v = self.points.clone();
        if let Some(last) = v.last_mut() {
            if now > last.t_ns && now < last.t_ns + last.width_ns {
                last.width_ns = now - last.t_ns;
            }
        }
        v
    }

    pub fn width_ns(&self) -> u64 {
        self.width_ns
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn bounded_and_conserving() {
        let mut s = TimeSeries::new(1000, 16);
        for i in 0..10_000u64 {
            s.record_completion(i * 100, 4096, i % 2 == 0);
        }
        let p = s.points(1_000_000);
        assert!(p.len() <= 16);
        let total: u64 = p.iter().map(|x| x.read_bytes + x.write_bytes).sum();
        assert_eq!(total, 10_000 * 4096);
    }
    #[test]
    fn inflight_integral() {
        let mut s = TimeSeries::new(1000, 64);
        s.set_inflight(0, 2);
        s.set_inflight(3000, 0);
        let p = s.points(4000);
        assert_eq!(p[0].avg_inflight(), 2.0);
        assert_eq!(p[2].avg_inflight(), 2.0);
        assert_eq!(p.len(), 3);
    }
}
