//! Issue 48, items 9 and 10 (the rest of them; `issue48.rs` has the first): an option that
//! changes nothing is named in one warning with its value and why, a value no run can use is
//! refused with the accepted range.

use mmcsim_engine::scenario::options::{parse_args, ScenarioBuilder};
use mmcsim_engine::scenario::{warnings, what_ifs, Scenario};

/// The warnings of the command line `line`, one per line.
fn warned(line: &str) -> String {
    let a: Vec<&str> = line.split_whitespace().collect();
    let scn = parse_args(&a, Scenario::default()).unwrap_or_else(|e| panic!("{e}"));
    warnings(&scn).join("\n")
}

/// Item 9: `fs=f2fs` without a sync or an fsync, and `fs=f2fs-atomic` on reads, go through
/// nothing of F2FS's (its `f2fs_do_sync_file` never runs): said, with what would act.
#[test]
fn an_f2fs_that_never_syncs_is_named() {
    let w = warned("--name=a --rw=write --bs=4k --size=64k --fs=f2fs");
    assert!(
        w.contains("fs=f2fs: no effect in job 'a': its writes are neither O_SYNC nor fsynced, and F2FS's sync path (f2fs_do_sync_file) never runs; accepted with effect: "),
        "{w}"
    );
    let w = warned("--name=r --rw=randread --bs=4k --size=64k --fs=f2fs-atomic --sync=1");
    assert!(
        w.contains("fs=f2fs-atomic: no effect in job 'r': it does not write"),
        "{w}"
    );
    for acts in ["--sync=1", "--fsync=4", "--fdatasync=1", "--end_fsync=1"] {
        let line = format!("--name=a --rw=write --bs=4k --size=64k --fs=f2fs {acts}");
        assert!(!warned(&line).contains("fs=f2fs"), "{line}");
    }
}

/// Item 9: kyber and bfq on a kernel before 4.12 (`--kernel=3.0`) run a scheduler that kernel
/// did not have: a what-if, as hsq before 5.8 is; from 4.12 on, none.
#[test]
fn a_scheduler_newer_than_the_kernel_is_a_what_if() {
    let ifs = |line: &str| {
        let a: Vec<&str> = line.split_whitespace().collect();
        let scn = parse_args(&a, Scenario::default()).unwrap();
        what_ifs(&scn).iter().map(|w| w.line()).collect::<Vec<_>>()
    };
    let base = "--platform=rpi5-sd-2024 --name=a --size=64k";
    for (s, since) in [("kyber", "4.11"), ("bfq", "4.9")] {
        let w = ifs(&format!("{base} --kernel={since} --ioscheduler={s}"));
        let line = w
            .iter()
            .find(|l| l.starts_with(&format!("ioscheduler={s} — ")));
        let line = line.unwrap_or_else(|| panic!("{s}: {w:?}"));
        assert!(line.contains(&format!("{s} came to mainline in Linux 4.12")));
        let w = ifs(&format!("{base} --kernel=4.12 --ioscheduler={s}"));
        assert!(!w.iter().any(|l| l.starts_with("ioscheduler=")), "{w:?}");
    }
}

/// Item 9: `ss_interval=0` became 1 ms silently; below 1 ms is refused with the range.
#[test]
fn a_steady_state_interval_below_a_millisecond_is_refused() {
    for v in ["0", "500us"] {
        let a = ["--name=a", "--ss=iops:1%", &format!("--ss_interval={v}")];
        let e = parse_args(&a, Scenario::default()).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("ss_interval: '{v}' is shorter than 1ms; accepted: a time from 1ms up to 24h of simulated time")
        );
    }
    parse_args(&["--name=a", "--ss_interval=1ms"], Scenario::default()).unwrap();
}

/// Item 9: a second `[global]` that changes the platform changes the jobs before it too (the
/// platform is one for the run): said, as a later job section's is.
#[test]
fn a_later_global_changing_the_platform_is_named() {
    let text = "[global]\nplatform=qemu-sdhci-pci\n[a]\nsize=64k\n\
                [global]\nplatform=rpi5-sd-2024\n[b]\nsize=64k\n";
    let mut b = ScenarioBuilder::new(Scenario::default());
    b.jobfile(text).unwrap();
    let n = b.notices().join("\n");
    assert!(
        n.contains("platform: set in a [global] after job section 'a' to another value; it is one setting for the whole run, so it changes the jobs before it too"),
        "{n}"
    );
    // The same value again changes nothing: no notice.
    let same = text.replace("rpi5-sd-2024", "qemu-sdhci-pci");
    let mut b = ScenarioBuilder::new(Scenario::default());
    b.jobfile(&same).unwrap();
    assert!(b.notices().is_empty(), "{:?}", b.notices());
}
