//! What the components' tests share.

use mmcsim_engine::{JobSpec, Rw, Scenario};

/// 20 jobs of 4 KiB `rw` over 1 MiB each on sprd-hs400es-2020, `packed` requests per ADMA3
/// chain (0: off): a busy queue with and without packing.
pub(crate) fn twenty_jobs(rw: Rw, packed: u32) -> Scenario {
    let mut scn = Scenario {
        platform: "sprd-hs400es-2020".into(),
        ..Scenario::default()
    };
    scn.set_switch::<u32>("packed", Some(packed));
    scn.jobs = vec![JobSpec {
        name: "t".into(),
        rw,
        bs: 4096,
        size: 1 << 20,
        numjobs: 20,
        ..JobSpec::default()
    }];
    scn
}
