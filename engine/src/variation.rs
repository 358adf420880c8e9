//! Service times that vary, each for a physical reason, each drawn from a distribution named
//! after its cause (`rand_distr`), from the one seed. The fitted means of the presets stay the
//! means: every distribution here has mean 1 (a factor on a fitted time) or adds rare events whose
//! share of the mean is documented, so the calibrated averages hold while latency gets its spread
//! and its tail.
//!
//! | cause | where | distribution | source / fit |
//! |---|---|---|---|
//! | NAND page type (TLC: lower / middle / upper page) | card, random read | uniform over the page types, tR factor per type | TLC tR grows with the page's bits (lower page 1 read level, upper page up to 4): vendors' datasheets give roughly 0.7x / 1x / 1.3x the mean tR |
//! | ECC read retry | card, NAND read | Bernoulli(`read_retry_ppm`), then Geometric(1/2) read-retry steps of one tR each (mean 2) | soft-decision re-reads after a hard ECC failure; rates of 1e-4..1e-3 for a young TLC part |
//! | NAND program time | card, write busy / reliable commit | log-normal, mean 1, sigma `program_sigma` | tPROG spreads with program-verify loops (ISPP): a log-normal fits the measured spread of loop counts |
//! | housekeeping (garbage collection, wear levelling, cache eviction) | card, write busy | every Exp(`gc_every_bytes`) bytes written, a log-normal pause of mean `gc_pause_ns` | rate proportional to the write load; sizes from the FTL's block-erase + copy time |
//! | interrupt latency, completion and wake-up | host software | Gamma(shape `sw_shape`), mean = the fitted time | a sum of many short kernel steps with cache misses; CV = 1/sqrt(shape) |
//! | preemption of a woken thread | host, fio reap / dispatcher wake-up | Bernoulli(`preempt_ppm`) per wake-up (drawn as the Geometric gaps between preemptions) x Exp(`preempt_ns`) | another runnable task or softirq holds the CPU; rare, milliseconds long: the p99.99 of the Allwinner fio run |

use rand::RngExt;
use rand_distr::num_traits::Float;
use rand_distr::{Distribution, Exp, Gamma, Geometric, LogNormal, Open01};
use serde::{Deserialize, Serialize};

use crate::rng::{chance_ppm, Rng};
use crate::ziggurat::standard_normal;

/// How much each time varies on a platform (see the module table).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct VariationTiming {
    /// tR of each NAND page type as a percentage of `read_latency_random_ns` (0 = no such page
    /// type: MLC has two). The non-zero entries average 100.
    pub nand_page_tr_pct: [u32; 3],
    /// ECC read retries per million NAND reads; a retry reads the page again.
    pub read_retry_ppm: u32,
    /// Log-normal sigma of NAND program time, in thousandths (0 = fixed).
    pub program_sigma_milli: u32,
    /// Mean bytes written between two housekeeping pauses (0 = none).
    pub gc_every_bytes: u64,
    /// Mean housekeeping pause, added to the busy time of the write that triggers it.
    pub gc_pause_ns: u64,
    /// Gamma shape of host software times (0 = fixed): larger is steadier.
    pub sw_shape_milli: u32,
    /// Preemptions per million thread wake-ups.
    pub preempt_ppm: u32,
    /// Mean preemption (exponential).
    pub preempt_ns: u64,
}

impl VariationTiming {
    /// Nothing varies.
    pub const FIXED: VariationTiming = VariationTiming {
        nand_page_tr_pct: [100, 0, 0],
        read_retry_ppm: 0,
        program_sigma_milli: 0,
        gc_every_bytes: 0,
        gc_pause_ns: 0,
        sw_shape_milli: 0,
        preempt_ppm: 0,
        preempt_ns: 0,
    };
}

/// A log-normal factor of mean 1 (mu = -sigma^2 / 2), or none for sigma 0.
fn unit_lognormal(sigma_milli: u32) -> Option<UnitLogNormal> {
    let s = sigma_milli as f64 / 1000.0;
    (s > 0.0).then(|| UnitLogNormal::new(-s * s / 2.0, s))
}

/// `rand_distr::LogNormal` (exp of mu + sigma * z, the same f64 operations and the same `exp`)
/// with its standard normal drawn inline ([`standard_normal`]): each value is the crate's.
#[derive(Clone, Copy, Debug)]
struct UnitLogNormal {
    mu: f64,
    sigma: f64,
}

impl UnitLogNormal {
    fn new(mu: f64, sigma: f64) -> UnitLogNormal {
        // The crate's checks, once.
        LogNormal::new(mu, sigma).expect("finite sigma");
        UnitLogNormal { mu, sigma }
    }

    #[inline]
    fn sample(&self, rng: &mut Rng) -> f64 {
        // The crate's `exp` (num_traits, libm), not f64's inherent one.
        Float::exp(self.mu + self.sigma * standard_normal(rng))
    }
}

/// `rand_distr::Gamma` with the draw of its large-shape case (Marsaglia and Tsang, 2000: the
/// crate's `GammaLargeShape`, the same f64 operations in the same order) inlined; other shapes
/// are left to the crate. Each value is the crate's (tested below).
#[derive(Clone, Copy, Debug)]
enum SoftwareGamma {
    /// shape > 1: d = shape - 1/3, c = 1 / sqrt(9 d), values scaled by d * scale.
    Large {
        d: f64,
        c: f64,
        d_scale: f64,
    },
    Crate(Gamma<f64>),
}

impl SoftwareGamma {
    fn new(shape: f64, scale: f64) -> SoftwareGamma {
        let crate_gamma = Gamma::new(shape, scale).expect("positive shape");
        if shape > 1.0 && shape.is_finite() && scale.is_finite() {
            let d = shape - 1.0 / 3.0;
            SoftwareGamma::Large {
                d,
                c: 1.0 / (9.0 * d).sqrt(),
                d_scale: d * scale,
            }
        } else {
            SoftwareGamma::Crate(crate_gamma)
        }
    }

    #[inline(always)]
    fn sample(&self, rng: &mut Rng) -> f64 {
        let (d, c, d_scale) = match *self {
            SoftwareGamma::Large { d, c, d_scale } => (d, c, d_scale),
            SoftwareGamma::Crate(g) => return g.sample(rng),
        };
        loop {
            let x = standard_normal(rng);
            let v_cbrt = 1.0 + c * x;
            if v_cbrt <= 0.0 {
                continue;
            }
            let v = v_cbrt * v_cbrt * v_cbrt;
            let u: f64 = rng.sample(Open01);
            let x_sqr = x * x;
            if u < 1.0 - 0.0331 * x_sqr * x_sqr
                || Float::ln(u) < 0.5 * x_sqr + d * (1.0 - v + Float::ln(v))
            {
                return v * d_scale;
            }
        }
    }
}

/// `ns` times `factor`, rounded to the nearest ns (halves away from zero): exactly
/// `(ns as f64 * factor).round() as u64` for every input (NaN and negatives give 0, overflow
/// saturates), without the call into libm's `round` that `f64::round` becomes on targets with no
/// rounding instruction (x86-64's baseline, wasm32), a fifth of the cost of a draw.
#[inline(always)]
fn scale(ns: u64, factor: f64) -> u64 {
    let x = ns as f64 * factor;
    if (0.0..TWO_POW_52).contains(&x) {
        // Truncation through i64 (one instruction where u64 takes a dozen), then the fraction,
        // both exact below 2^52.
        let i = x as i64;
        (i + i64::from(x - i as f64 >= 0.5)) as u64
    } else {
        scale_far(x)
    }
}

const TWO_POW_52: f64 = 4_503_599_627_370_496.0;

/// `x.round() as u64` for what [`scale`]'s fast path leaves (negative, huge, NaN).
#[cold]
#[inline(never)]
fn scale_far(x: f64) -> u64 {
    // Truncation (saturating; NaN gives 0), then the fraction: above 2^53 every f64 is an
    // integer and the fraction is 0.
    let i = x as u64;
    if x - i as f64 >= 0.5 {
        i.saturating_add(1)
    } else {
        i
    }
}

/// A distribution of mean 1 that [`Ahead`] draws from.
trait UnitDraw {
    fn draw(&self, rng: &mut Rng) -> f64;
}

impl UnitDraw for SoftwareGamma {
    #[inline(always)]
    fn draw(&self, rng: &mut Rng) -> f64 {
        self.sample(rng)
    }
}

impl UnitDraw for UnitLogNormal {
    #[inline(always)]
    fn draw(&self, rng: &mut Rng) -> f64 {
        self.sample(rng)
    }
}

/// Draws made ahead of need.
const AHEAD: usize = 64;

/// The draws of one distribution made [`AHEAD`] at a time, from a stream nothing else draws
/// from, and handed out in order: the values are those drawing each one at need from that stream
/// would give, in the same order, but they are made in a tight loop whose iterations overlap in
/// the CPU, and each comes out of a load. A draw made at need is some 70 cycles of dependent
/// floating-point work (normal, cube, squeeze test, scaling) before the time of the event it
/// delays is known, and the event queue's insertion branches on that time; the host's software
/// times draw two per request (completion pass, fio's wake-up). Heaviest seed job: 3-4 % less
/// CPU time.
#[derive(Debug)]
struct Ahead<D> {
    dist: D,
    rng: Rng,
    buf: [f64; AHEAD],
    next: usize,
}

impl<D: UnitDraw> Ahead<D> {
    fn new(dist: D, rng: Rng) -> Ahead<D> {
        Ahead {
            dist,
            rng,
            buf: [0.0; AHEAD],
            next: AHEAD,
        }
    }

    #[inline(always)]
    fn take(&mut self) -> f64 {
        if self.next == AHEAD {
            self.refill();
        }
        let v = self.buf[self.next];
        self.next += 1;
        v
    }

    #[inline(never)]
    fn refill(&mut self) {
        for v in &mut self.buf {
            *v = self.dist.draw(&mut self.rng);
        }
        self.next = 0;
    }
}

/// A stream of its own for an [`Ahead`], derived from its owner's stream.
fn substream(rng: &mut Rng) -> Rng {
    use rand::Rng as _;
    crate::rng::stream(rng.next_u64(), 0)
}

/// The card's varying times: NAND read (page type, retries), program time, housekeeping.
#[derive(Debug)]
pub struct CardVariation {
    v: VariationTiming,
    rng: Rng,
    page_types: usize,
    program: Option<Ahead<UnitLogNormal>>,
    gc_pause: Option<UnitLogNormal>,
    gc_gap: Option<Exp<f64>>,
    /// Bytes still to write before the next housekeeping pause.
    gc_countdown: u64,
    /// Housekeeping pauses so far.
    pub gc_pauses: u64,
    /// The last NAND read's page-type tR (percent of the mean) and its ECC retries (what the
    /// page says made a read slow).
    pub last_read: (u32, u32),
}

impl CardVariation {
    pub fn new(v: VariationTiming, mut rng: Rng) -> CardVariation {
        let gc_gap = (v.gc_every_bytes > 0)
            .then(|| Exp::new(1.0 / v.gc_every_bytes as f64).expect("positive rate"));
        let gc_countdown = gc_gap
            .as_ref()
            .map_or(u64::MAX, |d| d.sample(&mut rng) as u64);
        CardVariation {
            page_types: v.nand_page_tr_pct.iter().filter(|&&p| p > 0).count().max(1),
            program: unit_lognormal(v.program_sigma_milli)
                .map(|d| Ahead::new(d, substream(&mut rng))),
            // Pauses spread as program times do, a little wider (several erase + copy steps).
            gc_pause: unit_lognormal(500),
            gc_gap,
            gc_countdown,
            gc_pauses: 0,
            last_read: (100, 0),
            v,
            rng,
        }
    }

    /// A NAND page read of mean `tr_ns`: the page type's tR, again for each ECC retry.
    pub fn nand_read(&mut self, tr_ns: u64) -> u64 {
        let pct = if self.page_types > 1 {
            self.v.nand_page_tr_pct[self.rng.random_range(0..self.page_types)]
        } else {
            100
        };
        let tr = tr_ns * pct as u64 / 100;
        let mut t = tr;
        let mut retries = 0;
        if chance_ppm(&mut self.rng, self.v.read_retry_ppm) {
            // The controller steps through its read-retry table (shifted read levels): one more
            // tR per step, and half the time the step still fails and another follows.
            t += tr;
            retries = 1;
            while self.rng.random_range(0..2u32) == 1 {
                t += tr;
                retries += 1;
            }
        }
        self.last_read = (pct, retries);
        t
    }

    /// A NAND program step of mean `ns`.
    #[inline(always)]
    pub fn program(&mut self, ns: u64) -> u64 {
        match &mut self.program {
            Some(d) if ns > 0 => scale(ns, d.take()),
            _ => ns,
        }
    }

    /// `bytes` were written: the housekeeping pause this write's busy time carries (0 mostly).
    pub fn housekeeping(&mut self, bytes: u64) -> u64 {
        if self.gc_countdown > bytes {
            self.gc_countdown -= bytes;
            return 0;
        }
        let gap = self.gc_gap.as_ref().expect("a countdown implies a rate");
        self.gc_countdown = (gap.sample(&mut self.rng) as u64).max(1);
        self.gc_pauses += 1;
        let f = self
            .gc_pause
            .as_ref()
            .map_or(1.0, |d| d.sample(&mut self.rng));
        scale(self.v.gc_pause_ns, f)
    }
}

/// The host's varying software times: interrupt latency, completion, thread wake-ups.
#[derive(Debug)]
pub struct HostJitter {
    rng: Rng,
    /// Gamma of mean 1.
    sw: Option<Ahead<SoftwareGamma>>,
    /// Preemptions: the wake-ups between two of them, and how long each lasts. Each wake-up is
    /// preempted with probability `preempt_ppm` / 1e6, independently (a Bernoulli process), so
    /// the gaps are Geometric and one draw per preemption replaces one per wake-up.
    preempt: Option<(Geometric, Exp<f64>)>,
    /// Wake-ups left before the next preempted one.
    preempt_countdown: u64,
    /// Preemptions so far.
    pub preemptions: u64,
    /// How long the last woken thread waited for the CPU (0: it ran at once).
    pub last_preempt_ns: u64,
}

impl HostJitter {
    pub fn new(v: VariationTiming, mut rng: Rng) -> HostJitter {
        let k = v.sw_shape_milli as f64 / 1000.0;
        let sw = (k > 0.0).then(|| Ahead::new(SoftwareGamma::new(k, 1.0 / k), substream(&mut rng)));
        let preempt = (v.preempt_ns > 0 && v.preempt_ppm > 0).then(|| {
            (
                Geometric::new(f64::from(v.preempt_ppm.min(1_000_000)) / 1e6).expect("0 < p <= 1"),
                Exp::new(1.0 / v.preempt_ns as f64).expect("positive rate"),
            )
        });
        let preempt_countdown = preempt
            .as_ref()
            .map_or(u64::MAX, |(gap, _)| gap.sample(&mut rng));
        HostJitter {
            rng,
            sw,
            preempt,
            preempt_countdown,
            preemptions: 0,
            last_preempt_ns: 0,
        }
    }

    /// A software step of mean `ns` (interrupt handler, completion pass).
    #[inline(always)]
    pub fn software(&mut self, ns: u64) -> u64 {
        match &mut self.sw {
            Some(d) if ns > 0 => scale(ns, d.take()),
            _ => ns,
        }
    }

    /// A thread wakes up after a software step of mean `ns`: sometimes it is preempted first.
    pub fn wakeup(&mut self, ns: u64) -> u64 {
        let t = self.software(ns);
        self.last_preempt_ns = if self.preempt_countdown > 0 {
            self.preempt_countdown -= 1;
            0
        } else {
            self.preempt_now()
        };
        t + self.last_preempt_ns
    }

    /// This wake-up is preempted: how long the thread waits, and the gap to the next one.
    #[cold]
    fn preempt_now(&mut self) -> u64 {
        let Some((gap, len)) = &self.preempt else {
            return 0;
        };
        self.preemptions += 1;
        self.preempt_countdown = gap.sample(&mut self.rng);
        len.sample(&mut self.rng) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::stream;

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
}
