//! The row types of the option table: [`OptionRow`] (what one option is) and [`Access`] (how it
//! reads and writes its field), with the page's form hints.

use crate::board::params::Param;
use crate::platform::Platform;
use crate::scenario::{error::ScenarioError, job::JobSpec, spec::Scenario};

/// What an option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A field of [`JobSpec`]: per job section, inherited from `[global]`.
    Job,
    /// A field of [`Scenario`] (platform, seed, ...): one value for the whole run, wherever it
    /// is given.
    Scenario,
    /// A host switch (an [`Access::Switch`] row over a field of `Platform::switches`):
    /// scenario-wide, kept in `Scenario::overrides`; unset means "the platform preset's".
    Host,
    /// A fio option accepted for compatibility that changes nothing in the model.
    Ignored,
    /// A board parameter (the board floor, `crate::board::params`): one physical figure of the platform,
    /// scenario-wide; unset means "the preset's".
    Platform,
}

/// Parses the value text (None = a bare flag) into the field; `key` is the option as written,
/// for messages.
pub type SetFn<T> = fn(&mut T, &str, Option<&str>) -> Result<(), ScenarioError>;

/// How a row reads and writes its field.
#[derive(Clone, Copy)]
pub enum Access {
    /// A field of one job section.
    Job {
        set: SetFn<JobSpec>,
        /// The value as option text; None when the option is not set (e.g. no `runtime`).
        get: fn(&JobSpec) -> Option<String>,
        reset: fn(&mut JobSpec),
    },
    /// A scenario-wide field.
    Scenario {
        set: SetFn<Scenario>,
        get: fn(&Scenario) -> Option<String>,
        reset: fn(&mut Scenario),
    },
    /// A host switch: a field of `Platform::switches`, overridden through
    /// `Scenario::overrides` as board parameters are.
    Switch(Switch),
    /// Accepted and ignored.
    Ignored,
    /// A board parameter: a field of the platform in a unit (see `crate::board::params`).
    Platform(Param),
}

/// A host switch row's codec and field: the value as written <-> the u64 the override map keeps
/// (`crate::vocab::SwitchValue`), and the field of `Platform::switches` it overrides.
#[derive(Clone, Copy)]
pub struct Switch {
    /// Parses the value text (None = a bare flag; `key` as written, for messages).
    pub parse: fn(key: &str, value: Option<&str>) -> Result<u64, ScenarioError>,
    /// The kept value as option text.
    pub text: fn(u64) -> String,
    /// The field's value in a platform.
    pub get: fn(&Platform) -> u64,
    /// Sets the field.
    pub put: fn(&mut Platform, u64),
}

/// Where the page's form shows an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormGroup {
    Platform,
    Workload,
    Host,
    /// Options in effect that the first screen does not need (the page folds them away).
    Advanced,
}

impl FormGroup {
    pub const ALL: [FormGroup; 4] = [
        FormGroup::Platform,
        FormGroup::Workload,
        FormGroup::Host,
        FormGroup::Advanced,
    ];
    pub fn title(self) -> &'static str {
        match self {
            FormGroup::Platform => "Platform",
            FormGroup::Workload => "Workload (fio)",
            FormGroup::Host => "Host",
            FormGroup::Advanced => "Advanced",
        }
    }
}

/// The kind of control the page draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Widget {
    /// Free text; the placeholder shows an example (host switches: the platform's value).
    Text { placeholder: &'static str },
    /// One of these values.
    Choices(&'static [&'static str]),
    /// One of the platform presets.
    Platforms,
    /// On or off (host switches: or the platform's default).
    OnOff,
}

/// How the page's form shows an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormHint {
    pub group: FormGroup,
    pub label: &'static str,
    /// One line under the control.
    pub help: &'static str,
    pub widget: Widget,
}

/// One accepted option.
#[derive(Clone, Copy)]
pub struct OptionRow {
    pub name: &'static str,
    /// fio's alternative names (`blocksize` for `bs`).
    pub aliases: &'static [&'static str],
    /// What it accepts, as `--help` and error messages say it.
    pub accepted: &'static str,
    pub help: &'static str,
    pub kind: OptionKind,
    pub access: Access,
    /// A value other than the default that the table's test sets, prints, links and resets.
    pub example: &'static str,
    /// The page's control, if the form shows one.
    pub form: Option<FormHint>,
}

impl std::fmt::Debug for OptionRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OptionRow")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish()
    }
}

impl OptionRow {
    /// A flag: `--time_based` alone means 1, and job files write it bare.
    pub fn is_flag(&self) -> bool {
        self.accepted.starts_with("flag")
    }
    /// The value may be left out (`--group_reporting`, `thread`): left out means 1.
    pub fn value_optional(&self) -> bool {
        self.kind == OptionKind::Ignored || self.is_flag() || self.accepted == "0|1"
    }
    /// Scenario-wide (one value for the whole run) rather than per job.
    pub fn is_scenario_wide(&self) -> bool {
        matches!(
            self.kind,
            OptionKind::Scenario | OptionKind::Host | OptionKind::Platform
        )
    }
}
