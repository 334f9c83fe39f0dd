#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Fuzzes one libFuzzer target of the pure core for a while.
#
#     tests/fuzz/run.sh TARGET SECONDS [libFuzzer options...]
#
# TARGET is store, lang, query, route or api; tests/fuzz/fuzz_TARGET must
# be built (`make fuzz` does both).  New inputs go to FUZZ_WORK (default
# BUILDDIR/tests/fuzz/work/TARGET), the seed corpus
# tests/fuzz/corpus/TARGET is read but never written, and a crash, leak,
# sanitizer report, timeout (confirmed by running the input again) or
# out-of-memory is saved in BUILDDIR/tests/fuzz/findings/TARGET/.  The
# run's log is FUZZ_WORK.log.
#
# Limits as OSS-Fuzz sets them, so that a super-linear input is a finding
# (CONTRACT §9: loading or refusing a file is linear in its size and
# bounded in memory): an input running longer than FUZZ_TIMEOUT seconds
# (default 10), a process above FUZZ_RSS_MB of RSS (default 512) or one
# malloc above FUZZ_MALLOC_MB (default 256).  For store, inputs up to
# 1 MiB, and the hostile data files (tests/integration/hostile_files.py)
# at FUZZ_HOSTILE_SIZE bytes (default 1048576; 0: none) generated into
# FUZZ_WORK.hostile and run first, read only, as a second seed corpus.
# Exit status: 0 when the time (or -runs) ran out without
# a finding, 1 with one, 99 when the fuzzer is not built.
here=$(cd "$(dirname "$0")" && pwd)
: "${SRCDIR:=$(cd "$here/../.." && pwd)}"
: "${BUILDDIR:=$SRCDIR}"

if [ $# -lt 2 ]; then
    echo "usage: $0 TARGET SECONDS [libFuzzer options...]" >&2
    exit 2
fi
target=$1
seconds=$2
shift 2

# Inputs longer than these add nothing but time: a request fits in
# 1 KiB.  A data file that exercises every rule fits in 4 KiB, but the
# loader's cost must be seen growing with the size: 1 MiB, the size of
# the hostile seeds, at which a quadratic refusal takes minutes.
case $target in
    store) max_len=1048576 ;;
    api) max_len=1024 ;;
    query) max_len=512 ;;
    lang) max_len=256 ;;
    route) max_len=128 ;;
    jrdate) max_len=64 ;;
    linkedin) max_len=8192 ;;
    compiled) max_len=1024 ;;
    *) echo "unknown target '$target'" >&2; exit 2 ;;
esac

bin=$BUILDDIR/tests/fuzz/fuzz_$target
if [ ! -x "$bin" ]; then
    echo "ERROR: $bin is not built (make tests/fuzz/fuzz_$target)" >&2
    exit 99
fi
: "${FUZZ_WORK:=$BUILDDIR/tests/fuzz/work/$target}"
findings=$BUILDDIR/tests/fuzz/findings/$target
mkdir -p "$FUZZ_WORK" "$findings" || exit 99
dict=$SRCDIR/tests/fuzz/dict/$target.dict
log=$FUZZ_WORK.log
: "${FUZZ_TIMEOUT:=10}"
: "${FUZZ_RSS_MB:=512}"
: "${FUZZ_MALLOC_MB:=256}"
: "${FUZZ_HOSTILE_SIZE:=1048576}"
: "${PYTHON3:=python3}"
# ASan's quarantine of freed memory (256 MB by default) counts against
# the RSS limit: 64 MB, unless ASAN_OPTIONS says otherwise.
: "${ASAN_OPTIONS:=quarantine_size_mb=64}"
export ASAN_OPTIONS

hostile=
if [ "$target" = store ] && [ "$FUZZ_HOSTILE_SIZE" -gt 0 ]; then
    hostile=$FUZZ_WORK.hostile
    mkdir -p "$hostile" || exit 99
    for kind in $("$PYTHON3" "$SRCDIR/tests/integration/hostile_files.py" \
                  --list); do
        case $kind in fifo|zero-link|dir|fifo-link) continue ;; esac
        [ -f "$hostile/$kind.json" ] && continue
        "$PYTHON3" "$SRCDIR/tests/integration/hostile_files.py" "$kind" \
            "$FUZZ_HOSTILE_SIZE" "$hostile/$kind.json" || exit 99
    done
fi

echo "fuzzing $target for ${seconds}s (log $log)"
status=$FUZZ_WORK.status
{
    # shellcheck disable=SC2086  # $hostile: empty or one directory
    nice -n 10 "$bin" -max_total_time="$seconds" -max_len="$max_len" \
        -timeout="$FUZZ_TIMEOUT" -rss_limit_mb="$FUZZ_RSS_MB" \
        -malloc_limit_mb="$FUZZ_MALLOC_MB" -print_final_stats=1 \
        -artifact_prefix="$findings/" -dict="$dict" "$@" "$FUZZ_WORK" \
        "$SRCDIR/tests/fuzz/corpus/$target" $hostile
    echo $? > "$status"
} > "$log" 2>&1
rc=$(cat "$status")
rm -f "$status"

# The last status line and the totals.
grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' \
    "$log"
# libFuzzer times units by the wall clock: a machine that stalls, or
# whose clock jumps, makes a "timeout" of an input that takes
# milliseconds.  A timeout counts when the input is slow again alone,
# under the same limit.
artifact=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
case $artifact in
    */timeout-*)
        if timeout $((FUZZ_TIMEOUT * 3 + 30)) "$bin" \
                -timeout="$FUZZ_TIMEOUT" -rss_limit_mb="$FUZZ_RSS_MB" \
                "$artifact" > "$log.again" 2>&1
        then
            echo "timeout not reproduced: $artifact runs at once alone" \
                 "(the clock jumped or the machine stalled); run stopped" \
                 "early, no finding"
            mv "$artifact" "$findings/unconfirmed-${artifact##*/}"
            rc=0
        fi
        rm -f "$log.again"
        ;;
esac
if [ "$rc" -ne 0 ]; then
    echo "FINDING in $target (exit $rc):"
    grep -E 'ERROR:|runtime error:|invariant broken|Test unit written|out-of-memory|timeout after' \
        "$log" | head -20
    echo "full log: $log"
    echo "replay: $BUILDDIR/tests/fuzz/replay $target FILE" \
         "(or $bin FILE); keep it in tests/fuzz/corpus/$target/"
    exit 1
fi
exit 0
