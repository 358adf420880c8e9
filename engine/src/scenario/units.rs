//! fio's size, time and boolean syntax.
//!
//! fio (`parse.c`, HOWTO "Parameter types") reads sizes with an optional suffix that is a power of
//! 1024 by default (`kb_base=1024`): `k`, `K`, `KiB` and `KB` all mean 1024. Times are integers
//! with an optional unit suffix; a bare number means seconds for `runtime=`. Decimals are accepted
//! (`63.5k` = 65024 bytes), as fio accepts them. Nothing here panics, whatever the input.

const KIB: u64 = 1024;

/// Size suffixes (lowercased) and their multipliers, longest first so `kib` wins over `k`.
const SIZE_SUFFIXES: &[(&str, u64)] = &[
    ("kib", KIB),
    ("mib", KIB << 10),
    ("gib", KIB << 20),
    ("tib", KIB << 30),
    ("kb", KIB),
    ("mb", KIB << 10),
    ("gb", KIB << 20),
    ("tb", KIB << 30),
    ("k", KIB),
    ("m", KIB << 10),
    ("g", KIB << 20),
    ("t", KIB << 30),
];

/// Time suffixes (lowercased) and their length in ns (fio `get_mult_time`).
const TIME_SUFFIXES: &[(&str, u64)] = &[
    ("nsec", 1),
    ("usec", 1_000),
    ("msec", 1_000_000),
    ("sec", 1_000_000_000),
    ("min", 60_000_000_000),
    ("ns", 1),
    ("us", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("m", 60_000_000_000),
    ("h", 3_600_000_000_000),
    ("d", 86_400_000_000_000),
];

/// Splits `text` into a decimal number and a suffix known to `table`, and returns
/// `number * multiplier` (truncated to an integer, as fio does). `default` applies with no suffix.
fn parse_with_suffix(text: &str, table: &[(&str, u64)], default: u64) -> Option<u64> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, suffix) = t.split_at(split);
    let suffix = suffix.trim().to_ascii_lowercase();
    let mult = if suffix.is_empty() {
        default
    } else {
        table.iter().find(|(s, _)| *s == suffix)?.1
    };
    parse_decimal_times(num, mult)
}

/// `num * mult` for a decimal `num` such as "63.5", exactly, without floating point; None on
/// overflow or bad syntax.
fn parse_decimal_times(num: &str, mult: u64) -> Option<u64> {
    let (int, frac) = match num.split_once('.') {
        Some((i, f)) => (i, f),
        None => (num, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let int_val: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut total = int_val.checked_mul(mult)?;
    // The fraction digit by digit: each digit d at position k adds d * mult / 10^k.
    let mut scale: u128 = 1;
    let mut frac_sum: u128 = 0;
    // 18 digits keep `frac_sum * mult` far inside u128; later digits cannot change the result.
    for b in frac.bytes().take(18) {
        scale *= 10;
        frac_sum = frac_sum * 10 + u128::from(b - b'0');
    }
    if scale > 1 {
        let add = frac_sum * u128::from(mult) / scale;
        total = total.checked_add(u64::try_from(add).ok()?)?;
    }
    Some(total)
}

/// A hexadecimal size (`0x1000`, `0x10k`), as fio's `str_to_decimal` reads `0x` numbers; None
/// when `text` is not one.
fn parse_hex_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let hex = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X"))?;
    let split = hex
        .find(|c: char| !c.is_ascii_hexdigit())
        .unwrap_or(hex.len());
    let (digits, suffix) = hex.split_at(split);
    let suffix = suffix.trim().to_ascii_lowercase();
    let mult = if suffix.is_empty() {
        1
    } else {
        SIZE_SUFFIXES.iter().find(|(s, _)| *s == suffix)?.1
    };
    u64::from_str_radix(digits, 16).ok()?.checked_mul(mult)
}

/// Parses a fio size: `4096`, `4k`, `4K`, `4KiB`, `64m`, `1g`, `63.5k`. Suffixes are powers
/// of 1024 (fio's default `kb_base=1024`); a plain number is bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
    parse_hex_size(text)
        .or_else(|| parse_with_suffix(text, SIZE_SUFFIXES, 1))
        .ok_or_else(|| format!("'{}' is not a size; accepted: bytes or a number with k, m, g or t (powers of 1024), e.g. 4k, 512m", text))
}

/// Parses a fio time into ns: `10` (seconds, fio's default unit for `runtime=`), `500ms`,
/// `250us`, `2m`, `1h`, `1.5s`. Suffixes: ns/nsec, us/usec, ms/msec, s/sec, m/min, h, d.
pub fn parse_time_ns(text: &str) -> Result<u64, String> {
    let ns = parse_with_suffix(text, TIME_SUFFIXES, 1_000_000_000)
        .ok_or_else(|| format!("'{}' is not a time; accepted: seconds or a number with ns, us, ms, s, m or h, e.g. 30, 500ms", text))?;
    // A time that is not zero but rounds to 0 ns would read as "0 = none" without a word.
    if ns == 0 && text.chars().any(|c| ('1'..='9').contains(&c)) {
        return Err(format!(
            "'{}' is below 1 ns, the model's resolution; accepted: 0 or a time of at least 1ns",
            text
        ));
    }
    Ok(ns)
}

/// Parses a fio boolean: 1/0, true/false, yes/no, on/off (case-insensitive).
pub fn parse_bool(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(format!(
            "'{}' is not a boolean; accepted: 0, 1 (or true/false, yes/no, on/off)",
            text
        )),
    }
}

/// Parses an unsigned integer within `min..=max` (decimal, or hex with `0x`).
pub fn parse_uint(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let t = text.trim();
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => t.parse::<u64>().ok(),
    };
    match v {
        Some(v) if (min..=max).contains(&v) => Ok(v),
        _ if max == u64::MAX => Err(format!(
            "'{}' is not a number; accepted: {}..{}",
            text, min, max
        )),
        _ => Err(format!("'{}' is not a number in {}..={}", text, min, max)),
    }
}

/// The shortest exact fio form of a size: "4k", "512k", "64m", "1g", "2t", else bytes.
pub fn format_size(bytes: u64) -> String {
    for (suffix, mult) in [
        ("t", KIB << 30),
        ("g", KIB << 20),
        ("m", KIB << 10),
        ("k", KIB),
    ] {
        if bytes != 0 && bytes.is_multiple_of(mult) {
            return format!("{}{}", bytes / mult, suffix);
        }
    }
    bytes.to_string()
}

/// A latency as the page's tables write it, three significant digits: "64.3 µs", "1778 µs",
/// or ms with two decimals from 10 ms ("12.34 ms"). The results and A/B tables and the
/// tours' sentences that quote them all go through this one function.
pub fn format_latency_ns(ns: u64) -> String {
    let us = ns as f64 / 1e3;
    if us >= 10_000.0 {
        format!("{:.2} ms", us / 1e3)
    } else if us >= 100.0 {
        format!("{us:.0} µs")
    } else if us >= 10.0 {
        format!("{us:.1} µs")
    } else {
        format!("{us:.2} µs")
    }
}

/// The shortest exact fio form of a time: "10s", "500ms", "250us", "2m", "1h", else "Nns".
pub fn format_time_ns(ns: u64) -> String {
    for (suffix, mult) in [
        ("h", 3_600_000_000_000u64),
        ("m", 60_000_000_000),
        ("s", 1_000_000_000),
        ("ms", 1_000_000),
        ("us", 1_000),
    ] {
        if ns != 0 && ns.is_multiple_of(mult) {
            return format!("{}{}", ns / mult, suffix);
        }
    }
    format!("{}ns", ns)
}

/// A simulated time as the page's clock shows it: to the microsecond ("216.0 µs",
/// "2.404 ms", "1.234567 s"), the steps a paused tour or a single step moves by. The tours'
/// texts quote the clock through this same function.
pub fn format_clock_ns(ns: u64) -> String {
    let us = ns as f64 / 1e3;
    if us < 1e3 {
        format!("{us:.1} µs")
    } else if us < 1e6 {
        format!("{:.3} ms", us / 1e3)
    } else {
        format!("{:.6} s", us / 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("4k"), Ok(4096));
        assert_eq!(parse_size("4K"), Ok(4096));
        assert_eq!(parse_size("4KiB"), Ok(4096));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("1g"), Ok(1 << 30));
        assert_eq!(parse_size("63.5k"), Ok(65024));
        assert!(parse_size("").is_err());
        assert!(parse_size("k").is_err());
        assert!(parse_size("512b").is_err());
        assert!(parse_size("4x").is_err());
        assert!(parse_size("99999999999999999999t").is_err());
        assert!(parse_size("16777216t").is_err());
        assert!(parse_size("-1").is_err());
        assert_eq!(
            parse_size("1.99999999999999999999999999999999999t"),
            Ok((2 << 40) - 1)
        );
        assert!(parse_time_ns("9.99999999999999999999999999999999999d").is_ok());
    }

    #[test]
    fn times() {
        assert_eq!(parse_time_ns("10"), Ok(10_000_000_000));
        assert_eq!(parse_time_ns("500ms"), Ok(500_000_000));
        assert_eq!(parse_time_ns("250usec"), Ok(250_000));
        assert_eq!(parse_time_ns("2m"), Ok(120_000_000_000));
        assert_eq!(parse_time_ns("1.5s"), Ok(1_500_000_000));
        assert!(parse_time_ns("1y").is_err());
    }

    #[test]
    fn formats_round_trip() {
        for b in [
            1,
            512,
            4096,
            65024,
            512 << 10,
            64 << 20,
            1 << 30,
            3 << 40,
            u64::MAX,
        ] {
            assert_eq!(parse_size(&format_size(b)), Ok(b), "{}", format_size(b));
        }
        assert_eq!(format_size(4096), "4k");
        assert_eq!(format_size(1 << 30), "1g");
        for t in [
            1,
            999,
            1000,
            1_500_000_000,
            60_000_000_000,
            3_600_000_000_000,
            u64::MAX,
        ] {
            assert_eq!(parse_time_ns(&format_time_ns(t)), Ok(t));
        }
        assert_eq!(format_time_ns(10_000_000_000), "10s");
    }
}
