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

/// A latency in ns as µs with three significant digits ("64.3 µs"), or ms above 10 ms.
pub fn latency(ns: u64) -> String {
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

/// A signed relative error in percent ("+3.2 %").
pub fn error_pct(sim: f64, measured: f64) -> String {
    if measured == 0.0 {
        return "-".to_string();
    }
    format!("{:+.1} %", (sim - measured) / measured * 100.0)
}
