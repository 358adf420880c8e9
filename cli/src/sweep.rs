//! `--sweep=KEY=VALUES`: run a scenario at every point of one or two option ranges, in parallel
//! on every core (rayon; `RAYON_NUM_THREADS=1` for one), and print one row per point.
//!
//! Values: a list (`packed=0,2,4,8`, `hsq_depth=2,dynamic`) or an inclusive range with an
//! optional step (`hsq_depth=1..16`, `nand_read_us=50..200:25`, decimals allowed). Each point is
//! the base scenario with the sweep's options applied through the engine's one option parser,
//! then checked, so a point runs exactly as the same options given on their own would (same
//! seed, same numbers). `--shard=I/N` runs every N-th point starting at the I-th, and its JSON
//! output can be joined with `--merge`.

use crate::args::Format;
pub use mmcsim_engine::scenario::check::{estimated_events, MAX_COMMAND_EVENTS};
pub use mmcsim_engine::scenario::sweep::{
    parse_dim, point_count, point_scenario, point_values, Dim, Row,
};
pub use mmcsim_engine::tools::sweep::run_point;
use mmcsim_engine::Scenario;
use std::fmt::Write;

/// A sweep's output (the engine's, shared with the page's exports).
pub use mmcsim_engine::export::SweepDoc;

/// Runs the sweep's points (the shard's, if any) in parallel. The grid's size is checked before
/// any point is built, each point is checked before any runs, and the estimated events of all
/// the points run together stay within [`MAX_COMMAND_EVENTS`].
pub fn run(
    base: &Scenario,
    dims: Vec<Dim>,
    shard: Option<(usize, usize)>,
) -> Result<SweepDoc, String> {
    let total = point_count(&dims)?;
    let mine: Vec<(usize, Vec<String>)> = (0..total)
        .filter(|i| shard.is_none_or(|(k, n)| i % n == k - 1))
        .map(|i| (i, point_values(&dims, i)))
        .collect();
    // Every point is checked before any runs: a bad one stops the sweep with its message.
    let scns = mine
        .iter()
        .map(|(_, v)| point_scenario(base, &dims, v))
        .collect::<Result<Vec<_>, _>>()?;
    let events = scns
        .iter()
        .map(estimated_events)
        .fold(0u64, u64::saturating_add);
    if events > MAX_COMMAND_EVENTS {
        return Err(format!(
            "sweep: its {} points would simulate about {events} events in all (the sum of each point's estimate); at most {MAX_COMMAND_EVENTS} for one command, about 10 minutes of CPU (fewer points, a smaller size or runtime, or --shard=I/N run separately)",
            scns.len()
        ));
    }
    // The estimate printed once the first point is done scales its time by the points'
    // predicted events (a probe of each large point: `predict.rs`), not their upper bounds.
    let weights: Vec<u64> = {
        use rayon::prelude::*;
        scns.par_iter()
            .map(|s| crate::predict::predicted_events(s, estimated_events(s)))
            .collect()
    };
    // In parallel, with fio's status line on stderr, and stopped by Ctrl-C (the points done
    // are the output).
    let points: Vec<_> = mine.into_iter().zip(scns).collect();
    let rows =
        crate::progress::par_points(("sweep", "points"), points, &weights, |((i, values), s)| {
            run_point(i, values, &s)
        })?;
    Ok(SweepDoc {
        dims,
        base: base.to_args(),
        points: total,
        shard: shard.map(|(i, n)| format!("{i}/{n}")),
        rows,
        sensitivity: None,
    })
}

/// Largest figure a merged row may hold: far above anything a run gives (MiB/s, IOPS, us,
/// interrupts per second), far below a number that would take a screen to print.
const MAX_FIGURE: f64 = 1e12;

/// One sweep JSON output checked as the sweep itself would have written it: its dimensions are
/// sweepable options with values of theirs, its base options parse, its shard is `I/N` within
/// its points, and every row is a point of it (its index in the grid, its values the grid's
/// at that index, in its shard) with finite, non-negative figures of at most [`MAX_FIGURE`].
fn check_doc(name: &str, doc: &SweepDoc) -> Result<usize, String> {
    let grid = point_count(&doc.dims).map_err(|e| format!("merge: '{name}': {e}"))?;
    if doc.points != grid {
        return Err(format!(
            "merge: '{name}' says {} points but its dimensions make {grid}; accepted: a sweep JSON output of mmcsim",
            doc.points
        ));
    }
    for d in &doc.dims {
        let spec = format!("{}={}", d.key, d.values.join(","));
        if parse_dim(&spec).ok().as_ref() != Some(d) {
            return Err(format!(
                "merge: '{name}': dimension '{}' is not a sweep of an option; accepted: a sweep JSON output of mmcsim",
                d.key
            ));
        }
        for v in &d.values {
            mmcsim_engine::scenario::options::apply_text(&Scenario::default(), &d.key, v)
                .map_err(|e| format!("merge: '{name}': dimension {}: {e}", d.key))?;
        }
    }
    mmcsim_engine::scenario::options::ScenarioBuilder::new(Scenario::default())
        .args(&doc.base)
        .map_err(|e| format!("merge: '{name}': base options: {e}"))?;
    let shard = match &doc.shard {
        None => None,
        Some(s) => {
            let bad = || {
                format!(
                    "merge: '{name}': shard '{s}' is not I/N with 1 <= I <= N <= its {grid} points"
                )
            };
            let (i, n) = s.split_once('/').ok_or_else(bad)?;
            let (i, n): (usize, usize) =
                (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
            if i == 0 || i > n || n > grid.max(1) {
                return Err(bad());
            }
            Some((i, n))
        }
    };
    if doc.rows.len() > grid {
        return Err(format!(
            "merge: '{name}' has {} rows for {grid} points",
            doc.rows.len()
        ));
    }
    for r in &doc.rows {
        let in_shard = shard.is_none_or(|(k, n)| r.index % n == k - 1);
        if r.index >= grid || !in_shard || r.values != point_values(&doc.dims, r.index) {
            return Err(format!(
                "merge: '{name}': row {} is not a point of its {grid}-point sweep{}",
                r.index,
                doc.shard
                    .as_ref()
                    .map(|s| format!(" (shard {s})"))
                    .unwrap_or_default()
            ));
        }
        let figures = [
            ("mib_s", r.mib_s),
            ("iops", r.iops),
            ("p50_us", r.p50_us),
            ("p99_us", r.p99_us),
            ("p999_us", r.p999_us),
            ("interrupts_per_s", r.interrupts_per_s),
            ("requeues", r.requeues as f64),
        ];
        if let Some((k, v)) = figures
            .iter()
            .find(|(_, v)| !(v.is_finite() && (0.0..=MAX_FIGURE).contains(v)))
        {
            let v = if v.abs() < MAX_FIGURE {
                v.to_string()
            } else {
                format!("{v:e}")
            };
            return Err(format!(
                "merge: '{name}': row {}: {k} is {v}; accepted: a finite number from 0 to {MAX_FIGURE:e}",
                r.index
            ));
        }
    }
    Ok(grid)
}

/// Joins shards' JSON outputs (texts with their file names) into one sweep. Each file must be
/// a sweep as mmcsim writes it ([`check_doc`]), all of the same sweep; two rows for one point
/// must agree (else both files are named). The result is the same bytes in any file order.
pub fn merge(files: &[(String, String)]) -> Result<SweepDoc, String> {
    let mut out: Option<SweepDoc> = None;
    // Each point's row and the file it came from.
    let mut rows: std::collections::BTreeMap<usize, (Row, &str)> = Default::default();
    for (name, text) in files {
        let doc: SweepDoc = serde_json::from_str(text)
            .map_err(|e| format!("merge: '{name}' is not a sweep JSON output: {e}"))?;
        check_doc(name, &doc)?;
        if let Some(o) = &out {
            if o.dims != doc.dims || o.base != doc.base || o.points != doc.points {
                return Err(format!("merge: '{name}' is a different sweep"));
            }
        }
        for r in &doc.rows {
            match rows.get(&r.index) {
                Some((seen, from)) if seen != r => {
                    return Err(format!(
                        "merge: point {} differs between '{from}' and '{name}'; accepted: shards of one sweep run by one build",
                        r.index
                    ));
                }
                Some(_) => {}
                None => {
                    rows.insert(r.index, (r.clone(), name.as_str()));
                }
            }
        }
        if out.is_none() {
            out = Some(SweepDoc {
                shard: None,
                rows: Vec::new(),
                sensitivity: None,
                ..doc
            });
        }
    }
    let mut doc = out.ok_or("merge: no sweep JSON files given")?;
    doc.rows = rows.into_values().map(|(r, _)| r).collect();
    let missing: Vec<String> = (0..doc.points)
        .filter(|i| doc.rows.binary_search_by_key(i, |r| r.index).is_err())
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "merge: {} of {} points missing (indices {}); run their shards",
            missing.len(),
            doc.points,
            missing
                .iter()
                .take(10)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(doc)
}

/// The sweep as a table, CSV or JSON.
pub fn render(doc: &SweepDoc, format: Format) -> String {
    let mut out = String::new();
    match format {
        // A sweep has no latency bins of its own: json+ prints its JSON.
        Format::Json | Format::JsonPlus => out = mmcsim_engine::export::sweep_json(doc),
        Format::Csv => out = mmcsim_engine::export::sweep_csv(doc),
        Format::Normal => {
            let _ = writeln!(
                out,
                "sweep of {} point(s){}: {}",
                doc.points,
                doc.shard
                    .as_ref()
                    .map(|s| format!(", shard {s}"))
                    .unwrap_or_default(),
                if doc.base.is_empty() {
                    "defaults".to_string()
                } else {
                    doc.base.join(" ")
                }
            );
            for d in &doc.dims {
                let _ = write!(out, "{:>12} ", d.key);
            }
            let _ = writeln!(
                out,
                "{:>9} {:>9} {:>9} {:>9} {:>9} {:>10} {:>9}",
                "MiB/s", "IOPS", "p50 us", "p99 us", "p99.9 us", "irq/s", "requeues"
            );
            for r in &doc.rows {
                for v in &r.values {
                    let _ = write!(out, "{:>12} ", v);
                }
                let _ = writeln!(
                    out,
                    "{:>9.2} {:>9.0} {:>9.1} {:>9.1} {:>9.1} {:>10.0} {:>9}",
                    r.mib_s, r.iops, r.p50_us, r.p99_us, r.p999_us, r.interrupts_per_s, r.requeues
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmcsim_engine::scenario::sweep::{points, Row, MAX_POINTS};
    use mmcsim_engine::Simulator;

    #[test]
    fn ranges_lists_and_products() {
        assert_eq!(
            parse_dim("hsq_depth=1..4").unwrap().values,
            ["1", "2", "3", "4"]
        );
        assert_eq!(
            parse_dim("packed=0,2,4,8").unwrap().values,
            ["0", "2", "4", "8"]
        );
        assert_eq!(
            parse_dim("nand_read_us=50..100:25").unwrap().values,
            ["50", "75", "100"]
        );
        assert_eq!(
            parse_dim("bus_cmd_fixed_us=0.5..1.5:0.25").unwrap().values,
            ["0.5", "0.75", "1", "1.25", "1.5"]
        );
        assert_eq!(
            parse_dim("hsq_depth=2,dynamic").unwrap().values,
            ["2", "dynamic"]
        );
        assert_eq!(parse_dim("blocksize=4k,8k").unwrap().key, "bs");
        assert!(parse_dim("hsq_depth=4..1")
            .unwrap_err()
            .contains("not a range"));
        assert!(parse_dim("hsq_depth=1..4:0").is_err());
        assert!(parse_dim("nope=1,2").unwrap_err().contains("not an option"));
        assert!(parse_dim("hsq_depth").is_err());
        let dims = [
            parse_dim("packed=0,8").unwrap(),
            parse_dim("bs=4k,8k,16k").unwrap(),
        ];
        let p = points(&dims);
        assert_eq!(p.len(), 6);
        assert_eq!(p[1], ["0", "8k"]);
    }

    #[test]
    fn grids_are_counted_not_built_and_points_are_built_alone() {
        let big = parse_dim("randseed=1..10000").unwrap();
        let e = point_count(&[big.clone(), parse_dim("bs=4k,8k").unwrap()]).unwrap_err();
        assert_eq!(e, "sweep: 20000 points (10000 x 2); at most 10000");
        assert!(point_count(&[big.clone(), big.clone()])
            .unwrap_err()
            .contains("randseed is swept twice"));
        assert!(point_count(&[
            big.clone(),
            parse_dim("bs=4k").unwrap(),
            parse_dim("packed=0").unwrap()
        ])
        .unwrap_err()
        .contains("3 dimensions; at most 2"));
        // 10^8 would-be points: `points` stops past the limit instead of building them.
        let many = Dim {
            key: "bs".to_string(),
            values: vec!["4k".to_string(); 10_000],
        };
        assert_eq!(points(&[big.clone(), many]).len(), MAX_POINTS + 1);
        let dims = [
            parse_dim("packed=0,8").unwrap(),
            parse_dim("bs=4k,8k,16k").unwrap(),
        ];
        let all = points(&dims);
        for (i, p) in all.iter().enumerate() {
            assert_eq!(&point_values(&dims, i), p);
        }
        assert_eq!(point_count(&dims), Ok(6));
    }

    #[test]
    fn a_bad_point_names_itself() {
        let dims = [parse_dim("packed=0,16").unwrap()];
        let e = run(&Scenario::default(), dims.to_vec(), None).unwrap_err();
        assert!(e.starts_with("sweep point packed=16: packed:"), "{e}");
    }

    #[test]
    fn shards_merge_into_the_whole_sweep() {
        let base = mmcsim_engine::scenario::options::parse_args(
            &["--rw=randwrite", "--size=256k", "--numjobs=4"],
            Scenario::default(),
        )
        .unwrap();
        let dims = vec![parse_dim("hsq_depth=1..5").unwrap()];
        let whole = run(&base, dims.clone(), None).unwrap();
        let shards: Vec<(String, String)> = (1..=3)
            .map(|i| {
                let d = run(&base, dims.clone(), Some((i, 3))).unwrap();
                (format!("s{i}"), render(&d, Format::Json))
            })
            .collect();
        assert_eq!(merge(&shards).unwrap(), whole);
        assert!(merge(&shards[..2])
            .unwrap_err()
            .contains("1 of 5 points missing"));
    }

    #[test]
    fn a_sweep_over_hsq_depth_reproduces_the_calibrated_points_as_single_runs_do() {
        use mmcsim_engine::calibration::{run_case, CASES};
        use mmcsim_engine::Rw;
        // unisoc-hsq-2023, 8 psync jobs of 4 KiB random writes: depth 2 (A) and dynamic (B).
        let case = CASES
            .iter()
            .find(|c| c.platform == "unisoc-hsq-2023" && c.rw == Rw::RandWrite)
            .unwrap();
        let size = 16 << 20;
        let mut base = case.scenario(false, size);
        base.set_switch::<mmcsim_engine::HsqDepth>("hsq_depth", None);
        let doc = run(&base, vec![parse_dim("hsq_depth=2,dynamic").unwrap()], None).unwrap();
        let single = |b: bool| {
            let s = case.scenario(b, size);
            let mut sim = Simulator::new(&s).unwrap();
            sim.run_to_end();
            Row::of(0, Vec::new(), &sim.report())
        };
        for (row, b) in doc.rows.iter().zip([false, true]) {
            let one = single(b);
            assert_eq!(
                (row.mib_s, row.iops, row.p99_us, row.requeues),
                (one.mib_s, one.iops, one.p99_us, one.requeues),
                "hsq_depth={}",
                row.values[0]
            );
        }
        // And they are the calibration's figures, within its tolerance of the measurement.
        let cal = run_case(case, Some(size)).unwrap();
        assert_eq!((doc.rows[0].mib_s, doc.rows[1].mib_s), cal.simulated);
        let (ea, eb) = cal.error_pct();
        assert!(
            ea.abs() <= 15.0 && eb.abs() <= 15.0,
            "{:?}",
            cal.error_pct()
        );
    }
}
