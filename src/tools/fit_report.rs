//! The fit's preview ([`super::fit::FitView`]): the verdict first, then the left-out error,
//! the parameters (those the results do not constrain marked, left at the preset), every
//! measured figure on the preset and on the fit, and Apply / Close. Shown over the page, as
//! wide as the screen allows, so every column of its tables is in view at 1366x768.

use mmcsim_fit::jobs::FitReply;
use yew::prelude::*;

/// A predicted / measured miss, percent with its sign.
pub fn pct(a: f64, b: f64) -> String {
    format!("{:+.1} %", (a - b) / b * 100.0)
}

/// The verdict line: trusted, or not trusted and why.
pub fn verdict(f: &FitReply) -> Html {
    if f.warnings.is_empty() {
        let tol = mmcsim_fit::MAX_LEFT_OUT_ERROR * 100.0;
        html! {
            <p id="fit-verdict" class="fit-verdict trusted">
                <strong>{ "Verdict: trusted. " }</strong>
                { format!("Every result file, left out of the fit, is predicted within {tol:.0} % (latencies {:.0} %) by a fit to the others.", 2.0 * tol) }
            </p>
        }
    } else {
        html! {
            <div id="fit-untrusted" class="fit-verdict untrusted" role="alert">
                <strong>{ "Verdict: not trusted." }</strong>
                <ul id="fit-warnings">
                    { for f.warnings.iter().map(|w| html! { <li>{ w.trim_start_matches("untrustworthy: ").to_string() }</li> }) }
                </ul>
            </div>
        }
    }
}

/// The largest left-out miss as a fraction, if the fit was cross-validated.
pub fn max_left_out(f: &FitReply) -> Option<f64> {
    f.left_out
        .iter()
        .map(|l| (l.predicted / l.measured - 1.0).abs())
        .reduce(f64::max)
}

/// Each result file left out of the fit and predicted by a fit to the others; or why there is
/// none.
pub fn left_out(f: &FitReply) -> Html {
    let Some(max) = max_left_out(f) else {
        return html! {
            <p id="fit-left-out-none">{ "Left-out error: not judged (cross-validation needs at least 3 result files: each is left out, the others fitted, and the left-out one predicted)." }</p>
        };
    };
    html! {
        <>
            <p id="fit-left-out-max" data-max={format!("{:.4}", max)}>
                <strong>{ format!("Left-out error: at most {:.1} %. ", max * 100.0) }</strong>
                { "Each file left out, the others fitted, the left-out one predicted (its worst figure):" }
            </p>
            <div class="fit-scroll">
            <table id="fit-left-out" class="fit-table">
                <thead><tr><th class="left">{ "left out" }</th><th>{ "figure" }</th><th>{ "measured" }</th>
                    <th>{ "predicted by the others" }</th><th>{ "error" }</th></tr></thead>
                <tbody>
                { for f.left_out.iter().map(|l| {
                    let class = if l.within { "ok" } else { "off" };
                    html! {
                        <tr>
                            <td class="left">{ l.file.clone() }</td><td>{ l.figure.clone() }</td><td>{ format!("{:.2}", l.measured) }</td>
                            <td>{ format!("{:.2}", l.predicted) }</td><td class={classes!("err", class)}>{ pct(l.predicted, l.measured) }</td>
                        </tr>
                    }
                }) }
                </tbody>
            </table>
            </div>
        </>
    }
}

/// Each parameter: preset, fitted, change; an unconstrained one says it was left at the preset.
pub fn params(f: &FitReply) -> Html {
    html! {
        <div class="fit-scroll">
        <table id="fit-params-table" class="fit-table">
            <thead><tr><th class="left">{ "parameter" }</th><th>{ "preset" }</th><th>{ "fitted" }</th><th>{ "change" }</th></tr></thead>
            <tbody>
            { for f.params.iter().map(|p| {
                let free = !f.unconstrained.contains(&p.name);
                html! {
                    <tr data-param={p.name.clone()} data-fitted={p.fitted.clone()} class={classes!((!free).then_some("unconstrained"))}>
                        <td class="left"><code>{ p.name.clone() }</code></td><td>{ format!("{} {}", p.preset, p.unit) }</td>
                        <td>{ format!("{} {}", p.fitted, p.unit) }</td>
                        <td>{ if free { format!("{:+.1} %", p.change_pct) } else { "not constrained: left at the preset".to_string() } }</td>
                    </tr>
                }
            }) }
            </tbody>
        </table>
        </div>
    }
}

/// Every measured figure, simulated on the preset and on the fitted board.
pub fn cases(f: &FitReply) -> Html {
    html! {
        <div class="fit-scroll">
        <table id="fit-cases" class="fit-table">
            <thead><tr><th class="left">{ "result file" }</th><th>{ "figure" }</th><th>{ "measured" }</th>
                <th>{ "preset" }</th><th>{ "error" }</th><th>{ "fitted" }</th><th>{ "error" }</th></tr></thead>
            <tbody>
            { for f.rows.iter().map(|r| html! {
                <tr>
                    <td class="left">{ r.file.clone() }</td><td>{ r.figure.clone() }</td><td>{ format!("{:.2}", r.measured) }</td>
                    <td>{ format!("{:.2}", r.preset) }</td><td>{ pct(r.preset, r.measured) }</td>
                    <td>{ format!("{:.2}", r.fitted) }</td><td>{ pct(r.fitted, r.measured) }</td>
                </tr>
            }) }
            </tbody>
        </table>
        </div>
    }
}

/// The parameters the results leave free, in a sentence.
pub fn unconstrained(f: &FitReply) -> Html {
    if f.unconstrained.is_empty() {
        return html! {
            <p id="fit-unconstrained" class="fit-note">{ "Every parameter fitted moves some figure of these results: none left at the preset." }</p>
        };
    }
    html! {
        <p id="fit-unconstrained" class="fit-note">
            <strong>{ "Not constrained by these results, left at the preset: " }</strong>
            { f.unconstrained.join(", ") }
            { " (doubling, halving or putting it back to the preset moves no figure by more than 2 %)." }
        </p>
    }
}
