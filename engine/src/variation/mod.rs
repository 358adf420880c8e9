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
//!
//! `draw.rs`: the distributions and the draw-ahead buffers.

mod draw;

use draw::*;
use rand::RngExt;
use rand_distr::{Distribution, Exp, Geometric};
use serde::{Deserialize, Serialize};

use crate::rng::{chance_ppm, Rng};

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
mod tests;
