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

targets="store lang query route api jrdate linkedin"
for t in $targets; do
    if [ ! -x "$BUILDDIR/tests/fuzz/fuzz_$t" ]; then
        echo "SKIP: $BUILDDIR/tests/fuzz/fuzz_$t not built (no clang" \
             "with libFuzzer when configured)"
        exit 77
    fi
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/mod_profile-fuzz.XXXXXX") || exit 99
trap 'rm -rf "$scratch"' EXIT
failed=0
for t in $targets; do
    FUZZ_WORK=$scratch/$t sh "$here/run.sh" "$t" \
        "$FUZZ_CHECK_SECONDS" || failed=$((failed + 1))
    if [ -f "$scratch/$t.log" ] && grep -q 'Test unit written' \
            "$scratch/$t.log"; then
        cat "$scratch/$t.log"
    fi
done
passed=$(( $(echo $targets | wc -w) - failed ))
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
