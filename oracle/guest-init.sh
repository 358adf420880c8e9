#!/bin/sh
# The guest's /init in the oracle's initramfs (busybox sh): loads the host driver and the I/O
# scheduler modules, then for each scheduler records the block queue's limits and the
# scheduler's tunables, and for each fio job of the suite clears the ftrace ring, enables the
# block:* and mmc:* events, runs fio, and writes fio's JSON result, the host interrupts the job
# took and the trace to the virtio serial port "oracle" (a file on the host: virtio moves a
# 3 MB trace in a blink, a 16550 UART at about 0.4 MB/s under TCG). Powers off at the end.
# Kernel arguments (set by oracle/boot.sh):
#   oracle_dev=mmcblk0|vda  oracle_set=sd|vblk|check  oracle_sched=none,mq-deadline,kyber,bfq
#   oracle_jobs=a,b (optional: only these jobs of the set)
# Every line the host parses starts with "=== " (sections) or is inside a section.
export PATH=/bin:/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mkdir -p /tmp /dev/shm; mount -t tmpfs tmpfs /tmp; mount -t tmpfs tmpfs /dev/shm
log() { echo "$*" > $O; echo "[oracle] $*" > /dev/console; }
arg() { sed -n "s/.*$1=\([A-Za-z0-9_,.-]*\).*/\1/p" /proc/cmdline; }
DEV=$(arg oracle_dev); [ -n "$DEV" ] || DEV=mmcblk0
SET=$(arg oracle_set); [ -n "$SET" ] || SET=sd
SCHEDS=$(arg oracle_sched); [ -n "$SCHEDS" ] || SCHEDS=mq-deadline
ONLY=$(arg oracle_jobs)

# /mods/order lists the modules in dependency order (oracle/initramfs.sh wrote it).
FAILED=""
for m in $(cat /mods/order); do
  insmod /mods/$m > /dev/null 2>&1 || FAILED="$FAILED $m"
done
O=/dev/console
for p in /sys/class/virtio-ports/*; do [ "$(cat $p/name 2>/dev/null)" = oracle ] && O=/dev/${p##*/}; done
[ "$O" != /dev/console ] || echo "[oracle] no virtio port named oracle: output goes to the console" > /dev/console
i=0; while [ ! -b /dev/$DEV ] && [ $i -lt 150 ]; do sleep 0.2; i=$((i+1)); done
[ -b /dev/$DEV ] || { log "=== FATAL no /dev/$DEV (failed modules:$FAILED)"; log "=== END"; poweroff -f; }
log "=== BEGIN uptime=$(cut -d' ' -f1 /proc/uptime)"
log "=== UNAME $(uname -r) | $(uname -v)"
log "=== NPROC $(nproc)"
log "=== SET $SET dev=$DEV scheds=$SCHEDS"
[ -z "$FAILED" ] || log "=== INSMOD-FAILED$FAILED"
log "=== DEVICE-READY after $i polls"
T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
Q=/sys/block/$DEV/queue
log "=== AVAILABLE-SCHEDULERS $(cat $Q/scheduler)"
log "=== CARD"
for f in type name cid csd scr oemid manfid date preferred_erase_size erase_size; do
  [ -f /sys/block/$DEV/device/$f ] && log "d $f = $(cat /sys/block/$DEV/device/$f)"
done
log "d size_sectors = $(cat /sys/block/$DEV/size)"
[ -f /sys/kernel/debug/mmc0/ios ] && sed 's/^/ios /' /sys/kernel/debug/mmc0/ios > $O
log "=== ENDCARD"
DISCARD=$(cat $Q/discard_max_bytes)

# The host interrupts: the /proc/interrupts lines of the SD host (mmc0) or of the tested virtio
# device (virtioN-config, virtioN-req.0), not those of the virtio serial port.
IRQNAME=mmc0
[ "$DEV" = mmcblk0 ] || IRQNAME="$(basename "$(readlink /sys/block/$DEV/device)")-"
log "=== IRQ-LINES $IRQNAME"
irqs() {
  grep -e " $IRQNAME" /proc/interrupts |
    awk '{s=0; for(i=2;i<=NF;i++) if ($i ~ /^[0-9]+$/) s+=$i; else break; t+=s} END {print t+0}'
}
# The events are enabled once, before the first job: enabling a tracepoint patches the kernel's
# text (a static key, through an int3 breakpoint), and with 2 vCPUs under TCG that patching,
# done before every job, once took the guest down (6.12: "Oops: int3" in __schedule on both
# boots of a recording; 6.1 hung). Per job only the ring buffer is cleared and recording
# switched on and off (tracing_on patches nothing).
tsetup() {
  echo 0 > $T/tracing_on
  echo 32768 > $T/buffer_size_kb
  echo > $T/set_event
  for e in block_bio_queue block_getrq block_bio_backmerge block_bio_frontmerge block_split \
           block_rq_merge block_rq_insert block_rq_issue block_rq_complete block_rq_requeue \
           block_plug block_unplug block_bio_complete; do
    echo 1 > $T/events/block/$e/enable 2>/dev/null || log "=== NO-EVENT block/$e"
  done
  [ -d $T/events/mmc ] && echo 1 > $T/events/mmc/enable
}
tron() {
  echo 0 > $T/tracing_on
  echo > $T/trace
  echo 1 > $T/tracing_on
}
dumpq() {
  log "=== QUEUE $SCHED"
  for f in $Q/*; do [ -f $f ] && log "q $(basename $f) = $(cat $f 2>/dev/null)"; done
  for f in $Q/iosched/*; do [ -f $f ] && log "i $(basename $f) = $(cat $f 2>/dev/null)"; done
  log "=== ENDQUEUE"
}
run() { # NAME SETS ARGS...
  name=$1; sets=$2; shift 2
  case ",$sets," in *",$SET,"*) ;; *) return;; esac
  [ -z "$ONLY" ] || case ",$ONLY," in *",$name,"*) ;; *) return;; esac
  case ",$sets," in *",trim,"*)
    [ "$DISCARD" -gt 0 ] || { log "=== SKIP $name sched=$SCHED discard_max_bytes=0"; return; };;
  esac
  tron
  echo "oracle job $name $SCHED" > $T/trace_marker
  log "=== JOB $name sched=$SCHED args: $*"
  i0=$(irqs); s0=$(cat /sys/block/$DEV/stat)
  fio --name=$name --filename=/dev/$DEV --direct=1 --randrepeat=1 --thread=0 \
      --output-format=json --output=/tmp/fio.json "$@" < /dev/null > /tmp/fio.err 2>&1
  rc=$?
  echo 0 > $T/tracing_on
  i1=$(irqs)
  log "=== IRQS $((i1-i0))"
  log "=== STAT-BEFORE $s0"
  log "=== STAT-AFTER $(cat /sys/block/$DEV/stat)"
  log "=== FIO rc=$rc"
  cat /tmp/fio.json > $O
  log "=== ENDFIO"
  [ -s /tmp/fio.err ] && { log "=== FIO-STDERR"; cat /tmp/fio.err > $O; log "=== ENDFIO-STDERR"; }
  log "=== TRACE $name sched=$SCHED"
  cat $T/trace > $O
  log "=== ENDTRACE $name"
}
tsetup
for SCHED in $(echo $SCHEDS | tr , ' '); do
  echo $SCHED > $Q/scheduler 2>/dev/null
  now=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $Q/scheduler)
  [ "$now" = "$SCHED" ] || { log "=== SCHED-FAILED $SCHED (queue says: $(cat $Q/scheduler))"; continue; }
  dumpq
  grep -v '^#' /jobs.txt | while read -r name sets args; do
    [ -n "$name" ] || continue
    # shellcheck disable=SC2086
    run $name $sets $args
  done
done
log "=== INTERRUPTS"; cat /proc/interrupts > $O
log "=== DMESG"; dmesg | tail -n 60 > $O
log "=== END uptime=$(cut -d' ' -f1 /proc/uptime)"
poweroff -f
