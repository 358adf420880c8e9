//! Exports (`mmcsim_engine::export`): the trace-event JSON follows the Trace Event Format's rules
//! (checked with a small strict JSON parser written here, RFC 8259), the CSV has its header and
//! one row per series point, fio's JSON parses, every export is deterministic, and the report
//! types and JSON documents read back with serde_json.

use mmcsim_engine::export::{
    csv::CSV_HEADER, fio_json, series_csv, trace_event_json, write_trace_events,
};
use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{Scenario, Simulator};
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq)]
enum V {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<V>),
    Obj(Vec<(String, V)>),
}

impl V {
    fn get(&self, k: &str) -> Option<&V> {
        match self {
            V::Obj(o) => o.iter().find(|(n, _)| n == k).map(|(_, v)| v),
            _ => None,
        }
    }
    fn num(&self) -> Option<f64> {
        if let V::Num(n) = self {
            Some(*n)
        } else {
            None
        }
    }
    fn str(&self) -> Option<&str> {
        if let V::Str(s) = self {
            Some(s)
        } else {
            None
        }
    }
}

/// A strict RFC 8259 parser: one value, nothing but whitespace after it.
struct P<'a>(&'a [u8], usize);

impl P<'_> {
    fn ws(&mut self) {
        while self.1 < self.0.len() && b" \t\r\n".contains(&self.0[self.1]) {
            self.1 += 1;
        }
    }
    fn eat(&mut self, s: &str) -> Result<(), String> {
        if self.0[self.1..].starts_with(s.as_bytes()) {
            self.1 += s.len();
            Ok(())
        } else {
            Err(format!("expected {s} at {}", self.1))
        }
    }
    fn value(&mut self) -> Result<V, String> {
        self.ws();
        let c = *self.0.get(self.1).ok_or("unexpected end")?;
        let v = match c {
            b'{' => {
                self.1 += 1;
                let mut o = Vec::new();
                self.ws();
                if self.eat("}").is_err() {
                    loop {
                        self.ws();
                        let V::Str(k) = self.value()? else {
                            return Err("key".into());
                        };
                        self.ws();
                        self.eat(":")?;
                        o.push((k, self.value()?));
                        self.ws();
                        if self.eat(",").is_err() {
                            self.eat("}")?;
                            break;
                        }
                    }
                }
                V::Obj(o)
            }
            b'[' => {
                self.1 += 1;
                let mut a = Vec::new();
                self.ws();
                if self.eat("]").is_err() {
                    loop {
                        a.push(self.value()?);
                        self.ws();
                        if self.eat(",").is_err() {
                            self.eat("]")?;
                            break;
                        }
                    }
                }
                V::Arr(a)
            }
            b'"' => {
                self.1 += 1;
                let mut s = String::new();
                loop {
                    let c = *self.0.get(self.1).ok_or("open string")?;
                    self.1 += 1;
                    match c {
                        b'"' => break,
                        b'\\' => {
                            let e = *self.0.get(self.1).ok_or("escape")?;
                            self.1 += 1;
                            match e {
                                b'"' | b'\\' | b'/' => s.push(e as char),
                                b'n' | b't' | b'r' | b'b' | b'f' => s.push(' '),
                                b'u' => {
                                    let h = std::str::from_utf8(
                                        self.0.get(self.1..self.1 + 4).ok_or("\\u")?,
                                    )
                                    .map_err(|e| e.to_string())?;
                                    s.push(
                                        char::from_u32(
                                            u32::from_str_radix(h, 16)
                                                .map_err(|e| e.to_string())?,
                                        )
                                        .unwrap_or('?'),
                                    );
                                    self.1 += 4;
                                }
                                _ => return Err(format!("bad escape at {}", self.1)),
                            }
                        }
                        c if c < 0x20 => {
                            return Err(format!("control character in string at {}", self.1))
                        }
                        _ => {
                            let start = self.1 - 1;
                            let len = match c {
                                0..=0x7f => 1,
                                0xc0..=0xdf => 2,
                                0xe0..=0xef => 3,
                                _ => 4,
                            };
                            s.push_str(
                                std::str::from_utf8(&self.0[start..start + len])
                                    .map_err(|e| e.to_string())?,
                            );
                            self.1 = start + len;
                        }
                    }
                }
                V::Str(s)
            }
            b't' => self.eat("true").map(|_| V::Bool(true))?,
            b'f' => self.eat("false").map(|_| V::Bool(false))?,
            b'n' => self.eat("null").map(|_| V::Null)?,
            _ => {
                let start = self.1;
                while self.1 < self.0.len() && b"-+.eE0123456789".contains(&self.0[self.1]) {
                    self.1 += 1;
                }
                let t = std::str::from_utf8(&self.0[start..self.1]).unwrap_or("");
                let ok = !t.is_empty()
                    && !t.starts_with('+')
                    && !t.starts_with('.')
                    && !t.ends_with('.');
                V::Num(
                    t.parse::<f64>()
                        .ok()
                        .filter(|_| ok)
                        .ok_or(format!("bad number '{t}' at {start}"))?,
                )
            }
        };
        Ok(v)
    }
}

fn parse_json(text: &str) -> V {
    let mut p = P(text.as_bytes(), 0);
    let v = p.value().unwrap_or_else(|e| panic!("invalid JSON: {e}"));
    p.ws();
    assert_eq!(p.1, text.len(), "trailing text after the JSON value");
    v
}

fn scn(line: &str) -> Scenario {
    let args: Vec<String> = line.split_whitespace().map(String::from).collect();
    parse_args(&args, Scenario::default()).unwrap()
}

const SEED: &str = "--platform=sprd-hs400es-2020 --packed=8 --rw=randread --bs=4k --size=1m --numjobs=20 --name=test";

/// Checks the Trace Event Format's rules on `text`; returns the events.
fn check_trace(text: &str) -> (Vec<V>, V) {
    let doc = parse_json(text);
    let Some(V::Arr(events)) = doc.get("traceEvents") else {
        panic!("no traceEvents array")
    };
    assert_eq!(doc.get("displayTimeUnit").and_then(V::str), Some("ns"));
    let other = doc.get("otherData").cloned().expect("otherData");
    // Times in ns (the export writes exact decimals of ns), compared as integers.
    let mut tracks: HashMap<(u64, u64), Vec<(i64, i64)>> = HashMap::new();
    for e in events {
        let ph = e.get("ph").and_then(V::str).expect("ph");
        assert!(
            ["X", "M", "B", "E", "i", "I", "C", "b", "e", "n"].contains(&ph),
            "ph {ph}"
        );
        let pid = e.get("pid").and_then(V::num).expect("pid");
        let tid = e.get("tid").and_then(V::num).expect("tid");
        let name = e.get("name").and_then(V::str).expect("name");
        if ph == "X" {
            let ts = e.get("ts").and_then(V::num).expect("ts");
            let dur = e.get("dur").and_then(V::num).expect("dur");
            assert!(ts >= 0.0 && dur >= 0.0, "negative ts/dur: {e:?}");
            assert!(
                e.get("cat").and_then(V::str).is_some() && matches!(e.get("args"), Some(V::Obj(_)))
            );
            let (ts, dur) = ((ts * 1e3).round() as i64, (dur * 1e3).round() as i64);
            tracks
                .entry((pid as u64, tid as u64))
                .or_default()
                .push((ts, ts + dur));
        } else if ph == "M" {
            assert!(
                [
                    "process_name",
                    "thread_name",
                    "process_sort_index",
                    "thread_sort_index"
                ]
                .contains(&name),
                "{name}"
            );
            assert!(matches!(e.get("args"), Some(V::Obj(_))));
        }
    }
    // Slices on one track nest or follow each other (what Perfetto's importer needs).
    for (track, mut v) in tracks {
        v.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        let mut open: Vec<i64> = Vec::new();
        for (s, e) in v {
            while open.last().is_some_and(|&end| end <= s) {
                open.pop();
            }
            assert!(
                open.last().is_none_or(|&end| e <= end),
                "slices overlap on track {track:?} at {s}"
            );
            open.push(e);
        }
    }
    (events.clone(), other)
}

#[test]
fn seed_scenario_trace_is_valid_trace_event_json() {
    let s = scn(SEED);
    let text = trace_event_json(&s, 200_000).unwrap();
    let (events, other) = check_trace(&text);
    assert_eq!(other.get("truncated"), Some(&V::Bool(false)));
    assert_eq!(
        other.get("events").and_then(V::num),
        Some(events.len() as f64)
    );
    let requests: Vec<&V> = events
        .iter()
        .filter(|e| e.get("cat").and_then(V::str) == Some("request"))
        .collect();
    assert_eq!(
        requests.len(),
        20 * 256,
        "every request of 20 x 1 MiB / 4 KiB"
    );
    for r in &requests {
        let args = r.get("args").unwrap();
        assert_eq!(args.get("op").and_then(V::str), Some("read"));
        assert_eq!(args.get("len").and_then(V::num), Some(4096.0));
        assert!(args.get("offset").and_then(V::num).is_some());
    }
    let thread_names: Vec<&str> = events
        .iter()
        .filter(|e| e.get("name").and_then(V::str) == Some("thread_name"))
        .filter_map(|e| e.get("args")?.get("name")?.str())
        .collect();
    for want in ["test.0", "test.19", "hsq slot 0", "bus", "host CPU", "card"] {
        assert!(
            thread_names.contains(&want),
            "no track {want}: {thread_names:?}"
        );
    }
    for cat in ["tag", "bus", "card", "host", "stage"] {
        assert!(
            events
                .iter()
                .any(|e| e.get("cat").and_then(V::str) == Some(cat)),
            "no {cat} slices"
        );
    }
    // The same scenario writes the same bytes, and through the streaming writer too.
    let mut again = String::new();
    let stats = write_trace_events(&s, 200_000, &mut again).unwrap();
    assert_eq!(again, text);
    assert_eq!(
        (stats.events, stats.requests, stats.truncated),
        (events.len(), 5120, false)
    );
}

#[test]
fn the_cap_cuts_the_trace_and_says_so() {
    let text = trace_event_json(&scn(SEED), 1000).unwrap();
    let (events, other) = check_trace(&text);
    assert_eq!(events.len(), 1000);
    assert_eq!(other.get("truncated"), Some(&V::Bool(true)));
    assert!(other
        .get("note")
        .and_then(V::str)
        .unwrap()
        .contains("max_events"));
    let (events, _) = check_trace(&trace_event_json(&scn(SEED), 0).unwrap());
    assert!(events.is_empty());
}

#[test]
fn other_paths_and_faults_give_valid_traces() {
    for line in [
        "--platform=u300-mmci-2011 --rw=write --bs=32k --size=1m --name=a --name=b --rw=randread --ioengine=libaio --iodepth=8",
        "--mmc_path=cqe --rw=randrw --size=512k --numjobs=3 --ioengine=io_uring --iodepth=4 --name=x\"q\\",
        "--rw=write --size=4m --power_cut=2ms --inject_error=crc:0.05 --fsync=4 --name=p",
        "--mmc_test=39 --size=256k",
        "--hsq_depth=dynamic --rw=randwrite --size=1m --numjobs=4 --name=d",
    ] {
        let (events, other) = check_trace(&trace_event_json(&scn(line), 100_000).unwrap());
        assert!(events.iter().any(|e| e.get("cat").and_then(V::str) == Some("request")), "{line}");
        assert_eq!(other.get("truncated"), Some(&V::Bool(false)), "{line}");
    }
}

#[test]
fn csv_has_the_header_and_one_row_per_point() {
    let s = scn(SEED);
    let text = series_csv(&s).unwrap();
    let mut sim = Simulator::new(&s).unwrap();
    sim.run_to_end();
    let points = sim.series();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], CSV_HEADER);
    assert_eq!(
        CSV_HEADER,
        "t_ms,mib_s,iops,read_mib_s,write_mib_s,avg_inflight"
    );
    assert_eq!(lines.len(), points.len() + 1);
    for (l, p) in lines[1..].iter().zip(&points) {
        let f: Vec<f64> = l.split(',').map(|x| x.parse().unwrap()).collect();
        assert_eq!(f.len(), 6);
        assert!((f[0] - p.t_ns as f64 / 1e6).abs() < 1e-3);
        assert!(
            (f[1] - p.mib_s()).abs() < 1e-3 && (f[1] - f[3] - f[4]).abs() < 2e-3,
            "{l}"
        );
        assert!(f[5] >= 0.0);
    }
}

#[test]
fn fio_json_parses_and_names_the_jobs() {
    let s = scn("--group_reporting --rw=randwrite --size=256k --numjobs=2 --name=g");
    let rep = mmcsim_engine::run(&s).unwrap();
    let text = fio_json(&s, &rep);
    let doc = parse_json(&text);
    let Some(V::Arr(jobs)) = doc.get("jobs") else {
        panic!("jobs")
    };
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].get("jobname").and_then(V::str), Some("g"));
    assert_eq!(
        jobs[0]
            .get("write")
            .and_then(|w| w.get("total_ios"))
            .and_then(V::num),
        Some(128.0)
    );
    assert_eq!(text, fio_json(&s, &rep));
}

#[test]
fn report_and_series_round_trip_through_serde_json() {
    let s = scn("--rw=randrw --size=512k --numjobs=2 --fsync=8 --power_cut=1ms --name=r");
    let mut sim = Simulator::new(&s).unwrap();
    sim.run_to_end();
    let rep = sim.report();
    let text = serde_json::to_string(&rep).unwrap();
    let back: mmcsim_engine::Report = serde_json::from_str(&text).unwrap();
    assert_eq!(back, rep);
    assert!(back.power_cut.is_some());
    let points = sim.series();
    let back: Vec<mmcsim_engine::metrics::SeriesPoint> =
        serde_json::from_str(&serde_json::to_string(&points).unwrap()).unwrap();
    assert_eq!(back, points);
    // The fio document reads back into its typed form and writes the same bytes again.
    let fio = fio_json(&s, &rep);
    let doc: mmcsim_engine::export::fio_json::FioDoc = serde_json::from_str(&fio).unwrap();
    assert_eq!(doc.to_text(), fio);
    // The trace reads back with serde_json as well.
    let trace: serde_json::Value =
        serde_json::from_str(&trace_event_json(&s, 100).unwrap()).unwrap();
    assert_eq!(trace["otherData"]["max_events"], 100);
    assert_eq!(trace["traceEvents"].as_array().map(Vec::len), Some(100));
    // Platform timings serialize too.
    let p = serde_json::to_value(mmcsim_engine::platform::SPRD_HS400ES_2020.bus).unwrap();
    assert_eq!(p["mode"], "hs400es");
    assert_eq!(p["clock_hz"], 200_000_000);
}

#[test]
fn scenario_and_platform_serialize_and_the_scenario_reads_back() {
    let s = mmcsim_engine::scenario::jobfile::parse_jobfile(
        "[global]\nplatform=unisoc-fua-2022\nfua=1\npower_cut=20ms\n[w]\nrw=randwrite\nsync=1\n",
        mmcsim_engine::Scenario::default(),
    )
    .unwrap();
    let text = serde_json::to_string(&s).unwrap();
    let back: mmcsim_engine::Scenario = serde_json::from_str(&text).unwrap();
    assert_eq!(back, s);
    let p = serde_json::to_value(s.platform().unwrap()).unwrap();
    assert_eq!(p["name"], "unisoc-fua-2022");
    assert_eq!(p["switches"]["fua"], true);
}
