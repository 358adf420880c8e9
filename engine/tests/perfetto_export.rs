//! The Perfetto export read with Perfetto's own schema: every exported trace is decoded by
//! `protoc --decode=perfetto.protos.Trace` with the descriptor of `perfetto_trace.proto` as the
//! PyPI `perfetto` package ships it compiled (`scripts/setup.sh` installs Debian's
//! protobuf-compiler and that package), and the decoded text is checked as a user of Perfetto's
//! I/O views would: the block events of every request on the mmcblk device (dev_t 179:0), in
//! time order per CPU, issue after insert and complete after issue, one `block_io_start` /
//! `block_io_done` and one mmc request per request; the simulator's tracks described and their
//! slices balanced.

use mmcsim_engine::scenario::{options::parse_args, Scenario};
use std::collections::{BTreeMap, HashMap};
use std::process::{Command, Stdio};

/// One message of protoc's text output: its fields and its sub-messages, in order.
#[derive(Debug, Default)]
struct Node {
    name: String,
    fields: Vec<(String, String)>,
    kids: Vec<Node>,
}

impl Node {
    fn get(&self, k: &str) -> Option<&str> {
        self.fields.iter().find(|f| f.0 == k).map(|f| f.1.as_str())
    }
    fn num(&self, k: &str) -> u64 {
        self.get(k).and_then(|v| v.parse().ok()).unwrap_or(0)
    }
    fn kid(&self, k: &str) -> Option<&Node> {
        self.kids.iter().find(|n| n.name == k)
    }
}

fn parse_text(text: &str) -> Node {
    let mut stack = vec![Node::default()];
    for l in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(name) = l.strip_suffix(" {") {
            stack.push(Node {
                name: name.to_string(),
                ..Node::default()
            });
        } else if l == "}" {
            let n = stack.pop().unwrap();
            stack.last_mut().unwrap().kids.push(n);
        } else {
            let (k, v) = l
                .split_once(": ")
                .unwrap_or_else(|| panic!("protoc line '{l}'"));
            let v = v.trim_matches('"').to_string();
            stack.last_mut().unwrap().fields.push((k.to_string(), v));
        }
    }
    assert_eq!(stack.len(), 1, "protoc's text is balanced");
    stack.pop().unwrap()
}

const INSTALL: &str = "install them with scripts/setup.sh (Debian protobuf-compiler for protoc, PyPI perfetto for its compiled protos: pip install perfetto)";

/// Perfetto's schema as a descriptor set, from the PyPI package's compiled perfetto_trace.proto,
/// written once per test process (tests run in parallel: one writing it while another's protoc
/// read it found it half written).
fn descriptor() -> std::path::PathBuf {
    static DESC: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DESC.get_or_init(write_descriptor).clone()
}

fn write_descriptor() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let out = dir.join(format!("perfetto_trace.{}.desc", std::process::id()));
    let script = "import sys\nfrom perfetto.protos.perfetto.trace import perfetto_trace_pb2 as p\nfrom google.protobuf import descriptor_pb2 as d\ns = d.FileDescriptorSet()\ns.file.append(d.FileDescriptorProto.FromString(p.DESCRIPTOR.serialized_pb))\nopen(sys.argv[1], 'wb').write(s.SerializeToString())\n";
    let st = Command::new("python3")
        .args(["-c", script])
        .arg(&out)
        .status()
        .unwrap_or_else(|e| panic!("python3: {e}; {INSTALL}"));
    assert!(
        st.success(),
        "python3 could not import Perfetto's protos; {INSTALL}"
    );
    out
}

/// `protoc --decode=perfetto.protos.Trace` of `bytes`.
fn decode(bytes: &[u8]) -> Node {
    use std::io::Write;
    let desc = descriptor();
    let mut child = Command::new("protoc")
        .arg("--decode=perfetto.protos.Trace")
        .arg(format!("--descriptor_set_in={}", desc.display()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("protoc: {e}; {INSTALL}"));
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "protoc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    parse_text(&String::from_utf8(out.stdout).unwrap())
}

fn export(args: &[&str]) -> (Node, mmcsim_engine::Report) {
    let (trace, r, _) = export_cut(args);
    (trace, r)
}

/// The trace, the report, and how many requests a power cut found still in their system call
/// (fio's pwrite or io_submit before the bio reached blk-mq): they fail for their job and count
/// in `failed_in_flight`, but no block tracepoint ever named them.
fn export_cut(args: &[&str]) -> (Node, mmcsim_engine::Report, u64) {
    let a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let scn = parse_args(&a, Scenario::default()).unwrap();
    let mut bytes = Vec::new();
    let stats = mmcsim_engine::export::write_perfetto(&scn, 1_000_000, &mut bytes).unwrap();
    assert!(!stats.truncated);
    let mut sim = mmcsim_engine::Simulator::new(&scn).unwrap();
    sim.run_to_end();
    let in_syscall = sim
        .snapshot()
        .requests
        .iter()
        .filter(|r| r.stage == mmcsim_engine::Stage::Submit)
        .count() as u64;
    (decode(&bytes), sim.report(), in_syscall)
}

const BLOCK: &[&str] = &[
    "block_bio_queue",
    "block_bio_backmerge",
    "block_rq_insert",
    "block_rq_issue",
    "block_rq_requeue",
    "block_rq_complete",
    "block_io_start",
    "block_io_done",
];

/// (cpu, timestamp, event name, its message) of every ftrace event, in file order.
fn ftrace(trace: &Node) -> Vec<(u64, u64, String, &Node)> {
    let mut v = Vec::new();
    for p in trace.kids.iter().filter(|p| p.name == "packet") {
        let Some(b) = p.kid("ftrace_events") else {
            continue;
        };
        for e in b.kids.iter().filter(|e| e.name == "event") {
            let body = e.kids.first().expect("one event in each");
            let name = match body.name.as_str() {
                "generic" => body.get("event_name").unwrap().to_string(),
                n => n.to_string(),
            };
            v.push((b.num("cpu"), e.num("timestamp"), name, body));
        }
    }
    v
}

fn check(args: &[&str]) -> BTreeMap<String, u64> {
    let (trace, r, in_syscall) = export_cut(args);
    let events = ftrace(&trace);
    let mut count = BTreeMap::<String, u64>::new();
    let mut last = HashMap::<u64, u64>::new();
    // Per extent (sector, length, RWBS): inserts, issues and completions (with their errno)
    // in order.
    let mut seen = HashMap::<(u64, u64, String), Vec<(String, u64, i64)>>::new();
    let cut = r.power_cut.as_ref().map(|p| p.at_ns);
    for (cpu, t, name, body) in &events {
        *count.entry(name.clone()).or_default() += 1;
        if let Some(rwbs @ ("FWS" | "FF")) = body.get("rwbs") {
            *count.entry(format!("{name} {rwbs}")).or_default() += 1;
        }
        let prev = last.insert(*cpu, *t).unwrap_or(0);
        assert!(
            *t >= prev,
            "{args:?}: cpu {cpu}: {name} at {t} after {prev}"
        );
        // Nothing happens after the power is gone.
        assert!(
            cut.is_none_or(|c| *t <= c),
            "{args:?}: {name} at {t}, after the cut"
        );
        if BLOCK.contains(&name.as_str()) {
            assert_eq!(body.num("dev"), (179 << 20), "{name}: the mmcblk dev_t");
            let key = (
                body.num("sector"),
                body.num("nr_sector"),
                body.get("rwbs").unwrap().to_string(),
            );
            let err = body.get("error").map_or(0, |e| e.parse().unwrap());
            if err != 0 {
                *count.entry(format!("{name} {err}")).or_default() += 1;
            }
            seen.entry(key).or_default().push((name.clone(), *t, err));
        }
    }
    for (key, evs) in &mut seen {
        // Requests of one extent may follow each other: in time order, never more issued than
        // inserted nor completed than inserted, and every request inserted completes. A
        // completion without an issue is a request the power cut found waiting in blk-mq: it
        // fails at the cut with -EIO (`mmc_mq_queue_rq` refuses it once the card is gone).
        evs.sort_by_key(|e| e.1);
        let (mut ins, mut iss, mut done) = (0, 0, 0);
        for &(ref name, t, err) in evs.iter() {
            match name.as_str() {
                "block_rq_insert" => ins += 1,
                "block_rq_issue" => iss += 1,
                "block_rq_complete" => done += 1,
                _ => {}
            }
            assert!(iss <= ins && done <= ins, "{args:?}: {key:?}: {evs:?}");
            if name == "block_rq_complete" && done > iss {
                assert!(
                    cut == Some(t) && err == -5,
                    "{args:?}: {key:?}: completed unissued, not by the cut: {evs:?}"
                );
            }
        }
        assert_eq!(ins, done, "{args:?}: {key:?}: every request ends: {evs:?}");
    }
    let requests = r
        .sim
        .request_sizes
        .iter()
        .flat_map(|m| m.values())
        .sum::<u64>()
        + r.sim.flushes
        + r.sim.discards;
    let n = |k: &str| count.get(k).copied().unwrap_or(0);
    let fsyncs = r.jobs.iter().map(|j| j.flushes).sum::<u64>();
    if let Some(p) = &r.power_cut {
        // The requests the report counts done completed with 0; every one open at the cut
        // that had reached blk-mq failed there with -EIO, its mmc request (if started) ended;
        // none is left hanging. Those still in their system call have no tracepoint.
        let failed = n("block_rq_complete -5");
        assert_eq!(
            n("block_rq_complete") - failed,
            requests,
            "{args:?}: {count:?}"
        );
        assert_eq!(
            failed + in_syscall,
            p.failed_in_flight,
            "{args:?}: {in_syscall} in their system call: {count:?}"
        );
        assert!(n("block_rq_issue") <= n("block_rq_complete"), "{count:?}");
        for k in ["block_rq_complete", "block_io_start", "block_io_done"] {
            assert_eq!(n(k), n("block_rq_insert"), "{args:?}: {k}: {count:?}");
        }
        assert_eq!(n("mmc_request_start"), n("mmc_request_done"), "{count:?}");
        // Each bio queued was inserted as a request, merged into one, or waited for a flush.
        assert_eq!(
            n("block_bio_queue") - n("block_bio_queue FWS"),
            n("block_rq_insert") - n("block_rq_insert FF") + n("block_bio_backmerge"),
            "{args:?}: {count:?}"
        );
        assert!(n("block_bio_queue FWS") <= fsyncs, "{args:?}: {count:?}");
    } else {
        assert_eq!(
            n("block_rq_issue"),
            requests,
            "{args:?}: every request issued once: {count:?}"
        );
        for k in [
            "block_rq_insert",
            "block_rq_complete",
            "block_io_start",
            "block_io_done",
            "mmc_request_start",
            "mmc_request_done",
        ] {
            assert_eq!(n(k), requests, "{args:?}: {k}");
        }
        // A bio for every request and every bio merged into one; fsync's empty preflush bios wait
        // for a flush request they may share (the flush machine).
        assert_eq!(n("block_bio_queue FWS"), fsyncs, "{args:?}");
        assert_eq!(
            n("block_bio_queue") - fsyncs,
            requests - r.sim.flushes + n("block_bio_backmerge"),
            "{args:?}"
        );
    }
    // The simulator's tracks: described under their parents, slices balanced and in order.
    let mut names = Vec::new();
    let mut depth = HashMap::<u64, (i64, u64)>::new();
    for p in trace.kids.iter().filter(|p| p.name == "packet") {
        if let Some(d) = p.kid("track_descriptor") {
            names.push(d.get("name").unwrap().to_string());
        }
        if let Some(e) = p.kid("track_event") {
            let t = p.num("timestamp");
            let d = depth.entry(e.num("track_uuid")).or_default();
            assert!(
                t >= d.1 || e.get("type") == Some("TYPE_SLICE_BEGIN"),
                "{args:?}: slice ends before it began"
            );
            d.0 += if e.get("type") == Some("TYPE_SLICE_BEGIN") {
                1
            } else {
                -1
            };
            d.1 = t;
            assert!(d.0 >= 0, "{args:?}: an end without a begin");
        }
    }
    assert!(
        depth.values().all(|d| d.0 == 0),
        "{args:?}: every slice ends"
    );
    for track in [
        "fio jobs",
        "blk-mq tags / hsq slots",
        "mmc host",
        "bus",
        "card",
        "t.0",
    ] {
        assert!(
            names.iter().any(|n| n == track),
            "{args:?}: track '{track}' in {names:?}"
        );
    }
    count
}

#[test]
fn the_perfetto_export_decodes_with_perfettos_schema() {
    // The kernel oracle's board: batched writes merged in the plug (bios back-merged).
    let merged = check(&[
        "--platform=qemu-sdhci-pci",
        "--blk_dispatch=kernel",
        "--ioscheduler=mq-deadline",
        "--name=t",
        "--rw=write",
        "--bs=4k",
        "--size=256k",
        "--ioengine=libaio",
        "--iodepth=8",
        "--iodepth_batch_submit=8",
        "--iodepth_batch_complete_min=8",
    ]);
    assert_eq!(merged["block_rq_issue"], 8, "{merged:?}");
    assert_eq!(merged["block_bio_backmerge"], 56, "{merged:?}");
    // An eMMC board with its host software queue: reads and writes, flushes, discards.
    let mixed = check(&[
        "--name=t",
        "--rw=randrw",
        "--bs=4k",
        "--size=512k",
        "--numjobs=2",
        "--fsync=8",
        "--iodepth=4",
        "--ioengine=libaio",
    ]);
    assert!(mixed["block_rq_issue"] > 256, "{mixed:?}");
    let trim = check(&["--name=t", "--rw=trim", "--bs=64k", "--size=256k"]);
    assert_eq!(trim["block_rq_issue"], 4, "{trim:?}");
}

/// Errors as the kernel reports them: with CRC errors on half the transfers, every failed
/// transfer's `mmc_request_done` carries `data_err: -84` (`-EILSEQ`) and every write whose
/// retries ran out completes with `error: -5` (`-EIO`) in `block_rq_complete`, the others with 0.
#[test]
fn failed_transfers_and_writes_carry_their_errno() {
    let (trace, r) = export(&[
        "--name=t",
        "--rw=write",
        "--bs=4k",
        "--size=1m",
        "--inject_error=crc:0.5",
    ]);
    let mut errors = BTreeMap::<(String, String), u64>::new();
    for (_, _, name, body) in ftrace(&trace) {
        let err = match name.as_str() {
            "block_rq_complete" => body.get("error").unwrap_or("0").to_string(),
            "mmc_request_done" => body
                .kids
                .iter()
                .find(|f| f.get("name") == Some("data_err"))
                .and_then(|f| f.get("int_value"))
                .unwrap_or("0")
                .to_string(),
            _ => continue,
        };
        *errors.entry((name, err)).or_default() += 1;
    }
    let n = |a: &str, b: &str| errors.get(&(a.into(), b.into())).copied().unwrap_or(0);
    assert_eq!(n("block_rq_complete", "-5"), r.jobs[0].errors, "{errors:?}");
    assert_eq!(n("block_rq_complete", "0"), r.jobs[0].write.total_ios);
    assert_eq!(n("mmc_request_done", "-84"), r.sim.crc_errors, "{errors:?}");
    assert_eq!((r.jobs[0].errors, r.sim.crc_errors), (6, 276));
}

/// A power cut ends requests where they are: the trace a user loads still satisfies what a
/// kernel's would. Requests issued, or still waiting in blk-mq (completed without an issue),
/// complete at the cut with -EIO, as many as the report's failed in flight; every other
/// completion is a request the report counts done; nothing is written after the cut, and in
/// each CPU's bundle the events stay in time order (the inserts of the requests never
/// issued, dated when they reached blk-mq, were written after the cut's completions before).
#[test]
fn a_power_cut_trace_ends_every_request_it_cut() {
    // Random 4 KiB writes 16 deep: requests on the bus, in hsq's slots and waiting in blk-mq.
    let cut = check(&[
        "--name=t",
        "--rw=randwrite",
        "--bs=4k",
        "--size=4m",
        "--iodepth=16",
        "--ioengine=libaio",
        "--power_cut=20ms",
    ]);
    assert!(cut["block_rq_issue"] < cut["block_rq_insert"], "{cut:?}");
    assert!(cut["block_rq_complete -5"] > 0, "{cut:?}");
    // Split 1 MiB writes with fsyncs: the cut falls inside a split I/O, with flushes about.
    let split = check(&[
        "--name=t",
        "--rw=write",
        "--bs=1m",
        "--size=8m",
        "--fsync=2",
        "--iodepth=4",
        "--ioengine=libaio",
        "--power_cut=15ms",
    ]);
    assert!(split["block_rq_complete -5"] > 0, "{split:?}");
}
