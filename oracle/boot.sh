#!/usr/bin/env bash
# One boot of the oracle guest under QEMU (TCG: KVM guests print nothing past the BIOS on these
# machines): Debian's kernel, the initramfs of oracle/initramfs.sh, and the device of the suite.
#
#   oracle/boot.sh OUT DEVICE VCPUS SET SCHEDULERS [JOBS]
#     OUT         folder for trace.log (the guest's virtio serial port), console.log, qemu.log
#     DEVICE      sd:   -device sdhci-pci + -device sd-card on a 4 GiB sparse image (SDHC)
#                 vblk: a virtio-blk disk (1 GiB) with cache=writeback, so the guest sees a
#                       volatile write cache ("write back", fua 0); the SD card has none
#     VCPUS       -smp (1: one TCG thread, the most repeatable; 2: some requests wait)
#     SET         sd, vblk or check: the jobs of oracle/jobs.txt whose SETS name it
#     SCHEDULERS  comma-separated, e.g. none,mq-deadline,kyber,bfq
#     JOBS        optional comma-separated job names (only these of the set)
# The disk image is removed after the boot. The timeout (ORACLE_TIMEOUT, default 2400 s) only
# stops a hung guest; a boot of the full suite takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
. oracle/config.sh

OUT=$1 DEVICE=$2 VCPUS=$3 SET=$4 SCHEDS=$5 JOBS=${6:-}
mkdir -p "$OUT"
rm -f "$OUT"/trace.log "$OUT"/console.log "$OUT"/qemu.log "$OUT"/disk.img
case $DEVICE in
    sd)
        truncate -s 4G "$OUT/disk.img"
        DISK=(-device sdhci-pci -drive "if=none,id=card,file=$OUT/disk.img,format=raw,cache=unsafe"
              -device sd-card,drive=card)
        GUESTDEV=mmcblk0 ;;
    vblk)
        truncate -s 1G "$OUT/disk.img"
        DISK=(-drive "if=none,id=vd,file=$OUT/disk.img,format=raw,cache=writeback"
              -device virtio-blk-pci,drive=vd,num-queues=1)
        GUESTDEV=vda ;;
    *) echo "boot.sh: DEVICE is sd or vblk, not $DEVICE" >&2; exit 2 ;;
esac
# no_timer_check: the kernel's IO-APIC timer check counts ticks against the TSC, and on a
# loaded host TCG misses it ("IO-APIC + timer doesn't work!", a panic at 0.05 s: both boots of
# a recording on 2026-12-06, load 15); it is the usual option for a guest.
APPEND="console=ttyS0 quiet loglevel=4 panic=-1 no_timer_check oracle_dev=$GUESTDEV oracle_set=$SET oracle_sched=$SCHEDS"
[[ -n $JOBS ]] && APPEND+=" oracle_jobs=$JOBS"

start=$(date +%s)
rc=0
timeout "${ORACLE_TIMEOUT:-2400}" qemu-system-x86_64 -accel tcg -m 1024 -smp "$VCPUS" \
    -nographic -no-reboot -nodefaults -vga none \
    -kernel "$KDIR/boot/vmlinuz-$KVER" -initrd "$WORK/initramfs.cpio" -append "$APPEND" \
    -serial "file:$OUT/console.log" -monitor none "${DISK[@]}" \
    -device virtio-serial-pci -chardev "file,id=out,path=$OUT/trace.log" \
    -device virtserialport,chardev=out,name=oracle >"$OUT/qemu.log" 2>&1 || rc=$?
rm -f "$OUT/disk.img"
secs=$(( $(date +%s) - start ))
echo "$secs" >"$OUT/wall_seconds"
# The guest's last line is "=== END uptime=..." ("=== ENDTRACE" and the like do not count).
if (( rc != 0 )) || ! grep -qE '^=== END( |$)' "$OUT/trace.log"; then
    echo "[oracle] boot $OUT: qemu exit $rc after ${secs}s, trace incomplete; qemu.log and console.log end:" >&2
    tail -n 5 "$OUT/qemu.log" "$OUT/console.log" >&2
    exit 1
fi
echo "[oracle] boot $DEVICE vcpus=$VCPUS set=$SET [$SCHEDS]: ${secs}s, $(grep -c '^=== JOB ' "$OUT/trace.log") job runs"
