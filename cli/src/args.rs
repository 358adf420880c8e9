//! The command line: CLI-only options are taken out here; everything else is a fio option for the
//! engine's scenario parser, or (without a leading dash) a job file, as with fio.

use mmcsim_engine::scenario::options::split_arg;

/// `--output-format=`: one or more of these, comma-separated, printed in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Normal,
    Json,
    /// JSON with each completion-latency histogram's bins.
    JsonPlus,
    /// Sweeps only: one line per point.
    Csv,
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cli {
    pub help: bool,
    pub version: bool,
    pub list_platforms: bool,
    pub calibration: bool,
    /// The first `--output-format` given (what a sweep prints).
    pub format: Format,
    /// Every `--output-format` given, in order (a run prints each).
    pub formats: Vec<Format>,
    /// `--output=FILE`: write the report there instead of stdout.
    pub output: Option<String>,
    /// `--write_trace=FILE`: the timeline as Chrome trace-event JSON (Perfetto).
    pub write_trace: Option<String>,
    /// `--trace_max_events=N`: cap on the events `--write_trace` writes.
    pub trace_max_events: usize,
    /// `--trace_format=json|perfetto|ftrace`: what `--write_trace` writes.
    pub trace_format: TraceFormat,
    /// `--write_csv=FILE`: the throughput / IOPS / in-flight time series as CSV.
    pub write_csv: Option<String>,
    /// `--write_jobfile=FILE`: the scenario as a fio job file.
    pub write_jobfile: Option<String>,
    /// `--write_platform=FILE`: the effective platform as a platform file (TOML).
    pub write_platform: Option<String>,
    /// `--platform_file=FILE`: a platform file to start from (before the fio options).
    pub platform_file: Option<String>,
    /// `--sweep=KEY=VALUES`, at most two: run every point.
    pub sweeps: Vec<String>,
    /// `--shard=I/N`: run only slice I (1-based) of N of the sweep's points.
    pub shard: Option<(usize, usize)>,
    /// `--merge`: the arguments are sweep JSON outputs (of shards) to join.
    pub merge: bool,
    /// fio options for the scenario, in order.
    pub fio_args: Vec<String>,
    /// Job files, in order.
    pub job_files: Vec<String>,
}

fn value<'a>(key: &str, v: Option<&'a str>) -> Result<&'a str, String> {
    match v {
        Some(v) if !v.is_empty() => Ok(v),
        _ => Err(format!("{}: needs a value, e.g. --{}=VALUE", key, key)),
    }
}

/// `--output-format=`'s formats, each once, json+ in place of json.
fn parse_formats(key: &str, v: Option<&str>) -> Result<Vec<Format>, String> {
    let mut formats = Vec::new();
    for f in value(key, v)?.split(',') {
        let f = match f.trim() {
            "normal" => Format::Normal,
            "json" => Format::Json,
            "json+" => Format::JsonPlus,
            "csv" => Format::Csv,
            other => {
                return Err(format!(
                    "{}: '{}' is not an output format; accepted: normal, json, json+, csv (comma-separated)",
                    key, other
                ))
            }
        };
        if !formats.contains(&f) {
            formats.push(f);
        }
    }
    // fio prints json+ in place of json when both are asked for.
    if formats.contains(&Format::JsonPlus) {
        formats.retain(|f| *f != Format::Json);
    }
    Ok(formats)
}

/// What `--write_trace` writes (`--trace_format=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceFormat {
    /// Chrome trace-event JSON.
    Json,
    /// Perfetto's protobuf trace.
    Perfetto,
    /// ftrace text of the block and mmc tracepoints (replayable with `read_iolog=`).
    Ftrace,
}

impl Cli {
    /// The files the command line's own options write, (option, file).
    pub fn outputs(&self) -> Vec<(String, String)> {
        [
            ("output", &self.output),
            ("write_trace", &self.write_trace),
            ("write_csv", &self.write_csv),
            ("write_jobfile", &self.write_jobfile),
            ("write_platform", &self.write_platform),
        ]
        .into_iter()
        .filter_map(|(opt, p)| p.as_ref().map(|p| (opt.to_string(), p.clone())))
        .collect()
    }
}

/// Splits the arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Cli, String> {
    let mut cli = Cli {
        help: false,
        version: false,
        list_platforms: false,
        calibration: false,
        format: Format::Normal,
        formats: vec![Format::Normal],
        output: None,
        write_trace: None,
        trace_max_events: mmcsim_engine::export::DEFAULT_MAX_TRACE_EVENTS,
        trace_format: TraceFormat::Json,
        write_csv: None,
        write_jobfile: None,
        write_platform: None,
        platform_file: None,
        sweeps: Vec::new(),
        shard: None,
        merge: false,
        fio_args: Vec::new(),
        job_files: Vec::new(),
    };
    for arg in args {
        if !arg.starts_with('-') || arg == "-" {
            cli.job_files.push(arg.clone());
            continue;
        }
        let (key, v) = split_arg(arg).map_err(|e| e.to_string())?;
        match key.replace('_', "-").as_str() {
            "help" | "h" => cli.help = true,
            "version" => cli.version = true,
            "list-platforms" => cli.list_platforms = true,
            "calibration" => cli.calibration = true,
            "output-format" => {
                let formats = parse_formats(key, v)?;
                cli.format = formats[0];
                cli.formats = formats;
            }
            "output" => cli.output = Some(value(key, v)?.to_string()),
            "write-trace" => cli.write_trace = Some(value(key, v)?.to_string()),
            "write-csv" => cli.write_csv = Some(value(key, v)?.to_string()),
            "write-jobfile" => cli.write_jobfile = Some(value(key, v)?.to_string()),
            "write-platform" => cli.write_platform = Some(value(key, v)?.to_string()),
            "platform-file" => cli.platform_file = Some(value(key, v)?.to_string()),
            "sweep" => {
                if cli.sweeps.len() == 2 {
                    return Err(format!("{}: at most two sweep dimensions", key));
                }
                cli.sweeps.push(value(key, v)?.to_string())
            }
            "shard" => {
                if cli.shard.is_some() {
                    return Err(format!(
                        "{}: given twice; accepted: one --shard=I/N per command",
                        key
                    ));
                }
                cli.shard = Some(parse_shard(key, value(key, v)?)?)
            }
            "merge" => cli.merge = true,
            "trace-format" => {
                cli.trace_format = match value(key, v)? {
                    "json" => TraceFormat::Json,
                    "perfetto" => TraceFormat::Perfetto,
                    "ftrace" => TraceFormat::Ftrace,
                    other => {
                        return Err(format!(
                        "{key}: '{other}' is not a trace format; accepted: json, perfetto, ftrace"
                    ))
                    }
                }
            }
            "trace-max-events" => {
                let v = value(key, v)?;
                let max = mmcsim_engine::export::MAX_TRACE_EVENTS as u64;
                let n = mmcsim_engine::scenario::units::parse_uint(v, 1, max)
                    .map_err(|e| format!("{}: {}", key, e))?;
                cli.trace_max_events = n as usize;
            }
            _ => cli.fio_args.push(arg.clone()),
        }
    }
    crate::paths::check(&cli.outputs(), &[])?;
    Ok(cli)
}

/// `I/N` with 1 <= I <= N.
fn parse_shard(key: &str, v: &str) -> Result<(usize, usize), String> {
    let bad = || {
        format!(
            "{}: '{}' is not a shard; accepted: I/N with 1 <= I <= N, e.g. 2/8",
            key, v
        )
    };
    let (i, n) = v.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The `--size=` among the fio options, for `--calibration`.
pub fn size_override(fio_args: &[String]) -> Result<Option<u64>, String> {
    let mut size = None;
    for a in fio_args {
        if let Ok(("size", Some(v))) = split_arg(a) {
            size = Some(
                mmcsim_engine::scenario::units::parse_size(v)
                    .map_err(|e| format!("size: {}", e))?,
            );
        }
    }
    Ok(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn splits_cli_options_from_fio_options() {
        let c = parse(&s(&[
            "--output-format=json",
            "-output=x.json",
            "--bs=4k",
            "jobs.fio",
            "--name=a",
        ]))
        .unwrap();
        assert_eq!(
            (c.format, &c.formats[..]),
            (Format::Json, &[Format::Json][..])
        );
        assert_eq!(c.output.as_deref(), Some("x.json"));
        assert_eq!(c.fio_args, s(&["--bs=4k", "--name=a"]));
        assert_eq!(c.job_files, s(&["jobs.fio"]));
        let p = parse(&s(&["--output-format=normal,json,json+"])).unwrap();
        assert_eq!(p.formats, [Format::Normal, Format::JsonPlus]);
        assert!(parse(&s(&["--output-format=xml"]))
            .unwrap_err()
            .contains("accepted: normal, json, json+, csv"));
        assert!(parse(&s(&["--output="])).is_err());
        assert_eq!(size_override(&s(&["--size=64m"])), Ok(Some(64 << 20)));
        let c = parse(&s(&[
            "--write_trace=t.json",
            "--write-csv=s.csv",
            "--write_jobfile=j.fio",
            "--trace_max_events=10",
        ]))
        .unwrap();
        assert_eq!(
            (
                c.write_trace.as_deref(),
                c.write_csv.as_deref(),
                c.write_jobfile.as_deref()
            ),
            (Some("t.json"), Some("s.csv"), Some("j.fio"))
        );
        assert_eq!((c.trace_max_events, c.fio_args.len()), (10, 0));
        assert!(parse(&s(&["--trace_max_events=0"]))
            .unwrap_err()
            .contains("trace_max_events"));
        assert!(parse(&s(&["--write_csv"])).is_err());
    }
}
