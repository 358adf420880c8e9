#!/usr/bin/env bash
# `make oracle`: installs what is missing (oracle/install.sh), builds the initramfs, boots the
# kernel for every suite twice, reduces the traces and rewrites the kernel's fixtures: Linux 6.1
# in oracle/fixtures/, then Linux 6.12 in oracle/fixtures/linux-6.12/ (oracle/config.sh).
#
#   oracle/record.sh                 everything, both kernels (about 20 min a kernel here)
#   ORACLE_KERNEL=6.12 oracle/record.sh   one kernel
#   oracle/record.sh --reduce-only   only the reduction of the runs already in $WORK/runs/
#
# The suites (each booted twice: two runs tell the timing-free facts from the others):
#   sd-1cpu     the SD card, 1 vCPU, jobs of set sd, schedulers none mq-deadline kyber bfq
#   sd-2cpu     the same with 2 vCPUs
#   virtio-1cpu virtio-blk with a write-back cache, 1 vCPU, jobs of set vblk, all four
#   prio-1cpu   (6.12 only) the SD card, 1 vCPU, jobs of set prio (fio's priority options),
#               none mq-deadline bfq: the priority each request carries (printed from 6.11)
# and three more boots of make oracle-check's own (set check, none and mq-deadline), whose
# facts must also agree for a fact of sd-1cpu to be called stable: the check compares those.
# Boots run side by side (the machine has 2 cores; QEMU's TCG thread is one per vCPU).
# The fixtures being replaced are kept in $WORK/previous/ first: if the same kernel package and
# QEMU made them, a fact they mark unstable stays unstable (--reduce-only uses the same copy).
# ORACLE_SUITES="sd-1cpu virtio-1cpu" records only those.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${ORACLE_KERNEL:-} ]]; then
    for k in 6.1 6.12; do ORACLE_KERNEL=$k oracle/record.sh "$@"; done
    exit 0
fi
. oracle/config.sh
SCHEDS=none,mq-deadline,kyber,bfq
CHECK_SCHEDS=none,mq-deadline
SUITES=${ORACLE_SUITES:-sd-1cpu virtio-1cpu sd-2cpu}
# The priority suite on the kernels that print a request's priority (6.11 on).
[[ -z ${ORACLE_SUITES:-} && $ORACLE_KERNEL == 6.12 ]] && SUITES+=" prio-1cpu"
RUNS=$WORK/runs
t0=$(date +%s)

suite_args() {  # suite -> DEVICE VCPUS SET SCHEDULERS RUNS
    case $1 in
        sd-1cpu) echo "sd 1 sd $SCHEDS a b" ;;
        sd-2cpu) echo "sd 2 sd $SCHEDS a b" ;;
        virtio-1cpu) echo "vblk 1 vblk $SCHEDS a b" ;;
        check) echo "sd 1 check $CHECK_SCHEDS c1 c2 c3" ;;
        prio-1cpu) echo "sd 1 prio none,mq-deadline,bfq a b" ;;
        *) echo "unknown suite $1" >&2; exit 2 ;;
    esac
}
boots() {  # suite: its boots, side by side
    local dev vcpus set scheds r pids=() rc=0
    read -r dev vcpus set scheds runs < <(suite_args "$1")
    echo "[oracle] $1: boots $runs side by side ($(date -u +%H:%M:%S))"
    for r in $runs; do
        oracle/boot.sh "$RUNS/$1-$r" "$dev" "$vcpus" "$set" "$scheds" &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || rc=1; done
    return $rc
}

if [[ ${1:-} != --reduce-only ]]; then
    oracle/install.sh
    oracle/initramfs.sh
    mkdir -p "$RUNS"
    # The fixtures being replaced: their unstable facts stay unstable (fixtures.py --previous).
    rm -rf "$WORK/previous"
    mkdir -p "$WORK/previous"
    cp "$FIXTURES"/*.json "$WORK/previous/" 2>/dev/null || true
    for s in $SUITES; do boots "$s"; done
    [[ " $SUITES " == *" sd-1cpu "* ]] && boots check
fi

# Versions for the fixtures' header.
QEMU_V=$(qemu-system-x86_64 --version | head -n 1)
FIO_V=$(fio --version)
PKG_V=$(cat "$KDIR/PACKAGE_VERSION")
mkdir -p "$FIXTURES/traces"
reduce() { python3 oracle/reduce.py "$RUNS/$1/trace.log" "$RUNS/$1/facts.json" --traces "$RUNS/$1/traces"; }
for s in $SUITES; do
    reduce "$s-a"
    reduce "$s-b"
    more=()
    if [[ $s == sd-1cpu ]]; then
        for r in c1 c2 c3; do
            [[ -f $RUNS/check-$r/trace.log ]] && reduce "check-$r" && more+=("$RUNS/check-$r/facts.json")
        done
    fi
    python3 oracle/fixtures.py merge "$s" "$RUNS/$s-a/facts.json" "$RUNS/$s-b/facts.json" \
        ${more[@]+"${more[@]}"} --package "linux-image-$KVER $PKG_V" --qemu "$QEMU_V" \
        --fio "$FIO_V" --previous "$WORK/previous/$s.json" --out "$FIXTURES/$s.json"
    # The raw ftrace text of the trace jobs under mq-deadline, 1 vCPU, first boot.
    if [[ $s == *-1cpu ]]; then
        for f in "$RUNS/$s-a/traces"/*mq-deadline*.txt; do
            [[ -f $f ]] && cp "$f" "$FIXTURES/traces/${s%-1cpu}-$(basename "$f")"
        done
    fi
done
python3 oracle/fixtures.py table "$FIXTURES"/*.json >"$FIXTURES/FIGURES.md"
# The two kernels side by side, when both have fixtures in their usual folders.
if [[ -z ${ORACLE_FIXTURES:-} && -f oracle/fixtures/sd-1cpu.json && -f oracle/fixtures/linux-6.12/sd-1cpu.json ]]; then
    python3 oracle/kernels.py oracle/fixtures oracle/fixtures/linux-6.12 >oracle/fixtures/KERNELS.md
fi
echo "[oracle] fixtures rewritten in $FIXTURES (figures: $FIXTURES/FIGURES.md) in $(( $(date +%s) - t0 ))s"
