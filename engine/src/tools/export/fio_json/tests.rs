use super::*;

fn sample() -> (Scenario, Report) {
    let args = [
        "--name=a",
        "--rw=randwrite",
        "--size=256k",
        "--numjobs=2",
        "--fsync=4",
    ];
    let scn =
        crate::scenario::options::parse_args(&args, Scenario::default()).expect("valid options");
    let mut sim = crate::Simulator::new(&scn).expect("valid scenario");
    sim.run_to_end();
    let mut rep = sim.report();
    rep.power_cut = Some(crate::PowerCutReport {
        at_ns: 7,
        lost_ranges: vec![(4096, 512), (0, 8)],
        ..Default::default()
    });
    (scn, rep)
}

/// `f` as the reader of `%f` sees it.
fn six(f: f64) -> f64 {
    format!("{:.6}", f).parse().expect("a number")
}

fn round_floats(doc: &mut FioDoc) {
    let lat = |l: &mut FioLat| {
        l.mean = six(l.mean);
        l.stddev = six(l.stddev);
    };
    for j in &mut doc.jobs {
        for d in [&mut j.read, &mut j.write, &mut j.trim] {
            d.iops = six(d.iops);
            lat(&mut d.slat_ns);
            lat(&mut d.clat_ns);
            lat(&mut d.lat_ns);
        }
        lat(&mut j.sync.lat_ns);
        j.mmcsim.avg_batch = six(j.mmcsim.avg_batch);
    }
    for d in &mut doc.disk_util {
        d.util = six(d.util);
    }
}

#[test]
fn reads_back_into_the_typed_document() {
    let (scn, rep) = sample();
    let doc = FioDoc::of(&scn, &rep);
    let text = render(&scn, &rep);
    let back: FioDoc = serde_json::from_str(&text).expect("fio JSON reads back");
    let mut want = doc.clone();
    round_floats(&mut want);
    assert_eq!(back, want);
    assert_eq!(back.to_text(), text, "written again byte for byte");
    assert_eq!(back.jobs.len(), 2);
    let j = &back.jobs[0];
    assert_eq!(
        j.job_options.get("rw").map(String::as_str),
        Some("randwrite")
    );
    assert!(j.write.clat_ns.percentile.is_some());
    assert!(
        j.read.clat_ns.percentile.is_none(),
        "no samples, no percentiles"
    );
    let pc = j.mmcsim.power_cut.as_ref().expect("power cut");
    assert_eq!(pc.lost_ranges[1], FioRange { offset: 0, len: 8 });
}

#[test]
fn layout_is_fios() {
    let (scn, rep) = sample();
    let text = render(&scn, &rep);
    assert!(
        text.starts_with("{\n  \"fio version\" : \"mmcsim-"),
        "{text}"
    );
    assert!(text.contains("\n      \"job options\" : {\n        \"name\" : \"a\",\n"));
    assert!(text.contains("\"mean\" : 0.000000,\n"));
    assert!(text.ends_with("\n  ]\n}\n"));
    let empty = FioDoc {
        global_options: OrderedMap::default(),
        jobs: Vec::new(),
        disk_util: Vec::new(),
        ..FioDoc::of(&scn, &rep)
    };
    let t = empty.to_text();
    assert!(
        t.contains("\"global options\" : {},\n  \"jobs\" : []\n}"),
        "{t}"
    );
}

/// fio's disk stats: 4 KiB sequential writes batched 8 per io_submit reach the card as 128
/// requests of 32 KiB, the other 896 bios merged (the kernel under QEMU: 128 requests), and the
/// card is busy for most of the run.
#[test]
fn disk_stats_count_requests_and_merges() {
    let args = [
        "--name=w",
        "--rw=write",
        "--bs=4k",
        "--size=4m",
        "--ioengine=libaio",
        "--iodepth=8",
        "--iodepth_batch_submit=8",
        "--platform=qemu-sdhci-pci",
    ];
    let scn = crate::scenario::options::parse_args(&args, Scenario::default()).expect("valid");
    let mut sim = crate::Simulator::new(&scn).expect("valid scenario");
    sim.run_to_end();
    let rep = sim.report();
    let d = FioDiskUtil::of(&rep, false).expect("a block device run");
    assert_eq!((d.read_ios, d.write_ios), (0, 128));
    assert_eq!((d.read_merges, d.write_merges), (0, 896));
    assert!(d.write_ticks > 0 && d.in_queue >= d.write_ticks, "{d:?}");
    assert!(d.util > 50.0 && d.util <= 100.0, "{d:?}");
    let text = crate::tools::export::normal::render(&scn, &rep);
    assert!(
        text.contains("\nDisk stats (read/write):\n  mmcblk0: ios=0/128, merge=0/896, ticks=0/"),
        "{text}"
    );
    let json = render(&scn, &rep);
    assert!(json.contains("\"disk_util\" : [\n    {\n      \"name\" : \"mmcblk0\",\n      \"read_ios\" : 0,\n      \"write_ios\" : 128,"), "{json}");
}
