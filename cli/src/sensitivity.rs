//! `--sensitivity` (`sensitivity=1`): the scenario again at both ends of each uncertain board
//! parameter's range that the run uses, in parallel as a sweep's points are, with the number of
//! runs said before they start and fio's status line while they run. The plan and the summary
//! are the engine's (`tools::sensitivity`), which the page calls too.

use crate::args::Format;
use mmcsim_engine::scenario::check::{estimated_events, MAX_COMMAND_EVENTS};
use mmcsim_engine::tools::sensitivity::{self, Sensitivity};
use mmcsim_engine::{Report, Scenario};

/// How the two points of an A/B sweep are asked for.
pub const AB_ONLY: &str = "sensitivity: with --sweep, only an A/B pair (one --sweep of two values, e.g. --sweep=ioscheduler=mq-deadline,bfq); accepted: --sensitivity alone, or with one --sweep=KEY=A,B and no --shard";

/// Checks the outputs asked for: the summary goes to the normal output and to JSON.
pub fn check_formats(formats: &[Format]) -> Result<(), String> {
    if formats.contains(&Format::Csv) {
        return Err(
            "sensitivity: not written in CSV (one line per point has no room for ranges); accepted: --output-format=normal or json".to_string(),
        );
    }
    Ok(())
}

/// Runs the unvaried `points` in parallel (their reports, in order): an A/B pair's two runs.
pub fn run_points(points: &[Scenario]) -> Result<Vec<Report>, String> {
    bound(points, "the unvaried runs")?;
    let reports = crate::progress::par_points(
        ("sweep", "points"),
        points.to_vec(),
        &vec![1; points.len()],
        |s| sensitivity::run_report(&s),
    )?;
    complete(reports, points.len())
}

/// The estimated events of `scns` together within the one command's bound.
fn bound(scns: &[Scenario], what: &str) -> Result<u64, String> {
    let events = scns
        .iter()
        .map(estimated_events)
        .fold(0u64, u64::saturating_add);
    if events > MAX_COMMAND_EVENTS {
        return Err(format!(
            "sensitivity: {what} ({} runs) would simulate about {events} events in all (the sum of each run's estimate); at most {MAX_COMMAND_EVENTS} for one command, about 10 minutes of CPU (a smaller size or runtime)",
            scns.len()
        ));
    }
    Ok(events)
}

/// Every run finished (Ctrl-C leaves some out: the ranges would be of part of the runs).
fn complete(reports: Vec<Report>, n: usize) -> Result<Vec<Report>, String> {
    if reports.len() < n {
        return Err(format!(
            "sensitivity: interrupted after {} of {n} runs; no ranges are printed, they would be of part of the runs",
            reports.len()
        ));
    }
    Ok(reports)
}

/// The extra runs of `points` (whose unvaried runs gave `base`) and their summary.
pub fn run(labels: &[String], points: &[Scenario], base: &[Report]) -> Result<Sensitivity, String> {
    let plan = sensitivity::plan(points, base)?;
    let scns = plan
        .runs
        .iter()
        .map(|r| plan.scenario(points, r))
        .collect::<Result<Vec<_>, _>>()?;
    let events = bound(&scns, "its extra runs")?;
    eprintln!(
        "mmcsim: sensitivity: {} parameter(s) at both ends of their range on {} point(s): {} runs besides the unvaried, about {} events",
        plan.swings.len(),
        points.len(),
        scns.len(),
        events
    );
    let weights: Vec<u64> = scns
        .iter()
        .map(|s| crate::predict::predicted_events(s, estimated_events(s)))
        .collect();
    let n = scns.len();
    let reports = crate::progress::par_points(("sensitivity", "runs"), scns, &weights, |s| {
        sensitivity::run_report(&s)
    })?;
    let reports = complete(reports, n)?;
    Ok(sensitivity::summarize(
        labels, points, base, &plan, &reports,
    ))
}

/// `--sensitivity` with `--sweep=KEY=A,B`: the pair's two runs (the sweep's rows, as the
/// sweep prints them), then the extra runs and whether B's side of A holds.
pub fn ab(
    cli: &crate::args::Cli,
    scn: &Scenario,
    dims: Vec<crate::sweep::Dim>,
    write_platform: impl Fn() -> Result<(), String>,
) -> Result<String, String> {
    if dims.len() != 1 || dims[0].values.len() != 2 || cli.shard.is_some() {
        return Err(AB_ONLY.to_string());
    }
    check_formats(&cli.formats)?;
    let values: Vec<Vec<String>> = (0..2)
        .map(|i| crate::sweep::point_values(&dims, i))
        .collect();
    let points = values
        .iter()
        .map(|v| crate::sweep::point_scenario(scn, &dims, v))
        .collect::<Result<Vec<_>, _>>()?;
    let reports = run_points(&points)?;
    let labels: Vec<String> = values
        .iter()
        .map(|v| format!("{}={}", dims[0].key, v[0]))
        .collect();
    let s = run(&labels, &points, &reports)?;
    write_platform()?;
    let rows = values
        .into_iter()
        .zip(&reports)
        .enumerate()
        .map(|(i, (v, r))| crate::sweep::Row::of(i, v, r))
        .collect();
    let doc = crate::sweep::SweepDoc {
        dims,
        base: scn.to_args(),
        points: 2,
        shard: None,
        rows,
        sensitivity: serde_json::to_value(&s).ok(),
    };
    let mut out = crate::sweep::render(&doc, cli.format);
    if cli.format == Format::Normal {
        out.push_str(&mmcsim_engine::tools::sensitivity::render(&s));
    }
    Ok(out)
}
