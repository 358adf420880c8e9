#!/usr/bin/env bash
# `make oracle`: installs what is missing (oracle/install.sh), builds the initramfs, boots the
# kernel for every suite twice, reduces the traces and rewrites oracle/fixtures/.
#
#   oracle/record.sh                 everything (about 30-40 min on a loaded 2-core machine)
#   oracle/record.sh --reduce-only   only the reduction of the runs already in $WORK/runs/
#
# The suites (each booted twice: two runs tell the timing-free facts from the others):
#   sd-1cpu     the SD card, 1 vCPU, jobs of set sd, schedulers none mq-deadline kyber bfq
#   sd-2cpu     the same with 2 vCPUs
#   virtio-1cpu virtio-blk with a write-back cache, 1 vCPU, jobs of set vblk, all four
# Two boots run side by side (the machine has 2 cores; QEMU's TCG thread is one per vCPU).
# ORACLE_SUITES="sd-1cpu virtio-1cpu" records only those.
set -euo pipefail
cd "$(dirname "$0")/.."
. oracle/config.sh
SCHEDS=none,mq-deadline,kyber,bfq
SUITES=${ORACLE_SUITES:-sd-1cpu virtio-1cpu sd-2cpu}
RUNS=$WORK/runs
t0=$(date +%s)

suite_args() {  # suite -> DEVICE VCPUS SET
    case $1 in
        sd-1cpu) echo "sd 1 sd" ;;
        sd-2cpu) echo "sd 2 sd" ;;
        virtio-1cpu) echo "vblk 1 vblk" ;;
        *) echo "unknown suite $1" >&2; exit 2 ;;
    esac
}

if [[ ${1:-} != --reduce-only ]]; then
    oracle/install.sh
    oracle/initramfs.sh
    mkdir -p "$RUNS"
    for s in $SUITES; do
        read -r dev vcpus set < <(suite_args "$s")
        echo "[oracle] $s: two boots side by side ($(date -u +%H:%M:%S))"
        pids=()
        for r in a b; do
            oracle/boot.sh "$RUNS/$s-$r" "$dev" "$vcpus" "$set" "$SCHEDS" &
            pids+=($!)
        done
        for p in "${pids[@]}"; do wait "$p"; done
    done
fi

# Versions for the fixtures' header.
QEMU_V=$(qemu-system-x86_64 --version | head -n 1)
FIO_V=$(fio --version)
PKG_V=$(cat "$KDIR/PACKAGE_VERSION")
mkdir -p "$FIXTURES/traces"
for s in $SUITES; do
    for r in a b; do
        python3 oracle/reduce.py "$RUNS/$s-$r/trace.log" "$RUNS/$s-$r/facts.json" \
            --traces "$RUNS/$s-$r/traces"
    done
    python3 oracle/fixtures.py merge "$s" "$RUNS/$s-a/facts.json" "$RUNS/$s-b/facts.json" \
        --package "linux-image-$KVER $PKG_V" --qemu "$QEMU_V" --fio "$FIO_V" \
        --out "$FIXTURES/$s.json"
    # The raw ftrace text of the trace jobs, 1 vCPU only, first run.
    if [[ $s == *-1cpu ]]; then
        for f in "$RUNS/$s-a/traces"/*mq-deadline*.txt; do
            [[ -f $f ]] && cp "$f" "$FIXTURES/traces/${s%-1cpu}-$(basename "$f")"
        done
    fi
done
python3 oracle/fixtures.py table "$FIXTURES"/*.json >"$WORK/figures.md"
echo "[oracle] fixtures rewritten in $FIXTURES (figures: $WORK/figures.md) in $(( $(date +%s) - t0 ))s"
