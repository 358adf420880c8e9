# The kernel oracle's settings, sourced by the other oracle/*.sh scripts (from the repository's
# root). Each may be overridden from the environment.
#   ORACLE_KVER        the Debian kernel ABI name; the package is linux-image-$ORACLE_KVER
#   ORACLE_KERNEL_DIR  where that package is unpacked (outside target/: cargo clean keeps it)
#   ORACLE_WORK        initramfs, disk images, raw runs (ignored by git)
#   ORACLE_FIXTURES    the fixtures folder (oracle/fixtures; another to try the check on)
KVER=${ORACLE_KVER:-6.1.0-57-amd64}
KDIR=${ORACLE_KERNEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mmcsim-oracle/linux-image-$KVER}
WORK=${ORACLE_WORK:-$PWD/target/oracle}
FIXTURES=${ORACLE_FIXTURES:-$PWD/oracle/fixtures}
