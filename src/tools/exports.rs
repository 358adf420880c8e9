//! What the page exports and imports, as text: fio job files in and out, fio JSON, the time
//! series as CSV, the timeline as Chrome trace-event JSON, the scheduled power cut.
//!
//! Plain logic, no browser code (`download.rs` turns the text into files), so it builds natively
//! and the browser tests check it directly. Every function is one call into the engine's
//! `export` and `scenario` modules, the code behind the CLI's `--output-format=json`,
//! `--write_csv=`, `--write_trace=` and `--write_jobfile=`, so a file saved here is the file the
//! CLI writes for the same scenario.

use mmcsim_engine::export;
use mmcsim_engine::metrics::SeriesPoint;
use mmcsim_engine::scenario::jobfile::to_readable_jobfile;
use mmcsim_engine::scenario::options::reset_option;
use mmcsim_engine::scenario::options::ScenarioBuilder;
use mmcsim_engine::scenario::units::format_time_ns;
use mmcsim_engine::scenario::{apply_option, OptionScope};
use mmcsim_engine::{Report, Scenario};

use crate::run::session::Session;

/// Events written to a trace export at most: 50 000 events are about 3 300 requests and 5 MB of
/// JSON; the CLI's `--write_trace` (200 000 by default) goes further. The export runs its own
/// simulation in frame-sized slices ([`TraceJob`]), so the page never blocks for long.
pub const TRACE_MAX_EVENTS: usize = 50_000;

/// A trace export run in slices of at most a frame's budget: [`TraceJob::slice`] each frame
/// until it returns true, then [`TraceJob::finish`].
pub struct TraceJob {
    export: export::TraceExport<String>,
    slicer: crate::run::slicer::Slicer,
}

impl TraceJob {
    pub fn new(scn: &Scenario) -> Result<TraceJob, String> {
        let export = export::TraceExport::new(scn, TRACE_MAX_EVENTS, String::new())
            .map_err(|e| e.to_string())?;
        Ok(TraceJob {
            export,
            slicer: crate::run::slicer::Slicer { chunk: 256 },
        })
    }

    /// Runs simulator steps for at most `budget_ms` of `now` (a wall clock in ms). True once the
    /// export's run is over.
    pub fn slice(&mut self, now: impl Fn() -> f64, budget_ms: f64) -> bool {
        let export = &mut self.export;
        self.slicer
            .run_slice(|n| export.run_steps(n), now, budget_ms)
    }

    /// Events written so far.
    pub fn events(&self) -> usize {
        self.export.events()
    }

    /// Fraction of the run done.
    pub fn progress(&self) -> f64 {
        self.export.progress()
    }

    /// The document and what it holds.
    pub fn finish(self) -> Result<(String, export::TraceStats), String> {
        self.export.finish().map_err(|e| e.to_string())
    }
}

/// What the page says about a finished trace export: its real event count, and whether (and
/// why) it covers the start of the run only.
pub fn trace_summary(stats: &export::TraceStats) -> String {
    let mut m = format!(
        "{} events, {} requests, {:.3} ms of simulated time.",
        stats.events,
        stats.requests,
        stats.simulated_ns as f64 / 1e6
    );
    if stats.truncated {
        m.push_str(&format!(
            " The run was longer: the trace stops after these {} events (at most {}), so it covers the start of the run only.",
            stats.events, TRACE_MAX_EVENTS
        ));
    }
    m
}

/// A job file as the scenario (fio's job-file syntax, through the engine's one option parser),
/// or the parser's message naming the line and the option it cannot take. The file describes the
/// whole scenario: it starts from the defaults, not from what the page had. A scenario the
/// simulator refuses as a whole (a platform limit) is refused here too, so the page never holds a
/// scenario it cannot run.
pub fn scenario_from_jobfile(text: &str) -> Result<Scenario, String> {
    jobfile_with_notices(text).map(|(scn, _)| scn)
}

/// [`scenario_from_jobfile`] with what reading it noticed (options that change nothing or more
/// than they seem: the engine's builder notices and `scenario::warnings`), for the page to show.
pub fn jobfile_with_notices(text: &str) -> Result<(Scenario, Vec<String>), String> {
    jobfile_on(text, &Scenario::default().platform)
}

/// [`jobfile_with_notices`] on `platform`: the platform the page shows stays unless the file
/// names one (`platform=`), as a job file of fio's, which knows no platforms, is a workload.
pub fn jobfile_on(text: &str, platform: &str) -> Result<(Scenario, Vec<String>), String> {
    let mut b = ScenarioBuilder::new(Scenario {
        platform: platform.to_string(),
        ..Scenario::default()
    });
    b.jobfile(text).map_err(|e| e.to_string())?;
    let (scn, notices) = b.finish_with_warnings().map_err(|e| e.to_string())?;
    if scn.jobs.is_empty() && scn.mmc_test.is_none() {
        return Err("the job file has no job section and no job option".to_string());
    }
    Session::start(&scn).map_err(|e| e.message)?;
    Ok((scn, notices))
}

/// The scenario as a fio job file; `mmcsim FILE` runs it again. Refused, as the CLI's
/// `--write_jobfile=` refuses it (the engine's one writer), when a job name or value would not
/// read back (`;`, `#`, `$`).
pub fn jobfile_text(scn: &Scenario) -> Result<String, String> {
    let text = to_readable_jobfile(scn).map_err(|e| e.to_string())?;
    Ok(format!(
        "; mmcsim scenario (fio job file syntax). Run it with: mmcsim THIS_FILE\n{text}"
    ))
}

/// fio's `--output-format=json` document of a finished run, byte for byte what the CLI prints.
pub fn fio_json(scn: &Scenario, report: &Report) -> String {
    export::fio_json(scn, report)
}

/// The time series as CSV (header `t_ms,mib_s,iops,read_mib_s,write_mib_s,avg_inflight`).
pub fn series_csv(points: &[SeriesPoint]) -> String {
    export::series_csv_of(points)
}

/// Requests the scenario issues (an estimate for the trace warning; mmc_test counts as one
/// large run).
pub fn requests_of(scn: &Scenario) -> u64 {
    if scn.mmc_test.is_some() {
        return u64::MAX;
    }
    scn.jobs
        .iter()
        .map(|j| (j.size / j.bs.max(1)).max(1) * j.numjobs as u64)
        .sum()
}

/// Whether a trace of the scenario will stop at [`TRACE_MAX_EVENTS`] (about 15 events per
/// request): the page says so before the user waits for it.
pub fn trace_is_cut(scn: &Scenario) -> bool {
    requests_of(scn).saturating_mul(15) > TRACE_MAX_EVENTS as u64
}

/// The simulated timeline as Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing), at
/// most [`TRACE_MAX_EVENTS`] events, in one go (the page uses [`TraceJob`]).
pub fn trace_json(scn: &Scenario) -> Result<String, String> {
    export::trace_event_json(scn, TRACE_MAX_EVENTS).map_err(|e| e.to_string())
}

/// Perfetto's own protobuf trace of the run (the CLI's `--trace_format=perfetto`), at most
/// [`TRACE_MAX_EVENTS`] events, and what to do with it: ui.perfetto.dev opens it in the browser.
pub fn perfetto_trace(scn: &Scenario) -> Result<(Vec<u8>, String), String> {
    let mut bytes = Vec::new();
    let stats =
        export::write_perfetto(scn, TRACE_MAX_EVENTS, &mut bytes).map_err(|e| e.to_string())?;
    let mut said = format!(
        " {} events of {} requests: open https://ui.perfetto.dev, choose \"Open trace file\" and pick it (the file stays in your browser).",
        stats.events, stats.requests
    );
    if stats.truncated {
        said.push_str(" The run was longer: the trace covers its start only.");
    }
    Ok((bytes, said))
}

/// The scheduled power cut as `power_cut=` text ("50ms"), or None without one.
pub fn power_cut_text(scn: &Scenario) -> Option<String> {
    scn.power_cut_ns.map(format_time_ns)
}

/// The scenario with the power cut scheduled at `text` (fio time syntax, `50ms`), or without
/// one when `text` is empty; else the parser's message.
pub fn with_power_cut(scn: &Scenario, text: &str) -> Result<Scenario, String> {
    let mut next = scn.clone();
    let text = text.trim();
    if text.is_empty() {
        reset_option(&mut next, OptionScope::Global, "power_cut").map_err(|e| e.to_string())?;
    } else {
        apply_option(&mut next, OptionScope::Global, "power_cut", Some(text))
            .map_err(|e| e.to_string())?;
    }
    Ok(next)
}

/// A file name for an export of the scenario: `mmcsim-<platform>-<rw>-<bs>.<ext>`, only
/// characters safe in any file system.
pub fn file_name(scn: &Scenario, ext: &str) -> String {
    let mut parts = vec!["mmcsim".to_string(), scn.platform.clone()];
    if let Some(t) = scn.mmc_test {
        parts.push(format!("mmc_test{t}"));
    } else if let Some(j) = scn.jobs.first() {
        parts.push(j.rw.name().to_string());
        parts.push(mmcsim_engine::scenario::units::format_size(j.bs));
    }
    let stem: String = parts
        .join("-")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{stem}.{ext}")
}

/// Why a power cut lost what it lost: the engine's sentence about the cut
/// (`explain::effect_summary`) and what the host's settings did to the writes.
pub fn power_cut_explanation(scn: &Scenario, report: &Report) -> Vec<String> {
    let Some(p) = &report.power_cut else {
        return Vec::new();
    };
    let Ok(cfg) = scn.effective_platform().map(|p| p.switches) else {
        return Vec::new();
    };
    let mut out: Vec<String> = mmcsim_engine::explain::effect_summary(report, &cfg)
        .into_iter()
        .filter(|s| s.starts_with("Power cut"))
        .collect();
    let fsync = scn.jobs.iter().any(|j| j.fsync > 0);
    if p.lost_acked_writes > 0 {
        out.push(if fsync {
            "Why: these writes were acknowledged from the card's volatile write cache after the job's \
             last completed fsync: fsync=N flushes the cache every N writes, and the writes since the \
             last flush were not synchronous (no sync=1), so nothing made them durable yet. With \
             fsync=1 at most the write in flight is exposed; sync=1 makes each write durable before \
             it is acknowledged."
                .to_string()
        } else {
            "Why: these writes were acknowledged from the card's volatile write cache: they asked for \
             no durability (no sync=1, no fsync), so they carried no REQ_FUA and no cache flush covered \
             them. An O_SYNC write (sync=1) survives with FUA on (a reliable write) and off (the block \
             layer sends a flush after it and acknowledges it only then); so does a write a completed \
             flush covers."
                .to_string()
        });
    } else if p.acked_reliable_writes > 0 {
        out.push(
            "Every acknowledged write was a reliable write (REQ_FUA with fua=1): the card acknowledged \
             it only once it was programmed to NAND, so the cut could not take it."
                .to_string(),
        );
    } else if !cfg.cache {
        out.push(
            "The card's write cache is off (cache=0): every write was in NAND when acknowledged."
                .to_string(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "Open in Perfetto" saves Perfetto's protobuf trace (a stream of `Trace.packet`s) and
    /// says where to open it.
    #[test]
    fn the_perfetto_file_is_a_trace_with_the_steps_to_open_it() {
        let scn = mmcsim_engine::scenario::options::parse_args(
            &["--name=t".to_string(), "--size=64k".to_string()],
            Scenario::default(),
        )
        .unwrap();
        let (bytes, said) = perfetto_trace(&scn).unwrap();
        assert_eq!(bytes.first(), Some(&0x0a));
        assert!(
            said.contains("16 requests: open https://ui.perfetto.dev"),
            "{said}"
        );
        assert!(file_name(&scn, "perfetto-trace").ends_with(".perfetto-trace"));
    }

    /// Issue 10, item 2: the page's trace export runs in frame-sized slices and says how many
    /// events the file really holds.
    #[test]
    fn the_trace_runs_in_slices_and_reports_its_real_event_count() {
        let scn = mmcsim_engine::scenario::options::parse_args(
            &[
                "--numjobs=32",
                "--iodepth=8",
                "--ioengine=libaio",
                // Random: sequential reads would merge into fewer requests than the cap.
                "--rw=randread",
                "--size=1m",
            ],
            Scenario::default(),
        )
        .unwrap();
        let mut job = TraceJob::new(&scn).unwrap();
        // A fake clock where every chunk seems slow (3 ms): each slice runs one or two chunks.
        let clock = std::cell::Cell::new(0.0);
        let now = || {
            clock.set(clock.get() + 3.0);
            clock.get()
        };
        let mut slices = 0;
        while !job.slice(now, crate::run::slicer::FRAME_BUDGET_MS) {
            slices += 1;
            assert!(slices < 1_000_000);
        }
        assert!(slices > 10, "{slices} slices");
        let (text, stats) = job.finish().unwrap();
        assert!(stats.truncated, "this run is longer than the cap");
        let events = text.matches("\"ph\":").count();
        assert_eq!(
            events, stats.events,
            "the count said is the count in the file"
        );
        assert!(stats.events <= TRACE_MAX_EVENTS);
        let said = trace_summary(&stats);
        assert!(said.contains(&format!("{} events", stats.events)), "{said}");
        assert!(said.contains("start of the run only"), "{said}");
    }

    #[test]
    fn jobfile_round_trip_and_errors_name_the_line() {
        let scn = scenario_from_jobfile("[global]\nplatform=unisoc-fua-2022\n[w]\nrw=randwrite\nbs=4k\nsync=1\nfua=0\nsize=1m\n").unwrap();
        assert_eq!(
            scenario_from_jobfile(&jobfile_text(&scn).unwrap()).unwrap(),
            scn
        );
        // A workload without a platform keeps the one the page shows; one that names it wins.
        let (on, _) = jobfile_on("[w]\nrw=randread\nsize=1m\n", "unisoc-fua-2022").unwrap();
        assert_eq!(on.platform, "unisoc-fua-2022");
        let (named, _) = jobfile_on(
            "[global]\nplatform=unisoc-hsq-2023\n[w]\nrw=read\nsize=1m\n",
            "unisoc-fua-2022",
        )
        .unwrap();
        assert_eq!(named.platform, "unisoc-hsq-2023");
        let e = scenario_from_jobfile("[a]\nrw=read\n\nioengine=mmap\n").unwrap_err();
        assert!(e.starts_with("line 4: ioengine"), "{e}");
    }

    /// The page's job file is the CLI's (the engine's one writer): a job name that would not
    /// read back (`#` and `;` start a comment, `$HOME` would come back expanded) is refused with
    /// the message `mmcsim --write_jobfile=` gives, naming the line, instead of a download.
    #[test]
    fn a_job_file_that_would_not_read_back_is_refused_as_the_cli_refuses_it() {
        for name in ["a#b", "a;b", "$HOME"] {
            let args = [format!("--name={name}"), "--size=64k".to_string()];
            let scn =
                mmcsim_engine::scenario::options::parse_args(&args, Scenario::default()).unwrap();
            let e = jobfile_text(&scn).unwrap_err();
            assert_eq!(
                e,
                format!("the line '[{name}]' would not read back (in a fio job file ';' and '#' start a comment and '$' a variable, and nothing quotes them); accepted: job names and values without ';', '#' or '$'")
            );
        }
        let fine = scenario_from_jobfile("[a-b_c.d]\nsize=64k\n").unwrap();
        assert!(jobfile_text(&fine).unwrap().contains("\n[a-b_c.d]\n"));
    }

    /// The "why" of a cut names what the job asked for: an fsync job is not told it
    /// had "no fsync"; O_SYNC writes with FUA off lose nothing (each waited for its flush).
    #[test]
    fn the_power_cut_why_fits_the_job() {
        let cut = |args: &[&str]| {
            let scn = mmcsim_engine::scenario::options::parse_args(args, Scenario::default());
            let scn = scn.unwrap();
            let report = mmcsim_engine::run(&scn).unwrap();
            (
                report.power_cut.clone().unwrap(),
                power_cut_explanation(&scn, &report),
            )
        };
        let plain = [
            "--platform=sprd-hs400es-2020",
            "--rw=randwrite",
            "--power_cut=5ms",
        ];
        let (p, why) = cut(&plain);
        assert!(p.lost_acked_writes > 0);
        assert!(
            why.iter().any(|w| w.contains("no sync=1, no fsync")),
            "{why:?}"
        );
        let fsync = [&plain[..], &["--fsync=64"]].concat();
        let (p, why) = cut(&fsync);
        assert!(p.lost_acked_writes > 0);
        assert!(why.iter().all(|w| !w.contains("no fsync")), "{why:?}");
        assert!(why.iter().any(|w| w.contains("fsync=N")), "{why:?}");
        let o_sync = [
            "--platform=unisoc-fua-2022",
            "--rw=randwrite",
            "--sync=1",
            "--fua=0",
        ];
        let (p, _) = cut(&[&o_sync[..], &["--power_cut=5ms"]].concat());
        assert!(p.acked_writes > 0 && p.lost_acked_writes == 0, "{p:?}");
    }

    #[test]
    fn power_cut_is_set_and_cleared() {
        let s = with_power_cut(&Scenario::default(), "50ms").unwrap();
        assert_eq!(s.power_cut_ns, Some(50_000_000));
        assert_eq!(power_cut_text(&s).as_deref(), Some("50ms"));
        assert_eq!(with_power_cut(&s, "").unwrap().power_cut_ns, None);
        assert!(with_power_cut(&s, "soon").is_err());
    }
}
