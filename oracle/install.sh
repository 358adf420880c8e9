#!/usr/bin/env bash
# The kernel oracle's tools: checks for them, installs what is missing, or (with --check) only
# says what is missing. Debian packages: qemu-system-x86, fio, busybox-static, cpio, kmod (and
# xz-utils for 6.12's compressed modules); and the kernels (oracle/config.sh): the package
# linux-image-$KVER, fetched with `apt-get download` from Debian's registry and unpacked with
# `dpkg-deb -x` into $ORACLE_KERNEL_DIR (not installed: the machine keeps its own kernel), then
# `depmod` on the unpacked tree. 6.1 is Debian 12's (the machine's own apt sources name it);
# 6.12 is Debian 13's (trixie): its package lists come from a private sources list in
# ~/.cache/mmcsim-oracle/apt-trixie/ (apt-get -o Dir::Etc::sourcelist=... with its own lists
# and cache folders), so the machine's apt set-up is not changed.
#
#   oracle/install.sh           install what is missing (apt; needs the network the first time)
#   oracle/install.sh --check   exit 0 if everything is present, else name what is missing, exit 1
#   oracle/install.sh --quiet-check   the same, silent (make test uses it to decide)
# Both kernels unless ORACLE_KERNEL names one (make oracle-check checks both).
#
# The kernel goes outside target/ (default ~/.cache/mmcsim-oracle/) so that `cargo clean` does not
# throw away a 70-110 MB download, and every worktree of the project shares one copy.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${ORACLE_KERNEL:-} ]]; then
    rc=0
    for k in 6.1 6.12; do ORACLE_KERNEL=$k oracle/install.sh "$@" || rc=1; done
    exit $rc
fi
. oracle/config.sh

MODE=install
case "${1:-}" in
    --check) MODE=check ;;
    --quiet-check) MODE=quiet ;;
    "") ;;
    *) echo "usage: oracle/install.sh [--check|--quiet-check]" >&2; exit 2 ;;
esac
say() { [[ $MODE == quiet ]] || printf '[oracle-install] %s\n' "$*"; }

# The host commands and the package that brings each (busybox must be the static build: it runs
# inside the guest with nothing else).
missing_pkgs() {
    local out=()
    command -v qemu-system-x86_64 >/dev/null || out+=(qemu-system-x86)
    command -v fio >/dev/null || out+=(fio)
    [[ -x /bin/busybox ]] && ! ldd /bin/busybox >/dev/null 2>&1 || out+=(busybox-static)
    command -v cpio >/dev/null || out+=(cpio)
    [[ -n $APT_SUITE ]] && ! command -v xz >/dev/null && out+=(xz-utils)
    [[ -x /sbin/depmod || -x /usr/sbin/depmod ]] || out+=(kmod)
    echo "${out[*]:-}"
}
kernel_present() { [[ -f $KDIR/boot/vmlinuz-$KVER && -f $KDIR/PACKAGE_VERSION \
                      && ( -f $KDIR/lib/modules/$KVER/modules.dep
                           || -f $KDIR/usr/lib/modules/$KVER/modules.dep ) ]]; }

pkgs=$(missing_pkgs)
if [[ $MODE != install ]]; then
    kernel_present || kmiss="the kernel package linux-image-$KVER unpacked in $KDIR"
    if [[ -z $pkgs && -z ${kmiss:-} ]]; then
        say "present: qemu-system-x86 fio busybox-static cpio kmod, kernel $KVER ($(cat "$KDIR/PACKAGE_VERSION"))"
        exit 0
    fi
    [[ -n $pkgs ]] && say "missing Debian packages: $pkgs (make oracle installs them: apt-get install $pkgs)"
    [[ -n ${kmiss:-} ]] && say "missing: ${kmiss} (make oracle or scripts/setup.sh --browser fetches it)"
    exit 1
fi

sudo=""
(( EUID != 0 )) && sudo="sudo"
updated=0
apt_update() { (( updated )) || { $sudo apt-get update >/dev/null 2>&1 || true; updated=1; }; }

# Reports, on failure, exactly what could not be had and why, then exits non-zero.
fail() {
    local still
    still=$(missing_pkgs)
    kernel_present || still="${still:+$still }linux-image-$KVER (unpacked in $KDIR)"
    rm -rf "$KDIR.download" "$KDIR.part"
    echo "[oracle-install] $1" >&2
    echo "[oracle-install] missing: $still" >&2
    echo "[oracle-install] (no network? on a machine with it: apt-get install qemu-system-x86 fio" \
         "busybox-static cpio kmod; apt-get download linux-image-$KVER; then here" \
         "dpkg-deb -x linux-image-${KVER}_*.deb $KDIR and put its version in $KDIR/PACKAGE_VERSION)" >&2
    exit 1
}

if [[ -n $pkgs ]]; then
    say "installing Debian packages: $pkgs"
    apt_update
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $pkgs \
        || fail "apt-get install $pkgs failed (no network, or no Debian package lists?)"
    pkgs=$(missing_pkgs)
    [[ -z $pkgs ]] || fail "after apt-get install, still no: $pkgs"
else
    say "packages: present (qemu-system-x86 fio busybox-static cpio kmod)"
fi

if kernel_present; then
    say "kernel $KVER: present in $KDIR ($(cat "$KDIR/PACKAGE_VERSION"))"
else
    say "fetching the kernel package linux-image-$KVER into $KDIR"
    dl="$KDIR.download"
    rm -rf "$dl" "$KDIR"; mkdir -p "$dl"
    if [[ -n $APT_SUITE ]]; then
        # A private sources list naming Debian's $APT_SUITE, with its own lists and cache: apt's
        # own configuration and the machine's package lists stay as they are.
        A=$ORACLE_CACHE/apt-$APT_SUITE
        mkdir -p "$A/lists/partial" "$A/cache/archives/partial"
        echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $APT_SUITE main" \
            >"$A/sources.list"
        aptx=(-o "Dir::Etc::sourcelist=$A/sources.list" -o Dir::Etc::sourceparts=/dev/null
              -o "Dir::State::Lists=$A/lists" -o "Dir::Cache=$A/cache")
        apt-get "${aptx[@]}" update >"$dl/update.log" 2>&1 \
            || fail "apt-get update of the private $APT_SUITE list failed: $(tail -n 2 "$dl/update.log" | tr '\n' ' ')"
        (cd "$dl" && apt-get "${aptx[@]}" download "linux-image-$KVER" >download.log 2>&1) \
            || fail "apt-get download linux-image-$KVER ($APT_SUITE) failed: $(tail -n 2 "$dl/download.log" | tr '\n' ' ')"
    elif ! (cd "$dl" && apt-get download "linux-image-$KVER" >download.log 2>&1); then
        apt_update
        (cd "$dl" && apt-get download "linux-image-$KVER" >download.log 2>&1) \
            || fail "apt-get download linux-image-$KVER failed: $(tail -n 2 "$dl/download.log" | tr '\n' ' ')"
    fi
    deb=$(ls "$dl"/linux-image-"$KVER"_*.deb)
    dpkg-deb -x "$deb" "$KDIR.part" || fail "dpkg-deb -x $deb failed"
    dpkg-deb -f "$deb" Version >"$KDIR.part/PACKAGE_VERSION"
    depmod=$(command -v depmod || echo /sbin/depmod)
    # Debian 13's modules are under usr/lib/modules/; Debian 12's depmod looks in lib/modules/.
    [[ -d $KDIR.part/lib || ! -d $KDIR.part/usr/lib/modules ]] || ln -s usr/lib "$KDIR.part/lib"
    "$depmod" -b "$KDIR.part" "$KVER" || fail "depmod on the unpacked kernel failed"
    mv "$KDIR.part" "$KDIR"
    rm -rf "$dl"
    say "kernel $KVER ($(cat "$KDIR/PACKAGE_VERSION")) unpacked in $KDIR"
fi
