#!/usr/bin/env python3
"""The reducer against the kept kernel text, offline: no QEMU, no kernel, a second or so.

    replay.py [FIXTURES_DIR...]   (default: oracle/fixtures (Linux 6.1) and every
                                  oracle/fixtures/linux-*/ (6.12) that holds kept traces)

Each FIXTURES_DIR/traces/DEVICE-JOB-SCHED.txt is the raw ftrace of one job of the first boot of
the suite DEVICE-1cpu, whose facts are in FIXTURES_DIR/DEVICE-1cpu.json. Reducing the text
again must give those facts again, every fact the trace alone holds (not fio's I/O count, the
interrupts or the diskstats, which came from outside the trace). A fact the reducer has learnt
since the fixture was recorded (not in the fixture at all) is named, not compared: re-reduce
the kept boots (oracle/record.sh --reduce-only) or record again to add it. Both kernels' text
forms are read (6.11+ rq events carry the I/O priority). A change to oracle/reduce.py that reads
the kernel's text differently fails here, in make test, even on a machine without QEMU.
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the work tree (make test checks it is unchanged)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reduce  # noqa: E402  (oracle/reduce.py, beside this file)

NOT_IN_TRACE = {'fio_ios', 'host_irqs', 'diskstats'}
HEADER = re.compile(r'^# oracle ftrace: job (\S+), scheduler (\S+), ')


def main(argv):
    if len(argv) > 1:
        dirs = argv[1:]
    else:
        top = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures')
        dirs = [top] + sorted(os.path.join(top, n) for n in os.listdir(top)
                              if n.startswith('linux-') and os.path.isdir(os.path.join(top, n, 'traces')))
    return max(replay(d) for d in dirs)


def replay(d):
    tdir = os.path.join(d, 'traces')
    names = sorted(n for n in os.listdir(tdir) if n.endswith('.txt')) if os.path.isdir(tdir) else []
    if not names:
        print('oracle replay: no kept traces in %s' % tdir)
        return 1
    bad, n_facts, new = [], 0, set()
    for n in names:
        lines = open(os.path.join(tdir, n)).read().splitlines()
        m = HEADER.match(lines[0]) if lines else None
        if not m:
            bad.append('%s: no "# oracle ftrace: job NAME, scheduler SCHED" header' % n)
            continue
        job, sched = m.groups()
        suite = n.split('-', 1)[0] + '-1cpu'
        with open(os.path.join(d, suite + '.json')) as f:
            fx = json.load(f)
        want = [j for j in fx['jobs'] if j['name'] == job and j['sched'] == sched]
        if not want:
            bad.append('%s: job %s/%s not in %s.json' % (n, job, sched, suite))
            continue
        facts, _ = reduce.facts_of(dict(trace=lines, fio=[], stderr=[]))
        for k, v in sorted(facts.items()):
            if k in NOT_IN_TRACE:
                continue
            if k not in want[0]['facts']:
                new.add(k)
                continue
            n_facts += 1
            if want[0]['facts'].get(k) != v:
                bad.append('%s: %s: fixture %s, reduced again %s' % (n, k, want[0]['facts'].get(k), v))
    for b in bad:
        print('REPLAY DRIFT ' + b)
    print('oracle replay: %s: %d kept traces, %d facts reduced again, %s%s'
          % (os.path.relpath(d), len(names), n_facts,
             '%d differ' % len(bad) if bad else 'all as in the fixtures',
             '; not in the fixtures (newer than them): ' + ' '.join(sorted(new)) if new else ''))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
