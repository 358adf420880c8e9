//! How a row is written: one macro per kind of field a row sets ([`job!`], [`scenario!`],
//! [`switch!`]; [`job_flag!`] for a job's plain flags), [`ignored`] for an option without effect,
//! [`form`] for the page's control, and [`concat_rows`] to assemble the families into one table
//! at compile time.

use super::{Access, FormGroup, FormHint, OptionKind, OptionRow, Widget};

/// A row over a field of `$T`, read and written through `Access::$access`: the one shape of
/// [`job!`] and [`scenario!`].
macro_rules! field_row {
    ($kind:ident, $T:ident, $name:literal, $aliases:expr, $accepted:literal, $help:literal,
     example $example:literal,
     set |$j:ident, $k:ident, $v:ident| $set:expr, get |$g:ident| $get:expr,
     reset |$r:ident| $reset:expr, form $form:expr) => {
        $crate::scenario::table::OptionRow {
            name: $name,
            aliases: $aliases,
            accepted: $accepted,
            help: $crate::vocab::lean_text($help),
            kind: $crate::scenario::table::OptionKind::$kind,
            access: $crate::scenario::table::Access::$kind {
                set: |$j: &mut $crate::scenario::$T, $k: &str, $v: Option<&str>| {
                    $set;
                    Ok(())
                },
                get: |$g: &$crate::scenario::$T| $get,
                reset: |$r: &mut $crate::scenario::$T| $reset,
            },
            example: $example,
            form: $form,
        }
    };
}

/// A job-section row.
macro_rules! job {
    ($name:literal, $($rest:tt)*) => {
        field_row!(Job, JobSpec, $name, $($rest)*)
    };
}

/// A scenario-wide row.
macro_rules! scenario {
    ($name:literal, $($rest:tt)*) => {
        field_row!(Scenario, Scenario, $name, &[], $($rest)*)
    };
}

/// A job flag (`flag or 0|1`, off by default, not on the page's form) over the field `$field`.
macro_rules! job_flag {
    ($name:literal, $field:ident, $aliases:expr, $help:literal) => {
        job!($name, $aliases, "flag or 0|1", $help,
            example "1",
            set |j, k, v| j.$field = $crate::scenario::table::values::flag(k, v)?,
            get |j| Some($crate::scenario::table::values::b(j.$field)),
            reset |j| j.$field = false,
            form None)
    };
}

/// A host-switch row over the field `$field` (of type `$ty`) of `Platform::switches`: its value
/// is kept in `Scenario::overrides` as the u64 of [`crate::vocab::SwitchValue`], parsed by
/// `parse` and written by `text`.
macro_rules! switch {
    ($name:literal, $field:ident: $ty:ty, $accepted:literal, $help:literal,
     example $example:literal,
     parse |$k:ident, $v:ident, $value:ident| $parse:expr, text |$t:ident| $text:expr,
     form $form:expr) => {
        $crate::scenario::table::OptionRow {
            name: $name,
            aliases: &[],
            accepted: $accepted,
            help: $crate::vocab::lean_text($help),
            kind: $crate::scenario::table::OptionKind::Host,
            access: $crate::scenario::table::Access::Switch($crate::scenario::table::Switch {
                parse: |$k: &str, $value: Option<&str>| {
                    let $v = $crate::scenario::table::values::v1($value);
                    let parsed: $ty = $parse;
                    Ok($crate::vocab::SwitchValue::to_u64(parsed))
                },
                text: |v: u64| {
                    let $t: $ty = $crate::vocab::SwitchValue::from_u64(v);
                    $text
                },
                get: |p: &$crate::platform::Platform| {
                    $crate::vocab::SwitchValue::to_u64(p.switches.$field)
                },
                put: |p: &mut $crate::platform::Platform, v: u64| {
                    p.switches.$field = $crate::vocab::SwitchValue::from_u64(v)
                },
            }),
            example: $example,
            form: $form,
        }
    };
}

/// An option fio users write that changes nothing in the model.
pub(super) const fn ignored(
    name: &'static str,
    accepted: &'static str,
    help: &'static str,
) -> OptionRow {
    OptionRow {
        name,
        aliases: &[],
        accepted,
        help: crate::vocab::lean_text(help),
        kind: OptionKind::Ignored,
        access: Access::Ignored,
        example: "1",
        form: None,
    }
}

/// The page's control for a row.
pub(super) const fn form(
    group: FormGroup,
    label: &'static str,
    help: &'static str,
    widget: Widget,
) -> Option<FormHint> {
    Some(FormHint {
        group,
        label,
        help: crate::vocab::lean_text(help),
        widget,
    })
}

/// The rows of `a` then those of `b`, as one array (`N` = both lengths; `a` is not empty).
pub(super) const fn concat_rows<const N: usize>(
    a: &[OptionRow],
    b: &[OptionRow],
) -> [OptionRow; N] {
    let mut out = [a[0]; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < a.len() { a[i] } else { b[i - a.len()] };
        i += 1;
    }
    out
}

pub(super) use super::FormGroup::{Advanced as GA, Host as GH, Platform as GP, Workload as GW};

/// A 0/1 choice.
pub(super) const OFF_ON: &[&str] = &["0", "1"];
