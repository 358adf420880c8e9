//! `mmcsim`: run fio command lines and job files against the eMMC model.
//!
//! Exit status: 0 on success, 2 on any bad input (one line on stderr, `mmcsim: ...`).

mod args;
mod calibration;
mod exports;
mod fit;
mod help;
mod input;
mod logs;
mod paths;
mod predict;
mod progress;
mod sensitivity;
use mmcsim_engine::export::normal;
mod sweep;
#[cfg(test)]
mod tests;

use args::{Cli, Format};
use mmcsim_engine::scenario::check::{MAX_INPUT_BYTES, MAX_TRACE_BYTES};
use mmcsim_engine::scenario::iolog;
use mmcsim_engine::scenario::jobfile::JobFileEnv;
use mmcsim_engine::scenario::options::ScenarioBuilder;
use mmcsim_engine::Scenario;
use std::io::Write;

/// Reads the fio options, then the job files, into one scenario (fio parses its command line
/// before its job files, so command-line options are globals for every job file). `include`
/// files are read next to the job file, `${VAR}` from the environment, and the traces named by
/// `read_iolog=` next to the job file or from the working directory. The options that change
/// nothing in the model are listed once on stderr; the warnings about options without effect
/// come back with the scenario.
fn scenario(cli: &Cli) -> Result<(Scenario, Vec<String>), String> {
    let mut base = Scenario::default();
    if let Some(path) = &cli.platform_file {
        let text = input::read(path.as_ref(), &format!("platform_file '{}'", path), false)?;
        mmcsim_engine::scenario::board_file::apply_toml(&mut base, path, &text)
            .map_err(|e| e.to_string())?;
    }
    let mut b = ScenarioBuilder::new(base);
    b.args(&cli.fio_args).map_err(|e| e.to_string())?;
    let mut dirs = vec![std::path::PathBuf::from(".")];
    for path in &cli.job_files {
        let text = input::read(path.as_ref(), &format!("job file '{}'", path), true)?;
        let dir = std::path::Path::new(path)
            .parent()
            .map(|d| d.to_path_buf())
            .unwrap_or_default();
        // All of a job file's includes together are capped as one input: a file included
        // again and again is read each time.
        let included = std::cell::Cell::new(text.len() as u64);
        let include = |name: &str| {
            let t = input::read(&resolve(&dir, name), "include", false)
                .map_err(|e| e.trim_start_matches("include: ").to_string())?;
            included.set(included.get() + t.len() as u64);
            if included.get() > MAX_INPUT_BYTES {
                return Err(format!(
                    "the job file and its includes come to more than {} MiB; accepted: at most {} MiB in all",
                    MAX_INPUT_BYTES >> 20,
                    MAX_INPUT_BYTES >> 20
                ));
            }
            Ok(t)
        };
        let var = |name: &str| std::env::var(name).ok();
        let env = JobFileEnv {
            include: &include,
            var: &var,
        };
        b.jobfile_in(&text, &env)
            .map_err(|e| format!("{}: {}", path, e))?;
        dirs.insert(0, dir);
    }
    let named: Vec<(String, std::path::PathBuf)> = b
        .iolog_names()
        .into_iter()
        .map(|name| {
            let path = dirs
                .iter()
                .map(|d| resolve(d, &name))
                .find(|p| p.exists())
                .unwrap_or_else(|| std::path::PathBuf::from(&name));
            (name, path)
        })
        .collect();
    // Their sizes first: too many bytes of traces are refused before any is read.
    let mut sizes = TraceBytes::default();
    for (name, path) in &named {
        for (n, p) in std::iter::once((name.clone(), path.clone())).chain(siblings_of(path)) {
            sizes.add(&n, std::fs::metadata(&p).map_or(0, |m| m.len()) as usize)?;
        }
    }
    let mut traces = TraceBytes::default();
    for (name, path) in named {
        let bytes = input::read_bytes(&path, &format!("read_iolog '{}'", name))?;
        traces.add(&name, bytes.len())?;
        let log = match blktrace_siblings(&path, &bytes, &mut traces)? {
            Some(files) => {
                let files: Vec<(String, &[u8])> =
                    files.iter().map(|(n, b)| (n.clone(), &b[..])).collect();
                iolog::parse_blktrace(&name, &files)
            }
            None => iolog::parse_bytes(&name, &bytes),
        }
        .map_err(|e| e.to_string())?;
        if log.skipped > 0 {
            eprintln!(
                "mmcsim: read_iolog '{}': {} events left out (secure erase or driver-private requests: not modelled)",
                mmcsim_engine::scenario::bounded_message(name.clone()),
                log.skipped
            );
        }
        b.attach_iolog(log);
    }
    if let Some(notes) = b.notes_text() {
        for line in notes.lines() {
            eprintln!(
                "mmcsim: {}",
                mmcsim_engine::scenario::bounded_message(line.to_string())
            );
        }
    }
    b.finish_with_warnings().map_err(|e| e.to_string())
}

/// The bytes of traces this command has read: at most [`MAX_TRACE_BYTES`] together, each
/// refused as it comes, before it is parsed.
#[derive(Default)]
struct TraceBytes(u64);

impl TraceBytes {
    fn add(&mut self, name: &str, len: usize) -> Result<(), String> {
        self.0 += len as u64;
        if self.0 <= MAX_TRACE_BYTES {
            return Ok(());
        }
        Err(format!(
            "read_iolog '{}': the traces of this command come to {} bytes with it; accepted: at most {} MiB ({MAX_TRACE_BYTES} bytes) of traces per command, all read_iolog files and blktrace CPU files together (each is held parsed, about twice its size)",
            mmcsim_engine::scenario::bounded_message(name.to_string()),
            self.0,
            MAX_TRACE_BYTES >> 20
        ))
    }
}

/// `DEV.blktrace.0` of binary blktrace: it and the other CPUs' files beside it (`.1`, `.2`, ...,
/// up to the first missing), as `blktrace -d` wrote them; None for any other trace.
#[allow(clippy::type_complexity)]
fn blktrace_siblings(
    path: &std::path::Path,
    bytes: &[u8],
    traces: &mut TraceBytes,
) -> Result<Option<Vec<(String, Vec<u8>)>>, String> {
    let p = path.to_string_lossy();
    if !p.ends_with(".blktrace.0") || !iolog::is_blktrace(bytes) {
        return Ok(None);
    }
    let mut files = vec![(p.to_string(), bytes.to_vec())];
    for (sib, path) in siblings_of(path) {
        let b = input::read_bytes(&path, &format!("read_iolog '{sib}'"))?;
        traces.add(&sib, b.len())?;
        files.push((sib, b));
    }
    Ok(Some(files))
}

/// The other CPUs' files beside `DEV.blktrace.0` (`.1`, `.2`, ..., up to the first missing, at
/// most 4095), as `blktrace -d` writes them; none for any other name or a file that does not
/// start as binary blktrace.
fn siblings_of(path: &std::path::Path) -> Vec<(String, std::path::PathBuf)> {
    let p = path.to_string_lossy();
    let Some(stem) = p.strip_suffix(".blktrace.0") else {
        return Vec::new();
    };
    let mut head = [0u8; 4];
    let magic = std::fs::File::open(path).and_then(|mut f| {
        use std::io::Read;
        f.read_exact(&mut head)
    });
    if magic.is_err() || !iolog::is_blktrace(&head) {
        return Vec::new();
    }
    (1..4096)
        .map(|cpu| format!("{stem}.blktrace.{cpu}"))
        .map(|s| (s.clone(), std::path::PathBuf::from(s)))
        .take_while(|(_, p)| p.exists())
        .collect()
}

/// `name` as written, or relative to `dir` when it is a relative path.
fn resolve(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let p = std::path::Path::new(name);
    if p.is_absolute() || dir.as_os_str().is_empty() {
        p.to_path_buf()
    } else {
        dir.join(p)
    }
}

/// Everything the command asks for, as the text to print.
fn run(cli: &Cli) -> Result<String, String> {
    if cli.help {
        return Ok(help::usage(&cli.fio_args));
    }
    if cli.version {
        return Ok(format!("mmcsim-{}\n", env!("CARGO_PKG_VERSION")));
    }
    if cli.list_platforms {
        return Ok(help::platforms());
    }
    if cli.calibration {
        // The calibration runs its own scenarios: only their size may be given.
        let other = cli.fio_args.iter().find(|a| {
            !matches!(mmcsim_engine::scenario::options::split_arg(a),
                Ok((k, Some(_))) if k == "size" || mmcsim_engine::calibration::UNDER_KEYS.contains(&k))
        });
        if let Some(a) = other.or(cli.sweeps.first()).or(cli.job_files.first()) {
            let a = if cli.sweeps.first() == Some(a) {
                format!("--sweep={a}")
            } else {
                a.clone()
            };
            return Err(format!(
                "calibration: '{a}' would be ignored (the calibration runs its own 64 scenarios); accepted: --calibration [--size=SIZE] [--ioscheduler=NAME] [--blk_dispatch=kernel|fitted] [--output=FILE]"
            ));
        }
        let under = mmcsim_engine::calibration::Under::from_args(&cli.fio_args)
            .map_err(|e| e.to_string())?;
        let rows = calibration::run(args::size_override(&cli.fio_args)?, &under)?;
        let heading = match under.is_presets() {
            true => String::new(),
            false => format!(
                "every board under {} (without it: each preset's own scheduler and dispatch)\n",
                under.describe()
            ),
        };
        return Ok(heading + &calibration::render(&rows));
    }
    if cli.merge {
        let files = cli
            .job_files
            .iter()
            .map(|p| {
                input::read(p.as_ref(), &format!("merge '{}'", p), false).map(|t| (p.clone(), t))
            })
            .collect::<Result<Vec<_>, _>>()?;
        paths::check(&cli.outputs(), &input::files_read())?;
        return Ok(sweep::render(&sweep::merge(&files)?, cli.format));
    }
    let (scn, warnings) = scenario(cli)?;
    // Nothing is written before every output is known to destroy no input and no other output.
    let mut outputs = cli.outputs();
    outputs.extend(logs::outputs(&scn));
    paths::check(&outputs, &input::files_read())?;
    exports::check(cli, &scn)?;
    let mut warnings = warnings;
    if cli.write_trace.is_none() {
        if cli.trace_max_events != mmcsim_engine::export::DEFAULT_MAX_TRACE_EVENTS {
            warnings.push(
                "trace_max_events: no effect without --write_trace (it caps the trace that writes)"
                    .to_string(),
            );
        }
        if cli.trace_format != args::TraceFormat::Json {
            warnings.push(
                "trace_format: no effect without --write_trace (it picks what that writes)"
                    .to_string(),
            );
        }
    }
    for w in warnings {
        let w = mmcsim_engine::scenario::bounded_message(w);
        let _ = writeln!(std::io::stderr(), "mmcsim: warning: {w}");
    }
    // Written once nothing more can be refused (a sweep's points are all checked by then).
    let write_platform = || -> Result<(), String> {
        if let Some(path) = &cli.write_platform {
            let text =
                mmcsim_engine::scenario::board_file::to_toml(&scn).map_err(|e| e.to_string())?;
            std::fs::write(path, text).map_err(|e| format!("write_platform '{}': {}", path, e))?;
        }
        Ok(())
    };
    if !cli.sweeps.is_empty() {
        // Each point is its own run: one trace, series or log file would say nothing of the
        // sweep.
        let per_run = [
            ("write_trace", cli.write_trace.is_some()),
            ("write_csv", cli.write_csv.is_some()),
            ("write_jobfile", cli.write_jobfile.is_some()),
        ];
        let log = logs::outputs(&scn).into_iter().next().map(|(opt, _)| opt);
        if let Some(opt) = per_run
            .iter()
            .find(|(_, on)| *on)
            .map(|(o, _)| o.to_string())
            .or(log)
        {
            return Err(format!(
                "{opt}: not written by a sweep (each point is a run of its own); accepted: --{opt} without --sweep, or --sweep with --output-format=json or csv"
            ));
        }
        let dims = cli
            .sweeps
            .iter()
            .map(|s| sweep::parse_dim(s))
            .collect::<Result<Vec<_>, _>>()?;
        if scn.sensitivity {
            return sensitivity::ab(cli, &scn, dims, write_platform);
        }
        let doc = sweep::run(&scn, dims, cli.shard)?;
        write_platform()?;
        return Ok(sweep::render(&doc, cli.format));
    }
    if cli.shard.is_some() {
        return Err("shard: only with --sweep".to_string());
    }
    if cli.formats.contains(&Format::Csv) {
        return Err(
            "output-format: csv is for sweeps (--sweep); accepted: normal, json".to_string(),
        );
    }
    let mut sim = mmcsim_engine::Simulator::new(&scn).map_err(|e| e.to_string())?;
    write_platform()?;
    exports::before_run(cli, &scn)?;
    // The logs are written as the run goes (their memory is a stretch of the run's).
    let mut logs = logs::Logs::create(&scn)?;
    if logs.any() {
        while !sim.run_events(logs::CHUNK_EVENTS) {
            logs.take(&mut sim)?;
        }
    }
    sim.run_to_end();
    logs.finish(&mut sim)?;
    stranded(&sim)?;
    let report = sim.report();
    exports::after_run(cli, &sim)?;
    let sens = match scn.sensitivity {
        true => Some(sensitivity::run(
            &[String::new()],
            std::slice::from_ref(&scn),
            std::slice::from_ref(&report),
        )?),
        false => None,
    };
    let value = sens.as_ref().and_then(|s| serde_json::to_value(s).ok());
    let mut out = String::new();
    for f in &cli.formats {
        out.push_str(&match f {
            Format::Normal => {
                let mut text = normal::render(&scn, &report);
                if let Some(s) = &sens {
                    text.push_str(&mmcsim_engine::tools::sensitivity::render(s));
                }
                text
            }
            Format::Json | Format::JsonPlus => mmcsim_engine::export::fio_json::render_with(
                &scn,
                &report,
                *f == Format::JsonPlus,
                value.clone(),
            ),
            Format::Csv => unreachable!("refused above"),
        });
    }
    Ok(out)
}

/// A run the model left with requests unfinished: its figures would be of a run cut short.
fn stranded(sim: &mmcsim_engine::Simulator) -> Result<(), String> {
    match sim.stranded_requests() {
        0 => Ok(()),
        n => Err(format!(
            "the model stopped at {:.3} ms of simulated time with {n} request(s) unfinished: \
             a defect of mmcsim's model, not of the job (please report this command line); \
             no figures are printed, they would be of a run cut short",
            sim.now() as f64 / 1e6
        )),
    }
}

fn main() {
    let argv: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if argv.first().map(String::as_str) == Some("fit") {
        match fit::run_fit(&argv[1..]) {
            Ok(text) => print!("{text}"),
            Err(msg) => {
                let msg = mmcsim_engine::scenario::bounded_message(msg);
                let _ = writeln!(std::io::stderr(), "mmcsim: {}", msg);
                std::process::exit(exit_status());
            }
        }
        if progress::interrupted() {
            std::process::exit(progress::INTERRUPTED_EXIT);
        }
        return;
    }
    let result = args::parse(&argv).and_then(|cli| {
        let text = run(&cli)?;
        match cli.output.as_deref().filter(|&p| p != "-") {
            Some(path) => exports::write_file("output", path, &text),
            None => {
                let mut out = std::io::stdout().lock();
                match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                    Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                        Err(format!("stdout: {}", e))
                    }
                    _ => Ok(()),
                }
            }
        }
    });
    if let Err(msg) = result {
        // One short line whatever the input: echoed keys, values and paths are cut.
        let msg = mmcsim_engine::scenario::bounded_message(msg);
        let _ = writeln!(std::io::stderr(), "mmcsim: {}", msg);
        std::process::exit(exit_status());
    }
    if progress::interrupted() {
        std::process::exit(progress::INTERRUPTED_EXIT);
    }
}

/// 2 for bad input; fio's 128 after Ctrl-C.
fn exit_status() -> i32 {
    match progress::interrupted() {
        true => progress::INTERRUPTED_EXIT,
        false => 2,
    }
}
