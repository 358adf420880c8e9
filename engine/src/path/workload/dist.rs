//! fio's `random_distribution`s (lib/zipf.c, lib/gauss.c) as ranks 0..n, the hottest first in
//! zipf; the job maps a rank to a block through its permutation, as fio scrambles ranks with a
//! hash so hot blocks are spread over the region.
//!
//! The logarithm and exponential are computed here with + - * / only (IEEE-exact on every
//! target), so a scenario draws the same blocks natively and in the browser; `f64::ln` and
//! `f64::powf` come from the platform's libm and may differ in the last bit.

use rand::RngExt;

use crate::rng::Rng;
use crate::scenario::RandomDistribution;

const LN2: f64 = std::f64::consts::LN_2;

/// Natural logarithm of x > 0.
pub fn ln(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return f64::NEG_INFINITY;
    }
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > std::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    // ln(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    let mut k = 1.0;
    while k < 60.0 {
        sum += term / k;
        term *= s2;
        k += 2.0;
    }
    e as f64 * LN2 + 2.0 * sum
}

/// e^x (0 below -700, +inf above 700).
pub fn exp(x: f64) -> f64 {
    if x < -700.0 {
        return 0.0;
    }
    if x > 700.0 {
        return f64::INFINITY;
    }
    let k = (x / LN2 + 0.5).floor();
    let r = x - k * LN2;
    let mut term = 1.0;
    let mut sum = 1.0;
    let mut i = 1.0;
    while i < 25.0 {
        term *= r / i;
        sum += term;
        i += 1.0;
    }
    sum * f64::from_bits(((k as i64 + 1023) as u64) << 52)
}

/// Uniform in [0, 1).
fn unit(rng: &mut Rng) -> f64 {
    rng.random::<f64>()
}

/// A rank in 0..n drawn from `d` (`Random` is uniform).
pub fn rank(d: &RandomDistribution, rng: &mut Rng, n: u64) -> u64 {
    let n = n.max(1);
    let r = match *d {
        RandomDistribution::Random => return rng.random_range(0..n.max(1)),
        RandomDistribution::Zoned(_) | RandomDistribution::ZonedAbs(_) => {
            return zoned(d, rng, n, 1)
        }
        RandomDistribution::Zipf(milli) => zipf(milli as f64 / 1000.0, rng, n),
        RandomDistribution::Pareto(milli) => {
            // fio pareto_next: (n - 1) * u^(log h / log(1 - h)).
            let h = milli as f64 / 1000.0;
            let pow = ln(h) / ln(1.0 - h);
            let u = unit(rng);
            let v = if u == 0.0 { 0.0 } else { exp(pow * ln(u)) };
            ((n - 1) as f64 * v) as u64
        }
        RandomDistribution::Normal(milli) => {
            // fio gauss_next: the sum of 12 uniforms, centred, scaled by the deviation.
            let sd = n as f64 * (milli as f64 / 1000.0) / 100.0;
            let mut sum = 0.0;
            for _ in 0..12 {
                sum += unit(rng);
            }
            let v = n as f64 / 2.0 + sd * (sum - 6.0);
            v.max(0.0) as u64
        }
    };
    r.min(n - 1)
}

/// A block in 0..n for fio's zoned distributions (lib/rand.c zoned ranges): a zone is chosen by
/// its share of the accesses, a block uniformly inside it. Zones lie in order from the start of
/// the region; `block_bytes` converts `zoned_abs` sizes to blocks.
pub fn zoned(d: &RandomDistribution, rng: &mut Rng, n: u64, block_bytes: u64) -> u64 {
    let zones: Vec<(u32, u64)> = match d {
        RandomDistribution::Zoned(z) => z
            .iter()
            .map(|&(a, pct)| (a, n * u64::from(pct) / 100))
            .collect(),
        RandomDistribution::ZonedAbs(z) => z
            .iter()
            .map(|&(a, bytes)| (a, bytes / block_bytes.max(1)))
            .collect(),
        _ => return rng.random_range(0..n.max(1)),
    };
    let r = rng.random_range(0..100u32);
    let (mut acc, mut start) = (0u32, 0u64);
    for (a, len) in zones {
        acc += a;
        if r < acc {
            let len = len.max(1).min(n.saturating_sub(start).max(1));
            return (start + rng.random_range(0..len)).min(n - 1);
        }
        start += len;
    }
    rng.random_range(0..n.max(1))
}

/// Zipf over 1..=n by rejection-inversion (Hörmann and Derflinger, 1996), O(1) per draw.
fn zipf(s: f64, rng: &mut Rng, n: u64) -> u64 {
    let h = |x: f64| exp(-s * ln(x));
    let helper1 = |x: f64| {
        if x.abs() > 1e-8 {
            ln(1.0 + x) / x
        } else {
            1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x))
        }
    };
    let helper2 = |x: f64| {
        if x.abs() > 1e-8 {
            (exp(x) - 1.0) / x
        } else {
            1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x))
        }
    };
    let h_int = |x: f64| {
        let lx = ln(x);
        helper2((1.0 - s) * lx) * lx
    };
    let h_int_inv = |x: f64| {
        let t = (x * (1.0 - s)).max(-1.0);
        exp(helper1(t) * x)
    };
    let x1 = h_int(1.5) - 1.0;
    let hn = h_int(n as f64 + 0.5);
    let cut = 2.0 - h_int_inv(h_int(2.5) - h(2.0));
    for _ in 0..64 {
        let u = hn + unit(rng) * (x1 - hn);
        let x = h_int_inv(u);
        let k = ((x + 0.5) as u64).clamp(1, n);
        if k as f64 - x <= cut || u >= h_int(k as f64 + 0.5) - h(k as f64) {
            return k - 1;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_and_exp_match_the_platform_closely() {
        for &x in &[1e-9, 0.1, 0.5, 1.0, 1.5, 2.0, 10.0, 12345.678, 1e12] {
            assert!(
                (ln(x) - x.ln()).abs() < 1e-12 * x.ln().abs().max(1.0),
                "ln {x}"
            );
        }
        for &x in &[-20.0, -1.0, -0.1, 0.0, 0.3, 1.0, 5.0, 30.0] {
            assert!((exp(x) - x.exp()).abs() <= 1e-13 * x.exp(), "exp {x}");
        }
    }

    #[test]
    fn zipf_favours_low_ranks_and_normal_the_middle() {
        let mut rng = crate::rng::stream(1, 2);
        let n = 1000;
        let z: Vec<u64> = (0..20_000)
            .map(|_| rank(&RandomDistribution::Zipf(1200), &mut rng, n))
            .collect();
        let top10 = z.iter().filter(|&&r| r < 10).count();
        assert!(
            top10 > 20_000 / 2,
            "zipf:1.2 puts most draws on 1% of blocks: {top10}"
        );
        assert!(z.iter().all(|&r| r < n));
        let g: Vec<u64> = (0..20_000)
            .map(|_| rank(&RandomDistribution::Normal(10_000), &mut rng, n))
            .collect();
        let mid = g.iter().filter(|&&r| (400..600).contains(&r)).count();
        assert!(
            mid > 20_000 * 6 / 10,
            "normal:10 keeps most draws within 1 sd: {mid}"
        );
        let p: Vec<u64> = (0..20_000)
            .map(|_| rank(&RandomDistribution::Pareto(900), &mut rng, n))
            .collect();
        let hot = p.iter().filter(|&&r| r >= 900).count();
        assert!(hot > 20_000 / 2, "pareto:0.9 concentrates draws: {hot}");
        let z = RandomDistribution::Zoned(vec![(50, 5), (30, 15), (20, 80)]);
        let first = (0..20_000).filter(|_| rank(&z, &mut rng, n) < 50).count();
        assert!(
            (9_000..11_000).contains(&first),
            "zoned: half the draws in the first 5%: {first}"
        );
    }
}
