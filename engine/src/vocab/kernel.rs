//! The kernel's numbers that more than one floor needs: queue depths and slot counts a scenario
//! is checked against and a layer is sized by, the mmc_test transfer size, and the one formula
//! for time on a wire. Each cites the header it comes from.

/// `MMC_QUEUE_DEPTH` (drivers/mmc/core/queue.h): tags of the mmc blk-mq tag set.
pub const MMC_QUEUE_DEPTH: u16 = 64;

/// `HSQ_NUM_SLOTS` (mmc_hsq.h: 64; the packed-request RFC was posted against a tree with 32).
pub const HSQ_NUM_SLOTS: u16 = 64;
/// `HSQ_PACKED_QUEUE_DEPTH` (packed-request RFC, mmc_hsq.c): with packing, hsq takes up to 64.
pub const HSQ_PACKED_QUEUE_DEPTH: u32 = 64;
/// `HSQ_NORMAL_DEPTH` / `HSQ_PERFORMANCE_DEPTH` (mmc_hsq.h, 2023).
pub const HSQ_NORMAL_DEPTH: u32 = 2;
pub const HSQ_PERFORMANCE_DEPTH: u32 = 5;

/// `NUM_SLOTS` (cqhci.h): task slots of the command queue engine; the last, `DCMD_SLOT`, is
/// kept for direct commands.
pub const CQHCI_NUM_SLOTS: u16 = 32;
/// cqhci task slots for data: `NUM_SLOTS` less the DCMD slot (31).
pub const CQE_TASKS: u32 = CQHCI_NUM_SLOTS as u32 - 1;

/// Bytes per transfer size (mmc_test: 128 MiB, `mmc_test_area` size).
pub const MMC_TEST_BYTES: u64 = 128 << 20;

/// Time to move `bytes` at `bytes_per_sec`, rounded up to whole ns.
#[inline]
pub fn xfer_ns(bytes: u64, bytes_per_sec: u64) -> u64 {
    if bytes_per_sec == 0 {
        return 0;
    }
    // In 64 bits whenever the product fits (any request, any cache): the same quotient without
    // the 128-bit division routine.
    match bytes.checked_mul(1_000_000_000) {
        Some(b) => b.div_ceil(bytes_per_sec),
        None => ((bytes as u128 * 1_000_000_000).div_ceil(bytes_per_sec as u128)) as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xfer_ns_is_the_exact_ceiling_at_any_size() {
        use rand::RngExt as _;
        let exact = |b: u64, r: u64| ((b as u128 * 1_000_000_000).div_ceil(r as u128)) as u64;
        let mut rng = crate::rng::stream(4, 4);
        for _ in 0..100_000 {
            let bits = rng.random_range(0..64u32);
            let b = rng.random_range(0..=u64::MAX >> bits);
            let shift = rng.random_range(0..64u32);
            let r = rng.random_range(1..=u64::MAX >> shift);
            assert_eq!(xfer_ns(b, r), exact(b, r), "{b} bytes at {r} B/s");
        }
        assert_eq!(xfer_ns(u64::MAX, 1 << 40), exact(u64::MAX, 1 << 40));
        assert_eq!(xfer_ns(4096, 0), 0);
    }
}
