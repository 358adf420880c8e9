//! Platform files: the effective board as TOML, one `key = value` per board parameter in the
//! unit its name says, under the base preset it starts from.
//!
//! ```toml
//! platform = "unisoc-hsq-2023"
//!
//! [host]
//! host_driver = "sdhci-sprd"  # the host controller driver: what its kernel can run
//!
//! [card]
//! nand_read_us = 120          # NAND page read (random reads); preset 60
//! ```
//!
//! Reading one ([`read_toml`]) hands the base preset, then every parameter it gives, in file
//! order, to the caller: the scenario language sets them as options (one left out keeps the
//! preset's value), through the same value parser as everywhere, so a bad value gets the same
//! message as on the command line, naming the field and the accepted range.

use super::params::{Param, Part, Unit, PARAMS};
use super::Platform;
use std::fmt::Write;

/// `effective` as a platform file on top of its base `preset` (`changed` parameters differ):
/// every parameter, with its help and the preset's value in a comment.
pub fn to_toml(preset: &Platform, effective: &Platform, changed: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# mmcsim platform file: {} with {} parameter(s) changed.\n\
         # Read it with --platform_file=FILE; every value is in the unit its name says, and a\n\
         # value left out keeps the base preset's.\n\
         platform = \"{}\"",
        preset.name, changed, preset.name
    );
    for part in Part::ALL {
        let _ = writeln!(out, "\n[{}]  # {}", part.key(), part.title());
        for param in PARAMS.iter().filter(|q| q.part == part) {
            let v = (param.get)(effective);
            let pv = (param.get)(preset);
            let text = match param.unit {
                Unit::Mode | Unit::Kernel | Unit::Driver => {
                    format!("\"{}\"", param.unit.format(v))
                }
                u => u.format(v),
            };
            let mark = if v == pv {
                String::new()
            } else {
                format!("; preset {}", param.unit.format(pv))
            };
            let _ = writeln!(
                out,
                "{:<22} # {}: {} ({}){}",
                format!("{} = {}", param.name, text),
                param.help,
                param.field,
                param.accepted_with_unit(),
                mark
            );
        }
    }
    out
}

/// The value of a TOML item as option text.
fn value_text(v: &toml::Value) -> Option<String> {
    match v {
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) if f.is_finite() => Some(format!("{f}")),
        toml::Value::Boolean(b) => Some(if *b { "1" } else { "0" }.to_string()),
        toml::Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// One thing a platform file sets, handed to the caller of [`read_toml`] in file order.
pub enum Setting<'a> {
    /// `platform = "NAME"`: the base preset (always first).
    Base(&'a str),
    /// A parameter and its value as option text.
    Param(&'static Param, &'a str),
}

/// What is wrong in a platform file: the field (`card.nand_read_us`; None for the whole file)
/// and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub field: Option<String>,
    pub message: String,
}

/// Reads a platform file, handing the base and each parameter to `set` in file order; the first
/// problem (of the file, or a refusal of `set`) stops the reading.
pub fn read_toml(
    text: &str,
    set: &mut dyn FnMut(Setting) -> Result<(), String>,
) -> Result<(), FileError> {
    let at = |field: &str, message: String| FileError {
        field: Some(field.to_string()),
        message,
    };
    let table: toml::Table = toml::from_str(text).map_err(|e| FileError {
        field: None,
        message: format!("not TOML: {}", e.message().trim().replace('\n', "; ")),
    })?;
    let Some(toml::Value::String(base)) = table.get("platform") else {
        return Err(at(
            "platform",
            format!(
                "missing; the base preset is needed, accepted: {}",
                super::names().join(", ")
            ),
        ));
    };
    set(Setting::Base(base)).map_err(|m| at("platform", m))?;
    for (section, items) in table.iter().filter(|(s, _)| *s != "platform") {
        let part = Part::ALL.into_iter().find(|p| p.key() == section);
        let (Some(part), toml::Value::Table(items)) = (part, items) else {
            return Err(at(
                section,
                "not a section of a platform file; accepted: platform = \"...\", [host], [bus], \
                 [card], [mmc_test]"
                    .to_string(),
            ));
        };
        for (key, v) in items {
            let field = format!("{section}.{key}");
            let in_part = || PARAMS.iter().filter(move |q| q.part == part);
            let Some(param) = in_part().find(|q| q.name == key) else {
                let names: Vec<&str> = in_part().map(|q| q.name).collect();
                return Err(at(
                    &field,
                    format!("not a {section} parameter; accepted: {}", names.join(", ")),
                ));
            };
            // A boolean is a value only for a 0-or-1 parameter: `bus_clock_mhz = true` would
            // otherwise read as 1 MHz.
            if let (toml::Value::Boolean(b), false) = (v, param.unit == Unit::Bool) {
                return Err(at(
                    &field,
                    format!(
                        "{b} is not a number; accepted: {}",
                        param.accepted_with_unit()
                    ),
                ));
            }
            // A number is written as a number: `nand_read_us = "87"` is a string, as the
            // mode's name (`bus_mode = "hs400"`) and a kernel version (`kernel = "5.10"`, which
            // as a TOML number would read 5.1) are.
            if param.unit == Unit::Kernel && !v.is_str() {
                return Err(at(
                    &field,
                    format!(
                        "a number, not a version; accepted: {}, written in quotes (\"5.10\")",
                        param.accepted_with_unit()
                    ),
                ));
            }
            let named = matches!(param.unit, Unit::Mode | Unit::Kernel | Unit::Driver);
            if let (toml::Value::String(_), false) = (v, named) {
                return Err(at(
                    &field,
                    format!(
                        "a string, not a number; accepted: {}, written without quotes",
                        param.accepted_with_unit()
                    ),
                ));
            }
            let text = value_text(v).ok_or_else(|| at(&field, "not a number".to_string()))?;
            set(Setting::Param(param, &text)).map_err(|m| at(&field, m))?;
        }
    }
    Ok(())
}
