//! The measured figures in `engine/src/tools/calibration/cases.rs` are the ones in
//! `engine/data/measurements.toml` (the authors' tables, as published): the data and the code
//! cannot drift apart. Read with a small reader of the few TOML forms the file's `[[case]]`
//! tables use (`key = "string"`, `key = number`, comments), so the engine needs no TOML crate.

use std::collections::BTreeMap;

use mmcsim_engine::calibration::{Unit, CASES, SERIES};

const FILE: &str = include_str!("../data/measurements.toml");

/// One table of the file: its header (`[[case]]`, `[platform.x]`) and its `key = value` lines,
/// values as written (strings without their quotes; multi-line strings are skipped).
struct Table {
    header: String,
    fields: BTreeMap<String, String>,
}

impl Table {
    fn get(&self, key: &str) -> Option<&str> {
        self.fields.get(key).map(String::as_str)
    }
    fn number(&self, key: &str) -> f64 {
        let v = self
            .get(key)
            .unwrap_or_else(|| panic!("{} has no {key}: {:?}", self.header, self.fields));
        v.parse()
            .unwrap_or_else(|e| panic!("{}: {key} = {v:?}: {e}", self.header))
    }
}

/// The part of a line before a `#` comment outside a string.
fn strip_comment(line: &str) -> &str {
    let mut in_string = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => return &line[..i],
            _ => {}
        }
    }
    line
}

fn tables(text: &str) -> Vec<Table> {
    let mut out: Vec<Table> = Vec::new();
    let (mut in_multiline, mut in_array) = (false, false);
    for raw in text.lines() {
        if in_multiline {
            in_multiline = raw.matches("\"\"\"").count() % 2 == 0;
            continue;
        }
        if in_array {
            // A multi-line array (a board's table of rows): skipped.
            in_array = strip_comment(raw).trim() != "]";
            continue;
        }
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            out.push(Table {
                header: line.to_string(),
                fields: BTreeMap::new(),
            });
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("not a key = value line: {raw:?}"));
        let value = value.trim();
        if value == "[" {
            in_array = true;
            continue;
        }
        if value.starts_with("\"\"\"") {
            // A multi-line string: skipped (notes and workload descriptions only).
            in_multiline = value.matches("\"\"\"").count() == 1;
            continue;
        }
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        let table = out
            .last_mut()
            .unwrap_or_else(|| panic!("a key before any table: {raw:?}"));
        table
            .fields
            .insert(key.trim().to_string(), value.to_string());
    }
    out
}

/// "4K", "512K", "4KiB", "63.5KiB" in bytes.
fn size_bytes(s: &str) -> u64 {
    let num = s.trim_end_matches("iB").trim_end_matches('K');
    let kib: f64 = num.parse().unwrap_or_else(|e| panic!("size {s:?}: {e}"));
    (kib * 1024.0) as u64
}

#[test]
fn the_reader_sees_every_table_of_the_file() {
    let t = tables(FILE);
    let cases = t.iter().filter(|t| t.header == "[[case]]").count();
    // 4 series x 4 cases, the hsq-intro series (4), the Allwinner latency case (1), the 2019
    // large read (1) and the Raspberry Pi 5's (1).
    assert_eq!(cases, 23);
    assert!(t.iter().any(|t| t.header == "[platform.sprd-hs400es-2020]"));
}

#[test]
fn engine_cases_are_the_figures_of_the_measurements_file() {
    let all = tables(FILE);
    for series in &SERIES {
        // A later series on an existing platform has its own `[series.*]` table.
        let platform = all
            .iter()
            .find(|t| t.header == format!("[series.{}]", series.id))
            .or_else(|| {
                all.iter()
                    .find(|t| t.header == format!("[platform.{}]", series.platform))
            })
            .unwrap_or_else(|| panic!("no [platform.{}] in the file", series.platform));
        // The same author and title (the engine's source may shorten what follows).
        let cited = |s: &str| s.split('\'').take(2).collect::<Vec<_>>().join("'");
        let source = platform.get("source").expect("source");
        assert_eq!(
            cited(source),
            cited(series.source),
            "{}: source",
            series.platform
        );
        let unit = platform.get("unit").expect("unit");
        let want = match series.unit {
            Unit::MiBs => "MiB/s",
            Unit::KiBs => "KiB/s",
        };
        assert!(
            unit.contains(want),
            "{}: the file's unit {unit:?}, the engine's {want}",
            series.platform
        );

        // The file's cases of this series (not those of a later [series.*] on the same
        // platform), in the file's order, which is the engine's order.
        let file_cases: Vec<&Table> = all
            .iter()
            .filter(|t| t.header == "[[case]]")
            .filter(|t| {
                t.get("platform") == Some(series.platform)
                    && t.get("series").unwrap_or(series.platform) == series.id
            })
            .collect();
        let engine_cases: Vec<_> = CASES.iter().filter(|c| c.series == series.id).collect();
        assert_eq!(
            file_cases.len(),
            engine_cases.len(),
            "{}: cases in the file and in calibration.rs",
            series.platform
        );
        for (f, c) in file_cases.iter().zip(&engine_cases) {
            let what = format!("{} {}", series.platform, c.label());
            let rw = f.get("rw").or(f.get("mmc_test")).expect("rw or mmc_test");
            assert_eq!(rw, c.rw.name(), "{what}: rw");
            if let Some(size) = f.get("bs").or(f.get("size")) {
                assert_eq!(size_bytes(size), c.bs, "{what}: block size {size}");
            }
            let (a, b) = series.columns;
            assert_eq!(
                (f.number(a), f.number(b)),
                c.measured,
                "{what}: columns {a}, {b}"
            );
        }
    }
}

/// The figures measured with one host configuration (`calibration::SINGLES`) are the file's.
#[test]
fn single_figures_are_the_figures_of_the_measurements_file() {
    use mmcsim_engine::calibration::SINGLES;
    let all = tables(FILE);
    let case = |key: &str, value: &str| {
        all.iter()
            .find(|t| t.header == "[[case]]" && t.get(key) == Some(value))
            .unwrap_or_else(|| panic!("no [[case]] with {key} = {value}"))
    };
    let large = case("series", "hsq-large-read-2019");
    let rpi = case("board", "rpi5-sd-2024");
    for s in &SINGLES {
        let want = match (s.series, s.case) {
            ("hsq-large-read-2019", _) => large.number("measured"),
            (_, "randread 4KiB") => rpi.number("randread_4k_iops"),
            (_, "randwrite 4KiB") => rpi.number("randwrite_4k_iops"),
            (_, "read 4MiB") => rpi.number("read_4m_kb_s"),
            (_, "write 4MiB") => rpi.number("write_4m_kb_s"),
            other => panic!("{other:?} is not in the file"),
        };
        assert_eq!(s.measured, want, "{} {}", s.series, s.case);
    }
}
