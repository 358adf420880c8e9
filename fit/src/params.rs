//! The free parameters: which board parameters move, where they start and their bounds.

use crate::case::Case;
use crate::objective::cost_of;
use mmcsim_engine::scenario::board::{param, params, Param, Unit};
use mmcsim_engine::{Platform, Scenario};

/// Parameters fitted when `--fit=` is not given: the per-request host software and the card's
/// and bus's main rates and latencies, each moving a different kind of workload (many small
/// I/Os, random reads, writes, large transfers, FUA writes).
pub const DEFAULT_FIT: &[&str] = &[
    "completion_us",
    "nand_read_us",
    "card_write_busy_us",
    "bus_mb_s",
    "nand_program_mb_s",
    "reliable_write_us",
];

/// A count, a mode or a switch: not fitted.
fn discrete(p: &Param) -> bool {
    matches!(
        p.unit,
        Unit::Bool | Unit::Count | Unit::Mode | Unit::Width | Unit::Kernel | Unit::Driver
    )
}

/// The free parameters and where they start.
pub(crate) struct Free {
    pub(crate) names: Vec<&'static str>,
    params: Vec<Param>,
    /// Starting value (internal units; a preset 0 starts the log scale at the range's 1 %).
    start: Vec<f64>,
}

impl Free {
    /// The parameters `names` (or [`DEFAULT_FIT`]), starting from their values in `preset`.
    pub(crate) fn new(names: &[String], preset: &Platform) -> Result<Free, String> {
        let names: Vec<String> = if names.is_empty() {
            DEFAULT_FIT.iter().map(|s| s.to_string()).collect()
        } else {
            names.to_vec()
        };
        let mut free = Free {
            names: Vec::new(),
            params: Vec::new(),
            start: Vec::new(),
        };
        for n in &names {
            let (row, p) = param(n).ok_or_else(|| {
                let all: Vec<&str> = params()
                    .filter(|(_, p)| !discrete(p))
                    .map(|(r, _)| r.name)
                    .collect();
                format!(
                    "fit: '{n}' is not a board parameter; accepted: {}",
                    all.join(", ")
                )
            })?;
            if discrete(&p) {
                return Err(format!(
                    "fit: {n} is a count, a mode or a switch; only continuous parameters are fitted"
                ));
            }
            if free.names.contains(&row.name) {
                return Err(format!(
                    "fit: {} is named twice; accepted: each parameter once, e.g. --fit=nand_read_us,bus_mb_s",
                    row.name
                ));
            }
            let (min, max) = p.range();
            let v = match row.name {
                // 0 = derived: start from the rate the bus runs at.
                "bus_mb_s" => preset.bus.bytes_per_sec() as f64,
                _ => (p.get)(preset) as f64,
            };
            free.names.push(row.name);
            free.params.push(p);
            free.start.push(if v > 0.0 {
                v
            } else {
                (min as f64).max((max - min) as f64 * 0.01)
            });
        }
        Ok(free)
    }

    /// The parameters marked in `keep`, starting from where log-offsets `x` put them (the
    /// others stay at the preset: the board leaves a parameter it does not fit alone).
    pub(crate) fn subset(&self, keep: &[bool], x: &[f64]) -> Free {
        let mut free = Free {
            names: Vec::new(),
            params: Vec::new(),
            start: Vec::new(),
        };
        for (i, _) in keep.iter().enumerate().filter(|(_, &k)| k) {
            free.names.push(self.names[i]);
            free.params.push(self.params[i]);
            free.start.push(self.start[i] * x[i].exp());
        }
        free
    }

    /// The board at log-offsets `x` from the start, each clamped into its range; and whether
    /// any was clamped.
    pub(crate) fn board(&self, base: &Scenario, x: &[f64], round: bool) -> (Scenario, Vec<bool>) {
        let mut s = base.clone();
        let mut at_edge = Vec::new();
        for ((name, p), (&x0, &xi)) in self
            .names
            .iter()
            .zip(&self.params)
            .zip(self.start.iter().zip(x))
        {
            let (min, max) = p.range();
            let mut v = x0 * xi.exp();
            if round {
                // Four significant digits: the fit is not more precise than that.
                let unit = 10f64.powi(v.max(1.0).log10().floor() as i32 - 3);
                v = (v / unit).round() * unit;
            }
            let v = v.round().clamp(min as f64, max as f64) as u64;
            let span = (max - min) as f64;
            at_edge.push(
                (v as f64 - min as f64) < span * 1e-4 || (max as f64 - v as f64) < span * 1e-4,
            );
            s.overrides.insert(name.to_string(), v);
        }
        s.normalize_board();
        (s, at_edge)
    }

    /// The cost of `cases` on the board at log-offsets `x`; a case the engine refuses there
    /// (a step of the search that takes a run over a bound: a faster bus puts a time-based
    /// job over the event budget) is one line naming the point tried and the refusal.
    pub(crate) fn cost_at(
        &self,
        cases: &[Case],
        base: &Scenario,
        x: &[f64],
    ) -> Result<f64, String> {
        let (board, _) = self.board(base, x, false);
        cost_of(cases, &board).map_err(|e| {
            let at: Vec<String> = match board.effective_platform() {
                Ok(b) => self
                    .names
                    .iter()
                    .zip(&self.params)
                    .map(|(n, p)| {
                        let v = p.unit.format((p.get)(&b));
                        // Two decimals say where the search was (MB/s print six).
                        let cut = v.find('.').map_or(v.len(), |d| (d + 3).min(v.len()));
                        format!("{n}={}", &v[..cut])
                    })
                    .collect(),
                Err(_) => vec!["a board the engine refuses".to_string()],
            };
            format!(
                "fit: at {} (a point the search tried; a shorter --fit_runtime= keeps runs small): {e}",
                at.join(" ")
            )
        })
    }
}
