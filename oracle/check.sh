#!/usr/bin/env bash
# `make oracle-check`: boots the kernel once (SD card, 1 vCPU) with the jobs of oracle/jobs.txt
# whose sets name `check`, under none and mq-deadline, reduces the trace and compares every
# stable fact with oracle/fixtures/sd-1cpu.json (oracle/check.py). About a minute of QEMU.
# Before the boot, oracle/replay.py reduces the kept traces again (offline, a second).
# A drift of a job's stable facts alone (no queue file, scheduler or fio failure) boots those
# jobs a second time: TCG's timing under load can move a fact ten boots agreed on (CI once saw
# b_write1m/mq-deadline with 1 request in the driver, not 2), and a drift the kernel gives
# twice in a row is a drift. The check passes on a second boot with no drift and prints how to
# fold the first boot into the fixture (oracle/fixtures.py observe).
# Without the tools it says what is missing (oracle/install.sh --check) and exits 1; it never
# installs anything and needs no network.
set -euo pipefail
cd "$(dirname "$0")/.."
. oracle/config.sh
SCHEDS=${ORACLE_CHECK_SCHEDS:-none,mq-deadline}
t0=$(date +%s)
if ! oracle/install.sh --check >/dev/null; then
    oracle/install.sh --check >&2 || true
    echo "oracle-check: the oracle's tools are missing (make oracle, or scripts/setup.sh --browser, installs them)" >&2
    exit 1
fi
[[ -f $FIXTURES/sd-1cpu.json ]] || { echo "oracle-check: no $FIXTURES/sd-1cpu.json (record it: make oracle)" >&2; exit 1; }
# The reducer first, offline: the kept kernel traces must reduce to the fixtures' facts again.
python3 oracle/replay.py
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
echo "oracle-check: $(( $(date +%s) - t0 ))s"
exit $status
