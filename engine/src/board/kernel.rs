//! The Linux version a board runs (`major.minor`), and the kernel rules that depend on it.
//!
//! Today one rule reads it: how the legacy mmc path waits for a card that is still busy after a
//! write ([`BusyPoll`], `mmc_blk_card_busy` in drivers/mmc/core/block.c).

use serde::{Serialize, Serializer};

/// A Linux kernel version, `major.minor` (the stable and vendor patch level aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KernelVersion {
    pub major: u16,
    pub minor: u16,
}

/// How the thread that completes a write on the legacy path polls the card with CMD13
/// (SEND_STATUS) until it answers "ready for data" (`mmc_blk_card_busy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusyPoll {
    /// Up to Linux 5.14: `card_busy_detect` loops `__mmc_send_status` back to back. Each CMD13
    /// is an mmc request of its own (`mmc_wait_for_cmd`): the command on the bus, its
    /// interrupt, the thread woken from `mmc_wait_for_req_done`, and at once the next CMD13.
    BackToBack,
    /// Since Linux 5.15 (commit 6966e6094c6d, "mmc: core: Avoid hogging the CPU while polling
    /// for busy after I/O writes", also in 5.14.y stable): `__mmc_poll_for_busy` with
    /// `mmc_blk_busy_cb`. After each CMD13 answered busy the thread sleeps
    /// `usleep_range(udelay, udelay * 2)`, `udelay` starting at `first_us` (32) and doubling
    /// while below `cap_us` (32768): 32-64 us, 64-128 us, ... up to 32-64 ms.
    Backoff { first_us: u64, cap_us: u64 },
}

/// `__mmc_poll_for_busy`'s first sleep range start (`udelay = 32`), microseconds.
pub const POLL_FIRST_US: u64 = 32;
/// `__mmc_poll_for_busy`'s `udelay_max` (32768 us): the range start stops doubling there.
pub const POLL_CAP_US: u64 = 32_768;

impl KernelVersion {
    pub const fn new(major: u16, minor: u16) -> KernelVersion {
        KernelVersion { major, minor }
    }

    /// The version as one number, `major * 1000 + minor` (how the override map keeps it).
    pub const fn code(self) -> u64 {
        self.major as u64 * 1000 + self.minor as u64
    }

    /// The version a [`KernelVersion::code`] stands for.
    pub fn from_code(code: u64) -> KernelVersion {
        let c = |x: u64| x.min(u64::from(u16::MAX)) as u16;
        KernelVersion::new(c(code / 1000), c(code % 1000))
    }

    /// `"5.4"`, `"6.1"` (a minor of up to 3 digits) as a version.
    pub fn parse(text: &str) -> Option<KernelVersion> {
        let (major, minor) = text.trim().split_once('.')?;
        let num = |s: &str| -> Option<u16> {
            let ok = !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit());
            ok.then(|| s.parse().ok()).flatten()
        };
        Some(KernelVersion::new(num(major)?, num(minor)?))
    }

    /// How `mmc_blk_card_busy` polls on this version (see [`BusyPoll`]).
    pub fn busy_poll(self) -> BusyPoll {
        if self >= KernelVersion::new(5, 15) {
            BusyPoll::Backoff {
                first_us: POLL_FIRST_US,
                cap_us: POLL_CAP_US,
            }
        } else {
            BusyPoll::BackToBack
        }
    }
}

impl std::fmt::Display for KernelVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl Serialize for KernelVersion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl BusyPoll {
    /// The sleep after the `n`th CMD13 (from 0) answered busy, ns: `usleep_range(udelay,
    /// udelay * 2)` ends at the range's end (the hrtimer's hard expiry) unless another timer's
    /// interrupt on that CPU comes first; the model takes the end (a CPU with no other timer
    /// due within the range). None back to back.
    pub fn sleep_ns(self, n: u32) -> Option<u64> {
        match self {
            BusyPoll::BackToBack => None,
            BusyPoll::Backoff { first_us, cap_us } => {
                let mut udelay = first_us;
                for _ in 0..n {
                    if udelay >= cap_us {
                        break;
                    }
                    udelay *= 2;
                }
                Some(udelay * 2 * 1000)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_print_and_order_as_numbers() {
        let v = KernelVersion::parse("5.15").unwrap();
        assert_eq!(v.to_string(), "5.15");
        assert!(v > KernelVersion::parse("5.4").unwrap());
        assert!(KernelVersion::parse("5.1").unwrap() < KernelVersion::parse("5.10").unwrap());
        assert_eq!(KernelVersion::from_code(v.code()), v);
        for bad in ["5", "5.", ".4", "5.4.1", "v5.4", "5.x", "", "5.1234"] {
            assert_eq!(KernelVersion::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn polling_backs_off_from_5_15_doubling_up_to_32_ms() {
        assert_eq!(KernelVersion::new(5, 14).busy_poll(), BusyPoll::BackToBack);
        let p = KernelVersion::new(5, 15).busy_poll();
        assert_eq!(p.sleep_ns(0), Some(64_000));
        assert_eq!(p.sleep_ns(1), Some(128_000));
        assert_eq!(p.sleep_ns(10), Some(65_536_000));
        assert_eq!(p.sleep_ns(40), Some(65_536_000));
        assert_eq!(BusyPoll::BackToBack.sleep_ns(3), None);
    }
}
