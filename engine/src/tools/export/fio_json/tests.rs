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
        ..FioDoc::of(&scn, &rep)
    };
    let t = empty.to_text();
    assert!(
        t.contains("\"global options\" : {},\n  \"jobs\" : []\n}"),
        "{t}"
    );
}
