//! fio's `steadystate=` criteria (`iops:10%`, `bw_slope:2`, `lat:5%`): parsed here, applied by
//! the workload's detector.

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Metric {
    Iops,
    Bw,
    Lat,
}

/// A parsed `steadystate=` value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Criterion {
    pub(crate) metric: Metric,
    pub(crate) slope: bool,
    pub(crate) pct: bool,
    pub(crate) limit: f64,
}

/// fio's default criterion when only `ss_dur` is set.
pub const DEFAULT_CRITERION: &str = "iops_slope:0.01%";

/// Parses `iops:10%`, `bw_slope:2`, `lat:5%`, ... (Err: what is accepted).
pub fn parse(text: &str) -> Result<Criterion, &'static str> {
    const ACCEPTED: &str =
        "iops, iops_slope, bw, bw_slope, lat or lat_slope, ':' and a limit (a number or N%)";
    let (name, limit) = text.split_once(':').ok_or(ACCEPTED)?;
    let (metric, slope) = match name.trim() {
        "iops" => (Metric::Iops, false),
        "iops_slope" => (Metric::Iops, true),
        "bw" => (Metric::Bw, false),
        "bw_slope" => (Metric::Bw, true),
        "lat" => (Metric::Lat, false),
        "lat_slope" => (Metric::Lat, true),
        _ => return Err(ACCEPTED),
    };
    let limit = limit.trim();
    let (num, pct) = match limit.strip_suffix('%') {
        Some(n) => (n.trim(), true),
        None => (limit, false),
    };
    let limit: f64 = num.parse().map_err(|_| ACCEPTED)?;
    if !limit.is_finite() || limit < 0.0 {
        return Err(ACCEPTED);
    }
    Ok(Criterion {
        metric,
        slope,
        pct,
        limit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fio_criteria() {
        assert!(parse("iops:10%").is_ok());
        assert!(parse("lat_slope:0.1%").is_ok());
        assert!(parse("bw:2000").is_ok());
        assert!(parse(DEFAULT_CRITERION).is_ok());
        assert!(parse("iops").is_err());
        assert!(parse("tput:1%").is_err());
    }
}
