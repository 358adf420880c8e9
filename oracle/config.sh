# The kernel oracle's settings, sourced by the other oracle/*.sh scripts (from the repository's
# root). Each may be overridden from the environment.
#   ORACLE_KERNEL      which kernel: 6.1 (default: Debian 12's) or 6.12 (Debian 13's)
#   ORACLE_KVER        the Debian kernel ABI name; the package is linux-image-$ORACLE_KVER
#   ORACLE_KERNEL_DIR  where that package is unpacked (outside target/: cargo clean keeps it)
#   ORACLE_WORK        initramfs, disk images, raw runs (ignored by git)
#   ORACLE_FIXTURES    the fixtures folder (oracle/fixtures for 6.1, oracle/fixtures/linux-6.12
#                      for 6.12; another to try the check on)
# The two kernels, each the package its Debian release's linux-image-amd64 points to:
#   6.1   linux-image-6.1.0-57-amd64      Debian 12 (bookworm): the machine's own apt sources
#   6.12  linux-image-6.12.117+deb13-amd64  Debian 13 (trixie): a private sources list
#         ($APT_SUITE, oracle/install.sh), so the machine's apt set-up is not changed
ORACLE_KERNEL=${ORACLE_KERNEL:-6.1}
ORACLE_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/mmcsim-oracle
case $ORACLE_KERNEL in
    6.1) KVER=${ORACLE_KVER:-6.1.0-57-amd64}; APT_SUITE=""
         _work=$PWD/target/oracle; _fix=$PWD/oracle/fixtures ;;
    6.12) KVER=${ORACLE_KVER:-6.12.117+deb13-amd64}; APT_SUITE=trixie
          _work=$PWD/target/oracle/linux-6.12; _fix=$PWD/oracle/fixtures/linux-6.12 ;;
    *) echo "oracle: ORACLE_KERNEL is 6.1 or 6.12, not $ORACLE_KERNEL" >&2; exit 2 ;;
esac
KDIR=${ORACLE_KERNEL_DIR:-$ORACLE_CACHE/linux-image-$KVER}
WORK=${ORACLE_WORK:-$_work}
FIXTURES=${ORACLE_FIXTURES:-$_fix}
# Debian 12 keeps modules under lib/modules/, Debian 13 under usr/lib/modules/ (as .ko.xz).
if [[ -d $KDIR/usr/lib/modules/$KVER ]]; then MODDIR=$KDIR/usr/lib/modules/$KVER
else MODDIR=$KDIR/lib/modules/$KVER; fi
unset _work _fix
