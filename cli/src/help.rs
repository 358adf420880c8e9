//! `--help` and `--list-platforms`.

use mmcsim_engine::scenario::board::{accepted_with_unit, params, preset_text, Part};
use mmcsim_engine::scenario::options::{split_arg, OptionKind, OPTIONS};
use std::fmt::Write;

/// `mmcsim fit --help`: the fit's usage, the lines of [`HEAD`] that describe it.
pub fn fit_usage() -> String {
    let lines: Vec<&str> = HEAD
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("mmcsim fit"))
        .take_while(|l| !l.is_empty())
        .map(str::trim_start)
        .collect();
    format!("usage: {}\n", lines.join("\n  "))
}

/// The tool's own lines: what it is, how to call it, its own options.
const HEAD: &str =
    "mmcsim: fio command lines and job files against a model of the Linux eMMC block I/O path\n\
     \n\
     usage: mmcsim [OPTIONS] [JOBFILE...]\n\
     \x20      mmcsim fit [--platform=BASE | --platform_file=BASE.toml] [--fit=PARAM,...]\n\
     \x20                 [--fit_runtime=TIME] [--max_iters=N] [--write_platform=OUT] RESULTS.json...\n\
     \x20        fits board parameters (default: completion_us, nand_read_us, card_write_busy_us,\n\
     \x20        bus_mb_s, nand_program_mb_s, reliable_write_us) to fio --output-format=json results;\n\
     \x20        trusted only when each result, left out, is predicted within 10 % by a fit to the others;\n\
     \x20        runs are cut at 250 ms of simulated time, or at --fit_runtime, which cuts jobs with their\n\
     \x20        own runtime too; prints an estimate and fio's status line on stderr; Ctrl-C stops it with\n\
     \x20        what is done printed and written (exit status 128)\n\
     \n\
     Options are fio's, written --name=value or -name=value (a flag may be bare: --group_reporting).\n\
     Options before the first --name are global; each --name=X starts a job that inherits them.\n\
     Job files are fio job files ([global] and [job] sections); command-line options act as their globals.\n\
     \n\
     mmcsim options:\n\
     \x20 --output-format=normal,json,json+  fio's outputs, comma-separated (default normal)\n\
     \x20 --output=FILE                write the output to FILE (- for standard output, as for the\n\
     \x20                              other outputs below but --write_platform)\n\
     \x20 --write_trace=FILE           the simulated timeline as Chrome trace-event JSON (open it in\n\
     \x20                              ui.perfetto.dev or chrome://tracing): requests per job, tags, bus\n\
     \x20 --trace_format=F            what --write_trace writes: json (the default), perfetto (Perfetto's\n\
     \x20                              protobuf trace: ftrace block_rq_*/block_io_* and mmc events per CPU,\n\
     \x20                              the stages, slots and bus as tracks), ftrace (the tracepoints as\n\
     \x20                              ftrace text, which --read_iolog replays)\n\
     \x20 --trace_max_events=N         at most N trace events (default 200000; the note says when cut)\n\
     \x20 --write_csv=FILE             the time series as CSV: t_ms,mib_s,iops,read_mib_s,write_mib_s,avg_inflight\n\
     \x20 --write_jobfile=FILE         the scenario as a fio job file (runs again with: mmcsim FILE)\n\
     \x20 --platform_file=FILE         start from a platform file (TOML, as --write_platform writes)\n\
     \x20 --write_platform=FILE        the effective platform as a platform file (TOML)\n\
     \x20 --sweep=KEY=VALUES           run every point of an option's list or range (at most two\n\
     \x20                              --sweep, 10000 points): packed=0,2,4,8, hsq_depth=1..16, nand_read_us=50..200:25;\n\
     \x20                              an estimate and fio's status line on stderr, Ctrl-C prints the points done\n\
     \x20 --shard=I/N                  run every N-th point of the sweep starting at the I-th\n\
     \x20 --merge FILE...              join the shards' --output-format=json outputs into one sweep\n\
     \x20 --output-format=csv          a sweep as CSV, one line per point\n\
     \x20 -                            read a job file from standard input (as fio)\n\
     \x20 Input files are regular files of at most 16 MiB; a run, a sweep or a fit is refused when its\n\
     \x20 estimated work passes its bound (the message names the estimate and the limit).\n\
     \x20 --list-platforms             list the measured platform presets\n\
     \x20 --calibration                simulate every measured case and compare (--size= shortens runs;\n\
     \x20                              --ioscheduler=, --blk_dispatch= run every board under them)\n\
     \x20 --help, --version\n";

/// Usage text, with the option table of the engine's scenario parser; the board parameters
/// show the value of the preset `fio_args` name (`--platform=`), or the default preset's.
pub fn usage(fio_args: &[String]) -> String {
    let mut out = String::from(HEAD);
    option_rows(&mut out);
    board_rows(&mut out, fio_args);
    out
}

/// Every option of the table, grouped by kind.
fn option_rows(out: &mut String) {
    for (title, kinds) in [
        ("job options (fio)", &[OptionKind::Job][..]),
        (
            "scenario options (one value for the whole run)",
            &[OptionKind::Scenario],
        ),
        (
            "host switches (default: the platform preset's; see --list-platforms)",
            &[OptionKind::Host],
        ),
        (
            "accepted and ignored (fio compatibility)",
            &[OptionKind::Ignored],
        ),
    ] {
        let _ = writeln!(out, "\n{}:", title);
        for o in OPTIONS.iter().filter(|o| kinds.contains(&o.kind)) {
            let _ = writeln!(out, "  {:<16} {:<40} {}", o.name, o.accepted, o.help);
        }
    }
}

/// The board parameters with the values of the platform `fio_args` name.
fn board_rows(out: &mut String, fio_args: &[String]) {
    let preset = fio_args
        .iter()
        .filter_map(|a| match split_arg(a) {
            Ok(("platform", Some(v))) => mmcsim_engine::platform::by_name(v),
            _ => None,
        })
        .next_back()
        .unwrap_or(mmcsim_engine::PLATFORMS[0]);
    let _ = writeln!(
        out,
        "\nboard parameters (default: the preset's; values shown for {}, see --platform=):",
        preset.name
    );
    for part in Part::ALL {
        let _ = writeln!(out, "  {}:", part.title());
        for (row, p) in params().filter(|(_, p)| p.part == part) {
            let _ = writeln!(
                out,
                "  {:<22} {:>8} {:<4} {:<22} {}",
                row.name,
                preset_text(preset, &p),
                p.unit.label(),
                accepted_with_unit(row, &p),
                row.help
            );
        }
    }
}

/// Each platform preset: name and description, the measurements it reproduces, its host
/// driver and what that provides, and its defaults as options (the kernel, then every host
/// switch: path, hsq depth, FUA, scheduler, dispatch, ...), which a run on it takes unless given.
pub fn platforms() -> String {
    let mut out = String::new();
    for p in mmcsim_engine::platform::PLATFORMS {
        let switches: Vec<String> = mmcsim_engine::scenario::board::switch_values(&p.switches)
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let _ = writeln!(
            out,
            "{:<20} {}\n{:<20} source: {}\n{:<20} host driver: {} — {}\n{:<20} defaults: kernel={} {}",
            p.name,
            p.description,
            "",
            p.source,
            "",
            p.driver.name(),
            p.driver.provides(),
            "",
            p.kernel,
            switches.join(" ")
        );
    }
    out
}
