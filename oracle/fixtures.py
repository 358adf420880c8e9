#!/usr/bin/env python3
"""The oracle's fixtures: two reduced boots of one suite -> oracle/fixtures/SUITE.json, and a
table of the headline figures of fixture files.

    fixtures.py merge SUITE RUN_A.json RUN_B.json [MORE.json...] --package P --qemu Q --fio F
                      --out FILE [--previous OLD_FIXTURE]
    fixtures.py table FIXTURE.json...        (markdown, to stdout)
    fixtures.py observe FIXTURE.json (LIVE_FACTS.json | JOB/SCHED/FACT=JSON)...

merge keeps run A's facts and marks, per job and scheduler, which facts every boot that ran the
job agrees on ("stable": the names; "unstable": each other fact with the distinct values the boots gave,
so a reader sees why it is not compared). MORE runs may hold a subset of the jobs (the check
boots of oracle/record.sh: the jobs make oracle-check compares get 5 boots, not 2). With
--previous (the fixture being replaced, if made by the same kernel package and QEMU), the
earlier recordings' values count too: instability is remembered. The schema
is oracle/README.md's ("Fixture schema").

observe folds a later boot of the same kernel into a fixture, the way a recording folds in its
boots: a stable fact that the boot gave otherwise becomes unstable, with both values (nothing
else changes; `runs` counts the boot). It takes a reduced boot (oracle-check's
target/oracle/check/facts.json) or the value a DRIFT line printed, e.g.
`b_write1m/mq-deadline/max_inflight_driver=1` when only the line is left (a CI log).
"""
import datetime
import json
import os
import re
import sys

SCHEMA = 1
SCHED_ORDER = ['none', 'mq-deadline', 'kyber', 'bfq']


def load(path):
    with open(path) as f:
        return json.load(f)


def key(j):
    s = SCHED_ORDER.index(j['sched']) if j['sched'] in SCHED_ORDER else 99
    return (j['name'], s)


def opt(argv, name):
    return argv[argv.index(name) + 1] if name in argv else None


def merge(argv):
    suite = argv[0]
    paths = []
    for p in argv[1:]:
        if p.startswith('--'):
            break
        paths.append(p)
    runs = [load(p) for p in paths]
    ha = runs[0]['boot']
    for p, r in zip(paths, runs):
        h = r['boot']
        if (h['vcpus'], h['device']) != (ha['vcpus'], ha['device']):
            sys.exit('fixtures.py: %s and %s are not the same suite' % (paths[0], p))
    others = [{(j['name'], j['sched']): j for j in r['jobs']} for r in runs[1:]]
    prev, recordings = previous(opt(argv, '--previous'), opt(argv, '--package'), opt(argv, '--qemu'))
    jobs = []
    for j in sorted(runs[0]['jobs'], key=key):
        os_ = [o[(j['name'], j['sched'])] for o in others if (j['name'], j['sched']) in o]
        pj = prev.get((j['name'], j['sched']))
        pj = pj if pj is not None and pj['args'] == j['args'] else None
        stable, unstable = [], {}
        for f, v in sorted(j['facts'].items()):
            vals = [v] + [o['facts'].get(f) for o in os_]
            if pj is not None and (f in pj['facts'] or f in pj['unstable']):
                # what the earlier recordings saw of it (a fact the reducer has learnt since
                # they were made is not in them: its marks come from this recording's boots)
                vals += pj['unstable'][f] if f in pj['unstable'] else [pj['facts'].get(f)]
            if len(vals) > 1 and all(x == v for x in vals):
                stable.append(f)
            else:
                unstable[f] = distinct(vals)
        jobs.append(dict(name=j['name'], sched=j['sched'], args=j['args'],
                         runs=1 + len(os_) + (pj['runs'] if pj else 0),
                         facts=j['facts'], stable=stable, unstable=unstable,
                         measured=j['measured']))
    uname = ha.get('uname', '').split(' | ')
    queues_equal = all(r['boot']['queues'][s] == q for r in runs[1:]
                       for s, q in ha['queues'].items() if s in r['boot']['queues'])
    fx = dict(
        schema=SCHEMA, suite=suite,
        device='sd' if ha['device'].startswith('mmcblk') else 'vblk', guest_device=ha['device'],
        vcpus=ha['vcpus'],
        kernel=dict(version=version(uname[0]), uname_r=uname[0],
                    uname_v=uname[1] if len(uname) > 1 else '', package=opt(argv, '--package')),
        qemu=opt(argv, '--qemu'), fio=opt(argv, '--fio'),
        fio_common_args='--name=NAME --filename=/dev/%s --direct=1 --randrepeat=1 --thread=0 '
                        '--output-format=json' % ha['device'],
        recorded=datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'),
        boots=len(runs), recordings=recordings,
        stable_rule='a fact of a job is stable when every boot that ran the job (its "runs": 2 '
                    'a recording, 5 for the jobs of make oracle-check; boots side by side on a '
                    'loaded 2-core machine; earlier recordings of the same kernel and QEMU '
                    'count too) gave the same value; "unstable" lists the others with the '
                    'distinct values the boots gave',
        available_schedulers=ha.get('available_schedulers'),
        default_scheduler=ha.get('default_scheduler'), schedulers_listed=ha.get('schedulers_listed'),
        card=ha.get('card', {}),
        queues=ha['queues'], queues_stable=queues_equal,
        skipped=ha.get('skipped', []), insmod_failed=ha.get('insmod_failed', []),
        sched_failed=ha.get('sched_failed', []), jobs=jobs)
    with open(opt(argv, '--out'), 'w') as f:
        f.write(dump(fx))
    n_st = sum(len(j['stable']) for j in jobs)
    n_all = sum(len(j['facts']) for j in jobs)
    print('[oracle] %s: %d job runs, %d of %d facts stable -> %s'
          % (suite, len(jobs), n_st, n_all, opt(argv, '--out')))


def version(uname_r):
    """The kernel's release as the model's --kernel= takes it: "6.1.0-57-amd64" -> "6.1",
    "6.12.117+deb13-amd64" -> "6.12"."""
    m = re.match(r'(\d+\.\d+)', uname_r)
    return m.group(1) if m else uname_r


def distinct(vals):
    """The values in the order first seen, each once (the boots' spread of an unstable fact)."""
    out, seen = [], set()
    for v in vals:
        k = json.dumps(v, sort_keys=True)
        if k not in seen:
            seen.add(k)
            out.append(v)
    return out


def previous(path, package, qemu):
    """The jobs of the fixture this one replaces, if it was made by the same kernel package and
    QEMU: their unstable facts stay unstable (a fact two boots agreed on once may differ in a
    later recording), and their boots count. Returns ({(name, sched): job}, recordings)."""
    if not path or not os.path.exists(path):
        return {}, 1
    p = load(path)
    if p.get('schema') != SCHEMA or p['kernel'].get('package') != package or p.get('qemu') != qemu:
        return {}, 1
    return {(j['name'], j['sched']): j for j in p['jobs']}, p.get('recordings', 1) + 1


def dump(fx):
    """JSON with one line per header field, per queue, per job field: small diffs, small file."""
    c = lambda v: json.dumps(v, sort_keys=True, separators=(',', ':'))
    out = ['{']
    head = [k for k in fx if k not in ('jobs', 'queues')]
    for k in head:
        out.append(' %s: %s,' % (json.dumps(k), c(fx[k])))
    out.append(' "queues": {')
    qs = list(fx['queues'].items())
    for i, (s, q) in enumerate(qs):
        out.append('  %s: %s%s' % (json.dumps(s), c(q), ',' if i + 1 < len(qs) else ''))
    out.append(' },')
    out.append(' "jobs": [')
    for i, j in enumerate(fx['jobs']):
        fields = list(j.items())
        out.append('  {')
        for n, (k, v) in enumerate(fields):
            if k == 'facts':
                out.append('   "facts": {')
                fs = sorted(v.items())
                for m, (fk, fv) in enumerate(fs):
                    out.append('    %s: %s%s' % (json.dumps(fk), c(fv), ',' if m + 1 < len(fs) else ''))
                out.append('   }%s' % (',' if n + 1 < len(fields) else ''))
            else:
                out.append('   %s: %s%s' % (json.dumps(k), c(v), ',' if n + 1 < len(fields) else ''))
        out.append('  }%s' % (',' if i + 1 < len(fx['jobs']) else ''))
    out.append(' ]')
    out.append('}')
    text = '\n'.join(out) + '\n'
    json.loads(text)  # the writer above must make valid JSON
    return text


def sizes(h):
    """{"W 4096": 987, "W 8192": 17} -> "W4k:987 W8k:17"."""
    def kib(n):
        n = int(n)
        return ('%dk' % (n // 1024)) if n % 1024 == 0 and n else str(n)
    items = sorted(h.items(), key=lambda kv: -kv[1])
    parts = ['%s%s:%d' % (k.split()[0], kib(k.split()[1]), v) for k, v in items[:3]]
    return ' '.join(parts) + (' +%d' % (len(items) - 3) if len(items) > 3 else '')


def row(j):
    f = j['facts']
    ctx = ' '.join('%s:%d' % kv for kv in sorted(f['issue_ctx'].items()))
    cells = [
        j['name'], j['sched'], str(f['fio_ios']), str(f['bios']), str(f['splits']),
        '%d%s' % (f['requests'], '' if 'requests' in j['stable'] else '*'), sizes(f['request_sizes']),
        str(f['inserts']) + ('' if 'inserts' in j['stable'] else '*'),
        '%d/%d' % (f['plugs'], f['unplugs']) + ('' if 'plugs' in j['stable'] else '*'),
        '%d/%d/%d' % (f['merges_back'], f['merges_front'], f['rq_merges']),
        str(f['requeues']) + ('' if 'requeues' in j['stable'] else '*'),
        '%d/%d/%d' % (f['flushes'], f['preflush_data'], f['fua_writes']), str(f['discards']),
        ctx + ('' if 'issue_ctx' in j['stable'] else '*'),
        '%d/%d' % (f['max_inflight_driver'], f['max_in_sched']),
        str(f['cmd13_after_write']), str(f['host_irqs']) + ('' if 'host_irqs' in j['stable'] else '*'),
    ]
    return '| ' + ' | '.join(cells) + ' |'


def table(paths):
    for p in paths:
        fx = load(p)
        print('### %s (%s, %d vCPU, Linux %s: kernel %s, %s; scheduler file `%s`)\n'
              % (fx['suite'], fx['guest_device'], fx['vcpus'], fx['kernel'].get('version', '?'),
                 fx['kernel']['uname_r'], fx['kernel']['package'], fx.get('available_schedulers')))
        print('| job | sched | fio I/Os | bios | splits | requests | sizes | inserts | plugs/unplugs '
              '| merges b/f/rq | requeues | flush/preflush/FUA | discards | issue ctx '
              '| max drv/sched | CMD13 after W | irqs |')
        print('|' + '---|' * 17)
        for j in fx['jobs']:
            print(row(j))
        for s in fx.get('skipped', []):
            print('| %s | %s | skipped: %s |' % (s['name'], s['sched'], s['why']))
        print('\n`*`: differed between the boots (not a stable fact).\n')


def observe(argv):
    path, seen = argv[0], []  # seen: (name, sched, {fact: value})
    fx = load(path)
    for a in argv[1:]:
        if a.endswith('.json'):
            seen += [(j['name'], j['sched'], j['facts']) for j in load(a)['jobs']]
        else:
            what, _, val = a.partition('=')
            parts = what.split('/')
            if len(parts) != 3 or not val:
                sys.exit('fixtures.py observe: %r is not JOB/SCHED/FACT=JSON' % a)
            seen.append((parts[0], parts[1], {parts[2]: json.loads(val)}))
    jobs = {(j['name'], j['sched']): j for j in fx['jobs']}
    for name, sched, facts in seen:
        j = jobs.get((name, sched))
        if j is None:
            sys.exit('fixtures.py observe: %s/%s is not a job of %s' % (name, sched, path))
        j['runs'] += 1
        for f, v in sorted(facts.items()):
            if f in j['stable'] and j['facts'].get(f) != v:
                j['stable'].remove(f)
                j['unstable'][f] = distinct([j['facts'].get(f), v])
                print('[oracle] %s/%s %s: unstable now, values %s'
                      % (name, sched, f, json.dumps(j['unstable'][f])))
            elif f in j['unstable']:
                j['unstable'][f] = distinct(j['unstable'][f] + [v])
    with open(path, 'w') as out:
        out.write(dump(fx))


def main(argv):
    if len(argv) >= 2 and argv[1] == 'merge' and len(argv) >= 5:
        merge(argv[2:])
    elif len(argv) >= 3 and argv[1] == 'table':
        table(argv[2:])
    elif len(argv) >= 4 and argv[1] == 'observe':
        observe(argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
