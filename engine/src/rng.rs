//! The one seeded random generator (SplitMix64 to derive streams, xoshiro256** to draw), so every
//! random choice comes from `randseed` and is identical on every platform, native or wasm.

/// SplitMix64 step: derives well-spread seeds from one value.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// xoshiro256** generator.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator for stream `stream` of seed `seed` (one stream per job, one for the card...).
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut st = seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03);
        let s = [
            splitmix64(&mut st),
            splitmix64(&mut st),
            splitmix64(&mut st),
            splitmix64(&mut st),
        ];
        Rng { s }
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in 0..n (n > 0), without modulo bias worth noticing (Lemire's multiply).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// True with probability ppm / 1e6.
    pub fn chance_ppm(&mut self, ppm: u32) -> bool {
        self.below(1_000_000) < ppm as u64
    }
}

/// A pseudo-random permutation of 0..n (a 4-round Feistel network with cycle-walking), so a
/// random job touches every block exactly once per pass (fio's random map) in O(1) memory.
#[derive(Clone, Debug)]
pub struct Permutation {
    n: u64,
    half_bits: u32,
    keys: [u64; 4],
}

impl Permutation {
    pub fn new(n: u64, rng: &mut Rng) -> Permutation {
        let bits = 64 - n.max(2).saturating_sub(1).leading_zeros();
        let half_bits = bits.div_ceil(2).max(1);
        Permutation {
            n,
            half_bits,
            keys: [
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
            ],
        }
    }

    fn round(&self, x: u64) -> u64 {
        let mask = (1u64 << self.half_bits) - 1;
        let mut l = x >> self.half_bits;
        let mut r = x & mask;
        for k in self.keys {
            let mut f = r ^ k;
            f = f.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
            f ^= f >> 29;
            let nl = r;
            r = (l ^ f) & mask;
            l = nl;
        }
        (l << self.half_bits) | r
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
        for n in [1u64, 2, 3, 7, 100, 1000, 4097] {
            let mut r = Rng::new(5, 1);
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
        let mut a = Rng::new(42, 3);
        let mut b = Rng::new(42, 3);
        let mut c = Rng::new(42, 4);
        let va: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let vb: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        let vc: Vec<u64> = (0..8).map(|_| c.next_u64()).collect();
        assert_eq!(va, vb);
        assert_ne!(va, vc);
    }
}
