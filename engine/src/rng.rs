//! Random streams. Every draw of a run comes from `randseed`: each consumer (a job clone, the card,
//! the host's software timing, error injection) owns its own stream, a `rand_pcg::Pcg64Mcg`
//! seeded from `randseed` and the stream number, so adding draws in one layer never shifts the
//! draws of another. PCG's output stream is fixed by its specification (not by a crate version),
//! and it is pure integer arithmetic, so CLI, browser (wasm32) and tests draw the same numbers.
//! Distributions come from `rand_distr`, built without `std_math` so that their floating-point
//! functions are `libm`'s portable ones on every target.
//!
//! What stays here is what no crate offers: the seed derivation (SplitMix64, so stream numbers
//! that differ in one bit give unrelated generators) and fio's random map as an O(1)-memory
//! permutation ([`Permutation`]).

use rand::{RngExt, SeedableRng};

/// The generator every stream uses.
pub type Rng = rand_pcg::Pcg64Mcg;

/// SplitMix64 step: derives well-spread seeds from one value.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator of stream `stream` of seed `seed` (one stream per job, one for the card...).
pub fn stream(seed: u64, stream: u64) -> Rng {
    let mut st = seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03);
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&splitmix64(&mut st).to_le_bytes());
    bytes[8..].copy_from_slice(&splitmix64(&mut st).to_le_bytes());
    Rng::from_seed(bytes)
}

/// True with probability ppm / 1e6.
pub fn chance_ppm(rng: &mut Rng, ppm: u32) -> bool {
    ppm > 0 && rng.random_range(0..1_000_000u32) < ppm
}

/// A pseudo-random permutation of 0..n, so a random job touches every block exactly once per
/// pass (fio's random map) in O(1) memory: a 4-round Feistel network on the `bits` bits that hold
/// n - 1, split into a high and a low part (unequal when `bits` is odd: each round updates one
/// part from the other, which keeps it a bijection), with cycle-walking back into 0..n. The
/// domain is under 2n, so a draw takes fewer than two passes on average (exactly one when n is a
/// power of two, as `size` / `bs` usually is).
#[derive(Clone, Debug)]
pub struct Permutation {
    n: u64,
    /// Bits of the low part (the high part has the rest).
    lo_bits: u32,
    lo_mask: u64,
    hi_mask: u64,
    keys: [u64; 4],
}

impl Permutation {
    pub fn new(n: u64, rng: &mut Rng) -> Permutation {
        use rand::Rng as _;
        let bits = 64 - n.max(2).saturating_sub(1).leading_zeros();
        let lo_bits = bits / 2;
        Permutation {
            n,
            lo_bits,
            lo_mask: (1u64 << lo_bits) - 1,
            hi_mask: (1u64 << (bits - lo_bits)) - 1,
            keys: [
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
            ],
        }
    }

    #[inline(always)]
    fn mix(x: u64) -> u64 {
        let f = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        f ^ (f >> 29)
    }

    #[inline]
    fn round(&self, x: u64) -> u64 {
        let mut hi = x >> self.lo_bits;
        let mut lo = x & self.lo_mask;
        let [k0, k1, k2, k3] = self.keys;
        hi ^= Self::mix(lo ^ k0) & self.hi_mask;
        lo ^= Self::mix(hi ^ k1) & self.lo_mask;
        hi ^= Self::mix(lo ^ k2) & self.hi_mask;
        lo ^= Self::mix(hi ^ k3) & self.lo_mask;
        (hi << self.lo_bits) | lo
    }

    /// The i-th element of the permutation (i < n).
    #[inline]
    pub fn get(&self, i: u64) -> u64 {
        let mut x = i;
        loop {
            x = self.round(x);
            if x < self.n {
                return x;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn permutation_is_a_bijection() {
        for n in [1u64, 2, 3, 7, 100, 1000, 4096, 4097, 1 << 17] {
            let mut r = stream(5, 1);
            let p = Permutation::new(n, &mut r);
            let mut seen = vec![false; n as usize];
            for i in 0..n {
                let v = p.get(i);
                assert!(v < n && !seen[v as usize], "n={n} i={i} v={v}");
                seen[v as usize] = true;
            }
        }
    }
    #[test]
    fn same_seed_same_stream() {
        let mut a = stream(42, 3);
        let mut b = stream(42, 3);
        let mut c = stream(42, 4);
        use rand::Rng as _;
        let va: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let vb: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        let vc: Vec<u64> = (0..8).map(|_| c.next_u64()).collect();
        assert_eq!(va, vb);
        assert_ne!(va, vc);
    }

    #[test]
    fn the_stream_is_fixed() {
        // Pinned: a change of generator or seeding would change every simulated figure.
        use rand::Rng as _;
        let mut r = stream(1, 0);
        assert_eq!(r.next_u64(), 8_134_759_323_192_305_562);
    }
}
