//! Download buttons for a finished run's results, and the Share box for the scenario's link.

use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What a download button asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    /// fio's `--output-format=json`.
    FioJson,
    /// The time series as CSV.
    Csv,
    /// The simulated timeline as Chrome trace-event JSON.
    Trace,
    /// Perfetto's own protobuf trace, to open at ui.perfetto.dev.
    Perfetto,
    /// The charts as PNG images.
    Png,
}

impl ExportKind {
    pub const ALL: [ExportKind; 5] = [
        ExportKind::FioJson,
        ExportKind::Csv,
        ExportKind::Trace,
        ExportKind::Perfetto,
        ExportKind::Png,
    ];
    /// The button's id.
    pub fn id(self) -> &'static str {
        match self {
            ExportKind::FioJson => "export-json",
            ExportKind::Csv => "export-csv",
            ExportKind::Trace => "export-trace",
            ExportKind::Perfetto => "export-perfetto",
            ExportKind::Png => "export-png",
        }
    }
    fn label(self) -> &'static str {
        match self {
            ExportKind::FioJson => "fio JSON",
            ExportKind::Csv => "Time series CSV",
            ExportKind::Trace => "Trace (Perfetto)",
            ExportKind::Perfetto => "Open in Perfetto",
            ExportKind::Png => "Charts PNG",
        }
    }
    fn title(self) -> &'static str {
        match self {
            ExportKind::FioJson => "The report as fio --output-format=json prints it (the same bytes as the mmcsim CLI)",
            ExportKind::Csv => "Throughput, IOPS and requests in flight per time bucket",
            ExportKind::Trace => "The simulated timeline as Chrome trace-event JSON: open it in ui.perfetto.dev or chrome://tracing",
            ExportKind::Perfetto => "Perfetto's own trace (the kernel's block and mmc events, the stages, slots and bus): saved, then opened at ui.perfetto.dev",
            ExportKind::Png => "Each chart as a PNG image",
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct ExportsBarProps {
    /// A finished run's results exist.
    pub enabled: bool,
    /// A line under the buttons (what was saved, or a warning about the trace's size).
    #[prop_or_default]
    pub status: AttrValue,
    /// Busy exporting (the buttons wait).
    #[prop_or_default]
    pub busy: bool,
    pub on_export: Callback<ExportKind>,
}

/// The download buttons.
#[function_component(ExportsBar)]
pub fn exports_bar(props: &ExportsBarProps) -> Html {
    html! {
        <div class="exports" aria-label="Export the results">
            <span class="exports-title">{ "Download" }</span>
            { for ExportKind::ALL.iter().map(|&k| {
                let cb = props.on_export.clone();
                html! {
                    <button type="button" id={k.id()} class="button secondary small" title={k.title()}
                            disabled={!props.enabled || props.busy} onclick={Callback::from(move |_| cb.emit(k))}>
                        { k.label() }
                    </button>
                }
            }) }
            if !props.status.is_empty() {
                <p class="exports-status" id="export-status" role="status">{ props.status.clone() }</p>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ShareBoxProps {
    /// The page's full URL for the scenario.
    pub url: AttrValue,
    /// The confirmation shown after a copy ("Copied"), or what to do when copying failed.
    #[prop_or_default]
    pub status: AttrValue,
    /// A change makes the box select its text (the fallback when the clipboard is unavailable).
    #[prop_or_default]
    pub select_seq: u32,
    pub on_share: Callback<()>,
}

/// The scenario's link in a read-only field, and a Share button that copies it.
#[function_component(ShareBox)]
pub fn share_box(props: &ShareBoxProps) -> Html {
    let input = use_node_ref();
    {
        let input = input.clone();
        use_effect_with(props.select_seq, move |seq| {
            if *seq > 0 {
                if let Some(i) = input.cast::<HtmlInputElement>() {
                    let _ = i.focus();
                    i.select();
                }
            }
        });
    }
    let select_all = Callback::from(|e: FocusEvent| {
        if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
            i.select();
        }
    });
    html! {
        <div class="share">
            <label for="share-url">{ "Link to this scenario" }</label>
            <div class="share-row">
                <input id="share-url" type="text" readonly=true ref={input} value={props.url.clone()} onfocus={select_all} spellcheck="false" />
                <button id="share" type="button" class="button secondary small" onclick={props.on_share.reform(|_: MouseEvent| ())}>{ "Share" }</button>
            </div>
            if !props.status.is_empty() {
                <p class="share-status" id="share-status" role="status">{ props.status.clone() }</p>
            }
        </div>
    }
}
