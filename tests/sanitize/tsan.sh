#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make check-sanitize`: the threaded loader under ThreadSanitizer.  Runs
# tests/sanitize/tsan-store-threads, the unit test
# tests/unit/test_store_threads.c and the core built with
# -fsanitize=thread (Makefile.am): generated data above the threads'
# threshold loaded on threads and on one CPU.  Any ThreadSanitizer report
# fails it.
#
# First it runs tests/sanitize/tsan-canary, a deliberate data race, which
# must be reported and must fail its run: a detector that cannot see a
# race, or a report that does not fail, would make a clean run mean
# nothing.
#
# Exit 77 (SKIP) when configure found no compiler that builds with
# -fsanitize=thread, when the TSan runtime cannot start on this kernel,
# or when the test skips itself (fewer than 2 usable CPUs).
here=$(cd "$(dirname "$0")" && pwd)
: "${SRCDIR:=$(cd "$here/../.." && pwd)}"
: "${BUILDDIR:=$SRCDIR}"
test_bin=$BUILDDIR/tests/sanitize/tsan-store-threads
canary=$BUILDDIR/tests/sanitize/tsan-canary

if [ ! -x "$test_bin" ] || [ ! -x "$canary" ]; then
    echo "SKIP: no ThreadSanitizer build (configure found no compiler" \
         "that builds with -fsanitize=thread; set TSAN_CC)"
    exit 77
fi
# The core must carry the instrumentation, or the run proves nothing.
if ! nm "$test_bin" | grep -q '__tsan_read'; then
    echo "ERROR: $test_bin is not instrumented by ThreadSanitizer"
    exit 99
fi

TSAN_OPTIONS="halt_on_error=1:exitcode=66${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
export TSAN_OPTIONS
out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT
wrap=""

# Runs "$@" with its output in $out; returns its status.
run() {
    $wrap "$@" > "$out" 2>&1
}

# The canary.  TSan runtimes before LLVM 18 cannot start with the high
# mmap randomization of recent kernels ("unexpected memory mapping"):
# then again without address randomization, if the system lets us.
run "$canary"
rc=$?
if grep -q 'FATAL: ThreadSanitizer' "$out"; then
    wrap="setarch $(uname -m) -R"
    echo "== the TSan runtime cannot start; again under '$wrap'"
    run "$canary"
    rc=$?
    if [ $rc -ne 0 ] && ! grep -q 'WARNING: ThreadSanitizer' "$out"; then
        echo "SKIP: the ThreadSanitizer runtime cannot run here"
        exit 77
    fi
fi
if [ $rc -eq 0 ] || ! grep -q 'WARNING: ThreadSanitizer: data race' "$out"
then
    cat "$out"
    echo "ERROR: the deliberate race of $canary was not reported as one" \
         "(status $rc)"
    exit 99
fi
echo "== canary: $(grep -m1 '^SUMMARY: ThreadSanitizer' "$out"), status" \
     "$rc: a race in the loader would fail this test"

start=$(date +%s)
run "$test_bin"
rc=$?
cat "$out"
echo "== $(basename "$test_bin"): status $rc in $(( $(date +%s) - start )) s"
if grep -q 'ThreadSanitizer' "$out"; then
    echo "FAIL: ThreadSanitizer reported a problem (above)"
    exit 1
fi
exit $rc
