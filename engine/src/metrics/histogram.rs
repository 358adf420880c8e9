//! Completion-latency histogram with fio's bucket layout (fio `stat.h`: FIO_IO_U_PLAT_BITS = 6,
//! 29 groups of 64 buckets), so percentiles are computed the way fio computes them and memory is
//! fixed (1856 counters) however many requests are simulated. The counters are allocated with
//! the first sample: a direction a job never does (the writes of a read job) costs nothing,
//! which is most of the memory of a run of 1000 job sections.

use serde::{Deserialize, Serialize};

const PLAT_BITS: u32 = 6;
const PLAT_VAL: u64 = 1 << PLAT_BITS;
const PLAT_GROUP_NR: usize = 29;
/// Number of buckets (fio's FIO_IO_U_PLAT_NR).
pub const PLAT_NR: usize = PLAT_GROUP_NR * PLAT_VAL as usize;

/// fio's default `percentile_list`.
pub const FIO_PERCENTILES: [f64; 17] = [
    1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95,
    99.99,
];

/// Streaming latency statistics in nanoseconds: count, min, max, mean, stddev (Welford) and a
/// bucketed histogram for percentiles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatencyHistogram {
    buckets: Vec<u64>,
    count: u64,
    min: u64,
    max: u64,
    mean: f64,
    m2: f64,
}

impl Default for LatencyHistogram {
    fn default() -> Self {
        Self::new()
    }
}

/// fio `plat_val_to_idx`.
fn val_to_idx(val: u64) -> usize {
    let msb = if val == 0 {
        0
    } else {
        63 - val.leading_zeros()
    };
    if msb <= PLAT_BITS {
        return val as usize;
    }
    let error_bits = msb - PLAT_BITS;
    let base = ((error_bits + 1) as usize) << PLAT_BITS;
    let offset = ((PLAT_VAL - 1) & (val >> error_bits)) as usize;
    (base + offset).min(PLAT_NR - 1)
}

/// fio `plat_idx_to_val`: the value a bucket stands for (its midpoint).
fn idx_to_val(idx: usize) -> u64 {
    if idx < (PLAT_VAL as usize) << 1 {
        return idx as u64;
    }
    let error_bits = (idx >> PLAT_BITS) as u32 - 1;
    let base = 1u64 << (error_bits + PLAT_BITS);
    let k = (idx as u64) % PLAT_VAL;
    base + ((k as f64 + 0.5) * (1u64 << error_bits) as f64) as u64
}

impl LatencyHistogram {
    pub fn new() -> Self {
        LatencyHistogram {
            // Empty until the first sample (empty exactly when `count` is 0).
            buckets: Vec::new(),
            count: 0,
            min: u64::MAX,
            max: 0,
            mean: 0.0,
            m2: 0.0,
        }
    }

    pub fn record(&mut self, ns: u64) {
        if self.buckets.is_empty() {
            self.buckets = vec![0; PLAT_NR];
        }
        self.buckets[val_to_idx(ns)] += 1;
        self.count += 1;
        self.min = self.min.min(ns);
        self.max = self.max.max(ns);
        let x = ns as f64;
        let d = x - self.mean;
        self.mean += d / self.count as f64;
        self.m2 += d * (x - self.mean);
    }

    /// Adds another histogram into this one (fio's group_reporting).
    pub fn merge(&mut self, o: &LatencyHistogram) {
        if o.count == 0 {
            return;
        }
        if self.buckets.is_empty() {
            self.buckets = vec![0; PLAT_NR];
        }
        for (a, b) in self.buckets.iter_mut().zip(&o.buckets) {
            *a += b;
        }
        let n = self.count + o.count;
        let delta = o.mean - self.mean;
        let mean = self.mean + delta * o.count as f64 / n as f64;
        self.m2 += o.m2 + delta * delta * self.count as f64 * o.count as f64 / n as f64;
        self.mean = mean;
        self.count = n;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }

    pub fn count(&self) -> u64 {
        self.count
    }
    pub fn min(&self) -> u64 {
        if self.count == 0 {
            0
        } else {
            self.min
        }
    }
    pub fn max(&self) -> u64 {
        self.max
    }
    pub fn mean(&self) -> f64 {
        self.mean
    }
    /// Sample standard deviation, as fio prints it.
    pub fn stddev(&self) -> f64 {
        if self.count < 2 {
            0.0
        } else {
            (self.m2 / (self.count - 1) as f64).sqrt()
        }
    }

    /// The latency at percentile `p` (0..=100), fio's way: the first bucket where the running
    /// count reaches p% of all samples.
    pub fn percentile(&self, p: f64) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let target = (p / 100.0 * self.count as f64).max(1.0);
        let mut sum = 0u64;
        for (i, &c) in self.buckets.iter().enumerate() {
            sum += c;
            if sum as f64 >= target {
                return idx_to_val(i).clamp(self.min(), self.max);
            }
        }
        self.max
    }

    /// Non-empty buckets as (bucket value in ns, count), for charts.
    pub fn buckets(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.buckets
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, &c)| (idx_to_val(i), c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_within_bucket_error() {
        let mut h = LatencyHistogram::new();
        for v in 1..=100_000u64 {
            h.record(v * 10);
        }
        let p50 = h.percentile(50.0) as f64;
        assert!((p50 - 500_000.0).abs() / 500_000.0 < 0.02, "p50 {p50}");
        let p99 = h.percentile(99.0) as f64;
        assert!((p99 - 990_000.0).abs() / 990_000.0 < 0.02, "p99 {p99}");
        assert_eq!(h.min(), 10);
        assert_eq!(h.max(), 1_000_000);
        assert!((h.mean() - 500_005.0).abs() < 1.0);
    }

    #[test]
    fn merge_equals_recording_both() {
        let mut a = LatencyHistogram::new();
        let mut b = LatencyHistogram::new();
        let mut all = LatencyHistogram::new();
        for v in 0..1000u64 {
            let x = v * v + 7;
            if v % 3 == 0 {
                a.record(x)
            } else {
                b.record(x)
            }
            all.record(x);
        }
        a.merge(&b);
        assert_eq!(a.count(), all.count());
        assert!((a.stddev() - all.stddev()).abs() / all.stddev() < 1e-9);
        assert_eq!(a.percentile(99.9), all.percentile(99.9));
    }
}
