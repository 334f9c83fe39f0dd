#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make check-sanitize`: the same source built with --enable-sanitizers
# (ASan and UBSan) in BUILDDIR/sanitize-build, and that build's
# `make check-all`: unit tests and corpus replays under the sanitizers,
# and the whole integration suite and the browser test with the sanitized
# module inside Debian's stock apache2, the ASan runtime preloaded
# (tests/integration/run.sh; the configuration matrix runs the same lines
# of the module, and runs in the plain build only).  Any sanitizer report
# fails it.
#
# The copy of the source comes from `make distdir` (an in-tree configured
# source directory cannot host a VPATH build); it lies outside the
# directories the tarball copies whole.  Needs CC, APXS and MAKE from the
# parent build (TESTS_ENVIRONMENT); exit 77 (SKIP) without an httpd to
# test with, as the integration suite does.
here=$(cd "$(dirname "$0")" && pwd)
: "${SRCDIR:=$(cd "$here/../.." && pwd)}"
: "${BUILDDIR:=$SRCDIR}"
: "${MAKE:=make}"
HTTPD=${HTTPD-/usr/sbin/apache2}

if [ -z "$HTTPD" ] || [ ! -x "$HTTPD" ]; then
    echo "SKIP: no httpd binary (HTTPD='$HTTPD')"
    exit 77
fi

top=$BUILDDIR/sanitize-build
rm -rf "$top" && mkdir -p "$top" || exit 99
log=$top/build.log
# The parent's job server is not ours to use.
unset MAKEFLAGS MFLAGS MAKELEVEL

step() {
    echo "== $*"
    "$@" >> "$log" 2>&1 || {
        echo "FAILED: $*"
        tail -40 "$log"
        exit 1
    }
}

echo "sanitized build in $top (log $log)"
step $MAKE -C "$BUILDDIR" distdir distdir="$top/src"
mkdir "$top/build" || exit 99
cd "$top/build" || exit 99
step "$top/src/configure" --enable-sanitizers ${CC:+CC="$CC"} \
    ${APXS:+--with-apxs="$APXS"}
grep -E '^ +sanitizers:' "$log"
step nice -n 10 $MAKE -j2
# The module must carry the instrumentation, or the run proves nothing.
module=$top/build/mod_profile/.libs/mod_profile.so
if ! nm -D "$module" | grep -q ' U __asan_report' \
   || ! nm -D "$module" | grep -q ' U __ubsan_handle'; then
    echo "ERROR: $module is not instrumented by ASan and UBSan"
    exit 99
fi

nice -n 10 $MAKE -j2 check-all > "$top/check.log" 2>&1
rc=$?
grep -E '^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR):' "$top/check.log"
tail -1 "$top/check.log"
if [ $rc -ne 0 ]; then
    for f in "$top"/build/tests/*/*.log "$top"/build/tests/*.log; do
        [ -f "$f" ] || continue
        case $f in */test-suite.log) continue ;; esac
        if grep -qE '^:test-result: (FAIL|ERROR)' "${f%.log}.trs" \
                2>/dev/null; then
            echo "---- $f"
            tail -60 "$f"
        fi
    done
    echo "the sanitized build's make check-all failed (logs in $top/build)"
    exit 1
fi
echo "sanitized build: every test passed with no sanitizer report"
exit 0
