#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make check-fuzz`: fuzzes each libFuzzer target for FUZZ_CHECK_SECONDS
# (default 15), starting from its seed corpus, into a scratch directory,
# with the limits of run.sh (-timeout, -rss_limit_mb, -malloc_limit_mb;
# store: inputs up to 1 MiB and the hostile files, docs/fuzzing.md).
# Exit 77 (SKIP) when configure found no clang with libFuzzer, so the
# fuzzers were not built; scripts/install-deps installs it.
here=$(cd "$(dirname "$0")" && pwd)
: "${SRCDIR:=$(cd "$here/../.." && pwd)}"
: "${BUILDDIR:=$SRCDIR}"
: "${FUZZ_CHECK_SECONDS:=15}"
export SRCDIR BUILDDIR

targets="store lang query route api jrdate linkedin compiled"
for t in $targets; do
    if [ ! -x "$BUILDDIR/tests/fuzz/fuzz_$t" ]; then
        echo "SKIP: $BUILDDIR/tests/fuzz/fuzz_$t not built (no clang" \
             "with libFuzzer when configured)"
        exit 77
    fi
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/mod_profile-fuzz.XXXXXX") || exit 99
trap 'rm -rf "$scratch"' EXIT
# Each fuzzer is one process: two lanes (PROFILE_TEST_JOBS, default one
# per core) fuzz side by side, each target for its full time.
jobs=${PROFILE_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in ''|*[!0-9]*|0) jobs=1 ;; esac
lane() {
    n=0
    for t in "$@"; do
        FUZZ_WORK=$scratch/$t sh "$here/run.sh" "$t" \
            "$FUZZ_CHECK_SECONDS" > "$scratch/$t.out" 2>&1 || n=$((n + 1))
    done
    echo "$n" > "$scratch/lane.$$.$1"
}
i=0
lanes=
for t in $targets; do
    k=$((i % jobs))
    eval "lane_$k=\"\${lane_$k:-} $t\""
    i=$((i + 1))
done
k=0
while [ "$k" -lt "$jobs" ] && [ "$k" -lt "$i" ]; do
    eval "set -- \$lane_$k"
    lane "$@" &
    lanes="$lanes $!"
    k=$((k + 1))
done
# shellcheck disable=SC2086  # a list of process ids
wait $lanes
failed=0
for t in $targets; do
    cat "$scratch/$t.out"
    if [ -f "$scratch/$t.log" ] && grep -q 'Test unit written' \
            "$scratch/$t.log"; then
        cat "$scratch/$t.log"
    fi
done
for f in "$scratch"/lane.*; do
    [ -f "$f" ] || { failed=$((failed + 1)); continue; }
    failed=$((failed + $(cat "$f")))
done
passed=$(( $(echo $targets | wc -w) - failed ))
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
