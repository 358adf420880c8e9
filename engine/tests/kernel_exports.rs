//! The exports say who dispatched, as each kernel does (issue 46): the ftrace text names the
//! task that issued each request (`kworker/0:1H` for kblockd under Linux 6.1's mq-deadline,
//! fio's own thread under 6.12's), 6.11+ block_rq_* text carries the I/O priority
//! (`... 488 + 8 be,0,4 [fio]`, aa6ff4eb7c10), and a 6.12 trace replays as a 6.1 one does.

use mmcsim_engine::scenario::iolog::{self, IoLogFormat};
use mmcsim_engine::scenario::{options::parse_args, Scenario};

fn scenario(kernel: &str, extra: &[&str]) -> Scenario {
    let mut a: Vec<String> = [
        "--platform=qemu-sdhci-pci",
        "--ioscheduler=mq-deadline",
        "--name=fio",
        "--ioengine=psync",
        "--rw=randwrite",
        "--bs=4k",
        "--size=64k",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.push(format!("--kernel={kernel}"));
    a.extend(extra.iter().map(|s| s.to_string()));
    parse_args(&a, Scenario::default()).unwrap()
}

fn ftrace(scn: &Scenario) -> String {
    let mut text = String::new();
    mmcsim_engine::export::write_ftrace(scn, 100_000, &mut text).unwrap();
    text
}

fn lines<'a>(text: &'a str, event: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.contains(event)).collect()
}

#[test]
fn block_rq_issue_names_kblockd_under_6_1_and_fio_under_6_12() {
    let old = ftrace(&scenario("6.1", &[]));
    let new = ftrace(&scenario("6.12", &[]));
    let (o, n) = (
        lines(&old, "block_rq_issue:"),
        lines(&new, "block_rq_issue:"),
    );
    assert_eq!(o.len(), 16);
    assert_eq!(n.len(), 16);
    for l in &o {
        assert!(l.trim_start().starts_with("kworker/0:1H-38 "), "{l}");
        assert!(l.ends_with("[kworker/0:1H]"), "{l}");
        assert!(!l.contains("be,0,4"), "6.1 prints no priority: {l}");
    }
    for l in &n {
        assert!(l.trim_start().starts_with("fio-1000 "), "{l}");
        assert!(l.ends_with(" be,0,4 [fio]"), "{l}");
    }
    // The insert is the submitting task's in both.
    assert!(lines(&old, "block_rq_insert:")[0].ends_with("[fio]"));
    assert!(lines(&new, "block_rq_complete:")[0].ends_with(" be,0,4 [0]"));
}

#[test]
fn a_6_12_trace_replays_with_the_same_requests_as_the_run() {
    let scn = scenario("6.12", &[]);
    let text = ftrace(&scn);
    let log = iolog::parse("run.trace", &text).unwrap();
    assert_eq!((log.format, log.dev), (IoLogFormat::Ftrace, Some((179, 0))));
    let mut replay = parse_args(
        &[
            "--platform=qemu-sdhci-pci".to_string(),
            "--kernel=6.12".to_string(),
            "--name=replay".to_string(),
            "--read_iolog=run.trace".to_string(),
        ],
        Scenario::default(),
    )
    .unwrap();
    replay.attach_iolog(log);
    let a = mmcsim_engine::run(&scn).unwrap().sim;
    let b = mmcsim_engine::run(&replay).unwrap().sim;
    assert_eq!((b.ios, b.request_sizes), (a.ios, a.request_sizes));
}

#[test]
fn the_perfetto_trace_names_the_kworker_as_the_issuing_task() {
    let mut bytes = Vec::new();
    mmcsim_engine::export::write_perfetto(&scenario("6.1", &[]), 100_000, &mut bytes).unwrap();
    let has = |s: &str| bytes.windows(s.len()).any(|w| w == s.as_bytes());
    assert!(has("kworker/0:1H"));
    let mut bytes = Vec::new();
    mmcsim_engine::export::write_perfetto(&scenario("6.12", &[]), 100_000, &mut bytes).unwrap();
    assert!(!bytes.windows(12).any(|w| w == b"kworker/0:1H"));
}
