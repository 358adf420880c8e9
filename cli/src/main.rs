//! `mmcsim`: run fio command lines and job files against the eMMC model.
//!
//! Exit status: 0 on success, 2 on any bad input (one line on stderr, `mmcsim: ...`).

mod args;
mod calibration;
mod exports;
mod help;
mod normal;
mod num2str;
#[cfg(test)]
mod tests;

use args::{Cli, Format};
use mmcsim_engine::scenario::options::ScenarioBuilder;
use mmcsim_engine::Scenario;
use std::io::Write;

/// Reads the fio options, then the job files, into one scenario (fio parses its command line
/// before its job files, so command-line options are globals for every job file), with the
/// warnings about options that have no effect.
fn scenario(cli: &Cli) -> Result<(Scenario, Vec<String>), String> {
    let mut b = ScenarioBuilder::new(Scenario::default());
    b.args(&cli.fio_args).map_err(|e| e.to_string())?;
    for path in &cli.job_files {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("job file '{}': {}", path, e))?;
        b.jobfile(&text).map_err(|e| format!("{}: {}", path, e))?;
    }
    b.finish_with_warnings().map_err(|e| e.to_string())
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
    let (scn, warnings) = scenario(cli)?;
    for w in warnings {
        let w = mmcsim_engine::scenario::bounded_message(w);
        let _ = writeln!(std::io::stderr(), "mmcsim: warning: {w}");
    }
    let mut sim = mmcsim_engine::Simulator::new(&scn).map_err(|e| e.to_string())?;
    exports::before_run(cli, &scn)?;
    sim.run_to_end();
    let report = sim.report();
    exports::after_run(cli, &sim)?;
    Ok(match cli.format {
        Format::Normal => normal::render(&scn, &report),
        Format::Json => mmcsim_engine::export::fio_json(&scn, &report),
    })
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
        // One short line whatever the input: echoed keys, values and paths are cut.
        let msg = mmcsim_engine::scenario::bounded_message(msg);
        let _ = writeln!(std::io::stderr(), "mmcsim: {}", msg);
        std::process::exit(2);
    }
}
