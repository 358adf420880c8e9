//! The scenario language as a user meets it: fio command lines, job files, error messages, and
//! writing a scenario back out.

use mmcsim_engine::scenario::check;
use mmcsim_engine::scenario::jobfile::{parse_jobfile, to_jobfile};
use mmcsim_engine::scenario::options::{apply_option, parse_args, OptionScope, OPTIONS};
use mmcsim_engine::{HsqDepth, IoEngine, JobSpec, MmcPath, Rw, Scenario};
use proptest::prelude::*;

#[allow(dead_code)]
use crate::common;
use common::generators::arb_scenario;

fn args(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

fn parse(line: &str) -> Result<Scenario, String> {
    parse_args(&args(line), Scenario::default()).map_err(|e| e.to_string())
}

#[test]
fn packed_rfc_command_line() {
    // Baolin Wang's packed-request RFC (2020), as in engine/data/measurements.toml.
    let s = parse(
        "--filename=/dev/mmcblk0p30 --direct=1 --iodepth=20 --rw=randread --bs=4K --size=512M \
         --group_reporting --numjobs=20 --name=test",
    )
    .unwrap();
    assert!(s.group_reporting);
    assert_eq!(s.jobs.len(), 1);
    let j = &s.jobs[0];
    assert_eq!(j.name, "test");
    assert_eq!(j.rw, Rw::RandRead);
    assert_eq!(
        (j.bs, j.size, j.numjobs, j.iodepth),
        (4096, 512 << 20, 20, 20)
    );
    assert_eq!(
        j.ioengine,
        IoEngine::Psync,
        "no ioengine given: fio's default psync"
    );
    assert_eq!(j.outstanding(), 1);
}

#[test]
fn single_dash_command_line() {
    let s = parse(
        "-filename=/dev/mmcblk0p72 -direct=1 -rw=randwrite -bs=4K -size=512M -group_reporting \
         -name=test -numjobs=8 -thread -iodepth=64",
    )
    .unwrap();
    let j = &s.jobs[0];
    assert_eq!(
        (j.name.as_str(), j.rw, j.numjobs, j.iodepth),
        ("test", Rw::RandWrite, 8, 64)
    );
    assert_eq!((j.bs, j.size), (4096, 512 << 20));
    assert!(s.group_reporting);
}

#[test]
fn no_name_gives_one_job_named_job() {
    let s = parse("--rw=write --bs=512k").unwrap();
    assert_eq!(s.jobs.len(), 1);
    assert_eq!((s.jobs[0].name.as_str(), s.jobs[0].bs), ("job", 512 << 10));
}

#[test]
fn globals_before_name_are_inherited_and_job_options_stay_in_their_job() {
    let s = parse("--bs=8k --platform=unisoc-hsq-2023 --name=a --rw=write --name=b --packed=8")
        .unwrap();
    assert_eq!(s.jobs.len(), 2);
    assert_eq!((s.jobs[0].bs, s.jobs[0].rw), (8192, Rw::Write));
    assert_eq!((s.jobs[1].bs, s.jobs[1].rw), (8192, Rw::Read));
    assert_eq!(s.platform, "unisoc-hsq-2023");
    assert_eq!(
        s.switch::<u32>("packed"),
        Some(8),
        "a scenario-wide option in a job section still applies"
    );
}

#[test]
fn host_switches() {
    let s = parse(
        "--mmc_path=legacy --nonblocking=0 --hsq_depth=dynamic --fua=off --cache=1 --mmc_test=39",
    )
    .unwrap();
    assert_eq!(s.switch::<MmcPath>("mmc_path"), Some(MmcPath::Legacy));
    assert_eq!(s.switch::<bool>("nonblocking"), Some(false));
    assert_eq!(s.switch::<HsqDepth>("hsq_depth"), Some(HsqDepth::Dynamic));
    assert_eq!(
        (
            s.switch::<bool>("fua"),
            s.switch::<bool>("cache"),
            s.mmc_test
        ),
        (Some(false), Some(true), Some(39))
    );
}

#[test]
fn job_file_with_global_section() {
    let text = "; the RFC's randread case\n\
                [global]\n\
                filename=/dev/mmcblk0p30\n\
                direct = 1\n\
                bs=4K\n\
                group_reporting\n\
                \n\
                [seq]\n\
                rw=read\n\
                # a comment\n\
                [rand]\n\
                rw=randread\n\
                name=renamed\n\
                numjobs=4\n";
    let s = parse_jobfile(text, Scenario::default()).unwrap();
    assert!(s.group_reporting);
    let names: Vec<_> = s.jobs.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["seq", "renamed"]);
    assert_eq!(
        (s.jobs[1].rw, s.jobs[1].numjobs, s.jobs[1].bs),
        (Rw::RandRead, 4, 4096)
    );
}

#[test]
fn global_after_a_job_only_changes_later_jobs() {
    let s = parse_jobfile("[a]\n[global]\nbs=64k\n[b]\n", Scenario::default()).unwrap();
    assert_eq!((s.jobs[0].bs, s.jobs[1].bs), (4096, 64 << 10));
}

#[test]
fn command_line_options_act_as_globals_for_a_job_file() {
    let base = parse("--bs=16k --platform=u300-mmci-2011").unwrap();
    let s = parse_jobfile("[w]\nrw=write\n", base).unwrap();
    assert_eq!(
        (s.jobs.len(), s.jobs[0].bs, s.platform.as_str()),
        (1, 16384, "u300-mmci-2011")
    );
}

#[test]
fn error_messages() {
    assert_eq!(
        parse("--ioengine=mmap").unwrap_err(),
        "ioengine: 'mmap' is not modelled (the model is a local eMMC block device); accepted: psync, sync, vsync, pvsync, pvsync2, libaio, io_uring, posixaio"
    );
    // An option whose meaning changed is named with what to write now, not taken as an alias.
    let renamed = parse("--bus_cmd_us=3").unwrap_err();
    assert!(
        renamed.starts_with("bus_cmd_us: renamed bus_cmd_fixed_us"),
        "{renamed}"
    );
    // A link or platform file from before the card's program units says what replaced it.
    let replaced = parse("--reliable_write_mb_s=20").unwrap_err();
    assert!(
        replaced.contains("nand_program_us") && replaced.contains("program_unit_kib"),
        "{replaced}"
    );
    assert_eq!(
        parse("--iodeth=4").unwrap_err(),
        "iodeth: unknown option; did you mean 'iodepth'?"
    );
    assert!(parse("--frobnicate=1")
        .unwrap_err()
        .starts_with("frobnicate: unknown option"));
    assert!(parse("--bs=4x")
        .unwrap_err()
        .starts_with("bs: '4x' is not a size"));
    assert!(parse("--bs=")
        .unwrap_err()
        .starts_with("bs: '' is not a size"));
    assert!(parse("--bs=1000").unwrap_err().contains("multiple of 512"));
    assert_eq!(
        parse("--numjobs=0").unwrap_err(),
        "numjobs: '0' is not a number in 1..=256"
    );
    assert!(parse("--rw=randtrimwrite")
        .unwrap_err()
        .contains("random trim+write pairs"));
    assert!(parse("--zonemode=zoned")
        .unwrap_err()
        .contains("not a zone mode; accepted: none, strided, zbd"));
    assert!(parse("--platform=pc")
        .unwrap_err()
        .contains("sprd-hs400es-2020"));
    assert!(parse("--bs").unwrap_err().starts_with("bs: needs a value"));
    assert!(parse("--size=4k --bs=8k")
        .unwrap_err()
        .contains("smaller than the largest block"));
    assert!(parse("stray")
        .unwrap_err()
        .contains("unexpected argument 'stray'"));
    let e = parse_jobfile(
        "[global]\nbs=4k\n\n[x]\nioengine=mmap\n",
        Scenario::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 5: ioengine: 'mmap' is not modelled (the model is a local eMMC block device); accepted: psync, sync, vsync, pvsync, pvsync2, libaio, io_uring, posixaio"
    );
    let e = parse_jobfile("[x\n", Scenario::default()).unwrap_err();
    assert!(e.to_string().starts_with("line 1: "), "{}", e);
}

#[test]
fn apply_option_scopes() {
    let mut s = Scenario::default();
    s.jobs.push(JobSpec {
        name: "b".into(),
        ..JobSpec::default()
    });
    apply_option(&mut s, OptionScope::Global, "bs", Some("8k")).unwrap();
    apply_option(&mut s, OptionScope::Job(1), "rw", Some("write")).unwrap();
    assert_eq!((s.jobs[0].bs, s.jobs[1].bs), (8192, 8192));
    assert_eq!((s.jobs[0].rw, s.jobs[1].rw), (Rw::Read, Rw::Write));
    assert!(apply_option(&mut s, OptionScope::Job(7), "rw", Some("write")).is_err());
    apply_option(
        &mut s,
        OptionScope::Job(0),
        "platform",
        Some("unisoc-fua-2022"),
    )
    .unwrap();
    assert_eq!(s.platform, "unisoc-fua-2022");
}

#[test]
fn every_option_in_the_table_is_accepted_somewhere() {
    for o in OPTIONS {
        let mut s = Scenario::default();
        let sample = [
            "1",
            "8",
            "4k",
            "read",
            "psync",
            "hsq",
            "sprd-hs400es-2020",
            "40",
            "x",
            "crc:0.01",
            "fifo",
        ];
        let ok = sample
            .iter()
            .chain(std::iter::once(&o.example))
            .any(|v| apply_option(&mut s, OptionScope::Global, o.name, Some(v)).is_ok());
        assert!(ok, "option {} accepts none of the samples", o.name);
    }
}

proptest! {
    #![proptest_config(common::proptest_config(256))]
    #[test]
    fn args_round_trip(s in arb_scenario()) {
        prop_assume!(check(&s).is_ok(), "beyond the limits");
        let back = parse_args(&s.to_args(), Scenario::default()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back, s);
    }

    #[test]
    fn jobfile_round_trip(s in arb_scenario()) {
        prop_assume!(check(&s).is_ok(), "beyond the limits");
        let text = to_jobfile(&s);
        let back = parse_jobfile(&text, Scenario::default()).map_err(|e| TestCaseError::fail(format!("{}\n{}", e, text)))?;
        prop_assert_eq!(back, s);
    }

    #[test]
    fn options_round_trip_through_apply_option(s in arb_scenario()) {
        prop_assume!(check(&s).is_ok(), "beyond the limits");
        let mut back = Scenario { jobs: vec![JobSpec::default(); s.jobs.len()], ..Scenario::default() };
        for (scope, k, v) in s.to_options() {
            apply_option(&mut back, scope, &k, Some(&v)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        prop_assert_eq!(back, s);
    }

    #[test]
    fn random_arguments_never_panic(v in prop::collection::vec("[-=a-z_0-9.%,:]{0,16}|\\PC{0,12}", 0..6)) {
        let _ = parse_args(&v, Scenario::default());
        for a in &v {
            if let Some((k, val)) = a.split_once('=') {
                let _ = parse_args(&[format!("--{}={}", k, val)], Scenario::default());
            }
        }
    }

    #[test]
    fn random_values_never_panic(i in 0..OPTIONS.len(), v in "\\PC{0,24}|[0-9]{15,30}[kmgt]?|[0-9.]{1,8}[a-z]{0,4}|[0-9]{0,40}\\.[0-9]{0,40}(k|m|g|t|d|h|s|ms)?") {
        let _ = apply_option(&mut Scenario::default(), OptionScope::Global, OPTIONS[i].name, Some(&v));
        let _ = apply_option(&mut Scenario::default(), OptionScope::Job(0), OPTIONS[i].name, None);
    }

    #[test]
    fn random_job_files_never_panic(t in "(\\[[a-z]{0,4}\\]?|[a-z_]{1,9}(=[0-9a-z]{0,5})?|;.*|)(\n(\\[[a-z]{0,4}\\]?|[a-z_]{1,9}(=[0-9a-z]{0,5})?|\\PC{0,9}))*") {
        let _ = parse_jobfile(&t, Scenario::default());
    }
}
