//! The scenario form: platform preset, workload and host switches.
//!
//! Every control is named after the scenario option it sets (fio's name where fio has one),
//! and reports `(name, text)` exactly as typed: the app hands that to the engine's option
//! parser, the one parser the CLI and job files use too, and passes back either the accepted
//! text or the parser's message. The form never interprets a value itself.

use std::collections::BTreeMap;
use std::rc::Rc;

use mmcsim_engine::platform::{by_name, Platform, PLATFORMS};
use mmcsim_engine::scenario::options::{preset_text, value_text};
use mmcsim_engine::scenario::table::{form_rows, lookup, FormGroup, FormHint, OptionRow, Widget};
use mmcsim_engine::Scenario;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// One choice of a select: the option text the parser receives, and what the user reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub value: String,
    pub label: String,
}

impl Choice {
    fn same(v: &str) -> Self {
        Choice {
            value: v.to_string(),
            label: v.to_string(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ControlKind {
    Select(Vec<Choice>),
    /// Free text (sizes such as `4k`, counts); an empty text means the platform default.
    Text {
        placeholder: String,
    },
}

/// One control: `name` is the scenario option it sets.
#[derive(Clone, Debug, PartialEq)]
pub struct Control {
    pub name: &'static str,
    pub label: &'static str,
    /// One line under the control; what the option accepts is its tooltip (engine table).
    pub help: String,
    pub kind: ControlKind,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ControlGroup {
    pub title: &'static str,
    pub controls: Vec<Control>,
}

/// A rejected value: the parser's message, and a sequence number that changes with every
/// rejection so the control snaps back to its last good value even for the same bad text.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub message: String,
    pub seq: u32,
}

/// What the option accepts, from the engine's option table (shown as the control's tooltip).
fn accepted(name: &str) -> Option<&'static str> {
    lookup(name).map(|o| o.accepted)
}

fn on_off(preset: Option<&str>) -> ControlKind {
    let mut choices = Vec::new();
    if let Some(p) = preset {
        let d = if p == "1" { "on" } else { "off" };
        choices.push(Choice {
            value: String::new(),
            label: format!("default ({d})"),
        });
    }
    choices.push(Choice {
        value: "1".into(),
        label: "on".into(),
    });
    choices.push(Choice {
        value: "0".into(),
        label: "off".into(),
    });
    ControlKind::Select(choices)
}

/// One control from its option table row: host switches offer "the platform's default",
/// named after the preset's value.
fn control(p: &Platform, row: &'static OptionRow, hint: FormHint) -> Control {
    let preset = preset_text(p, row.name);
    let kind = match hint.widget {
        Widget::Platforms => {
            ControlKind::Select(PLATFORMS.iter().map(|p| Choice::same(p.name)).collect())
        }
        Widget::OnOff => on_off(preset.as_deref()),
        Widget::Choices(values) => {
            let default = preset.map(|d| Choice {
                value: String::new(),
                label: format!("default ({d})"),
            });
            ControlKind::Select(
                default
                    .into_iter()
                    .chain(values.iter().map(|v| Choice::same(v)))
                    .collect(),
            )
        }
        Widget::Text { placeholder } => ControlKind::Text {
            placeholder: match preset {
                Some(d) => format!("default: {d}"),
                None => placeholder.to_string(),
            },
        },
    };
    let help = match hint.widget {
        // The preset's own description says what it is.
        Widget::Platforms => p.description.to_string(),
        _ => hint.help.to_string(),
    };
    Control {
        name: row.name,
        label: hint.label,
        help,
        kind,
    }
}

/// The controls, in the order the form shows them: the engine option table's rows that carry a
/// form hint. Host-switch defaults come from the selected platform preset, so "platform
/// default" always says what it stands for.
pub fn form_spec(platform: &str) -> Vec<ControlGroup> {
    let p = by_name(platform).unwrap_or(PLATFORMS[0]);
    FormGroup::ALL
        .iter()
        .map(|&g| ControlGroup {
            title: g.title(),
            controls: form_rows(g)
                .map(|(row, hint)| control(p, row, hint))
                .collect(),
        })
        .collect()
}

#[derive(Properties, PartialEq)]
pub struct ControlsFormProps {
    /// The selected platform preset (for the "platform default" labels).
    pub platform: AttrValue,
    /// The current, accepted text of each control by option name ("" = platform default).
    pub values: Rc<BTreeMap<String, String>>,
    /// Rejected values by option name.
    #[prop_or_default]
    pub errors: Rc<BTreeMap<String, FieldError>>,
    /// True while a simulation runs.
    #[prop_or_default]
    pub disabled: bool,
    /// `(option name, text as entered)`.
    pub on_change: Callback<(String, String)>,
}

#[function_component(ControlsForm)]
pub fn controls_form(props: &ControlsFormProps) -> Html {
    let groups = form_spec(&props.platform);
    html! {
        <form class="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            { for groups.into_iter().map(|g| {
                let advanced = g.title == FormGroup::Advanced.title();
                // Options set away from their default (the count is on the folded group's title).
                let set = g.controls.iter().filter(|c| advanced && props.values.get(c.name)
                    .is_some_and(|v| !v.is_empty() && *v != value_text(&Scenario::default(), c.name))).count();
                let fields = html! {
                    <fieldset class="group" disabled={props.disabled} id={format!("group-{}", g.title.to_ascii_lowercase())}>
                        <legend>{ g.title }</legend>
                        { for g.controls.into_iter().map(|c| {
                            let value = props.values.get(c.name).cloned().unwrap_or_default();
                            let error = props.errors.get(c.name).cloned();
                            let note = overridden(c.name, &props.values);
                            html! { <Field control={c} {value} {error} {note} on_change={props.on_change.clone()} /> }
                        }) }
                    </fieldset>
                };
                if advanced {
                    html! { <details class="advanced" id="advanced">
                        <summary>{ format!("Advanced options{}", if set > 0 { format!(" ({set} in effect)") } else { String::new() }) }</summary>
                        { fields }
                    </details> }
                } else { fields }
            }) }
        </form>
    }
}

/// Why a control has no effect in this scenario, when another option overrides it: the
/// kernel's mmc_test cases fix blocking or non-blocking themselves (37/39 blocking, 38/40
/// non-blocking), so the `nonblocking` switch changes nothing while `mmc_test` is set.
pub fn overridden(name: &str, values: &BTreeMap<String, String>) -> Option<String> {
    let test = values.get("mmc_test").filter(|v| !v.is_empty())?;
    match name {
        "nonblocking" => {
            let n: u32 = test.parse().ok()?;
            let mode = if n.is_multiple_of(2) {
                "non-blocking"
            } else {
                "blocking"
            };
            Some(format!(
                "mmc_test={n} sets {mode} itself: this switch has no effect while mmc_test is set."
            ))
        }
        "rw" | "bs" | "numjobs" | "iodepth" | "ioengine" => Some(format!(
            "mmc_test={test} runs the kernel's test instead of fio jobs: this has no effect."
        )),
        _ => None,
    }
}

#[derive(Properties, PartialEq)]
struct FieldProps {
    control: Control,
    value: String,
    error: Option<FieldError>,
    #[prop_or_default]
    note: Option<String>,
    on_change: Callback<(String, String)>,
}

#[function_component(Field)]
fn field(props: &FieldProps) -> Html {
    let c = &props.control;
    let id = format!("ctl-{}", c.name);
    let node = use_node_ref();
    // Put the accepted value back into the element whenever it changes or a new rejection
    // arrives: a rejected text does not stay on screen as if it were in effect.
    {
        let node = node.clone();
        let seq = props.error.as_ref().map(|e| e.seq);
        use_effect_with((props.value.clone(), seq), move |(value, _)| {
            if let Some(i) = node.cast::<HtmlInputElement>() {
                if i.value() != *value {
                    i.set_value(value);
                }
            } else if let Some(s) = node.cast::<HtmlSelectElement>() {
                if s.value() != *value {
                    s.set_value(value);
                }
            }
        });
    }
    let name = c.name.to_string();
    let cb = props.on_change.clone();
    let onchange = Callback::from(move |e: Event| {
        let text = if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
            i.value()
        } else if let Some(s) = e.target_dyn_into::<HtmlSelectElement>() {
            s.value()
        } else {
            return;
        };
        cb.emit((name.clone(), text.trim().to_string()));
    });
    let invalid = props.error.is_some();
    let title = accepted(c.name).map(|a| format!("{}: {a}", c.name));
    let class = classes!("field", invalid.then_some("invalid"));
    let input = match &c.kind {
        ControlKind::Select(choices) => html! {
            <select id={id.clone()} name={c.name} ref={node} {onchange} title={title.clone()} aria-invalid={invalid.to_string()}>
                { for choices.iter().map(|ch| html! {
                    <option value={ch.value.clone()} selected={ch.value == props.value}>{ &ch.label }</option>
                }) }
            </select>
        },
        ControlKind::Text { placeholder } => html! {
            <input id={id.clone()} name={c.name} type="text" ref={node} value={props.value.clone()}
                   placeholder={placeholder.clone()} spellcheck="false" autocomplete="off" {title}
                   {onchange} aria-invalid={invalid.to_string()} />
        },
    };
    html! {
        <div {class}>
            <label for={id}>{ c.label }</label>
            { input }
            if let Some(e) = &props.error {
                <p class="error" id={format!("err-{}", c.name)} role="alert">{ &e.message }</p>
            } else if let Some(n) = &props.note {
                <p class="help override" id={format!("note-{}", c.name)}>{ n }</p>
            } else {
                <p class="help">{ &c.help }</p>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 12: on u300, mmc_test sets non-blocking, so toggling the switch changed nothing,
    /// silently. The form says so, and every option in effect has a control.
    #[test]
    fn a_preset_that_overrides_a_switch_says_so() {
        let mut v = BTreeMap::new();
        assert_eq!(overridden("nonblocking", &v), None);
        v.insert("mmc_test".to_string(), "38".to_string());
        assert!(overridden("nonblocking", &v)
            .unwrap()
            .contains("non-blocking"));
        v.insert("mmc_test".to_string(), "37".to_string());
        assert!(overridden("nonblocking", &v)
            .unwrap()
            .contains("sets blocking"));
        let names: Vec<&str> = form_spec("u300-mmci-2011")
            .iter()
            .flat_map(|g| g.controls.iter().map(|c| c.name))
            .collect();
        for n in [
            "sync",
            "mmc_test",
            "cache",
            "runtime",
            "time_based",
            "rwmixread",
            "fsync",
            "inject_error",
        ] {
            assert!(names.contains(&n), "{n}");
        }
    }

    #[test]
    fn every_control_is_an_engine_option_and_every_preset_has_a_form() {
        for p in PLATFORMS.iter() {
            let groups = form_spec(p.name);
            let names: Vec<&str> = groups
                .iter()
                .flat_map(|g| g.controls.iter().map(|c| c.name))
                .collect();
            for n in &names {
                // An option, or the one board parameter the form offers (the kernel).
                assert!(
                    lookup(n).is_some_and(|o| o.name == *n),
                    "control {n} is no engine option"
                );
            }
            let unique: std::collections::HashSet<_> = names.iter().collect();
            assert_eq!(unique.len(), names.len(), "a control twice: {names:?}");
            // The platform select lists every preset, the chosen one among them.
            let platform = groups
                .iter()
                .flat_map(|g| &g.controls)
                .find(|c| c.name == "platform")
                .expect("a platform control");
            match &platform.kind {
                ControlKind::Select(choices) => {
                    assert_eq!(choices.len(), PLATFORMS.len());
                    assert!(choices.iter().any(|c| c.value == p.name));
                }
                other => panic!("platform is {other:?}"),
            }
        }
    }
}
