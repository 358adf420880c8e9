use super::*;

#[test]
fn issue_times_past_a_day_are_refused() {
    for v3 in [
        "fio version 3 iolog\n0 f add\n18446744073709551615 f write 0 4096\n",
        "fio version 3 iolog\n0 f add\n0 f write 0 4096\n86400000001 f write 0 4096\n",
    ] {
        let e = parse("t", v3).unwrap_err().to_string();
        assert!(e.contains("at most 86400 s (one day)"), "{e}");
    }
    let v2 =
        "fio version 2 iolog\nf add\nf write 0 4096\nf wait 18446744073709551615\nf write 0 4096\n";
    assert!(parse("w", v2).is_err());
    let day = "fio version 3 iolog\n0 f add\n86400000000 f write 0 4096\n";
    assert_eq!(parse("d", day).unwrap().ops[0].t_ns, 86_400_000_000_000);
}

#[test]
fn reads_each_format_and_names_a_bad_line() {
    let v2 = "fio version 2 iolog\n/dev/mmcblk0 add\n/dev/mmcblk0 open\n/dev/mmcblk0 write 0 4096\n/dev/mmcblk0 wait 100\n/dev/mmcblk0 read 8192 8192\n/dev/mmcblk0 sync 0 0\n/dev/mmcblk0 trim 0 4096\n/dev/mmcblk0 close\n";
    let l = parse("a", v2).unwrap();
    assert_eq!(l.format, IoLogFormat::FioV2);
    assert_eq!(l.ops.len(), 4);
    assert_eq!(
        (l.ops[1].t_ns, l.ops[1].offset, l.ops[1].len),
        (100_000, 8192, 8192)
    );
    assert_eq!(
        (l.ops[2].kind, l.ops[3].kind),
        (LogOpKind::Flush, LogOpKind::Discard)
    );
    assert_eq!(l.ops_of(ReplayEvents::Queue), &l.ops);
    let v3 = "fio version 3 iolog\n0 f add\n5 f write 4096 4096\n";
    assert_eq!(parse("b", v3).unwrap().ops[0].t_ns, 5_000);
    let e = parse("d", "fio version 2 iolog\nf write 0\n").unwrap_err();
    assert!(
        e.to_string().contains("d: line 2: length is missing"),
        "{e}"
    );
    let e = parse("e", "  8,0 0 1 0.1 3 Q W x + 8 [a]\n").unwrap_err();
    assert!(e.to_string().contains("line 1: sector 'x'"), "{e}");
    assert!(parse("f", "hello\n").is_err());
    assert!(parse("g", "fio version 2 iolog\nf write 1 4096\n").is_err());
}

/// blkparse: issue (`D`) events by default, queue (`Q`) events on request; a write carrying a
/// preflush and FUA is a flush and a FUA write; a discard is a discard.
#[test]
fn blkparse_replays_issue_events_and_keeps_flush_fua_discard() {
    let bp = "\
  179,0    2        1     0.000100000  812  Q  WS 16 + 8 [kworker]
  179,0    2        2     0.000101000  812  G  WS 16 + 8 [kworker]
  179,0    2        3     0.000102000  812  Q  WS 24 + 8 [kworker]
  179,0    2        4     0.000103000  812  M  WS 24 + 8 [kworker]
  179,0    2        5     0.000150000  812  D  WS 16 + 16 [kworker]
  179,0    1        6     0.000200000  812  Q FWFS 32 + 8 [jbd2]
  179,0    1        7     0.000210000  812  D  FF [kworker]
  179,0    1        8     0.000220000  812  D  WFS 32 + 8 [kworker]
  179,0    1        9     0.000230000  812  Q  D 64 + 8192 [fstrim]
  179,0    1       10     0.000240000  812  D  D 64 + 8192 [fstrim]
CPU1 (179,0):
 Reads Queued: 0
";
    let l = parse("c", bp).unwrap();
    assert_eq!(l.format, IoLogFormat::Blkparse);
    let kinds = |ops: &[LogOp]| {
        ops.iter()
            .map(|o| (o.kind, o.len, o.fua))
            .collect::<Vec<_>>()
    };
    use LogOpKind::*;
    assert_eq!(
        kinds(l.ops_of(ReplayEvents::Issue)),
        [
            (Write, 8192, false),
            (Flush, 0, false),
            (Write, 4096, true),
            (Discard, 4 << 20, false)
        ]
    );
    assert_eq!(
        kinds(l.ops_of(ReplayEvents::Queue)),
        [
            (Write, 4096, false),
            (Write, 4096, false),
            (Flush, 0, false),
            (Write, 4096, true),
            (Discard, 4 << 20, false)
        ]
    );
    assert_eq!((l.ops[0].t_ns, l.ops[1].t_ns), (0, 60_000));
    assert_eq!(l.queued[3].t_ns, 100_000);
}

const FTRACE: &str = "\
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
            init-853     [000] .....   146.300402: tracing_mark_write: oracle job
             fio-1370    [000] .....   146.782392: block_bio_queue: 179,0 WS 24 + 8 [fio]
             fio-1370    [000] .....   146.782502: block_plug: [fio]
             fio-1370    [000] ...1.   146.782573: block_rq_insert: 179,0 WS 4096 () 24 + 8 [fio]
    kworker/0:1H-38      [000] .....   146.782812: block_rq_issue: 179,0 WS 4096 () 24 + 8 [kworker/0:1H]
    kworker/0:1H-38      [000] .....   146.782903: mmc_request_start: mmc0: start struct mmc_request[000000008716bbda]: cmd_opcode=25
    kworker/0:1H-38      [000] .....   146.783636: block_rq_complete: 179,0 WS () 24 + 8 [0]
    kworker/0:1H-38      [001] d..1.   146.784000: block_rq_issue: 179,0 FF 0 () 0 + 0 [kworker/0:1H]
    kworker/0:1H-38      [001] d..1.   146.784100: block_rq_issue: 179,0 WFS 4096 () 40 + 8 [kworker/0:1H]
    kworker/0:1H-38      [001] d..1.   146.784200: block_rq_requeue: 179,0 WFS () 40 + 8 [0]
    kworker/0:1H-38      [001] d..1.   146.784300: block_rq_issue: 179,0 WFS 4096 () 40 + 8 [kworker/0:1H]
          fstrim-99      [001] .....   146.784400: block_rq_issue: 179,0 D 1048576 () 2048 + 2048 [fstrim]
";

/// The raw `trace` file and `trace-cmd report`: issue events replayed (a requeued request
/// once), flush, FUA and discard kept; other events read past.
#[test]
fn ftrace_text_replays_issue_events() {
    use LogOpKind::*;
    let l = parse("t.txt", FTRACE).unwrap();
    assert_eq!((l.format, l.dev), (IoLogFormat::Ftrace, Some((179, 0))));
    let ops: Vec<_> = l
        .ops
        .iter()
        .map(|o| (o.t_ns, o.kind, o.offset, o.len, o.fua))
        .collect();
    assert_eq!(
        ops,
        [
            (0, Write, 24 * 512, 4096, false),
            (1_188_000, Flush, 0, 0, false),
            (1_488_000, Write, 40 * 512, 4096, true),
            (1_588_000, Discard, 2048 * 512, 1 << 20, false),
        ]
    );
    assert_eq!(l.queued.len(), 1);
    // trace-cmd report: no flags column, a `cpus=` header.
    let report = "cpus=2\n     fio-1370  [001]   146.782812: block_rq_issue:       179,0 R 8192 () 80 + 16 [fio]\n";
    let l = parse("r.txt", report).unwrap();
    assert_eq!(
        (l.ops[0].kind, l.ops[0].offset, l.ops[0].len),
        (Read, 40960, 8192)
    );
}

#[test]
fn ftrace_refuses_another_device_a_lost_buffer_and_bad_lines() {
    let two = format!(
        "{FTRACE}     fio-1  [000] .....   147.0: block_rq_issue: 8,0 W 4096 () 0 + 8 [fio]\n"
    );
    let e = parse("two.txt", &two).unwrap_err().to_string();
    assert!(
        e.contains("two.txt: line 17: an event of device 8,0, but the trace's first event is of device 179,0"),
        "{e}"
    );
    let lost = format!("{FTRACE}CPU:1 [LOST 120 EVENTS]\n");
    let e = parse("lost.txt", &lost).unwrap_err().to_string();
    assert!(
        e.contains("lost.txt: line 17: 'CPU:1 [LOST 120 EVENTS]': the ring buffer lost events"),
        "{e}"
    );
    let bad = format!("{FTRACE}garbage here\n");
    let e = parse("bad.txt", &bad).unwrap_err().to_string();
    assert!(
        e.contains("bad.txt: line 17: not an ftrace event line"),
        "{e}"
    );
    let rwbs = "  fio-1  [000] .....   1.0: block_rq_issue: 179,0 WX 4096 () 0 + 8 [fio]\n";
    let e = parse("x.txt", rwbs).unwrap_err().to_string();
    assert!(
        e.contains("x.txt: line 1: RWBS 'WX' is not the kernel's"),
        "{e}"
    );
    let odd = "  fio-1  [000] .....   1.0: block_rq_issue: 179,0 W 4096 () 1 + 7 [fio]\n";
    assert!(parse("o.txt", odd).is_ok(), "whole sectors are whole");
    let none = "# tracer: nop\n  fio-1  [000] .....   1.0: sched_switch: a\n";
    let e = parse("n.txt", none).unwrap_err().to_string();
    assert!(e.contains("no read, write, flush or discard"), "{e}");
}

/// Binary blktrace: the CPUs' files merged by time, issue events replayed; files of another
/// device, a CPU twice and a cut record refused with the file and the byte offset.
#[test]
fn binary_blktrace_per_cpu_files_merge_by_time() {
    use super::blktrace::tests::record;
    const W: u32 = 1 << 1 << 16;
    const SYNC: u32 = 1 << 3 << 16;
    let dev = 179 << 20;
    let cpu0 = [
        record(100, 1 | W | SYNC, 16, 4096, dev, 0),
        record(150, 7 | W | SYNC, 16, 4096, dev, 0),
    ]
    .concat();
    let cpu1 = [
        record(120, 1, 64, 8192, dev, 1),
        record(130, 7, 64, 8192, dev, 1),
    ]
    .concat();
    assert!(is_blktrace(&cpu0));
    let files = [
        ("t.blktrace.0".to_string(), &cpu0[..]),
        ("t.blktrace.1".to_string(), &cpu1[..]),
    ];
    let l = parse_blktrace("t.blktrace.0", &files).unwrap();
    assert_eq!((l.format, l.dev), (IoLogFormat::Blktrace, Some((179, 0))));
    let ops: Vec<_> = l
        .ops
        .iter()
        .map(|o| (o.t_ns, o.kind, o.offset, o.len))
        .collect();
    assert_eq!(
        ops,
        [
            (0, LogOpKind::Read, 64 * 512, 8192),
            (20, LogOpKind::Write, 16 * 512, 4096)
        ]
    );
    assert_eq!(l.queued.len(), 2);
    assert_eq!(parse_bytes("t.blktrace.0", &cpu0).unwrap().ops.len(), 1);
    let other = record(130, 7, 64, 8192, 8 << 20, 1);
    let files = [
        ("t.blktrace.0".to_string(), &cpu0[..]),
        ("sda.blktrace.1".to_string(), &other[..]),
    ];
    let e = parse_blktrace("t", &files).unwrap_err().to_string();
    assert!(
        e.contains(
            "sda.blktrace.1: byte offset 0: a record of device 8,0 beside t.blktrace.0's of 179,0"
        ),
        "{e}"
    );
    let files = [
        ("a.blktrace.0".to_string(), &cpu0[..]),
        ("b.blktrace.0".to_string(), &cpu0[..]),
    ];
    let e = parse_blktrace("a", &files).unwrap_err().to_string();
    assert!(
        e.contains("b.blktrace.0: byte offset 0: CPU 0's records, as in a.blktrace.0"),
        "{e}"
    );
    let e = parse_bytes("cut", &cpu0[..60]).unwrap_err().to_string();
    assert!(
        e.contains("cut: byte offset 48: truncated blktrace record (12 of 48 bytes)"),
        "{e}"
    );
}
