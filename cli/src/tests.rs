//! Output formatting, on hand-built reports (independent of the simulator).

use crate::normal;
use mmcsim_engine::export::fio_json as json;
use mmcsim_engine::metrics::histogram::LatencyHistogram;
use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{DirStats, JobReport, Report, Scenario, SimStats, Stage};

fn dir(ios: u64, bs: u64, runtime_ns: u64, lat0: u64) -> DirStats {
    let mut clat = LatencyHistogram::new();
    for i in 0..ios {
        clat.record(lat0 + (i * 7919) % (lat0 / 2 + 1));
    }
    DirStats {
        io_bytes: ios * bs,
        total_ios: ios,
        runtime_ns,
        clat,
        prios: Vec::new(),
    }
}

pub fn sample(scn: &Scenario) -> Report {
    let mut jobs = Vec::new();
    for j in &scn.jobs {
        for i in 0..j.numjobs {
            jobs.push(JobReport {
                name: j.name.clone(),
                index: i,
                groupid: 0,
                read: dir(1000, j.bs, 8_437_000_000, 1_200_000),
                write: DirStats::default(),
                trim: DirStats::default(),
                flushes: 0,
                errors: 0,
                runtime_ns: 8_437_000_000,
                ramp_ios: 0,
                ioprio: Default::default(),
            });
        }
    }
    let sim = SimStats {
        simulated_ns: 8_437_000_000,
        events: 123_456,
        interrupts: 2000,
        bus_commands: 2000,
        requeues: 17,
        batch_hist: vec![0, 2000],
        stage_ns: Stage::ALL
            .iter()
            .map(|s| s.index() as u64 * 1_000_000)
            .collect(),
        requests: 2000,
        bus_busy_ns: 1_000_000_000,
        ..SimStats::default()
    };
    Report {
        platform: scn.platform.clone(),
        jobs,
        sim,
        power_cut: None,
        stranded_requests: 0,
    }
}

fn scn(line: &str) -> Scenario {
    let args: Vec<String> = line.split_whitespace().map(String::from).collect();
    parse_args(&args, Scenario::default()).unwrap()
}

#[test]
fn normal_output_group_reporting() {
    let s = scn("--rw=randread --bs=4k --size=512m --group_reporting --numjobs=20 --name=test");
    let out = normal::render(&s, &sample(&s));
    assert!(
        out.starts_with("test: (groupid=0, jobs=20): err= 0: pid=0: (simulated)\n"),
        "{}",
        out
    );
    assert!(
        out.contains("  read: IOPS=2370, BW=9482KiB/s (9710kB/s)(78.1MiB/8437msec)\n"),
        "{}",
        out
    );
    assert!(
        out.contains("    clat (usec): min=1200, max=1799"),
        "{}",
        out
    );
    assert!(
        out.contains("    clat percentiles (usec):\n     |  1.00th=["),
        "{}",
        out
    );
    assert!(out.contains("\n     | 99.99th=["), "{}", out);
    assert!(out.contains("  mmcsim: simulated=8.437s events=123456 interrupts=2000 bus_cmds=2000 requeues=17 avg_batch=1.00"));
    assert!(
        out.contains(
            "Run status group 0 (all jobs):\n   READ: bw=9482KiB/s (9710kB/s), 474KiB/s-474KiB/s"
        ),
        "{}",
        out
    );
    assert!(
        out.contains("io=78.1MiB (81.9MB), run=8437-8437msec\n"),
        "{}",
        out
    );
    assert_eq!(out.matches("(groupid=0").count(), 1);
}

#[test]
fn normal_output_per_clone() {
    let s = scn("--numjobs=3 --name=a");
    let out = normal::render(&s, &sample(&s));
    assert_eq!(out.matches("a: (groupid=0, jobs=1)").count(), 3, "{}", out);
}

#[test]
fn json_output_is_fio_shaped() {
    let s = scn("--platform=unisoc-hsq-2023 --bs=8k --group_reporting --numjobs=2 --name=test --rw=randread");
    let text = json::render(&s, &sample(&s));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v["fio version"],
        format!("mmcsim-{}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(v["global options"]["platform"], "unisoc-hsq-2023");
    let jobs = v["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 1);
    let j = &jobs[0];
    assert_eq!(j["jobname"], "test");
    assert_eq!(j["job options"]["bs"], "8k");
    assert_eq!(j["job options"]["rw"], "randread");
    assert_eq!(j["read"]["total_ios"], 2000);
    assert_eq!(j["read"]["io_bytes"], 2000 * 8192);
    assert_eq!(j["read"]["runtime"], 8437);
    assert!(
        j["read"]["clat_ns"]["percentile"]["99.990000"]
            .as_u64()
            .unwrap()
            >= 1_200_000
    );
    assert_eq!(j["mmcsim"]["stage_ns"]["submit"], 0);
    assert_eq!(j["mmcsim"]["batch_hist"][1], 2000);
    assert!(text.contains("\"jobname\" : \"test\""));
    assert_eq!(text, json::render(&s, &sample(&s)), "deterministic");
}

#[test]
fn mmc_test_blocks() {
    let s = scn("--mmc_test=39");
    let mut r = sample(&s);
    r.jobs[0].name = "63.5KiB".to_string();
    r.jobs[0].read = dir(100, 65024, 1_000_000_000, 300_000);
    let out = normal::render(&s, &r);
    assert!(out.contains("63.5KiB: (groupid=0, jobs=1)"), "{}", out);
    assert!(out.contains("mmc0: Transfer of 100 x 127 sectors (100 x 63.5 KiB) took 1.000000000 seconds (6502 kB/s, 6350 KiB/s, 100.00 IOPS, sg_len 1)"), "{}", out);
}

#[test]
#[ignore = "prints sample output for eyeballing"]
fn show() {
    let s = scn("--rw=randread --bs=4k --size=512m --group_reporting --numjobs=20 --name=test");
    print!("{}", normal::render(&s, &sample(&s)));
    print!("{}", json::render(&s, &sample(&s)));
}

/// fio's JSON layout byte for byte (the renderer moved from the CLI into the engine's
/// `export::fio_json`; this pins its output). Regenerate with `MMCSIM_UPDATE_GOLDEN=1`.
#[test]
fn json_output_matches_golden() {
    let s = scn("--platform=unisoc-hsq-2023 --bs=8k --group_reporting --numjobs=2 --name=test --rw=randread --name=b --rw=write");
    let mut r = sample(&s);
    r.power_cut = Some(mmcsim_engine::PowerCutReport {
        at_ns: 5,
        lost_ranges: vec![(4096, 512)],
        ..Default::default()
    });
    let text = json::render(&s, &r);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/testdata/sample.json");
    if std::env::var_os("MMCSIM_UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    assert_eq!(text, include_str!("testdata/sample.json"));
}
