//! Platform files for a scenario: its effective board as TOML ([`to_toml`]) and a file read onto
//! it ([`apply_toml`]), through the board floor's [`crate::board::file`] and the one option
//! parser (a bad value gets the same message as on the command line).

use super::apply::{apply_option, OptionScope};
use super::{error::ScenarioError, spec::Scenario};
use crate::board::file::{read_toml, Setting};

pub use crate::board::params::unit_of;

/// The scenario's effective platform as a platform file: every parameter, with its help and
/// the preset's value in a comment.
pub fn to_toml(scn: &Scenario) -> Result<String, ScenarioError> {
    let preset = scn.platform()?;
    let p = scn.effective_platform()?;
    Ok(crate::board::file::to_toml(preset, &p, scn.board().count()))
}

/// Reads a platform file onto `scn`: sets its platform and replaces its board parameters.
/// `file` names the file in messages.
pub fn apply_toml(scn: &mut Scenario, file: &str, text: &str) -> Result<(), ScenarioError> {
    let mut next = scn.clone();
    read_toml(text, &mut |setting| match setting {
        Setting::Base(base) => {
            apply_option(&mut next, OptionScope::Global, "platform", Some(base))
                .map_err(|e| e.message)?;
            next.clear_board();
            Ok(())
        }
        Setting::Param(p, text) => {
            apply_option(&mut next, OptionScope::Global, p.name, Some(text)).map_err(|e| e.message)
        }
    })
    .map_err(|e| match e.field {
        Some(field) => ScenarioError::new(format!("{file}: {field}"), e.message),
        None => ScenarioError::general(format!("{file}: {}", e.message)),
    })?;
    next.normalize_board();
    *scn = next;
    Ok(())
}
