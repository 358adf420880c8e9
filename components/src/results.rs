//! The results of a finished run: fio's headline figures per direction, the simulator's own
//! counters, and the measured figure the run reproduces when the calibration data has one.

use std::rc::Rc;

use mmcsim_engine::{DirStats, Report};
use yew::prelude::*;

use crate::format;

/// A measured figure for this scenario and the simulated figure in the same unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub measured: f64,
    /// None when the run's figure is not comparable (the error is then not shown).
    pub simulated: Option<f64>,
    /// "MiB/s" or "KiB/s".
    pub unit: String,
    /// Which column of the published table ("non-packed", "packed", ...).
    pub column: String,
    /// Where the measurement was published.
    pub source: String,
    /// Why the model is not expected to match this case, when it is not.
    pub note: Option<String>,
}

#[derive(Properties, PartialEq)]
pub struct ResultsTableProps {
    pub report: Rc<Report>,
    #[prop_or_default]
    pub measured: Option<Measured>,
}

/// What the headline MiB/s covers. A kernel mmc_test run reports one job per transfer size
/// (named "4KiB", "63.5KiB", ...): its headline is all of them together, which is not the one
/// size a published mmc_test figure is (that one is set beside it, in its own unit).
pub fn headline_unit(r: &Report) -> String {
    let sizes = r.jobs.len() > 1
        && r.jobs.iter().all(|j| {
            j.name
                .strip_suffix("KiB")
                .is_some_and(|n| n.parse::<f64>().is_ok())
        });
    if sizes {
        format!("MiB/s, all {} transfer sizes together", r.jobs.len())
    } else {
        "MiB/s".to_string()
    }
}

#[function_component(ResultsTable)]
pub fn results_table(props: &ResultsTableProps) -> Html {
    let r = &props.report;
    if r.stranded_requests > 0 {
        // As the CLI: no figures of a run the model cut short.
        return html! {
            <div class="results">
                <p class="error stranded" role="alert">{ format!(
                    "The model stopped at {:.3} ms of simulated time with {} request(s) unfinished: a defect of \
                     mmcsim's model, not of your scenario (please report its link). No figures are shown: they \
                     would be of a run cut short.",
                    r.sim.simulated_ns as f64 / 1e6, r.stranded_requests) }</p>
            </div>
        };
    }
    let m = r.merged();
    // Columns: each direction that moved data (a read-only run shows one column).
    let mut dirs: Vec<(&str, &DirStats)> = Vec::new();
    if m.read.total_ios > 0 {
        dirs.push(("read", &m.read));
    }
    if m.write.total_ios > 0 {
        dirs.push(("write", &m.write));
    }
    let row = |label: &str, key: &str, f: &dyn Fn(&DirStats) -> String| {
        html! {
            <tr data-metric={key.to_string()}>
                <th scope="row">{ label }</th>
                { for dirs.iter().map(|(_, d)| html! { <td>{ f(d) }</td> }) }
            </tr>
        }
    };
    let total_iops: f64 = dirs.iter().map(|(_, d)| d.iops()).sum();
    let headline_unit = headline_unit(r);
    html! {
        <div class="results">
            <div class="headline">
                <div class="figure" data-metric="total-mib-s">
                    <span class="value">{ format::mib_s(r.total_mib_s()) }</span>
                    <span class="unit">{ headline_unit }</span>
                </div>
                <div class="figure" data-metric="total-iops">
                    <span class="value">{ format::count(total_iops) }</span>
                    <span class="unit">{ "IOPS" }</span>
                </div>
                if let Some(ms) = &props.measured {
                    <div class="figure measured" data-metric="measured">
                        <span class="value">{ format!("{:.2}", ms.measured) }</span>
                        <span class="unit">{ format!("{} measured ({})", ms.unit, ms.column) }</span>
                        if let Some(sim) = ms.simulated {
                            <span class="delta" data-metric="error">{ format!("simulated {:.2} {} ({})", sim, ms.unit, format::error_pct(sim, ms.measured)) }</span>
                        }
                    </div>
                }
            </div>
            if dirs.is_empty() {
                <p class="empty">{ "The run completed no I/O." }</p>
            } else {
                <table class="metrics">
                    <thead>
                        <tr><th></th>{ for dirs.iter().map(|(n, _)| html! { <th scope="col">{ *n }</th> }) }</tr>
                    </thead>
                    <tbody>
                        { row("Bandwidth (MiB/s)", "mib-s", &|d| format::mib_s(d.mib_s())) }
                        { row("IOPS", "iops", &|d| format::count(d.iops())) }
                        { row("I/Os completed", "ios", &|d| format::count(d.total_ios as f64)) }
                        { row("clat p50", "p50", &|d| format::latency(d.clat.percentile(50.0))) }
                        { row("clat p99", "p99", &|d| format::latency(d.clat.percentile(99.0))) }
                        { row("clat p99.9", "p99.9", &|d| format::latency(d.clat.percentile(99.9))) }
                    </tbody>
                </table>
            }
            <table class="metrics sim">
                <tbody>
                    <tr data-metric="interrupts"><th scope="row">{ "Host interrupts" }</th><td>{ format::count(r.sim.interrupts as f64) }</td></tr>
                    <tr data-metric="avg-batch"><th scope="row">{ "Requests per interrupt" }</th><td>{ format!("{:.2}", r.sim.avg_batch()) }</td></tr>
                    <tr data-metric="requeues"><th scope="row">{ "Refused requests" }</th><td>{ format::count(r.sim.requeues as f64) }</td></tr>
                    <tr data-metric="simulated"><th scope="row">{ "Simulated time" }</th><td>{ format::sim_time(r.sim.simulated_ns) }</td></tr>
                    <tr data-metric="events"><th scope="row">{ "Events processed" }</th><td>{ format::count(r.sim.events as f64) }</td></tr>
                </tbody>
            </table>
            if let Some(ms) = &props.measured {
                <p class="source">{ "Measured: " }{ &ms.source }</p>
                if let Some(note) = &ms.note {
                    <p class="source note">{ "Known difference: " }{ note }</p>
                }
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kernel mmc_test run's headline says it covers every transfer size (the published
    /// figure beside it is one size); a fio run's is plain MiB/s.
    #[test]
    fn the_headline_says_what_it_covers() {
        let mut scn = mmcsim_engine::Scenario {
            platform: "u300-mmci-2011".into(),
            mmc_test: Some(38),
            ..Default::default()
        };
        scn.jobs[0].size = 1 << 20;
        let r = mmcsim_engine::run(&scn).unwrap();
        assert!(
            headline_unit(&r).contains("transfer sizes"),
            "{}",
            headline_unit(&r)
        );
        let mut fio = mmcsim_engine::Scenario::default();
        fio.jobs[0].size = 1 << 20;
        fio.jobs[0].numjobs = 4;
        let r = mmcsim_engine::run(&fio).unwrap();
        assert_eq!(headline_unit(&r), "MiB/s");
    }
}
