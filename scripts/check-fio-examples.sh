#!/bin/sh
# Runs every job file in a fio checkout's examples/ through mmcsim and reports, for the examples
# whose engine is a block-device engine (sync, psync, vsync, pvsync, pvsync2, libaio, io_uring,
# posixaio, or none given), how many run and why each other one is refused.
#
#   git clone https://github.com/axboe/fio /tmp/fio
#   scripts/check-fio-examples.sh /tmp/fio
#
# Each example runs in a scratch directory (its log files land there) with a time limit
# (MMCSIM_EXAMPLE_TIMEOUT, default 300 s). Variables the examples expect from the environment
# get a default (FIO_BS=4k, FIO_RW=randread, FIO_IODEPTH=1: the values of the examples' own
# [global] sections). A file that sets no ioengine= is classed by the --ioengine= of the fio
# command lines its comments document (the xnvme-* examples: only those that also document an
# io_uring baseline count as block-device examples). Exit status 0 when at least 90 % of the block-device examples run
# and every refusal names the option at fault; 1 otherwise; 2 on bad usage.
set -u

fio_dir=${1:-}
if [ -z "$fio_dir" ] || [ ! -d "$fio_dir/examples" ]; then
    echo "usage: $0 FIO_CHECKOUT   (a directory with fio's examples/*.fio)" >&2
    exit 2
fi
fio_dir=$(cd "$fio_dir" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
mmcsim=${MMCSIM:-$root/target/release/mmcsim}
if [ -z "${MMCSIM:-}" ]; then
    (cd "$root" && cargo build --release -q -p mmcsim-cli) || exit 2
fi
limit=${MMCSIM_EXAMPLE_TIMEOUT:-300}
export FIO_BS="${FIO_BS:-4k}"
export FIO_RW="${FIO_RW:-randread}"
export FIO_IODEPTH="${FIO_IODEPTH:-1}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

block_engines=" sync psync vsync pvsync pvsync2 libaio io_uring posixaio "
total=0 ran=0 refused=0 unnamed=0 other=0
for f in "$fio_dir"/examples/*.fio; do
    name=$(basename "$f")
    # The engines the file names (comments and spaces stripped); none means fio's default.
    engines=$(sed -n 's/[;#].*//; s/^[[:space:]]*ioengine[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' "$f" | sort -u)
    block=1
    if [ -z "$engines" ]; then
        # No ioengine= in the job text: the engine is the one the file's usage comment passes
        # on fio's command line (`; fio this.fio --ioengine=xnvme ...`). The file counts as a
        # block-device example if any documented invocation uses a block-device engine (or
        # none is documented: fio's default, psync).
        documented=$(sed -n 's/^[[:space:]]*[;#].*--ioengine=\([A-Za-z0-9_]*\).*/\1/p' "$f" | sort -u)
        if [ -n "$documented" ]; then
            block=0
            for e in $documented; do
                case "$block_engines" in
                    *" $e "*) block=1 ;;
                esac
            done
            [ "$block" = 0 ] && engines=$documented
        fi
    fi
    for e in $engines; do
        case "$block_engines" in
            *" $e "*) ;;
            *) block=0 ;;
        esac
    done
    if [ "$block" = 0 ]; then
        other=$((other + 1))
        printf 'skip     %-36s engine %s (not a block-device engine)\n' "$name" "$(echo $engines | tr ' ' ',')"
        continue
    fi
    total=$((total + 1))
    dir="$scratch/$name"
    mkdir -p "$dir"
    (cd "$dir" && timeout "$limit" "$mmcsim" "$f" --output-format=json >/dev/null 2>"$dir/.stderr")
    code=$?
    # The notes (options without effect, buffered I/O, trims left out) are not the refusal.
    err=$(grep -v -e '^mmcsim: accepted, no effect' -e 'runs as direct I/O' \
        -e 'trims/discards left out' "$dir/.stderr" | head -n 1)
    case "$code" in
        0)
            ran=$((ran + 1))
            printf 'run      %s\n' "$name"
            ;;
        124)
            printf 'TIMEOUT  %-36s (over %s s)\n' "$name" "$limit"
            unnamed=$((unnamed + 1))
            ;;
        *)
            refused=$((refused + 1))
            # A refusal names the option: "mmcsim: FILE: line N: OPTION: why" or "mmcsim: OPTION: why".
            if echo "$err" | grep -q -E '^mmcsim: ([^ ]+: line [0-9]+: )?[A-Za-z_0-9.-]+: '; then
                printf 'refused  %-36s %s\n' "$name" "${err#mmcsim: }"
            else
                unnamed=$((unnamed + 1))
                printf 'UNNAMED  %-36s %s\n' "$name" "${err#mmcsim: }"
            fi
            ;;
    esac
done
echo
pct=0
[ "$total" -gt 0 ] && pct=$((ran * 100 / total))
echo "block-device examples: $total; run: $ran ($pct %); refused naming the option: $((refused + 0)); not named or timed out: $unnamed; other engines skipped: $other"
if [ "$pct" -ge 90 ] && [ "$unnamed" -eq 0 ]; then
    exit 0
fi
exit 1
