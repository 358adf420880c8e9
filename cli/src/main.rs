//! `mmcsim`: run fio command lines and job files against the eMMC model.
//!
//! Exit status: 0 on success, 2 on any bad input (one line on stderr, `mmcsim: ...`).

mod args;
mod calibration;
mod exports;
mod help;
mod logs;
mod normal;
mod num2str;
#[cfg(test)]
mod tests;

use args::{Cli, Format};
use mmcsim_engine::scenario::jobfile::JobFileEnv;
use mmcsim_engine::scenario::options::ScenarioBuilder;
use mmcsim_engine::Scenario;
use std::io::Write;

/// Reads the fio options, then the job files, into one scenario (fio parses its command line
/// before its job files, so command-line options are globals for every job file). `include`
/// files are read next to the job file, `${VAR}` from the environment, and the traces named by
/// `read_iolog=` next to the job file or from the working directory. The options that change
/// nothing in the model are listed once on stderr.
fn scenario(cli: &Cli) -> Result<Scenario, String> {
    let mut b = ScenarioBuilder::new(Scenario::default());
    b.args(&cli.fio_args).map_err(|e| e.to_string())?;
    let mut dirs = vec![std::path::PathBuf::from(".")];
    for path in &cli.job_files {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("job file '{}': {}", path, e))?;
        let dir = std::path::Path::new(path)
            .parent()
            .map(|d| d.to_path_buf())
            .unwrap_or_default();
        let include =
            |name: &str| std::fs::read_to_string(resolve(&dir, name)).map_err(|e| e.to_string());
        let var = |name: &str| std::env::var(name).ok();
        let env = JobFileEnv {
            include: &include,
            var: &var,
        };
        b.jobfile_in(&text, &env)
            .map_err(|e| format!("{}: {}", path, e))?;
        dirs.insert(0, dir);
    }
    for name in b.iolog_names() {
        let path = dirs
            .iter()
            .map(|d| resolve(d, &name))
            .find(|p| p.exists())
            .unwrap_or_else(|| std::path::PathBuf::from(&name));
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("read_iolog '{}': {}", name, e))?;
        let log = mmcsim_engine::scenario::iolog::parse(&name, &text).map_err(|e| e.to_string())?;
        if log.skipped_trims > 0 {
            eprintln!(
                "mmcsim: read_iolog '{}': {} trims/discards left out (the card model has no erase)",
                name, log.skipped_trims
            );
        }
        b.attach_iolog(log);
    }
    if let Some(notes) = b.notes_text() {
        for line in notes.lines() {
            eprintln!("mmcsim: {}", line);
        }
    }
    b.finish().map_err(|e| e.to_string())
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
        return Ok(help::usage());
    }
    if cli.version {
        return Ok(format!("mmcsim-{}\n", env!("CARGO_PKG_VERSION")));
    }
    if cli.list_platforms {
        return Ok(help::platforms());
    }
    if cli.calibration {
        let rows = calibration::run(args::size_override(&cli.fio_args)?)?;
        return Ok(calibration::render(&rows));
    }
    let scn = scenario(cli)?;
    let mut sim = mmcsim_engine::Simulator::new(&scn).map_err(|e| e.to_string())?;
    exports::before_run(cli, &scn)?;
    sim.run_to_end();
    let report = sim.report();
    exports::after_run(cli, &sim)?;
    logs::write(&scn, &sim)?;
    let mut out = String::new();
    for f in &cli.format {
        out.push_str(&match f {
            Format::Normal => normal::render(&scn, &report),
            Format::Json => mmcsim_engine::export::fio_json(&scn, &report),
            Format::JsonPlus => mmcsim_engine::export::fio_json_plus(&scn, &report),
        });
    }
    Ok(out)
}

fn main() {
    let argv: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let result = args::parse(&argv).and_then(|cli| {
        let text = run(&cli)?;
        match &cli.output {
            Some(path) => {
                std::fs::write(path, text).map_err(|e| format!("output '{}': {}", path, e))
            }
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
        let _ = writeln!(std::io::stderr(), "mmcsim: {}", msg.replace('\n', " "));
        std::process::exit(2);
    }
}
