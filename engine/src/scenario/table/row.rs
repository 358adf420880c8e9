//! The row types of the option table: [`OptionRow`] (what one option is) and [`Access`] (how it
//! reads and writes its field), with the page's form hints.

use crate::board::params::Param;
use crate::scenario::{
    error::ScenarioError,
    host::{HostConfig, HostOptions},
    job::JobSpec,
    spec::Scenario,
};

/// What an option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A field of [`JobSpec`]: per job section, inherited from `[global]`.
    Job,
    /// A field of [`Scenario`] (platform, seed, ...): one value for the whole run, wherever it
    /// is given.
    Scenario,
    /// A host switch ([`HostOptions`]): scenario-wide; unset means "the platform preset's".
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
    /// A host switch: `get` is None while the platform's default applies; `preset` is the value
    /// a platform's defaults give it (for "default (on)" in the page).
    Host {
        set: SetFn<HostOptions>,
        get: fn(&HostOptions) -> Option<String>,
        reset: fn(&mut HostOptions),
        preset: fn(&HostConfig) -> String,
    },
    /// Accepted and ignored.
    Ignored,
    /// A board parameter: a field of the platform in a unit (see `crate::board::params`).
    Platform(Param),
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
