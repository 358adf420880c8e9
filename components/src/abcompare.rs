//! A/B comparison: the B side's host switches (the workload, platform and seed are A's) and
//! the table of figures side by side with B's change against A.

use std::collections::BTreeMap;
use std::rc::Rc;

use mmcsim_engine::{Figures, Report};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::controls::{form_spec, ControlKind};
use crate::format;

/// One row of the A/B table.
#[derive(Clone, Debug, PartialEq)]
pub struct DeltaRow {
    pub key: &'static str,
    pub label: &'static str,
    pub a: f64,
    pub b: f64,
    /// "mib", "count", "us", "ratio" or "pct".
    pub unit: &'static str,
    /// Whether a larger value is better (colours the change).
    pub higher_is_better: bool,
    /// Both sides have completed a request: before that the figures mean nothing yet and the
    /// table shows "—" (not 0.00 MiB/s against "-100 %").
    pub ready: bool,
}

impl DeltaRow {
    /// (b - a) / a in percent; None when a is 0 or a side has no data yet.
    pub fn change_pct(&self) -> Option<f64> {
        (self.ready && self.a != 0.0).then(|| (self.b - self.a) / self.a * 100.0)
    }

    /// A side's figure as the table shows it ("—" until both sides have data).
    pub fn cell(&self, b: bool) -> String {
        if !self.ready {
            return "—".into();
        }
        show(if b { self.b } else { self.a }, self.unit)
    }
}

/// The figures compared, from each side's report (so far).
pub fn delta_rows(a: &Report, b: &Report) -> Vec<DeltaRow> {
    let fig = |r: &Report| {
        let f = Figures::of(r);
        [
            // MiB/s as fio reports it: the results' and the tours' figure (issue 50: a tour
            // said 86.1 where this table, over the simulated time, said 85.76).
            f.fio_mib_s,
            f.iops,
            f.clat_us(50.0),
            f.clat_us(99.0),
            f.interrupts_per_s,
            // The one definition of requests per interrupt (the readouts' and the summary's).
            f.per_irq,
            f.requeues as f64,
            f.bus_busy_pct,
        ]
    };
    let (fa, fb) = (fig(a), fig(b));
    let done = |r: &Report| Figures::of(r).ios > 0;
    let ready = done(a) && done(b);
    const SPEC: [(&str, &str, &str, bool); 8] = [
        ("mib-s", "Throughput (MiB/s)", "mib", true),
        ("iops", "IOPS", "count", true),
        ("p50", "clat p50", "us", false),
        ("p99", "clat p99", "us", false),
        ("irq-rate", "Interrupts per second", "count", false),
        ("per-irq", "Requests per interrupt", "ratio", true),
        ("requeues", "Refused requests", "count", false),
        ("bus-busy", "Bus busy (%)", "pct", true),
    ];
    SPEC.iter()
        .enumerate()
        .map(|(i, &(key, label, unit, higher_is_better))| DeltaRow {
            key,
            label,
            a: fa[i],
            b: fb[i],
            unit,
            higher_is_better,
            ready,
        })
        .collect()
}

/// One unit policy with the results table: latencies through [`format::latency`] (µs, or ms
/// from 10 ms), the unit written in each cell.
fn show(v: f64, unit: &str) -> String {
    match unit {
        "mib" => format::mib_s(v),
        "us" => format::latency((v * 1e3).round() as u64),
        "ratio" => format!("{v:.2}"),
        "pct" => format!("{v:.0}"),
        _ => format::count(v),
    }
}

#[derive(Properties, PartialEq)]
pub struct DeltaTableProps {
    pub rows: Rc<Vec<DeltaRow>>,
    /// Short descriptions of the two sides ("packed=8", "packed=0").
    pub a_label: AttrValue,
    pub b_label: AttrValue,
}

#[function_component(DeltaTable)]
pub fn delta_table(p: &DeltaTableProps) -> Html {
    html! {
        <table class="metrics delta" id="ab-table">
            <thead><tr><th></th><th scope="col" class="key-a" title={p.a_label.clone()}>{ "A" }</th>
                <th scope="col" class="key-b" title={p.b_label.clone()}>{ "B" }</th><th scope="col">{ "B vs A" }</th></tr></thead>
            <tbody>
                { for p.rows.iter().map(|r| {
                    let ch = r.change_pct();
                    let good = ch.map(|c| if c.abs() < 0.5 { "same" } else if (c > 0.0) == r.higher_is_better { "better" } else { "worse" });
                    html! {
                        <tr data-metric={r.key}>
                            <th scope="row">{ r.label }</th>
                            <td>{ r.cell(false) }</td>
                            <td>{ r.cell(true) }</td>
                            <td class={classes!("change", good)}>{ ch.map(|c| format!("{c:+.1} %")).unwrap_or_else(|| "—".into()) }</td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}

#[derive(Properties, PartialEq)]
pub struct AbEditorProps {
    pub platform: AttrValue,
    /// Whether B is shown.
    pub enabled: bool,
    /// B's host switch texts by option name ("" = platform default).
    pub values: Rc<BTreeMap<String, String>>,
    /// The parser's message for a rejected B value.
    #[prop_or_default]
    pub error: Option<AttrValue>,
    pub on_toggle: Callback<bool>,
    /// `(option name, text)` for B.
    pub on_change: Callback<(String, String)>,
}

/// The compare switch and B's host controls (the same controls and choices as A's "Host"
/// group, the kernel among them; ids `b-ctl-<option>`).
#[function_component(AbEditor)]
pub fn ab_editor(p: &AbEditorProps) -> Html {
    let toggle = {
        let cb = p.on_toggle.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                cb.emit(i.checked());
            }
        })
    };
    let host = form_spec(&p.platform)
        .into_iter()
        .find(|g| g.title == "Host")
        .map(|g| g.controls)
        .unwrap_or_default();
    html! {
        <div class="ab-editor">
            <label class="switch"><input type="checkbox" id="ab-toggle" checked={p.enabled} onchange={toggle} />
                { " Compare with B: the same workload and seed on other host switches or another kernel" }</label>
            if p.enabled {
                <div class="b-controls">
                    { for host.into_iter().map(|c| {
                        let name = c.name.to_string();
                        let cb = p.on_change.clone();
                        let onchange = Callback::from(move |e: Event| {
                            let t = if let Some(i) = e.target_dyn_into::<HtmlInputElement>() { i.value() }
                                else if let Some(s) = e.target_dyn_into::<HtmlSelectElement>() { s.value() } else { return };
                            cb.emit((name.clone(), t.trim().to_string()));
                        });
                        let value = p.values.get(c.name).cloned().unwrap_or_default();
                        let id = format!("b-ctl-{}", c.name);
                        html! {
                            <div class="field">
                                <label for={id.clone()}>{ format!("B {}", c.label) }</label>
                                { match c.kind {
                                    ControlKind::Select(choices) => html! {
                                        <select id={id} {onchange}>
                                            { for choices.iter().map(|ch| html! { <option value={ch.value.clone()} selected={ch.value == value}>{ &ch.label }</option> }) }
                                        </select>
                                    },
                                    ControlKind::Text { placeholder } => html! {
                                        <input id={id} type="text" value={value} {placeholder} spellcheck="false" autocomplete="off" {onchange} />
                                    },
                                } }
                            </div>
                        }
                    }) }
                </div>
                if let Some(e) = &p.error { <p class="error" id="err-b" role="alert">{ e.clone() }</p> }
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::twenty_jobs;
    use mmcsim_engine::Rw;

    fn run(packed: u32) -> Report {
        let scn = twenty_jobs(Rw::Read, packed);
        mmcsim_engine::run(&scn).expect("valid scenario")
    }

    #[test]
    fn change_pct_is_relative_to_a_and_none_without_a() {
        let row = |a, b| DeltaRow {
            key: "k",
            label: "l",
            a,
            b,
            unit: "count",
            higher_is_better: true,
            ready: true,
        };
        assert_eq!(row(50.0, 75.0).change_pct(), Some(50.0));
        assert_eq!(row(200.0, 100.0).change_pct(), Some(-50.0));
        assert_eq!(row(0.0, 1.0).change_pct(), None);
    }

    #[test]
    fn delta_rows_of_a_run_against_itself_change_nothing() {
        let a = run(8);
        let rows = delta_rows(&a, &a);
        let keys: Vec<&str> = rows.iter().map(|r| r.key).collect();
        assert_eq!(
            keys,
            ["mib-s", "iops", "p50", "p99", "irq-rate", "per-irq", "requeues", "bus-busy"]
        );
        for r in &rows {
            assert_eq!(r.a, r.b, "{}", r.key);
            assert!(r.a.is_finite() && r.a >= 0.0, "{}: {}", r.key, r.a);
        }
        let bus = rows.iter().find(|r| r.key == "bus-busy").unwrap();
        assert!(bus.a <= 100.0);
    }

    #[test]
    fn packed_chains_show_as_fewer_interrupts_and_more_requests_per_interrupt() {
        let rows = delta_rows(&run(0), &run(8));
        let get = |k: &str| rows.iter().find(|r| r.key == k).unwrap().clone();
        let per_irq = get("per-irq");
        assert!((per_irq.a - 1.0).abs() < 0.05, "unpacked: {}", per_irq.a);
        assert!(per_irq.b > 2.0, "packed=8: {}", per_irq.b);
        assert!(get("mib-s").change_pct().unwrap() > 50.0);
    }

    #[test]
    fn show_formats_each_unit() {
        assert_eq!(show(60.678, "mib"), "60.68");
        assert_eq!(show(64.33, "us"), "64.3 µs");
        assert_eq!(show(7.987, "ratio"), "7.99");
        assert_eq!(show(99.6, "pct"), "100");
        assert_eq!(show(15_534.0, "count"), "15\u{2009}534");
    }
    fn report_after(events: u64, packed: u32) -> Report {
        let mut scn = mmcsim_engine::Scenario::default();
        scn.jobs[0].numjobs = 20;
        scn.set_switch::<u32>("packed", Some(packed));
        let mut sim = mmcsim_engine::Simulator::new(&scn).unwrap();
        sim.run_events(events);
        sim.report()
    }

    /// Issue 12: early in a run the table showed 0.00 MiB/s and "-100 %" in green.
    #[test]
    fn no_figures_until_both_sides_have_data() {
        let (a, b) = (report_after(3, 0), report_after(3, 8));
        for r in delta_rows(&a, &b) {
            assert!(!r.ready, "{}", r.key);
            assert_eq!(r.cell(false), "—");
            assert_eq!(r.change_pct(), None);
        }
        let (a, b) = (report_after(5000, 0), report_after(5000, 8));
        let rows = delta_rows(&a, &b);
        assert!(rows.iter().all(|r| r.ready));
        assert!(rows[0].change_pct().unwrap() > 0.0, "packed is faster");
    }

    /// One unit policy: the A/B table's latencies read like the results table's.
    #[test]
    fn latencies_are_written_as_the_results_write_them() {
        assert_eq!(show(64.3, "us"), format::latency(64_300));
        assert_eq!(show(12_500.0, "us"), "12.50 ms");
    }
}
