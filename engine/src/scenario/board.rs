//! Board parameters in the option language: every physical figure of a platform as an option
//! (`nand_read_us=120`, `bus_mb_s=200`, `irq_latency_us=30`), on top of `platform=`.
//!
//! The parameters themselves (name, unit, part, range, the platform field) are the board
//! floor's, [`crate::board::params`]; here they are option rows ([`PARAMS`], built in
//! `table::board`), read by the same parser, writer, links, `--help` and reset as
//! [`super::table::OPTIONS`]. A scenario keeps only the values that differ from its preset
//! ([`Scenario::board`]), so a scenario that overrides nothing writes and links exactly as
//! before.

use super::spec::preset;
use super::table::{Access, OptionRow};
use super::{error::ScenarioError, spec::Scenario};
use crate::platform::Platform;

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
    scn.board.insert(row.name.to_string(), v);
    Ok(())
}

/// The override of parameter `p` as option text; None when it is at the preset's value.
pub(super) fn get(scn: &Scenario, row: &OptionRow, p: &Param) -> Option<String> {
    let v = *scn.board.get(row.name)?;
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
        if let Ok(preset) = self.platform() {
            self.board
                .retain(|name, v| param(name).is_none_or(|(_, p)| (p.get)(preset) != *v));
        }
        // A data rate equal to the one mode, clock and width give is no override.
        if let Some(&rate) = self.board.get("bus_mb_s") {
            let mut derived = self.clone();
            derived.board.remove("bus_mb_s");
            if derived
                .effective_platform()
                .is_ok_and(|p| p.bus.derived_bytes_per_sec() == rate)
            {
                self.board.remove("bus_mb_s");
            }
        }
    }

    /// The platform this scenario runs on: its preset with the board overrides applied.
    pub fn effective_platform(&self) -> Result<Platform, ScenarioError> {
        let mut p = *self.platform()?;
        for (name, &v) in &self.board {
            let (_, param) = param(name).ok_or_else(|| {
                ScenarioError::new(name.as_str(), "unknown board parameter; see --help")
            })?;
            (param.put)(&mut p, v);
        }
        Ok(p)
    }

    /// Sets every board parameter so that the effective platform is `p` on top of `p`'s
    /// preset (`platform=` is set to `base`).
    pub fn set_board(&mut self, base: &str, p: &Platform) -> Result<(), ScenarioError> {
        let preset = preset(base)?;
        self.platform = base.to_string();
        self.board.clear();
        for (row, param) in params() {
            let v = (param.get)(p);
            if v != (param.get)(preset) {
                self.board.insert(row.name.to_string(), v);
            }
        }
        Ok(())
    }
}
