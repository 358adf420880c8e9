//! `--calibration`: every measured case of engine/data/measurements.toml, simulated and
//! compared with the authors' figure.

use std::fmt::Write;

/// One compared figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub platform: String,
    /// The workload, e.g. "randread" or "seq 512k write".
    pub case: String,
    /// The column of the measurement table, e.g. "non_packed" or "packed".
    pub column: String,
    /// Unit of `measured` and `simulated`, e.g. "MiB/s".
    pub unit: String,
    pub measured: f64,
    pub simulated: f64,
}

impl Row {
    /// Simulated relative to measured, in percent.
    pub fn error_pct(&self) -> f64 {
        if self.measured == 0.0 {
            0.0
        } else {
            (self.simulated - self.measured) * 100.0 / self.measured
        }
    }
}

/// Runs every calibration case through `mmcsim_engine::calibration::run_all`, two rows per
/// case (the authors' two columns); `size_override` shortens each run (`--size=`).
/// `under`: the block layer every case runs under (default: each preset's own).
pub fn run(
    size_override: Option<u64>,
    under: &mmcsim_engine::calibration::Under,
) -> Result<Vec<Row>, String> {
    let cases = mmcsim_engine::calibration::run_all_under(size_override, under)
        .map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for r in cases {
        let series = r.case.series();
        let outlier = if r.case.outlier.is_some() {
            " (outlier)"
        } else {
            ""
        };
        for (column, measured, simulated) in [
            (series.columns.0, r.case.measured.0, r.simulated.0),
            (series.columns.1, r.case.measured.1, r.simulated.1),
        ] {
            rows.push(Row {
                platform: r.case.platform.to_string(),
                case: format!("{}{}", r.case.label(), outlier),
                column: column.to_string(),
                unit: series.unit.name().to_string(),
                measured,
                simulated,
            });
        }
    }
    for single in &mmcsim_engine::calibration::SINGLES {
        rows.push(Row {
            platform: single.platform.to_string(),
            case: single.case.to_string(),
            column: single.column.to_string(),
            unit: single.measure.name().to_string(),
            measured: single.measured,
            simulated: single
                .run_under(size_override, under)
                .map_err(|e| e.to_string())?,
        });
    }
    let lat = mmcsim_engine::calibration::ALLWINNER_NO_HSQ;
    let r =
        mmcsim_engine::calibration::run_latency_under(&lat, under).map_err(|e| e.to_string())?;
    rows.push(Row {
        platform: lat.platform.to_string(),
        case: "randread 4KiB".into(),
        column: "no_hsq".into(),
        unit: "IOPS".into(),
        measured: lat.iops,
        simulated: r.iops,
    });
    for (p, m, s, _) in r.rows() {
        let checked = p >= lat.checked.0 && p <= lat.checked.1;
        rows.push(Row {
            platform: lat.platform.to_string(),
            case: format!("clat p{p}{}", if checked { "" } else { " (shown)" }),
            column: "no_hsq".into(),
            unit: "usec".into(),
            measured: m,
            simulated: s,
        });
    }
    Ok(rows)
}

/// The comparison table, one line per figure, columns aligned.
pub fn render(rows: &[Row]) -> String {
    let w = |f: fn(&Row) -> usize, h: &str| rows.iter().map(f).max().unwrap_or(0).max(h.len());
    let (wp, wc, wl) = (
        w(|r| r.platform.len(), "platform"),
        w(|r| r.case.len(), "case"),
        w(|r| r.column.len(), "column"),
    );
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:wp$}  {:wc$}  {:wl$}  {:>10}  {:>10}  {:>7}  unit",
        "platform", "case", "column", "measured", "simulated", "error"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{:wp$}  {:wc$}  {:wl$}  {:>10.2}  {:>10.2}  {:>+6.1}%  {}",
            r.platform,
            r.case,
            r.column,
            r.measured,
            r.simulated,
            r.error_pct(),
            r.unit
        );
    }
    if !rows.is_empty() {
        let worst = rows.iter().map(|r| r.error_pct().abs()).fold(0.0, f64::max);
        let mean = rows.iter().map(|r| r.error_pct().abs()).sum::<f64>() / rows.len() as f64;
        let _ = writeln!(
            out,
            "{} figures, mean |error| {:.1}%, worst {:.1}%",
            rows.len(),
            mean,
            worst
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table() {
        let rows = vec![Row {
            platform: "sprd-hs400es-2020".into(),
            case: "read".into(),
            column: "packed".into(),
            unit: "MiB/s".into(),
            measured: 229.6,
            simulated: 220.0,
        }];
        let t = render(&rows);
        assert!(t.contains("sprd-hs400es-2020  read  packed"), "{}", t);
        assert!(t.contains("-4.2%"), "{}", t);
    }
}
