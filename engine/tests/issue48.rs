//! Regression tests for issue 48 ("Bounds and truth for the new surfaces: queue-event replays,
//! trace offsets, parsing cost, bfq at scale"), engine side: each reproduction of the issue is
//! refused with a one-line message naming the option, the value and what is accepted, or
//! answered right. The CLI's (outputs to `-`, FIFOs) are in `cli/tests/`.

use mmcsim_engine::scenario::iolog;
use mmcsim_engine::scenario::options::{parse_args, ScenarioBuilder};
use mmcsim_engine::scenario::Scenario;

/// The scenario of `line` replaying the trace `text` (named `t.txt`), as the CLI builds it
/// (the trace attached before the checks), or its refusal.
fn replaying_or(text: &str, line: &str) -> Result<Scenario, String> {
    let log = iolog::parse("t.txt", text).unwrap_or_else(|e| panic!("{e}"));
    let mut a: Vec<&str> = vec!["--name=r", "--read_iolog=t.txt"];
    a.extend(line.split_whitespace());
    let mut b = ScenarioBuilder::new(Scenario::default());
    b.args(&a).map_err(|e| e.to_string())?;
    b.attach_iolog(log);
    b.finish().map_err(|e| e.to_string())
}

fn replaying(text: &str, line: &str) -> Scenario {
    replaying_or(text, line).unwrap_or_else(|e| panic!("{e}"))
}

/// The refusal of `line` replaying `text`, as the user reads it.
fn replay_refusal(text: &str, line: &str) -> String {
    match replaying_or(text, line) {
        Ok(_) => panic!("accepted: {line}"),
        Err(e) => e,
    }
}

/// Item 1: the requests a replay has in memory at once are those of the events it replays.
/// One queued 256 MiB bio (with one small issue event beside it) replayed from its queue events
/// on a 512-byte host is 524,288 requests per clone, 9,961,472 for 19 clones: refused as the
/// same trace's issue events would be (it reached 1.72 GB before).
#[test]
fn item1_queue_events_count_against_the_outstanding_bound() {
    let text = "179,0 0 1 0.000000000 100 Q R 0 + 524288 [fio]\n\
                179,0 0 2 0.000001000 100 D R 0 + 8 [fio]\n";
    let e = replay_refusal(text, "--replay_events=queue --max_req_kib=0.5 --numjobs=19");
    assert!(e.contains("9961472 requests outstanding"), "{e}");
    assert!(e.contains("at most 16384"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    // The issue events of the same trace (one 4 KiB read per clone) are accepted.
    replaying(text, "--replay_events=issue --max_req_kib=0.5 --numjobs=19");
    // 32 queued 256 MiB bios, 256 clones of 32 deep: refused by the same bound.
    let mut many = String::new();
    for i in 0..32u64 {
        many.push_str(&format!(
            "179,0 0 {} 0.{:09} 100 Q W {} + 524288 [fio]\n",
            i + 1,
            i,
            i * 524288
        ));
    }
    many.push_str("179,0 0 99 0.100000000 100 D W 0 + 8 [fio]\n");
    let e = replay_refusal(
        &many,
        "--replay_events=queue --numjobs=256 --ioengine=libaio --iodepth=32",
    );
    assert!(e.contains("requests outstanding"), "{e}");
}

/// Item 8 (part): a 256 MiB discard in a trace is one request (a discard is not split by
/// max_sectors), not 524,288 split requests.
#[test]
fn item8_a_traced_discard_is_one_request() {
    let text = "179,0 0 1 0.000000000 100 D D 0 + 524288 [fio]\n";
    replaying(text, "--max_req_kib=0.5 --numjobs=19");
    let r = mmcsim_engine::run(&replaying(text, "--max_req_kib=0.5")).unwrap();
    assert_eq!((r.sim.split_ios, r.sim.split_requests), (0, 0));
}

/// Item 8: a discard is split at the queue's max_discard_sectors (`bio_split_discard`), set
/// from the card by `mmc_queue_setup_discard` (sysfs discard_max_bytes), not at max_sectors:
/// with `max_discard_sectors=8192` (an eMMC's 4 MiB preferred erase size) the 256 MiB trim is 64
/// requests, and a refusal counts them so.
#[test]
fn item8_a_discard_splits_at_max_discard() {
    let text = "179,0 0 1 0.000000000 100 D D 0 + 524288 [fio]\n";
    let s = replaying(text, "--max_discard_sectors=8192 --max_req_kib=0.5");
    let r = mmcsim_engine::run(&s).unwrap();
    assert_eq!((r.sim.split_ios, r.sim.split_requests), (1, 64));
    assert_eq!(r.jobs[0].trim.total_ios, 1, "one I/O, as fio counts it");
    let e = replay_refusal(
        text,
        "--max_discard_sectors=1 --numjobs=19 --ioengine=libaio --iodepth=2",
    );
    assert!(e.contains("19922944 requests outstanding"), "{e}");
    // A generated trim job splits the same way.
    let a = [
        "--name=t",
        "--rw=trim",
        "--bs=8m",
        "--size=16m",
        "--max_discard_sectors=8192",
    ];
    let r = mmcsim_engine::run(&parse_args(&a, Scenario::default()).unwrap()).unwrap();
    assert_eq!((r.sim.split_ios, r.sim.split_requests), (2, 4));
}

/// The refusal of the trace `text`, as the user reads it.
fn parse_refusal(text: &str) -> String {
    match iolog::parse("t.txt", text) {
        Ok(l) => panic!("accepted: {}", l.summary(iolog::ReplayEvents::Issue)),
        Err(e) => e.to_string(),
    }
}

/// Item 2: a traced I/O past the modelled device's 2 TiB end is refused, in sectors as the
/// kernel's trace writes them and in bytes as fio's iolog does; a sector near 2^64 / 512 no
/// longer wraps into one 4 KiB read at sector 0 with a clat of 15609 Ps.
#[test]
fn item2_trace_offsets_past_the_device_end_are_refused() {
    let e = parse_refusal("179,0 0 1 0.000000000 100 D R 36028797018963967 + 8 [fio]\n");
    assert!(
        e.contains("line 1: sector 36028797018963967 + 8 ends past the device's end"),
        "{e}"
    );
    assert!(e.contains("within the modelled device's 2 TiB"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    // The last 4 KiB of the device is accepted, the next one is not.
    let last = (2u64 << 40) / 512 - 8;
    iolog::parse(
        "t.txt",
        &format!("179,0 0 1 0.0 100 D R {last} + 8 [fio]\n"),
    )
    .unwrap();
    let e = parse_refusal(&format!("179,0 0 1 0.0 100 D R {} + 8 [fio]\n", last + 1));
    assert!(e.contains("ends past the device's end"), "{e}");
    // fio's iolog, in bytes: 2^63 and 2 TiB are refused.
    for off in [1u64 << 63, 2 << 40] {
        let e = parse_refusal(&format!(
            "fio version 2 iolog\n/dev/x add\n/dev/x read {off} 4096\n"
        ));
        assert!(
            e.contains(&format!(
                "line 3: offset {off} / length 4096 ends past the device's end"
            )),
            "{e}"
        );
    }
}

/// Item 3: a requeue takes back the latest issue of the same request read before it, once each
/// (as the quadratic search did), and a trace of 300,000 issues then 300,000 requeues of
/// other requests parses in one pass (it took 101 s of CPU at 16 MiB; this test's size took
/// minutes before).
#[test]
fn item3_requeues_take_back_the_latest_issue_in_linear_time() {
    let ev = |seq: u32, t: &str, act: &str, sector: u64, n: u64| {
        format!("179,0 0 {seq} {t} 100 {act} W {sector} + {n} [fio]\n")
    };
    // A issued twice, requeued, issued again, requeued twice; B issued once, requeued after
    // a requeue of a request never issued (C).
    let text = [
        ev(1, "0.000000001", "D", 8, 8),
        ev(2, "0.000000002", "D", 16, 8),
        ev(3, "0.000000003", "D", 8, 8),
        ev(4, "0.000000004", "R", 8, 8),
        ev(5, "0.000000005", "D", 8, 8),
        ev(6, "0.000000006", "R", 8, 8),
        ev(7, "0.000000007", "R", 8, 8),
        ev(8, "0.000000008", "R", 64, 8),
        ev(9, "0.000000009", "R", 16, 8),
        ev(10, "0.000000010", "D", 8, 8),
        ev(11, "0.000000011", "D", 16, 8),
    ]
    .concat();
    let log = iolog::parse("t.txt", &text).unwrap();
    let kept: Vec<(u64, u64)> = log.ops.iter().map(|o| (o.t_ns, o.offset)).collect();
    // Issues 1, 3 and 5 of A are taken back by requeues 4, 6 and 7; 2 of B by 9.
    assert_eq!(kept, vec![(0, 8 * 512), (1, 16 * 512)]);
    let n = 300_000u64;
    let mut big = String::with_capacity(60 * 2 * n as usize);
    for i in 0..n {
        big.push_str(&format!("8,0 0 0 0 0 D W {} + 8\n", (i % 1000) * 8));
    }
    for i in 0..n {
        big.push_str(&format!("8,0 0 0 1 0 R W {} + 16\n", (i % 1000) * 8));
    }
    let log = iolog::parse("t.txt", &big).unwrap();
    assert_eq!(log.ops.len() as u64, n);
}

/// The refusal of the command line `line`.
fn args_refusal(line: &str) -> String {
    let a: Vec<&str> = line.split_whitespace().collect();
    match parse_args(&a, Scenario::default()) {
        Ok(_) => panic!("accepted: {line}"),
        Err(e) => e.to_string(),
    }
}

/// Item 6: what holds the jobs back whatever the device does (a trace's timestamps over
/// `loops`, `thinktime`, `rate`) is bounded by the day of simulated time, so the clock never
/// saturates (it printed `simulated=18446659208.008s` and IOPS=0); `runtime=` still ends such a
/// job within the day.
#[test]
fn item6_simulated_time_cannot_pass_the_day() {
    let v3 = "fio version 3 iolog\n0 /dev/x add\n86400000000 /dev/x read 0 4096\n";
    let e = replay_refusal(v3, "--loops=250000");
    assert!(e.starts_with("loops: loops=250000: job 'r'"), "{e}");
    assert!(e.contains("at least 21600000000 s"), "{e}");
    assert!(e.contains("at most 86400 s"), "{e}");
    // 100 days of a trace looped: refused too; one pass is accepted.
    let day100 = "fio version 3 iolog\n0 /dev/x add\n864000000 /dev/x read 0 4096\n";
    let e = replay_refusal(day100, "--loops=10000");
    assert!(e.contains("at least 8640000 s"), "{e}");
    replaying(day100, "");
    replaying(v3, "--loops=250000 --replay_no_stall=1");
    let e = args_refusal("--name=t --rw=randread --size=4g --thinktime=24h");
    assert!(e.starts_with("thinktime: thinktime=24h: job 't'"), "{e}");
    assert!(e.contains("(lower thinktime, or set runtime=)"), "{e}");
    let e = args_refusal("--name=t --rw=write --size=1g --rate=1k");
    assert!(e.starts_with("rate: rate=1024: job 't'"), "{e}");
    // runtime= ends the job within the day: accepted.
    let a = [
        "--name=t",
        "--rw=randread",
        "--size=4g",
        "--thinktime=24h",
        "--runtime=1h",
    ];
    parse_args(&a, Scenario::default()).unwrap();
}

/// Item 9: options with no effect are named: `replay_events=queue` without a trace or on a fio
/// iolog, `wait_for` naming the job itself or a later one.
#[test]
fn item9_options_with_no_effect_are_named() {
    use mmcsim_engine::scenario::warnings;
    let a = ["--name=t", "--size=64k", "--replay_events=queue"];
    let w = warnings(&parse_args(&a, Scenario::default()).unwrap()).join("\n");
    assert!(
        w.contains("replay_events=queue: no effect in job 't': it has no read_iolog"),
        "{w}"
    );
    let v2 = "fio version 2 iolog\n/dev/x add\n/dev/x read 0 4096\n";
    let w = warnings(&replaying(v2, "--replay_events=queue")).join("\n");
    assert!(w.contains("'t.txt' is a fio iolog v2"), "{w}");
    let kernel = "179,0 0 1 0.0 100 Q R 0 + 8 [fio]\n";
    assert!(warnings(&replaying(kernel, "--replay_events=queue")).is_empty());
    let a = [
        "--name=a",
        "--size=64k",
        "--wait_for=a",
        "--name=b",
        "--wait_for=c",
        "--name=c",
    ];
    let w = warnings(&parse_args(&a, Scenario::default()).unwrap()).join("\n");
    assert!(
        w.contains("wait_for: no effect in job 'a': 'a' is itself"),
        "{w}"
    );
    assert!(
        w.contains("wait_for: no effect in job 'b': 'c' is no earlier job"),
        "{w}"
    );
}

/// Item 10: messages that misled now say what is so.
#[test]
fn item10_messages_say_what_is_so() {
    let e = args_refusal("--name=t --size=64m --loops=1000000");
    assert!(e.starts_with("loops: "), "{e}");
    assert!(e.contains("(lower loops, size or numjobs"), "{e}");
    let e = args_refusal("--name=t --thinktime=25h");
    assert!(
        e.contains("'25h' is too long; accepted: a time up to 24h, bare numbers in microseconds"),
        "{e}"
    );
    let e = args_refusal("--name=t --thinktime=1.2.3");
    assert!(e.contains("'1.2.3' is not a time"), "{e}");
    assert!(!e.contains("us'") && !e.contains("seconds or"), "{e}");
    let e = args_refusal("--name=t --inject_error=crc:1e-300");
    assert!(
        e.contains("'1e-300' is below the smallest rate modelled"),
        "{e}"
    );
    let e = args_refusal("--name=t --bus_mode=hs9000");
    assert!(e.contains("'hs9000' is not a bus mode; accepted: "), "{e}");
    // A v3 iolog's one op at 86400.000001 s: its time is from the trace's start.
    let e = parse_refusal("fio version 3 iolog\n86400000001 /dev/x read 0 4096\n");
    assert!(
        e.contains("an I/O is issued 86400.000001 s from the trace's start"),
        "{e}"
    );
}

/// A little-endian `blk_io_trace` record: an issue (`__BLK_TA_ISSUE`) of a read on 179,0.
fn blk_record(sector: u64, bytes: u32, pdu_len: u16) -> Vec<u8> {
    let mut r = Vec::new();
    r.extend((0x6561_7400u32 | 7).to_le_bytes());
    r.extend(0u32.to_le_bytes());
    r.extend(1000u64.to_le_bytes());
    r.extend(sector.to_le_bytes());
    r.extend(bytes.to_le_bytes());
    r.extend(7u32.to_le_bytes());
    r.extend(100u32.to_le_bytes());
    r.extend((179u32 << 20).to_le_bytes());
    r.extend(0u32.to_le_bytes());
    r.extend(0u16.to_le_bytes());
    r.extend(pdu_len.to_le_bytes());
    r
}

fn bytes_refusal(bytes: &[u8]) -> String {
    match iolog::parse_bytes("t", bytes) {
        Ok(l) => panic!("accepted: {}", l.summary(iolog::ReplayEvents::Issue)),
        Err(e) => e.to_string(),
    }
}

/// Item 8: format detection and parser edges.
#[test]
fn item8_parser_edges() {
    // blkparse text with a leading blank line, 50-character lines and no final newline reads
    // as protobuf too (0x0a, then a length of '1' = 49): it is text.
    let line = "179,0 0 1 0.000000000 100 D R 0 + 8 [fioooooooooo]";
    assert_eq!(line.len(), 50);
    let text = format!("\n{line}\n{line}");
    let log = iolog::parse_bytes("t", text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(log.format, iolog::IoLogFormat::Blkparse);
    assert_eq!(log.ops.len(), 2);
    // An over-long varint is called so, not "a length runs past the end".
    let mut p = vec![0x0a];
    p.extend([0xff; 10]);
    p.push(0x01);
    let e = bytes_refusal(&p);
    assert!(
        e.contains("a varint longer than protobuf's 10 bytes"),
        "{e}"
    );
    // A blktrace record whose pdu_len runs past the file.
    let e = bytes_refusal(&blk_record(0, 4096, 64));
    assert!(e.contains("pdu_len of 64 bytes runs past the end"), "{e}");
    // Byte counts that are not whole sectors are refused, not dropped or rounded.
    for b in [100u32, 4097] {
        let e = bytes_refusal(&blk_record(0, b, 0));
        assert!(
            e.contains(&format!(
                "a byte count of {b} is not whole 512-byte sectors"
            )),
            "{e}"
        );
    }
    iolog::parse_bytes("t", &blk_record(0, 4096, 0)).unwrap();
    // A Perfetto block_rq_issue whose sector is not a varint is refused, not read as sector 0.
    let e = bytes_refusal(&perfetto_issue(&[0x12, 1, 0]));
    assert!(
        e.contains("the sector field (field 2) has wire type 2"),
        "{e}"
    );
    let log = iolog::parse_bytes("t", &perfetto_issue(&[0x10, 0x40])).unwrap();
    assert_eq!(log.ops[0].offset, 64 * 512);
}

/// A varint.
fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
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

/// A Perfetto trace of one `block_rq_issue` on 179,0 (a 4 KiB read) whose sector field is
/// `sector` (key and value as given).
fn perfetto_issue(sector: &[u8]) -> Vec<u8> {
    let mut issue = vec![0x08];
    varint(179 << 20, &mut issue);
    issue.extend(sector);
    issue.extend([0x18, 8]);
    issue.extend(ld(5, b"R"));
    let mut event = vec![0x08, 1];
    event.extend(ld(45, &issue));
    ld(1, &ld(1, &ld(2, &event)))
}

/// Item 9 (part): zbd zones smaller than a block took no I/O and said nothing.
#[test]
fn item9_zbd_zones_smaller_than_a_block_are_refused() {
    let e = args_refusal("--name=z --size=1m --rw=write --zonemode=zbd --zonesize=512");
    assert!(
        e.starts_with(
            "zonesize: zonesize=512: job 'z': zones smaller than its largest block (4096 bytes)"
        ),
        "{e}"
    );
    let a = [
        "--name=z",
        "--size=1m",
        "--rw=write",
        "--zonemode=zbd",
        "--zonesize=64k",
    ];
    parse_args(&a, Scenario::default()).unwrap();
}
