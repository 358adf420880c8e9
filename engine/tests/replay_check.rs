//! Issue 47 part 4 in the Perfetto reader and the exports: a Perfetto trace's `block_plug` /
//! `block_unplug` (with the event's pid), `block_rq_complete` and `SystemInfo` release are read
//! as ftrace text's are, and a run exported (ftrace text or Perfetto) carries its completions:
//! replaying the export sets the run's own issue-to-complete beside the replay's.

use mmcsim_engine::replay_check::ReplayCheck;
use mmcsim_engine::scenario::iolog::{self, LogPlug};
use mmcsim_engine::scenario::{options::parse_args, Scenario};

fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Field `num` of `body`, length-delimited.
fn ld(num: u64, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    varint(num << 3 | 2, &mut out);
    varint(body.len() as u64, &mut out);
    out.extend(body);
    out
}

/// One FtraceEvent at `t` of pid `pid`: field `num` with `body`.
fn event(t: u64, pid: u64, num: u64, body: &[u8]) -> Vec<u8> {
    let mut e = vec![0x08];
    varint(t, &mut e);
    e.push(0x10);
    varint(pid, &mut e);
    e.extend(ld(num, body));
    ld(2, &e)
}

/// A block event's body on 179,0: dev, sector, nr_sector, then RWBS as field `rwbs`.
fn block(sector: u64, nsect: u64, rwbs_field: u64) -> Vec<u8> {
    let mut b = vec![0x08];
    varint(179 << 20, &mut b);
    b.push(0x10);
    varint(sector, &mut b);
    b.push(0x18);
    varint(nsect, &mut b);
    b.extend(ld(rwbs_field, b"WS"));
    b
}

#[test]
fn a_perfetto_trace_s_plugs_completions_and_kernel_are_read() {
    let mut bundle = Vec::new();
    bundle.extend(event(1000, 7, 119, &block(0, 8, 4)));
    bundle.extend(event(1001, 7, 123, &ld(1, b"fio")));
    bundle.extend(event(1002, 7, 119, &block(8, 8, 4)));
    bundle.extend(event(1003, 7, 133, &[0x08, 1]));
    bundle.extend(event(1010, 7, 119, &block(64, 8, 4)));
    bundle.extend(event(2000, 38, 45, &block(0, 16, 5)));
    bundle.extend(event(9000, 0, 125, &block(0, 16, 5)));
    let info = ld(45, &ld(1, &ld(3, b"6.12.23-android16")));
    let trace = [ld(1, &info), ld(1, &ld(1, &bundle))].concat();
    let log = iolog::parse_bytes("t.pftrace", &trace).unwrap();
    let plugs: Vec<LogPlug> = log.queued.iter().map(|o| o.plug).collect();
    assert_eq!(plugs, [LogPlug::Open, LogPlug::Last, LogPlug::None]);
    let d = log.meta.d2c.unwrap();
    assert_eq!((d.requests, d.mean_ns), (1, 7000));
    assert_eq!(log.meta.kernel.as_deref(), Some("6.12.23-android16"));
}

/// A run exported and replayed on the same board: the export's own issue-to-complete (its
/// block_rq_issue .. block_rq_complete) is the run's, and the replay's model figure is beside it.
#[test]
fn an_exported_run_carries_its_own_issue_to_complete() {
    let a: Vec<String> = ["--name=w", "--rw=randwrite", "--bs=4k", "--size=256k"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let scn = parse_args(&a, Scenario::default()).unwrap();
    let run = mmcsim_engine::run(&scn).unwrap();
    let mut text = String::new();
    mmcsim_engine::export::write_ftrace(&scn, 1_000_000, &mut text).unwrap();
    let mut bytes = Vec::new();
    mmcsim_engine::export::write_perfetto(&scn, 1_000_000, &mut bytes).unwrap();
    for log in [
        iolog::parse("run.trace", &text).unwrap(),
        iolog::parse_bytes("run.trace", &bytes).unwrap(),
    ] {
        let d = log.meta.d2c.expect("completions");
        assert_eq!(d.requests, run.sim.ios[1], "{:?}", log.format);
        let b = ["--name=r", "--read_iolog=run.trace"].map(String::from);
        let mut replay = parse_args(&b, Scenario::default()).unwrap();
        replay.attach_iolog(log.clone());
        let rep = mmcsim_engine::run(&replay).unwrap();
        let c = ReplayCheck::of(&replay, &rep).unwrap();
        assert_eq!(c.trace_d2c, Some(d));
        assert_eq!(c.model_d2c.requests, d.requests);
        // The same board replaying its own run: the same per-request time, within a bucket.
        let near = |a: u64, b: u64| a.abs_diff(b) * 100 <= b * 5;
        assert!(near(c.model_d2c.p50_ns, d.p50_ns), "{c:?}");
    }
}
