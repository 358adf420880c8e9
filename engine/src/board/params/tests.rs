//! The units and the presets' values against the rows.

use super::*;

#[test]
fn units_parse_and_format_exactly() {
    assert_eq!(Unit::Us.parse("14.6"), Some(14_600));
    assert_eq!(Unit::Us.format(14_600), "14.6");
    assert_eq!(Unit::Us.parse("0.0001"), None);
    assert_eq!(Unit::MBps.parse("9.2"), Some(9_200_000));
    assert_eq!(Unit::MBps.format(11_430_000), "11.43");
    assert_eq!(Unit::KiB.parse("63.5"), Some(65_024));
    assert_eq!(Unit::KiB.format(65_024), "63.5");
    assert_eq!(Unit::KiB.parse("0.1"), None);
    assert_eq!(Unit::Pct.parse("98"), Some(980_000));
    assert_eq!(Unit::Bool.parse("2"), None);
    assert_eq!(Unit::Us.parse("-1"), None);
    assert_eq!(Unit::Us.parse("1e3"), None);
    assert_eq!(Unit::Us.parse(""), None);
}

#[test]
fn every_preset_value_is_in_range_and_prints_back() {
    for p in crate::board::PLATFORMS {
        for param in PARAMS {
            let v = (param.get)(p);
            let (min, max) = param.range();
            assert!((min..=max).contains(&v), "{}: {} = {v}", p.name, param.name);
            assert_eq!(
                param.unit.parse(&param.unit.format(v)),
                Some(v),
                "{}",
                param.name
            );
        }
    }
}

#[test]
fn a_kernel_version_is_major_dot_minor_and_out_of_range_is_named() {
    let k = find("kernel").unwrap();
    assert_eq!(k.parse_value("5.10"), Ok(5_010));
    assert_eq!(k.unit.format(5_010), "5.10");
    let e = k.parse_value("7.3").unwrap_err();
    assert!(
        e.contains("out of range; accepted: major.minor, 3.0..=6.99"),
        "{e}"
    );
    let e = k.parse_value("latest").unwrap_err();
    assert!(
        e.contains("'latest' is not a kernel version; accepted: major.minor, 3.0..=6.99"),
        "{e}"
    );
}
