//! Board parameters and platform files: every physical field of a platform is an option, a
//! platform file written from a scenario reads back to the same board, a changed parameter
//! changes the run as physics says, and bad files are answered with one message.

use mmcsim_engine::scenario::board::{self, params};
use mmcsim_engine::scenario::board_file::{apply_toml, to_toml};
use mmcsim_engine::scenario::options::parse_args;
use mmcsim_engine::{Scenario, Simulator, PLATFORMS};
use proptest::prelude::*;

use crate::common;

/// The numeric and boolean leaves of a platform as `part.field` paths (its names, texts and
/// host-switch defaults are not physics).
fn leaves(v: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                leaves(x, &path, out);
            }
        }
        serde_json::Value::Number(_) | serde_json::Value::Bool(_) => out.push(prefix.to_string()),
        _ => {}
    }
}

#[test]
fn every_physical_field_of_a_platform_is_a_board_parameter() {
    let mut fields = Vec::new();
    leaves(
        &serde_json::to_value(PLATFORMS[0]).unwrap(),
        "",
        &mut fields,
    );
    let covered: Vec<&str> = params().map(|(_, p)| p.field).collect();
    for f in fields.iter().filter(|f| !f.starts_with("switches.")) {
        assert!(
            covered.contains(&f.as_str()),
            "platform field {f} has no row in scenario::board::PARAMS"
        );
    }
    // Each row sets its own field and no other.
    for (row, p) in params() {
        let mut q = *PLATFORMS[0];
        let v = if (p.get)(&q) == p.range().0 {
            p.range().1
        } else {
            p.range().0
        };
        (p.put)(&mut q, v);
        assert_eq!((p.get)(&q), v, "{}", row.name);
        let changed = params().filter(|(_, o)| (o.get)(&q) != (o.get)(PLATFORMS[0]));
        assert_eq!(changed.count(), 1, "{} touched another field", row.name);
    }
}

fn run(args: &[&str]) -> (f64, mmcsim_engine::report::Report) {
    let s = parse_args(args, Scenario::default()).unwrap();
    let mut sim = Simulator::new(&s).unwrap();
    sim.run_to_end();
    let r = sim.report();
    (r.merged().read.clat.mean(), r)
}

#[test]
fn doubling_the_nand_read_in_a_platform_file_slows_random_reads_by_one_nand_read() {
    // Write the preset as a platform file, double its NAND read time, read it back.
    let base = parse_args(&["--platform=sprd-hs400es-2020"], Scenario::default()).unwrap();
    let text = to_toml(&base).unwrap();
    assert!(text.contains("nand_read_us = 87 "), "{text}");
    let doubled = text.replace("nand_read_us = 87 ", "nand_read_us = 174 ");
    let mut s = Scenario::default();
    apply_toml(&mut s, "board.toml", &doubled).unwrap();
    assert_eq!(s.platform, "sprd-hs400es-2020");
    assert_eq!(s.overrides.len(), 1);
    assert_eq!(
        s.effective_platform().unwrap().card.read_latency_random_ns,
        174_000
    );
    // The same board as an option, and written back out.
    let opt = parse_args(
        &["--platform=sprd-hs400es-2020", "--nand_read_us=174"],
        Scenario::default(),
    )
    .unwrap();
    assert_eq!(opt, s);
    assert!(to_toml(&s).unwrap().contains("preset 87"));

    // One psync job of 4 KiB random reads: every read waits for its NAND read, so the mean
    // completion latency grows by the 87 us added (tR); sequential reads (read-ahead) do not move.
    let common = ["--rw=randread", "--bs=4k", "--size=64m"];
    let (before, rb) = run(&[&common[..], &["--nand_read_us=87"]].concat());
    let (after, ra) = run(&[&common[..], &["--nand_read_us=174"]].concat());
    let added = after - before;
    assert!(
        (added - 87_000.0).abs() < 87_000.0 * 0.05,
        "mean clat {before:.0} -> {after:.0} ns: added {added:.0}, expected ~87000"
    );
    assert!(ra.total_mib_s() < rb.total_mib_s() * 0.8);
    let seq = ["--rw=read", "--bs=4k", "--size=4m"];
    let (s0, _) = run(&seq);
    let (s1, _) = run(&[&seq[..], &["--nand_read_us=174"]].concat());
    assert!(
        (s1 - s0).abs() < s0 * 0.01,
        "sequential reads moved: {s0} -> {s1}"
    );
}

#[test]
fn a_scenario_at_preset_values_writes_nothing_new() {
    // An override equal to the preset's value is no override: links and job files stay as before.
    let s = parse_args(
        &[
            "--platform=unisoc-hsq-2023",
            "--nand_read_us=55",
            "--bus_mb_s=332",
        ],
        Scenario::default(),
    )
    .unwrap();
    assert!(s.overrides.is_empty());
    assert_eq!(
        s.to_args(),
        vec![
            "--platform=unisoc-hsq-2023".to_string(),
            "--name=job".to_string()
        ]
    );
}

#[test]
fn bad_values_and_files_get_one_message_naming_the_field_and_range() {
    let e = parse_args(&["--nand_read_us=200000"], Scenario::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "nand_read_us: '200000' is out of range; accepted: 0..=100000 us"
    );
    let e = parse_args(&["--bus_mb_s=fast"], Scenario::default()).unwrap_err();
    assert!(e.to_string().contains("accepted: 0..=10000 MB/s"), "{e}");
    let mut s = Scenario::default();
    let cases = [
        (
            "platform = \"nope\"\n",
            "b.toml: platform: 'nope' is not a known platform",
        ),
        ("[card]\nnand_read_us = 1\n", "b.toml: platform: missing"),
        (
            "platform = \"sprd-hs400es-2020\"\n[card]\nnand_read_us = -5\n",
            "b.toml: card.nand_read_us: '-5' is not a number in us; accepted: 0..=100000 us",
        ),
        (
            "platform = \"sprd-hs400es-2020\"\n[card]\nbus_mb_s = 5\n",
            "b.toml: card.bus_mb_s: not a card parameter",
        ),
        (
            "platform = \"sprd-hs400es-2020\"\n[gpu]\nx = 5\n",
            "b.toml: gpu: not a section",
        ),
        ("platform = \n", "b.toml: not TOML"),
        // A boolean is a number only for a 0-or-1 parameter (it read as 1 MHz).
        (
            "platform = \"sprd-hs400es-2020\"\n[bus]\nbus_clock_mhz = true\n",
            "b.toml: bus.bus_clock_mhz: true is not a number; accepted:",
        ),
        (
            "platform = \"sprd-hs400es-2020\"\n[card]\nnand_read_us = false\n",
            "b.toml: card.nand_read_us: false is not a number; accepted: 0..=100000 us",
        ),
    ];
    for (text, want) in cases {
        let e = apply_toml(&mut s, "b.toml", text).unwrap_err().to_string();
        assert!(e.starts_with(want), "{text:?}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
    assert_eq!(s, Scenario::default(), "a bad file changes nothing");
}

proptest! {
    #![proptest_config(common::proptest_config(64))]

    /// Any board, on any preset: written as a platform file and read back, the same scenario;
    /// written as options, links and job files, the same (see scenario_parse.rs and url.rs for
    /// the scenario-wide round trips, which now carry board overrides too).
    #[test]
    fn a_platform_file_round_trips_any_board(
        p in 0..PLATFORMS.len(),
        picks in prop::collection::vec((0..board::PARAMS.len(), any::<u64>()), 0..8),
    ) {
        let preset = PLATFORMS[p];
        let mut s = Scenario { platform: preset.name.to_string(), ..Scenario::default() };
        for (i, x) in picks {
            let (row, param) = params().nth(i).unwrap();
            let (min, max) = param.range();
            let v = min + x % (max - min + 1);
            // Values between a unit's accepted ones (a 2-bit bus) are not written.
            if v != (param.get)(preset) && param.unit.parse(&param.unit.format(v)) == Some(v) {
                s.overrides.insert(row.name.to_string(), v);
            }
        }
        // HS400 is 8-bit only: such a pick is refused (tests/board.rs' error cases), not written.
        if mmcsim_engine::scenario::check(&s).err().and_then(|e| e.option).as_deref() == Some("bus_width") {
            s.overrides.remove("bus_width");
            s.overrides.remove("bus_mode");
        }
        let text = to_toml(&s).unwrap();
        let mut back = Scenario::default();
        apply_toml(&mut back, "f", &text).unwrap();
        prop_assert_eq!(&back, &s, "{}", text);
        prop_assert_eq!(parse_args(&s.to_args(), Scenario::default()).map(|x| x.overrides), Ok(s.overrides.clone()));
    }
}

#[test]
fn the_bus_rate_is_derived_from_mode_clock_and_width() {
    // Each preset's mode, clock and width give the data rate it was fitted with.
    let rates: Vec<(&str, u64)> = PLATFORMS
        .iter()
        .map(|p| (p.name, p.bus.bytes_per_sec()))
        .collect();
    for (name, want) in [
        ("sprd-hs400es-2020", 400_000_000),
        ("unisoc-hsq-2023", 332_000_000),
    ] {
        assert!(rates.contains(&(name, want)), "{rates:?}");
    }
    let eff = |args: &[&str]| {
        parse_args(args, Scenario::default())
            .unwrap()
            .effective_platform()
            .unwrap()
            .bus
            .bytes_per_sec()
    };
    let es = "--platform=sprd-hs400es-2020";
    assert_eq!(eff(&[es, "--bus_mode=hs200"]), 200_000_000);
    assert_eq!(eff(&[es, "--bus_mode=hs200", "--bus_width=4"]), 100_000_000);
    assert_eq!(
        eff(&[es, "--bus_mode=ddr52", "--bus_clock_mhz=52"]),
        104_000_000
    );
    assert_eq!(
        eff(&[es, "--bus_mode=sdr", "--bus_clock_mhz=26", "--bus_width=1"]),
        3_250_000
    );
    // bus_mb_s overrides the derived rate; at the derived rate it is no override.
    assert_eq!(
        eff(&[es, "--bus_mode=hs200", "--bus_mb_s=150"]),
        150_000_000
    );
    let s = parse_args(
        &[es, "--bus_mode=hs200", "--bus_mb_s=200"],
        Scenario::default(),
    )
    .unwrap();
    assert!(s.to_args().contains(&"--bus_mode=hs200".to_string()));
    assert!(!s.overrides.contains_key("bus_mb_s"), "{:?}", s.overrides);
    // Modes and widths outside eMMC's are one message each.
    let e = parse_args(&["--bus_width=2"], Scenario::default()).unwrap_err();
    assert!(e.to_string().contains("1, 4, 8"), "{e}");
    let e = parse_args(&["--bus_mode=hs800"], Scenario::default()).unwrap_err();
    assert!(e.to_string().contains("hs400es"), "{e}");
}

#[test]
fn hs200_halves_sequential_reads_where_the_bus_is_the_bottleneck() {
    // 512 KiB sequential reads on the 2023 HS400 board (whose card streams faster than its
    // bus) move data as fast as the bus goes; HS200 at the same clock is single data rate,
    // half the rate. (The 2020 board's card streams at 260 MB/s, below its HS400 bus.)
    let common = [
        "--platform=unisoc-hsq-2023",
        "--rw=read",
        "--bs=512k",
        "--size=64m",
        "--iodepth=8",
        "--ioengine=libaio",
    ];
    let (_, hs400) = run(&common);
    let (_, hs200) = run(&[&common[..], &["--bus_mode=hs200"]].concat());
    let ratio = hs200.total_mib_s() / hs400.total_mib_s();
    assert!(
        (0.45..=0.6).contains(&ratio),
        "hs400 {:.1} MiB/s, hs200 {:.1} MiB/s: ratio {ratio:.3}",
        hs400.total_mib_s(),
        hs200.total_mib_s()
    );
}

/// Command segments on the bus of a short random-read run, ns each.
fn command_times(args: &[&str]) -> Vec<u64> {
    let s = parse_args(args, Scenario::default()).unwrap();
    let mut sim = Simulator::new(&s).unwrap();
    sim.set_timeline_capacity(100_000);
    sim.run_to_end();
    sim.drain_timeline()
        .iter()
        .filter(|g| g.kind == mmcsim_engine::SegmentKind::Command)
        .map(|g| g.end - g.start)
        .collect()
}

#[test]
fn halving_the_bus_clock_doubles_the_command_lines_time_and_keeps_the_fixed_part() {
    use mmcsim_engine::platform::{by_name, CMD_PHASE_CYCLES};
    let base = ["--platform=unisoc-hsq-2023", "--rw=randread", "--size=256k"];
    let at = command_times(&base);
    let half = command_times(&[&base[..], &["--bus_clock_mhz=83"]].concat());
    assert!(!at.is_empty() && at.len() == half.len());
    // At the preset's clock the command phase is the calibrated 3 us, as before it followed
    // the clock (the goldens pin the rest).
    assert!(at.iter().all(|&t| t == 3_000), "{:?}", &at[..3]);
    // 212 CMD-line cycles: 1277 ns at 166 MHz, 2555 ns at 83 MHz (rounded up).
    let cycles_ns = |mhz: u64| (CMD_PHASE_CYCLES * 1000).div_ceil(mhz);
    let fixed = by_name("unisoc-hsq-2023").unwrap().bus.cmd_fixed_ns;
    assert_eq!(fixed + cycles_ns(166), 3_000);
    assert!(
        half.iter().all(|&t| t == fixed + cycles_ns(83)),
        "{:?}",
        &half[..3]
    );
    assert!(half[0] - at[0] >= 1_270 && half[0] - at[0] <= 1_290);
    // The CMD line is single data rate in every mode: HS200 at the same clock, same command.
    let hs200 = command_times(&[&base[..], &["--bus_mode=hs200"]].concat());
    assert_eq!(hs200[0], 3_000);
}

/// The book's worked example (docs/fitting.md) ends in a what-if link: it loads as written, A
/// and B on the board the example's result files were made with (75 us reads, 290 MB/s), B
/// with a fixed hsq depth of 2.
#[test]
fn the_worked_examples_what_if_link_loads_as_written() {
    let page = include_str!("../../docs/fitting.md");
    let at = page
        .find("## From fio results to a what-if")
        .expect("the worked example");
    let link = page[at..]
        .split('`')
        .find(|s| s.starts_with("?platform=") && s.contains("b.hsq_depth=2"))
        .expect("the what-if link");
    let d = mmcsim_engine::scenario::url::decode_query(link);
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let b = d.b.expect("a B side");
    for s in [&d.a, &b] {
        assert_eq!(s.platform, "unisoc-hsq-2023");
        let p = s.effective_platform().unwrap();
        assert_eq!(p.card.read_latency_random_ns, 75_000);
        assert_eq!(p.bus.bytes_per_sec(), 290_000_000);
    }
    assert_eq!(
        b.switch::<mmcsim_engine::HsqDepth>("hsq_depth"),
        Some(mmcsim_engine::scenario::HsqDepth::Fixed(2))
    );
    assert_eq!(
        d.a.effective_platform().unwrap().switches.hsq_depth,
        mmcsim_engine::scenario::HsqDepth::Dynamic,
        "A keeps the 2023 board's dynamic depth"
    );
}
