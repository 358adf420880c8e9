//! Board parameters in the option language: every physical figure of a platform as an option
//! (`nand_read_us=120`, `bus_mb_s=200`, `irq_latency_us=30`), on top of `platform=`.
//!
//! The parameters themselves (name, unit, part, range, the platform field) are the board
//! floor's, [`crate::board::params`]; here they are option rows ([`PARAMS`], built in
//! `table::board`), read by the same parser, writer, links, `--help` and reset as
//! [`super::table::OPTIONS`]. A scenario keeps only the values that differ from its preset
//! ([`Scenario::board`]), so a scenario that overrides nothing writes and links exactly as
//! before.
//!
//! Host switches (the `switch!` rows, [`switch_row`]) share the scenario's one override map
//! ([`Scenario::overrides`]) and its resolution ([`Scenario::effective_platform`]): a switch is
//! a field of `Platform::switches` with its own codec. Unlike a board value, a switch set to
//! the preset's value is kept: it was given, so it is written, linked and warned about.

use super::spec::preset;
use super::table::{Access, OptionRow, Switch, OPTIONS};
use super::{error::ScenarioError, overrides::Overrides, spec::Scenario};
use crate::platform::Platform;
use crate::vocab::{HostConfig, MmcPath, SwitchValue};

pub use super::table::board::PARAMS;
pub use crate::board::params::{Param, Part, Unit};

/// The parameter row named `name`.
pub fn param(name: &str) -> Option<(&'static OptionRow, Param)> {
    params().find(|(r, _)| r.name == name)
}

/// Every parameter row with its [`Param`].
pub fn params() -> impl Iterator<Item = (&'static OptionRow, Param)> {
    PARAMS.iter().filter_map(|r| match r.access {
        Access::Platform(p) => Some((r, p)),
        _ => None,
    })
}

/// The host switch row named `name`, with its codec.
pub fn switch_row(name: &str) -> Option<(&'static OptionRow, Switch)> {
    switch_rows().find(|(r, _)| r.name == name)
}

/// Every host switch row with its codec, in the table's order (the order of `HostConfig`):
/// what a front end reads instead of listing the switches itself.
pub fn switch_rows() -> impl Iterator<Item = (&'static OptionRow, Switch)> {
    OPTIONS.iter().filter_map(|r| match r.access {
        Access::Switch(s) => Some((r, s)),
        _ => None,
    })
}

/// Every host switch of `c` as (name, option text), in the table's order, each written by its
/// row's codec (`hsq_depth` "dynamic", `fua` "0"): the words a link or a job file would use.
pub fn switch_values(c: &HostConfig) -> Vec<(&'static str, String)> {
    // The codecs read a platform's field: the default preset, with `c` as its switches.
    let mut p = *crate::platform::by_name(crate::platform::DEFAULT_PLATFORM)
        .expect("the default platform is a preset");
    p.switches = *c;
    switch_rows()
        .map(|(r, s)| (r.name, (s.text)((s.get)(&p))))
        .collect()
}

/// How the override `name` (a board parameter or a host switch) sets its platform field.
fn put_of(name: &str) -> Option<fn(&mut Platform, u64)> {
    param(name)
        .map(|(_, p)| p.put)
        .or_else(|| switch_row(name).map(|(_, s)| s.put))
}

/// Whether `name` is a board parameter (not a host switch) of the override map.
fn is_board(name: &str) -> bool {
    param(name).is_some()
}

/// `accepted` with the unit, as `--help` and messages say it ("0..=100000 us").
pub fn accepted_with_unit(_row: &OptionRow, p: &Param) -> String {
    p.accepted_with_unit()
}

/// Sets parameter `p` (its row, as written `key`) on the scenario. The value is kept even when
/// it equals the preset's (a later `platform=` may change the preset);
/// [`Scenario::normalize_board`] drops such values once the whole scenario is read.
pub(super) fn set(
    scn: &mut Scenario,
    row: &OptionRow,
    p: &Param,
    key: &str,
    value: Option<&str>,
) -> Result<(), ScenarioError> {
    let v = p
        .parse_value(value.unwrap_or("1"))
        .map_err(|m| ScenarioError::new(key, m))?;
    scn.overrides.insert(row.name.to_string(), v);
    Ok(())
}

/// Sets host switch `s` (its row, as written `key`): kept even when it equals the preset's.
pub(super) fn switch_set(
    scn: &mut Scenario,
    row: &OptionRow,
    s: &Switch,
    key: &str,
    value: Option<&str>,
) -> Result<(), ScenarioError> {
    let v = (s.parse)(key, value)?;
    scn.overrides.insert(row.name.to_string(), v);
    Ok(())
}

/// Host switch `s` as option text; None while the preset's applies (not given).
pub(super) fn switch_get(scn: &Scenario, row: &OptionRow, s: &Switch) -> Option<String> {
    scn.overrides.get(row.name).map(|&v| (s.text)(v))
}

/// The override of parameter `p` as option text; None when it is at the preset's value.
pub(super) fn get(scn: &Scenario, row: &OptionRow, p: &Param) -> Option<String> {
    let v = *scn.overrides.get(row.name)?;
    match scn.platform() {
        Ok(preset) if (p.get)(preset) == v => None,
        _ => Some(p.unit.format(v)),
    }
}

/// The preset's value of parameter `p`, as option text.
pub fn preset_text(platform: &Platform, p: &Param) -> String {
    p.preset_text(platform)
}

impl Scenario {
    /// Drops board values equal to the preset's: they are no override, and a scenario that
    /// overrides nothing writes, links and compares as one without a board.
    pub fn normalize_board(&mut self) {
        // Only board parameters are compared with the preset: a key `param` does not know (a
        // host switch) stays, since a switch given at the preset's value is still given.
        if let Ok(preset) = self.platform() {
            self.overrides
                .retain(|name, v| param(name).is_none_or(|(_, p)| (p.get)(preset) != *v));
        }
        // A data rate equal to the one mode, clock and width give is no override.
        if let Some(&rate) = self.overrides.get("bus_mb_s") {
            let mut derived = self.clone();
            derived.overrides.remove("bus_mb_s");
            if derived
                .effective_platform()
                .is_ok_and(|p| p.bus.derived_bytes_per_sec() == rate)
            {
                self.overrides.remove("bus_mb_s");
            }
        }
    }

    /// The platform this scenario runs on: its preset with the overrides (host switches and
    /// board parameters) applied. Its `switches` are the resolved host switches.
    pub fn effective_platform(&self) -> Result<Platform, ScenarioError> {
        let mut p = *self.platform()?;
        // Switches and board parameters set disjoint fields: the map's order does not matter.
        for (name, &v) in &self.overrides {
            let put = put_of(name).ok_or_else(|| {
                ScenarioError::new(name.as_str(), "unknown board parameter; see --help")
            })?;
            put(&mut p, v);
        }
        // hsq's depth as the board's kernel runs it, unless given: from Linux 6.7 every hsq host
        // adjusts it (`mmc_hsq_modify_threshold`), so a preset's window of 2 becomes dynamic
        // under `kernel=6.12` (a preset's measured patch stays as it is, labelled: `what_if.rs`).
        if !self.overrides.contains_key("hsq_depth")
            && p.kernel >= crate::board::HSQ_DYNAMIC_SINCE
            && p.switches.hsq_depth == crate::vocab::HsqDepth::Fixed(crate::vocab::HSQ_NORMAL_DEPTH)
        {
            p.switches.hsq_depth = crate::vocab::HsqDepth::Dynamic;
        }
        // Command queueing the board's kernel or card cannot run: what that kernel runs instead
        // (`warnings` says so).
        if p.switches.mmc_path == MmcPath::Cqe && p.cq_refusal().is_some() {
            p.switches.mmc_path = MmcPath::Legacy;
        }
        Ok(p)
    }

    /// The board parameter overrides (the map without its host switches).
    pub fn board(&self) -> impl Iterator<Item = (&String, &u64)> {
        self.overrides.board()
    }

    /// Drops every board parameter override; the host switches stay.
    pub fn clear_board(&mut self) {
        self.overrides.clear_board();
    }

    /// This scenario's host switches with `from`'s board parameters.
    pub fn put_board_of(&mut self, from: &Scenario) {
        self.overrides = self.overrides.with_board_of(&from.overrides);
    }

    /// The host switch overrides (the map without its board parameters).
    pub fn switch_overrides(&self) -> Overrides {
        self.overrides.switches()
    }

    /// Host switch `key` as given, None when the preset's applies.
    pub fn switch<T: SwitchValue>(&self, key: &str) -> Option<T> {
        debug_assert!(switch_row(key).is_some(), "{key} is not a host switch");
        self.overrides.get(key).map(|&v| T::from_u64(v))
    }

    /// Sets host switch `key` (None: back to the preset's).
    pub fn set_switch<T: SwitchValue>(&mut self, key: &str, v: Option<T>) {
        debug_assert!(switch_row(key).is_some(), "{key} is not a host switch");
        match v {
            Some(v) => self.overrides.insert(key.to_string(), v.to_u64()),
            None => self.overrides.remove(key),
        };
    }

    /// Sets every board parameter so that the effective platform is `p` on top of `p`'s
    /// preset (`platform=` is set to `base`).
    pub fn set_board(&mut self, base: &str, p: &Platform) -> Result<(), ScenarioError> {
        let preset = preset(base)?;
        self.platform = base.to_string();
        self.clear_board();
        for (row, param) in params() {
            let v = (param.get)(p);
            if v != (param.get)(preset) {
                self.overrides.insert(row.name.to_string(), v);
            }
        }
        Ok(())
    }
}

/// The split of an override map by the option table: which names are board parameters and
/// which host switches. The web app's A/B pair merges B's switches and board with these.
impl Overrides {
    /// The board parameter overrides (the map without its host switches).
    pub fn board(&self) -> impl Iterator<Item = (&String, &u64)> {
        self.iter().filter(|(k, _)| is_board(k))
    }

    /// The host switch overrides (the map without its board parameters).
    pub fn switches(&self) -> Overrides {
        self.iter()
            .filter(|(k, _)| !is_board(k))
            .map(|(k, &v)| (k.clone(), v))
            .collect()
    }

    /// Drops every board parameter override; the host switches stay.
    pub fn clear_board(&mut self) {
        self.retain(|k, _| !is_board(k));
    }

    /// These host switches with `from`'s board parameters (this map's own board dropped).
    pub fn with_board_of(&self, from: &Overrides) -> Overrides {
        let mut out = self.switches();
        out.extend(from.board().map(|(k, &v)| (k.clone(), v)));
        out
    }
}
