//! Regression tests for issue 10 ("No silent wrong figure, bounded work for every accepted
//! scenario, safe to paste"), one per numbered item, plus a battery of hostile inputs that must
//! all be answered cleanly (no panic; accepted, or refused with one short line).
//! Item 1 (crash consistency) is `crash_consistency.rs`, item 3 (shell quoting) `shell_quote.rs`.

use std::time::Instant;

use mmcsim_engine::export::{fio_json, write_trace_events, TraceExport};
use mmcsim_engine::scenario::jobfile::parse_jobfile;
use mmcsim_engine::scenario::options::{parse_args, ScenarioBuilder};
use mmcsim_engine::scenario::url::decode_query;
use mmcsim_engine::scenario::{check, estimated_events, warnings};
use mmcsim_engine::{run, Scenario, Simulator};

/// Longer than any input needs on a loaded 2-core machine, far shorter than the minutes a
/// runaway parse or an unbounded run took: these tests catch hangs, they do not time anything.
const HANG_SECS: u64 = 120;

fn args(line: &str) -> Result<Scenario, mmcsim_engine::ScenarioError> {
    let a: Vec<&str> = line.split_whitespace().collect();
    parse_args(&a, Scenario::default())
}

/// Item 2 (engine side): the trace export run in small slices writes the same document as in
/// one go, and the count it reports is the count in the file.
#[test]
fn item2_trace_export_in_slices_is_the_same_document() {
    let scn = args("--numjobs=8 --iodepth=8 --ioengine=libaio --size=256k --name=t").unwrap();
    let mut whole = String::new();
    let stats = write_trace_events(&scn, 5_000, &mut whole).unwrap();
    let mut t = TraceExport::new(&scn, 5_000, String::new()).unwrap();
    let mut slices = 0;
    while !t.run_steps(7) {
        slices += 1;
    }
    let (sliced, stats2) = t.finish().unwrap();
    assert!(slices > 10);
    assert_eq!(sliced, whole);
    assert_eq!(stats, stats2);
    assert_eq!(whole.matches("\"ph\":").count(), stats.events);
}

/// Item 4: the work bound covers runtime-bound jobs, clones and calibration sizes, and each
/// refusal names the option and the limit.
#[test]
fn item4_work_bound_refusals_name_option_and_limit() {
    // A time-based run is bounded by the I/O budget, not refused: it stops issuing at
    // MAX_TOTAL_IOS (its report says so), so its estimate stays within the events.
    let s = args("--rw=randrw --bs=512 --numjobs=256 --mmc_path=cqe --runtime=600 --time_based --platform=unisoc-hsq-2023 --name=x").unwrap();
    assert!(
        estimated_events(&s) <= 80_000_000,
        "{}",
        estimated_events(&s)
    );
    let e = args("--rw=randrw --bs=512 --size=1g --numjobs=256 --mmc_path=cqe --platform=unisoc-hsq-2023 --name=x").unwrap_err();
    assert_eq!(e.option.as_deref(), Some("size"), "{e}");
    assert!(e.message.contains("at most 80000000 events"), "{e}");
    let e =
        args("--rw=randrw --bs=512 --size=15m --numjobs=256 --name=a --name=b --name=c --name=d")
            .unwrap_err();
    assert_eq!(e.option.as_deref(), Some("size"), "{e}");
    let e = mmcsim_engine::calibration::run_all(Some(6 << 30)).unwrap_err();
    assert_eq!(e.option.as_deref(), Some("size"), "{e}");
    assert!(e.message.contains("at most"), "{e}");
    // Item 10: a timed job beside a sized one is accepted (was "4611686018427387904 I/Os").
    let s = args("--name=a --size=1m --name=b --runtime=1 --time_based").unwrap();
    assert!(estimated_events(&s) < 80_000_000);
    // A huge size is fine when a power cut ends the run early.
    assert!(args("--size=1t --power_cut=50ms --name=x").is_ok());
    // The estimate bounds what a run really does.
    for line in [
        "--rw=randrw --bs=512 --numjobs=64 --mmc_path=cqe --runtime=20ms --time_based --platform=unisoc-hsq-2023 --ioengine=libaio --iodepth=4 --name=x",
        "--rw=randwrite --bs=4k --size=4m --fsync=1 --sync=1 --platform=unisoc-fua-2022 --fua=0 --name=x",
        "--rw=randread --bs=4k --size=2m --numjobs=20 --packed=8 --name=x",
    ] {
        let s = args(line).unwrap();
        let est = estimated_events(&s);
        let mut sim = Simulator::new(&s).unwrap();
        sim.run_to_end();
        assert!(sim.events() <= est, "{line}: {} events > {est}", sim.events());
    }
}

/// Item 5: an mmc_test cut is reported like any other: its job is in the JSON, the counts agree.
#[test]
fn item5_mmc_test_power_cut_is_reported() {
    let s = args("--mmc_test=37 --power_cut=50ms").unwrap();
    let r = run(&s).unwrap();
    let cut = r.power_cut.clone().unwrap();
    assert_eq!(r.jobs.len(), 1, "the size in progress is reported");
    assert!(cut.acked_writes >= 1000, "{cut:?}");
    assert!(cut.lost_acked_writes <= cut.acked_writes);
    assert_eq!(r.jobs[0].write.total_ios, cut.acked_writes);
    assert!(r.jobs[0].errors >= 1, "the transfer in flight failed");
    let json = fio_json(&s, &r);
    assert!(!json.contains("\"jobs\" : []"), "{json}");
}

/// Item 6: echoed input is cut; a 10 MB key is answered at once with a short line.
#[test]
fn item6_messages_are_bounded() {
    let key = "k".repeat(10 << 20);
    let t0 = Instant::now();
    let e = args(&format!("--{key}=1")).unwrap_err().to_string();
    assert!(e.len() < 200, "{} chars", e.len());
    let v = "v".repeat(10 << 20);
    let e2 = args(&format!("--bs={v}")).unwrap_err().to_string();
    assert!(e2.len() < 500, "{} chars", e2.len());
    let d = decode_query(&format!("{key}=1&bs={v}"));
    assert!(d.errors.iter().all(|e| e.to_string().len() < 500));
    // A hang guard, not a timing: a message built from the whole 10 MB input took minutes.
    assert!(t0.elapsed().as_secs() < HANG_SECS, "{:?}", t0.elapsed());
    let e3 = args("--bsz=4k").unwrap_err().to_string();
    assert!(e3.contains("did you mean 'bs'"), "{e3}");
}

/// Item 7: progress follows simulated time in a time-based run and is never 1 before the end.
#[test]
fn item7_progress_of_time_based_runs() {
    let s = args("--runtime=100ms --time_based --size=64k --name=t").unwrap();
    let mut sim = Simulator::new(&s).unwrap();
    sim.run_until(10_000_000);
    let p = sim.progress();
    assert!((0.09..=0.11).contains(&p), "{p} at 10% of the runtime");
    sim.run_until(99_000_000);
    assert!(sim.progress() < 1.0);
    sim.run_to_end();
    assert_eq!(sim.progress(), 1.0);
}

/// Item 8: more lost ranges than listed: the true count and a truncated flag (JSON too).
#[test]
fn item8_lost_ranges_count_and_flag() {
    // The 2020 board's cache holds data before programming it (the 2022 one programs at once).
    let s = args("--platform=sprd-hs400es-2020 --rw=randwrite --bs=512 --numjobs=8 --ioengine=libaio --iodepth=8 --power_cut=20ms --name=x").unwrap();
    let r = run(&s).unwrap();
    let cut = r.power_cut.clone().unwrap();
    assert!(cut.lost_ranges_total > 64, "{cut:?}");
    assert!(cut.truncated);
    assert_eq!(cut.lost_ranges.len(), 64);
    let json = fio_json(&s, &r);
    assert!(json.contains("\"lost_ranges_truncated\" : true"));
    assert!(json.contains(&format!(
        "\"lost_ranges_total\" : {}",
        cut.lost_ranges_total
    )));
}

/// Item 9: fio's job-file syntax.
#[test]
fn item9_job_file_syntax() {
    let ok = |t: &str| parse_jobfile(t, Scenario::default());
    let s = ok("[global] ; shared\nbs=8k # block size\n[a]\nsize=1m;x\n").unwrap();
    assert_eq!((s.jobs[0].bs, s.jobs[0].size), (8192, 1 << 20));
    assert_eq!(ok("\u{feff}[a]\nsize=1m\n").unwrap().jobs[0].name, "a");
    for t in ["", "; nothing\n", "[global]\nbs=4k\n"] {
        let e = ok(t).unwrap_err().to_string();
        assert!(e.contains("No job(s) defined"), "{t:?}: {e}");
    }
    let e = ok("bs=4k\n[a]\n").unwrap_err().to_string();
    assert!(e.contains("outside of [] job section"), "{e}");
    // A file of globals with mmc_test needs no job section.
    assert!(ok("[global]\nmmc_test=37\nsize=1m\n").is_ok());
    // The command line named a job: a job file of globals is fine.
    let mut b = ScenarioBuilder::new(Scenario::default());
    b.args(&["--name=x"]).unwrap();
    assert!(b.jobfile("[global]\nbs=8k\n").is_ok());
}

/// Items 9 and 10: options without effect are named (never silently ignored).
#[test]
fn item10_options_without_effect_warn() {
    let w = |line: &str| warnings(&args(line).unwrap());
    assert!(w("--mmc_path=legacy --hsq_depth=4 --name=x")[0].starts_with("hsq_depth"));
    assert!(w("--mmc_path=cqe --hsq_depth=4 --name=x")[0].starts_with("hsq_depth"));
    assert!(w("--nonblocking=1 --name=x")[0].starts_with("nonblocking"));
    assert!(w("--mmc_test=37 --rw=randread")
        .iter()
        .any(|x| x.starts_with("rw")));
    assert!(w("--iodepth=8 --name=x")[0].starts_with("iodepth"));
    assert!(w("--name=x --size=1m").is_empty());
    // The card's cache: its size says nothing with the cache off, and the model holds at most
    // half of it (issue 32's smaller items).
    let off = w("--platform=u300-mmci-2011 --card_cache_kib=1024 --name=x");
    assert!(
        off[0].starts_with("card_cache_kib: no effect with cache=0"),
        "{off:?}"
    );
    let hold = w("--card_cache_kib=1024 --card_cache_hold_kib=800 --name=x");
    assert!(hold[0].contains("the card holds 512 KiB"), "{hold:?}");
    assert!(w("--card_cache_kib=1024 --card_cache_hold_kib=512 --name=x").is_empty());
    let mut b = ScenarioBuilder::new(Scenario::default());
    b.jobfile("[a]\nplatform=unisoc-fua-2022\n[b]\nplatform=sprd-hs400es-2020\n[global]\nbs=8k\n")
        .unwrap();
    let notes = b.finish_with_warnings().unwrap().1;
    assert!(notes.iter().any(|n| n.starts_with("platform")), "{notes:?}");
    assert!(
        notes
            .iter()
            .any(|n| n.contains("after the last job section")),
        "{notes:?}"
    );
}

/// Item 10: the smaller ones.
#[test]
fn item10_smaller_items() {
    let many: String = (0..100_000).map(|i| format!("[j{i}]\n")).collect();
    let e = parse_jobfile(&many, Scenario::default()).unwrap_err();
    assert_eq!(e.option.as_deref(), Some("name"), "{e}");
    assert!(e.message.contains("100000 job sections"), "{e}");
    let e = args("--direct=maybe --name=x").unwrap_err().to_string();
    assert!(e.contains("yes/no"), "{e}");
    assert_eq!(args("--bs=0x1000 --name=x").unwrap().jobs[0].bs, 4096);
    assert_eq!(args("--numjobs=0x4 --name=x").unwrap().jobs[0].numjobs, 4);
    let s = args("--runtime=1ns --name=x").unwrap();
    let json = fio_json(&s, &run(&s).unwrap());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let read = &v["jobs"][0]["read"];
    assert!(read["bw"].as_u64().unwrap() > 0);
    assert!(
        read["runtime"].as_u64().unwrap() >= 1,
        "runtime 0 beside a bandwidth"
    );
    let s = args("--mmc_test=38 --platform=u300-mmci-2011 --size=1m").unwrap();
    let mut sim = Simulator::new(&s).unwrap();
    sim.run_to_end();
    assert!(sim.series().iter().any(|p| p.avg_inflight() > 0.5));
    let s = args("--name=x --size=1m --inject_error=crc:0.5").unwrap();
    let json = fio_json(&s, &run(&s).unwrap());
    assert!(json.contains("\"io_errors\" :") && json.contains("\"total_err\" :"));
}

/// Hostile and odd inputs through the command line, job files and links: every one answered
/// cleanly (no panic; accepted, or refused with one line of at most 500 characters), each within
/// a generous time.
#[test]
fn hostile_inputs_are_answered_cleanly() {
    let big = "x".repeat(1 << 20);
    let mut args_inputs: Vec<String> = vec![
        "--bs=".into(),
        "--bs=-1".into(),
        "--bs=0".into(),
        "--bs=1e9".into(),
        "--bs=4k4k".into(),
        "--bs=18446744073709551616".into(),
        "--bs=0x".into(),
        "--bs=0xffffffffffffffffff".into(),
        "--bs=63.5k".into(),
        "--bs=NaN".into(),
        "--size=0".into(),
        "--size=99999999999999999999t".into(),
        "--numjobs=0".into(),
        "--numjobs=-4".into(),
        "--numjobs=100000".into(),
        "--iodepth=0".into(),
        "--iodepth=65536 --ioengine=libaio".into(),
        "--runtime=-1".into(),
        "--runtime=1ns".into(),
        "--runtime=1e100".into(),
        "--runtime=9999d --time_based".into(),
        "--time_based".into(),
        "--rw=".into(),
        "--rw=randtrimwrite".into(),
        "--rw=randrw --rwmixread=101".into(),
        "--rwmixwrite=-5".into(),
        "--ioengine=mmap".into(),
        "--platform=".into(),
        "--platform=../../etc/passwd".into(),
        "--mmc_path=nvme".into(),
        "--hsq_depth=0".into(),
        "--hsq_depth=64".into(),
        "--hsq_depth=dynamic --mmc_path=legacy".into(),
        "--packed=1".into(),
        "--packed=17".into(),
        "--packed=8 --mmc_path=cqe".into(),
        "--packed=8 --platform=u300-mmci-2011".into(),
        "--fua=2".into(),
        "--cache=maybe".into(),
        "--mmc_test=36".into(),
        "--mmc_test=45".into(),
        "--mmc_test=37 --size=1t".into(),
        "--power_cut=0".into(),
        "--power_cut=-1ms".into(),
        "--power_cut=2d".into(),
        "--inject_error=crc".into(),
        "--inject_error=crc:2".into(),
        "--inject_error=bitflip:0.1".into(),
        "--randseed=-1".into(),
        "--randseed=0xffffffffffffffffff".into(),
        "--offset=1t".into(),
        "--fsync=-1".into(),
        "--sync=sometimes".into(),
        "--=1".into(),
        "---bs=4k".into(),
        "--name=".into(),
        "--name=]".into(),
        "--name=a\nb".into(),
        "--name=\u{202e}evil".into(),
        "--name=; rm -rf ~".into(),
        "--direct=yes".into(),
        "--bs=4k --bs=8k --bs=16k".into(),
        "--group_reporting=7".into(),
        "--thread".into(),
        "--filename=/dev/mmcblk0".into(),
        "--colour=red".into(),
        "--blocksize=4k".into(),
        "--numjobs=1024 --name=a --name=b".into(),
    ];
    args_inputs.push(format!("--{big}=1"));
    args_inputs.push(format!("--bs={big}"));
    args_inputs.push(format!("--name={big}"));
    args_inputs.push(format!("--rw={}", "é".repeat(100_000)));
    let mut jobfiles: Vec<String> = vec![
        "".into(),
        "\u{feff}".into(),
        "\u{feff}[a]\n".into(),
        "[global]\n".into(),
        "[global]\n[global]\n[a]\n".into(),
        "[".into(),
        "[]\n".into(),
        "[a\nbs=4k\n".into(),
        "[a] ; comment\nbs = 8k # comment\n".into(),
        "bs=4k\n[a]\n".into(),
        "[a]\n=4k\n".into(),
        "[a]\nbs\n".into(),
        "[a]\nbs==4k\n".into(),
        "[a]\n\0\n".into(),
        "[a]\r\nbs=4k\r\n".into(),
        "[a]\nrw=randrw\nrwmixread=30\n[b]\nrw=read\n".into(),
        "[a]\ninclude /etc/passwd\n".into(),
        "[a]\nbs=${BS}\n".into(),
        "[a]\nplatform=unisoc-fua-2022\n[b]\nplatform=sprd-hs400es-2020\n".into(),
        "[global]\nmmc_test=37\n".into(),
    ];
    jobfiles.push((0..5000).map(|i| format!("[j{i}]\n")).collect());
    jobfiles.push(format!("[a]\n{big}=1\n"));
    jobfiles.push(format!("[{big}]\n"));
    let mut urls: Vec<String> = vec![
        "".into(),
        "?".into(),
        "&&&&".into(),
        "bs=%zz".into(),
        "bs=%".into(),
        "name=%3B%20rm%20-rf%20~".into(),
        "name=a+b".into(),
        "b.packed=8".into(),
        "b.platform=x".into(),
        "job0.bs=4k".into(),
        "job999999999999.bs=4k".into(),
        "numjobs=256&iodepth=64&ioengine=libaio&size=1m".into(),
        "bs=4k&bs=8k".into(),
        "=&=&=".into(),
        "%00=%00".into(),
    ];
    urls.push("x=1&".repeat(10_000));
    urls.push(format!("{big}=1"));
    let total = args_inputs.len() + jobfiles.len() + urls.len();
    let mut clean = 0;
    let bounded = |e: &mmcsim_engine::ScenarioError| {
        let s = e.to_string();
        s.len() <= 500 && !s.contains('\n')
    };
    for a in &args_inputs {
        let t0 = Instant::now();
        let parts: Vec<&str> = if a.starts_with("--name=") {
            vec![a.as_str()]
        } else {
            a.split(' ').collect()
        };
        let ok = match parse_args(&parts, Scenario::default()) {
            Ok(s) => check(&s).is_ok(),
            Err(e) => bounded(&e),
        };
        if ok && t0.elapsed().as_secs() < HANG_SECS {
            clean += 1;
        } else {
            println!("not clean: {:?}", &a[..a.len().min(80)]);
        }
    }
    for j in &jobfiles {
        let t0 = Instant::now();
        let ok = match parse_jobfile(j, Scenario::default()) {
            Ok(s) => check(&s).is_ok(),
            Err(e) => bounded(&e),
        };
        if ok && t0.elapsed().as_secs() < HANG_SECS {
            clean += 1;
        } else {
            println!("not clean: {:?}", &j[..j.len().min(80)]);
        }
    }
    for q in &urls {
        let t0 = Instant::now();
        let d = decode_query(q);
        let ok = d.errors.len() <= 10
            && d.errors.iter().all(bounded)
            && check(&d.a).is_ok()
            && d.b.as_ref().is_none_or(|b| check(b).is_ok());
        if ok && t0.elapsed().as_secs() < HANG_SECS {
            clean += 1;
        } else {
            println!("not clean: {:?} {:?}", &q[..q.len().min(80)], d.errors);
        }
    }
    println!("hostile inputs: {clean} of {total} answered cleanly");
    assert_eq!(clean, total);
}
