//! The draws: unit-mean distributions (log-normal, the software gamma), the exact scaling of
//! a fitted time by a factor, and draw-ahead buffers that fill a block of factors at a time.

use rand::RngExt;
use rand_distr::num_traits::Float;
use rand_distr::{Distribution, Gamma, LogNormal, Open01};

use crate::rng::Rng;
use crate::ziggurat::standard_normal;

/// A log-normal factor of mean 1 (mu = -sigma^2 / 2), or none for sigma 0.
pub(super) fn unit_lognormal(sigma_milli: u32) -> Option<UnitLogNormal> {
    let s = sigma_milli as f64 / 1000.0;
    (s > 0.0).then(|| UnitLogNormal::new(-s * s / 2.0, s))
}

/// `rand_distr::LogNormal` (exp of mu + sigma * z, the same f64 operations and the same `exp`)
/// with its standard normal drawn inline ([`standard_normal`]): each value is the crate's.
#[derive(Clone, Copy, Debug)]
pub(super) struct UnitLogNormal {
    mu: f64,
    sigma: f64,
}

impl UnitLogNormal {
    pub(super) fn new(mu: f64, sigma: f64) -> UnitLogNormal {
        // The crate's checks, once.
        LogNormal::new(mu, sigma).expect("finite sigma");
        UnitLogNormal { mu, sigma }
    }

    #[inline]
    pub(super) fn sample(&self, rng: &mut Rng) -> f64 {
        // The crate's `exp` (num_traits, libm), not f64's inherent one.
        Float::exp(self.mu + self.sigma * standard_normal(rng))
    }
}

/// `rand_distr::Gamma` with the draw of its large-shape case (Marsaglia and Tsang, 2000: the
/// crate's `GammaLargeShape`, the same f64 operations in the same order) inlined; other shapes
/// are left to the crate. Each value is the crate's (tested below).
#[derive(Clone, Copy, Debug)]
pub(super) enum SoftwareGamma {
    /// shape > 1: d = shape - 1/3, c = 1 / sqrt(9 d), values scaled by d * scale.
    Large {
        d: f64,
        c: f64,
        d_scale: f64,
    },
    Crate(Gamma<f64>),
}

impl SoftwareGamma {
    pub(super) fn new(shape: f64, scale: f64) -> SoftwareGamma {
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
    pub(super) fn sample(&self, rng: &mut Rng) -> f64 {
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
pub(super) fn scale(ns: u64, factor: f64) -> u64 {
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

pub(super) const TWO_POW_52: f64 = 4_503_599_627_370_496.0;

/// `x.round() as u64` for what [`scale`]'s fast path leaves (negative, huge, NaN).
#[cold]
#[inline(never)]
pub(super) fn scale_far(x: f64) -> u64 {
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
pub(super) trait UnitDraw {
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
pub(super) const AHEAD: usize = 64;

/// The draws of one distribution made [`AHEAD`] at a time, from a stream nothing else draws
/// from, and handed out in order: the values are those drawing each one at need from that stream
/// would give, in the same order, but they are made in a tight loop whose iterations overlap in
/// the CPU, and each comes out of a load. A draw made at need is some 70 cycles of dependent
/// floating-point work (normal, cube, squeeze test, scaling) before the time of the event it
/// delays is known, and the event queue's insertion branches on that time; the host's software
/// times draw two per request (completion pass, fio's wake-up). Heaviest seed job: 3-4 % less
/// CPU time.
#[derive(Debug)]
pub(super) struct Ahead<D> {
    dist: D,
    rng: Rng,
    buf: [f64; AHEAD],
    next: usize,
}

impl<D: UnitDraw> Ahead<D> {
    pub(super) fn new(dist: D, rng: Rng) -> Ahead<D> {
        Ahead {
            dist,
            rng,
            buf: [0.0; AHEAD],
            next: AHEAD,
        }
    }

    #[inline(always)]
    pub(super) fn take(&mut self) -> f64 {
        if self.next == AHEAD {
            self.refill();
        }
        let v = self.buf[self.next];
        self.next += 1;
        v
    }

    #[inline(never)]
    pub(super) fn refill(&mut self) {
        for v in &mut self.buf {
            *v = self.dist.draw(&mut self.rng);
        }
        self.next = 0;
    }
}

/// A stream of its own for an [`Ahead`], derived from its owner's stream.
pub(super) fn substream(rng: &mut Rng) -> Rng {
    use rand::Rng as _;
    crate::rng::stream(rng.next_u64(), 0)
}
