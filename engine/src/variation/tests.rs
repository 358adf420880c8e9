use super::*;
use crate::rng::stream;
use rand_distr::{Gamma, LogNormal};

const V: VariationTiming = VariationTiming {
    nand_page_tr_pct: [70, 100, 130],
    read_retry_ppm: 1000,
    program_sigma_milli: 300,
    gc_every_bytes: 1 << 20,
    gc_pause_ns: 1_000_000,
    sw_shape_milli: 8000,
    preempt_ppm: 100,
    preempt_ns: 3_000_000,
};

#[test]
fn factors_keep_the_mean() {
    let n = 200_000u64;
    let mut c = CardVariation::new(V, stream(1, 1));
    let mut h = HostJitter::new(V, stream(1, 2));
    let mean = |f: &mut dyn FnMut() -> u64| (0..n).map(|_| f()).sum::<u64>() as f64 / n as f64;
    let read = mean(&mut || c.nand_read(100_000));
    assert!((read / 100_000.0 - 1.002).abs() < 0.01, "{read}");
    let prog = mean(&mut || c.program(100_000));
    assert!((prog / 100_000.0 - 1.0).abs() < 0.01, "{prog}");
    let sw = mean(&mut || h.software(100_000));
    assert!((sw / 100_000.0 - 1.0).abs() < 0.01, "{sw}");
}

#[test]
fn preemptions_come_at_their_rate() {
    // 100 per million wake-ups, 3 ms each on average.
    let mut h = HostJitter::new(V, stream(4, 4));
    let n = 1_000_000u64;
    let mut waited = 0u64;
    for _ in 0..n {
        h.wakeup(1000);
        waited += h.last_preempt_ns;
    }
    assert!((70..=130).contains(&h.preemptions), "{}", h.preemptions);
    let mean = waited as f64 / h.preemptions as f64;
    assert!((mean / 3e6 - 1.0).abs() < 0.3, "{mean}");
}

#[test]
fn housekeeping_follows_the_bytes_written() {
    let mut c = CardVariation::new(V, stream(3, 3));
    let total: u64 = (0..25_600).map(|_| c.housekeeping(4096)).sum();
    // 100 MiB written, a pause per MiB on average.
    assert!((80..=120).contains(&c.gc_pauses), "{}", c.gc_pauses);
    let per = total as f64 / c.gc_pauses as f64;
    assert!((per / 1e6 - 1.0).abs() < 0.3, "{per}");
    let mut idle = CardVariation::new(V, stream(3, 3));
    assert_eq!(idle.housekeeping(0), 0, "no writes, no housekeeping");
}

#[test]
fn inlined_draws_are_the_crates() {
    let n = 300_000;
    for shape in [1.5, 8.0, 10.0, 25.0, 0.5, 1.0] {
        let ours = SoftwareGamma::new(shape, 1.0 / shape);
        let theirs = Gamma::new(shape, 1.0 / shape).unwrap();
        let (mut a, mut b) = (stream(5, 5), stream(5, 5));
        for i in 0..n {
            let (x, y) = (ours.sample(&mut a), theirs.sample(&mut b));
            assert_eq!(x.to_bits(), y.to_bits(), "gamma({shape}) draw {i}");
        }
    }
    for sigma in [0.2, 0.3, 0.5] {
        let ours = UnitLogNormal::new(-sigma * sigma / 2.0, sigma);
        let theirs = LogNormal::new(-sigma * sigma / 2.0, sigma).unwrap();
        let (mut a, mut b) = (stream(6, 6), stream(6, 6));
        for i in 0..n {
            let (x, y) = (ours.sample(&mut a), theirs.sample(&mut b));
            assert_eq!(x.to_bits(), y.to_bits(), "lognormal({sigma}) draw {i}");
        }
    }
}

#[test]
fn scale_rounds_as_f64_round_does() {
    use rand::RngExt as _;
    let reference = |ns: u64, f: f64| (ns as f64 * f).round() as u64;
    let edges = [
        0.0,
        0.5,
        0.499_999_999_999_999_94,
        1.5,
        2.5,
        -0.4,
        -0.6,
        1e-300,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        4_503_599_627_370_495.5,
        4_503_599_627_370_497.0,
        9_007_199_254_740_993.0,
        1.8e19,
        1.9e19,
    ];
    for f in edges {
        assert_eq!(scale(1, f), reference(1, f), "factor {f:e}");
    }
    let mut rng = stream(9, 9);
    for _ in 0..200_000 {
        let bits = rng.random_range(1..64u32);
        let ns = rng.random_range(0..1u64 << bits);
        let f = rng.random_range(0.0..4.0);
        assert_eq!(scale(ns, f), reference(ns, f), "{ns} x {f:e}");
        // Exact halves.
        let h = rng.random_range(0..1u64 << 52) as f64 + 0.5;
        assert_eq!(scale(1, h), reference(1, h), "{h}");
    }
}

#[test]
fn fixed_varies_nothing() {
    let mut c = CardVariation::new(VariationTiming::FIXED, stream(1, 1));
    let mut h = HostJitter::new(VariationTiming::FIXED, stream(1, 2));
    for _ in 0..100 {
        assert_eq!(c.nand_read(1000), 1000);
        assert_eq!(c.program(1000), 1000);
        assert_eq!(c.housekeeping(1 << 30), 0);
        assert_eq!(h.wakeup(1000), 1000);
    }
}
