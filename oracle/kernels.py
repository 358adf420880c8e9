#!/usr/bin/env python3
"""Two kernels' fixtures side by side: what changes for the same job on the same device.

    kernels.py OLD_DIR NEW_DIR      (e.g. oracle/fixtures oracle/fixtures/linux-6.12)

For every suite both folders hold (sd-1cpu, sd-2cpu, virtio-1cpu) and every job and scheduler
both ran, prints a markdown row when one of the headline facts below differs between the two
kernels, each value as the kernel gave it: a stable fact as its value, a fact the boots did not
agree on as its spread (lowest..highest for a number, the distinct values joined by " / "
otherwise) with a `~`. Rows where every headline fact is the same are counted, not printed.
make oracle writes the output to oracle/fixtures/KERNELS.md.
"""
import json
import os
import sys

FACTS = ['requests', 'inserts', 'plugs', 'merges_back', 'rq_merges', 'requeues', 'flushes',
         'issue_ctx', 'max_inflight_driver', 'max_in_sched']
VIRTIO_MORE = ['issue_ctx_by_op']


def load(path):
    with open(path) as f:
        return json.load(f)


def flat(v):
    if isinstance(v, dict):
        return ' '.join('%s:%s' % kv for kv in sorted(v.items())) or '-'
    return str(v)


def value(job, fact):
    """The fact as the boots gave it: its value if stable, its spread (with ~) if not."""
    if fact in job['unstable']:
        vals = job['unstable'][fact]
        if all(isinstance(v, int) for v in vals):
            return '%d..%d~' % (min(vals), max(vals))
        return ' / '.join(flat(v) for v in vals) + '~'
    return flat(job['facts'].get(fact))


def compare(old_dir, new_dir):
    for suite in ('sd-1cpu', 'sd-2cpu', 'virtio-1cpu'):
        po, pn = os.path.join(old_dir, suite + '.json'), os.path.join(new_dir, suite + '.json')
        if not (os.path.exists(po) and os.path.exists(pn)):
            continue
        fo, fn = load(po), load(pn)
        facts = FACTS + (VIRTIO_MORE if fo['device'] == 'vblk' else [])
        ko, kn = fo['kernel'].get('version', '?'), fn['kernel'].get('version', '?')
        print('### %s: Linux %s (%s) against %s (%s)\n' % (suite, ko, fo['kernel']['package'], kn,
                                                         fn['kernel']['package']))
        print('| job | sched | fact | %s | %s |' % (ko, kn))
        print('|---|---|---|---|---|')
        new = {(j['name'], j['sched']): j for j in fn['jobs']}
        same = 0
        for jo in fo['jobs']:
            jn = new.get((jo['name'], jo['sched']))
            if jn is None:
                continue
            rows = [(f, value(jo, f), value(jn, f)) for f in facts]
            rows = [r for r in rows if r[1] != r[2]]
            if not rows:
                same += 1
            for i, (f, a, b) in enumerate(rows):
                print('| %s | %s | %s | %s | %s |' % (jo['name'] if i == 0 else '',
                                                      jo['sched'] if i == 0 else '', f, a, b))
        print('\n%d job runs with every headline fact the same on both kernels. `~`: the boots '
              'did not agree (the spread they gave).\n' % same)


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    compare(argv[1], argv[2])


if __name__ == '__main__':
    main(sys.argv)
