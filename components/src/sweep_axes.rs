//! What one chart of the Sweep panel draws of a sweep's points: the lines (one per value of the
//! second swept option), the axes (log where the values span a wide range, the swept values'
//! labels). Plain data, tested natively; [`crate::sweep_chart`] draws it with plotters and
//! [`crate::sweep`] lays the charts out: both import this file, which imports neither.

use mmcsim_engine::scenario::sweep::Row;

/// A figure of a point.
pub type FigureOf = fn(&Row) -> f64;

/// The lines of one chart: per value of the second dimension (or one line), the (point index
/// along the first dimension, figure) pairs.
pub fn lines(rows: &[Row], f: FigureOf) -> Vec<(String, Vec<(usize, f64)>)> {
    let mut out: Vec<(String, Vec<(usize, f64)>)> = Vec::new();
    let mut firsts: Vec<String> = Vec::new();
    for r in rows {
        let x = r.values.first().cloned().unwrap_or_default();
        let xi = firsts.iter().position(|v| *v == x).unwrap_or_else(|| {
            firsts.push(x);
            firsts.len() - 1
        });
        let series = r.values.get(1).cloned().unwrap_or_default();
        match out.iter_mut().find(|(s, _)| *s == series) {
            Some((_, pts)) => pts.push((xi, f(r))),
            None => out.push((series, vec![(xi, f(r))])),
        }
    }
    out
}

/// The first option's values in sweep order.
fn first_values(rows: &[Row]) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for r in rows {
        if let Some(x) = r.values.first() {
            if !v.contains(x) {
                v.push(x.clone());
            }
        }
    }
    v
}

/// Whether positive values spanning `lo..hi` read better on a log axis: at least a factor 20.
fn wide(lo: f64, hi: f64) -> bool {
    lo > 0.0 && hi / lo >= 20.0
}

/// What one chart draws: its axes (ranges, log or not, descriptions, the x values' labels)
/// and its lines, (legend name, points).
#[derive(Clone, Debug, PartialEq)]
pub struct Axes {
    pub x_desc: String,
    pub y_desc: String,
    pub x_log: bool,
    pub y_log: bool,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    /// The first option's values when they are not all numbers: x is their position.
    pub x_names: Option<Vec<String>>,
    /// Where the x axis is labelled: at each swept value (every k-th of more than 16).
    pub x_keys: Vec<f64>,
    pub series: Vec<(String, Vec<(f64, f64)>)>,
}

impl Axes {
    /// The chart of figure `f` (its y description `y_desc`) over `keys`' points `rows`.
    pub fn of(keys: &[String], rows: &[Row], y_desc: &str, f: FigureOf) -> Axes {
        let firsts = first_values(rows);
        let nums: Option<Vec<f64>> = firsts.iter().map(|v| v.parse::<f64>().ok()).collect();
        let (x_of, x_names): (Vec<f64>, _) = match &nums {
            Some(n) if !n.is_empty() => (n.clone(), None),
            _ => (
                (0..firsts.len()).map(|i| i as f64).collect(),
                Some(firsts.clone()),
            ),
        };
        let (xl, xh) = x_of
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
                (l.min(v), h.max(v))
            });
        let x_log = x_names.is_none() && wide(xl, xh);
        let x_range = match (x_names.is_some(), x_log) {
            _ if !xl.is_finite() => (0.0, 1.0),
            (true, _) => (-0.5, xh + 0.5),
            (false, true) => (xl / 1.3, xh * 1.3),
            (false, false) => {
                let pad = ((xh - xl) * 0.05).max(0.5);
                (xl - pad, xh + pad)
            }
        };
        let series: Vec<(String, Vec<(f64, f64)>)> = lines(rows, f)
            .into_iter()
            .map(|(name, pts)| {
                let label = match (keys.get(1), name.is_empty()) {
                    (Some(k), false) => format!("{k}={name}"),
                    _ => y_desc.to_string(),
                };
                (label, pts.into_iter().map(|(i, v)| (x_of[i], v)).collect())
            })
            .collect();
        let ys = || series.iter().flat_map(|(_, p)| p.iter().map(|&(_, y)| y));
        let (yl, yh) = ys().fold((f64::INFINITY, 0f64), |(l, h), v| (l.min(v), h.max(v)));
        let y_log = wide(yl, yh);
        let y_range = if y_log {
            (10f64.powf(yl.log10().floor()), yh * 1.6)
        } else {
            // Room above the highest point for the legend.
            (0.0, if yh > 0.0 { yh * 1.3 } else { 1.0 })
        };
        let step = x_of.len().div_ceil(16).max(1);
        Axes {
            x_keys: x_of.iter().step_by(step).copied().collect(),
            x_desc: keys.first().cloned().unwrap_or_default(),
            y_desc: y_desc.to_string(),
            x_log,
            y_log,
            x_range,
            y_range,
            x_names,
            series,
        }
    }

    /// The label of x position `v`: the value's name, a log label or the number.
    pub fn x_label(&self, v: f64) -> String {
        match &self.x_names {
            Some(n) => {
                let i = v.round();
                if (v - i).abs() > 0.01 || i < 0.0 {
                    return String::new();
                }
                n.get(i as usize).cloned().unwrap_or_default()
            }
            None => number(v),
        }
    }
}

/// A number as an axis label: whole numbers without decimals, others with at most two.
pub fn number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        let t = format!("{v:.2}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(values: &[&str], mib_s: f64) -> Row {
        Row {
            index: 0,
            values: values.iter().map(|s| s.to_string()).collect(),
            mib_s,
            iops: 0.0,
            p50_us: 0.0,
            p99_us: 0.0,
            p999_us: 0.0,
            interrupts_per_s: 0.0,
            requeues: 0,
        }
    }

    #[test]
    fn one_line_per_value_of_the_second_dimension() {
        let rows = [
            row(&["1", "0"], 1.0),
            row(&["1", "8"], 2.0),
            row(&["2", "0"], 3.0),
            row(&["2", "8"], 4.0),
        ];
        let l = lines(&rows, |r| r.mib_s);
        assert_eq!(l.len(), 2);
        assert_eq!(l[0], ("0".to_string(), vec![(0, 1.0), (1, 3.0)]));
        assert_eq!(l[1], ("8".to_string(), vec![(0, 2.0), (1, 4.0)]));
        assert_eq!(lines(&[row(&["a"], 1.0)], |r| r.mib_s).len(), 1);
    }

    #[test]
    fn each_series_has_a_legend_name_and_wide_ranges_get_log_axes() {
        let keys = ["hsq_depth".to_string(), "packed".to_string()];
        let rows: Vec<Row> = [
            ("1", "0", 1.0),
            ("1", "8", 2.0),
            ("32", "0", 300.0),
            ("32", "8", 400.0),
        ]
        .iter()
        .map(|(a, b, v)| row(&[a, b], *v))
        .collect();
        let a = Axes::of(&keys, &rows, "MiB/s", |r| r.mib_s);
        let names: Vec<&str> = a.series.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["packed=0", "packed=8"]);
        assert!(a.x_log && a.y_log, "{a:?}");
        assert_eq!(a.series[1].1, vec![(1.0, 2.0), (32.0, 400.0)]);
        assert_eq!(a.x_desc, "hsq_depth");
        // Labelled at the swept values, in plain numbers.
        assert_eq!(a.x_keys, vec![1.0, 32.0]);
        assert_eq!(
            (a.x_label(32.0), number(0.0), number(2.5)),
            ("32".into(), "0".into(), "2.5".into())
        );
        // Narrow ranges stay linear; names that are not numbers are placed in sweep order.
        let rows = [row(&["2"], 10.0), row(&["dynamic"], 12.0)];
        let a = Axes::of(&keys[..1], &rows, "MiB/s", |r| r.mib_s);
        assert!(!a.x_log && !a.y_log);
        assert_eq!(a.series[0].0, "MiB/s");
        assert_eq!(
            (a.x_label(0.0), a.x_label(1.0), a.x_label(0.5)),
            ("2".into(), "dynamic".into(), String::new())
        );
    }
}
