#!/usr/bin/env bash
# `make oracle-check`: for each kernel (Linux 6.1 and 6.12, oracle/config.sh), boots it once
# (SD card, 1 vCPU) with the jobs of oracle/jobs.txt whose sets name `check`, under none and
# mq-deadline, reduces the trace and compares every stable fact with that kernel's
# sd-1cpu.json (oracle/fixtures/ for 6.1, oracle/fixtures/linux-6.12/ for 6.12; check.py).
# The two kernels boot side by side (one TCG thread each on the 2 cores), about a minute and a
# half of QEMU; each kernel's report is printed when both are done. ORACLE_KERNEL=6.12 checks
# one kernel only. Before the boots, oracle/replay.py reduces the kept traces of both kernels
# again (offline, a second).
# A drift of a job's stable facts alone (no queue file, scheduler or fio failure) boots those
# jobs a second time: TCG's timing under load can move a fact ten boots agreed on (CI once saw
# b_write1m/mq-deadline with 1 request in the driver, not 2), and a drift the kernel gives
# twice in a row is a drift. The check passes on a second boot with no drift and prints how to
# fold the first boot into the fixture (oracle/fixtures.py observe).
# Without the tools it says what is missing (oracle/install.sh --check) and exits 1; it never
# installs anything and needs no network.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
if [[ -z ${ORACLE_KERNEL:-} ]]; then
    if ! oracle/install.sh --check >/dev/null; then
        oracle/install.sh --check >&2 || true
        echo "oracle-check: the oracle's tools are missing (make oracle, or scripts/setup.sh --browser, installs them)" >&2
        exit 1
    fi
    # The reducer first, offline: the kept kernel traces must reduce to the fixtures' facts again.
    python3 oracle/replay.py
    logs=$(mktemp -d)
    pids=() status=0
    echo "oracle-check: Linux 6.1 and 6.12 boot side by side ($(date -u +%H:%M:%S))"
    for k in 6.1 6.12; do
        ORACLE_KERNEL=$k ORACLE_REPLAYED=1 oracle/check.sh >"$logs/$k" 2>&1 &
        pids+=($!)
    done
    for i in 0 1; do wait "${pids[$i]}" || status=1; done
    for k in 6.1 6.12; do echo "=== Linux $k"; cat "$logs/$k"; done
    rm -rf "$logs"
    echo "oracle-check: both kernels $( ((status == 0)) && echo "as recorded" || echo "DRIFTED (above)"), $(( $(date +%s) - t0 ))s"
    exit $status
fi
. oracle/config.sh
SCHEDS=${ORACLE_CHECK_SCHEDS:-none,mq-deadline}
if ! oracle/install.sh --check >/dev/null; then
    oracle/install.sh --check >&2 || true
    echo "oracle-check: the oracle's tools are missing (make oracle, or scripts/setup.sh --browser, installs them)" >&2
    exit 1
fi
[[ -f $FIXTURES/sd-1cpu.json ]] || { echo "oracle-check: no $FIXTURES/sd-1cpu.json (record it: ORACLE_KERNEL=$ORACLE_KERNEL make oracle)" >&2; exit 1; }
[[ -n ${ORACLE_REPLAYED:-} ]] || python3 oracle/replay.py "$FIXTURES"
oracle/initramfs.sh >/dev/null
OUT=$WORK/check
oracle/boot.sh "$OUT" sd 1 check "$SCHEDS"
want=$(( $(grep -v '^#' oracle/jobs.txt | awk '$2 ~ /(^|,)check(,|$)/' | wc -l) * $(tr , '\n' <<<"$SCHEDS" | wc -l) ))
got=$(grep -c '^=== JOB ' "$OUT/trace.log" || true)
(( got == want )) || { echo "oracle-check: the guest ran $got job runs, the check set has $want" >&2; exit 1; }
python3 oracle/reduce.py "$OUT/trace.log" "$OUT/facts.json" >/dev/null
status=0
python3 oracle/check.py "$FIXTURES/sd-1cpu.json" "$OUT/facts.json" --drifted "$OUT/drifted" || status=$?
if (( status != 0 )) && [[ -s $OUT/drifted ]]; then
    jobs=$(paste -sd, "$OUT/drifted")
    echo "oracle-check: a second boot of $jobs: a drift must come back to count"
    AGAIN=$WORK/check-again
    oracle/boot.sh "$AGAIN" sd 1 check "$SCHEDS" "$jobs"
    python3 oracle/reduce.py "$AGAIN/trace.log" "$AGAIN/facts.json" >/dev/null
    status=0
    python3 oracle/check.py "$FIXTURES/sd-1cpu.json" "$AGAIN/facts.json" || status=$?
    if (( status == 0 )); then
        echo "oracle-check: the second boot gave every stable fact as recorded: the first boot's" \
             "drift was the emulator's timing; fold it into the fixture with:" \
             "python3 oracle/fixtures.py observe $FIXTURES/sd-1cpu.json $OUT/facts.json"
    fi
fi
echo "oracle-check: Linux $ORACLE_KERNEL: $(( $(date +%s) - t0 ))s"
exit $status
