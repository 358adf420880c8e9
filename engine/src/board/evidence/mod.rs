//! How sure each board parameter is: every parameter of a preset is marked fitted, estimated,
//! measured or known, with the source of its value and, where the evidence allows one, the
//! range its value could take (issue 47, part 2).
//!
//! The presets were fitted by hand (their comments give each fit's figures), not by
//! `mmcsim fit`, so no preset has a leave-one-out spread; a range here comes from something
//! named instead: the preset's own earlier fit to the same figures, another board's value for
//! the same quantity, a bound the measured figures set, or (said so) a factor of two either way
//! of a typical value that nothing measured. A parameter with no such range is still marked,
//! with no range, and a sensitivity run does not vary it ([`Evidence::range`] is None).
//!
//! The tables (`tables.rs`) hold one list of claims per preset; every parameter a table does
//! not name takes the rule of its kind ([`default_claim`]).

mod tables;

use super::params::{Param, PARAMS};
use super::Platform;
use serde::Serialize;

/// What a parameter's value rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// Chosen so that the simulated figures reproduce the preset's measurements.
    Fitted,
    /// A typical value for such a board, not measured on this one and not fitted.
    Estimated,
    /// Measured on the board (or stated by its source).
    Measured,
    /// Known from the board's configuration, its kernel or a specification.
    Known,
}

impl Basis {
    pub fn key(self) -> &'static str {
        match self {
            Basis::Fitted => "fitted",
            Basis::Estimated => "estimated",
            Basis::Measured => "measured",
            Basis::Known => "known",
        }
    }
    /// Whether the value is uncertain (a sensitivity run varies it when it has a range).
    pub fn uncertain(self) -> bool {
        matches!(self, Basis::Fitted | Basis::Estimated)
    }
}

/// One row of a preset's table: a parameter, what its value rests on and the range its
/// evidence allows (`low`/`high` in the parameter's unit, both empty for none).
#[derive(Clone, Copy, Debug)]
pub struct Claim {
    pub param: &'static str,
    pub basis: Basis,
    pub low: &'static str,
    pub high: &'static str,
    /// Where the value and its range come from, in one sentence.
    pub why: &'static str,
}

/// A parameter of one platform as the evidence marks it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evidence {
    pub param: &'static str,
    pub basis: Basis,
    /// The platform's value, as option text with its unit (`70 us`).
    pub value: String,
    /// The range's ends in internal units (None: no range assessed; not varied).
    #[serde(skip)]
    pub range: Option<(u64, u64)>,
    /// The range as option text (`10..130 us`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range_text: Option<String>,
    pub why: String,
}

/// A parameter's value with its unit, as messages write it.
pub fn with_unit(param: &Param, v: u64) -> String {
    let label = param.unit.label();
    let text = param.unit.format(v);
    if label.is_empty() || matches!(param.unit, super::params::Unit::Count) {
        text
    } else {
        format!("{text} {label}")
    }
}

/// Parameters every preset sets to a typical value of its class, not measured on the board:
/// half to twice that value is the range (a convention for a value nothing measured, said so).
const TYPICAL: &[(&str, &str)] = &[
    (
        "sched_cpu_pct",
        "an estimate from the cores' single-thread speed against bfq-iosched.rst's 2012 laptop \
         core (no scheduler benchmark ran on the board); range: half to twice it",
    ),
    (
        "cqhci_irq_us",
        "typical of the SoC's interrupt entry and cqhci_irq, not measured; range: half to twice it",
    ),
    (
        "cqhci_halt_us",
        "typical of cqhci_off's register writes and poll, not measured; range: half to twice it",
    ),
    (
        "cqhci_finish_us",
        "the preset's irq_done_us, what the CQE charged per task before it was split out; not \
         measured; range: half to twice it",
    ),
];

/// The claim of a parameter no table names: the rule of its kind, with its range in internal
/// units where the rule gives one.
pub fn default_claim(param: &Param, platform: &Platform) -> (Basis, String, Option<(u64, u64)>) {
    if let Some((_, why)) = TYPICAL.iter().find(|(n, _)| *n == param.name) {
        let v = (param.get)(platform);
        let (min, max) = param.range();
        let range = (v > 0).then(|| ((v / 2).max(min), v.saturating_mul(2).min(max)));
        return (Basis::Estimated, why.to_string(), range);
    }
    let (basis, why) = kind_claim(param, platform);
    (basis, why, None)
}

fn kind_claim(param: &Param, platform: &Platform) -> (Basis, String) {
    const STRUCTURE: &[&str] = &[
        "kernel",
        "host_driver",
        "bus_mode",
        "bus_width",
        "card_reliable_write",
        "card_sd",
        "cqe_dcmd",
        "cmdq_depth",
        "max_posted_writes",
        "adma3_max_chain",
        "max_req_kib",
        "cpus",
    ];
    const VARIATION: &[&str] = &[
        "sw_shape",
        "preempt_pct",
        "preempt_us",
        "read_retry_pct",
        "program_sigma",
        "gc_every_kib",
        "gc_pause_us",
    ];
    if STRUCTURE.contains(&param.name) {
        return (
            Basis::Known,
            "the board's configuration (its kernel, driver or card as the source or the spec \
             states it; the preset's comment says which)"
                .to_string(),
        );
    }
    if VARIATION.contains(&param.name) {
        return (
            Basis::Estimated,
            "the variation table of the preset's card class (engine/src/variation: typical \
             figures of such cards), not fitted to this board; no range assessed"
                .to_string(),
        );
    }
    if param.name == "trim_us" {
        return (
            Basis::Estimated,
            "a typical discard time, not measured (no series has trims); JEDEC bounds it by \
             300 ms x TRIM_MULT"
                .to_string(),
        );
    }
    (
        Basis::Fitted,
        format!(
            "fitted by hand with the preset's other values to its source's figures ({}); no \
             range assessed (a hand fit has no leave-one-out spread)",
            platform.source
        ),
    )
}

/// The table of the preset named `name` (empty for a name no preset has).
pub fn table(name: &str) -> &'static [Claim] {
    tables::TABLES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
        .unwrap_or(&[])
}

/// The evidence of one parameter of `platform` (a preset's table, else the rule of its kind).
pub fn of(platform: &Platform, param: &'static Param) -> Evidence {
    let value = with_unit(param, (param.get)(platform));
    match table(platform.name).iter().find(|c| c.param == param.name) {
        Some(c) => {
            let range = match (param.parse_value(c.low), param.parse_value(c.high)) {
                (Ok(lo), Ok(hi)) if !c.low.is_empty() => Some((lo, hi)),
                _ => None,
            };
            Evidence {
                param: param.name,
                basis: c.basis,
                value,
                range,
                range_text: range.map(|r| range_text(param, r)),
                why: c.why.to_string(),
            }
        }
        None => {
            let (basis, why, range) = default_claim(param, platform);
            Evidence {
                param: param.name,
                basis,
                value,
                range,
                range_text: range.map(|r| range_text(param, r)),
                why,
            }
        }
    }
}

/// A range as option text with the unit (`10..130 us`).
fn range_text(param: &Param, (lo, hi): (u64, u64)) -> String {
    let label = match param.unit {
        super::params::Unit::Count => "",
        u => u.label(),
    };
    format!(
        "{}..{} {label}",
        param.unit.format(lo),
        param.unit.format(hi)
    )
    .trim_end()
    .to_string()
}

/// Every board parameter of `platform`, marked, in the order of [`PARAMS`].
pub fn evidence(platform: &Platform) -> Vec<Evidence> {
    PARAMS.iter().map(|p| of(platform, p)).collect()
}
