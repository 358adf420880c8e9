//! Platform files: the effective board as TOML, one `key = value` per board parameter in the
//! unit its name says, under the base preset it starts from.
//!
//! ```toml
//! platform = "unisoc-hsq-2023"
//!
//! [card]
//! nand_read_us = 120          # NAND page read (random reads); preset 60
//! ```
//!
//! Reading one sets `platform=` to the base and every parameter it gives as an override (one
//! left out keeps the preset's value), through the same value parser as the option language, so
//! a bad value gets the same message as on the command line, naming the field and the accepted
//! range.

use super::board::{accepted_with_unit, params, Part, Unit};
use super::table::lookup;
use super::{apply_option, OptionScope, Scenario, ScenarioError};
use std::fmt::Write;

/// The scenario's effective platform as a platform file: every parameter, with its help and
/// the preset's value in a comment.
pub fn to_toml(scn: &Scenario) -> Result<String, ScenarioError> {
    let preset = scn.platform()?;
    let p = scn.effective_platform()?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# mmcsim platform file: {} with {} parameter(s) changed.\n\
         # Read it with --platform_file=FILE; every value is in the unit its name says, and a\n\
         # value left out keeps the base preset's.\n\
         platform = \"{}\"",
        preset.name,
        scn.board.len(),
        preset.name
    );
    for part in Part::ALL {
        let _ = writeln!(out, "\n[{}]  # {}", part.key(), part.title());
        for (row, param) in params().filter(|(_, q)| q.part == part) {
            let v = (param.get)(&p);
            let pv = (param.get)(preset);
            let text = match param.unit {
                Unit::Mode => format!("\"{}\"", param.unit.format(v)),
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
                format!("{} = {}", row.name, text),
                row.help,
                param.field,
                accepted_with_unit(row, &param),
                mark
            );
        }
    }
    Ok(out)
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

/// Reads a platform file onto `scn`: sets its platform and replaces its board parameters.
/// `file` names the file in messages.
pub fn apply_toml(scn: &mut Scenario, file: &str, text: &str) -> Result<(), ScenarioError> {
    let at = |field: &str, msg: String| ScenarioError::new(format!("{file}: {field}"), msg);
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let msg = e.message().trim().replace('\n', "; ");
        ScenarioError::general(format!("{file}: not TOML: {msg}"))
    })?;
    let base = match table.get("platform") {
        Some(toml::Value::String(s)) => s.clone(),
        _ => {
            return Err(at(
                "platform",
                format!(
                    "missing; the base preset is needed, accepted: {}",
                    crate::platform::names().join(", ")
                ),
            ))
        }
    };
    let mut next = scn.clone();
    apply_option(&mut next, OptionScope::Global, "platform", Some(&base))
        .map_err(|e| at("platform", e.message))?;
    next.board.clear();
    for (section, items) in &table {
        if section == "platform" {
            continue;
        }
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
            let row =
                lookup(key).filter(|r| params().any(|(pr, q)| pr.name == r.name && q.part == part));
            let Some(row) = row else {
                let names: Vec<&str> = params()
                    .filter(|(_, q)| q.part == part)
                    .map(|(r, _)| r.name)
                    .collect();
                return Err(at(
                    &field,
                    format!("not a {section} parameter; accepted: {}", names.join(", ")),
                ));
            };
            let text = value_text(v).ok_or_else(|| at(&field, "not a number".to_string()))?;
            apply_option(&mut next, OptionScope::Global, row.name, Some(&text))
                .map_err(|e| at(&field, e.message))?;
        }
    }
    next.normalize_board();
    *scn = next;
    Ok(())
}

/// The unit of a parameter, for callers that show values.
pub fn unit_of(name: &str) -> Option<Unit> {
    params().find(|(r, _)| r.name == name).map(|(_, p)| p.unit)
}
