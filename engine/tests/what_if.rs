//! The what-ifs a scenario runs (`scenario::what_ifs`): what no kernel runs, per switch and
//! preset, and where the fio outputs say so.

use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::scenario::what_ifs;
use mmcsim_engine::{Scenario, PLATFORMS};

fn scn(args: &[&str]) -> Scenario {
    let mut all = vec!["--name=t", "--rw=randwrite", "--bs=4k", "--size=1m"];
    all.extend_from_slice(args);
    parse_args(&all, Scenario::default()).unwrap()
}

/// The settings of the what-ifs in effect.
fn settings(args: &[&str]) -> Vec<String> {
    what_ifs(&scn(args))
        .into_iter()
        .map(|w| w.setting)
        .collect()
}

#[test]
fn every_preset_as_it_is_runs_no_what_if_but_the_patch_it_measured() {
    for p in PLATFORMS {
        // unisoc-hsq-2023 measured the dynamic depth as a patch on 6.6 (mainline: 6.7).
        let measured: &[&str] = match p.name {
            "unisoc-hsq-2023" => &["hsq_depth=dynamic"],
            _ => &[],
        };
        assert_eq!(
            settings(&[&format!("--platform={}", p.name)]),
            measured,
            "{}",
            p.name
        );
    }
}

/// The one what-if `args` run: its setting must be `setting` and its reason name `names`.
fn the_one(args: &[&str], setting: &str, names: &str) {
    let w = what_ifs(&scn(args));
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].setting, setting);
    assert!(w[0].reason.contains(names), "{}", w[0].reason);
}

#[test]
fn packed_chains_are_the_2020_rfc() {
    the_one(
        &["--platform=sprd-hs400es-2020", "--packed=8"],
        "packed=8",
        "a 2020 RFC (ADMA3), never merged",
    );
}

#[test]
fn an_hsq_window_other_than_the_kernels_is_one() {
    // The 2020 RFC's "window only" side: 64 requests with no chains.
    assert_eq!(
        settings(&["--packed=0", "--hsq_depth=63"]),
        ["hsq_depth=63"]
    );
    assert!(settings(&["--hsq_depth=2"]).is_empty());
    // The dynamic depth is 6.7's (the default board runs 5.8): a what-if before it.
    assert_eq!(settings(&["--hsq_depth=dynamic"]), ["hsq_depth=dynamic"]);
    assert!(settings(&["--hsq_depth=dynamic", "--kernel=6.12"]).is_empty());
    // With chains, the window is the RFC's: one what-if, the chains.
    assert_eq!(settings(&["--packed=8", "--hsq_depth=5"]), ["packed=8"]);
}

#[test]
fn fua_off_is_the_2022_host_switch_on_an_emmc_with_reliable_write() {
    the_one(
        &["--platform=unisoc-fua-2022", "--fua=0", "--sync=1"],
        "fua=0",
        "MMC_QUIRK_AVOID_REL_WRITE",
    );
    // An SD card has no reliable write: no kernel advertises FUA for it.
    assert!(settings(&["--platform=rpi5-sd-2024", "--fua=0", "--sync=1"]).is_empty());
    assert!(settings(&["--platform=unisoc-fua-2022", "--fua=1", "--sync=1"]).is_empty());
}

#[test]
fn several_posted_writes_on_sd_are_the_march_2024_rule() {
    let rpi = ["--platform=rpi5-sd-2024", "--mmc_path=cqe"];
    assert!(
        settings(&rpi).is_empty(),
        "the June 2024 rule is the Raspberry Pi kernel's"
    );
    the_one(
        &[rpi[0], rpi[1], "--max_posted_writes=31"],
        "max_posted_writes=31",
        "PR #6235",
    );
    // Reads only: the limit acts on nothing, so it is not said.
    assert!(settings(&[rpi[0], rpi[1], "--max_posted_writes=31", "--rw=randread"]).is_empty());
    // Without command queueing the limit has no effect.
    assert!(settings(&["--platform=rpi5-sd-2024", "--max_posted_writes=31"]).is_empty());
    // A kernel before 6.6 cannot queue on SD: it runs legacy, no what-if.
    assert!(settings(&[rpi[0], rpi[1], "--max_posted_writes=31", "--kernel=6.1"]).is_empty());
    // On eMMC (a driver with cqhci), a limit below the queue is no kernel's.
    let emmc = [
        "--platform=unisoc-hsq-2023",
        "--mmc_path=cqe",
        "--host_driver=sdhci-brcmstb",
    ];
    assert!(settings(&emmc).is_empty());
    assert_eq!(
        settings(&[emmc[0], emmc[1], emmc[2], "--max_posted_writes=1"]),
        ["max_posted_writes=1"]
    );
}

#[test]
fn mmc_test_runs_no_what_if() {
    assert!(settings(&["--packed=8", "--mmc_test=37"]).is_empty());
}

#[test]
fn the_outputs_name_them_and_leave_them_out_when_there_are_none() {
    let run = |args: &[&str]| {
        let s = scn(args);
        let rep = mmcsim_engine::run(&s).unwrap();
        (
            mmcsim_engine::export::normal::render(&s, &rep),
            mmcsim_engine::export::fio_json(&s, &rep),
        )
    };
    let (normal, json) = run(&["--packed=8", "--fua=0", "--sync=1"]);
    let first: Vec<&str> = normal.lines().take(2).collect();
    assert!(
        first[0].starts_with("what-if: packed=8 — a 2020 RFC (ADMA3), never merged"),
        "{normal}"
    );
    assert!(
        first[1].starts_with("what-if: fua=0 — a 2022 patch, never merged"),
        "{normal}"
    );
    let j: serde_json::Value = serde_json::from_str(&json).unwrap();
    let w = &j["jobs"][0]["mmcsim"]["what_if"];
    assert_eq!(w[0]["setting"], "packed=8");
    assert_eq!(w[1]["setting"], "fua=0");
    let (normal, json) = run(&[]);
    assert!(!normal.contains("what-if"));
    assert!(!json.contains("what_if"));
}

/// The FUA switch acts only on a write carrying REQ_FUA: where none does, its what-if is not
/// said (it changes nothing), and the switch given is named as without effect.
#[test]
fn fua_off_is_a_what_if_only_where_a_write_carries_req_fua() {
    let fua = |extra: &[&str]| {
        let mut a = vec!["--platform=unisoc-fua-2022", "--fua=0"];
        a.extend_from_slice(extra);
        settings(&a).contains(&"fua=0".to_string())
    };
    // O_SYNC on the raw device (blkdev_write_iter) and f2fs's atomic commit (__write_node_page).
    assert!(fua(&["--sync=1"]));
    assert!(fua(&["--fs=f2fs-atomic", "--fsync=1"]));
    // No O_SYNC, only reads, or f2fs_do_sync_file (no REQ_FUA): the switch changes nothing.
    assert!(!fua(&[]));
    assert!(!fua(&["--sync=1", "--rw=randread"]));
    assert!(!fua(&["--sync=1", "--fs=f2fs"]));
    let w = mmcsim_engine::scenario::warnings(&scn(&[
        "--platform=unisoc-fua-2022",
        "--fua=0",
        "--sync=1",
        "--fs=f2fs",
    ]));
    assert!(
        w.iter()
            .any(|w| w.starts_with("fua: no effect: no write of this run carries REQ_FUA")),
        "{w:?}"
    );
}

/// `mmc_path=cqe` on a board whose host driver never calls `cqhci_init` is a what-if naming
/// the driver, on every such preset: as it is where its kernel and card can queue, else with a
/// kernel and card that can (where they cannot, `cq.rs` refuses it: the board runs legacy).
#[test]
fn cqe_on_every_driver_without_cqhci_is_a_what_if_naming_it() {
    for p in PLATFORMS {
        let mut args = vec![
            format!("--platform={}", p.name),
            "--mmc_path=cqe".to_string(),
        ];
        if p.cq_refusal().is_some() {
            let k = if p.card.sd { "6.6" } else { "6.1" };
            for a in [
                &format!("--kernel={k}"),
                "--cmdq_depth=16",
                "--card_cache_kib=1024",
            ] {
                args.push(a.to_string());
            }
            args.push("--cache=1".to_string());
        }
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let w = what_ifs(&scn(&a));
        let cqe = w.iter().find(|w| w.setting == "mmc_path=cqe");
        match p.driver.cqhci_missing(p.kernel) {
            Some(_) => {
                let reason = cqe.map(|w| w.reason).unwrap_or_default();
                assert!(
                    reason.contains(p.driver.name()) && reason.contains("cqhci_init"),
                    "{}: {w:?}",
                    p.name
                );
            }
            None => assert_eq!(cqe, None, "{}: its driver has cqhci", p.name),
        }
    }
    // The case: sdhci-sprd runs hsq, never a CQE.
    the_one(
        &["--platform=unisoc-hsq-2023", "--mmc_path=cqe"],
        "mmc_path=cqe",
        "sdhci-sprd has no CQE (no cqhci_init): mainline runs hsq",
    );
    // Another driver stated for the board: sdhci-brcmstb has cqhci from Linux 5.6.
    let brcm = [
        "--platform=unisoc-fua-2022",
        "--mmc_path=cqe",
        "--host_driver=sdhci-brcmstb",
    ];
    assert!(settings(&brcm).is_empty());
    the_one(
        &[brcm[0], brcm[1], brcm[2], "--kernel=5.4"],
        "mmc_path=cqe",
        "Linux 5.6",
    );
}

#[test]
fn hsq_on_a_driver_without_mmc_hsq_init_is_a_what_if() {
    the_one(
        &["--platform=rpi5-sd-2024", "--mmc_path=hsq"],
        "mmc_path=hsq",
        "no mmc_hsq_init",
    );
    // Allwinner's BSP had hsq (the 2022 measurements); mainline's sunxi-mmc has none.
    the_one(
        &["--platform=allwinner-hsq-2022", "--mmc_path=hsq"],
        "mmc_path=hsq",
        "Allwinner's Android BSP",
    );
}

#[test]
fn an_unknown_host_driver_is_refused_naming_the_accepted_ones() {
    let e = parse_args(
        &["--name=t", "--host_driver=sdhci-msm"],
        Scenario::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("'sdhci-msm' is not a host driver")
            && e.contains("sdhci-sprd, sunxi-mmc, sdhci-brcmstb, mmci, sdhci-pci"),
        "{e}"
    );
}

/// hsq's dynamic depth differs from a fixed window of 2 only while 4 KiB writes are queued
/// (`mmc_hsq_modify_threshold`): its what-if (and a fixed 2's under 6.12) is said only there.
#[test]
fn the_depth_rule_is_a_what_if_only_where_4k_writes_are_queued() {
    let hsq23 = |extra: &[&str]| {
        let mut a = vec!["--platform=unisoc-hsq-2023"];
        a.extend_from_slice(extra);
        settings(&a)
    };
    assert_eq!(hsq23(&[]), ["hsq_depth=dynamic"]);
    assert!(hsq23(&["--rw=randread"]).is_empty());
    assert!(hsq23(&["--bs=64k"]).is_empty());
    assert_eq!(hsq23(&["--bsrange=512-64k"]), ["hsq_depth=dynamic"]);
    assert_eq!(hsq23(&["--kernel=6.12", "--hsq_depth=2"]), ["hsq_depth=2"]);
    assert!(hsq23(&["--kernel=6.12", "--hsq_depth=2", "--rw=read"]).is_empty());
    // A window no kernel has acts on any run.
    assert_eq!(hsq23(&["--hsq_depth=8", "--rw=randread"]), ["hsq_depth=8"]);
}
