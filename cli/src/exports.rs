//! `--write_jobfile=`, `--write_trace=` and `--write_csv=`: the engine's exports
//! (`mmcsim_engine::export`) written to files next to the report.

use crate::args::{Cli, TraceFormat};
use mmcsim_engine::{Scenario, Simulator};
use std::io::Write;

/// `std::fmt::Write` over a buffered file (or stdout), so the trace streams to disk.
struct FileFmt {
    w: std::io::BufWriter<Box<dyn Write>>,
    err: Option<std::io::Error>,
}

/// Where an output goes: the file `path`, or standard output for `-` (fio's convention).
pub fn create(path: &str) -> std::io::Result<Box<dyn Write>> {
    if path == "-" {
        return Ok(Box::new(std::io::stdout()));
    }
    Ok(Box::new(std::fs::File::create(path)?))
}

impl std::fmt::Write for FileFmt {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.w.write_all(s.as_bytes()).map_err(|e| {
            self.err = Some(e);
            std::fmt::Error
        })
    }
}

/// Writes `text` to the output `path` of option `opt` (`-`: standard output).
pub fn write_file(opt: &str, path: &str, text: &str) -> Result<(), String> {
    create(path)
        .and_then(|mut w| w.write_all(text.as_bytes()).and_then(|_| w.flush()))
        .map_err(|e| format!("{} '{}': {}", opt, path, e))
}

/// Refuses, before anything is written, a job file that would not read back as the scenario:
/// a job name or value with `;`, `#` (a comment in a job file) or `$` (a variable); the
/// engine's one writer says so (`to_readable_jobfile`, the page's download too).
pub fn check(cli: &Cli, scn: &Scenario) -> Result<(), String> {
    match cli.write_jobfile {
        None => Ok(()),
        Some(_) => jobfile(scn).map(|_| ()),
    }
}

fn jobfile(scn: &Scenario) -> Result<String, String> {
    mmcsim_engine::scenario::jobfile::to_readable_jobfile(scn)
        .map_err(|e| format!("write_jobfile: {e}"))
}

/// The exports that need no finished run: the job file, and the trace (its own traced run).
pub fn before_run(cli: &Cli, scn: &Scenario) -> Result<(), String> {
    if let Some(path) = &cli.write_jobfile {
        write_file("write_jobfile", path, &jobfile(scn)?)?;
    }
    if let Some(path) = &cli.write_trace {
        let fail = |e: std::io::Error| format!("write_trace '{}': {}", path, e);
        let file = create(path).map_err(fail)?;
        let mut out = FileFmt {
            w: std::io::BufWriter::new(file),
            err: None,
        };
        let max = cli.trace_max_events;
        let res = match cli.trace_format {
            TraceFormat::Json => mmcsim_engine::export::write_trace_events(scn, max, &mut out),
            TraceFormat::Ftrace => mmcsim_engine::export::write_ftrace(scn, max, &mut out),
            TraceFormat::Perfetto => mmcsim_engine::export::write_perfetto(scn, max, &mut out.w),
        };
        if let Some(e) = out.err.take() {
            return Err(fail(e));
        }
        out.w.flush().map_err(fail)?;
        // The exporter's own error ("the writer failed") named with the option and the file.
        res.map_err(|e| format!("write_trace '{}': {}", path, e.message))?;
    }
    Ok(())
}

/// The exports of the finished run: the time series.
pub fn after_run(cli: &Cli, sim: &Simulator) -> Result<(), String> {
    if let Some(path) = &cli.write_csv {
        write_file(
            "write_csv",
            path,
            &mmcsim_engine::export::series_csv_of(&sim.series()),
        )?;
    }
    Ok(())
}
