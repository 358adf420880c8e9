//! Scenario links (`scenario::url`): round trips, defaults left out, randseed always present,
//! partial loading of bad links, limits, and decoding arbitrary text without panicking.

use mmcsim_engine::scenario::board;
use mmcsim_engine::scenario::url::{decode_query, encode_query, DecodedQuery};
use mmcsim_engine::{JobSpec, Rw, Scenario, Simulator};
use proptest::prelude::*;

#[allow(dead_code)]
use crate::common;
use common::generators::arb_valid_scenario;

/// A few changes to `a`, as a user makes them for the B side.
fn arb_pair() -> impl Strategy<Value = (Scenario, Scenario)> {
    (
        arb_valid_scenario(),
        arb_valid_scenario(),
        prop::collection::vec(0usize..8, 0..4),
    )
        .prop_map(|(a, other, changes)| {
            let mut b = a.clone();
            for c in changes {
                match c {
                    0 => b.set_switch::<u32>("packed", other.switch::<u32>("packed")),
                    1 => b.platform = other.platform.clone(),
                    2 => b.jobs[0] = other.jobs[0].clone(),
                    3 => b.jobs = other.jobs.clone(),
                    4 => b.power_cut_ns = other.power_cut_ns,
                    5 => b.randseed = other.randseed,
                    6 => {
                        // B's host switches become other's; its board stays.
                        b.overrides.retain(|k, _| board::param(k).is_some());
                        b.overrides.extend(other.switch_overrides());
                    }
                    _ => b.jobs.truncate(1),
                }
            }
            // A board value equal to B's (new) preset is no override: the canonical form.
            b.normalize_board();
            if Simulator::new(&b).is_err() {
                b.set_switch::<u32>("packed", Some(0));
            }
            (a, b)
        })
        .prop_filter("valid B", |(_, b)| Simulator::new(b).is_ok())
}

fn decoded(q: &str) -> DecodedQuery {
    decode_query(q)
}

proptest! {
    #![proptest_config(common::proptest_config(256))]
    #[test]
    fn a_round_trips(a in arb_valid_scenario()) {
        let q = encode_query(&a, None);
        let d = decoded(&q);
        prop_assert!(d.errors.is_empty(), "{}: {:?}", q, d.errors);
        prop_assert_eq!(d.a, a, "{}", q);
        prop_assert_eq!(d.b, None);
        prop_assert!(q.contains("randseed="), "{}", q);
    }

    #[test]
    fn a_and_b_round_trip((a, b) in arb_pair()) {
        let q = encode_query(&a, Some(&b));
        let d = decoded(&format!("?{}", q));
        prop_assert!(d.errors.is_empty(), "{}: {:?}", q, d.errors);
        prop_assert_eq!(&d.a, &a, "{}", q);
        prop_assert_eq!(d.b.as_ref(), Some(&b), "{}", q);
    }

    #[test]
    fn independent_a_and_b_round_trip(a in arb_valid_scenario(), b in arb_valid_scenario()) {
        prop_assume!(Simulator::new(&b).is_ok());
        let q = encode_query(&a, Some(&b));
        let d = decoded(&q);
        prop_assert!(d.errors.is_empty(), "{}: {:?}", q, d.errors);
        prop_assert_eq!(d.a, a);
        prop_assert_eq!(d.b, Some(b), "{}", q);
    }

    #[test]
    fn random_text_never_panics(q in "\\PC{0,64}|([?&]?(b\\.)?(job[0-9]{0,3}\\.)?[a-z_]{0,12}(=[%+0-9a-zA-Z:.&=-]{0,10})?){0,8}") {
        let d = decoded(&q);
        // Whatever the link, both sides are scenarios the simulator accepts.
        prop_assert!(Simulator::new(&d.a).is_ok(), "{}: {:?}", q, d.a);
        if let Some(b) = &d.b {
            prop_assert!(Simulator::new(b).is_ok(), "{}", q);
        }
    }

    #[test]
    fn bytes_never_panic(v in prop::collection::vec(any::<u8>(), 0..96)) {
        let _ = decoded(&String::from_utf8_lossy(&v));
    }
}

#[test]
fn the_packed_comparison_link() {
    let d = decoded(
        "platform=sprd-hs400es-2020&rw=randread&bs=4k&numjobs=20&size=512M&packed=8&b.packed=0",
    );
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let a = &d.a;
    assert_eq!(a.platform, "sprd-hs400es-2020");
    assert_eq!(a.jobs.len(), 1);
    let j = &a.jobs[0];
    assert_eq!(
        (j.rw, j.bs, j.numjobs, j.size),
        (Rw::RandRead, 4096, 20, 512 << 20)
    );
    assert_eq!(a.switch::<u32>("packed"), Some(8));
    assert_eq!(a.randseed, mmcsim_engine::scenario::DEFAULT_RANDSEED);
    let b = d.b.expect("a B side");
    assert_eq!(b.switch::<u32>("packed"), Some(0));
    let mut want = a.clone();
    want.set_switch::<u32>("packed", Some(0));
    assert_eq!(b, want);
    // And back: the same link, with the seed made explicit.
    assert_eq!(
        encode_query(a, Some(&b)),
        "packed=8&rw=randread&size=512m&numjobs=20&randseed=137&b.packed=0"
    );
}

#[test]
fn defaults_are_left_out_but_randseed_is_always_there() {
    assert_eq!(encode_query(&Scenario::default(), None), "randseed=137");
    let s = Scenario {
        randseed: 7,
        group_reporting: true,
        ..Scenario::default()
    };
    assert_eq!(encode_query(&s, None), "group_reporting=1&randseed=7");
    // B identical to A still says so.
    assert_eq!(
        encode_query(&s, Some(&s)),
        "group_reporting=1&randseed=7&b.randseed=7"
    );
    assert_eq!(
        decoded("randseed=7&b.randseed=7").b,
        Some(Scenario {
            randseed: 7,
            ..Scenario::default()
        })
    );
}

#[test]
fn bad_values_are_named_and_the_rest_loads() {
    let d = decoded("platform=sprd-hs400es-2020&bs=3000&rw=bogus&numjobs=20&frobnicate=1&job99.rw=read&b.packed=99&b.cache=1");
    let named: Vec<&str> = d
        .errors
        .iter()
        .filter_map(|e| e.option.as_deref())
        .collect();
    assert_eq!(
        named,
        ["bs", "rw", "frobnicate", "job99.rw", "b.packed"],
        "{:?}",
        d.errors
    );
    assert!(
        d.errors[0].message.contains("multiple of 512"),
        "{}",
        d.errors[0]
    );
    assert!(
        d.errors[1].message.contains("accepted: read, write"),
        "{}",
        d.errors[1]
    );
    assert!(d.errors[4].message.contains("accepted"), "{}", d.errors[4]);
    assert_eq!(d.a.jobs[0].numjobs, 20);
    assert_eq!(d.a.jobs[0].bs, 4096);
    let b = d.b.unwrap();
    assert_eq!(
        (
            b.switch::<bool>("cache"),
            b.switch::<u32>("packed"),
            b.jobs[0].numjobs
        ),
        (Some(true), None, 20)
    );
}

#[test]
fn limits_leave_the_option_at_its_default_with_the_limit_stated() {
    let d = decoded("packed=16&rw=write");
    assert_eq!(d.errors.len(), 1, "{:?}", d.errors);
    assert_eq!(d.errors[0].option.as_deref(), Some("packed"));
    assert!(
        d.errors[0].message.contains("chain limit of 8"),
        "{}",
        d.errors[0]
    );
    assert_eq!(
        (d.a.switch::<u32>("packed"), d.a.jobs[0].rw),
        (None, Rw::Write)
    );

    let d = decoded("size=1t&bs=512&b.platform=u300-mmci-2011&b.packed=8&b.bs=1m");
    assert!(
        d.errors
            .iter()
            .any(|e| e.option.as_deref() == Some("size") && e.message.contains("at most")),
        "{:?}",
        d.errors
    );
    assert_eq!(d.a.jobs[0].size, JobSpec::default().size);
    let b = d.b.unwrap();
    assert_eq!(b.platform, "u300-mmci-2011");
    assert!(
        d.errors
            .iter()
            .any(|e| e.option.as_deref() == Some("b.packed") && e.message.contains("no ADMA3")),
        "{:?}",
        d.errors
    );
    assert_eq!(b.switch::<u32>("packed"), None, "left as in A");
}

#[test]
fn several_job_sections_use_job_prefixes() {
    let d = decoded("?platform=unisoc-hsq-2023&job1.name=a&job1.rw=write&job2.name=b&bs=8k&b.job2.rw=randread&b.job2.iodepth=4&b.job2.ioengine=libaio");
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let names: Vec<&str> = d.a.jobs.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!((d.a.jobs[0].rw, d.a.jobs[1].rw), (Rw::Write, Rw::Read));
    assert!(
        d.a.jobs.iter().all(|j| j.bs == 8192),
        "plain job keys apply to every job"
    );
    let b = d.b.unwrap();
    assert_eq!(
        (b.jobs.len(), b.jobs[1].rw, b.jobs[1].outstanding()),
        (2, Rw::RandRead, 4)
    );
    // Percent-encoding: names with reserved characters, '+' as a space.
    let s = Scenario {
        jobs: vec![JobSpec {
            name: "a b&c=d/é".to_string(),
            ..JobSpec::default()
        }],
        ..Scenario::default()
    };
    let q = encode_query(&s, None);
    assert_eq!(q, "name=a%20b%26c%3Dd%2F%C3%A9&randseed=137");
    assert_eq!(decoded(&q).a, s);
    assert_eq!(
        decoded("name=a+b%26c%3Dd%2F%C3%A9").a.jobs[0].name,
        "a b&c=d/é"
    );
}

#[test]
fn empty_values_reset_and_b_can_unset_what_a_sets() {
    let a = Scenario {
        power_cut_ns: Some(50_000_000),
        mmc_test: None,
        ..Scenario::default()
    };
    let b = Scenario::default();
    let q = encode_query(&a, Some(&b));
    assert_eq!(q, "power_cut=50ms&randseed=137&b.power_cut=");
    assert_eq!(decoded(&q).b, Some(b));
}

#[test]
fn output_file_options_are_never_taken_from_a_link_nor_put_in_one() {
    let d = decoded(
        "rw=read&write_iolog=%2Fhome%2Fu%2F.bashrc&job1.write_bw_log=x&b.write_lat_log=y&write_iops_log&writeiolog=z",
    );
    for j in
        d.a.jobs
            .iter()
            .chain(d.b.iter().flat_map(|b| b.jobs.iter()))
    {
        assert_eq!(j.write_iolog, None);
    }
    let named: Vec<String> = d.errors.iter().map(|e| e.to_string()).collect();
    for key in [
        "write_iolog",
        "job1.write_bw_log",
        "b.write_lat_log",
        "write_iops_log",
    ] {
        assert!(
            named
                .iter()
                .any(|e| e.starts_with(&format!("{key}: writes a file"))),
            "{key}: {named:?}"
        );
    }
    assert_eq!(d.a.jobs[0].rw, Rw::Read);
    // A scenario that has them (from a job file) never carries them into its link.
    let mut s = Scenario::default();
    s.jobs[0].write_iolog = Some("/tmp/x.log".to_string());
    let q = encode_query(&s, None);
    assert!(!q.contains("write_iolog"), "{q}");
    let mut b = s.clone();
    b.jobs[0].write_iolog = Some("/tmp/y.log".to_string());
    let q = encode_query(&s, Some(&b));
    assert!(!q.contains("write_iolog"), "{q}");
}
