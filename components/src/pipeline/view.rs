//! Text and names of the pipeline view: number formatting, column titles, kernel names.

use mmcsim_engine::explain::{controller_name, Layer};
use mmcsim_engine::{HostConfig, MmcPath};
use yew::prelude::*;

use super::layout as lay;

pub(super) fn f(v: f64) -> String {
    format!("{v:.1}")
}

/// Column titles in plain words; the kernel's name is the line under each ([`kernel_name`]).
pub(super) fn title(layer: Layer, cfg: &HostConfig) -> String {
    match layer {
        Layer::Jobs => "programs".into(),
        Layer::BlkMq => "block layer".into(),
        Layer::MmcQueue => "admission".into(),
        Layer::HostQueue => match cfg.mmc_path {
            MmcPath::Hsq => "waiting slots".into(),
            MmcPath::Legacy => "one at a time".into(),
            MmcPath::Cqe => "card task queue".into(),
        },
        Layer::Controller => "controller".into(),
        Layer::Bus => "wires (bus)".into(),
        Layer::Card => "storage chip".into(),
    }
}

/// Column titles of the compact view: one short word each, to fit the larger type.
pub(super) fn short_title(layer: Layer) -> &'static str {
    match layer {
        Layer::Jobs => "programs",
        Layer::BlkMq => "block layer",
        Layer::MmcQueue => "window",
        Layer::HostQueue => "slots",
        Layer::Controller => "controller",
        Layer::Bus => "bus",
        Layer::Card => "card",
    }
}

pub(super) fn text(x: f64, y: f64, class: &'static str, s: impl Into<String>) -> Html {
    html! { <text x={f(x)} y={f(y)} {class}>{ s.into() }</text> }
}

pub(super) fn kib(b: u64) -> String {
    if b >= 1 << 20 {
        format!("{:.1} MiB", b as f64 / 1_048_576.0)
    } else {
        format!("{} KiB", b / 1024)
    }
}

/// The kernel's name shown under a column title.
pub(super) fn kernel_name(layer: Layer, cfg: &HostConfig, platform: &str) -> String {
    match layer {
        Layer::Jobs => "fio jobs".into(),
        Layer::BlkMq => "blk-mq".into(),
        Layer::MmcQueue => "mmc queue".into(),
        Layer::HostQueue => match cfg.mmc_path {
            MmcPath::Hsq => format!("hsq: {} slots", lay::host_slots(MmcPath::Hsq)),
            MmcPath::Legacy => "legacy path".into(),
            MmcPath::Cqe => "CQE (what-if)".into(),
        },
        Layer::Controller => controller_name(platform).into(),
        Layer::Bus => "MMC bus".into(),
        Layer::Card => "eMMC / SD".into(),
    }
}
