//! The Lab's results: progress, the throughput chart and the results of the one run the view
//! shows: A, and with a comparison B and the change (its "bus busy" defined under it); under
//! each side its latency spread, time per stage and fio's text ([`super::detail`]); the
//! downloads, of A and B.

use std::rc::Rc;

use mmcsim_components::{DeltaTable, Measured, ProgressBar, ResultsTable, ThroughputChart};
use mmcsim_engine::{Report, Scenario};
use yew::prelude::*;

use crate::lab::detail::RunDetail;
use crate::run::engine_bridge as bridge;
use crate::tools::ResultTools;
use crate::watch::RunState;

#[derive(Properties, PartialEq)]
pub struct ResultsProps {
    /// The watched run as it stands (None: not started).
    pub run: Option<RunState>,
    /// The scenarios the run is of (A, B).
    pub ran: (Rc<Scenario>, Option<Rc<Scenario>>),
}

/// The measured figure beside a finished run's, where the scenario is a calibration case.
fn measured(scn: &Scenario, report: &Report) -> Option<Measured> {
    bridge::measured_for(scn)
        .filter(|_| report.power_cut.is_none())
        .map(|m| Measured {
            simulated: bridge::simulated_in(scn, report, &m.unit),
            measured: m.value,
            unit: m.unit,
            column: m.column,
            source: m.source,
            note: m.outlier,
        })
}

/// What "bus busy" counts, said where the comparison shows it.
const BUS_BUSY: &str = "Bus busy: the share of the simulated time the card's bus was held: \
commands, the card's access time (a read waiting for NAND before its data; a write waiting for \
cache space), data transfer and the card's busy signal after a write (DAT0 low). Time the card \
spends reading NAND counts as busy: the bus is not free for another request then.";

#[function_component(Results)]
pub fn results(props: &ResultsProps) -> Html {
    let Some(r) = &props.run else {
        return html! {
            <>
                <ProgressBar fraction={0.0} label={AttrValue::from("")} />
                <div id="results"><p class="placeholder">{ "Press Run (or Play above): the results of that one run appear here." }</p></div>
            </>
        };
    };
    let sim = mmcsim_components::format::sim_time(r.now_ns);
    let status = if r.finished {
        format!("{sim} simulated, finished")
    } else if r.playing {
        format!("{sim} simulated, running")
    } else {
        format!("{sim} simulated, paused")
    };
    let (sa, sb) = props.ran.clone();
    html! {
        <>
            <ProgressBar fraction={if r.finished { 1.0 } else { r.progress }} label={AttrValue::from(status)} />
            <ThroughputChart points={r.series.clone()} />
            <div id="results" class={classes!(r.b.is_some().then_some("ab-results"))}>
                if r.finished {
                    <div class="result-side" data-side="a">
                        if r.b.is_some() { <h3>{ "A" }</h3> }
                        <ResultsTable report={r.a.clone()} measured={measured(&sa, &r.a)} />
                        <RunDetail scenario={sa.clone()} report={r.a.clone()} side="a" />
                    </div>
                    if let (Some(rb), Some(sb)) = (&r.b, &sb) {
                        <div class="result-side" data-side="b">
                            <h3>{ "B" }</h3>
                            <ResultsTable report={rb.clone()} measured={measured(sb, rb)} />
                            <RunDetail scenario={sb.clone()} report={rb.clone()} side="b" />
                        </div>
                        <div class="result-side" data-side="change">
                            <h3>{ "Change B vs A" }</h3>
                            <DeltaTable rows={r.deltas.clone()} a_label={AttrValue::from("A")} b_label={AttrValue::from("B")} />
                            <p id="bus-busy-defined" class="source">{ BUS_BUSY }</p>
                        </div>
                    }
                    <div class="result-side" data-side="tools">
                        <ResultTools scenario={sa.clone()} report={r.a.clone()} series={r.series.clone()}
                                     b={r.b.clone().zip(sb.clone()).map(|(rb, sb)| (sb, rb))} />
                    </div>
                } else {
                    <p class="placeholder">{ "The run is not finished: results appear when it ends (Run plays it to the end)." }</p>
                }
            </div>
        </>
    }
}
