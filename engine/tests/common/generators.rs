//! The proptest generators of random scenarios, shared by the option, job file and link round
//! trips (`scenario_parse.rs`, `url.rs`). One copy, covering what each file's own copy covered:
//! job names with the characters a link must escape (space, `&`, `=`, `%`, `+`), blocks up to
//! 128 KiB, up to 16 clones, packed up to 16, every fixed hsq depth.

use mmcsim_engine::scenario::board;
use mmcsim_engine::scenario::{ErrorInjection, ErrorKind};
use mmcsim_engine::{HsqDepth, HsqDispatch, IoEngine, JobSpec, MmcPath, Rw, Scenario, Simulator};
use proptest::prelude::*;

/// A job section: any name (letters first, then the characters a link escapes), pattern, mix,
/// block size (512 B steps up to 128 KiB), region, clones, depth, engine, runtime, switches.
pub fn arb_job() -> impl Strategy<Value = JobSpec> {
    (
        (
            "[a-z][a-z0-9_. &=%+-]{0,11}",
            0usize..5,
            0u32..=100,
            1u64..=256,
            1u64..=64,
        ),
        (
            1u32..=16,
            1u32..=64,
            0usize..4,
            prop::option::of(1u64..=600_000_000_000u64),
        ),
        (
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            0u32..100,
            0u64..(1u64 << 31),
        ),
    )
        .prop_map(
            |(
                (name, rw, mix, bs, blocks),
                (numjobs, iodepth, eng, runtime),
                (tb, direct, sync, fsync, off),
            )| {
                let bs = bs * 512;
                JobSpec {
                    name: name.trim().to_string(),
                    rw: Rw::ALL[rw],
                    rwmixread: mix,
                    bs,
                    size: bs * blocks,
                    numjobs,
                    iodepth,
                    ioengine: IoEngine::ALL[eng],
                    runtime_ns: runtime,
                    time_based: tb && runtime.is_some(),
                    direct,
                    sync,
                    fsync,
                    offset: off * 512,
                    ..JobSpec::default()
                }
            },
        )
        .prop_filter("names are not empty", |j| !j.name.is_empty())
}

/// Board overrides from random (row, value) pairs: each value brought into the row's range;
/// one equal to the preset's is no override.
pub fn arb_board(
    platform: &str,
    picks: &[(usize, u64)],
) -> std::collections::BTreeMap<String, u64> {
    let preset = mmcsim_engine::platform::by_name(platform).unwrap();
    let mut out = std::collections::BTreeMap::new();
    for &(i, x) in picks {
        let (row, p) = board::params().nth(i).unwrap();
        let (min, max) = p.range();
        let v = min + x % (max - min + 1);
        // Values between a unit's accepted ones (a 2-bit bus) are not options.
        if v != (p.get)(preset) && p.unit.parse(&p.unit.format(v)) == Some(v) {
            out.insert(row.name.to_string(), v);
        }
    }
    hs400_is_8_bit(platform, &mut out);
    out
}

/// HS400 is 8-bit only (the scenario check refuses anything else): a pick that pairs it with a
/// narrower bus leaves the bus as the preset has it.
pub fn hs400_is_8_bit(platform: &str, out: &mut std::collections::BTreeMap<String, u64>) {
    let s = Scenario {
        platform: platform.to_string(),
        overrides: out.clone().into(),
        ..Scenario::default()
    };
    let refused = mmcsim_engine::scenario::check(&s).err();
    if refused.and_then(|e| e.option).as_deref() == Some("bus_width") {
        out.remove("bus_width");
        out.remove("bus_mode");
    }
}

/// Any scenario the options can say, within the options' own ranges (not necessarily one the
/// simulator accepts: see [`arb_valid_scenario`]).
pub fn arb_scenario() -> impl Strategy<Value = Scenario> {
    let names = mmcsim_engine::platform::names();
    (
        (
            0..names.len(),
            prop::collection::vec(arb_job(), 1..4),
            any::<u64>(),
            any::<bool>(),
        ),
        prop::option::of(37u32..=44),
        (
            prop::option::of(0usize..3),
            prop::option::of(any::<bool>()),
            prop::option::of(0u32..=63),
        ),
        (
            prop::option::of(prop_oneof![Just(0u32), 2u32..=16]),
            prop::option::of(any::<bool>()),
            prop::option::of(any::<bool>()),
        ),
        (
            prop::option::of(1u64..=86_400_000_000_000),
            prop::option::of(1u32..=500_000),
        ),
        // Board parameters: (row, value) pairs, kept in range and off the preset's value.
        prop::collection::vec((0..board::PARAMS.len(), any::<u64>()), 0..5),
    )
        .prop_map(
            move |(
                (p, jobs, randseed, gr),
                mmc_test,
                (path, nb, depth),
                (packed, fua, cache),
                (cut, err),
                overrides,
            )| {
                let mut s = Scenario {
                    overrides: arb_board(names[p], &overrides).into(),
                    platform: names[p].to_string(),
                    jobs,
                    randseed,
                    group_reporting: gr,
                    mmc_test,
                    power_cut_ns: cut,
                    inject_error: err.map(|rate_ppm| ErrorInjection {
                        kind: ErrorKind::Crc,
                        rate_ppm,
                    }),
                    sensitivity: false,
                    iologs: Vec::new(),
                    queue: Default::default(),
                };
                // The I/O scheduler from the seed: the preset's, or each of the four.
                let sched = match randseed % 5 {
                    0 => None,
                    n => Some(mmcsim_engine::scenario::IoSched::ALL[n as usize - 1]),
                };
                s.set_switch("ioscheduler", sched);
                s.set_switch("mmc_path", path.map(|i| MmcPath::ALL[i]));
                s.set_switch("nonblocking", nb);
                let depth_of = |d: u32| {
                    if d == 0 {
                        HsqDepth::Dynamic
                    } else {
                        HsqDepth::Fixed(d)
                    }
                };
                s.set_switch("hsq_depth", depth.map(depth_of));
                // Derived from the depth draw: both orders and unset are covered.
                s.set_switch(
                    "hsq_dispatch",
                    depth.map(|d| HsqDispatch::ALL[d as usize % 2]),
                );
                s.set_switch("packed", packed);
                s.set_switch("fua", fua);
                s.set_switch("cache", cache);
                s
            },
        )
}

/// A scenario the simulator accepts (the generator's rare misses are repaired: packed off).
pub fn arb_valid_scenario() -> impl Strategy<Value = Scenario> {
    arb_scenario()
        .prop_map(|mut s| {
            if Simulator::new(&s).is_err() {
                s.set_switch::<u32>("packed", Some(0));
            }
            s
        })
        .prop_filter("valid", |s| Simulator::new(s).is_ok())
}
