//! The "Board" panel: every physical parameter of the platform (the engine's
//! `scenario::board::PARAMS`), grouped by part, with the preset's value and unit, where the
//! value comes from, a field and a slider, and a reset to the preset. Changes are reported as
//! `(option name, text)`, like the scenario form's: the page applies them with the engine's one
//! option parser, so they go into the link and the command line like any other option.

use std::collections::BTreeMap;
use std::rc::Rc;

use mmcsim_engine::platform::{by_name, Platform, PLATFORMS};
use mmcsim_engine::scenario::board::{accepted_with_unit, params, preset_text, Param, Part, Unit};
use mmcsim_engine::scenario::table::OptionRow;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::controls::FieldError;

#[derive(Properties, PartialEq)]
pub struct BoardPanelProps {
    /// The preset the board starts from.
    pub platform: AttrValue,
    /// The scenario's text for each parameter ("" = the preset's value).
    pub values: Rc<BTreeMap<String, String>>,
    #[prop_or_default]
    pub errors: Rc<BTreeMap<String, FieldError>>,
    #[prop_or_default]
    pub disabled: bool,
    /// `(option name, text)`; an empty text puts the preset's value back.
    pub on_change: Callback<(String, String)>,
    /// Save the effective board as a platform file.
    pub on_download: Callback<()>,
    /// A platform file picked to open.
    pub on_file: Callback<web_sys::File>,
    /// What the last platform file did, or its error.
    #[prop_or_default]
    pub status: AttrValue,
}

/// The slider's span for a parameter: 0 to twice the preset's value (or its range's top when
/// the preset is 0), in the written unit.
pub fn slider_span(unit: Unit, preset: u64, max: u64) -> (f64, f64) {
    let top = if preset > 0 {
        preset * 2
    } else {
        max.min(unit.from_f64(100.0))
    };
    (0.0, unit.to_f64(top.min(max)))
}

/// One parameter's row: name, preset value, field, slider, reset and the field it sets.
fn param_row(
    props: &BoardPanelProps,
    preset: &Platform,
    row: &'static OptionRow,
    p: Param,
) -> Html {
    let name = row.name;
    let text = props.values.get(name).cloned().unwrap_or_default();
    let pv = preset_text(preset, &p);
    let (_, max) = p.range();
    let (lo, hi) = slider_span(p.unit, (p.get)(preset), max);
    let shown: f64 = if text.is_empty() { &pv } else { &text }
        .parse()
        .unwrap_or(0.0);
    let emit = {
        let cb = props.on_change.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                cb.emit((name.to_string(), i.value().trim().to_string()));
            }
        })
    };
    let slide = {
        let cb = props.on_change.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                cb.emit((name.to_string(), i.value()));
            }
        })
    };
    let reset = {
        let cb = props.on_change.clone();
        Callback::from(move |_: MouseEvent| cb.emit((name.to_string(), String::new())))
    };
    let step = match p.unit {
        Unit::Count | Unit::Bool | Unit::Mode | Unit::Width | Unit::Kernel | Unit::Driver => 1.0,
        u => ((hi - lo) / 200.0).max(u.to_f64(1)),
    };
    let error = props.errors.get(name);
    html! {
        <tr class={classes!("board-row", (!text.is_empty()).then_some("changed"))} data-param={name}>
            <th scope="row" title={row.help}><label for={format!("board-{name}")}>{ name }</label></th>
            <td class="preset">{ format!("{} {}", pv, p.unit.label()) }</td>
            <td>
                <input id={format!("board-{name}")} class="board-field" type="text" inputmode="decimal"
                       value={text.clone()} placeholder={pv.clone()} disabled={props.disabled}
                       title={accepted_with_unit(row, &p)} onchange={emit} />
                if let Some(e) = error {
                    <div class="field-error" role="alert">{ e.message.clone() }</div>
                }
            </td>
            <td>
                if !matches!(p.unit, Unit::Mode | Unit::Width | Unit::Kernel | Unit::Driver) {
                <input class="board-slider" type="range" min={lo.to_string()} max={hi.to_string()}
                       step={step.to_string()} value={shown.to_string()} disabled={props.disabled}
                       aria-label={format!("{name} slider")} oninput={slide} />
                }
            </td>
            <td>
                <button type="button" class="button secondary small board-reset" disabled={text.is_empty() || props.disabled}
                        onclick={reset} title="back to the preset's value">{ "reset" }</button>
            </td>
            <td class="source" title={row.help}><code>{ p.field }</code></td>
        </tr>
    }
}

#[function_component(BoardPanel)]
pub fn board_panel(props: &BoardPanelProps) -> Html {
    let preset = by_name(&props.platform).unwrap_or(PLATFORMS[0]);
    let changed = props.values.values().filter(|v| !v.is_empty()).count();
    let pick = {
        let cb = props.on_file.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                if let Some(f) = i.files().and_then(|l| l.get(0)) {
                    cb.emit(f);
                }
                i.set_value("");
            }
        })
    };
    let part_html = |part: Part| {
        let rows = params()
            .filter(|(_, p)| p.part == part)
            .map(|(row, p)| param_row(props, preset, row, p));
        html! {
            <>
                <tr class="board-part"><th colspan="6">{ part.title() }</th></tr>
                { for rows }
            </>
        }
    };
    // The table (about 600 elements) is built when the panel is first opened: on a closed
    // panel it was most of the page's first render (a 90-105 ms task on opening a link).
    let (open, ontoggle) = crate::part::use_opened();
    let summary = format!(
        "Board: {} parameter(s) changed from {}",
        changed, preset.name
    );
    if !open {
        return html! {
            <details id="board" class="board" {ontoggle}>
                <summary>{ summary }</summary>
            </details>
        };
    }
    html! {
        <details id="board" class="board" open=true {ontoggle}>
            <summary>{ summary }</summary>
            <p class="board-source">{ "Preset values fitted to: " }{ preset.source }
                { ". Every parameter is an option (same name in the link, the CLI and job files); empty = the preset's." }</p>
            <div class="board-buttons">
                <label class={classes!("button", "secondary", "small", "file-button", props.disabled.then_some("disabled"))}>
                    { "Open board file…" }
                    <input id="board-open" type="file" accept=".toml,text/plain" disabled={props.disabled} onchange={pick} />
                </label>
                <button id="board-save" type="button" class="button secondary small"
                        onclick={props.on_download.reform(|_: MouseEvent| ())}>{ "Save board file" }</button>
                <span class="board-status" role="status">{ props.status.clone() }</span>
            </div>
            <table class="board-table">
                <thead><tr><th>{ "parameter" }</th><th>{ "preset" }</th><th>{ "value" }</th><th></th><th></th><th>{ "field" }</th></tr></thead>
                <tbody>{ for Part::ALL.into_iter().map(part_html) }</tbody>
            </table>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliders_span_twice_the_preset() {
        assert_eq!(slider_span(Unit::Us, 60_000, 100_000_000), (0.0, 120.0));
        assert_eq!(slider_span(Unit::Us, 0, 1_000_000), (0.0, 100.0));
        assert_eq!(slider_span(Unit::Count, 8, 16), (0.0, 16.0));
    }
}
