//! `mmc_path=cqe` on a board whose kernel or card cannot queue commands (`board/cq.rs`): one
//! warning naming why, and the run is the one that kernel runs (the legacy path), figure for
//! figure. Where the kernel and card can, the CQE runs and nothing is said.

use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::scenario::warnings;
use mmcsim_engine::{Scenario, Simulator};

fn scenario(board: &[&str], path: &str) -> Scenario {
    let mut args = board.to_vec();
    let path = format!("--mmc_path={path}");
    args.extend_from_slice(&[
        &path,
        "--name=x",
        "--rw=randrw",
        "--bs=4k",
        "--size=2m",
        "--ioengine=libaio",
        "--iodepth=8",
    ]);
    parse_args(&args, Scenario::default()).unwrap()
}

/// (simulated ns, events, interrupts) of a run.
fn run(scn: &Scenario) -> (u64, u64, u64) {
    let mut sim = Simulator::new(scn).unwrap();
    while sim.step() {}
    let r = sim.report();
    (r.sim.simulated_ns, r.sim.events, r.sim.interrupts)
}

/// The CQE warning of a board with `mmc_path=cqe`, if any.
fn cq_warning(board: &[&str]) -> Option<String> {
    warnings(&scenario(board, "cqe"))
        .into_iter()
        .find(|w| w.starts_with("mmc_path: cqe not run"))
}

#[test]
fn a_kernel_or_card_that_cannot_queue_runs_the_legacy_path_and_says_why() {
    for (board, why) in [
        (
            &["--platform=u300-mmci-2011"][..],
            "Linux 3.0 has no command queueing",
        ),
        (
            &["--platform=qemu-sdhci-pci"][..],
            "has no command queue (cmdq_depth=0)",
        ),
        (
            &["--platform=rpi5-sd-2024", "--kernel=6.1"][..],
            "no SD command queueing",
        ),
        (
            &["--platform=rpi5-sd-2024", "--cache=0"][..],
            "only with its write cache on",
        ),
        (
            &["--platform=rpi5-sd-2024", "--card_cache_kib=0"][..],
            "only with its write cache on",
        ),
        (
            &["--platform=sprd-hs400es-2020", "--cmdq_depth=0"][..],
            "the eMMC has no command queue",
        ),
    ] {
        let w = cq_warning(board).unwrap_or_else(|| panic!("{board:?}: no warning"));
        assert!(
            w.contains(why) && w.contains("running mmc_path=legacy"),
            "{board:?}: {w}"
        );
        assert_eq!(
            run(&scenario(board, "cqe")),
            run(&scenario(board, "legacy")),
            "{board:?}: the refused CQE is not the legacy run"
        );
    }
}

#[test]
fn a_kernel_and_card_that_can_queue_run_the_cqe_without_a_word() {
    for board in [
        &["--platform=sprd-hs400es-2020"][..],
        &["--platform=rpi5-sd-2024"][..],
        // The 2011 board's what-if on a kernel that has the CQE.
        &["--platform=u300-mmci-2011", "--kernel=4.15"][..],
        // QEMU's card given a queue and a cache, on a Raspberry Pi kernel's version.
        &[
            "--platform=qemu-sdhci-pci",
            "--cmdq_depth=31",
            "--kernel=6.6",
            "--cache=1",
            "--card_cache_kib=1024",
        ][..],
    ] {
        assert_eq!(cq_warning(board), None, "{board:?}");
        assert_ne!(
            run(&scenario(board, "cqe")),
            run(&scenario(board, "legacy")),
            "{board:?}: the CQE ran as the legacy path"
        );
    }
}
