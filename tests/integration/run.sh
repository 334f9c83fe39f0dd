#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Integration tests of mod_profile against a real Apache httpd 2.4.
#
# `make check` runs this with HTTPD, PYTHON3, MODULE, SRCDIR and BUILDDIR in
# the environment; by hand it works without any of them:
#
#     tests/integration/run.sh [pytest arguments...]
#
# INTEGRATION_TESTS names the test files to run (paths relative to SRCDIR,
# separated by spaces; default: all of tests/integration but the browser
# tests, test_browser.py and test_page.py, which browser.sh runs).  PROFILE_MPM,
# PROFILE_MODSET and PROFILE_PHP choose the server configuration
# (httpd_harness.py; matrix.sh runs the others).  PROFILE_TEST_JOBS sets
# how many tests run at once (default: one per core).
#
# Exit status: pytest's, or 77 (automake SKIP) when there is no httpd to
# test with, or 99 (automake hard error) when the module is not built.
here=$(cd "$(dirname "$0")" && pwd)

: "${SRCDIR:=$(cd "$here/../.." && pwd)}"
: "${BUILDDIR:=$SRCDIR}"
# Unset: Debian's binary.  Set but empty (configure found none): skip.
HTTPD=${HTTPD-/usr/sbin/apache2}
: "${MODULE:=$BUILDDIR/mod_profile/.libs/mod_profile.so}"

if [ -z "$HTTPD" ] || [ ! -x "$HTTPD" ]; then
    echo "SKIP: no httpd binary (HTTPD='$HTTPD')" >&2
    exit 77
fi
if [ ! -f "$MODULE" ]; then
    echo "ERROR: module not built: $MODULE" >&2
    exit 99
fi

# Debian's python3-pytest belongs to /usr/bin/python3; a python3 earlier on
# PATH (pyenv) may have no pytest.
PY=
for candidate in /usr/bin/python3 "${PYTHON3:-}" python3; do
    [ -n "$candidate" ] || continue
    if "$candidate" -c 'import pytest' >/dev/null 2>&1; then
        PY=$candidate
        break
    fi
done
if [ -z "$PY" ]; then
    echo "SKIP: no python3 with pytest" >&2
    exit 77
fi

HTTPD=$(command -v "$HTTPD")
case $MODULE in /*) ;; *) MODULE=$(pwd)/$MODULE ;; esac
export HTTPD MODULE SRCDIR BUILDDIR
# The source tree may be read-only (distcheck): no bytecode, no cache.
export PYTHONDONTWRITEBYTECODE=1

# A sanitized build (configure --enable-sanitizers sets SANITIZER_RUNTIME):
# the ASan runtime is preloaded into httpd, which is not built with it.
# Reports go to httpd's error log (the children's stderr) or to the output
# of the httpd commands the harness runs, and fail the test (conftest.py).
# The harness passes HTTPD_ENV_NAME to httpd as NAME.
if [ -n "${SANITIZER_RUNTIME:-}" ]; then
    if ! nm -D "$MODULE" | grep -q ' U __asan_report'; then
        echo "ERROR: $MODULE is not built with ASan" >&2
        exit 99
    fi
    # httpd's own pools are never freed at exit: no leak checking there
    # (the fuzzers check the core for leaks).  A crashed child must leave
    # its core as in the plain build, for crash_triage.py to tell httpd's
    # own restart crashes from ours: ASan turns core dumps off unless
    # told otherwise, and under it httpd's event MPM restart crash
    # (notes/httpd-event-restart-crash.md) comes within tens of restarts.
    HTTPD_ENV_LD_PRELOAD=$SANITIZER_RUNTIME
    HTTPD_ENV_ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:disable_coredump=0
    HTTPD_ENV_UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    export HTTPD_ENV_LD_PRELOAD HTTPD_ENV_ASAN_OPTIONS HTTPD_ENV_UBSAN_OPTIONS
    # profilectl runs sanitized and checks its leaks; the ones it
    # suppresses (libgettextpo's own, po/po.c) are not reported, and their
    # statistics must not trail the messages the tests read.
    LSAN_OPTIONS="print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
    export LSAN_OPTIONS
    echo "httpd runs with LD_PRELOAD=$SANITIZER_RUNTIME"
fi

# Both cores (or PROFILE_TEST_JOBS): pytest-xdist runs the tests in that
# many worker processes, each test server on its own free port and scratch
# directory as in a serial run.  PROFILE_TEST_JOBS=1, or no xdist, runs
# them one at a time in this process.
jobs=${PROFILE_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in ''|*[!0-9]*) jobs=1 ;; esac
if [ "$jobs" -gt 1 ] && "$PY" -c 'import xdist' >/dev/null 2>&1; then
    set -- -p xdist -n "$jobs" --dist loadfile "$@"
elif [ "$jobs" -gt 1 ]; then
    echo "NOTE: no pytest-xdist (python3-pytest-xdist): one test at a time"
fi

cd "$SRCDIR" || exit 99
if [ -z "${INTEGRATION_TESTS:-}" ]; then
    set -- --ignore=tests/integration/test_browser.py \
        --ignore=tests/integration/test_page.py "$@"
fi
# shellcheck disable=SC2086  # a list of paths
"$PY" -m pytest -q -p no:cacheprovider ${INTEGRATION_TESTS:-tests/integration} \
    "$@"
exit $?
