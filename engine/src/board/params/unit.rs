//! The units board parameters are written in (`us`, `MB/s`, a bus mode's or a driver's name)
//! and the internal units the override map keeps them in.

use super::super::{BusMode, HostDriver, KernelVersion};

/// The unit an option value is written in, and the internal unit it is kept in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Microseconds, up to 3 decimals (kept in ns).
    Us,
    /// MB/s = 10^6 bytes per second, up to 6 decimals (kept in bytes per second).
    MBps,
    /// KiB, any fraction that is a whole number of bytes (kept in bytes).
    KiB,
    /// Percent, up to 4 decimals (kept in parts per million).
    Pct,
    /// A count.
    Count,
    /// 0 or 1.
    Bool,
    /// MHz, up to 6 decimals (kept in Hz).
    MHz,
    /// A bus speed mode by name (`hs400`; kept as its [`BusMode`] number).
    Mode,
    /// Bus width in data lines: 1, 4 or 8.
    Width,
    /// A Linux version `major.minor` (`5.4`; kept as [`KernelVersion::code`]).
    Kernel,
    /// A host controller driver by name (`sdhci-sprd`; kept as its place in
    /// [`HostDriver::ALL`]).
    Driver,
}

impl Unit {
    /// The unit as `--help` and the page show it.
    pub fn label(self) -> &'static str {
        match self {
            Unit::Us => "us",
            Unit::MBps => "MB/s",
            Unit::KiB => "KiB",
            Unit::Pct => "%",
            Unit::Count => "",
            Unit::Bool => "",
            Unit::MHz => "MHz",
            Unit::Mode => "",
            Unit::Width => "bit",
            Unit::Kernel | Unit::Driver => "",
        }
    }

    /// Internal units per written unit, and the decimals accepted.
    fn scale(self) -> (u64, u32) {
        match self {
            Unit::Us => (1_000, 3),
            Unit::MBps | Unit::MHz => (1_000_000, 6),
            Unit::KiB => (1024, 10),
            Unit::Pct => (10_000, 4),
            Unit::Count | Unit::Bool | Unit::Mode | Unit::Width | Unit::Kernel | Unit::Driver => {
                (1, 0)
            }
        }
    }

    /// Parses a written value ("14.6") into internal units (14_600 ns); None if it is not a
    /// non-negative decimal or not a whole number of internal units.
    pub fn parse(self, text: &str) -> Option<u64> {
        if self == Unit::Mode {
            return BusMode::from_key(&text.trim().to_ascii_lowercase()).map(|m| m as u64);
        }
        if self == Unit::Kernel {
            return KernelVersion::parse(text).map(KernelVersion::code);
        }
        if self == Unit::Driver {
            return HostDriver::from_name(text).map(|d| d as u64);
        }
        let (scale, max_dec) = self.scale();
        let (int, frac) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int.is_empty() || !digits(int) || !digits(frac) || frac.len() > max_dec as usize {
            return None;
        }
        let whole: u64 = int.parse().ok()?;
        let mut v = whole.checked_mul(scale)?;
        if !frac.is_empty() {
            let den = 10u128.pow(frac.len() as u32);
            let num = frac.parse::<u128>().ok()? * scale as u128;
            if !num.is_multiple_of(den) {
                return None;
            }
            v = v.checked_add(u64::try_from(num / den).ok()?)?;
        }
        if self == Unit::Bool && v > 1 || self == Unit::Width && ![1, 4, 8].contains(&v) {
            return None;
        }
        Some(v)
    }

    /// Internal units as the written value, shortest exact form ("14.6", "60", "63.5").
    pub fn format(self, v: u64) -> String {
        if self == Unit::Mode {
            return BusMode::ALL
                .get(v as usize)
                .map_or_else(|| v.to_string(), |m| m.key().to_string());
        }
        if self == Unit::Kernel {
            return KernelVersion::from_code(v).to_string();
        }
        if self == Unit::Driver {
            return HostDriver::from_code(v).name().to_string();
        }
        let (scale, _) = self.scale();
        let (whole, mut rest) = (v / scale, v % scale);
        if rest == 0 {
            return whole.to_string();
        }
        let mut frac = String::new();
        while rest != 0 && frac.len() < 12 {
            rest *= 10;
            frac.push(char::from(b'0' + (rest / scale) as u8));
            rest %= scale;
        }
        format!("{whole}.{frac}")
    }

    /// The value as a float in the written unit (for fits and charts).
    pub fn to_f64(self, v: u64) -> f64 {
        v as f64 / self.scale().0 as f64
    }

    /// A float in the written unit as internal units (rounded).
    pub fn from_f64(self, x: f64) -> u64 {
        (x.max(0.0) * self.scale().0 as f64).round() as u64
    }
}
