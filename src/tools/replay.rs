//! A dropped or opened I/O trace as a scenario (no browser code; tested natively): the trace is
//! parsed whole by the engine (`scenario::iolog`: fio iolog v2/v3, blkparse, ftrace text, a
//! Perfetto trace, one CPU's binary blktrace), attached to
//! the scenario, and one job replays it at its queue times with up to 32 I/Os outstanding, on
//! the page's platform and host switches. A malformed line is refused with its number and the
//! scenario is left as it was.

use mmcsim_engine::scenario::iolog;
use mmcsim_engine::{IoEngine, JobSpec, Scenario};

/// The formats the page reads, as the engine names them (`IoLogFormat::name`), for the
/// panel's help: every one the engine's `parse_bytes` tells apart.
pub const FORMATS: [iolog::IoLogFormat; 6] = [
    iolog::IoLogFormat::FioV2,
    iolog::IoLogFormat::FioV3,
    iolog::IoLogFormat::Blkparse,
    iolog::IoLogFormat::Blktrace,
    iolog::IoLogFormat::Ftrace,
    iolog::IoLogFormat::Perfetto,
];

/// The file picker's `accept=`: the text formats' names, Perfetto's (`.perfetto-trace`,
/// `.pftrace`, `.pb`), binary blktrace's per-CPU files (`DEV.blktrace.N`), and any binary file
/// (a phone's trace may have any name).
pub const ACCEPT: &str = ".log,.iolog,.txt,.blkparse,.trace,.dat,.perfetto-trace,.pftrace,.pb,\
.blktrace.0,.blktrace.1,.blktrace.2,.blktrace.3,.blktrace.4,.blktrace.5,.blktrace.6,.blktrace.7,\
text/plain,application/octet-stream";

/// The panel's help: every format it reads, named.
pub fn formats_help() -> String {
    let names: Vec<&str> = FORMATS.iter().map(|f| f.name()).collect();
    format!(
        "Drop a trace here, or open one: {} or {} (fio's write_iolog, blkparse -i, blktrace -d, \
         /sys/kernel/tracing/trace or trace-cmd report, a Perfetto trace with block events). A \
         kernel trace replays its requests at their issue times on this platform and host, and \
         its own issue-to-complete times are set beside the model's.",
        names[..names.len() - 1].join(", "),
        names[names.len() - 1]
    )
}

/// I/Os the replaying job keeps outstanding: enough that a captured burst is issued at its
/// queue times rather than held back by the job.
pub const REPLAY_IODEPTH: u32 = 32;

/// `base` (platform, host switches, seed) replaying the trace file `bytes` named `name` as many
/// times as its `loops=` says (as the CLI replays a `read_iolog=`), and a line saying what was
/// loaded; a replay over the run's bounds is refused as the CLI refuses it.
pub fn replay_scenario(
    base: &Scenario,
    name: &str,
    bytes: &[u8],
) -> Result<(Scenario, String), String> {
    let log = iolog::parse_bytes(name, bytes).map_err(|e| e.to_string())?;
    // The page opens what was picked: of binary blktrace, maybe one CPU's file only (the CLI
    // reads the run's other CPUs' files beside it), so the reader is told how to add them.
    let unread = if iolog::is_blktrace(bytes) {
        format!(
            "; binary blktrace: only {name} was read, one CPU's records: a run's other CPUs' \
             files ({}.1, ...) are read when opened (or dropped) together with it",
            blktrace_stem(name).unwrap_or("DEV.blktrace")
        )
    } else {
        String::new()
    };
    replay_log(base, log, &unread)
}

/// `DEV.blktrace` of a per-CPU file's name `DEV.blktrace.N`, and N.
fn blktrace_cpu(name: &str) -> Option<(&str, u32)> {
    let (stem, cpu) = name.rsplit_once('.')?;
    stem.ends_with(".blktrace")
        .then_some(())
        .and(cpu.parse().ok())
        .map(|n| (stem, n))
}

fn blktrace_stem(name: &str) -> Option<&str> {
    blktrace_cpu(name).map(|(s, _)| s)
}

/// `base` replaying the files picked or dropped together (name and bytes each): one trace, or
/// the per-CPU files of one binary blktrace run (`DEV.blktrace.0`, `.1`, ...), merged by time
/// as blkparse and the CLI merge them. Several files of anything else are refused.
pub fn replay_files(
    base: &Scenario,
    files: &[(String, Vec<u8>)],
) -> Result<(Scenario, String), String> {
    let [(name, bytes)] = files else {
        let mut cpus = Vec::new();
        for (n, b) in files {
            match blktrace_cpu(n).filter(|_| iolog::is_blktrace(b)) {
                Some((stem, cpu)) => cpus.push((stem, cpu, n, b)),
                None => {
                    return Err(format!(
                        "{}: {} files opened together; accepted: one trace, or the per-CPU \
                         files of one binary blktrace run together (DEV.blktrace.0, \
                         DEV.blktrace.1, ...), which {n} is not",
                        crate::tools::input_limit::shown_name(n),
                        files.len()
                    ))
                }
            }
        }
        if let Some(o) = cpus.iter().find(|c| c.0 != cpus[0].0) {
            return Err(format!(
                "{}: the per-CPU files of one blktrace run share a name ({}.N); accepted: one run's files together",
                crate::tools::input_limit::shown_name(o.2),
                crate::tools::input_limit::shown_name(cpus[0].0),
            ));
        }
        cpus.sort_by_key(|c| c.1);
        let name = format!("{}.{}", cpus[0].0, cpus[0].1);
        let parts: Vec<(String, &[u8])> = cpus.iter().map(|c| (c.2.clone(), &c.3[..])).collect();
        let log = iolog::parse_blktrace(&name, &parts).map_err(|e| e.to_string())?;
        let read = format!(
            "; binary blktrace: {} CPU files read ({})",
            cpus.len(),
            cpus.iter()
                .map(|c| c.1.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        return replay_log(base, log, &read);
    };
    replay_scenario(base, name, bytes)
}

/// `base` replaying the parsed trace `log`; `note` ends the summary.
fn replay_log(
    base: &Scenario,
    log: iolog::IoLog,
    note: &str,
) -> Result<(Scenario, String), String> {
    let name = log.name.clone();
    // A kernel trace is replayed from its issue events; one with queue events only, from those.
    let from = if log.ops.is_empty() {
        iolog::ReplayEvents::Queue
    } else {
        iolog::ReplayEvents::Issue
    };
    let span_ms = log.ops_of(from).last().map_or(0, |o| o.t_ns) as f64 / 1e6;
    let loops = base.jobs.first().map_or(1, |j| j.loops.max(1));
    let times = match loops {
        1 => String::new(),
        n => format!(", replayed {n} times (loops={n})"),
    };
    // What the trace says of itself: its own latency, and where its machine differs.
    let mut own = String::new();
    if let Some(d) = log.meta.d2c {
        own += &format!(
            "; its own issue-to-complete: p50 {:.0} us, p99 {:.0} us over {} requests",
            d.p50_ns as f64 / 1e3,
            d.p99_ns as f64 / 1e3,
            d.requests
        );
    }
    if let Ok(p) = base.effective_platform() {
        for w in log.board_differences(p.kernel) {
            own += &format!("; {}", w.trim_start_matches("read_iolog: "));
        }
    }
    let summary = format!(
        "{} over {span_ms:.1} ms{times}{own}{note}",
        log.summary(from)
    );
    let mut scn = Scenario {
        jobs: vec![JobSpec {
            name: "replay".to_string(),
            read_iolog: Some(name),
            replay_events: from,
            ioengine: IoEngine::Libaio,
            iodepth: REPLAY_IODEPTH,
            loops,
            ..JobSpec::default()
        }],
        mmc_test: None,
        power_cut_ns: None,
        iologs: Vec::new(),
        ..base.clone()
    };
    scn.attach_iolog(log);
    mmcsim_engine::scenario::check(&scn).map_err(|e| e.to_string())?;
    Ok((scn, summary))
}

/// The A/B the issue asks of a trace: the same replay with ADMA3 packing off (A) and at the
/// platform's longest chain (B), when the platform has an ADMA3 controller.
pub fn packed_ab(a: &Scenario) -> Option<(Scenario, Scenario)> {
    let max = a.platform().ok()?.host.max_packed;
    if max < 2 {
        return None;
    }
    let mut off = a.clone();
    off.set_switch::<u32>("packed", Some(0));
    off.set_switch::<mmcsim_engine::MmcPath>("mmc_path", None);
    let mut on = off.clone();
    on.set_switch::<u32>("packed", Some(max.min(8)));
    Some((off, on))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACE: &str = "  179,0 0 1 0.000100000 812 Q W 16 + 8 [app]\n  179,0 0 2 0.000300000 812 Q R 64 + 64 [app]\n";

    #[test]
    fn a_trace_becomes_a_replay_that_runs_and_compares() {
        let (s, summary) =
            replay_scenario(&Scenario::default(), "t.blktrace", TRACE.as_bytes()).unwrap();
        assert!(
            summary.contains("queue events): 1 reads, 1 writes"),
            "{summary}"
        );
        let r = mmcsim_engine::run(&s).unwrap();
        assert_eq!(
            (r.jobs[0].read.io_bytes, r.jobs[0].write.io_bytes),
            (32768, 4096)
        );
        let (a, b) = packed_ab(&s).unwrap();
        assert_eq!(
            (a.switch::<u32>("packed"), b.switch::<u32>("packed")),
            (Some(0), Some(8))
        );
        assert!(mmcsim_engine::run(&b).is_ok());
        let e = replay_scenario(
            &Scenario::default(),
            "bad",
            b"fio version 2 iolog\nf read 0\n",
        )
        .unwrap_err();
        assert!(e.contains("bad: line 2"), "{e}");
    }

    /// The page's `loops=` replays a loaded trace that many times, as the CLI's `read_iolog=`
    /// with `loops=`; past the run's bounds it is refused with the CLI's message.
    #[test]
    fn loops_replay_the_trace_again_and_too_many_are_refused() {
        let base = crate::run::test_support::scenario(&[("loops", "3")]);
        let (s, summary) = replay_scenario(&base, "t.blktrace", TRACE.as_bytes()).unwrap();
        assert!(
            summary.ends_with(", replayed 3 times (loops=3)"),
            "{summary}"
        );
        let r = mmcsim_engine::run(&s).unwrap();
        assert_eq!(
            (r.jobs[0].read.io_bytes, r.jobs[0].write.io_bytes),
            (3 * 32768, 3 * 4096)
        );
        // 1000 lines of 4 KiB, a million times: 1e9 requests, over the I/O budget.
        let mut log = String::from("fio version 2 iolog\n/dev/mmcblk0 add\n/dev/mmcblk0 open\n");
        for i in 0..1000 {
            log += &format!("/dev/mmcblk0 read {} 4096\n", i * 4096);
        }
        let base = crate::run::test_support::scenario(&[("loops", "1000000")]);
        let e = replay_scenario(&base, "big.iolog", log.as_bytes()).unwrap_err();
        assert!(
            e.starts_with("loops: the jobs would simulate about 1000000000 requests")
                && e.contains("at most 80000000 events"),
            "the engine's check, as the CLI's: {e}"
        );
    }

    /// An issue (`__BLK_TA_ISSUE`) of a 4 KiB read at `sector` on 179,0 by CPU `cpu`, at
    /// `t` ns: a `blk_io_trace` record, little-endian.
    fn blk_issue(t: u64, sector: u64, cpu: u32) -> Vec<u8> {
        let mut r = Vec::new();
        r.extend((0x6561_7400u32 | 7).to_le_bytes());
        r.extend(0u32.to_le_bytes());
        r.extend(t.to_le_bytes());
        r.extend(sector.to_le_bytes());
        r.extend(4096u32.to_le_bytes());
        r.extend(7u32.to_le_bytes());
        r.extend(100u32.to_le_bytes());
        r.extend((179u32 << 20).to_le_bytes());
        r.extend(cpu.to_le_bytes());
        r.extend([0, 0, 0, 0]);
        r
    }

    /// Issue 48 item 7: a binary blktrace opened on the page alone is one CPU's file; the
    /// summary says so and how to add the others (it said nothing, then that only the CLI
    /// reads them).
    #[test]
    fn a_lone_blktrace_file_says_how_to_add_the_other_cpus() {
        let r = blk_issue(1000, 0, 0);
        let (_, summary) = replay_scenario(&Scenario::default(), "mmcblk0.blktrace.0", &r).unwrap();
        assert!(
            summary.ends_with("binary blktrace: only mmcblk0.blktrace.0 was read, one CPU's records: a run's other CPUs' files (mmcblk0.blktrace.1, ...) are read when opened (or dropped) together with it"),
            "{summary}"
        );
        let (_, summary) = replay_scenario(&Scenario::default(), "t", TRACE.as_bytes()).unwrap();
        assert!(!summary.contains("blktrace:"), "{summary}");
    }

    /// Issue 47 part 4: the panel names every format it reads, its picker offers them all
    /// (Perfetto's and binary blktrace's names too), and a kernel trace's summary carries the
    /// trace's own issue-to-complete and where its kernel differs from the board's.
    #[test]
    fn the_panel_names_and_offers_every_format() {
        let help = formats_help();
        for f in FORMATS {
            assert!(help.contains(f.name()), "{help}");
        }
        for ext in [
            ".perfetto-trace",
            ".pftrace",
            ".pb",
            ".blktrace.0",
            ".blktrace.1",
            ".iolog",
            ".blkparse",
        ] {
            assert!(ACCEPT.split(',').any(|a| a == ext), "{ext}");
        }
        let file = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/oracle/fixtures/linux-6.12/traces/sd-x_trace_randwrite4k-mq-deadline.txt"
        );
        let base = crate::run::test_support::scenario(&[("kernel", "6.1")]);
        let (_, summary) = replay_scenario(&base, "r.txt", &std::fs::read(file).unwrap()).unwrap();
        assert!(
            summary.contains("; its own issue-to-complete: p50 "),
            "{summary}"
        );
        assert!(summary.contains("over 64 requests; 'r.txt' was recorded on Linux 6.12.117+deb13-amd64; the board runs Linux 6.1"), "{summary}");
    }

    /// Issue 48 item 7: the per-CPU files of a blktrace run opened together are read together,
    /// merged by time, as the CLI reads them; several files of anything else are refused.
    #[test]
    fn the_cpu_files_of_a_blktrace_run_opened_together_are_read_together() {
        let files = vec![
            ("d.blktrace.1".to_string(), blk_issue(2000, 64, 1)),
            ("d.blktrace.0".to_string(), blk_issue(1000, 0, 0)),
        ];
        let (s, summary) = replay_files(&Scenario::default(), &files).unwrap();
        assert!(summary.contains(": 2 reads, 0 writes"), "{summary}");
        assert!(
            summary.ends_with("binary blktrace: 2 CPU files read (0, 1)"),
            "{summary}"
        );
        assert_eq!(s.jobs[0].read_iolog.as_deref(), Some("d.blktrace.0"));
        let r = mmcsim_engine::run(&s).unwrap();
        assert_eq!(r.jobs[0].read.io_bytes, 8192);
        let e = replay_files(
            &Scenario::default(),
            &[
                ("d.blktrace.0".to_string(), blk_issue(1000, 0, 0)),
                ("t.txt".to_string(), TRACE.as_bytes().to_vec()),
            ],
        )
        .unwrap_err();
        assert!(e.starts_with("t.txt: 2 files opened together; accepted: one trace, or the per-CPU files of one binary blktrace run together"), "{e}");
        let e = replay_files(
            &Scenario::default(),
            &[
                ("d.blktrace.0".to_string(), blk_issue(1000, 0, 0)),
                ("e.blktrace.1".to_string(), blk_issue(1000, 0, 1)),
            ],
        )
        .unwrap_err();
        assert!(
            e.starts_with(
                "e.blktrace.1: the per-CPU files of one blktrace run share a name (d.blktrace.N)"
            ),
            "{e}"
        );
    }

    /// A Perfetto trace dropped on the page (binary) replays as its text twin does.
    #[test]
    fn a_perfetto_file_replays_too() {
        let scn = mmcsim_engine::scenario::options::parse_args(
            &["--name=t".to_string(), "--size=64k".to_string()],
            Scenario::default(),
        )
        .unwrap();
        let mut bytes = Vec::new();
        mmcsim_engine::export::write_perfetto(&scn, 100_000, &mut bytes).unwrap();
        let (s, summary) =
            replay_scenario(&Scenario::default(), "run.perfetto-trace", &bytes).unwrap();
        assert!(
            summary.contains("(Perfetto trace, issue events): 16 reads, 0 writes"),
            "{summary}"
        );
        assert!(mmcsim_engine::run(&s).is_ok());
    }
}
