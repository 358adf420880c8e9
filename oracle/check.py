#!/usr/bin/env python3
"""`make oracle-check`'s comparison: a live boot's reduced facts against a fixture file.

    check.py FIXTURE.json LIVE_FACTS.json [--drifted FILE]

For every live job and scheduler, every fact the fixture marks stable must have the fixture's
value; the queue's sysfs limits and the scheduler's tunables must too. Prints one table row per
job and scheduler (the headline figures, and how many stable facts agreed), then each drift as
"DRIFT job/sched fact: fixture X, live Y". Exit 1 on any drift, or when a live job is not in the
fixture (re-record with `make oracle`), 0 otherwise. Facts the fixture marks unstable are not
compared: two boots of the same kernel already disagreed on them (their values are in the
fixture), so they depend on the emulator's timing. With --drifted, the names of the jobs whose stable facts
drifted go to FILE (one a line), for check.sh's second boot of them; FILE is not written when
anything else drifted (a queue file, a scheduler, a failed fio: no second boot mends those).
"""
import json
import os
import sys

HEAD = ['requests', 'merges_back', 'splits', 'requeues', 'flushes', 'cmd13_after_write', 'host_irqs']


def load(path):
    with open(path) as f:
        return json.load(f)


def short(v):
    s = json.dumps(v, sort_keys=True, separators=(',', ':'))
    return s if len(s) <= 60 else s[:57] + '...'


def main(argv):
    drifted_out = None
    if len(argv) == 5 and argv[3] == '--drifted':
        drifted_out, argv = argv[4], argv[:3]
    if len(argv) != 3:
        sys.exit(__doc__)
    fx, live = load(argv[1]), load(argv[2])
    job_drifts, fact_drifts = set(), 0  # the jobs whose stable facts drifted, and how many facts
    if not live['boot'].get('complete'):
        print('oracle-check: the live boot did not finish (no "=== END" in its trace)')
        return 1
    want = {(j['name'], j['sched']): j for j in fx['jobs']}
    drifts, rows = [], []
    for sched, q in sorted(live['boot']['queues'].items()):
        fq = fx['queues'].get(sched)
        if fq is None:
            drifts.append('DRIFT queue/%s: scheduler not in the fixture' % sched)
            continue
        for part in ('queue', 'iosched'):
            for k, v in sorted(q[part].items()):
                if fq[part].get(k) != v:
                    drifts.append('DRIFT queue/%s %s/%s: fixture %s, live %s'
                                  % (sched, part, k, short(fq[part].get(k)), short(v)))
    live_kernel = live['boot'].get('uname', '?').split(' | ')[0]
    if live_kernel != fx['kernel']['uname_r']:
        drifts.append('DRIFT boot: the live kernel is %s, the fixture\'s %s' % (live_kernel, fx['kernel']['uname_r']))
    if live['boot'].get('insmod_failed') or live['boot'].get('sched_failed'):
        drifts.append('DRIFT boot: modules or schedulers failed: %s %s'
                      % (live['boot'].get('insmod_failed'), live['boot'].get('sched_failed')))
    for j in live['jobs']:
        k = (j['name'], j['sched'])
        f = want.get(k)
        if f is None:
            drifts.append('DRIFT %s/%s: not in %s (re-record: make oracle)' % (k + (argv[1],)))
            continue
        if j['measured'].get('fio_rc') != 0:
            drifts.append('DRIFT %s/%s fio_rc: fio failed (%s)' % (k + (j['measured'].get('fio_rc'),)))
        same = 0
        for fact in f['stable']:
            a, b = f['facts'].get(fact), j['facts'].get(fact)
            if a == b:
                same += 1
            else:
                drifts.append('DRIFT %s/%s %s: fixture %s, live %s' % (k + (fact, short(a), short(b))))
                job_drifts.add(j['name'])
                fact_drifts += 1
        cells = []
        for h in HEAD:
            v = j['facts'].get(h)
            mark = '' if h in f['stable'] else '~'
            cells.append('%s%s' % (v, mark))
        rows.append('| %-30s | %-11s | %s | %d/%d |' % (j['name'], j['sched'], ' | '.join(
            '%9s' % c for c in cells), same, len(f['stable'])))
    print('oracle-check: live kernel %s against %s (recorded %s, kernel %s)'
          % (live['boot'].get('uname', '?').split(' | ')[0], argv[1], fx['recorded'],
             fx['kernel']['package']))
    print('| %-30s | %-11s | %s | stable facts equal |' % ('job', 'sched', ' | '.join('%9s' % h[:9] for h in HEAD)))
    print('|' + '---|' * (len(HEAD) + 3))
    for r in rows:
        print(r)
    print('(~: not a stable fact of the fixture, shown but not compared)')
    if drifted_out is not None:
        if os.path.exists(drifted_out):
            os.remove(drifted_out)
        if drifts and len(drifts) == fact_drifts:
            with open(drifted_out, 'w') as f:
                f.write(''.join(n + '\n' for n in sorted(job_drifts)))
    if drifts:
        for d in drifts:
            print(d)
        print('oracle-check: %d drift(s) from the fixture' % len(drifts))
        return 1
    print('oracle-check: %d job runs, every stable fact as recorded' % len(rows))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
