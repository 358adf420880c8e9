//! Number formatting shared by the components: fixed, locale-independent, so tests can read it.

/// MiB/s with two decimals ("60.68"), the precision of fio's normal output.
pub fn mib_s(x: f64) -> String {
    format!("{x:.2}")
}

/// A count with thin thousands separators ("15 534"), rounded.
pub fn count(x: f64) -> String {
    let n = x.round().max(0.0) as u64;
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    out
}

/// A latency in ns as µs with three significant digits ("64.3 µs"), or ms above 10 ms
/// (the engine's [`format_latency_ns`](mmcsim_engine::scenario::units::format_latency_ns)).
pub fn latency(ns: u64) -> String {
    mmcsim_engine::scenario::units::format_latency_ns(ns)
}

/// Simulated time in ns, in the unit that keeps it readable ("1.234 s", "12.3 ms").
pub fn sim_time(ns: u64) -> String {
    let s = ns as f64 / 1e9;
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

/// The clock's simulated time: to the microsecond, the steps a paused tour or a single Step
/// moves by ("216.0 µs", "2.404 ms", "1.234567 s"), where [`sim_time`] would show "2.4 ms"
/// through many of them (`format_clock_ns`, which the tours' texts quote too).
pub fn clock_time(ns: u64) -> String {
    mmcsim_engine::scenario::units::format_clock_ns(ns)
}

/// A signed relative error in percent ("+3.2 %").
pub fn error_pct(sim: f64, measured: f64) -> String {
    if measured == 0.0 {
        return "-".to_string();
    }
    format!("{:+.1} %", (sim - measured) / measured * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mib_s_has_two_decimals() {
        assert_eq!(mib_s(60.675), "60.67");
        assert_eq!(mib_s(229.6), "229.60");
        assert_eq!(mib_s(0.0), "0.00");
    }

    #[test]
    fn count_groups_thousands_with_thin_spaces() {
        assert_eq!(count(0.0), "0");
        assert_eq!(count(999.0), "999");
        assert_eq!(count(1000.0), "1\u{2009}000");
        assert_eq!(count(15_534.4), "15\u{2009}534");
        assert_eq!(count(1_234_567.0), "1\u{2009}234\u{2009}567");
        assert_eq!(count(-5.0), "0", "negative counts clamp to 0");
    }

    #[test]
    fn latency_keeps_three_significant_digits_then_switches_to_ms() {
        assert_eq!(latency(1_234), "1.23 µs");
        assert_eq!(latency(64_321), "64.3 µs");
        assert_eq!(latency(123_456), "123 µs");
        assert_eq!(latency(9_999_000), "9999 µs");
        assert_eq!(latency(10_000_000), "10.00 ms");
    }

    #[test]
    fn the_clock_shows_every_microsecond() {
        assert_eq!(clock_time(216_049), "216.0 µs");
        assert_eq!(clock_time(1_234_000), "1.234 ms");
        assert_eq!(clock_time(1_236_000), "1.236 ms");
        assert_eq!(clock_time(12_300_000), "12.300 ms");
        assert_eq!(clock_time(1_234_567_000), "1.234567 s");
    }

    #[test]
    fn sim_time_picks_a_readable_unit() {
        assert_eq!(sim_time(1_234_000_000), "1.234 s");
        assert_eq!(sim_time(12_300_000), "12.3 ms");
        assert_eq!(sim_time(4_500), "4.5 µs");
        assert_eq!(sim_time(0), "0.0 µs");
    }

    #[test]
    fn error_pct_is_signed_and_safe_against_zero() {
        assert_eq!(error_pct(110.0, 100.0), "+10.0 %");
        assert_eq!(error_pct(96.8, 100.0), "-3.2 %");
        assert_eq!(error_pct(1.0, 0.0), "-");
    }
}
