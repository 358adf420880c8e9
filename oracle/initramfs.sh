#!/usr/bin/env bash
# Builds $WORK/initramfs.cpio, the oracle guest's whole root: busybox-static, the host's fio with
# every shared library ldd names, oracle/guest-init.sh as /init, oracle/jobs.txt, and the kernel
# modules the runs need (SDHCI + mmc, virtio-blk, the kyber and bfq schedulers, virtio_console) with everything
# they depend on, in load order (read from the unpacked kernel's modules.dep), as /mods/order.
# A module the kernel has built in (modules.builtin: 6.12 builds virtio_pci and virtio_console
# in) is left out; a compressed one (6.12's .ko.xz) is decompressed (busybox insmod reads .ko).
# Takes about a second; oracle/record.sh and oracle/check.sh run it before every boot so the
# guest always runs the suite as it is in the work tree.
set -euo pipefail
cd "$(dirname "$0")/.."
. oracle/config.sh

WANT="kernel/drivers/mmc/host/sdhci-pci.ko kernel/drivers/mmc/core/mmc_block.ko
kernel/drivers/block/virtio_blk.ko kernel/drivers/virtio/virtio_pci.ko
kernel/block/kyber-iosched.ko kernel/block/bfq.ko kernel/drivers/char/virtio_console.ko"
[[ -f $MODDIR/modules.dep ]] || { echo "[oracle] no unpacked kernel in $KDIR: run oracle/install.sh" >&2; exit 1; }

R=$WORK/initramfs-root
mkdir -p "$WORK"
rm -rf "$R"
mkdir -p "$R"/{bin,sbin,usr/bin,proc,sys,dev,tmp,mods,etc}
cp /bin/busybox "$R/bin/busybox"
for a in $(/bin/busybox --list); do [[ $a == busybox ]] || ln -sf busybox "$R/bin/$a"; done
fio=$(command -v fio)
cp "$fio" "$R/usr/bin/fio"
for l in $(ldd "$fio" | awk '/=>/ { print $3 } /ld-linux/ { print $1 }'); do
    mkdir -p "$R$(dirname "$l")"
    cp -L "$l" "$R$l"
done

# Dependency closure, depth first, so that each module comes after what it needs.
declare -A seen=()
order=()
add() {
    local m=$1 d
    [[ -n ${seen[$m]:-} ]] && return
    seen[$m]=1
    for d in $(awk -v m="$m:" '$1 == m { $1 = ""; print }' "$MODDIR/modules.dep"); do add "$d"; done
    order+=("$m")
}
for m in $WANT; do
    if grep -q "^$m.xz:" "$MODDIR/modules.dep"; then add "$m.xz"
    elif grep -q "^$m:" "$MODDIR/modules.dep"; then add "$m"
    elif grep -qx "$m" "$MODDIR/modules.builtin"; then :
    else echo "[oracle] $m: neither a module nor built in ($MODDIR)" >&2; exit 1; fi
done
: >"$R/mods/order"
for m in "${order[@]}"; do
    b=$(basename "$m" .xz)
    if [[ $m == *.xz ]]; then xz -dc "$MODDIR/$m" >"$R/mods/$b"; else cp "$MODDIR/$m" "$R/mods/"; fi
    echo "$b" >>"$R/mods/order"
done

cp oracle/guest-init.sh "$R/init"
chmod +x "$R/init"
cp oracle/jobs.txt "$R/jobs.txt"
(cd "$R" && find . | cpio -o -H newc --quiet) >"$WORK/initramfs.cpio"
rm -rf "$R"
echo "[oracle] initramfs: $WORK/initramfs.cpio ($(( $(stat -c %s "$WORK/initramfs.cpio") / 1024 )) KiB;" \
     "kernel $KVER; modules: ${order[*]##*/})"
