#!/usr/bin/env python3
"""The oracle's reducer: one boot's trace.log (what oracle/guest-init.sh wrote) -> facts.json.

    reduce.py TRACE_LOG OUT_JSON [--traces DIR]

facts.json holds the boot's header (kernel, vCPUs, device), the card's registers, per scheduler
the queue's sysfs limits and the scheduler's tunables, and per job and scheduler the counts and
histograms of oracle/README.md ("Facts"): bios, splits, requests and their sizes, merges,
requeues, flushes, issue context, in-flight depths, mmc commands, interrupts, fio's result.
Event streams are reduced to counts; --traces DIR also writes the raw ftrace text of the jobs
whose sets in oracle/jobs.txt name `trace` (DIR/NAME-SCHED.txt).
"""
import collections
import json
import os
import re
import sys

LINE = re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+([\d.]+): (\w+): (.*)$')
# block_* events: "179,0 WS 4096 () 488 + 8 [fio]" (rq events) or "179,0 WS 488 + 8 [fio]" (bio);
# from 6.11 (aa6ff4eb7c10, "block: add ioprio to block_rq tracepoint") the rq events carry the
# I/O priority, class,hint,level, before the task: "179,0 WS 4096 () 488 + 8 be,0,4 [fio]".
BLK = re.compile(r'^(\d+,\d+) (\S+) (?:(\d+) )?(?:\((.*?)\) )?(\d+) \+ (\d+)(?: ([a-z]+,\d+,\d+))?')
KV = re.compile(r'(\w+)=(\S+)')
STAT_NAMES = ['read_ios', 'read_merges', 'read_sectors', None, 'write_ios', 'write_merges',
              'write_sectors', None, None, None, None, 'discard_ios', 'discard_merges',
              'discard_sectors', None, 'flush_ios', None]
JOBS_TXT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'jobs.txt')


def job_sets():
    sets = {}
    for line in open(JOBS_TXT):
        f = line.split()
        if f and not f[0].startswith('#'):
            sets[f[0]] = f[1].split(',')
    return sets


def rwbs_parts(rwbs):
    """(op, preflush, fua, flags) of a blk_fill_rwbs string: [F]op[F][A][S][M]."""
    pre = len(rwbs) > 1 and rwbs[0] == 'F' and rwbs[1] in 'WRDFN'
    s = rwbs[1:] if pre else rwbs
    op = s[:1]
    if s.startswith('DE'):
        op, s = 'DE', s[1:]
    rest = s[1:]
    return op, pre, rest.startswith('F'), rest


def comm_class(comm):
    """The kind of task: `fio`, `kworker-H` (a high-priority worker, kworker/0:1H: kblockd's),
    `kworker`, `idle`, or the name without a per-CPU suffix. A worker's name may carry its
    workqueue after a dash (kworker/0:1H-kblockd) where the kernel prints wq_worker_comm."""
    if comm.startswith('kworker/'):
        return 'kworker-H' if comm.split('-', 1)[0].endswith('H') else 'kworker'
    if comm.startswith('<idle>'):
        return 'idle'
    return re.sub(r'/\d+$', '', comm)


def scheduler_file(text):
    """`queue/scheduler` as (current, [every scheduler in the order printed]): 6.1 prints
    "[mq-deadline] kyber bfq none", 6.12 "none [mq-deadline] kyber bfq" (elv_iosched_show lists
    none first since 6.4-ish; the brackets mark the current one in both)."""
    names, cur = [], None
    for w in (text or '').split():
        if w.startswith('[') and w.endswith(']'):
            w = w[1:-1]
            cur = w
        names.append(w)
    return cur, names


def read_sections(path):
    """Yields the boot's header, queue dumps and per-job raw sections."""
    boot = dict(queues={}, card={}, jobs=[], skipped=[], insmod_failed=[], sched_failed=[])
    cur = None  # a job being read
    mode = None
    q = None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('=== '):
            w = line.split()
            tag = w[1]
            if tag == 'UNAME':
                boot['uname'] = line[len('=== UNAME '):]
            elif tag == 'NPROC':
                boot['vcpus'] = int(w[2])
            elif tag == 'SET':
                boot['set'] = w[2]
                boot['device'] = w[3].split('=')[1]
            elif tag == 'AVAILABLE-SCHEDULERS':
                boot['available_schedulers'] = line.split(' ', 2)[2].strip()
                boot['default_scheduler'], boot['schedulers_listed'] = \
                    scheduler_file(boot['available_schedulers'])
            elif tag == 'INSMOD-FAILED':
                boot['insmod_failed'] += w[2:]
            elif tag == 'SCHED-FAILED':
                boot['sched_failed'].append(w[2])
            elif tag == 'CARD':
                mode = 'card'
            elif tag == 'QUEUE':
                q = boot['queues'].setdefault(w[2], dict(queue={}, iosched={}))
                mode = 'queue'
            elif tag == 'SKIP':
                boot['skipped'].append(dict(name=w[2], sched=w[3].split('=')[1], why=' '.join(w[4:])))
            elif tag == 'JOB':
                cur = dict(name=w[2], sched=w[3].split('=')[1], args=line.split('args: ', 1)[1],
                           fio=[], trace=[], stderr=[])
                boot['jobs'].append(cur)
                mode = None
            elif tag == 'IRQS' and cur is not None:
                cur['irqs'] = int(w[2])
            elif tag in ('STAT-BEFORE', 'STAT-AFTER') and cur is not None:
                cur[tag] = [int(x) for x in w[2:]]
            elif tag == 'FIO' and cur is not None:
                cur['fio_rc'] = int(w[2].split('=')[1])
                mode = 'fio'
            elif tag == 'FIO-STDERR':
                mode = 'stderr'
            elif tag == 'TRACE':
                mode = 'trace'
            elif tag in ('ENDTRACE', 'ENDFIO', 'ENDFIO-STDERR', 'ENDQUEUE', 'ENDCARD'):
                mode = None
            elif tag == 'END':
                boot['complete'] = True
            continue
        if mode == 'card':
            if line.startswith('d '):
                k, _, v = line[2:].partition(' = ')
                boot['card'][k] = v
        elif mode == 'queue' and line[:2] in ('q ', 'i '):
            k, _, v = line[2:].partition(' = ')
            q['queue' if line[0] == 'q' else 'iosched'][k] = num(v)
        elif mode == 'fio':
            cur['fio'].append(line)
        elif mode == 'stderr':
            cur['stderr'].append(line)
        elif mode == 'trace':
            cur['trace'].append(line)
    return boot


def num(v):
    v = v.strip()
    return int(v) if re.fullmatch(r'-?\d+', v) else v


def fio_result(lines):
    """fio's own result: per direction IOPS, KiB/s, mean completion latency (us), I/O count."""
    try:
        j = json.loads('\n'.join(lines))['jobs'][0]
    except (ValueError, KeyError, IndexError):
        return None, 0
    out, ios = {}, 0
    for d in ('read', 'write', 'trim'):
        r = j.get(d, {})
        if r.get('total_ios'):
            ios += r['total_ios']
            out[d] = dict(ios=r['total_ios'], iops=round(r['iops'], 1), bw_kib=r['bw'],
                          clat_mean_us=round(r['clat_ns']['mean'] / 1000, 1))
    s = j.get('sync', {})
    if s.get('total_ios'):
        out['sync'] = dict(ios=s['total_ios'], lat_mean_us=round(s['lat_ns']['mean'] / 1000, 1))
    return out, ios


def facts_of(job):
    c = collections.Counter()
    bio_sizes, bio_rwbs = collections.Counter(), collections.Counter()
    rq_sizes, rq_rwbs, ctx = collections.Counter(), collections.Counter(), collections.Counter()
    ctx_op, ioprio, requeue_ctx = collections.Counter(), collections.Counter(), collections.Counter()
    tasks = collections.defaultdict(set)  # kind -> the pids of that kind that issued
    unplug, mmc, mmc_blocks = collections.Counter(), collections.Counter(), collections.Counter()
    inflight = maxinf = mmcinf = maxmmc = 0
    sched = collections.Counter()  # start sector -> requests inserted and not yet issued
    insched = maxsched = 0
    last_data = None  # 'write' or 'read': the previous mmc request moved data that way
    lost = 0
    first = last = None
    for line in job['trace']:
        if line.startswith('# entries-in-buffer/entries-written:'):
            a, b = line.split(':')[1].split()[0].split('/')
            lost = int(b) - int(a)
            continue
        m = LINE.match(line)
        if not m:
            continue
        comm, pid, _, _, ts, ev, rest = m.groups()
        if ev == 'tracing_mark_write':
            continue
        ts = float(ts)
        first = ts if first is None else first
        last = ts
        if ev in ('block_plug',):
            c['plugs'] += 1
        elif ev == 'block_unplug':
            c['unplugs'] += 1
            unplug[rest.split()[-1]] += 1
        elif ev == 'block_split':  # "179,0 WS 0 / 1024 [fio]": sector / where the rest starts
            c['splits'] += 1
        elif ev.startswith('block_'):
            b = BLK.match(rest)
            if not b:
                c['unparsed_events'] += 1
                continue
            _, rwbs, nbytes, _, sector, nsec, prio = b.groups()
            op, pre, fua, _ = rwbs_parts(rwbs)
            size = int(nbytes) if nbytes is not None else int(nsec) * 512
            if ev == 'block_bio_queue':
                c['bios'] += 1
                c['bios_by_fio'] += comm.strip() == 'fio'
                bio_sizes['%s %d' % (op, size)] += 1
                bio_rwbs[rwbs] += 1
                c['flush_bios'] += pre and size == 0
                c['fua_bios'] += fua
            elif ev == 'block_getrq':
                c['getrq'] += 1
            elif ev == 'block_bio_backmerge':
                c['merges_back'] += 1
            elif ev == 'block_bio_frontmerge':
                c['merges_front'] += 1
            elif ev == 'block_rq_merge':
                c['rq_merges'] += 1
                if sched[sector]:
                    sched[sector] -= 1
                    insched -= 1
            elif ev == 'block_rq_insert':
                c['inserts'] += 1
                sched[sector] += 1
                insched += 1
                maxsched = max(maxsched, insched)
            elif ev == 'block_rq_issue':
                if sched[sector]:
                    sched[sector] -= 1
                    insched -= 1
                inflight += 1
                maxinf = max(maxinf, inflight)
                kind = comm_class(comm.strip())
                ctx[kind] += 1
                ctx_op['%s %s' % (op, kind)] += 1
                tasks[kind].add(pid)
                if prio:
                    ioprio[prio] += 1
                rq_rwbs[rwbs] += 1
                if op == 'F':
                    c['flushes'] += 1
                else:
                    c['requests'] += 1
                    rq_sizes['%s %d' % (op, size)] += 1
                    c['preflush_data'] += pre
                    c['fua_writes'] += fua
                    c['discards'] += op in ('D', 'DE')
            elif ev == 'block_rq_complete':
                c['completes'] += 1
                inflight = max(0, inflight - 1)
                if not rest.rstrip().endswith('[0]'):
                    c['complete_errors'] += 1
            elif ev == 'block_rq_requeue':
                c['requeues'] += 1
                requeue_ctx[comm_class(comm.strip())] += 1
                inflight = max(0, inflight - 1)
        elif ev == 'mmc_request_start':
            d = dict(KV.findall(rest))
            op, blocks = int(d['cmd_opcode']), int(d['blocks'])
            mmc['CMD%d' % op] += 1
            if int(d.get('sbc_opcode', 0)):
                mmc['CMD%d' % int(d['sbc_opcode'])] += 1
            if blocks and int(d.get('stop_opcode', 0)):
                mmc['CMD%d' % int(d['stop_opcode'])] += 1
            if blocks:
                mmc_blocks['CMD%d %d' % (op, blocks)] += 1
            if op == 13 and last_data:
                c['cmd13_after_' + last_data] += 1
            if op != 13:
                last_data = ('write' if op in (24, 25) else 'read') if blocks else None
            mmcinf += 1
            maxmmc = max(maxmmc, mmcinf)
        elif ev == 'mmc_request_done':
            mmcinf = max(0, mmcinf - 1)
            d = dict(KV.findall(rest))
            if d.get('cmd_err', '0') != '0' or d.get('data_err', '0') != '0':
                c['mmc_errors'] += 1
    diskstats = {}
    if 'STAT-BEFORE' in job and 'STAT-AFTER' in job:
        for i, n in enumerate(STAT_NAMES):
            if n and i < len(job['STAT-AFTER']):
                diskstats[n] = job['STAT-AFTER'][i] - job['STAT-BEFORE'][i]
    fio, fio_ios = fio_result(job['fio'])
    facts = dict(
        fio_ios=fio_ios, bios=c['bios'], bios_by_fio=c['bios_by_fio'], bio_sizes=dict(bio_sizes),
        bio_rwbs=dict(bio_rwbs), flush_bios=c['flush_bios'], fua_bios=c['fua_bios'],
        splits=c['splits'], getrq=c['getrq'], inserts=c['inserts'], requests=c['requests'],
        request_sizes=dict(rq_sizes), request_rwbs=dict(rq_rwbs), merges_back=c['merges_back'],
        merges_front=c['merges_front'], rq_merges=c['rq_merges'], requeues=c['requeues'],
        flushes=c['flushes'], preflush_data=c['preflush_data'], fua_writes=c['fua_writes'],
        discards=c['discards'], completes=c['completes'], complete_errors=c['complete_errors'],
        issue_ctx=dict(ctx), issue_ctx_by_op=dict(ctx_op),
        issue_tasks={k: len(v) for k, v in tasks.items()}, requeue_ctx=dict(requeue_ctx),
        issue_ioprio={k: v for k, v in ioprio.items() if v}, max_inflight_driver=maxinf, max_in_sched=maxsched,
        plugs=c['plugs'], unplugs=c['unplugs'], unplug_depths=dict(unplug), mmc_cmds=dict(mmc),
        mmc_data_blocks=dict(mmc_blocks), cmd13_after_write=c['cmd13_after_write'],
        cmd13_after_read=c['cmd13_after_read'], mmc_max_inflight=maxmmc,
        mmc_errors=c['mmc_errors'], host_irqs=job.get('irqs'), diskstats=diskstats,
        lost_events=lost, unparsed_events=c['unparsed_events'])
    measured = dict(fio=fio, fio_rc=job.get('fio_rc'),
                    trace_span_ms=round((last - first) * 1000, 1) if first is not None else None)
    if job['stderr']:
        measured['fio_stderr'] = job['stderr'][:5]
    return facts, measured


def reduce(path):
    boot = read_sections(path)
    jobs = []
    for j in boot['jobs']:
        facts, measured = facts_of(j)
        jobs.append(dict(name=j['name'], sched=j['sched'], args=j['args'], facts=facts,
                         measured=measured))
    head = {k: v for k, v in boot.items() if k != 'jobs'}
    head['complete'] = boot.get('complete', False)
    return dict(boot=head, jobs=jobs), boot


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    out, boot = reduce(argv[1])
    if not out['boot']['complete']:
        sys.exit('reduce.py: %s has no "=== END": the boot did not finish' % argv[1])
    with open(argv[2], 'w') as f:
        json.dump(out, f, indent=1, sort_keys=True)
    if '--traces' in argv:
        d = argv[argv.index('--traces') + 1]
        os.makedirs(d, exist_ok=True)
        sets = job_sets()
        for j in boot['jobs']:
            if 'trace' in sets.get(j['name'], []):
                with open(os.path.join(d, '%s-%s.txt' % (j['name'], j['sched'])), 'w') as f:
                    f.write('# oracle ftrace: job %s, scheduler %s, %s vCPU, device %s, kernel %s\n'
                            '# fio %s\n' % (j['name'], j['sched'], boot.get('vcpus'),
                                            boot.get('device'), boot.get('uname'), j['args']))
                    f.write('\n'.join(j['trace']) + '\n')
    bad = [j['name'] + '/' + j['sched'] for j in out['jobs']
           if j['measured']['fio_rc'] != 0 or j['facts']['lost_events']]
    print('[oracle] %s: %d job runs reduced%s' % (argv[1], len(out['jobs']),
          ('; fio failed or events lost: ' + ' '.join(bad)) if bad else ''))


if __name__ == '__main__':
    main(sys.argv)
