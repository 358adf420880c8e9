//! The Board panel's page side: the scenario's board parameter texts for
//! [`mmcsim_components::BoardPanel`], and its platform files (save the effective board, open
//! one) through the engine's `scenario::board_file`.

use std::collections::BTreeMap;
use std::rc::Rc;

use mmcsim_components::{BoardPanel, FieldError};
use mmcsim_engine::scenario::board::params;
use mmcsim_engine::scenario::board_file::{apply_toml, to_toml};
use mmcsim_engine::scenario::options::value_text;
use mmcsim_engine::Scenario;
use yew::prelude::*;

use crate::tools::download;
use crate::tools::input_limit::PageInput;

/// The text of every board parameter ("" = the preset's value).
pub fn board_texts(scn: &Scenario) -> BTreeMap<String, String> {
    params()
        .map(|(row, _)| (row.name.to_string(), value_text(scn, row.name)))
        .collect()
}

/// `texts` with each refused text in place of its parameter's.
fn with_refused(
    mut texts: BTreeMap<String, String>,
    refused: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    for (name, text) in refused {
        if let Some(t) = texts.get_mut(name) {
            t.clone_from(text);
        }
    }
    texts
}

#[derive(Properties, PartialEq)]
pub struct BoardViewProps {
    pub scenario: Rc<Scenario>,
    #[prop_or_default]
    pub errors: Rc<BTreeMap<String, FieldError>>,
    /// The refused text of each parameter in error, shown in its field in place of the value.
    #[prop_or_default]
    pub refused: Rc<BTreeMap<String, String>>,
    #[prop_or_default]
    pub disabled: bool,
    /// A parameter's text, as the scenario form's controls report theirs.
    pub on_change: Callback<(String, String)>,
    /// A platform file read onto the scenario.
    pub on_scenario: Callback<Scenario>,
    /// The panel shows and edits B of the A/B comparison.
    #[prop_or_default]
    pub side_b: bool,
    /// The "editing A / B" switch.
    pub on_side: Callback<bool>,
}

#[function_component(BoardView)]
pub fn board_view(props: &BoardViewProps) -> Html {
    let status = use_state(AttrValue::default);
    let on_download = {
        let scn = props.scenario.clone();
        let status = status.clone();
        Callback::from(move |()| {
            let r = to_toml(&scn)
                .map_err(|e| e.to_string())
                .and_then(|t| download::download_text("board.toml", "application/toml", &t));
            status.set(match r {
                Ok(()) => "Saved board.toml.".into(),
                Err(e) => format!("Could not save: {e}").into(),
            });
        })
    };
    let on_file = {
        let scn = props.scenario.clone();
        let status = status.clone();
        let on_scenario = props.on_scenario.clone();
        Callback::from(move |file: web_sys::File| {
            let name = file.name();
            let (scn, status, on_scenario) = (scn.clone(), status.clone(), on_scenario.clone());
            download::read_text_file(file, PageInput::PlatformFile, move |r| {
                let mut next = (*scn).clone();
                match r.and_then(|t| apply_toml(&mut next, &name, &t).map_err(|e| e.to_string())) {
                    Ok(()) => {
                        status.set(
                            format!(
                                "Loaded {}: {} parameter(s) changed from {}.",
                                crate::tools::input_limit::shown_name(&name),
                                next.board().count(),
                                next.platform
                            )
                            .into(),
                        );
                        on_scenario.emit(next);
                    }
                    Err(e) => status.set(format!("{e}. The board is unchanged.").into()),
                }
            });
        })
    };
    let side = |b: bool| {
        let cb = props.on_side.clone();
        Callback::from(move |_: Event| cb.emit(b))
    };
    html! {
        <>
        <div class="board-side" role="radiogroup" aria-label="Board panel edits">
            <label><input id="board-edit-a" type="radio" name="board-side" checked={!props.side_b}
                          disabled={props.disabled} onchange={side(false)} />{ " editing A" }</label>
            <label title="B of the A/B comparison in Watch the pipeline: A's workload and seed on this board">
                <input id="board-edit-b" type="radio" name="board-side" checked={props.side_b}
                       disabled={props.disabled} onchange={side(true)} />{ " editing B" }</label>
        </div>
        <BoardPanel platform={AttrValue::from(props.scenario.platform.clone())}
                    values={Rc::new(with_refused(board_texts(&props.scenario), &props.refused))} errors={props.errors.clone()}
                    disabled={props.disabled} on_change={props.on_change.clone()}
                    {on_download} {on_file} status={(*status).clone()} />
        <crate::tools::fit::FitView scenario={props.scenario.clone()} on_scenario={props.on_scenario.clone()} />
        </>
    }
}
