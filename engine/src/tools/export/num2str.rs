//! fio's number formatting (`lib/num2str.c` and the unit choices of `stat.c`), so that the normal
//! output reads like fio's: `IOPS=15.5k`, `BW=60.7MiB/s (63.6MB/s)`, `clat (usec)`.

/// fio's `enum n2s_unit`: what follows the prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    None,
    Byte,
    BytePerSec,
}

/// fio `num2str(num, maxlen, 1, pow2, units)`: at most `maxlen` significant digits, divided by
/// 1000 (or 1024 with `pow2`) until it fits, with a decimal part when there is room.
pub fn num2str(num: u64, maxlen: usize, pow2: bool, unit: Unit) -> String {
    const SI: [&str; 6] = ["", "k", "M", "G", "T", "P"];
    const IEC: [&str; 6] = ["", "Ki", "Mi", "Gi", "Ti", "Pi"];
    let prefixes = if pow2 { IEC } else { SI };
    let unit_str = match unit {
        Unit::None => "",
        Unit::Byte => "B",
        Unit::BytePerSec => "B/s",
    };
    let thousand: u64 = if pow2 { 1024 } else { 1000 };
    let mut num = num;
    let mut post = 0usize;
    let mut modulo: Option<u64> = None;
    let mut carry = false;
    while post < prefixes.len() {
        if num.to_string().len() <= maxlen {
            break;
        }
        let m = num % thousand;
        modulo = Some(m);
        num /= thousand;
        carry = m >= thousand / 2;
        post += 1;
    }
    if post >= prefixes.len() {
        post = 0;
    }
    let Some(m) = modulo else {
        return format!("{}{}{}", num, prefixes[post], unit_str);
    };
    let digits = num.to_string().len();
    if maxlen.saturating_sub(digits) <= 1 {
        let n = if carry { num + 1 } else { num };
        return format!("{}{}{}", n, prefixes[post], unit_str);
    }
    let decimals = maxlen - digits - 1;
    let frac = format!("{:.*}", decimals, m as f64 / thousand as f64);
    // fio prints the digits after "0."; a fraction that rounds up to 1.0 is carried instead.
    match frac.strip_prefix("0.") {
        Some(d) => format!("{}.{}{}{}", num, d, prefixes[post], unit_str),
        None => format!(
            "{}.{}{}{}",
            num + 1,
            "0".repeat(decimals),
            prefixes[post],
            unit_str
        ),
    }
}

/// The time unit fio picks for a latency line (`stat.c` `display_lat`): msec, usec or nsec,
/// and the divisor from ns.
pub fn lat_unit(min: u64, max: u64, stddev: f64) -> (&'static str, f64) {
    if min > 2_000_000 && max > 99_999_999 && stddev > 1_000_000.0 {
        ("msec", 1e6)
    } else if min > 2_000 && max > 99_999 && stddev > 1_000.0 {
        ("usec", 1e3)
    } else {
        ("nsec", 1.0)
    }
}

/// The unit fio picks for the percentile table (`show_clat_percentiles`): (name, times to
/// divide by 1000 rounding up).
pub fn percentile_unit(minv: u64, maxv: u64) -> (&'static str, u32) {
    if minv > 2_000_000 && maxv > 99_999_999 {
        ("msec", 2)
    } else if minv > 2_000 && maxv > 99_999 {
        ("usec", 1)
    } else {
        ("nsec", 0)
    }
}

/// `v` divided by 1000 `times` times, each time rounding up (fio: `(v + 999) / 1000`).
pub fn scale_down(mut v: u64, times: u32) -> u64 {
    for _ in 0..times {
        v = v.saturating_add(999) / 1000;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_fio() {
        assert_eq!(num2str(15534, 4, false, Unit::None), "15.5k");
        assert_eq!(num2str(4801, 4, false, Unit::None), "4801");
        assert_eq!(num2str(63_630_000, 4, true, Unit::BytePerSec), "60.7MiB/s");
        assert_eq!(num2str(63_630_000, 4, false, Unit::BytePerSec), "63.6MB/s");
        assert_eq!(num2str(512 << 20, 4, true, Unit::Byte), "512MiB");
        assert_eq!(num2str(22 << 20, 4, true, Unit::Byte), "22.0MiB");
        assert_eq!(num2str(10 << 30, 4, true, Unit::Byte), "10.0GiB");
        assert_eq!(num2str(812_345, 6, false, Unit::None), "812345");
        assert_eq!(num2str(8_123_456, 6, false, Unit::None), "8123.5k");
        assert_eq!(num2str(0, 4, false, Unit::None), "0");
        assert_eq!(
            num2str(u64::MAX, 4, true, Unit::Byte),
            num2str(u64::MAX, 4, true, Unit::Byte)
        );
    }

    #[test]
    fn units() {
        assert_eq!(lat_unit(10519, 57976, 2609.65).0, "nsec");
        assert_eq!(lat_unit(359_000, 45_445_000, 1_983_670.0).0, "usec");
        assert_eq!(percentile_unit(445_000, 28_181_000).0, "usec");
        assert_eq!(scale_down(577_001, 1), 578);
    }
}
