//! What "Watch the pipeline" says around the animation: B of an A/B comparison and the first
//! B to suggest, the short description of a side's host switches, and what to watch for in a
//! scenario.
//!
//! Plain logic, no browser code, so it builds natively. The watched simulations themselves are
//! [`crate::run::session::Session`]s on the shared clock of [`crate::watch::clock`].

use mmcsim_engine::scenario::board::switch_values;
use mmcsim_engine::{
    HostConfig, HsqDepth, MmcPath, Overrides, Rw, Scenario, HSQ_NORMAL_DEPTH,
    HSQ_PACKED_QUEUE_DEPTH, HSQ_PERFORMANCE_DEPTH,
};

/// A first B side for a scenario: the host change its platform's patch series measured, flipped
/// against A: the series' own where it names one (`SeriesData::suggest_b`: FUA, dynamic hsq
/// depth), else the path's (non-blocking requests on legacy, packed chains where the
/// controller chains, else CQE). B's overrides: A's host switches with that flip, no board.
pub fn suggest_b(a: &Scenario) -> Overrides {
    let mut b = a.clone();
    b.clear_board();
    let Ok(cfg) = a.effective_platform().map(|p| p.switches) else {
        return b.overrides;
    };
    let max_packed = a.platform().map(|p| p.host.max_packed).unwrap_or(0);
    if crate::series::suggest_b(&a.platform, &cfg, &mut b) {
        return b.overrides;
    }
    match cfg.mmc_path {
        MmcPath::Legacy => b.set_switch("nonblocking", Some(!cfg.nonblocking)),
        MmcPath::Hsq if max_packed > 0 => {
            b.set_switch("packed", Some(if cfg.packed > 0 { 0 } else { max_packed }))
        }
        _ => b.set_switch(
            "mmc_path",
            Some(if cfg.mmc_path == MmcPath::Cqe {
                MmcPath::Hsq
            } else {
                MmcPath::Cqe
            }),
        ),
    }
    b.overrides
}

/// What a side says under its pipeline, one line each: each what-if it runs (what no kernel
/// runs, with what mainline does instead: the engine's `what_ifs`, the CLI's `what-if:` lines),
/// then each option without effect in it (the engine's `warnings`, the Lab's list, the CLI's
/// `mmcsim: warning:` lines). Empty when there is none. One text for one element.
pub fn side_notes(scn: &Scenario) -> String {
    let mut out = String::new();
    for w in mmcsim_engine::scenario::what_ifs(scn) {
        out.push_str("\nwhat-if: ");
        out.push_str(&w.line());
    }
    // The landing's build (its tours, no links) says the one warning its B can meet in words
    // of its own: the refusal's reasons (`Platform::cq_refusal`) would cost its wasm about
    // 200 bytes at its size bar. The whole page says every warning in full.
    #[cfg(feature = "full")]
    let warnings = mmcsim_engine::scenario::warnings(scn);
    #[cfg(not(feature = "full"))]
    let warnings: &[&str] = if scn.switch::<MmcPath>("mmc_path") == Some(MmcPath::Cqe)
        && scn
            .effective_platform()
            .is_ok_and(|p| p.switches.mmc_path != MmcPath::Cqe)
    {
        &["mmc_path: cqe not run: this board's kernel or card cannot queue commands; running mmc_path=legacy"]
    } else {
        &[]
    };
    for w in warnings.iter() {
        out.push_str("\nwarning: ");
        out.push_str(w.as_ref());
    }
    out.split_off(out.len().min(1))
}

/// "hsq · packed=8 · fua=0" style description of a side's host switches: the switches that
/// matter on its path, each written by its option row's codec.
pub fn host_label(c: &HostConfig) -> String {
    let values = switch_values(c);
    let text = |name: &str| {
        values
            .iter()
            .find(|(n, _)| *n == name)
            .map_or("", |(_, v)| v.as_str())
    };
    let on_path: &[&str] = match c.mmc_path {
        MmcPath::Hsq if c.packed == 0 => &["packed", "hsq_depth"],
        MmcPath::Hsq => &["packed"],
        MmcPath::Legacy => &["nonblocking"],
        MmcPath::Cqe => &[],
    };
    let mut out = text("mmc_path").to_string();
    for name in on_path {
        out += &format!(" · {name}={}", text(name));
    }
    // The window the pipeline's window column counts against, beside the switch that sets it
    // (`mmc_mq_queue_rq` refuses once in_flight is above hsq_depth: the window is one more).
    match (c.mmc_path, c.packed, c.hsq_depth) {
        (MmcPath::Hsq, 0, HsqDepth::Fixed(d)) => out += &format!(" (window {})", d + 1),
        (MmcPath::Hsq, 0, HsqDepth::Dynamic) => {
            out += &format!(
                " (window {} or {})",
                HSQ_NORMAL_DEPTH + 1,
                HSQ_PERFORMANCE_DEPTH + 1
            )
        }
        (MmcPath::Hsq, _, _) => out += &format!(" (window {HSQ_PACKED_QUEUE_DEPTH})"),
        _ => {}
    }
    if c.mmc_path == MmcPath::Cqe {
        out += " (what-if)";
    }
    out + &format!(" · fua={}", text("fua"))
}

/// Every host switch as `name=value`, in the option table's order (the order of
/// `HostConfig`), written by its row's codec.
fn switch_texts(c: &HostConfig) -> Vec<String> {
    switch_values(c)
        .into_iter()
        .map(|(name, v)| format!("{name}={v}"))
        .collect()
}

/// The side labels of an A/B pair: each side's [`host_label`], plus every switch that differs
/// between A and B and the label does not show (the FIFO pair differs only in `hsq_dispatch`).
pub fn host_labels(a: &HostConfig, b: &HostConfig) -> (String, String) {
    let (la, lb) = (host_label(a), host_label(b));
    let (ta, tb) = (switch_texts(a), switch_texts(b));
    // The label writes the path as its bare name ("hsq · packed=8").
    // A switch's part may carry the window it sets ("packed=8 (window 64)").
    let shown = |l: &str, t: &str| {
        l.split(" · ")
            .map(|p| p.split(" (").next().unwrap_or(p))
            .any(|p| p == t || t.strip_prefix("mmc_path=") == Some(p))
    };
    let mut out = (la.clone(), lb.clone());
    for (x, y) in ta.iter().zip(&tb).filter(|(x, y)| x != y) {
        if !shown(&la, x) {
            out.0 += &format!(" · {x}");
        }
        if !shown(&lb, y) {
            out.1 += &format!(" · {y}");
        }
    }
    out
}

/// What to watch for in this scenario, in plain words: where in the pipeline view the effect
/// of its host switches shows. (The engine's `explain` texts say what each layer is; these say
/// where to look.)
pub fn watch_hints(scn: &Scenario, cfg: &HostConfig) -> Vec<String> {
    let writes = scn
        .jobs
        .iter()
        .any(|j| !matches!(j.rw, Rw::Read | Rw::RandRead));
    let sync_writes = scn
        .jobs
        .iter()
        .any(|j| j.sync && !matches!(j.rw, Rw::Read | Rw::RandRead));
    let small_writes = scn
        .jobs
        .iter()
        .any(|j| j.bs <= 4096 && !matches!(j.rw, Rw::Read | Rw::RandRead));
    let mut out = Vec::new();
    match cfg.mmc_path {
        MmcPath::Hsq if cfg.packed > 0 => out.push(format!(
            "Packed: hsq hands the SDHCI controller up to {} requests as one ADMA3 chain (a CMD descriptor and an \
             ADMA2 table each). They cross the bus one after another, then a single interrupt (the IRQ lamp) \
             completes them all: one software pass per chain instead of per request, so the bus strip has \
             few idle gaps.",
            cfg.packed
        )),
        MmcPath::Hsq => {
            out.push(
                "One request at a time leaves its hsq slot for the bus. Each completion interrupt runs the software \
                 that finishes it and pumps the next (mmc_hsq_finalize_request, mmc_hsq_pump_requests): the \
                 orange stretches on the host CPU row are the idle gaps on the bus row."
                    .to_string(),
            );
            if cfg.hsq_depth == HsqDepth::Dynamic {
                out.push(if small_writes {
                    "Dynamic depth: while at least two queued slots hold 4 KiB writes, mmc_hsq_modify_threshold raises \
                     hsq_depth to 5, so the mmc queue window widens from 3 to 6 (watch the window column flash)."
                        .to_string()
                } else {
                    "Dynamic depth only changes for 4 KiB writes: with this workload the window stays at 3.".to_string()
                });
            }
        }
        MmcPath::Legacy => out.push(if cfg.nonblocking {
            "Legacy, non-blocking: the next request is prepared (dma_map_sg) while the current one is on the bus, \
             so only the map/unmap time is hidden; the card still serves one request at a time."
                .to_string()
        } else {
            "Legacy, blocking: map, transfer, wait, unmap, then the next request: one request in the whole host path."
                .to_string()
        }),
        MmcPath::Cqe => out.push(
            "CQE is a what-if: none of the measured patch series used command queueing. Tasks queue on the card (as many \
             as the CQE's tags) and run back to back without host software between them; one interrupt finishes every \
             task done. On an eMMC a flush is queued beside them (DCMD); on an SD card, as the Raspberry Pi kernel runs \
             it, one write is in the card at a time and a flush waits for the queue to empty."
                .to_string(),
        ),
    }
    if sync_writes && cfg.fua {
        out.push(
            "FUA: each synchronous write goes out as a reliable write (diamond). The card holds DAT0 busy until the \
             data is programmed into NAND (long card-busy stretches in the bus strip), and nothing else can use \
             the bus meanwhile."
                .to_string(),
        );
    } else if sync_writes && cfg.cache {
        out.push(
            "FUA is off: the block layer sends each synchronous write into the card's cache, then a cache flush \
             (triangle, same I/O), and completes the write only after the flush: as durable as a reliable write, \
             at the cost of a write plus a flush."
                .to_string(),
        );
    } else if writes && cfg.cache {
        out.push("Writes land in the card's volatile cache and are programmed to NAND in the background.".to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::pair::b_scenario;
    use crate::run::test_support::scenario;

    #[test]
    fn b_starts_as_the_change_the_platforms_series_measured() {
        assert_eq!(suggest_b(&scenario(&[])).get("packed"), Some(&8));
        assert_eq!(
            suggest_b(&scenario(&[("packed", "8")])).get("packed"),
            Some(&0)
        );
        let fua = scenario(&[("platform", "unisoc-fua-2022"), ("fua", "1")]);
        assert_eq!(suggest_b(&fua).get("fua"), Some(&0));
        let b = b_scenario(&fua, &suggest_b(&fua));
        assert_eq!(
            (b.jobs.clone(), b.platform.clone()),
            (fua.jobs, fua.platform)
        );
    }

    #[test]
    fn host_labels_name_the_switches_of_the_path() {
        let cfg = |opts: &[(&str, &str)]| scenario(opts).effective_platform().unwrap().switches;
        let packed = host_label(&cfg(&[("packed", "8")]));
        assert!(
            packed.starts_with("hsq · packed=8 (window 64) · fua="),
            "{packed}"
        );
        let dynamic = host_label(&cfg(&[("packed", "0"), ("hsq_depth", "dynamic")]));
        assert!(
            dynamic.starts_with("hsq · packed=0 · hsq_depth=dynamic (window 3 or 6) · fua="),
            "{dynamic}"
        );
        let two = host_label(&cfg(&[("packed", "0"), ("hsq_depth", "2")]));
        assert!(two.contains("hsq_depth=2 (window 3)"), "{two}");
        let fifo = cfg(&[("hsq_dispatch", "fifo")]);
        let next_tag = cfg(&[("hsq_dispatch", "next_tag")]);
        let (la, lb) = host_labels(&next_tag, &fifo);
        assert!(la.ends_with(" · hsq_dispatch=next_tag"), "{la}");
        assert!(lb.ends_with(" · hsq_dispatch=fifo"), "{lb}");
        let (pa, pb) = host_labels(&cfg(&[("packed", "0")]), &cfg(&[("packed", "8")]));
        assert!(
            !pa.contains("hsq_dispatch") && !pb.contains("hsq_dispatch"),
            "{pa} / {pb}"
        );
        // A switch shown with its window is not named again.
        assert_eq!(pb.matches("packed=8").count(), 1, "{pb}");
        assert_eq!(pa.matches("packed=0").count(), 1, "{pa}");
        let legacy = host_label(&cfg(&[("mmc_path", "legacy")]));
        assert!(legacy.starts_with("legacy · nonblocking="), "{legacy}");
    }

    #[test]
    fn a_side_says_its_what_ifs_then_its_warnings() {
        let packed = side_notes(&scenario(&[("packed", "8")]));
        assert!(
            packed.starts_with("what-if: packed=8 — a 2020 RFC (ADMA3), never merged"),
            "{packed}"
        );
        assert_eq!(packed.lines().count(), 1, "{packed}");
        // A board whose kernel cannot queue: the side runs legacy and says why.
        let cqe = side_notes(&scenario(&[
            ("platform", "qemu-sdhci-pci"),
            ("mmc_path", "cqe"),
        ]));
        assert_eq!(
            cqe,
            "warning: mmc_path: cqe not run: the SD card has no command queue (cmdq_depth=0); running mmc_path=legacy, what that kernel runs"
        );
        let both = side_notes(&scenario(&[("packed", "8"), ("nonblocking", "1")]));
        let lines: Vec<&str> = both.lines().collect();
        assert_eq!(lines.len(), 2, "{both}");
        assert!(lines[0].starts_with("what-if: packed=8"), "{both}");
        assert!(
            lines[1].starts_with("warning: nonblocking: no effect"),
            "{both}"
        );
        assert_eq!(side_notes(&scenario(&[])), "");
        // Issue 47: a path the board's host driver cannot run is a what-if on the Watch too.
        let cqe = side_notes(&scenario(&[
            ("platform", "unisoc-hsq-2023"),
            ("mmc_path", "cqe"),
        ]));
        assert!(
            cqe.starts_with("what-if: mmc_path=cqe — sdhci-sprd has no CQE (no cqhci_init)"),
            "{cqe}"
        );
    }
}
